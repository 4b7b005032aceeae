/*
 * The game's JSON read strictly (W40, W41, W43–W46): numbers written as strings read whole or
 * refused at their member, `fogged` checked as `standing` is, repeated ids refused, every bad
 * item of a list named, a kill rate written as a fraction, the game's "Neutral" on combatd's
 * own endpoints, an income that had to be computed, binary noise in a decimal read the same on
 * every endpoint, and /warzone/plan-turn's `value` written as /plan-turn writes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static char *last_body;

static int run_at(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

/* `body` with its first `from` replaced by `to` into out. */
static void replaced(const char *body, const char *from, const char *to, char *out, size_t size) {
    const char *at = strstr(body, from);
    cr_assert(at, "%s not in the body", from);
    snprintf(out, size, "%.*s%s%s", (int)(at - body), body, to, at + strlen(from));
}

/*
 * 100 holds 1 with 7, 200 holds 2 with 4, 3 is Neutral's with 2; 100 sends 6 from 1 to 2 at
 * 60/70 and 16 % luck: kills round(0.16·X + 3.024), X ~ Bin(6, 0.6), at least 4 iff X >= 3,
 * so the capture chance is 1 − (0.4^6 + 6·0.6·0.4^5 + 15·0.36·0.4^4) = 1 − 0.1792 = 0.8208.
 * Bonus 1 (1 and 2) is worth 2, overridden to 4; bonus 2 (3) 1.
 */
#define TURN                                                                                       \
    "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70, \"LuckModifier\": " \
    "0.16, \"MinimumArmyBonus\": \"5\", \"OverriddenBonuses\": [{\"bonusID\": 1, \"value\": "      \
    "\"4\"}]}, \"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": [2]}, {\"id\": 2}, "       \
    "{\"id\": 3}], \"bonuses\": [{\"id\": 1, \"value\": 2, \"territoryIDs\": [1, 2]}, {\"id\": "   \
    "2, \"value\": 1, \"territoryIDs\": [3]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": 100, " \
    "\"armies\": 7}, {\"terrID\": 2, \"ownedBy\": 200, \"armies\": 4}, {\"terrID\": 3, "           \
    "\"ownedBy\": \"Neutral\", \"armies\": 2}], \"players\": [{\"id\": 100}, {\"id\": 200}], "     \
    "\"orders\": [{\"type\": \"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, "        \
    "\"to\": 2, \"numArmies\": \"6\"}]}"

/* W40: a bonus value given as a string is its digits with an optional sign, or a 422 at the
 * item's own `value`; never read in part ("12abc" was 12, "4.9" 4, "1e12" 1, "abc" 0). */
Test(warzone_strict_api, w40_bonus_values_read_whole) {
    const char *bad[] = {"\"abc\"", "\"\"",   "\"0x10\"", "\"12abc\"", "\"4.9\"", "\"1e12\"",
                         "\" 4\"",  "\"4 \"", "\"--4\"",  "4.5",       "true",    "\"1000000001\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char over[80], body[4096], body2[4096];
        snprintf(over, sizeof over, "\"value\": %s}]}", bad[i]);
        replaced(TURN, "\"value\": \"4\"}]}", over, body, sizeof body);
        json_t *doc;
        cr_expect_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
        cr_expect(has_error(doc, "/settings/OverriddenBonuses/0/value", "whole number"),
                  "case %zu: %s", i, last_body);
        json_decref(doc);
        snprintf(over, sizeof over, "\"value\": %s, \"territoryIDs\": [3]", bad[i]);
        replaced(TURN, "\"value\": 1, \"territoryIDs\": [3]", over, body2, sizeof body2);
        cr_expect_eq(run_at("/warzone/analyze-turn", body2, &doc), 422, "%s", last_body);
        cr_expect(has_error(doc, "/map/bonuses/1/value", "whole number"), "case %zu: %s", i,
                  last_body);
        json_decref(doc);
    }
}

/* Signed strings are read whole: bonus 1 overridden to "-3" gives 100 an income of
 * 5 − 3 · 0.8208 = 2.5376; bonus 2 written "+1" is 1 (Neutral's: no one's income). */
Test(warzone_strict_api, w40_signed_bonus_strings) {
    char body[4096], body2[4096];
    replaced(TURN, "\"value\": \"4\"}]}", "\"value\": \"-3\"}]}", body, sizeof body);
    replaced(body, "\"value\": 1, \"territoryIDs\"", "\"value\": \"+1\", \"territoryIDs\"", body2,
             sizeof body2);
    json_t *doc;
    cr_assert_eq(run_at("/warzone/analyze-turn", body2, &doc), 200, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/1/value")), -3);
    cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/2/value")), 1);
    cr_expect_float_eq(json_number_at(doc, "income/100"), 2.5376, 1e-12);
    json_decref(doc);
}

/* Every bad item of a list is named, not only the first; a repeated override is refused. */
Test(warzone_strict_api, w40_every_bad_item_named) {
    char body[4096];
    replaced(TURN, "[{\"bonusID\": 1, \"value\": \"4\"}]",
             "[{\"bonusID\": 1, \"value\": \"4x\"}, {\"bonusID\": 2, \"value\": \"y\"}, "
             "{\"bonusID\": 1, \"value\": 3}]",
             body, sizeof body);
    json_t *doc;
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/settings/OverriddenBonuses/0/value", NULL), "%s", last_body);
    cr_expect(has_error(doc, "/settings/OverriddenBonuses/1/value", NULL), "%s", last_body);
    cr_expect(has_error(doc, "/settings/OverriddenBonuses/2/bonusID", "repeats bonus 1"), "%s",
              last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 3, "%s", last_body);
    json_decref(doc);
    /* Two bad territories of one bonus, and a bad value of another: all three named. */
    replaced(TURN, "\"territoryIDs\": [1, 2]}, {\"id\": 2, \"value\": 1,",
             "\"territoryIDs\": [1, 8, 9]}, {\"id\": 2, \"value\": \"1.5\",", body, sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/map/bonuses/0/territoryIDs/1", NULL), "%s", last_body);
    cr_expect(has_error(doc, "/map/bonuses/0/territoryIDs/2", NULL), "%s", last_body);
    cr_expect(has_error(doc, "/map/bonuses/1/value", "not the string \"1.5\""), "%s", last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 3, "%s", last_body);
    json_decref(doc);
    /* A bad bonus and a bad standing: the standing is still read, and both are named. */
    char body2[4096];
    replaced(TURN, "\"value\": 1, \"territoryIDs\"", "\"value\": \"x\", \"territoryIDs\"", body2,
             sizeof body2);
    replaced(body2, "\"armies\": 7}", "\"armies\": \"7a\"}", body, sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/map/bonuses/1/value", NULL), "%s", last_body);
    cr_expect(has_error(doc, "/standing/0/armies", NULL), "%s", last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 2, "%s", last_body);
    json_decref(doc);
}

/* Player ids and incomes: a player twice is a 422 at the second; `incomes` that is not a list
 * is a 422 at it (it was ignored), as is a player twice in it. */
Test(warzone_strict_api, w40_repeated_players_and_bad_incomes) {
    struct {
        const char *from, *to, *pointer, *detail;
    } cases[] = {
        {"{\"id\": 200}]", "{\"id\": 200}, {\"id\": \"100\"}]", "/players/2/id", "repeats player"},
        {"\"players\":", "\"incomes\": \"x\", \"players\":", "/incomes", "not the string \"x\""},
        {"\"players\":", "\"gameInfo\": {\"incomes\": 5}, \"players\":", "/gameInfo/incomes",
         "not the number 5"},
        {"\"players\":",
         "\"incomes\": [{\"playerID\": 100, \"freeArmies\": 5}, {\"playerID\": \"100\", "
         "\"freeArmies\": 6}], \"players\":",
         "/incomes/1/playerID", "repeats player 100"},
        /* an id of the wrong JSON type says what it held */
        {"{\"terrID\": 3,", "{\"terrID\": 2.5,", "/standing/2/terrID", "not the number 2.5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[4096];
        replaced(TURN, cases[i].from, cases[i].to, body, sizeof body);
        json_t *doc;
        cr_expect_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "case %zu: %s", i,
                     last_body);
        cr_expect(has_error(doc, cases[i].pointer, cases[i].detail), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/* W41 beside a repeated id: `players` with 100 twice and no 200 names the repeat and 200, the
 * owner of 2 that is not a player, and 300, an order's player that is not one (a repeat used to
 * skip W41's check); a player listed after a repeat is still a player. */
Test(warzone_strict_api, w41_repeated_player_keeps_the_owner_check) {
    char body[4096], body2[4096];
    replaced(TURN, "[{\"id\": 100}, {\"id\": 200}]", "[{\"id\": 100}, {\"id\": \"100\"}]", body,
             sizeof body);
    replaced(body, "\"numArmies\": \"6\"}]",
             "\"numArmies\": \"6\"}, {\"type\": \"GameOrderDeploy\", \"playerID\": 300, "
             "\"deployOn\": 2, \"armies\": 1}]",
             body2, sizeof body2);
    json_t *doc;
    cr_assert_eq(run_at("/warzone/analyze-turn", body2, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/players/1/id", "repeats player 100"), "%s", last_body);
    cr_expect(has_error(doc, "/standing/1/ownedBy", "is 200, not a player"), "%s", last_body);
    cr_expect(has_error(doc, "/orders/1/playerID", "is 300, not a player"), "%s", last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 3, "%s", last_body);
    json_decref(doc);
    replaced(TURN, "[{\"id\": 100}, {\"id\": 200}]",
             "[{\"id\": 100}, {\"id\": 100}, {\"id\": 200}]", body, sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/players/1/id", "repeats player 100"), "%s", last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 1, "%s", last_body);
    json_decref(doc);
}

/* W51: an override of a bonus that map.bonuses does not list is a 422 at its bonusID (it was
 * ignored), named beside every other bad member; with the map's bonuses left out, every
 * override is one. An override of a listed bonus replaces its value: bonus 2 overridden to 6
 * is answered 6, and bonus 1 keeps its 2, so 100's income is 5 + 2 · 0.8208 = 6.6416. */
Test(warzone_strict_api, w51_override_of_a_bonus_not_on_the_map) {
    char body[4096], body2[4096];
    replaced(TURN, "[{\"bonusID\": 1, \"value\": \"4\"}]",
             "[{\"bonusID\": 1, \"value\": \"4\"}, {\"bonusID\": 9, \"value\": 3}, "
             "{\"bonusID\": \"x\", \"value\": 1}]",
             body, sizeof body);
    replaced(body, "\"armies\": 7}", "\"armies\": \"7a\"}", body2, sizeof body2);
    json_t *doc;
    cr_assert_eq(run_at("/warzone/analyze-turn", body2, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/settings/OverriddenBonuses/1/bonusID",
                        "is bonus 9, which map.bonuses does not list"),
              "%s", last_body);
    cr_expect(has_error(doc, "/settings/OverriddenBonuses/2/bonusID", "is bonus x,"), "%s",
              last_body);
    cr_expect(has_error(doc, "/standing/0/armies", NULL), "%s", last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 3, "%s", last_body);
    json_decref(doc);
    replaced(TURN,
             ", \"bonuses\": [{\"id\": 1, \"value\": 2, \"territoryIDs\": [1, 2]}, {\"id\": 2, "
             "\"value\": 1, \"territoryIDs\": [3]}]",
             "", body, sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/settings/OverriddenBonuses/0/bonusID", "is bonus 1,"), "%s",
              last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "errors")), 1, "%s", last_body);
    json_decref(doc);
    replaced(TURN, "[{\"bonusID\": 1, \"value\": \"4\"}]", "[{\"bonusID\": 2, \"value\": 6}]", body,
             sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 200, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/2/value")), 6, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/1/value")), 2, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "income/100"), 6.6416, 1e-12, "%s", last_body);
    json_decref(doc);
}

/* W41: `fogged` read as `standing` is. 2 is Fogged; its `fogged` entry must give an owner that
 * is a player (or Neutral), and every entry must be a Fogged territory of the map. */
Test(warzone_strict_api, w41_fogged_checked_as_standing) {
    char fog[4096];
    replaced(TURN, "{\"terrID\": 2, \"ownedBy\": 200, \"armies\": 4}",
             "{\"terrID\": 2, \"ownedBy\": \"Fogged\", \"armies\": \"Fogged\"}", fog, sizeof fog);
    struct {
        const char *fogged, *pointer, *detail;
    } cases[] = {
        {"{\"2\": {\"ownedBy\": 300, \"armies\": 4}}", "/fogged/2/ownedBy", "not a player"},
        {"{\"2\": {\"ownedBy\": \"Fogged\", \"armies\": 4}}", "/fogged/2/ownedBy", "known"},
        {"{\"2\": {\"ownedBy\": 200, \"armies\": 4}, \"1\": {\"ownedBy\": 100, \"armies\": 7}}",
         "/fogged/1", "not Fogged"},
        {"{\"2\": {\"ownedBy\": 200, \"armies\": 4}, \"9\": {\"ownedBy\": 200, \"armies\": 1}}",
         "/fogged/9", "not a territory of the map"},
        {"{\"2\": 4}", "/fogged/2", "{ownedBy, armies}"},
        {"[4]", "/fogged", "not an array"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char with[80 + 4096], body[4096];
        snprintf(with, sizeof with, "\"fogged\": %s, \"players\":", cases[i].fogged);
        replaced(fog, "\"players\":", with, body, sizeof body);
        json_t *doc;
        cr_expect_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "case %zu: %s", i,
                     last_body);
        cr_expect(has_error(doc, cases[i].pointer, cases[i].detail), "case %zu: %s", i, last_body);
        cr_expect(!has_error(doc, "/standing/1/armies", NULL), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
    /* Given right, 2 is 200's with 4, as in sight: the capture chance is 0.8208. */
    char body[4096];
    replaced(fog, "\"players\":",
             "\"fogged\": {\"2\": {\"ownedBy\": 200, \"armies\": \"4\"}}, \"players\":", body,
             sizeof body);
    json_t *doc;
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "orders/0/capture_probability"), 0.8208, 1e-12);
    json_decref(doc);
}

/* W43: a kill rate above 0 and under 1 is a fraction where the game writes percents: a 422
 * that says so. 1 is 1 %, and 0 stays 0. */
Test(warzone_strict_api, w43_kill_rate_fraction_refused) {
    const char *bad[] = {"\"OffensiveKillRate\": \"0.6\"", "\"OffensiveKillRate\": 0.6",
                         "\"OffensiveKillRate\": \"0.99\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[4096];
        replaced(TURN, "\"OffensiveKillRate\": \"60\"", bad[i], body, sizeof body);
        json_t *doc;
        cr_expect_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "case %zu: %s", i,
                     last_body);
        cr_expect(has_error(doc, "/settings/OffensiveKillRate", "60 means 60 %"), "case %zu: %s", i,
                  last_body);
        json_decref(doc);
    }
    char body[4096];
    replaced(TURN, "\"DefensiveKillRate\": 70", "\"DefensiveKillRate\": \"0.5\"", body,
             sizeof body);
    json_t *doc;
    cr_expect_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/settings/DefensiveKillRate", "percents"), "%s", last_body);
    json_decref(doc);
    /* At 1 % (0.01) 6 attackers kill round(0.16·X + 0.84·0.06) <= 1 of 4: never a capture. */
    replaced(TURN, "\"OffensiveKillRate\": \"60\"", "\"OffensiveKillRate\": \"1\"", body,
             sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "orders/0/capture_probability"), 0.0, 1e-12);
    json_decref(doc);
}

/* The same turn in combatd's own JSON, for /analyze-turn. */
#define PLAIN(owner3, luck)                                                                        \
    "{\"territories\": {\"1\": {\"owner\": \"100\", \"armies\": 7}, \"2\": {\"owner\": \"200\", "  \
    "\"armies\": 4}, \"3\": {\"owner\": " owner3 ", \"armies\": 2}}, \"settings\": "               \
    "{\"luck_modifier\": " luck "}, \"orders\": [{\"player\": \"100\", \"from\": \"1\", "          \
    "\"to\": \"2\", \"armies\": 6}]}"

/* W44: the game's "Neutral" on combatd's own endpoints is a 422 saying "neutral" is meant; an
 * id of the wrong JSON type says what it held. */
Test(warzone_strict_api, w44_game_neutral_on_plain_endpoints) {
    json_t *doc;
    cr_assert_eq(run_at("/analyze-turn", PLAIN("\"Neutral\"", "0.16"), &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories/3/owner", "combatd's is \"neutral\""), "%s", last_body);
    json_decref(doc);
    cr_assert_eq(run_at("/analyze-turn", PLAIN("2", "0.16"), &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories/3/owner", "a string of 1 to 64"), "%s", last_body);
    cr_expect(has_error(doc, "/territories/3/owner", "not the number 2"), "%s", last_body);
    json_decref(doc);
    const char *plan = "{\"territories\": {\"A\": {\"owner\": \"Neutral\", \"armies\": 3, "
                       "\"neighbors\": [\"B\"]}, \"B\": {\"owner\": \"x\", \"armies\": 1, "
                       "\"neighbors\": []}}, \"player\": \"x\", \"income\": 1, \"goal\": "
                       "{\"capture\": [\"A\"]}}";
    cr_assert_eq(run_at("/plan-turn", plan, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories/A/owner", "W44"), "%s", last_body);
    json_decref(doc);
    cr_assert_eq(run_at("/analyze-turn", PLAIN("\"neutral\"", "0.16"), &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "territories/3/owner/neutral"), 1.0, 1e-12);
    json_decref(doc);
}

/* W46: 0.16000000000000003 (the double after 0.16's) is 0.16 on both endpoints, with the
 * same capture chance, 0.8208; 0.1600001 is a 422 on both (W3). A kill rate of
 * 60.00000000000001 percent is 60. */
Test(warzone_strict_api, w46_binary_noise_one_answer) {
    const char *noisy = "0.16000000000000003";
    json_t *doc;
    cr_assert_eq(run_at("/analyze-turn", PLAIN("\"neutral\"", "0.16000000000000003"), &doc), 200,
                 "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "orders/0/capture_probability"), 0.8208, 1e-12);
    json_decref(doc);
    char body[4096], with[64];
    snprintf(with, sizeof with, "\"LuckModifier\": %s", noisy);
    replaced(TURN, "\"LuckModifier\": 0.16", with, body, sizeof body);
    cr_assert_eq(run_at("/warzone/analyze-turn", body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "orders/0/capture_probability"), 0.8208, 1e-12);
    json_decref(doc);
    char body2[4096];
    replaced(body, "\"OffensiveKillRate\": \"60\"", "\"OffensiveKillRate\": 60.00000000000001",
             body2, sizeof body2);
    cr_assert_eq(run_at("/warzone/analyze-turn", body2, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "orders/0/capture_probability"), 0.8208, 1e-12);
    json_decref(doc);

    cr_assert_eq(run_at("/analyze-turn", PLAIN("\"neutral\"", "0.1600001"), &doc), 422, "%s",
                 last_body);
    cr_expect(has_error(doc, "/settings/luck_modifier", "W3"), "%s", last_body);
    json_decref(doc);
    const char *far[] = {"0.1600001", "\"0.1600001\"", "\"0.16000000000000003x\""};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        snprintf(with, sizeof with, "\"LuckModifier\": %s", far[i]);
        replaced(TURN, "\"LuckModifier\": 0.16", with, body, sizeof body);
        cr_expect_eq(run_at("/warzone/analyze-turn", body, &doc), 422, "case %zu: %s", i,
                     last_body);
        cr_expect(has_error(doc, "/settings/LuckModifier", "W3"), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/* /warzone/plan-turn: 100 holds 1 (5), 200 holds 2 (6) and sends 5 at 1, 3 is Neutral's (4);
 * bonus 7 is 1 and 3, worth 3; 5 armies to deploy, objective income. */
#define PLAN(extra)                                                                                \
    "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "     \
    "0.16, \"MinimumArmyBonus\": 4}, \"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": "    \
    "[2, 3]}, {\"id\": 2}, {\"id\": 3}], \"bonuses\": [{\"id\": 7, \"value\": 3, "                 \
    "\"territoryIDs\": [1, 3]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\", "           \
    "\"armies\": 5}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": 6}, {\"terrID\": 3, "       \
    "\"ownedBy\": \"Neutral\", \"armies\": 4}], \"orders\": [{\"type\": "                          \
    "\"GameOrderAttackTransfer\", \"playerID\": \"200\", \"from\": 2, \"to\": 1, \"numArmies\": "  \
    "5}], \"playerID\": \"100\", \"objective\": \"income\"" extra "}"

/* The warning of an answer that holds `needle`, or NULL (a plan without the game's ids also
 * warns that send_orders is left out). */
static const char *warning_with(const json_t *doc, const char *needle) {
    const json_t *ws = json_walk(doc, "warnings");
    for (size_t k = 0; k < json_array_size(ws); k++) {
        const char *s = json_string_value(json_array_get(ws, k));
        if (s && strstr(s, needle)) {
            return s;
        }
    }
    return NULL;
}

/* The text of member "value" in a raw answer. */
static void value_text(const char *raw, char *out, size_t size) {
    const char *v = strstr(raw, "\"value\":");
    cr_assert(v, "%s", raw);
    v += strlen("\"value\":");
    size_t n = strcspn(v, ",}");
    snprintf(out, size, "%.*s", (int)n, v);
}

/* /warzone/plan-turn writes `value` as /plan-turn writes it, to the byte: here a number that
 * takes 17 digits (its 15-digit text, 2.4624, is another double). */
Test(warzone_strict_api, w40_plan_value_as_plan_turn_writes_it) {
    json_t *doc;
    cr_assert_eq(run_at("/warzone/plan-turn", PLAN(", \"income\": 5"), &doc), 200, "%s", last_body);
    char game[64], own[64];
    value_text(last_body, game, sizeof game);
    json_decref(doc);
    const char *plain =
        "{\"territories\": {\"1\": {\"owner\": \"100\", \"armies\": 5, \"neighbors\": [\"2\", "
        "\"3\"]}, \"2\": {\"owner\": \"200\", \"armies\": 6, \"neighbors\": []}, \"3\": "
        "{\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}}, \"settings\": "
        "{\"luck_modifier\": 0.16}, \"orders\": [{\"player\": \"200\", \"from\": \"2\", \"to\": "
        "\"1\", \"armies\": 5}], \"bonuses\": {\"7\": {\"value\": 3, \"territories\": [\"1\", "
        "\"3\"]}}, \"player\": \"100\", \"income\": 5, \"objective\": \"income\"}";
    cr_assert_eq(run_at("/plan-turn", plain, &doc), 200, "%s", last_body);
    value_text(last_body, own, sizeof own);
    json_decref(doc);
    cr_expect_str_eq(game, own);
    cr_expect_eq(strlen(own), strlen("2.4623999999999997"), "%s", own);
    cr_expect(strtod(own, NULL) != 2.4624, "%s", own);
}

/* W45: without `income` or `incomes` the income is MinimumArmyBonus plus the bonuses owned
 * whole (4 + 0: bonus 7 is not 100's whole), with a warning naming the player and the number;
 * `incomes` without the player is a 422 at it; with the player, no warning. */
Test(warzone_strict_api, w45_income_guessed_or_refused) {
    json_t *doc;
    cr_assert_eq(run_at("/warzone/plan-turn", PLAN(""), &doc), 200, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "income")), 4);
    const char *w = warning_with(doc, "W45");
    cr_assert_not_null(w, "%s", last_body);
    cr_expect(strstr(w, "player 100's income is taken as 4") != NULL, "%s", w);
    json_decref(doc);
    cr_assert_eq(run_at("/warzone/plan-turn",
                        PLAN(", \"gameInfo\": {\"incomes\": [{\"playerID\": 200, "
                             "\"freeArmies\": 5}]}"),
                        &doc),
                 422, "%s", last_body);
    cr_expect(has_error(doc, "/gameInfo/incomes", "lacks player 100"), "%s", last_body);
    json_decref(doc);
    cr_assert_eq(run_at("/warzone/plan-turn",
                        PLAN(", \"incomes\": [{\"playerID\": 100, \"freeArmies\": 5}]"), &doc),
                 200, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "income")), 5);
    cr_expect_null(warning_with(doc, "W45"), "%s", last_body);
    json_decref(doc);
    /* A goal territory given twice is a 422 at the second, as /plan-turn's goal refuses it. */
    cr_assert_eq(run_at("/warzone/plan-turn",
                        PLAN(", \"income\": 5, \"goal\": {\"territories\": [3, \"3\"]}"), &doc),
                 422, "%s", last_body);
    cr_expect(has_error(doc, "/goal/territories/1", "repeats territory 3"), "%s", last_body);
    json_decref(doc);
}
