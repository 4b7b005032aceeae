/*
 * /plan-turn says what stopped its search (`stopped_by`): absent for a proven plan,
 * "max_plans" when max_plans ended it, "work" when the search's share of the work budget
 * (server.work_budget_ms) did; the answer is the best plan valued so far, a 200.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "plan_grid.h"

/* docs/api/plan.md's hold-and-take board (test_plan_http.c works its value out by hand:
 * 1.04980736, proven optimal), with max_plans as given (0: the default). */
static void hold_and_take(unsigned max_plans, char *b, size_t cap) {
    char plans[64] = "";
    if (max_plans > 0) {
        snprintf(plans, sizeof plans, ", \"max_plans\": %u", max_plans);
    }
    int n = snprintf(
        b, cap,
        "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 3, \"neighbors\": [\"B\", "
        "\"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 9, \"neighbors\": []}, \"C\": "
        "{\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}}, \"settings\": "
        "{\"luck_modifier\": 0.16}, \"player\": \"alice\", \"income\": 4, \"goal\": {\"capture\": "
        "[\"C\"], \"hold\": [\"A\"]}, \"objective\": \"expected\", \"orders\": [{\"player\": "
        "\"bob\", \"from\": \"B\", \"to\": \"A\", \"armies\": 8}]%s}",
        plans);
    cr_assert(n > 0 && (size_t)n < cap);
}

Test(plan_stop, a_proven_plan_has_no_stopped_by) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    char body[2048];
    hold_and_take(0, body, sizeof body);
    json_t *doc = NULL;
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &doc, NULL), 200);
    cr_expect(json_is_true(json_object_get(doc, "optimal")));
    cr_expect_null(json_object_get(doc, "stopped_by"));
    json_decref(doc);
}

/* max_plans 1: the greedy split (W47) is the one plan valued; 1.04980736 is the most
 * (by hand), 2 the most any plan may be: nothing proves it, and max_plans ended the search. */
Test(plan_stop, max_plans_1_says_max_plans) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    char body[2048];
    hold_and_take(1, body, sizeof body);
    json_t *doc = NULL;
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &doc, NULL), 200);
    cr_expect(json_is_false(json_object_get(doc, "optimal")));
    cr_expect_eq(json_number_at(doc, "plans_evaluated"), 1);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "stopped_by")), "max_plans");
    json_decref(doc);
}

/* The search's share of the work is a quarter of what server.work_budget_ms leaves it: at 10 and
 * 20 ms (units, not time: the same bytes each run) and max_plans 100000, more than that share
 * values, the search ends on its work: a 200 with the best plan so far, "work". */
Test(plan_stop, the_work_share_says_work) {
    const unsigned ms[] = {10, 20};
    char *body = grid_body(100000);
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        cbd_config cfg;
        cbd_config_defaults(&cfg);
        cfg.limits.work_budget_ms = ms[i];
        json_t *doc = NULL;
        cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &doc, NULL), 200, "%u ms", ms[i]);
        cr_expect(json_is_false(json_object_get(doc, "optimal")), "%u ms", ms[i]);
        cr_expect_lt(json_number_at(doc, "plans_evaluated"), 100000);
        const json_t *by = json_object_get(doc, "stopped_by");
        cr_expect_str_eq(json_string_value(by) ? json_string_value(by) : "-", "work", "%u ms",
                         ms[i]);
        printf("work_budget_ms %u: stopped_by %s, plans_evaluated %.0f, value %.8g\n", ms[i],
               json_string_value(by), json_number_at(doc, "plans_evaluated"),
               json_number_at(doc, "value"));
        json_decref(doc);
    }
    free(body);
}

/* /warzone/plan-turn passes /plan-turn's stopped_by: the same board in the game's JSON (its
 * bonus 7 is 1 and 3; test_warzone_plan_api.c works the value out, 1.04980736, proven), with
 * max_plans 1 not proven, "max_plans"; with the default, proven, no stopped_by. */
#define WZ_TURN(extra)                                                                             \
    "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "     \
    "\"0.16\", \"MinimumArmyBonus\": \"4\"}, \"map\": {\"territories\": [{\"id\": 1, "             \
    "\"connectedTo\": [2, 3]}, {\"id\": 2}, {\"id\": 3}], \"bonuses\": [{\"id\": 7, \"value\": "   \
    "3, \"territoryIDs\": [1, 3]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\", "        \
    "\"armies\": \"3\"}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": \"9\"}, {\"terrID\": "  \
    "3, \"ownedBy\": \"Neutral\", \"armies\": \"1\"}], \"orders\": [{\"type\": "                   \
    "\"GameOrderAttackTransfer\", \"playerID\": \"200\", \"from\": 2, \"to\": 1, \"numArmies\": "  \
    "\"8\"}], \"playerID\": \"100\", \"goal\": {\"bonuses\": [\"7\"]}, \"objective\": "            \
    "\"expected\"" extra "}"

Test(plan_stop, warzone_plan_turn_passes_stopped_by) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    json_t *doc = NULL;
    cr_assert_eq(
        api_test_run(&cfg, "/warzone/plan-turn", WZ_TURN(", \"max_plans\": 1"), &doc, NULL), 200);
    cr_expect(json_is_false(json_object_get(doc, "optimal")));
    cr_expect_str_eq(json_string_value(json_object_get(doc, "stopped_by")), "max_plans");
    json_decref(doc);
    cr_assert_eq(api_test_run(&cfg, "/warzone/plan-turn", WZ_TURN(""), &doc, NULL), 200);
    cr_expect(json_is_true(json_object_get(doc, "optimal")));
    cr_expect_null(json_object_get(doc, "stopped_by"));
    json_decref(doc);
}
