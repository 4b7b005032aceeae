/*
 * The odds core on the worked examples of the War.app rule files, the reference values
 * of docs/rules.md, hand-checked values and properties (sums, means, monotony) up to 10^9 armies.
 */
#include <math.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "combatd/binomial.h"
#include "combatd/warapp_odds.h"

static cbd_warapp_settings settings(cbd_micro luck, cbd_rounding r) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = luck;
    s.rounding = r;
    return s;
}

/* The only kill value of n armies at rate p with 0 % luck (straight round). */
static uint64_t fixed_kills(uint64_t n, cbd_micro p) {
    cbd_kills k;
    cr_assert_eq(cbd_warapp_kills(n, p, 0, CBD_ROUND_STRAIGHT, NULL, &k), CBD_OK);
    cr_assert_eq(k.min, k.max);
    cr_assert_eq(k.dist.len, 1);
    cr_assert_eq(k.dist.lo, k.min);
    uint64_t v = k.min;
    cbd_kills_free(&k);
    return v;
}

static double dist_p(const cbd_dist *d, uint64_t v) {
    return v >= d->lo && v < d->lo + d->len ? d->p[v - d->lo] : 0.0;
}

static double dist_sum(const cbd_windows *d) {
    double s = 0;
    for (size_t k = 0; k < d->n; k++) {
        for (size_t i = 0; i < d->w[k].len; i++) {
            s += d->w[k].s[i].p;
        }
    }
    return s;
}

/* Combat basics: "10 attacking armies kill 6 ... 20 kill 12 ... 50 kill 30", "7 attacking
 * armies deal 4.2 kills, 3 defending armies 2.1": 4.2 -> 4, 2.1 -> 2, 4.7 -> 5 (47 · 0.1). */
Test(examples, basic_kills) {
    cr_expect_eq(fixed_kills(10, 600000), 6);
    cr_expect_eq(fixed_kills(20, 600000), 12);
    cr_expect_eq(fixed_kills(50, 600000), 30);
    cr_expect_eq(fixed_kills(7, 600000), 4);
    cr_expect_eq(fixed_kills(3, 700000), 2);
    cr_expect_eq(fixed_kills(47, 100000), 5);
}

/* W3: 45 · 0.7 = 31.5 exactly, and an exact .5 rounds up (W2): 32, not 31. */
Test(examples, w3_exact_half_rounds_up) {
    cr_expect_eq(fixed_kills(45, 700000), 32);
    /* 32 attackers against 45 defenders all die: 32 kills >= 32. */
    cbd_warapp_settings s = settings(0, CBD_ROUND_STRAIGHT);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze(32, 45, &s, NULL, &a), CBD_OK);
    cr_expect(a.deterministic);
    cr_expect_eq(a.outcome.attackers_lost, 32);
    cr_expect_eq(a.outcome.attackers_left, 0);
    /* 0.6 · 32 = 19.2 -> 19 defenders die, 26 are left. */
    cr_expect_eq(a.outcome.defenders_left, 26);
    cbd_warapp_analysis_free(&a);
}

static cbd_warapp_outcome fixed_battle(uint64_t att, uint64_t def) {
    cbd_warapp_settings s = settings(0, CBD_ROUND_STRAIGHT);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze(att, def, &s, NULL, &a), CBD_OK);
    cr_assert(a.deterministic);
    cr_assert_eq(a.capture_probability, a.outcome.captured ? 1.0 : 0.0);
    cr_assert_eq(cbd_windows_slots(&a.attackers_left), 1);
    cr_assert_eq(cbd_windows_slots(&a.defenders_left), 1);
    cr_assert_eq(cbd_windows_lo(&a.attackers_left), a.outcome.attackers_left);
    cr_assert_eq(cbd_windows_lo(&a.defenders_left), a.outcome.defenders_left);
    cbd_warapp_outcome o = a.outcome;
    cbd_warapp_analysis_free(&a);
    return o;
}

/* "10 armies attack 5: the attackers kill 6, the defenders kill 4 (3.5 rounds up), captured,
 * the 6 surviving attackers move in." */
Test(examples, capturing_a_territory) {
    cbd_warapp_outcome o = fixed_battle(10, 5);
    cr_expect(o.captured);
    cr_expect_eq(o.attackers_lost, 4);
    cr_expect_eq(o.attackers_left, 6);
    cr_expect_eq(o.defenders_lost, 5);
    cr_expect_eq(o.defenders_left, 0);
}

/* "10 attack 10: attackers kill 6, defenders kill 7; 4 defenders survive; 3 attackers remain." */
Test(examples, failed_attack) {
    cbd_warapp_outcome o = fixed_battle(10, 10);
    cr_expect(!o.captured);
    cr_expect_eq(o.attackers_lost, 7);
    cr_expect_eq(o.attackers_left, 3);
    cr_expect_eq(o.defenders_lost, 6);
    cr_expect_eq(o.defenders_left, 4);
}

/* Random combat's failed example at 0 % luck: 25 kill 15, 20 kill 14: 5 defenders, 11
 * attackers left. Mutual destruction: 1 vs 1 kill each other (0.6 -> 1, 0.7 -> 1) and one
 * defender is resurrected (W5); it counts as not lost. */
Test(examples, expected_results_and_mutual_destruction) {
    cbd_warapp_outcome o = fixed_battle(25, 20);
    cr_expect(!o.captured);
    cr_expect_eq(o.defenders_left, 5);
    cr_expect_eq(o.attackers_left, 11);
    o = fixed_battle(1, 1);
    cr_expect(!o.captured);
    cr_expect_eq(o.attackers_left, 0);
    cr_expect_eq(o.defenders_left, 1);
    cr_expect_eq(o.defenders_lost, 0);
    /* W5: 0 defenders are captured by any attack. */
    o = fixed_battle(5, 0);
    cr_expect(o.captured);
    cr_expect_eq(o.attackers_left, 5);
}

/* docs/rules.md, reference values: fewest attackers that capture D = 1..10 at 0 % luck. */
Test(examples, fewest_attackers_at_zero_luck) {
    static const uint64_t expected[10] = {2, 3, 5, 6, 8, 10, 11, 13, 15, 16};
    cbd_warapp_settings s = settings(0, CBD_ROUND_STRAIGHT);
    for (uint64_t d = 1; d <= 10; d++) {
        double q[2] = {1.0, 0.5};
        uint64_t got[2];
        cr_assert_eq(cbd_warapp_armies_needed(d, &s, q, 2, 1000, NULL, got), CBD_OK);
        cr_expect_eq(got[0], expected[d - 1], "D=%lu", (unsigned long)d);
        cr_expect_eq(got[1], expected[d - 1], "D=%lu", (unsigned long)d);
        /* And directly: one fewer fails, that many captures. */
        cr_expect(fixed_battle(expected[d - 1], d).captured);
        cr_expect(!fixed_battle(expected[d - 1] - 1, d).captured);
    }
}

/* docs/rules.md, reference values at 100 % luck: 1 vs 1 captures with 0.6 · 0.3 = 0.18; 2 vs 2 with
 * P(both attackers hit) · P(not both defenders hit) = 0.36 · (1 − 0.49) = 0.1836. */
Test(examples, full_luck_reference_values) {
    cbd_warapp_settings s = settings(1000000, CBD_ROUND_STRAIGHT);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze(1, 1, &s, NULL, &a), CBD_OK);
    cr_expect_float_eq(a.capture_probability, 0.18, 1e-15);
    /* Mutual destruction: 0.6 · 0.7 = 0.42. */
    cr_expect_float_eq(a.mutual_destruction_probability, 0.42, 1e-15);
    cr_expect(!a.deterministic);
    cbd_warapp_analysis_free(&a);
    cr_assert_eq(cbd_warapp_analyze(2, 2, &s, NULL, &a), CBD_OK);
    cr_expect_float_eq(a.capture_probability, 0.1836, 1e-15);
    cbd_warapp_analysis_free(&a);
}

/* The animation: 7 attack 4 at 100 % luck. Capture needs >= 4 of 7 hits at 0.6:
 * P(4..7) = 35·.6^4·.4^3 + 21·.6^5·.4^2 + 7·.6^6·.4 + .6^7
 *         = 0.290304 + 0.2612736 + 0.1306368 + 0.0279936 = 0.710208;
 * the 4 defenders can never kill all 7. 4 attackers left (3 lost) has P(3 of 4 hits at 0.7) =
 * 4 · 0.343 · 0.3 = 0.4116. The successful example: 15 vs 6, losing 5 (10 left) has
 * P(5 of 6 at 0.7) = 6 · 0.16807 · 0.3 = 0.302526. */
Test(examples, random_combat_examples) {
    cbd_warapp_settings s = settings(1000000, CBD_ROUND_STRAIGHT);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze(7, 4, &s, NULL, &a), CBD_OK);
    cr_expect_float_eq(a.capture_probability, 0.710208, 1e-14);
    cr_expect_float_eq(cbd_windows_p(&a.attackers_left, 4), 0.4116, 1e-14);
    cbd_warapp_analysis_free(&a);
    cr_assert_eq(cbd_warapp_analyze(15, 6, &s, NULL, &a), CBD_OK);
    cr_expect_float_eq(cbd_windows_p(&a.attackers_left, 10), 0.302526, 1e-14);
    cbd_warapp_analysis_free(&a);
}

/* docs/rules.md, reference values: 100 attackers at 50 % luck rolling 54 kill 0.5·54 + 0.5·60 = 57.
 * With straight rounding 57 also comes from a roll of 53 (56.5 rounds up, W2), so P(kills = 57) =
 * P(X = 53) + P(X = 54), X ~ Binomial(100, 0.6), computed here by lgammal. */
static long double binom_ld(int n, int k, long double p) {
    return expl(lgammal(n + 1) - lgammal(k + 1) - lgammal(n - k + 1) + k * logl(p) +
                (n - k) * logl(1 - p));
}

Test(examples, half_luck_roll_54_gives_57) {
    cbd_kill_value v = cbd_warapp_blend(100, 600000, 500000, 54);
    cr_expect_eq(v.whole, 57);
    cr_expect_eq(v.frac, 0);
    cbd_kills k;
    cr_assert_eq(cbd_warapp_kills(100, 600000, 500000, CBD_ROUND_STRAIGHT, NULL, &k), CBD_OK);
    double want = (double)(binom_ld(100, 53, 0.6L) + binom_ld(100, 54, 0.6L));
    cr_expect_float_eq(dist_p(&k.dist, 57), want, 1e-14);
    /* Kills range over 0.5·X + 30 for X in 0..100: 30 to 80. */
    cr_expect_eq(k.min, 30);
    cr_expect_eq(k.max, 80);
    cbd_kills_free(&k);
}

/* Loader's saddle point against lgammal, and the window's mass before renormalising. */
Test(binomial, pmf_and_window_mass) {
    static const int ks[] = {0, 1, 30, 60, 75, 99, 100};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        double want = (double)binom_ld(100, ks[i], 0.6L);
        cr_expect(fabs(cbd_binom_pmf((uint64_t)ks[i], 100, 0.6, 0.4) - want) <= 1e-13 * want,
                  "k=%d", ks[i]);
    }
    static const uint64_t ns[] = {1, 10, 1000, 1000000, 1000000000};
    static const cbd_micro ps[] = {1, 600000, 700000, 999999};
    for (size_t i = 0; i < 5; i++) {
        for (size_t j = 0; j < 4; j++) {
            cbd_binom_window w;
            cr_assert_eq(cbd_binom_window_compute(ns[i], ps[j], NULL, &w), CBD_OK);
            cr_expect_float_eq(w.raw_mass, 1.0, 1e-12, "n=%lu p=%u", (unsigned long)ns[i], ps[j]);
            /* Only the window: about 20σ + slack, never n + 1 values. */
            cr_expect(w.len < 400000);
            cbd_binom_window_free(&w);
        }
    }
}

/* Weighted random rounding is unbiased and E[L·X + (1−L)·n·p] = n·p, so the mean kills are
 * exactly n·p: at 10^9 vs 10^9 (16 % luck) the attackers kill 6·10^8 on average and lose 7·10^8
 * (neither side can reach the cap), so 3·10^8 attackers and 4·10^8 defenders are left. */
Test(properties, huge_armies_means_and_sums) {
    static const uint64_t ns[] = {1000000, 1000000000};
    for (int i = 0; i < 2; i++) {
        uint64_t n = ns[i];
        cbd_warapp_settings s = settings(160000, CBD_ROUND_WEIGHTED);
        cbd_warapp_analysis a;
        cr_assert_eq(cbd_warapp_analyze(n, n, &s, NULL, &a), CBD_OK);
        cr_expect_float_eq(dist_sum(&a.attackers_left), 1.0, 1e-12);
        cr_expect_float_eq(dist_sum(&a.defenders_left), 1.0, 1e-12);
        cr_expect_float_eq(cbd_windows_mean(&a.attackers_left), 0.3 * (double)n, 1e-12 * (double)n);
        cr_expect_float_eq(cbd_windows_mean(&a.defenders_left), 0.4 * (double)n, 1e-12 * (double)n);
        cr_expect_eq(a.capture_probability, 0.0);
        cr_expect(!a.deterministic);
        cbd_warapp_analysis_free(&a);
    }
}

/* No NaN, overflow or underflow at the extremes of army counts and rates. */
Test(properties, extremes_are_finite) {
    static const uint64_t pairs[][2] = {{1000000000, 1},
                                        {1, 1000000000},
                                        {1000000000, 0},
                                        {1000000000, 1000000000},
                                        {1000000000, 600000000}};
    static const cbd_micro lucks[] = {1, 500000, 1000000};
    for (size_t i = 0; i < 5; i++) {
        for (size_t j = 0; j < 3; j++) {
            for (int w = 0; w < 2; w++) {
                cbd_warapp_settings s =
                    settings(lucks[j], w ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT);
                s.offense_kill_rate = 600000;
                cbd_warapp_analysis a;
                cr_assert_eq(cbd_warapp_analyze(pairs[i][0], pairs[i][1], &s, NULL, &a), CBD_OK);
                cr_expect(isfinite(a.capture_probability) && a.capture_probability >= 0 &&
                          a.capture_probability <= 1);
                cr_expect_float_eq(dist_sum(&a.attackers_left), 1.0, 1e-12);
                cr_expect_float_eq(dist_sum(&a.defenders_left), 1.0, 1e-12);
                cr_expect(isfinite(cbd_windows_mean(&a.defenders_left)));
                cbd_warapp_analysis_free(&a);
            }
        }
    }
}

/* Capture probability never falls as attackers grow (up to rounding noise of 1e-15). */
Test(properties, capture_monotone_in_attackers) {
    static const cbd_micro lucks[] = {0, 160000, 500000, 1000000};
    for (int l = 0; l < 4; l++) {
        for (int w = 0; w < 2; w++) {
            cbd_warapp_settings s = settings(lucks[l], w ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT);
            double prev = 0.0;
            for (uint64_t a = 1; a <= 400; a++) {
                cbd_warapp_analysis an;
                cr_assert_eq(cbd_warapp_analyze(a, 150, &s, NULL, &an), CBD_OK);
                cr_expect(an.capture_probability >= prev - 1e-15, "A=%lu L=%u", (unsigned long)a,
                          lucks[l]);
                prev = an.capture_probability;
                cbd_warapp_analysis_free(&an);
            }
            cr_expect_float_eq(prev, 1.0, 1e-9);
        }
    }
}

/* The graph agrees with one analysis per point: expected losses are starting armies minus the
 * mean armies left (the resurrected defender counts as not lost, W5). */
Test(properties, graph_matches_analysis) {
    cbd_warapp_settings s = settings(500000, CBD_ROUND_WEIGHTED);
    cbd_warapp_graph_point g[80];
    cr_assert_eq(cbd_warapp_graph(30, 1, 80, &s, NULL, g), CBD_OK);
    for (uint64_t a = 1; a <= 80; a++) {
        cbd_warapp_analysis an;
        cr_assert_eq(cbd_warapp_analyze(a, 30, &s, NULL, &an), CBD_OK);
        cr_expect_eq(g[a - 1].attackers, a);
        cr_expect_float_eq(g[a - 1].capture_probability, an.capture_probability, 1e-13);
        cr_expect_float_eq(g[a - 1].expected_attackers_lost,
                           (double)a - cbd_windows_mean(&an.attackers_left), 1e-11);
        cr_expect_float_eq(g[a - 1].expected_defenders_lost,
                           30.0 - cbd_windows_mean(&an.defenders_left), 1e-11);
        cbd_warapp_analysis_free(&an);
    }
}

/* 16 % luck against 100 defenders. A certain capture needs the worst roll (X = 0) to kill them
 * all: 0.84 · 0.6 · A = 0.504·A; straight round needs 0.504·A >= 99.5, A = 198 (197 gives
 * 99.288 -> 99); weighted needs floor(0.504·A) >= 100, A = 199 (198 gives 99.792). The
 * defenders kill at most 0.84·70 + 16 = 74.8 -> 75, fewer than either. Other targets: the answer
 * reaches the target and one fewer does not. A cap below any chance gives 0 (none). */
Test(properties, armies_needed) {
    for (int w = 0; w < 2; w++) {
        cbd_warapp_settings s = settings(160000, w ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT);
        double q[4] = {0.5, 0.9, 0.99, 1.0};
        uint64_t got[4];
        cr_assert_eq(cbd_warapp_armies_needed(100, &s, q, 4, 1000000000, NULL, got), CBD_OK);
        cr_expect_eq(got[3], w ? 199 : 198);
        for (int i = 0; i < 3; i++) {
            cbd_warapp_analysis at, below;
            cr_assert_eq(cbd_warapp_analyze(got[i], 100, &s, NULL, &at), CBD_OK);
            cr_assert_eq(cbd_warapp_analyze(got[i] - 1, 100, &s, NULL, &below), CBD_OK);
            cr_expect(at.capture_probability >= q[i]);
            cr_expect(below.capture_probability < q[i]);
            cbd_warapp_analysis_free(&at);
            cbd_warapp_analysis_free(&below);
        }
        cr_expect(got[0] < got[1] && got[1] < got[2] && got[2] <= got[3]);
        uint64_t none;
        cr_assert_eq(cbd_warapp_armies_needed(100, &s, q, 1, 150, NULL, &none), CBD_OK);
        cr_expect_eq(none, 0);
    }
}

Test(properties, quantiles) {
    /* 10, 11, 100 and 101 at 1/4 each: two windows, more than CBD_WINDOWS_JOIN apart. */
    cbd_windows ws;
    cbd_windows_init(&ws);
    cbd_slot *s;
    cr_assert_eq(cbd_windows_cover(&ws, 10, 11, CBD_WINDOWS_JOIN, 0, NULL, &s), CBD_OK);
    s[0].p = s[1].p = 0.25;
    cr_assert_eq(cbd_windows_cover(&ws, 100, 101, CBD_WINDOWS_JOIN, 0, NULL, &s), CBD_OK);
    s[0].p = s[1].p = 0.25;
    cr_assert_eq(ws.n, 2);
    cr_expect_eq(cbd_windows_quantile(&ws, 0.01), 10);
    cr_expect_eq(cbd_windows_quantile(&ws, 0.25), 10);
    cr_expect_eq(cbd_windows_quantile(&ws, 0.5), 11);
    cr_expect_eq(cbd_windows_quantile(&ws, 0.51), 100);
    cr_expect_eq(cbd_windows_quantile(&ws, 0.99), 101);
    cr_expect_eq(cbd_windows_mean(&ws), (10 + 11 + 100 + 101) / 4.0);
    cr_expect_eq(cbd_windows_p(&ws, 50), 0.0);
    cr_expect_eq(cbd_windows_p(&ws, 101), 0.25);
    /* Within CBD_WINDOWS_JOIN of the first: one window again, its values kept. */
    cr_assert_eq(cbd_windows_cover(&ws, 40, 40, CBD_WINDOWS_JOIN, 0, NULL, &s), CBD_OK);
    cr_expect_eq(ws.n, 1);
    cr_expect_eq(cbd_windows_p(&ws, 11), 0.25);
    cr_expect_eq(cbd_windows_p(&ws, 100), 0.25);
    cr_expect_eq(cbd_windows_p(&ws, 40), 0.0);
    cbd_windows_trim(&ws);
    cr_expect_eq(cbd_windows_lo(&ws), 10);
    cr_expect_eq(cbd_windows_hi(&ws), 101);
    cbd_windows_free(&ws);
}
