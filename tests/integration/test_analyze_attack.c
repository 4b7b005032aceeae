/* POST /analyze-attack over HTTP: the contract's fields, worked values and 422s. */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "http_client.h"

TestSuite(analyze, .init = test_suite_start, .fini = test_suite_stop);

static json_t *post_ok(const char *body, test_response *r) {
    cr_assert_eq(test_post_json(test_port, "/analyze-attack", body, r), 0);
    cr_assert_eq(r->status, 200, "body: %s", r->body);
    cr_assert_not_null(r->json);
    return r->json;
}

static double num(const json_t *obj, const char *path) {
    /* A small dotted path: "a.b". */
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    const json_t *v = obj;
    for (char *save, *tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
        v = json_object_get(v, tok);
        cr_assert_not_null(v, "missing %s", path);
    }
    cr_assert(json_is_number(v), "%s is not a number", path);
    return json_number_value(v);
}

/* The probability listed for `armies` in a distribution, 0 when not listed. */
static double listed(const json_t *side, uint64_t armies) {
    const json_t *arr = json_object_get(side, "distribution");
    size_t i;
    const json_t *pt;
    json_array_foreach(arr, i, pt) {
        if ((uint64_t)json_integer_value(json_object_get(pt, "armies")) == armies) {
            return json_real_value(json_object_get(pt, "probability"));
        }
    }
    return 0.0;
}

static double listed_sum(const json_t *side) {
    double s = 0;
    size_t i;
    const json_t *pt;
    json_array_foreach(json_object_get(side, "distribution"), i, pt) {
        s += json_real_value(json_object_get(pt, "probability"));
    }
    return s;
}

/* "10 armies attack 5": defaults filled in; kill 6 and lose 4 (3.5 rounds up); 6 move in. */
Test(analyze, deterministic_capture_with_defaults) {
    test_response r;
    json_t *j = post_ok("{\"attackers\": 10, \"defenders\": 5}", &r);
    cr_expect(json_is_true(json_object_get(j, "deterministic")));
    cr_expect_eq(num(j, "capture_probability"), 1.0);
    cr_expect_eq(num(j, "mutual_destruction_probability"), 0.0);
    cr_expect_eq(num(j, "outcome.attackers_lost"), 4);
    cr_expect_eq(num(j, "outcome.defenders_lost"), 5);
    cr_expect_eq(num(j, "outcome.attackers_left"), 6);
    cr_expect_eq(num(j, "outcome.defenders_left"), 0);
    cr_expect(json_is_true(json_object_get(json_object_get(j, "outcome"), "captured")));
    cr_expect_eq(num(j, "settings.offense_kill_rate"), 0.6);
    cr_expect_eq(num(j, "settings.defense_kill_rate"), 0.7);
    cr_expect_eq(num(j, "settings.luck_modifier"), 0.0);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_object_get(j, "settings"), "rounding_mode")),
        "straight_round");
    cr_expect_eq(num(j, "attackers_left.percentiles.p50"), 6);
    cr_expect_eq(listed(json_object_get(j, "attackers_left"), 6), 1.0);
    test_response_free(&r);
}

/* 1 vs 1 at 0 % luck: both die, one defender is resurrected (W5). */
Test(analyze, mutual_destruction) {
    test_response r;
    json_t *j = post_ok("{\"attackers\": 1, \"defenders\": 1}", &r);
    cr_expect(json_is_true(json_object_get(j, "deterministic")));
    cr_expect_eq(num(j, "mutual_destruction_probability"), 1.0);
    cr_expect(json_is_false(json_object_get(json_object_get(j, "outcome"), "captured")));
    cr_expect_eq(num(j, "outcome.defenders_left"), 1);
    cr_expect_eq(num(j, "outcome.defenders_lost"), 0);
    cr_expect_eq(num(j, "outcome.attackers_left"), 0);
    test_response_free(&r);
}

/*
 * docs/api/battles.md's example at 16 % luck. Attackers: v = 0.84·6 + 0.16·X >= 5.04 -> at least 5
 * kills, so all 5 defenders always die. Defenders: v = 0.84·3.5 + 0.16·X = 2.94 + 0.16·X, X of 5:
 * X <= 3 gives <= 3.42 -> 3, X >= 4 gives >= 3.58 -> 4. P(4 kills) = P(X >= 4) =
 * 5·0.7^4·0.3 + 0.7^5 = 0.36015 + 0.16807 = 0.52822: 6 attackers left, else 7.
 * Graph at 4 attackers: they kill 0.84·2.4 + 0.16·X = 2.016 + 0.16·X -> 2, or 3 when X = 4
 * (2.656): E = 2 + 0.6^4 = 2.1296 defenders lost; the defenders' 3 or 4 kills against 4 make
 * E[lost] = 3·0.47178 + 4·0.52822 = 3.52822.
 * Armies needed: 7 attackers kill 3.528 + 0.16·X, >= 4.5 only at X = 7 (0.6^7 = 0.028);
 * 8 kill 4.032 + 0.16·X >= 4.5 iff X >= 3: 1 − (0.4^8 + 8·0.6·0.4^7 + 28·0.6^2·0.4^6) = 0.95019;
 * 9 kill >= 4.536 always. So 0.5 and 0.9 need 8, 0.99 needs 9.
 */
Test(analyze, issue_example_with_luck_graph_and_targets) {
    test_response r;
    json_t *j =
        post_ok("{\"attackers\": 10, \"defenders\": 5, \"source_armies\": 11, \"transfer\": false,"
                " \"settings\": {\"offense_kill_rate\": 0.6, \"defense_kill_rate\": 0.7,"
                " \"luck_modifier\": 0.16, \"rounding_mode\": \"straight_round\","
                " \"one_army_must_stand_guard\": true},"
                " \"graph\": {\"from\": 1, \"to\": 40}, \"targets\": [0.5, 0.9, 0.99]}",
                &r);
    cr_expect(json_is_false(json_object_get(j, "deterministic")));
    cr_expect_null(json_object_get(j, "outcome"));
    cr_expect_eq(num(j, "capture_probability"), 1.0);
    const json_t *al = json_object_get(j, "attackers_left");
    cr_expect_float_eq(listed(al, 6), 0.52822, 1e-14);
    cr_expect_float_eq(listed(al, 7), 0.47178, 1e-14);
    cr_expect_float_eq(num(j, "attackers_left.mean"), 6.47178, 1e-14);
    cr_expect_eq(num(j, "attackers_left.percentiles.p50"), 6);
    cr_expect_eq(num(j, "attackers_left.percentiles.p75"), 7);
    cr_expect_eq(num(j, "settings.luck_modifier"), 0.16);
    const json_t *g = json_object_get(j, "graph");
    cr_assert_eq(json_array_size(g), 40);
    const json_t *p4 = json_array_get(g, 3);
    cr_expect_eq(num(p4, "attackers"), 4);
    cr_expect_eq(num(p4, "capture_probability"), 0.0);
    cr_expect_float_eq(num(p4, "expected_attackers_lost"), 3.52822, 1e-13);
    cr_expect_float_eq(num(p4, "expected_defenders_lost"), 2.1296, 1e-13);
    cr_expect_float_eq(num(json_array_get(g, 7), "capture_probability"), 0.95019264, 1e-14);
    const json_t *need = json_object_get(j, "armies_needed");
    cr_assert_eq(json_array_size(need), 3);
    cr_expect_eq(num(json_array_get(need, 0), "attackers"), 8);
    cr_expect_eq(num(json_array_get(need, 1), "attackers"), 8);
    cr_expect_eq(num(json_array_get(need, 2), "attackers"), 9);
    cr_expect_eq(num(json_array_get(need, 2), "probability"), 0.99);
    test_response_free(&r);
}

/* docs/rules.md: 100 % luck, 1 vs 1 captures with 0.6 · 0.3 = 0.18. */
Test(analyze, full_luck_one_on_one) {
    test_response r;
    json_t *j =
        post_ok("{\"attackers\": 1, \"defenders\": 1, \"settings\": {\"luck_modifier\": 1}}", &r);
    cr_expect_float_eq(num(j, "capture_probability"), 0.18, 1e-15);
    test_response_free(&r);
}

/* W7: source_armies alone attacks with all but one; stand guard off lets all go. W8. */
Test(analyze, stand_guard_and_transfer) {
    test_response r;
    json_t *j = post_ok("{\"source_armies\": 11, \"defenders\": 5}", &r);
    cr_expect_eq(num(j, "attackers"), 10);
    test_response_free(&r);
    j = post_ok("{\"source_armies\": 10, \"attackers\": 10, \"defenders\": 5,"
                " \"settings\": {\"one_army_must_stand_guard\": false}}",
                &r);
    cr_expect_eq(num(j, "attackers"), 10);
    test_response_free(&r);
    j = post_ok("{\"source_armies\": 8, \"transfer\": true}", &r);
    cr_expect(json_is_true(json_object_get(j, "transfer")));
    cr_expect_eq(num(j, "outcome.armies_arriving"), 7);
    cr_expect_null(json_object_get(j, "capture_probability"));
    test_response_free(&r);
}

/* Huge armies over HTTP: distributions sum to 1 and the point cap holds. */
Test(analyze, big_battle_distribution_sums_and_cap) {
    test_response r;
    json_t *j = post_ok("{\"attackers\": 1000000, \"defenders\": 1000000, \"settings\":"
                        " {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"}}",
                        &r);
    const json_t *al = json_object_get(j, "attackers_left");
    cr_expect_float_eq(listed_sum(al) + num(j, "attackers_left.omitted_probability"), 1.0, 1e-12);
    cr_expect_float_eq(listed_sum(json_object_get(j, "defenders_left")), 1.0, 1e-12);
    /* Unbiased weighted rounding: mean kills are n·p exactly (see the unit tests). */
    cr_expect_float_eq(num(j, "attackers_left.mean"), 300000.0, 1e-6);
    test_response_free(&r);
    j = post_ok("{\"attackers\": 1000000, \"defenders\": 1000000, \"max_distribution_points\": 10,"
                " \"settings\": {\"luck_modifier\": 1}}",
                &r);
    al = json_object_get(j, "attackers_left");
    cr_expect_eq(json_array_size(json_object_get(al, "distribution")), 10);
    cr_expect_float_eq(listed_sum(al) + num(j, "attackers_left.omitted_probability"), 1.0, 1e-12);
    cr_expect(num(j, "attackers_left.omitted_probability") > 0.5);
    test_response_free(&r);
}

/* Inline strings: Criterion runs each parameter in a fresh process, where pointers into this
 * one's data would not be valid. */
typedef struct {
    char body[200];
    char pointer[40];
} bad_case;

static bad_case bad_cases[] = {
    {"{\"attackers\": -3, \"defenders\": 1}", "/attackers"},
    {"{\"attackers\": 2.5, \"defenders\": 1}", "/attackers"},
    {"{\"attackers\": 0, \"defenders\": 1}", "/attackers"},
    {"{\"attackers\": 1000000001, \"defenders\": 1}", "/attackers"},
    {"{\"attackers\": 3, \"defenders\": -1}", "/defenders"},
    {"{\"attackers\": 3}", "/defenders"},
    {"{\"defenders\": 3}", "/attackers"},
    {"{\"attackers\": 3, \"defenders\": 1, \"settings\": {\"offense_kill_rate\": 1.2}}",
     "/settings/offense_kill_rate"},
    {"{\"attackers\": 3, \"defenders\": 1, \"settings\": {\"defense_kill_rate\": 0.1234567}}",
     "/settings/defense_kill_rate"},
    {"{\"attackers\": 3, \"defenders\": 1, \"settings\": {\"luck_modifier\": -0.1}}",
     "/settings/luck_modifier"},
    {"{\"attackers\": 3, \"defenders\": 1, \"settings\": {\"rounding_mode\": \"round_up\"}}",
     "/settings/rounding_mode"},
    {"{\"attackers\": 11, \"source_armies\": 11, \"defenders\": 1}", "/attackers"},
    {"{\"source_armies\": 1, \"defenders\": 1}", "/source_armies"},
    {"{\"attackers\": 3, \"defenders\": 1, \"graph\": {\"from\": 9, \"to\": 8}}", "/graph/from"},
    {"{\"attackers\": 3, \"defenders\": 1, \"graph\": {\"from\": 1, \"to\": 10001}}", "/graph"},
    /* 10,000 points near 10^9 at 100 % luck: 10^4 × (20·sqrt(10^9·0.24) + 2) ≈ 3.1·10^9
     * binomial terms, far over the 2·10^7 budget (seconds of CPU). */
    {"{\"attackers\": 3, \"defenders\": 1, \"settings\": {\"luck_modifier\": 1},"
     " \"graph\": {\"from\": 999990001, \"to\": 1000000000}}",
     "/graph"},
    {"{\"attackers\": 3, \"defenders\": 1, \"targets\": [0.5, 0]}", "/targets/1"},
    {"{\"attackers\": 3, \"defenders\": 1, \"targets\": [1.01]}", "/targets/0"},
    {"{\"attackers\": 3, \"defenders\": 1, \"extra\": 1}", "/extra"},
};

ParameterizedTestParameters(analyze, bad_input_is_422_naming_the_field) {
    return cr_make_param_array(bad_case, bad_cases, sizeof bad_cases / sizeof bad_cases[0]);
}

ParameterizedTest(const bad_case *c, analyze, bad_input_is_422_naming_the_field) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-attack", c->body, &r), 0);
    cr_expect_eq(r.status, 422, "%s -> %ld %s", c->body, r.status, r.body);
    const json_t *errors = json_object_get(r.json, "errors");
    bool found = false;
    size_t i;
    const json_t *e;
    json_array_foreach(errors, i, e) {
        found = found || strcmp(json_string_value(json_object_get(e, "pointer")), c->pointer) == 0;
    }
    cr_expect(found, "%s: no error at %s in %s", c->body, c->pointer, r.body);
    test_response_free(&r);
}

Test(analyze, a_large_graph_without_luck_is_within_budget) {
    /* With 0 % luck the roll does not matter: 10,000 points near 10^9 cost 2 terms each. At
     * 10^9 attackers against 600,000,000 defenders, 0.6·10^9 kills capture exactly at
     * 10^9 attackers; one fewer kills 599,999,999.4 -> 599,999,999 and fails. */
    test_response r;
    json_t *doc = post_ok("{\"attackers\": 3, \"defenders\": 600000000,"
                          " \"graph\": {\"from\": 999990001, \"to\": 1000000000}}",
                          &r);
    json_t *graph = json_object_get(doc, "graph");
    cr_assert_eq(json_array_size(graph), 10000);
    json_t *last = json_array_get(graph, 9999);
    json_t *before = json_array_get(graph, 9998);
    cr_expect_eq(json_integer_value(json_object_get(last, "attackers")), 1000000000);
    cr_expect_eq(json_real_value(json_object_get(last, "capture_probability")), 1.0);
    cr_expect_eq(json_number_value(json_object_get(before, "capture_probability")), 0.0);
    test_response_free(&r);
}
