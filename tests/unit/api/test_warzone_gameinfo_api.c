/*
 * The bot API's two answers merged as they came (W40): GetBotGameSettings' {settings, map} and
 * GetBotGameInfo's {game: {players}, gameInfo: {latestStanding, incomes, cards, ...}} give
 * /warzone/analyze-turn, /warzone/simulate-turn and /warzone/plan-turn the turn's `standing`,
 * `players` and `incomes`: each answer is the very answer of the same request with those given
 * at the top level, and every error names the member where the caller wrote it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static char *last_body;

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

/* 100 holds 1 (7), 200 holds 2 (4), 3 is neutral (2); 1 borders 2 and 3. */
#define SETTINGS                                                                                   \
    "\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70, \"LuckModifier\": "  \
    "\"0.16\", \"MoveOrder\": \"Random\", \"MinimumArmyBonus\": \"4\"}"
#define MAP                                                                                        \
    "\"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": [2, 3]}, {\"id\": \"2\"}, "          \
    "{\"id\": 3, \"connectedTo\": \"null\"}], \"bonuses\": [{\"id\": 7, \"value\": \"3\", "        \
    "\"territoryIDs\": [1, 3]}]}"
#define STANDING                                                                                   \
    "[{\"terrID\": 1, \"ownedBy\": \"100\", \"armies\": \"7\"}, {\"terrID\": \"2\", \"ownedBy\": " \
    "200, \"armies\": \"4\"}, {\"terrID\": 3, \"ownedBy\": \"Neutral\", \"armies\": 2}]"
#define PLAYERS                                                                                    \
    "[{\"id\": \"100\", \"state\": \"Playing\", \"team\": \"null\", \"isAI\": \"False\"}, "        \
    "{\"id\": 200, \"state\": \"Playing\", \"isAI\": \"True\"}]"
#define INCOMES                                                                                    \
    "[{\"playerID\": 100, \"freeArmies\": \"9\", \"bonusRestrictions\": {}}, {\"playerID\": "      \
    "\"200\", \"freeArmies\": 4, \"bonusRestrictions\": \"null\"}]"
#define ATTACK                                                                                     \
    "[{\"type\": \"GameOrderPlayCardSpy\", \"playerID\": 100}, {\"type\": "                        \
    "\"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": 1, \"to\": 2, \"numArmies\": "  \
    "\"6\", \"attackTransfer\": \"AttackTransfer\", \"byPercent\": \"False\"}]"

/* The request with standing, players and incomes at the top level. */
#define FLAT(orders, extra)                                                                        \
    "{" SETTINGS ", " MAP ", \"standing\": " STANDING ", \"players\": " PLAYERS                    \
    ", \"incomes\": " INCOMES ", \"orders\": " orders extra "}"

/* The two answers merged as they came, with members combatd does not read (cards, ...). */
#define MERGED(orders, extra)                                                                      \
    "{" SETTINGS ", " MAP                                                                          \
    ", \"game\": {\"id\": \"123\", \"state\": \"Playing\", \"players\": " PLAYERS                  \
    ", \"numberOfTurns\": \"3\"}, \"gameInfo\": {\"turnNumber\": \"3\", \"cards\": "               \
    "[{\"cardID\": 1}], \"latestStanding\": " STANDING ", \"incomes\": " INCOMES "}, "             \
    "\"orders\": " orders extra "}"

/* Both requests answer alike, with 200, for the endpoint at `path`; the merged answer is kept. */
static json_t *same_answer(const char *path, const char *flat, const char *merged) {
    json_t *a, *b;
    cr_assert_eq(run(path, flat, &a), 200, "%s: %s", path, last_body);
    cr_assert_eq(run(path, merged, &b), 200, "%s: %s", path, last_body);
    cr_expect(json_equal(a, b), "%s: the merged request answers %s", path, last_body);
    json_decref(a);
    return b;
}

/*
 * /warzone/analyze-turn: 6 of 100's 7 attack 200's 4 at 16 % luck. Kills round(0.16·X + 3.024),
 * X ~ Bin(6, 0.6), are at least 4 iff X >= 3: P = 1 − (0.4^6 + 6·0.6·0.4^5 + 15·0.36·0.4^4) =
 * 0.8208, and 4 defenders kill at most round(0.64 + 2.352) = 3 < 6, so 2 is 100's with 0.8208.
 * Bonus 7 (1 and 3) is nobody's whole; each income is MinimumArmyBonus, 4.
 */
Test(warzone_gameinfo_api, w40_analyze_reads_the_merged_answers) {
    json_t *doc = same_answer("/warzone/analyze-turn", FLAT(ATTACK, ""), MERGED(ATTACK, ""));
    cr_expect_float_eq(json_number_at(doc, "orders/1/capture_probability"), 0.8208, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/2/owner/100"), 0.8208, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/2/owner/200"), 0.1792, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "territories/3/owner/Neutral"), 1.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "income/100"), 4.0, 1e-12);
    cr_expect_float_eq(json_number_at(doc, "income/200"), 4.0, 1e-12);
    cr_expect_eq(json_array_size(json_walk(doc, "warnings")), 0, "%s", last_body);
    json_decref(doc);
}

/*
 * /warzone/simulate-turn: the standing answered is in latestStanding's order (1, 2, 3), its
 * armies after the draw of seed 12 the same as the flat request's; 1 keeps 1 of its 7.
 */
Test(warzone_gameinfo_api, w40_simulate_reads_the_merged_answers) {
    json_t *doc = same_answer("/warzone/simulate-turn", FLAT(ATTACK, ", \"seed\": 12"),
                              MERGED(ATTACK, ", \"seed\": 12"));
    cr_expect_eq(json_array_size(json_walk(doc, "standing")), 3, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "standing/0/terrID")), 1);
    cr_expect_str_eq(json_string_value(json_walk(doc, "standing/0/armies")), "1");
    cr_expect_str_eq(json_string_value(json_walk(doc, "standing/1/terrID")), "2");
    cr_expect_str_eq(json_string_value(json_walk(doc, "standing/2/ownedBy")), "Neutral");
    cr_expect_str_eq(json_string_value(json_walk(doc, "standing/2/armies")), "2");
    cr_expect(json_is_true(json_walk(doc, "orders/1/result/isAttack")));
    json_decref(doc);
}

/*
 * /warzone/plan-turn for 100 with goal bonus 7 (hold 1, take 3) and no other orders: the income
 * is gameInfo.incomes' 9 (not MinimumArmyBonus's 4), all deployed on 1, 100's one territory.
 * Nothing can stop the plan: nobody attacks 1, and any 4 or more sent at 3 kill at least
 * round(0.84·0.6·4) = round(2.016) = 2, all of its neutrals: value 1, proven optimal. The flat
 * request gives send_orders' ids as `gameID` and game.numberOfTurns alone: SendOrdersBotGame's
 * body is game 123's turn 3 + 1.
 */
Test(warzone_gameinfo_api, w40_plan_reads_the_merged_answers) {
    json_t *doc = same_answer(
        "/warzone/plan-turn",
        FLAT("[]", ", \"playerID\": \"100\", \"goal\": {\"bonuses\": [7]}, \"objective\": \"all\", "
                   "\"gameID\": 123, \"game\": {\"numberOfTurns\": 3}"),
        MERGED("[]",
               ", \"playerID\": \"100\", \"goal\": {\"bonuses\": [7]}, \"objective\": \"all\""));
    cr_expect_eq(json_integer_value(json_walk(doc, "income")), 9, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "value"), 1.0, 1e-12);
    cr_expect(json_is_true(json_walk(doc, "optimal")), "%s", last_body);
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/0/type")), "GameOrderDeploy");
    cr_expect_eq(json_integer_value(json_walk(doc, "orders/0/armies")), 9, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "send_orders/gameID")), 123, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "send_orders/turnNumber")), 4);
    json_decref(doc);
}

/* `game` and `gameInfo` given as "null" (the game's absent part) are absent: the flat request's
 * answer, and without `standing` it is the 422 it always was. */
Test(warzone_gameinfo_api, w40_null_game_info_is_absent) {
    json_t *doc = same_answer("/warzone/analyze-turn", FLAT(ATTACK, ""),
                              FLAT(ATTACK, ", \"game\": \"null\", \"gameInfo\": \"null\""));
    cr_expect_float_eq(json_number_at(doc, "orders/1/capture_probability"), 0.8208, 1e-12);
    json_decref(doc);
    doc = same_answer("/warzone/analyze-turn", FLAT(ATTACK, ""),
                      FLAT(ATTACK, ", \"gameInfo\": {\"latestStanding\": \"null\", \"incomes\": "
                                   "null}, \"game\": {\"players\": \"null\"}"));
    json_decref(doc);
    const char *body = "{" SETTINGS ", " MAP ", \"gameInfo\": \"null\", \"orders\": " ATTACK "}";
    cr_assert_eq(run("/warzone/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/standing", "is required"), "%s", last_body);
    json_decref(doc);
}

/* Replaces the first `from` of `base` with `to` into `out`. */
static void edit(const char *base, const char *from, const char *to, char *out, size_t size) {
    const char *at = strstr(base, from);
    cr_assert(at, "no %s", from);
    snprintf(out, size, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
}

/* Errors at the members where the merged request wrote them: the translation's own, those
 * /analyze-turn finds and the translation maps back, and a list given twice. */
Test(warzone_gameinfo_api, w40_errors_name_the_merged_members) {
    struct {
        const char *from, *to, *pointer, *detail;
    } cases[] = {
        {"\"armies\": \"4\"", "\"armies\": \"4x\"", "/gameInfo/latestStanding/1/armies", ""},
        {"{\"terrID\": 3,", "{\"terrID\": 9,", "/gameInfo/latestStanding/2/terrID", "9"},
        {"\"ownedBy\": 200", "\"ownedBy\": 300", "/gameInfo/latestStanding/1/ownedBy",
         "game.players"},
        {"\"armies\": \"4\"", "\"armies\": \"Fogged\"", "/gameInfo/latestStanding/1/armies",
         "Fogged"},
        {"\"armies\": \"4\"", "\"armies\": \"4|cmdr,g,100\"", "/gameInfo/latestStanding/1/armies",
         "Commander"},
        /* the same Commander on two territories: /analyze-turn's, mapped back (W21, W40) */
        {"\"armies\": \"7\"}, {\"terrID\": \"2\", \"ownedBy\": 200, \"armies\": \"4\"",
         "\"armies\": \"7|cmdr,g,100\"}, {\"terrID\": \"2\", \"ownedBy\": 200, \"armies\": "
         "\"4|cmdr,g,200\"",
         "/gameInfo/latestStanding/1/armies", ""},
        {", {\"terrID\": 3, \"ownedBy\": \"Neutral\", \"armies\": 2}]", "]",
         "/gameInfo/latestStanding", "lacks territory 3"},
        {"{\"id\": 200, \"state\"", "{\"id\": true, \"state\"", "/game/players/1/id", ""},
        {"\"freeArmies\": \"9\"", "\"freeArmies\": \"nine\"", "/gameInfo/incomes/0/freeArmies", ""},
        /* an income without its armies (the fuzzer's: it was a 500, "out of memory") */
        {"\"freeArmies\": \"9\"", "\"freeArmies_\": \"9\"", "/gameInfo/incomes/0/freeArmies",
         "is required"},
        {"\"players\": [{", "\"players\": 5, \"x\": [{", "/game/players", "list of players"},
        {"\"game\": {\"id\": \"123\", \"state\": \"Playing\", \"players\": ",
         "\"game\": 5, \"g\": {\"players\": ", "/game", "GetBotGameInfo"},
        {"\"gameInfo\": {", "\"gameInfo\": [], \"info\": {", "/gameInfo", "GetBotGameInfo"},
        {"\"orders\": [", "\"standing\": " STANDING ", \"orders\": [", "/gameInfo/latestStanding",
         "one of the two"},
        {"\"orders\": [", "\"players\": " PLAYERS ", \"orders\": [", "/game/players",
         "one of the two"},
        {"\"orders\": [", "\"incomes\": [], \"orders\": [", "/gameInfo/incomes", "one of the two"},
    };
    const char *base = MERGED(ATTACK, "");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[8192];
        edit(base, cases[i].from, cases[i].to, body, sizeof body);
        json_t *doc;
        int status = run("/warzone/analyze-turn", body, &doc);
        if (status == 400) { /* an edit that makes the JSON itself wrong is the test's mistake */
            cr_assert_fail("case %zu: %s", i, last_body);
        }
        cr_expect_eq(status, 422, "case %zu: %s", i, last_body);
        cr_expect(has_error(doc, cases[i].pointer, cases[i].detail), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/* The other endpoints name the same members: /warzone/simulate-turn's standing and
 * /warzone/plan-turn's incomes. */
Test(warzone_gameinfo_api, w40_simulate_and_plan_errors_name_the_merged_members) {
    char body[8192];
    json_t *doc;
    edit(MERGED(ATTACK, ", \"seed\": 1"), "\"armies\": \"7\"", "\"armies\": \"x\"", body,
         sizeof body);
    cr_expect_eq(run("/warzone/simulate-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/gameInfo/latestStanding/0/armies", ""), "%s", last_body);
    json_decref(doc);
    edit(MERGED("[]", ", \"playerID\": 100, \"goal\": {\"territories\": [1]}"),
         "\"playerID\": \"200\"", "\"playerID\": {}", body, sizeof body);
    cr_expect_eq(run("/warzone/plan-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/gameInfo/incomes/1/playerID", ""), "%s", last_body);
    json_decref(doc);
}
