/*
 * Fog (W23): one battle against defenders known as a distribution over counts. Worked by hand
 * (10 attackers against 5 or 10 defenders, captured exactly half the time), the mixture's fewest
 * armies against the average of each count's, and random small battles with units and fog
 * against the brute force of warapp_brute.h, to 1e-12.
 */
#include <criterion/criterion.h>

#include "combatd/warapp_odds.h"
#include "warapp_brute.h"

static cbd_warapp_settings plain(void) {
    cbd_warapp_settings s = cbd_warapp_default_settings(); /* 0.6, 0.7, luck 0, straight */
    return s;
}

Test(warapp_fog, ten_attackers_against_5_or_10_capture_exactly_half_the_time) {
    cbd_warapp_side attack = {10, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[2] = {{5, 0.5}, {10, 0.5}};
    cbd_warapp_settings s = plain();
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_fog(&attack, &defense, counts, 2, &s, NULL, &a), CBD_OK);
    /* 10 · 0.6 = 6 damage: it kills 5 (and 5 · 0.7 = 3.5 -> 4 < 10 back: captured) but not 10
     * (which deal 7 back). */
    cr_assert_eq(a.capture_probability, 0.5);
    cr_assert_not(a.deterministic, "two outcomes remain");
    /* Attackers left: 10 − 4 = 6, or 10 − 7 = 3; defenders left: 0, or 10 − 6 = 4. */
    cr_assert_eq(cbd_windows_p(&a.attackers_left, 3), 0.5);
    cr_assert_eq(cbd_windows_p(&a.attackers_left, 4), 0.0);
    cr_assert_eq(cbd_windows_p(&a.attackers_left, 6), 0.5);
    cr_assert_eq(cbd_windows_p(&a.defenders_left, 0), 0.5);
    cr_assert_eq(cbd_windows_p(&a.defenders_left, 4), 0.5);
    /* Values a few apart share one window, trimmed to them: 3..6 and 0..4. */
    cr_assert_eq(a.attackers_left.n, 1);
    cr_assert_eq(a.attackers_left.w[0].lo, 3);
    cr_assert_eq(a.attackers_left.w[0].len, 4);
    cr_assert_eq(a.defenders_left.n, 1);
    cr_assert_eq(cbd_windows_lo(&a.defenders_left), 0);
    cr_assert_eq(cbd_windows_hi(&a.defenders_left), 4);
    cbd_warapp_analysis_free(&a);
}

/*
 * 10 attackers against 5 or 10^9 defenders at 50/50: against 5 the battle is won as above
 * (6 damage, 4 back: 6 attackers left, no defender), against 10^9 it is lost (10^9 − 6 left,
 * 7·10^8 damage back kills all 10: 0 attackers left). So capture is exactly 0.5 and each
 * distribution is two values 10^9 apart, held as two windows of one value each, never as
 * 10^9 slots (the budget's 1 MiB would refuse them).
 */
Test(warapp_fog, counts_far_apart_hold_a_window_each) {
    cbd_warapp_side attack = {10, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[2] = {{5, 0.5}, {1000000000, 0.5}};
    cbd_warapp_settings s = plain();
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, 1u << 20);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_fog(&attack, &defense, counts, 2, &s, &b, &a), CBD_OK);
    cr_expect_eq(a.capture_probability, 0.5);
    cr_expect_eq(a.mutual_destruction_probability, 0.0);
    cr_expect_eq(cbd_windows_p(&a.attackers_left, 0), 0.5);
    cr_expect_eq(cbd_windows_p(&a.attackers_left, 6), 0.5);
    cr_expect_eq(cbd_windows_p(&a.defenders_left, 0), 0.5);
    cr_expect_eq(cbd_windows_p(&a.defenders_left, 999999994), 0.5);
    cr_expect_eq(a.defenders_left.n, 2);
    cr_expect_eq(cbd_windows_slots(&a.defenders_left), 2);
    cr_expect_eq(cbd_windows_mean(&a.defenders_left), 999999994 / 2.0);
    cr_expect_eq(cbd_windows_quantile(&a.defenders_left, 0.5), 0);
    cr_expect_eq(cbd_windows_quantile(&a.defenders_left, 0.75), 999999994);
    cr_expect_lt(b.mem_peak, 4096);
    cbd_warapp_analysis_free(&a);
    cr_expect_eq(b.mem_held, 0);
}

Test(warapp_fog, one_count_or_one_certain_outcome_stays_deterministic) {
    cbd_warapp_side attack = {10, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count one = {5, 1.0};
    cbd_warapp_settings s = plain();
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_fog(&attack, &defense, &one, 1, &s, NULL, &a), CBD_OK);
    cr_assert(a.deterministic);
    cr_assert_eq(a.defenders, 5);
    cbd_warapp_analysis_free(&a);
}

Test(warapp_fog, the_mixtures_fewest_armies_is_not_the_average_of_the_fewest) {
    cbd_warapp_side attack = {0, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[2] = {{5, 0.5}, {10, 0.5}};
    cbd_warapp_settings s = plain();
    double targets[2] = {0.5, 0.9};
    uint64_t mix[2], alone[2][2];
    cr_assert_eq(
        cbd_warapp_armies_needed_fog(&attack, &defense, counts, 2, &s, targets, 2, 1000, NULL, mix),
        CBD_OK);
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(
            cbd_warapp_armies_needed(counts[k].armies, &s, targets, 2, 1000, NULL, alone[k]),
            CBD_OK);
    }
    /* Against 5: 0.6·a >= 4.5 needs a = 8 (4.8 -> 5; 7 gives 4.2 -> 4); against 10: a = 16
     * (9.6 -> 10). Either way the 4 or 7 damage back leave attackers. */
    cr_assert_eq(alone[0][0], 8);
    cr_assert_eq(alone[1][0], 16);
    /* The mixture: 1/2 from 8 armies, 1 from 16. Averaging each count's fewest says 12 for
     * both targets; the truth is 8 for 50 % and 16 for 90 %. */
    cr_assert_eq(mix[0], 8);
    cr_assert_eq(mix[1], 16);
    cr_assert_neq(mix[0], (alone[0][0] + alone[1][0]) / 2);
}

Test(warapp_fog, the_graph_is_the_mixture_of_the_graphs) {
    cbd_warapp_side attack = {0, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[2] = {{5, 0.25}, {10, 0.75}};
    cbd_warapp_settings s = plain();
    cbd_warapp_graph_point g[20];
    cr_assert_eq(cbd_warapp_graph_fog(&attack, &defense, counts, 2, 1, 20, &s, NULL, g), CBD_OK);
    for (uint64_t a = 1; a <= 20; a++) {
        double want = (a >= 8 ? 0.25 : 0.0) + (a >= 16 ? 0.75 : 0.0);
        cr_assert_float_eq(g[a - 1].capture_probability, want, 1e-15, "%lu armies",
                           (unsigned long)a);
    }
}

static uint64_t rnd(uint64_t *x, uint64_t n) {
    *x = *x * 6364136223846793005u + 1442695040888963407u;
    return (*x >> 33) % n;
}

/* One random battle: a side of armies and up to two units against a fog of 1–4 counts. */
static void check_random_fog(uint64_t *seed) {
    cbd_warapp_unit au[2], du[2];
    cbd_warapp_side att = {1 + rnd(seed, 8), rnd(seed, 3), au}, def = {0, rnd(seed, 3), du};
    for (size_t i = 0; i < 2; i++) {
        au[i] = cbd_warapp_commander();
        du[i] = (cbd_warapp_unit){rnd(seed, 4), rnd(seed, 4), (int64_t)rnd(seed, 5) - 2,
                                  rnd(seed, 2) == 0, 1 + rnd(seed, 6)};
    }
    size_t n = 1 + rnd(seed, 4);
    cbd_warapp_count counts[4];
    double total = 0;
    for (size_t k = 0; k < n; k++) {
        counts[k].armies = k * 3 + rnd(seed, 3); /* distinct, ascending */
        counts[k].weight = 1.0 + (double)rnd(seed, 5);
        total += counts[k].weight;
    }
    for (size_t k = 0; k < n; k++) {
        counts[k].weight /= total;
    }
    static const cbd_micro lucks[] = {0, 250000, 1000000};
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = lucks[rnd(seed, 3)];
    s.rounding = rnd(seed, 2) ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    long double capture = 0, att_left[16] = {0}, def_alive[2] = {0};
    bf_dist da, dd;
    bf_damage(cbd_warapp_side_power(&att, true), s.offense_kill_rate, s.luck_modifier, s.rounding,
              &da);
    for (size_t k = 0; k < n; k++) {
        def.armies = counts[k].armies;
        bf_damage(cbd_warapp_side_power(&def, false), s.defense_kill_rate, s.luck_modifier,
                  s.rounding, &dd);
        for (int ka = 0; ka <= BF_MAX_DAMAGE; ka++) {
            for (int kd = 0; kd <= BF_MAX_DAMAGE; kd++) {
                long double w = counts[k].weight * da.p[ka] * dd.p[kd];
                if (w == 0.0L) {
                    continue;
                }
                uint64_t al[2], dl[2];
                uint64_t a_armies = bf_take(&att, (uint64_t)kd, al);
                uint64_t d_armies = bf_take(&def, (uint64_t)ka, dl);
                capture += bf_empty(&def, d_armies, dl) && !bf_empty(&att, a_armies, al) ? w : 0;
                att_left[a_armies] += w;
                for (size_t i = 0; i < def.n_units; i++) {
                    def_alive[i] += dl[i] ? w : 0;
                }
            }
        }
    }
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_fog(&att, &def, counts, n, &s, NULL, &a), CBD_OK);
    cr_assert_float_eq(a.capture_probability, (double)capture, 1e-12);
    for (uint64_t v = 0; v < 16; v++) {
        cr_assert_float_eq(cbd_windows_p(&a.attackers_left, v), (double)att_left[v], 1e-12);
    }
    for (size_t i = 0; i < def.n_units; i++) {
        cr_assert_float_eq(a.defending_units[i].survival_probability, (double)def_alive[i], 1e-12);
    }
    cbd_warapp_analysis_free(&a);
}

Test(warapp_fog, random_small_fogs_match_a_brute_force_to_1e_12) {
    uint64_t seed = 23;
    for (int i = 0; i < 300; i++) {
        check_random_fog(&seed);
    }
}
