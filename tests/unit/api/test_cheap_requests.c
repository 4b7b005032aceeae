/*
 * Cheap legal requests: each is answered 200 within 50 ms of work (5·10^7 units, budget.h) and
 * is checked against a brute force written here (tests/support/warapp_brute.h's battles) or a
 * value worked by hand. The budget is the proof of cheapness: a request whose work grew with a
 * span it does not use (a fog's largest count, W23) spends far more than 50 ms of units.
 *
 * The fog far apart: 10 attackers against 5 or 10^9 defenders at 50/50. Against 10^9 the
 * attack always fails (10 damage at most; 7·10^8 or so back kills all 10): no capture, no
 * attacker left, 10^9 − Ka defenders left. Against 5 the defenders deal Kd5 <= 5 < 10, so the
 * attack captures iff Ka >= 5, with 10 − Kd5 attackers left either way. Every answer is then
 * half the battle against 5 plus half a certain failure.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "budget_test.h"
#include "costly_text.h"
#include "warapp_brute.h"

#define CHEAP_UNITS (50u * CBD_WORK_UNITS_PER_MS)
#define FAR         UINT64_C(1000000000)
#define FAR_TURN    UINT64_C(999999989) /* a board holds 10^9 armies at most (W10): 11 on A */

static const cbd_micro lucks[] = {0, 160000, 1000000};

static cbd_config defaults(void) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return cfg;
}

/* Answered 200 by a worker's budget, within `units` of work; the answer (free it). */
static budget_outcome answered(const char *path, const char *body, uint64_t units) {
    cbd_config cfg = defaults();
    budget_outcome o = budget_answer(&cfg, path, body, false);
    char *text = o.doc ? json_dumps(o.doc, JSON_COMPACT) : NULL;
    cr_assert_eq(o.status, 200, "%s: %.600s", path, text ? text : "");
    free(text);
    cr_expect_leq(o.spent.work_spent, units, "%s spent %" PRIu64 " units: %.200s", path,
                  o.spent.work_spent, body);
    cr_expect_eq(o.spent.mem_held, 0);
    return o;
}

/* ---- the brute force of the fog far apart ---- */

/* P(Ka >= 5) for a attackers, P(Kd5 < a), and the expectations the graph needs. */
typedef struct {
    bf_dist ka, kd5; /* a attackers' damage; the 5 defenders' */
} far_battle;

static far_battle far_at(uint64_t a, cbd_micro luck) {
    far_battle b;
    bf_damage(a, 600000, luck, CBD_ROUND_STRAIGHT, &b.ka);
    bf_damage(5, 700000, luck, CBD_ROUND_STRAIGHT, &b.kd5);
    return b;
}

static long double at_least(const bf_dist *d, uint64_t t) {
    long double s = 0;
    for (uint64_t k = t; k <= BF_MAX_DAMAGE; k++) {
        s += d->p[k];
    }
    return s;
}

/* E[min(K, cap)] */
static long double mean_capped(const bf_dist *d, uint64_t cap) {
    long double s = 0;
    for (uint64_t k = 0; k <= BF_MAX_DAMAGE; k++) {
        s += d->p[k] * (long double)(k < cap ? k : cap);
    }
    return s;
}

/* The mixture's capture with a attackers: half of P(Ka >= 5)·P(Kd5 < a). */
static long double far_capture(uint64_t a, cbd_micro luck) {
    far_battle b = far_at(a, luck);
    return 0.5L * at_least(&b.ka, 5) * (1.0L - at_least(&b.kd5, a));
}

/* ---- /analyze-attack ---- */

static void expect_listed(const json_t *dist, uint64_t armies, long double want) {
    const json_t *items = json_object_get(dist, "distribution");
    for (size_t i = 0; i < json_array_size(items); i++) {
        const json_t *e = json_array_get(items, i);
        if ((uint64_t)json_integer_value(json_object_get(e, "armies")) == armies) {
            cr_expect_float_eq(json_number_value(json_object_get(e, "probability")), (double)want,
                               1e-12, "armies %" PRIu64, armies);
            return;
        }
    }
    cr_expect_lt(want, 1e-15L, "armies %" PRIu64 " (probability %Lg) is not listed", armies, want);
}

static void check_far_analysis(const json_t *doc, cbd_micro luck) {
    far_battle b = far_at(10, luck);
    cr_expect_float_eq(json_number_at(doc, "capture_probability"),
                       (double)(0.5L * at_least(&b.ka, 5)), 1e-12);
    cr_expect_eq(json_number_at(doc, "mutual_destruction_probability"), 0.0);
    /* Attackers left: 0 against 10^9; 10 − Kd5 against 5. */
    const json_t *att = json_walk(doc, "attackers_left");
    expect_listed(att, 0, 0.5L);
    for (uint64_t k = 0; k <= 5; k++) {
        expect_listed(att, 10 - k, 0.5L * b.kd5.p[k]);
    }
    cr_expect_float_eq(json_number_at(doc, "attackers_left/mean"),
                       (double)(0.5L * (10 - mean_capped(&b.kd5, 10))), 1e-12);
    /* Defenders left: max(0, 5 − Ka) against 5; 10^9 − Ka against 10^9. */
    const json_t *def = json_walk(doc, "defenders_left");
    long double none = 0.5L * at_least(&b.ka, 5);
    expect_listed(def, 0, none);
    for (uint64_t k = 0; k <= 10; k++) {
        if (k < 5) {
            expect_listed(def, 5 - k, 0.5L * b.ka.p[k]);
        }
        expect_listed(def, FAR - k, 0.5L * b.ka.p[k]);
    }
    long double mean =
        0.5L * (5 - mean_capped(&b.ka, 5)) + 0.5L * ((long double)FAR - mean_capped(&b.ka, 10));
    cr_expect_float_eq(json_number_at(doc, "defenders_left/mean"), (double)mean, 1e-6);
    cr_expect_eq(json_number_at(doc, "defenders_left/omitted_probability"), 0.0);
}

static void check_far_graph(const json_t *doc, cbd_micro luck) {
    for (uint64_t a = 1; a <= 20; a++) {
        far_battle b = far_at(a, luck);
        char path[64];
        snprintf(path, sizeof path, "graph/%" PRIu64 "/capture_probability", a - 1);
        cr_expect_float_eq(json_number_at(doc, path), (double)far_capture(a, luck), 1e-12, "%s",
                           path);
        /* Against 10^9 every attacker dies: a lost; against 5, min(Kd5, a). */
        snprintf(path, sizeof path, "graph/%" PRIu64 "/expected_attackers_lost", a - 1);
        long double lost = 0.5L * mean_capped(&b.kd5, a) + 0.5L * (long double)a;
        cr_expect_float_eq(json_number_at(doc, path), (double)lost, 1e-12, "%s", path);
        /* Against 5, min(Ka, 5) less the resurrected army of a mutual destruction (W5);
         * against 10^9, Ka. */
        snprintf(path, sizeof path, "graph/%" PRIu64 "/expected_defenders_lost", a - 1);
        long double mutual = at_least(&b.ka, 5) * at_least(&b.kd5, a);
        long double dl =
            0.5L * (mean_capped(&b.ka, 5) - mutual) + 0.5L * mean_capped(&b.ka, BF_MAX_DAMAGE);
        cr_expect_float_eq(json_number_at(doc, path), (double)dl, 1e-12, "%s", path);
    }
}

/* The fewest attackers reaching q by the brute force: its capture rises with a up to 1/2. */
static const json_t *needed_at(const json_t *doc, double q) {
    const json_t *list = json_object_get(doc, "armies_needed");
    for (size_t i = 0; i < json_array_size(list); i++) {
        const json_t *e = json_array_get(list, i);
        if (json_number_value(json_object_get(e, "probability")) == q) {
            return json_object_get(e, "attackers");
        }
    }
    cr_assert_fail("no target %g", q);
    return NULL;
}

static void check_far_targets(const json_t *doc, cbd_micro luck) {
    const double qs[] = {0.25, 0.45};
    for (size_t i = 0; i < 2; i++) {
        uint64_t a = 1;
        while (far_capture(a, luck) < qs[i]) {
            a++;
            cr_assert_lt(a, 200, "the brute force finds no count for %g", qs[i]);
        }
        /* Far enough from q on both sides that rounding cannot decide it. */
        cr_assert(far_capture(a, luck) > qs[i] + 1e-9 && far_capture(a - 1, luck) < qs[i] - 1e-9);
        cr_expect_eq(json_integer_value(needed_at(doc, qs[i])), (json_int_t)a, "q %g", qs[i]);
    }
    /* Past 1/2 nothing within the army cap reaches it: 10^9 defenders need 1.67·10^9. */
    cr_expect(json_is_null(needed_at(doc, 0.6)));
}

static void far_body(char *body, size_t size, const char *extra, cbd_micro luck) {
    snprintf(body, size,
             "{\"attackers\": 10, \"defenders\": [{\"armies\": %" PRIu64
             ", \"probability\": 0.5}, {\"armies\": 5, \"probability\": 0.5}], \"settings\": "
             "{\"luck_modifier\": %g}%s}",
             FAR, (double)luck / 1e6, extra);
}

Test(cheap_requests, a_fog_far_apart_is_analysed_in_its_windows) {
    for (size_t l = 0; l < sizeof lucks / sizeof lucks[0]; l++) {
        char body[512];
        far_body(body, sizeof body,
                 ", \"graph\": {\"from\": 1, \"to\": 20}, \"targets\": [0.25, 0.45, 0.6]",
                 lucks[l]);
        budget_outcome o = answered("/analyze-attack", body, CHEAP_UNITS);
        check_far_analysis(o.doc, lucks[l]);
        check_far_graph(o.doc, lucks[l]);
        check_far_targets(o.doc, lucks[l]);
        /* Two windows a side, never 10^9 slots: the memory is the kill windows'. */
        cr_expect_lt(o.spent.mem_peak, 16u << 20, "%zu bytes", o.spent.mem_peak);
        budget_outcome_free(&o);
    }
}

/* ---- /simulate ---- */

/* A count of trials drawn with probability p lies within 6σ of its mean (a test that fails
 * about once in 10^9 runs by chance, each run's seed fixed). */
static void expect_binomial(uint64_t got, uint64_t n, long double p, const char *what) {
    double mean = (double)n * (double)p, sd = sqrt(mean * (1.0 - (double)p));
    cr_expect_leq(fabs((double)got - mean), 6.0 * sd + 1.0,
                  "%s: %" PRIu64 " of %" PRIu64 " against %g", what, got, n, mean);
}

static void check_far_simulation(const json_t *doc, uint64_t trials, cbd_micro luck) {
    far_battle b = far_at(10, luck);
    expect_binomial((uint64_t)json_number_at(doc, "captures"), trials, 0.5L * at_least(&b.ka, 5),
                    "captures");
    expect_binomial((uint64_t)json_number_at(doc, "defenders_drawn/0/count"), trials, 0.5L,
                    "drawn 5");
    cr_expect_eq(json_number_at(doc, "defenders_drawn/0/count") +
                     json_number_at(doc, "defenders_drawn/1/count"),
                 (double)trials);
    /* Every defenders' value is within 10 of a count, and the counts add up to the trials. */
    const json_t *h = json_walk(doc, "defenders_left/histogram");
    uint64_t sum = 0;
    for (size_t i = 0; i < json_array_size(h); i++) {
        uint64_t v = (uint64_t)json_number_at(json_array_get(h, i), "armies");
        cr_expect(v <= 5 || (v >= FAR - 10 && v <= FAR), "%" PRIu64, v);
        sum += (uint64_t)json_number_at(json_array_get(h, i), "count");
    }
    cr_expect_eq(sum, trials);
}

Test(cheap_requests, a_fog_far_apart_is_simulated_with_a_sampler_a_count) {
    for (size_t l = 0; l < sizeof lucks / sizeof lucks[0]; l++) {
        char body[512];
        far_body(body, sizeof body, ", \"trials\": 1000, \"seed\": 7", lucks[l]);
        budget_outcome o = answered("/simulate", body, CHEAP_UNITS);
        check_far_simulation(o.doc, 1000, lucks[l]);
        budget_outcome_free(&o);
        /* 10^6 trials cost their battles (CBD_WORK_BATTLE and two steps of the count's draw
         * each), the histograms a few windows more. */
        far_body(body, sizeof body, ", \"trials\": 1000000, \"seed\": 7", lucks[l]);
        o = answered("/simulate", body,
                     1000000u * (CBD_WORK_BATTLE + 2 * CBD_WORK_FOG_STEP) + CBD_WORK_UNITS_PER_MS);
        check_far_simulation(o.doc, 1000000, lucks[l]);
        budget_outcome_free(&o);
    }
}

/* ---- /analyze-turn and /simulate-turn ---- */

static void turn_body(char *body, size_t size, const char *extra, cbd_micro luck) {
    snprintf(body, size,
             "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 11}, \"B\": {\"owner\": "
             "\"bob\", \"armies\": [{\"armies\": %" PRIu64
             ", \"probability\": 0.5}, {\"armies\": 5, \"probability\": 0.5}]}}, \"orders\": "
             "[{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 10}], "
             "\"goals\": [{\"territory\": \"B\", \"owner\": \"alice\"}], \"settings\": "
             "{\"luck_modifier\": %g}%s}",
             FAR_TURN, (double)luck / 1e6, extra);
}

Test(cheap_requests, a_fog_far_apart_in_a_turn) {
    for (size_t l = 0; l < sizeof lucks / sizeof lucks[0]; l++) {
        far_battle b = far_at(10, lucks[l]);
        long double capture = 0.5L * at_least(&b.ka, 5);
        char body[768];
        turn_body(body, sizeof body, "", lucks[l]);
        budget_outcome o = answered("/analyze-turn", body, CHEAP_UNITS);
        cr_expect_float_eq(json_number_at(o.doc, "orders/0/capture_probability"), (double)capture,
                           1e-12);
        cr_expect_float_eq(json_number_at(o.doc, "goals_probability"), (double)capture, 1e-12);
        budget_outcome_free(&o);
        const char *trials[] = {", \"trials\": 1000, \"seed\": 3",
                                ", \"trials\": 1000000, \"seed\": 3"};
        const uint64_t n[] = {1000, 1000000};
        for (int t = 0; t < 2; t++) {
            turn_body(body, sizeof body, trials[t], lucks[l]);
            o = answered("/simulate-turn", body, t == 0 ? CHEAP_UNITS : 400u * n[t]);
            expect_binomial((uint64_t)json_number_at(o.doc, "goals_met"), n[t], capture,
                            "goals met");
            budget_outcome_free(&o);
        }
    }
}

/* ---- the rest of the table ---- */

/*
 * A fog of 1,000 counts spread over 0..10^9 (k·1001001 for k = 0..999) at the defaults (0 %
 * luck): 10 attackers deal 6 (W1), so they capture only the empty count 0 (W5), keeping all
 * 10; against every other count (at least 1001001, dealing 700701 or more) they all die and
 * the defenders lose 6. So capture is 1/1000, attackers left {0: 0.999, 10: 0.001}, and the
 * defenders' mean is Σ (c − 6) / 1000 over the other counts.
 */
Test(cheap_requests, a_fog_of_1000_counts_over_a_billion) {
    costly_buf b = {0};
    costly_add(&b, "{\"attackers\": 10, \"defenders\": [");
    long double mean = 0;
    for (int k = 0; k < 1000; k++) {
        costly_add(&b, "%s{\"armies\": %d, \"probability\": 0.001}", k ? ", " : "", 1001001 * k);
        mean += k ? (long double)(1001001 * k - 6) / 1000.0L : 0.0L;
    }
    costly_add(&b, "]}");
    budget_outcome o = answered("/analyze-attack", b.p, CHEAP_UNITS);
    cr_expect_float_eq(json_number_at(o.doc, "capture_probability"), 0.001, 1e-15);
    const json_t *att = json_walk(o.doc, "attackers_left");
    expect_listed(att, 10, 0.001L);
    expect_listed(att, 0, 0.999L);
    cr_expect_float_eq(json_number_at(o.doc, "defenders_left/mean"), (double)mean, 1e-3);
    expect_listed(json_walk(o.doc, "defenders_left"), 1001001u * 999u - 6u, 0.001L);
    budget_outcome_free(&o);
    free(b.p);
}

/*
 * Units of health 10^9 (W17, W19), at 0 % luck. 5 armies and a unit of health 10^9 (combat
 * order 1: after the armies) attack 10: the 7 damage back kill the 5 armies and take 2 of the
 * unit's health; the 3 damage dealt leave 7 defenders. 10^9 armies attack 5 beside a unit of
 * health 10^9: 6·10^8 damage kill the 5 and leave the unit 10^9 − (6·10^8 − 5) = 400000005;
 * the 4 damage back (3.5 rounded, W2) leave 10^9 − 4 attackers; not captured (the unit lives).
 */
Test(cheap_requests, units_of_health_a_billion) {
    const char *unit = "{\"type\": \"custom\", \"name\": \"Wall\", \"attack_power\": 0, "
                       "\"defense_power\": 0, \"combat_order\": 1, \"health\": 1000000000}";
    char body[512];
    snprintf(body, sizeof body, "{\"attackers\": 5, \"defenders\": 10, \"attacking_units\": [%s]}",
             unit);
    budget_outcome o = answered("/analyze-attack", body, CHEAP_UNITS);
    cr_expect_eq(json_number_at(o.doc, "capture_probability"), 0.0);
    cr_expect_eq(json_number_at(o.doc, "attacking_units/0/survival_probability"), 1.0);
    cr_expect_eq(json_number_at(o.doc, "attacking_units/0/health_left/mean"), 999999998.0);
    cr_expect_eq(json_number_at(o.doc, "defenders_left/mean"), 7.0);
    budget_outcome_free(&o);
    snprintf(body, sizeof body,
             "{\"attackers\": 1000000000, \"defenders\": 5, \"defending_units\": [%s]}", unit);
    o = answered("/analyze-attack", body, CHEAP_UNITS);
    cr_expect_eq(json_number_at(o.doc, "capture_probability"), 0.0);
    cr_expect_eq(json_number_at(o.doc, "defending_units/0/health_left/mean"), 400000005.0);
    cr_expect_eq(json_number_at(o.doc, "attackers_left/mean"), 999999996.0);
    cr_expect_eq(json_number_at(o.doc, "defenders_left/mean"), 0.0);
    budget_outcome_free(&o);
}

/*
 * Fog on every territory at small counts (W23): A (alice) 5 or 6, B and C (bob) 1 or 2, D
 * (neutral) 0 or 1, all 50/50, 16 start states. 4 of A's armies attack B at 0 % luck: they
 * deal 2 (2.4 rounded), enough against 1 or 2, and take 1 back (0.7 or 1.4 rounded): B is
 * alice's with 3 armies whatever the counts; A keeps 1 or 2, C and D keep theirs.
 */
Test(cheap_requests, a_turn_with_fog_on_every_territory) {
    const char *body =
        "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": [{\"armies\": 5, "
        "\"probability\": 0.5}, {\"armies\": 6, \"probability\": 0.5}]}, \"B\": {\"owner\": "
        "\"bob\", \"armies\": [{\"armies\": 1, \"probability\": 0.5}, {\"armies\": 2, "
        "\"probability\": 0.5}]}, \"C\": {\"owner\": \"bob\", \"armies\": [{\"armies\": 1, "
        "\"probability\": 0.5}, {\"armies\": 2, \"probability\": 0.5}]}, \"D\": {\"owner\": "
        "\"neutral\", \"armies\": [{\"armies\": 0, \"probability\": 0.5}, {\"armies\": 1, "
        "\"probability\": 0.5}]}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": "
        "\"B\", \"armies\": 4}], \"goals\": [{\"territory\": \"B\", \"owner\": \"alice\"}]}";
    budget_outcome o = answered("/analyze-turn", body, CHEAP_UNITS);
    cr_expect_eq(json_number_at(o.doc, "orders/0/capture_probability"), 1.0);
    cr_expect_eq(json_number_at(o.doc, "goals_probability"), 1.0);
    cr_expect_eq(json_number_at(o.doc, "territories/B/armies/mean"), 3.0);
    cr_expect_eq(json_number_at(o.doc, "territories/A/armies/mean"), 1.5);
    cr_expect_eq(json_number_at(o.doc, "territories/C/armies/mean"), 1.5);
    cr_expect_eq(json_number_at(o.doc, "territories/D/armies/mean"), 0.5);
    budget_outcome_free(&o);
}
