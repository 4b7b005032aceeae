/*
 * POST /plan-turn over HTTP (W31): docs/api/plan.md's hold-and-take example worked out by hand, its
 * plan replayed through POST /analyze-turn to the same value (to the last bit) and the same
 * analysis, and the same bytes for the same request.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"

TestSuite(plan_http, .init = test_suite_start, .fini = test_suite_stop);

#define BOARD                                                                                      \
    "\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 3, \"neighbors\": [\"B\", "       \
    "\"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 9, \"neighbors\": []}, \"C\": {\"owner\": "  \
    "\"neutral\", \"armies\": 1, \"neighbors\": []}}, \"settings\": {\"luck_modifier\": 0.16}"
#define BOBS_ORDER "{\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\", \"armies\": 8}"

/*
 * That example by hand (W1–W7, W14, at 16 % luck): A = 3 + 4 = 7. Two at C (1) kill
 * round(0.84·1.2 + 0.16·X) >= 1 for every roll: C is taken, surely, and A keeps 5. Bob's 8
 * (9 less the guard) deal round(4.032 + 0.16·Y), Y ~ Bin(8, 0.6): 5 (A falls) iff Y >= 3, so
 * A holds with P(Y <= 2) = 0.4^8 + 8·0.6·0.4^7 + 28·0.6^2·0.4^6 = 0.04980736. The expected
 * number owned is 1.04980736; holding A surely without C is 1, taking C with more leaves A
 * weaker: no plan does better (the planner proves it).
 */
Test(plan_http, w31_take_c_and_hold_a_by_hand_and_replayed) {
    const char *body = "{" BOARD ", \"player\": \"alice\", \"income\": 4, \"goal\": {\"capture\": "
                       "[\"C\"], \"hold\": [\"A\"]}, \"objective\": \"expected\", \"orders\": "
                       "[" BOBS_ORDER "]}";
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *d = r.json;
    cr_expect(fabs(json_number_at(d, "value") - 1.04980736) < 1e-12, "%s", r.body);
    cr_expect(json_is_true(json_walk(d, "optimal")));
    cr_expect_str_eq(json_string_value(json_walk(d, "orders/0/to")), "A");
    cr_expect_eq(json_number_at(d, "orders/0/armies"), 4);
    cr_expect_str_eq(json_string_value(json_walk(d, "orders/1/to")), "C");
    cr_expect_eq(json_number_at(d, "orders/1/armies"), 2);
    cr_expect_eq(json_array_size(json_walk(d, "orders")), 2);

    /* The same turn through /analyze-turn: the plan's orders, then bob's (`expected` gives no
     * goals: it reads the owners). */
    char *plan = json_dumps(json_walk(d, "orders"), JSON_COMPACT);
    char replay[2048];
    snprintf(replay, sizeof replay, "{" BOARD ", \"orders\": %.*s, " BOBS_ORDER "]}",
             (int)strlen(plan) - 1, plan);
    free(plan);
    test_response a;
    cr_assert_eq(test_post_json(test_port, "/analyze-turn", replay, &a), 0);
    cr_assert_eq(a.status, 200, "%s", a.body);
    double sum = json_number_at(a.json, "territories/C/owner/alice") +
                 json_number_at(a.json, "territories/A/owner/alice");
    cr_expect(sum == json_number_at(d, "value"), "replay %.17g, plan %.17g", sum,
              json_number_at(d, "value"));
    cr_expect(json_equal(a.json, json_walk(d, "analysis")), "the analysis differs");
    cr_expect_eq(json_number_at(a.json, "territories/A/owner/alice"), 0.04980736);
    test_response_free(&a);

    test_response again;
    cr_assert_eq(test_post_json(test_port, "/plan-turn", body, &again), 0);
    cr_expect_str_eq(again.body, r.body, "the same request, other bytes");
    test_response_free(&again);
    test_response_free(&r);
}
