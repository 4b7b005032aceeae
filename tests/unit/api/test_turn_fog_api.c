/*
 * Fog in turn requests (W23) at the JSON layer: a territory's armies as a distribution in
 * /analyze-turn and /simulate-turn, its echo, its 422s by pointer, and the product refused
 * past warapp.max_turn_states naming /territories.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "chi_square.h"

static char *last_body;

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

static double num(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert(json_is_number(v), "%s is not a number in %s", path, last_body);
    return json_number_value(v);
}

/* 11 armies on A send 10 against B, 5 or 10 at 50/50 (0 % luck): captured against 5 only
 * (worked in test_warapp_turn_fog.c), so exactly 1/2. */
#define HALF_BOARD(armies)                                                                         \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 11},"                            \
    " \"B\": {\"owner\": \"bob\", \"armies\": " armies "}},"                                       \
    " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 10}],"      \
    " \"goals\": [{\"territory\": \"B\", \"owner\": \"alice\"}]"

#define HALF_FOG "[{\"armies\": 10, \"probability\": 0.5}, {\"armies\": 5, \"probability\": 0.5}]"

Test(turn_fog_api, analysis_is_the_mixture_and_echoes_the_distribution) {
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", HALF_BOARD(HALF_FOG) "}", &doc), 200, "%s", last_body);
    cr_expect_eq(num(doc, "orders/0/capture_probability"), 0.5);
    cr_expect_eq(num(doc, "goals_probability"), 0.5);
    cr_expect_eq(num(doc, "territories/B/owner/alice"), 0.5);
    cr_expect_eq(num(doc, "territories/B/owner/bob"), 0.5);
    cr_expect_eq(num(doc, "territories/B/armies/mean"), 5.0); /* (6 + 4) / 2 */
    cr_expect(json_is_false(json_walk(doc, "deterministic")));
    /* The echo: normalised, ascending, in the request's list form; only fog territories. */
    const json_t *fog = json_walk(doc, "fog");
    cr_assert(json_is_object(fog), "%s", last_body);
    cr_expect_eq(json_object_size(fog), 1);
    cr_expect_eq(num(doc, "fog/B/0/armies"), 5);
    cr_expect_eq(num(doc, "fog/B/0/probability"), 0.5);
    cr_expect_eq(num(doc, "fog/B/1/armies"), 10);
    json_decref(doc);
    /* An integer board has no fog member at all. */
    cr_assert_eq(run("/analyze-turn", HALF_BOARD("5") "}", &doc), 200);
    cr_expect_null(json_walk(doc, "fog"));
    cr_expect_eq(num(doc, "orders/0/capture_probability"), 1.0);
    json_decref(doc);
}

Test(turn_fog_api, normalised_within_the_slack) {
    json_t *doc;
    cr_assert_eq(run("/analyze-turn",
                     HALF_BOARD("[{\"armies\": 5, \"probability\": 0.2500000001},"
                                " {\"armies\": 10, \"probability\": 0.75}]") "}",
                     &doc),
                 200, "%s", last_body);
    double p5 = num(doc, "fog/B/0/probability"), p10 = num(doc, "fog/B/1/probability");
    cr_expect_lt(fabs(p5 + p10 - 1.0), 1e-15);
    cr_expect_lt(fabs(num(doc, "orders/0/capture_probability") - p5), 1e-15);
    json_decref(doc);
}

Test(turn_fog_api, simulation_draws_and_lists_what_it_drew) {
    json_t *doc;
    cr_assert_eq(
        run("/simulate-turn", HALF_BOARD(HALF_FOG) ", \"trials\": 100, \"seed\": 5}", &doc), 200,
        "%s", last_body);
    cr_expect_eq(num(doc, "fog/B/1/armies"), 10);
    const json_t *turns = json_walk(doc, "turns");
    cr_assert_eq(json_array_size(turns), 100);
    uint64_t fives = 0;
    for (size_t t = 0; t < 100; t++) {
        const json_t *turn = json_array_get(turns, t);
        const json_t *drawn = json_walk(turn, "drawn/B");
        cr_assert(json_is_integer(drawn), "%s", last_body);
        cr_expect_null(json_walk(turn, "drawn/A"));
        bool five = json_integer_value(drawn) == 5;
        fives += five;
        /* Against 5 captured with 6 left, against 10 held with 4 (by hand, above). */
        cr_expect(
            json_equal(json_walk(turn, "orders/0/captured"), five ? json_true() : json_false()));
        cr_expect_eq(json_integer_value(json_walk(turn, "orders/0/defenders")),
                     json_integer_value(drawn));
        cr_expect_eq(json_integer_value(json_walk(turn, "territories/B/armies")), five ? 6 : 4);
    }
    cr_expect_eq(num(doc, "goals_met"), (double)fives);
    cr_expect(fives > 25 && fives < 75, "%llu of 100", (unsigned long long)fives);
    json_decref(doc);
}

/* One bad territory body and the pointer and words its 422 must carry. */
static void expect_422(const char *armies, const char *pointer, const char *needle) {
    char body[1024];
    snprintf(body, sizeof body, HALF_BOARD("%s") "}", armies);
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 422, "%s: %s", armies, last_body);
    cr_expect(has_error(doc, pointer, needle), "%s: want %s (%s) in %s", armies, pointer,
              needle ? needle : "", last_body);
    json_decref(doc);
    cr_assert_eq(run("/simulate-turn", body, &doc), 422, "%s: %s", armies, last_body);
    cr_expect(has_error(doc, pointer, needle), "simulate %s: %s", armies, last_body);
    json_decref(doc);
}

Test(turn_fog_api, bad_distributions_are_named_by_pointer) {
    expect_422("[]", "/territories/B/armies", "at least one");
    expect_422("[{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 5, \"probability\": 0.5}]",
               "/territories/B/armies/1", "twice (item 0 has them)");
    expect_422("[{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 6, \"probability\": 0}]",
               "/territories/B/armies/1/probability", NULL);
    expect_422("[{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 6, \"probability\": 1.5}]",
               "/territories/B/armies/1/probability", NULL);
    expect_422("[{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 6, \"probability\": 0.4}]",
               "/territories/B/armies", "sum");
    expect_422("[{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 2000000000, \"probability\": "
               "0.5}]",
               "/territories/B/armies/1/armies", NULL);
    expect_422("[{\"armies\": 5, \"probability\": 1, \"colour\": 1}]",
               "/territories/B/armies/0/colour", NULL);
    expect_422("[{\"probability\": 1}]", "/territories/B/armies/0/armies", "required");
    expect_422("[5]", "/territories/B/armies/0", NULL);
}

Test(turn_fog_api, more_points_than_the_limit_are_refused) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    size_t n = cfg.warapp.max_fog_points + 1, cap = 80 * n + 512;
    char *body = malloc(cap), *at = body;
    at += sprintf(at, "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 11},"
                      " \"B\": {\"owner\": \"bob\", \"armies\": [");
    for (size_t k = 0; k < n; k++) {
        at += sprintf(at, "%s{\"armies\": %zu, \"probability\": %.17g}", k ? "," : "", k,
                      1.0 / (double)n);
    }
    sprintf(at, "]}}, \"orders\": []}");
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories/B/armies", NULL), "%s", last_body);
    json_decref(doc);
    free(body);
}

/* Three linked territories of 101 counts each start from 1,030,301 states: past
 * warapp.max_turn_states (10^6), a 422 naming /territories with the count. */
Test(turn_fog_api, a_product_past_the_state_limit_names_the_territories) {
    size_t cap = 3 * 101 * 80 + 1024;
    char *body = malloc(cap), *at = body;
    at += sprintf(at, "{\"territories\": {");
    const char *ids[] = {"A", "B", "C"}, *owners[] = {"alice", "bob", "bob"};
    for (int t = 0; t < 3; t++) {
        at += sprintf(at, "%s\"%s\": {\"owner\": \"%s\", \"armies\": [", t ? "," : "", ids[t],
                      owners[t]);
        for (int k = 0; k < 101; k++) {
            at += sprintf(at, "%s{\"armies\": %d, \"probability\": %.17g}", k ? "," : "", k + 1,
                          1.0 / 101);
        }
        at += sprintf(at, "]}");
    }
    sprintf(at, "}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", "
                "\"armies\": 5}, {\"player\": \"bob\", \"from\": \"C\", \"to\": \"A\", "
                "\"armies\": 5}]}");
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories", "1030301"), "%s", last_body);
    json_decref(doc);
    free(body);
}

/* /simulate-turn against /analyze-turn on one fog body at a fixed seed: B's owner and armies
 * by chi-square (alpha 0.001), and the goal's count by a z-test. */
#define FOG_LUCK_BODY                                                                              \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 12},"                            \
    " \"B\": {\"owner\": \"bob\", \"armies\": [{\"armies\": 4, \"probability\": 0.2},"             \
    " {\"armies\": 6, \"probability\": 0.3}, {\"armies\": 9, \"probability\": 0.5}]},"             \
    " \"C\": {\"owner\": \"bob\", \"armies\": [{\"armies\": 1, \"probability\": 0.5},"             \
    " {\"armies\": 5, \"probability\": 0.5}]}},"                                                   \
    " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 9},"        \
    " {\"player\": \"bob\", \"from\": \"C\", \"to\": \"B\", \"percent\": 1},"                      \
    " {\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\", \"armies\": 3}],"                      \
    " \"settings\": {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"},"            \
    " \"move_order\": \"random\", \"goals\": [{\"territory\": \"B\", \"owner\": \"alice\"}]"

#define FOG_TRIALS 200000

Test(turn_fog_api, simulate_turn_agrees_with_analyze_turn) {
    json_t *exact, *sim;
    cr_assert_eq(run("/analyze-turn", FOG_LUCK_BODY "}", &exact), 200, "%s", last_body);
    cr_assert_eq(run("/simulate-turn",
                     FOG_LUCK_BODY ", \"trials\": 200000, \"seed\": 99, \"include_turns\": false}",
                     &sim),
                 200, "%s", last_body);
    const char *terr[] = {"A", "B", "C"};
    for (int t = 0; t < 3; t++) {
        char p[64];
        static uint64_t obs[64];
        long double prob[64];
        memset(obs, 0, sizeof obs);
        for (int v = 0; v < 64; v++) {
            prob[v] = 0;
        }
        snprintf(p, sizeof p, "territories/%s/armies/distribution", terr[t]);
        const json_t *dist = json_walk(exact, p);
        for (size_t k = 0; k < json_array_size(dist); k++) {
            const json_t *pt = json_array_get(dist, k);
            json_int_t a = json_integer_value(json_object_get(pt, "armies"));
            cr_assert_lt(a, 64);
            prob[a] = json_number_value(json_object_get(pt, "probability"));
        }
        snprintf(p, sizeof p, "territories/%s/armies/histogram", terr[t]);
        const json_t *hist = json_walk(sim, p);
        for (size_t k = 0; k < json_array_size(hist); k++) {
            const json_t *pt = json_array_get(hist, k);
            json_int_t a = json_integer_value(json_object_get(pt, "armies"));
            cr_assert_lt(a, 64);
            obs[a] = (uint64_t)json_integer_value(json_object_get(pt, "count"));
        }
        chi_square_result r = chi_square_test(obs, prob, 64, FOG_TRIALS);
        cr_expect_lt(r.statistic, r.critical, "%s armies: chi2 %g df %d", terr[t], r.statistic,
                     r.df);
        cr_log_info("/simulate-turn vs /analyze-turn, %s armies: chi2 %.3f df %d (critical %.3f)",
                    terr[t], r.statistic, r.df, r.critical);
    }
    double want = num(exact, "goals_probability"), got = num(sim, "goals_met") / FOG_TRIALS;
    double sd = sqrt(want * (1 - want) / FOG_TRIALS);
    cr_expect_lt(fabs(got - want), 4.5 * sd + 1e-12, "goals %g vs %g", got, want);
    cr_log_info("goals: simulated %.5f, exact %.5f (z %.2f)", got, want, (got - want) / sd);
    json_decref(exact);
    json_decref(sim);
}

/* Two linked territories of 1,000 counts each start from 10^6 states: within
 * warapp.max_turn_states, but charged as 10^6 states stored, which a 10 ms budget does not
 * pay: a 422 naming /territories, the member to reduce. */
Test(turn_fog_api, a_product_past_the_budget_names_the_territories) {
    size_t cap = 2 * 1000 * 80 + 1024;
    char *body = malloc(cap), *at = body;
    at += sprintf(at, "{\"territories\": {");
    const char *ids[] = {"A", "B"}, *owners[] = {"alice", "bob"};
    for (int t = 0; t < 2; t++) {
        at += sprintf(at, "%s\"%s\": {\"owner\": \"%s\", \"armies\": [", t ? "," : "", ids[t],
                      owners[t]);
        for (int k = 0; k < 1000; k++) {
            at += sprintf(at, "%s{\"armies\": %d, \"probability\": 0.001}", k ? "," : "", k + 1);
        }
        at += sprintf(at, "]}");
    }
    sprintf(at, "}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", "
                "\"armies\": 5}]}");
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.work_budget_ms = 10;
    json_t *doc;
    free(last_body);
    cr_assert_eq(api_test_run(&cfg, "/analyze-turn", body, &doc, &last_body), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories", NULL), "%s", last_body);
    json_decref(doc);
    free(body);
}
