/*
 * POST /warzone/analyze-turn (W40–W42): game documents written by hand in both dialects
 * (numbers as strings, "null" parts, "True"/"False", one-sided borders, Commanders in army
 * strings, every card), with the expected numbers worked out by hand (60/70 kill rates, W1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static char *last_body;

static int run(const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, "/warzone/analyze-turn", body, out, &last_body);
}

/* The bot API's shapes: strings for numbers, "True", "null", a border listed on one side. */
#define BOT_SETTINGS(luck)                                                                         \
    "\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70, "                    \
    "\"LuckModifier\": " luck                                                                      \
    ", \"RoundingMode\": \"StraightRound\", \"OneArmyStandsGuard\": \"True\", "                    \
    "\"MultiAttack\": \"False\", \"MoveOrder\": \"Random\", \"MinimumArmyBonus\": \"5\", "         \
    "\"OverriddenBonuses\": [{\"bonusID\": 1, \"value\": \"4\"}], \"BlockadeCard\": \"none\", "    \
    "\"Mods\": [], \"Pace\": \"MultiDay\"}"
#define MAP3                                                                                       \
    "\"map\": {\"territories\": [{\"id\": 1, \"name\": \"A\", \"connectedTo\": [2]}, {\"id\": "    \
    "\"2\", \"name\": \"B\", \"connectedTo\": []}, {\"id\": 3, \"connectedTo\": \"null\"}], "      \
    "\"bonuses\": [{\"id\": 1, \"value\": 2, \"territoryIDs\": [1, 2]}, {\"id\": 2, \"value\": "   \
    "1, \"territoryIDs\": [3]}]}"

/*
 * 100 attacks 2 (4 of 200's) with 6 of 1's 7 at 16 % luck. Kills: round(0.16·X + 0.84·6·0.6)
 * = round(0.16·X + 3.024), X ~ Bin(6, 0.6): at least 4 iff X >= 3, P = 1 − (0.4^6 + 6·0.6·0.4^5
 * + 15·0.6^2·0.4^4) = 1 − 0.1792 = 0.8208. 4 defenders kill round(0.16·Y + 2.352) <= 3 < 6, so
 * the attack captures iff it kills 4. Bonus 1 (1 and 2, value 2 overridden to 4) is 100's with
 * 0.8208; bonus 2 (3) is neutral's. Income: 100 5 + 4·0.8208 = 8.2832; 200 5.
 */
Test(warzone_api, bot_dialect_capture_bonus_and_income) {
    const char *body = "{" BOT_SETTINGS(
        "\"0.16\"") ", " MAP3 ", \"standing\": [{\"terrID\": 1, "
                    "\"ownedBy\": \"100\", \"armies\": \"7\"}, {\"terrID\": \"2\", \"ownedBy\": "
                    "200, \"armies\": \"4\"}, {\"terrID\": 3, \"ownedBy\": \"Neutral\", "
                    "\"armies\": 2}], \"players\": [{\"id\": \"100\", \"team\": \"null\", "
                    "\"isAI\": \"False\"}, {\"id\": 200, \"state\": \"Playing\"}], \"orders\": "
                    "[{\"type\": \"GameOrderPlayCardSpy\", \"playerID\": 100, \"cardInstanceID\": "
                    "\"c1\"}, {\"type\": \"GameOrderAttackTransfer\", \"playerID\": \"100\", "
                    "\"from\": \"1\", \"to\": 2, \"numArmies\": \"6\", \"attackTransfer\": "
                    "\"AttackTransfer\", \"attackTeammates\": \"False\", \"byPercent\": "
                    "\"False\"}]}";
    json_t *doc;
    cr_assert_eq(run(body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "orders/1/capture_probability"), 0.8208, 1e-12);
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/0/type")), "GameOrderPlayCardSpy");
    cr_expect(json_is_true(json_walk(doc, "orders/0/ignored")));
    cr_expect_float_eq(json_number_at(doc, "territories/2/owner/100"), 0.8208, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/3/owner/Neutral"), 1.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "bonuses/1/owner/100"), 0.8208, 1e-12);
    cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/1/value")), 4);
    cr_expect_null(json_walk(doc, "bonuses/2/owner/100"));
    cr_expect_float_eq(json_number_at(doc, "income/100"), 8.2832, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "income/200"), 5.0, 1e-12);
    cr_expect_eq(json_array_size(json_walk(doc, "warnings")), 0);
    json_decref(doc);
}

/*
 * The same turn with bonus 1 overridden to -3 (the game allows a negative bonus, W32): the
 * value reaches /analyze-turn as given, and 100's expected income is 5 - 3 · 0.8208 = 2.5376.
 * A map bonus without territories is nobody's, and two map bonuses of one id are a 422.
 */
Test(warzone_api, negative_override_empty_and_repeated_bonuses) {
    const char *base = "{" BOT_SETTINGS(
        "\"0.16\"") ", " MAP3 ", \"standing\": [{\"terrID\": 1, "
                    "\"ownedBy\": \"100\", \"armies\": \"7\"}, {\"terrID\": \"2\", \"ownedBy\": "
                    "200, \"armies\": \"4\"}, {\"terrID\": 3, \"ownedBy\": \"Neutral\", "
                    "\"armies\": 2}], \"orders\": [{\"type\": \"GameOrderAttackTransfer\", "
                    "\"playerID\": \"100\", \"from\": \"1\", \"to\": 2, \"numArmies\": \"6\"}]}";
    struct {
        const char *from, *to;
    } edits[] = {
        {"\"value\": \"4\"", "\"value\": \"-3\""},
        {"{\"id\": 2, \"value\": 1, \"territoryIDs\": [3]}",
         "{\"id\": 2, \"value\": 1, \"territoryIDs\": []}"},
        {"{\"id\": 2, \"value\": 1,", "{\"id\": 1, \"value\": 1,"},
    };
    char body[4096];
    json_t *doc;
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        const char *at = strstr(base, edits[i].from);
        cr_assert(at, "edit %zu", i);
        snprintf(body, sizeof body, "%.*s%s%s", (int)(at - base), base, edits[i].to,
                 at + strlen(edits[i].from));
        int status = run(body, &doc);
        if (i == 0) {
            cr_assert_eq(status, 200, "%s", last_body);
            cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/1/value")), -3);
            cr_expect_float_eq(json_number_at(doc, "bonuses/1/owner/100"), 0.8208, 1e-12);
            cr_expect_float_eq(json_number_at(doc, "income/100"), 2.5376, 1e-12);
            cr_expect_float_eq(json_number_at(doc, "income/200"), 5.0, 1e-12);
        } else if (i == 1) {
            cr_assert_eq(status, 200, "%s", last_body);
            cr_expect_eq(json_integer_value(json_walk(doc, "bonuses/2/value")), 1);
            cr_expect_eq(json_object_size(json_walk(doc, "bonuses/2/owner")), 0, "%s", last_body);
            cr_expect_float_eq(json_number_at(doc, "income/100"), 8.2832, 1e-12);
        } else {
            cr_expect_eq(status, 422, "%s", last_body);
            cr_expect(has_error(doc, "/map/bonuses/1/id", "repeats"), "%s", last_body);
        }
        json_decref(doc);
    }
}

/*
 * A spent budget is still a 422 naming a member of the game's JSON (W40): at 2 ms of work, two
 * uncertain attacks of 2999 on 1799 (16 % luck) are analysed once within it, but the joint
 * chance of a bonus over both targets (/analyze-turn's W32, a second analysis) is not.
 */
Test(warzone_api, spent_budget_names_a_member) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.work_budget_ms = 2;
    const char *turn =
        "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "
        "\"0.16\"}, \"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": [2]}, {\"id\": 2}, "
        "{\"id\": 3, \"connectedTo\": [4]}, {\"id\": 4}]%s}, \"standing\": [{\"terrID\": 1, "
        "\"ownedBy\": 100, \"armies\": 3000}, {\"terrID\": 2, \"ownedBy\": 200, \"armies\": "
        "1799}, {\"terrID\": 3, \"ownedBy\": 100, \"armies\": 3000}, {\"terrID\": 4, "
        "\"ownedBy\": 200, \"armies\": 1799}], \"orders\": [{\"type\": "
        "\"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, \"to\": 2, \"numArmies\": "
        "2999}, {\"type\": \"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 3, \"to\": "
        "4, \"numArmies\": 2999}]}";
    char body[2048];
    json_t *doc;
    snprintf(body, sizeof body, turn, "");
    free(last_body);
    last_body = NULL;
    cr_assert_eq(api_test_run(&cfg, "/warzone/analyze-turn", body, &doc, &last_body), 200, "%s",
                 last_body);
    json_decref(doc);
    snprintf(body, sizeof body, turn,
             ", \"bonuses\": [{\"id\": 5, \"value\": 1, \"territoryIDs\": [2, 4]}]");
    free(last_body);
    last_body = NULL;
    cr_assert_eq(api_test_run(&cfg, "/warzone/analyze-turn", body, &doc, &last_body), 422, "%s",
                 last_body);
    const char *p = json_string_value(json_walk(doc, "errors/0/pointer"));
    cr_expect(p && (strncmp(p, "/orders", 7) == 0 || strncmp(p, "/map/bonuses", 12) == 0), "%s",
              last_body);
    json_decref(doc);
}

/*
 * A Commander in the army string (W21): 14 of 15 attack 5 armies and 200's Commander at 0 %
 * luck: 8 damage kill the 5 armies and leave 3 < 7 for the Commander; 12 power kill
 * round(8.4) = 8: 6 go home, 1 holds 15 − 14 + 6 = 7, 2 keeps 0 armies and the Commander.
 */
Test(warzone_api, commander_in_army_string) {
    const char *body = "{" BOT_SETTINGS(
        "0") ", " MAP3 ", \"standing\": [{\"terrID\": 1, "
             "\"ownedBy\": 100, \"armies\": 15}, {\"terrID\": 2, \"ownedBy\": 200, "
             "\"armies\": \"5|cmdr,guid-1,200\"}, {\"terrID\": 3, \"ownedBy\": "
             "\"Neutral\", \"armies\": \"2\"}], \"orders\": [{\"type\": "
             "\"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, \"to\": 2, "
             "\"numArmies\": 14, \"attackTransfer\": \"Attack\"}]}";
    json_t *doc;
    cr_assert_eq(run(body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "territories/1/armies/mean"), 7.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/2/armies/mean"), 0.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/2/owner/200"), 1.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "units/guid-1/territories/2"), 1.0, 1e-12);
    json_decref(doc);
}

/*
 * The query game API: profile ids in `players` (1210034 is in-game 100, W41), an order with
 * its `result`, byPercent. 50 % of 1's 11 movable = 5 attack 2 armies: kill 3, lose
 * round(1.4) = 1: 2 is 100's with 4, 1 keeps 7.
 */
Test(warzone_api, query_dialect_profile_ids_and_percent) {
    const char *body =
        "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "
        "0.0, \"RoundingMode\": \"StraightRound\", \"MoveOrder\": \"Cycle\", "
        "\"AllowPercentageAttacks\": true}, " MAP3 ", \"standing\": [{\"terrID\": 1, \"ownedBy\": "
        "100, \"armies\": \"12\"}, {\"terrID\": 2, \"ownedBy\": 200, \"armies\": 2}, {\"terrID\": "
        "3, \"ownedBy\": \"Neutral\", \"armies\": 2}], \"players\": [{\"id\": \"1220034\", "
        "\"name\": \"B\", \"team\": 0}, {\"id\": \"1210034\", \"name\": \"A\", \"team\": 1}], "
        "\"orders\": [{\"type\": \"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": 1, "
        "\"to\": 2, \"numArmies\": 50, \"attackTransfer\": \"AttackTransfer\", "
        "\"attackTeammates\": false, \"byPercent\": true, \"result\": {\"isAttack\": true}}]}";
    json_t *doc;
    cr_assert_eq(run(body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "territories/2/owner/100"), 1.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/2/armies/mean"), 4.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/1/armies/mean"), 7.0, 1e-12);
    cr_expect_eq(json_array_size(json_walk(doc, "warnings")), 3, "%s", last_body);
    json_decref(doc);
}

/*
 * Every card. 1 (100, 10) - 2 (200, 6), 3 (100, 4), 4 (200, 5) - 5 (Neutral, 2). Phases (W24):
 * the bomb leaves 2 floor(6/2) = 3; Abandon (W26, MultiplyAmount 3) makes 3 neutral with 12;
 * 200's airlift of 3 from 4 brings 2 to 6 and leaves 4 with 2; 200 gifts 4 to 100; 100's 9
 * on 6 kill round(5.4) = 5 < 6 and lose round(4.2) = 4: 1 holds 1 + 5 = 6, 2 200's with 1;
 * the blockade (MultiplyAmount 2.5) makes 1 neutral with floor(6·2.5) = 15. Order Priority
 * and Delay reorder only; Diplomacy (W29), Reinforcement and Sanctions change nothing now.
 */
Test(warzone_api, every_card) {
    const char *body =
        "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "
        "0, "
        "\"MoveOrder\": \"Random\", \"BlockadeCard\": {\"MultiplyAmount\": \"2.5\"}, "
        "\"AbandonCard\": {\"MultiplyAmount\": 3}}, \"map\": {\"territories\": [{\"id\": 1, "
        "\"connectedTo\": [2]}, {\"id\": 2}, {\"id\": 3, \"connectedTo\": [4]}, {\"id\": 4, "
        "\"connectedTo\": [5]}, {\"id\": 5}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": 100, "
        "\"armies\": 10}, {\"terrID\": 2, \"ownedBy\": 200, \"armies\": 6}, {\"terrID\": 3, "
        "\"ownedBy\": 100, \"armies\": 4}, {\"terrID\": 4, \"ownedBy\": 200, \"armies\": 5}, "
        "{\"terrID\": 5, \"ownedBy\": \"Neutral\", \"armies\": 2}], \"orders\": ["
        "{\"type\": \"GameOrderPlayCardBlockade\", \"playerID\": 100, \"targetTerritoryID\": 1},"
        "{\"type\": \"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, \"to\": 2, "
        "\"numArmies\": \"9\"},"
        "{\"type\": \"GameOrderPlayCardBomb\", \"playerID\": 100, \"targetTerritoryID\": \"2\"},"
        "{\"type\": \"GameOrderPlayCardAbandon\", \"playerID\": 100, \"targetTerritoryID\": 3},"
        "{\"type\": \"GameOrderPlayCardAirlift\", \"playerID\": 200, \"from\": 4, \"to\": 2, "
        "\"armiesToAirlift\": \"3\"},"
        "{\"type\": \"GameOrderPlayCardGift\", \"playerID\": 200, \"territoryID\": 4, \"giftTo\": "
        "100},"
        "{\"type\": \"GameOrderPlayCardOrderPriority\", \"playerID\": 100},"
        "{\"type\": \"GameOrderPlayCardOrderDelay\", \"playerID\": 200},"
        "{\"type\": \"GameOrderPlayCardDiplomacy\", \"playerID\": 200, \"playerOne\": 100, "
        "\"playerTwo\": 200},"
        "{\"type\": \"GameOrderPlayCardReinforcement\", \"playerID\": 100},"
        "{\"type\": \"GameOrderPlayCardSanctions\", \"playerID\": 100}]}";
    json_t *doc;
    cr_assert_eq(run(body, &doc), 200, "%s", last_body);
    struct {
        const char *owner, *armies;
        double owned, mean;
    } want[] = {
        {"territories/1/owner/Neutral", "territories/1/armies/mean", 1, 15},
        {"territories/2/owner/200", "territories/2/armies/mean", 1, 1},
        {"territories/3/owner/Neutral", "territories/3/armies/mean", 1, 12},
        {"territories/4/owner/100", "territories/4/armies/mean", 1, 2},
        {"territories/5/owner/Neutral", "territories/5/armies/mean", 1, 2},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cr_expect_float_eq(json_number_at(doc, want[i].owner), want[i].owned, 1e-12, "%zu", i);
        cr_expect_float_eq(json_number_at(doc, want[i].armies), want[i].mean, 1e-12, "%zu", i);
    }
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/2/type")), "GameOrderPlayCardBomb");
    cr_expect(json_is_true(json_walk(doc, "orders/8/ignored")));
    json_decref(doc);
}

/* Bad members named in the game's terms; Fogged without `fogged` (W41); unmodelled settings
 * as warnings (W42). */
Test(warzone_api, errors_name_the_games_members) {
    struct {
        const char *from, *to, *pointer;
    } cases[] = {
        {"\"OffensiveKillRate\": \"60\"", "\"OffensiveKillRate\": \"sixty\"",
         "/settings/OffensiveKillRate"},
        {"\"type\": \"GameOrderAttackTransfer\"", "\"type\": \"GameOrderTeleport\"",
         "/orders/1/type"},
        {"\"numArmies\": \"6\"", "\"numArmies\": \"-6\"", "/orders/1/numArmies"},
        {"{\"terrID\": 3,", "{\"terrID\": 9,", "/standing/2/terrID"},
        {"\"armies\": \"4\"", "\"armies\": \"Fogged\"", "/standing/1/armies"},
        {"\"ownedBy\": 200", "\"ownedBy\": 300", "/standing/1/ownedBy"},
        {"\"to\": 2,", "\"to\": 3,", "/orders/1/to"},
        /* W21, W41: a Commander is its territory's owner's, and Neutral is no player. */
        {"\"armies\": \"4\"", "\"armies\": \"4|cmdr,g,100\"", "/standing/1/armies"},
        {"\"armies\": 2}", "\"armies\": \"2|cmdr,g,neutral\"}", "/standing/2/armies"},
        {"\"armies\": 2}", "\"armies\": \"2|cmdr,g,Neutral\"}", "/standing/2/armies"},
    };
    const char *base = "{" BOT_SETTINGS(
        "0") ", " MAP3 ", \"standing\": [{\"terrID\": 1, "
             "\"ownedBy\": \"100\", \"armies\": \"7\"}, {\"terrID\": \"2\", \"ownedBy\": "
             "200, \"armies\": \"4\"}, {\"terrID\": 3, \"ownedBy\": \"Neutral\", "
             "\"armies\": 2}], \"players\": [{\"id\": 100}, {\"id\": 200}], \"orders\": "
             "[{\"type\": \"GameOrderPlayCardSpy\", \"playerID\": 100}, {\"type\": "
             "\"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": \"1\", "
             "\"to\": 2, \"numArmies\": \"6\"}]}";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[4096];
        const char *at = strstr(base, cases[i].from);
        cr_assert(at, "case %zu", i);
        snprintf(body, sizeof body, "%.*s%s%s", (int)(at - base), base, cases[i].to,
                 at + strlen(cases[i].from));
        json_t *doc;
        cr_expect_eq(run(body, &doc), 422, "case %zu: %s", i, last_body);
        cr_expect(has_error(doc, cases[i].pointer, ""), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/* `fogged` gives a Fogged territory (W23, W41): 2 holds 3 or 5, 1/2 each; 6 attackers kill
 * round(3.6) = 4: enough against 3, not against 5. Unmodelled settings are warnings (W42). */
Test(warzone_api, fogged_given_and_warnings) {
    const char *body =
        "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": 0,"
        " \"LocalDeployments\": \"True\", \"Mods\": [{\"ModID\": 1}], \"NoSplit\": false}, " MAP3
        ", \"standing\": [{\"terrID\": 1, \"ownedBy\": 100, \"armies\": 7}, {\"terrID\": 2, "
        "\"ownedBy\": \"Fogged\", \"armies\": \"Fogged\"}, {\"terrID\": 3, \"ownedBy\": "
        "\"Neutral\", \"armies\": 2}], \"fogged\": {\"2\": {\"ownedBy\": 200, \"armies\": "
        "[{\"armies\": 3, \"probability\": 0.5}, {\"armies\": 5, \"probability\": 0.5}]}}, "
        "\"orders\": [{\"type\": \"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, "
        "\"to\": 2, \"numArmies\": 6}]}";
    json_t *doc;
    cr_assert_eq(run(body, &doc), 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "territories/2/owner/100"), 0.5, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "bonuses/1/owner/100"), 0.5, 1e-12);
    cr_expect_eq(json_array_size(json_walk(doc, "warnings")), 2, "%s", last_body);
    json_decref(doc);
}
