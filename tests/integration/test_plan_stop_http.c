/*
 * `stopped_by` over HTTP: docs/api/plan.md's hold-and-take board (test_plan_http.c
 * works its value out by hand, 1.04980736, proven) answers without `stopped_by`; with
 * max_plans 1 it answers the one plan valued, not proven, "max_plans"; /warzone/plan-turn
 * passes the same member through (tests/unit/api/test_plan_stop_api.c has the work share).
 */
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"

TestSuite(plan_stop_http, .init = test_suite_start, .fini = test_suite_stop);

#define HOLD_AND_TAKE(extra)                                                                       \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 3, \"neighbors\": [\"B\", "      \
    "\"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 9, \"neighbors\": []}, \"C\": {\"owner\": "  \
    "\"neutral\", \"armies\": 1, \"neighbors\": []}}, \"settings\": {\"luck_modifier\": 0.16}, "   \
    "\"player\": \"alice\", \"income\": 4, \"goal\": {\"capture\": [\"C\"], \"hold\": [\"A\"]}, "  \
    "\"objective\": \"expected\", \"orders\": [{\"player\": \"bob\", \"from\": \"B\", \"to\": "    \
    "\"A\", \"armies\": 8}]" extra "}"

Test(plan_stop_http, a_proven_plan_has_no_stopped_by) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", HOLD_AND_TAKE(""), &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_true(json_walk(r.json, "optimal")));
    cr_expect_null(json_walk(r.json, "stopped_by"), "%s", r.body);
    cr_expect_null(strstr(r.body, "stopped_by"));
    test_response_free(&r);
}

Test(plan_stop_http, max_plans_1_says_max_plans) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", HOLD_AND_TAKE(", \"max_plans\": 1"), &r),
                 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_false(json_walk(r.json, "optimal")));
    cr_expect_eq(json_number_at(r.json, "plans_evaluated"), 1);
    cr_expect_str_eq(json_string_value(json_walk(r.json, "stopped_by")), "max_plans", "%s", r.body);
    test_response_free(&r);
}
