/*
 * The plan search's work over HTTP, with the request's work budget set small through the config
 * (server.work_budget_ms 20, 2·10^7 units) and plan_star.h's star, whose search takes more:
 * - `max_work` 10^6: the share ends the search, a 200 with the best plan so far, "work";
 * - `max_work` 2·10^7, the whole budget: the request's own budget (the body's reading spent
 *   some of it) ends the search first, a 200 with the best plan so far, "budget", written
 *   within the answer's reserve (a 422 before: the plans valued were dropped);
 * - one unit more than the budget: a 422 at /max_work naming the limit, from /warzone/plan-turn
 *   too (it passes the member on).
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"
#include "plan_star.h"

static void setup(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.api.limits.work_budget_ms = 20;
    test_suite_start_with(&cfg);
}

TestSuite(plan_work_http, .init = setup, .fini = test_suite_stop);

static const char *stopped_by(const test_response *r) {
    const char *by = json_string_value(json_walk(r->json, "stopped_by"));
    return by ? by : "-";
}

/* The value of the star's first plan alone (max_plans 1: the greedy split, W47): what every
 * longer search answers at least, the plans it valued kept whatever stopped it. */
static double first_plan_value(void) {
    char *body = star_body(0);
    char *at = strstr(body, "\"max_plans\": 100000");
    cr_assert_not_null(at);
    memmove(at + strlen("\"max_plans\": 1"), at + strlen("\"max_plans\": 100000"),
            strlen(at + strlen("\"max_plans\": 100000")) + 1);
    memcpy(at, "\"max_plans\": 1", strlen("\"max_plans\": 1"));
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &r), 0);
    cr_assert_eq(r.status, 200, "%.400s", r.body);
    double v = json_number_at(r.json, "value");
    test_response_free(&r);
    free(body);
    return v;
}

static void expect_stopped_by(unsigned long long work, const char *want) {
    double floor_value = first_plan_value();
    char *body = star_body(work);
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &r), 0);
    cr_assert_eq(r.status, 200, "max_work %llu: %.400s", work, r.body);
    printf("max_work %llu: %s, value %.8g, %.0f plans\n", work, stopped_by(&r),
           json_number_at(r.json, "value"), json_number_at(r.json, "plans_evaluated"));
    cr_expect_str_eq(stopped_by(&r), want, "max_work %llu", work);
    cr_expect(json_is_false(json_walk(r.json, "optimal")));
    cr_expect_geq(json_number_at(r.json, "value"), floor_value, "below the first plan's");
    test_response_free(&r);
    free(body);
}

Test(plan_work_http, the_share_says_work) {
    expect_stopped_by(1000000, "work");
}

Test(plan_work_http, the_whole_budget_says_budget) {
    expect_stopped_by(20000000, "budget");
}

/* test_plan_stop_api.c's board in the game's JSON (its bonus 7 is 1 and 3). */
#define WZ_TURN(extra)                                                                             \
    "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "     \
    "\"0.16\", \"MinimumArmyBonus\": \"4\"}, \"map\": {\"territories\": [{\"id\": 1, "             \
    "\"connectedTo\": [2, 3]}, {\"id\": 2}, {\"id\": 3}], \"bonuses\": [{\"id\": 7, \"value\": "   \
    "3, \"territoryIDs\": [1, 3]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\", "        \
    "\"armies\": \"3\"}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": \"9\"}, {\"terrID\": "  \
    "3, \"ownedBy\": \"Neutral\", \"armies\": \"1\"}], \"orders\": [], \"playerID\": \"100\", "    \
    "\"goal\": {\"bonuses\": [\"7\"]}, \"objective\": \"expected\"" extra "}"

Test(plan_work_http, past_the_budget_is_a_422_naming_the_limit) {
    char *body = star_body(20000001);
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &r), 0);
    cr_assert_eq(r.status, 422, "%.400s", r.body);
    cr_expect(has_error(r.json, "/max_work", "at most 20000000 work units"), "%s", r.body);
    test_response_free(&r);
    free(body);
    cr_assert_eq(
        test_post_json(test_port, "/warzone/plan-turn", WZ_TURN(", \"max_work\": 20000001"), &r),
        0);
    cr_assert_eq(r.status, 422, "%.400s", r.body);
    cr_expect_not_null(strstr(r.body, "at most 20000000 work units"), "%s", r.body);
    test_response_free(&r);
}
