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
