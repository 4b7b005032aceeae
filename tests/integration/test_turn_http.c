/* POST /analyze-turn and /simulate-turn over HTTP: docs/api/turns.md's first example worked out by
 * hand, a 0 %-luck turn, replay by seed, and sampled turns against the exact analysis. */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "chi_square.h"
#include "http_client.h"

TestSuite(turn_http, .init = test_suite_start, .fini = test_suite_stop);

#define ISSUE_TURN(luck, extra)                                                                    \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 12}, \"B\": {\"owner\": "        \
    "\"bob\", \"armies\": 5},"                                                                     \
    " \"N\": {\"owner\": \"neutral\", \"armies\": 2}},"                                            \
    " \"orders\": [{\"type\": \"deploy\", \"player\": \"alice\", \"to\": \"A\", \"armies\": 3},"   \
    " {\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 10},"                    \
    " {\"player\": \"alice\", \"from\": \"A\", \"to\": \"N\", \"percent\": 1},"                    \
    " {\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\", \"armies\": 4}],"                      \
    " \"settings\": {\"luck_modifier\": " luck ", \"multi_attack\": false},"                       \
    " \"teams\": {\"alice\": \"red\"}, \"move_order\": \"listed\", \"player_order\": [\"alice\", " \
    "\"bob\"],"                                                                                    \
    " \"goals\": [{\"territory\": \"B\", \"owner\": \"alice\"}]" extra "}"

static const json_t *at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert_not_null(v, "no %s", path);
    return v;
}

static double num(const json_t *doc, const char *path) {
    return json_number_value(at(doc, path));
}

/*
 * docs/api/turns.md's first example at 16 % luck, by hand (W1, W2, W5, W12, W14). A = 12 + 3 = 15.
 * alice A->B 10 vs 5: attacker kills R(0.16·X + 0.84·6) >= R(5.04) = 5 for every roll X, and
 * the defenders kill R(0.16·Y + 0.84·3.5) = R(0.16·Y + 2.94) <= R(3.74) = 4 < 10: captured
 * surely, B = 10 − R(0.16·Y + 2.94), where that is 4 iff Y >= 4 (3.58, 3.74), else 3:
 * P(Y >= 4) = 5·0.7^4·0.3 + 0.7^5 = 0.52822 for B = 6, else B = 7.
 * alice A->N 100 %: 5 on A, 4 movable, vs 2: kills >= R(2.016) = 2, losses R(0.16·Y + 1.176)
 * = 1 for Y = 0..2: captured with N = 3, A = 1. bob B->A: B is alice's now: skipped.
 */
Test(turn_http, issue_example_by_hand) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-turn", ISSUE_TURN("0.16", ""), &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *d = r.json;
    cr_expect(json_is_false(at(d, "deterministic")));
    cr_expect_eq(num(d, "territories/A/owner/alice"), 1.0);
    cr_expect_eq(num(d, "territories/A/armies/mean"), 1.0);
    cr_expect_eq(num(d, "territories/N/owner/alice"), 1.0);
    cr_expect_eq(num(d, "territories/N/armies/mean"), 3.0);
    cr_expect_eq(num(d, "territories/B/owner/alice"), 1.0);
    cr_expect_null(json_object_get(at(d, "territories/B/owner"), "bob"), "only owners with p > 0");
    cr_expect_eq(num(d, "territories/B/armies/distribution/0/armies"), 6);
    cr_expect(fabs(num(d, "territories/B/armies/distribution/0/probability") - 0.52822) < 1e-12);
    cr_expect(fabs(num(d, "territories/B/armies/distribution/1/probability") - 0.47178) < 1e-12);
    cr_expect_eq(num(d, "territories/B/armies/percentiles/p50"), 6);
    cr_expect_eq(num(d, "territories/B/armies/percentiles/p75"), 7);
    cr_expect_eq(num(d, "orders/1/capture_probability"), 1.0);
    cr_expect_eq(num(d, "orders/2/capture_probability"), 1.0);
    cr_expect_eq(num(d, "orders/3/skipped_probability"), 1.0);
    cr_expect_eq(num(d, "goals_probability"), 1.0);
    test_response_free(&r);
}

/* At 0 % luck the same turn has one outcome: B loses R(3.5) = 4 (W2: .5 rounds up): 6. */
Test(turn_http, zero_luck_is_deterministic) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-turn", ISSUE_TURN("0", ""), &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(json_is_true(at(r.json, "deterministic")));
    cr_expect_eq(num(r.json, "territories/B/armies/distribution/0/armies"), 6);
    cr_expect_eq(num(r.json, "territories/B/armies/distribution/0/probability"), 1.0);
    cr_expect_eq(num(r.json, "territories/N/armies/mean"), 3.0);
    test_response_free(&r);
}

Test(turn_http, bad_input_is_a_422_naming_the_field) {
    test_response r;
    const char *body = "{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 3}}, \"orders\":"
                       " [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1}]}";
    cr_assert_eq(test_post_json(test_port, "/simulate-turn", body, &r), 0);
    cr_expect_eq(r.status, 422);
    cr_expect_str_eq(json_string_value(at(r.json, "errors/0/pointer")), "/orders/0/to");
    test_response_free(&r);
}

Test(turn_http, same_seed_same_bytes) {
    test_response a, b;
    const char *body = ISSUE_TURN("0.5", ", \"trials\": 2000, \"seed\": 123456789");
    cr_assert_eq(test_post_json(test_port, "/simulate-turn", body, &a), 0);
    cr_assert_eq(test_post_json(test_port, "/simulate-turn", body, &b), 0);
    cr_assert_eq(a.status, 200, "%s", a.body);
    cr_expect_eq(a.body_len, b.body_len);
    cr_expect_eq(memcmp(a.body, b.body, a.body_len), 0);
    cr_expect_eq(num(a.json, "seed"), 123456789);
    test_response_free(&a);
    test_response_free(&b);
}

/* A contested front at 50 % luck: two attacks into B, the second one a transfer when the first
 * took it. 40,000 sampled turns (seed fixed) against the exact distribution of B's armies
 * (Pearson chi-square at alpha = 0.001) and the goal's chance (a z-test at 4 sigma). */
#define FRONT(extra)                                                                               \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 14}, \"B\": {\"owner\": "        \
    "\"bob\", \"armies\": 9}, \"C\": {\"owner\": \"alice\", \"armies\": 8}, \"D\": {\"owner\": "   \
    "\"bob\", \"armies\": 6}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": "     \
    "\"B\", \"armies\": 13}, {\"player\": \"bob\", \"from\": \"D\", \"to\": \"C\", \"percent\": "  \
    "1}, {\"player\": \"alice\", \"from\": \"C\", \"to\": \"B\", \"armies\": 7}], \"settings\": "  \
    "{\"luck_modifier\": 0.5}, \"move_order\": \"random\", \"goals\": [{\"territory\": \"B\", "    \
    "\"owner\": \"alice\"}]" extra "}"

Test(turn_http, sampled_turns_agree_with_the_analysis) {
    test_response exact, sim;
    cr_assert_eq(test_post_json(test_port, "/analyze-turn", FRONT(""), &exact), 0);
    cr_assert_eq(exact.status, 200, "%s", exact.body);
    enum { TRIALS = 40000 };
    cr_assert_eq(test_post_json(test_port, "/simulate-turn",
                                FRONT(", \"trials\": 40000, \"seed\": 20261201"), &sim),
                 0);
    cr_assert_eq(sim.status, 200, "%s", sim.body);

    const json_t *dist = at(exact.json, "territories/B/armies/distribution");
    const json_t *hist = at(sim.json, "territories/B/armies/histogram");
    size_t n = json_array_size(dist);
    cr_assert_gt(n, 3, "B's armies should spread over several values");
    uint64_t observed[512] = {0};
    long double prob[512];
    cr_assert_lt(n, 512);
    for (size_t i = 0; i < n; i++) {
        const json_t *pt = json_array_get(dist, i);
        prob[i] = json_number_value(json_object_get(pt, "probability"));
        json_int_t armies = json_integer_value(json_object_get(pt, "armies"));
        for (size_t j = 0; j < json_array_size(hist); j++) {
            const json_t *h = json_array_get(hist, j);
            if (json_integer_value(json_object_get(h, "armies")) == armies) {
                observed[i] = (uint64_t)json_integer_value(json_object_get(h, "count"));
            }
        }
    }
    chi_square_result c = chi_square_test(observed, prob, n, TRIALS);
    cr_log_info("B armies: chi-square %.2f over %d df (critical %.2f)", c.statistic, c.df,
                c.critical);
    cr_expect_lt(c.statistic, c.critical, "chi-square %.2f over %d df (critical %.2f)", c.statistic,
                 c.df, c.critical);

    double p = num(exact.json, "goals_probability");
    double met = num(sim.json, "goals_met");
    double z = (met - p * TRIALS) / sqrt(p * (1 - p) * TRIALS);
    cr_expect(p > 0.05 && p < 0.95, "the goal should be uncertain, p = %g", p);
    cr_log_info("goals p = %g, z = %.2f", p, z);
    cr_expect_lt(fabs(z), 4.0, "goals: %g of %d against p = %g (z = %.2f)", met, TRIALS, p, z);
    double cap = num(exact.json, "orders/0/capture_probability");
    double caps = num(sim.json, "orders/0/captures");
    z = (caps - cap * TRIALS) / sqrt(cap * (1 - cap) * TRIALS + 1e-300);
    cr_expect_lt(fabs(z), 4.0, "order 0 captures: z = %.2f", z);
    test_response_free(&exact);
    test_response_free(&sim);
}
