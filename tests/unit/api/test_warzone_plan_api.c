/*
 * POST /warzone/plan-turn (W31, W40): /plan-turn's plan for a turn in the game's JSON, in the
 * shapes SendOrdersBotGame takes, with /plan-turn's value; goal.bonuses and the map's bonuses
 * (OverriddenBonuses applied) passed to /plan-turn's, objective "income" (W32); income's
 * defaults.
 */
#include <math.h>
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
    return api_test_run(&cfg, "/warzone/plan-turn", body, out, &last_body);
}

/* 100 holds 1 (3), 200 holds 2 (9) and sends 8 at 1, 3 is neutral with 1; bonus 7 is 1 and 3. */
#define TURN(extra)                                                                                \
    "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "     \
    "\"0.16\", \"MinimumArmyBonus\": \"4\"}, \"map\": {\"territories\": [{\"id\": 1, "             \
    "\"connectedTo\": [2, 3]}, {\"id\": 2}, {\"id\": 3}], \"bonuses\": [{\"id\": 7, \"value\": "   \
    "3, \"territoryIDs\": [1, 3]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\", "        \
    "\"armies\": \"3\"}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": \"9\"}, {\"terrID\": "  \
    "3, \"ownedBy\": \"Neutral\", \"armies\": \"1\"}], \"orders\": [{\"type\": "                   \
    "\"GameOrderAttackTransfer\", \"playerID\": \"200\", \"from\": 2, \"to\": 1, \"numArmies\": "  \
    "\"8\"}], \"playerID\": \"100\"" extra "}"

/*
 * Bonus 7 as the goal: hold 1, capture 3, `expected` (W31). Income 4 (MinimumArmyBonus; bonus 7
 * is not 100's whole). 1 = 3 + 4 = 7; 2 sent to 3 (1 army) kill round(0.84·1.2 + 0.16·X) >= 1
 * always: 3 is taken, 1 keeps 5. 200's 8 deal round(4.032 + 0.16·Y), Y ~ Bin(8, 0.6): 1 falls
 * iff Y >= 3, so it holds with P(Y <= 2) = 0.4^8 + 8·0.6·0.4^7 + 28·0.36·0.4^6 = 0.04980736:
 * value 1 + 0.04980736 (the same board as tests/integration/test_plan_http.c's).
 */
Test(warzone_plan_api, w40_bonus_goal_plans_as_plan_turn) {
    json_t *doc;
    cr_assert_eq(run(TURN(", \"goal\": {\"bonuses\": [\"7\"]}, \"objective\": \"expected\""), &doc),
                 200, "%s", last_body);
    cr_expect(fabs(json_number_at(doc, "value") - 1.04980736) < 1e-12, "%s", last_body);
    cr_expect(json_is_true(json_walk(doc, "optimal")));
    cr_expect_eq(json_integer_value(json_walk(doc, "income")), 4);
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/0/type")), "GameOrderDeploy");
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/0/playerID")), "100");
    cr_expect_eq(json_integer_value(json_walk(doc, "orders/0/deployOn")), 1);
    cr_expect_eq(json_integer_value(json_walk(doc, "orders/0/armies")), 4);
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/1/type")), "GameOrderAttackTransfer");
    cr_expect_eq(json_integer_value(json_walk(doc, "orders/1/to")), 3);
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/1/numArmies")), "2");
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/1/attackTransfer")),
                     "AttackTransfer");
    cr_expect(json_is_false(json_walk(doc, "orders/1/byPercent")));
    cr_expect(json_is_false(json_walk(doc, "orders/1/attackTeammates")));
    json_decref(doc);
}

/* Income: `income` given, else gameInfo.incomes' freeArmies. */
Test(warzone_plan_api, w40_income_sources) {
    json_t *doc;
    cr_assert_eq(run(TURN(", \"goal\": {\"territories\": [1]}, \"income\": \"6\""), &doc), 200,
                 "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "income")), 6);
    json_decref(doc);
    cr_assert_eq(run(TURN(", \"goal\": {\"territories\": [1]}, \"incomes\": [{\"playerID\": 100, "
                          "\"freeArmies\": \"9\", \"bonusRestrictions\": {}}]"),
                     &doc),
                 200, "%s", last_body);
    cr_expect_eq(json_integer_value(json_walk(doc, "income")), 9);
    json_decref(doc);
}

/*
 * objective "income" (W32) on the same board: bonus 7 (1 and 3, value 3) is 100's iff 3 is
 * taken and 1 holds. The plan above takes 3 surely and holds 1 with 0.04980736; sending 1 to 3
 * is W5's mutual destruction (1 kills round(0.504 + 0.16·X) = 1, 1 defender kills
 * round(0.588 + 0.16·Y) = 1), and sending 3 leaves 4 on 1, which 8 kill at least
 * round(4.032) = 4 of. So the most expected income is 3 · 0.04980736 = 0.14942208, whether the
 * goal names bonus 7 or is left out (every bonus of the map valued).
 */
Test(warzone_plan_api, w32_income_objective) {
    const char *extra[] = {
        ", \"goal\": {\"bonuses\": [7]}, \"objective\": \"income\"",
        ", \"objective\": \"income\"",
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char body[4096];
        snprintf(body, sizeof body, TURN("%s"), extra[i]);
        json_t *doc;
        cr_assert_eq(run(body, &doc), 200, "case %zu: %s", i, last_body);
        cr_expect(fabs(json_number_at(doc, "value") - 0.14942208) < 1e-12, "case %zu: %s", i,
                  last_body);
        cr_expect(json_is_true(json_walk(doc, "optimal")), "case %zu: %s", i, last_body);
        cr_expect_eq(json_integer_value(json_walk(doc, "orders/0/armies")), 4);
        cr_expect_eq(json_integer_value(json_walk(doc, "orders/1/to")), 3);
        cr_expect_str_eq(json_string_value(json_walk(doc, "orders/1/numArmies")), "2");
        json_decref(doc);
    }
}

/* Refusals at the game's members: the translation's own, and /plan-turn's named back in the
 * game's (goal.bonuses by their place, an unknown objective, territories under income). */
Test(warzone_plan_api, w40_refusals) {
    const char *cases[][2] = {
        {TURN(", \"goal\": {\"territories\": [9]}"), "/goal/territories/0"},
        {TURN(", \"goal\": {\"bonuses\": [8]}"), "/goal/bonuses/0"},
        {TURN(", \"goal\": {\"bonuses\": [7, \"7\"]}"), "/goal/bonuses/1"},
        {TURN(", \"goal\": {\"territories\": [3]}, \"objective\": \"income\""), "/goal"},
        {TURN(", \"goal\": {\"bonuses\": [7]}, \"objective\": \"most\""), "/objective"},
        {TURN(", \"goal\": {}"), "/goal"},
        {TURN(", \"goal\": 7, \"objective\": \"income\""), "/goal"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc;
        cr_expect_eq(run(cases[i][0], &doc), 422, "case %zu: %s", i, last_body);
        cr_expect(has_error(doc, cases[i][1], ""), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/*
 * send_orders: SendOrdersBotGame's body as the game's SDK writes it (BotGameAPI.SendOrders:
 * gameID, playerID and turnNumber C# ints, turnNumber game.numberOfTurns + 1), for the plan of
 * w40_bonus_goal_plans_as_plan_turn (deploy 4 on 1, 2 from 1 to 3), written out by hand: the
 * ids sent as strings come back as integers, the orders' playerID too.
 */
Test(warzone_plan_api, send_orders_body_as_the_sdk_writes_it) {
    static const char expected[] =
        "{\"gameID\": 1234567, \"playerID\": 100, \"turnNumber\": 4, \"orders\": ["
        "{\"type\": \"GameOrderDeploy\", \"playerID\": 100, \"deployOn\": 1, \"armies\": 4}, "
        "{\"type\": \"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, \"to\": 3, "
        "\"numArmies\": \"2\", \"attackTransfer\": \"AttackTransfer\", \"attackTeammates\": "
        "false, \"byPercent\": false}]}";
    json_t *want = json_loads(expected, 0, NULL);
    cr_assert(want);
    json_t *doc;
    cr_assert_eq(
        run(TURN(", \"goal\": {\"bonuses\": [7]}, \"objective\": \"expected\", "
                 "\"income\": 4, \"game\": {\"id\": \"1234567\", \"numberOfTurns\": \"3\", "
                 "\"state\": \"Playing\"}"),
            &doc),
        200, "%s", last_body);
    cr_expect(json_equal(json_walk(doc, "send_orders"), want), "%s", last_body);
    cr_expect_eq(json_array_size(json_walk(doc, "warnings")), 0, "%s", last_body);
    /* `orders` keep playerID as the request gave it */
    cr_expect_str_eq(json_string_value(json_walk(doc, "orders/1/playerID")), "100");
    json_decref(doc);
    json_decref(want);
}

/* gameID from the request's own `gameID` (the id the bot called GetBotGameInfo with), given as
 * a number or its digits; numberOfTurns 0 is turn 1. game.id given as well and equal is fine. */
Test(warzone_plan_api, send_orders_ids_from_the_request) {
    const char *extra[] = {
        ", \"gameID\": 77, \"game\": {\"numberOfTurns\": 0}",
        ", \"gameID\": \"77\", \"game\": {\"id\": 77, \"numberOfTurns\": \"0\"}",
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char body[4096];
        snprintf(body, sizeof body, TURN(", \"goal\": {\"territories\": [1]}%s"), extra[i]);
        json_t *doc;
        cr_assert_eq(run(body, &doc), 200, "case %zu: %s", i, last_body);
        cr_expect_eq(json_integer_value(json_walk(doc, "send_orders/gameID")), 77, "case %zu", i);
        cr_expect_eq(json_integer_value(json_walk(doc, "send_orders/turnNumber")), 1, "case %zu",
                     i);
        cr_expect(json_is_integer(json_walk(doc, "send_orders/playerID")), "case %zu", i);
        cr_expect_eq(json_integer_value(json_walk(doc, "send_orders/playerID")), 100);
        json_decref(doc);
    }
}

/* An id that is not known leaves send_orders out, and a warning says which to give. */
Test(warzone_plan_api, send_orders_left_out_without_an_id) {
    const char *cases[][2] = {
        {TURN(", \"goal\": {\"territories\": [1]}"), "gameID"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"game\": {\"numberOfTurns\": 2}"), "gameID"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"gameID\": 5"), "numberOfTurns"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"game\": \"null\", \"gameID\": 5"),
         "numberOfTurns"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc;
        cr_assert_eq(run(cases[i][0], &doc), 200, "case %zu: %s", i, last_body);
        cr_expect_null(json_walk(doc, "send_orders"), "case %zu: %s", i, last_body);
        /* among the warnings (W45's names the income the plan took) */
        const char *w = NULL;
        for (size_t k = 0; !w && k < json_array_size(json_walk(doc, "warnings")); k++) {
            const char *s = json_string_value(json_array_get(json_walk(doc, "warnings"), k));
            w = s && strstr(s, "send_orders is left out") ? s : NULL;
        }
        cr_expect(w && strstr(w, cases[i][1]), "case %zu: %s", i, last_body);
        cr_expect_eq(json_array_size(json_walk(doc, "orders")), 1, "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/* A malformed id is a 422 at its member; two game ids that disagree at `gameID`. */
Test(warzone_plan_api, send_orders_bad_ids) {
    const char *cases[][2] = {
        {TURN(", \"goal\": {\"territories\": [1]}, \"game\": {\"id\": \"12abc\"}"), "/game/id"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"game\": {\"id\": 2147483648}"), "/game/id"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"gameID\": -3"), "/gameID"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"game\": {\"numberOfTurns\": 1.5}"),
         "/game/numberOfTurns"},
        {TURN(", \"goal\": {\"territories\": [1]}, \"gameID\": 5, \"game\": {\"id\": 6}"),
         "/gameID"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *doc;
        cr_expect_eq(run(cases[i][0], &doc), 422, "case %zu: %s", i, last_body);
        cr_expect(has_error(doc, cases[i][1], ""), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}

/* A playerID that is a name, not a number (the translation takes it; SendOrdersBotGame's SDK
 * writes an int): the plan is made, send_orders is left out and the warning says why. p1's 4
 * armies on 1 hold it against nobody: value 1. */
Test(warzone_plan_api, send_orders_left_out_for_a_named_player) {
    json_t *doc;
    cr_assert_eq(run("{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70}, "
                     "\"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": [2]}, {\"id\": "
                     "2}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"p1\", \"armies\": 4}, "
                     "{\"terrID\": 2, \"ownedBy\": \"p2\", \"armies\": 1}], \"playerID\": "
                     "\"p1\", \"gameID\": 9, \"game\": {\"numberOfTurns\": 1}, \"income\": 0, "
                     "\"goal\": {\"territories\": [1]}}",
                     &doc),
                 200, "%s", last_body);
    cr_expect_float_eq(json_number_at(doc, "value"), 1.0, 1e-12, "%s", last_body);
    cr_expect_null(json_walk(doc, "send_orders"), "%s", last_body);
    const char *w = json_string_value(json_walk(doc, "warnings/0"));
    cr_expect(w && strstr(w, "send_orders is left out") && strstr(w, "playerID"), "%s", last_body);
    json_decref(doc);
}

/* The text of the first "value" member of an answer, into out. */
static void value_text(const char *body, char out[64]) {
    const char *v = body ? strstr(body, "\"value\":") : NULL;
    size_t n = v ? strcspn(v + 8, ",}") : 0;
    snprintf(out, 64, "%.*s", (int)(n < 63 ? n : 63), v ? v + 8 : "");
}

/*
 * `value` as /plan-turn writes it, to the byte: a board whose expected count needs 17 digits to
 * read back (3.9998371613900803, where 15 digits would write 3.99983716139008). The same turn
 * sent to /plan-turn as its own request (MoveOrder absent is the game's Random, W40).
 */
Test(warzone_plan_api, value_written_as_plan_turn_writes_it) {
    const char *game =
        "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": \"70\", "
        "\"LuckModifier\": \"0.5\"}, \"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": [2, "
        "4]}, {\"id\": 2, \"connectedTo\": [3]}, {\"id\": 3, \"connectedTo\": [5]}, {\"id\": 4, "
        "\"connectedTo\": [5]}, {\"id\": 5, \"connectedTo\": [6]}, {\"id\": 6}], \"bonuses\": "
        "[{\"id\": 1, \"value\": 3, \"territoryIDs\": [1, 2, 3]}, {\"id\": 2, \"value\": 2, "
        "\"territoryIDs\": [4, 5, 6]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": 100, "
        "\"armies\": 5}, {\"terrID\": 2, \"ownedBy\": 100, \"armies\": 2}, {\"terrID\": 3, "
        "\"ownedBy\": \"Neutral\", \"armies\": 2}, {\"terrID\": 4, \"ownedBy\": \"Neutral\", "
        "\"armies\": 2}, {\"terrID\": 5, \"ownedBy\": 200, \"armies\": 7}, {\"terrID\": 6, "
        "\"ownedBy\": \"Neutral\", \"armies\": 2}], \"orders\": [{\"type\": "
        "\"GameOrderAttackTransfer\", \"playerID\": 200, \"from\": 5, \"to\": 3, \"numArmies\": "
        "\"4\"}, {\"type\": \"GameOrderAttackTransfer\", \"playerID\": 200, \"from\": 5, \"to\": "
        "4, \"numArmies\": \"2\"}], \"playerID\": 100, \"income\": 7, \"objective\": "
        "\"expected\", \"goal\": {\"territories\": [1, 2, 3, 4]}}";
    const char *own =
        "{\"territories\": {\"1\": {\"owner\": \"100\", \"armies\": 5, \"neighbors\": [\"2\", "
        "\"4\"]}, \"2\": {\"owner\": \"100\", \"armies\": 2, \"neighbors\": [\"3\"]}, \"3\": "
        "{\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": [\"5\"]}, \"4\": {\"owner\": "
        "\"neutral\", \"armies\": 2, \"neighbors\": [\"5\"]}, \"5\": {\"owner\": \"200\", "
        "\"armies\": 7, \"neighbors\": [\"6\"]}, \"6\": {\"owner\": \"neutral\", \"armies\": 2, "
        "\"neighbors\": []}}, \"player\": \"100\", \"income\": 7, \"goal\": {\"hold\": [\"1\", "
        "\"2\"], \"capture\": [\"3\", \"4\"]}, \"objective\": \"expected\", \"orders\": "
        "[{\"player\": \"200\", \"from\": \"5\", \"to\": \"3\", \"armies\": 4}, {\"player\": "
        "\"200\", \"from\": \"5\", \"to\": \"4\", \"armies\": 2}], \"settings\": "
        "{\"luck_modifier\": 0.5}, \"move_order\": \"random\", \"bonuses\": {\"1\": {\"value\": "
        "3, \"territories\": [\"1\", \"2\", \"3\"]}, \"2\": {\"value\": 2, \"territories\": "
        "[\"4\", \"5\", \"6\"]}}}";
    json_t *doc;
    char wz[64], plain[64];
    cr_assert_eq(run(game, &doc), 200, "%s", last_body);
    value_text(last_body, wz);
    json_decref(doc);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", own, &doc, &last_body), 200, "%s", last_body);
    value_text(last_body, plain);
    json_decref(doc);
    cr_expect_str_eq(wz, plain);
    cr_expect_eq(strlen(plain), 18, "17 digits and the point: %s", plain);
}
