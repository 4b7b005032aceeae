/*
 * POST /plan-turn with `objective: "position"` over HTTP (W48, W49): docs/api/plan.md's example
 * worked out by hand (docs/rules.md W48: V = 16.6 − 31 = −14.4), the same bytes for the same
 * request, and a scenario's bad order named at its pointer in the request.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"

TestSuite(plan_position_http, .init = test_suite_start, .fini = test_suite_stop);

/* alice's A (1) and B (1), bonus AB 2; bob's C (5) and D (3), bonus CD 3; N neutral (2). */
#define BOARD                                                                                      \
    "\"territories\": {"                                                                           \
    "\"A\": {\"owner\": \"alice\", \"armies\": 1, \"neighbors\": [\"B\", \"N\"]},"                 \
    "\"B\": {\"owner\": \"alice\", \"armies\": 1, \"neighbors\": [\"A\", \"C\"]},"                 \
    "\"C\": {\"owner\": \"bob\", \"armies\": 5, \"neighbors\": [\"B\", \"D\"]},"                   \
    "\"D\": {\"owner\": \"bob\", \"armies\": 3, \"neighbors\": [\"C\"]},"                          \
    "\"N\": {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": [\"A\"]}},"                     \
    "\"bonuses\": {\"AB\": {\"value\": 2, \"territories\": [\"A\", \"B\"]},"                       \
    "\"CD\": {\"value\": 3, \"territories\": [\"C\", \"D\"]}},"                                    \
    "\"player\": \"alice\", \"income\": 0, \"objective\": \"position\","                           \
    "\"settings\": {\"luck_modifier\": 0}"

/*
 * bob's 2 on C then C → B with 6 (of 7 asked, W14.3): they kill round(3.6) = 4 ≥ 1 and lose
 * round(0.7) = 1; B is bob's with 5. alice: 3 · 5 + 2 · 2 · (1/2)² · 3/5 + ½ · 1 + ½ · 1 = 16.6
 * (AB's reach: B's 5 armies against 0.6 · 5 = 3 a turn of base income kills); bob:
 * 3 · 8 + 2 · 0.5 + ½ · 9 + ½ · 3 = 31 (CD's only outside border, B, is his). V = −14.4.
 */
Test(plan_position_http, w48_the_hand_worked_standing_over_http) {
    const char *body =
        "{" BOARD ", \"others\": [{\"weight\": 2, \"orders\": [{\"type\": \"deploy\", \"player\": "
        "\"bob\", \"to\": \"C\", \"armies\": 2}, {\"player\": \"bob\", \"from\": \"C\", \"to\": "
        "\"B\", \"armies\": 7}]}]}";
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(fabs(json_number_at(r.json, "value") + 14.4) < 1e-12, "%s", r.body);
    cr_expect_eq(json_number_at(r.json, "scenarios/0/weight"), 1.0);
    cr_expect_eq(json_array_size(json_walk(r.json, "orders")), 0);
    test_response again;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &again), 0);
    cr_expect_str_eq(again.body, r.body, "the same request, other bytes");
    test_response_free(&again);
    test_response_free(&r);
}

/* W49: a scenario's order naming a territory not on the board, at the request's pointer. */
Test(plan_position_http, w49_a_scenarios_bad_order_is_named_in_the_request) {
    const char *body = "{" BOARD ", \"others\": [{\"weight\": 1, \"orders\": []}, {\"weight\": 1, "
                       "\"orders\": [{\"player\": \"bob\", \"from\": \"C\", \"to\": \"Q\", "
                       "\"armies\": 2}]}]}";
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &r), 0);
    cr_expect_eq(r.status, 422, "%s", r.body);
    cr_expect(has_error(r.json, "/others/1/orders/0/to", NULL), "%s", r.body);
    test_response_free(&r);
}
