/*
 * Seeded battles against defenders drawn from a distribution (fog, W23): the hand-worked
 * 5-or-10 example trial by trial, the documented draw order replayed from the primitives, the
 * frequencies of the drawn counts and the joint outcome against the exact mixture enumerated
 * by the brute force written from the rules' text (warapp_brute.h), and what a plan is charged.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chi_square.h"
#include "combatd/binomial_sample.h"
#include "combatd/warapp_simulate.h"
#include "warapp_brute.h"

static cbd_warapp_settings settings(cbd_micro luck, cbd_rounding r) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = luck;
    s.rounding = r;
    return s;
}

static cbd_sim_plan fog_plan(const cbd_warapp_side *a, const cbd_warapp_side *d,
                             const cbd_warapp_count *counts, size_t n,
                             const cbd_warapp_settings *s) {
    cbd_sim_plan plan;
    cr_assert_eq(cbd_sim_plan_init(&plan, a, d, counts, n, s, NULL), CBD_OK);
    return plan;
}

/*
 * W23 worked by hand: 10 attackers against 5 or 10 defenders at even odds and 0 % luck. Against
 * 5 they deal 6 >= 5 and lose round(3.5) = 4 < 10: captured, 6 move in. Against 10 they deal 6
 * and lose 7: 3 left, 4 defenders left. So the captures are exactly the trials that drew 5, and
 * those are about half: chi-square of the two tallies against 1/2 each over 10^6 trials.
 */
Test(fog_simulate, ten_against_5_or_10_captures_exactly_when_5_is_drawn) {
    cbd_warapp_side attack = {10, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[2] = {{5, 0.5}, {10, 0.5}};
    cbd_warapp_settings s = settings(0, CBD_ROUND_STRAIGHT);
    cbd_sim_plan plan = fog_plan(&attack, &defense, counts, 2, &s);
    cbd_rng rng;
    cbd_rng_seed(&rng, 1);
    for (int t = 0; t < 1000; t++) {
        cbd_sim_record r = cbd_sim_plan_one(&plan, &rng);
        const cbd_warapp_outcome *o = &r.battle.outcome;
        cr_assert_eq(o->captured, r.count == 0);
        cr_assert_eq(o->attackers_left, r.count == 0 ? 6 : 3);
        cr_assert_eq(o->defenders_left, r.count == 0 ? 0 : 4);
        cr_assert_eq(o->defenders_lost, r.count == 0 ? 5 : 6);
    }
    const uint64_t trials = 1000000;
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(
        cbd_warapp_sim_blocks(&plan, 42, trials, 0, cbd_sim_block_count(trials), NULL, &st, NULL),
        CBD_OK);
    cr_assert_eq(st.n_drawn, 2);
    cr_assert_eq(st.drawn[0] + st.drawn[1], trials);
    cr_assert_eq(st.captures, st.drawn[0]);
    long double p[2] = {0.5L, 0.5L};
    chi_square_result r = chi_square_test(st.drawn, p, 2, trials);
    cr_log_info("5 or 10: drawn %llu / %llu, chi2 %.2f, critical %.2f",
                (unsigned long long)st.drawn[0], (unsigned long long)st.drawn[1], r.statistic,
                r.critical);
    cr_expect_lt(r.statistic, r.critical);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
}

/*
 * The documented draw order (warapp_simulate.h), replayed from the primitives over two blocks:
 * the count first (a uniform double against the running sums of the probabilities), then each
 * side's roll for its power (W18: the drawn armies plus a Commander's defense power of 7), then
 * the two rounding draws.
 */
Test(fog_simulate, the_draw_order_is_as_documented) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {30, 0, NULL}, defense = {0, 1, &c};
    cbd_warapp_count counts[3] = {{3, 0.2}, {7, 0.3}, {12, 0.5}};
    cbd_warapp_settings s = settings(160000, CBD_ROUND_WEIGHTED);
    cbd_sim_plan plan = fog_plan(&attack, &defense, counts, 3, &s);
    const uint64_t trials = CBD_SIM_BLOCK + 20;
    cbd_sim_record *b = calloc(trials, sizeof *b);
    cr_assert(b);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&plan, 8, trials, 0, 2, NULL, &st, b), CBD_OK);
    const double sums[3] = {0.2, 0.2 + 0.3, 1.0};
    cbd_binomial ba, bd[3];
    cbd_binomial_init(&ba, 30, 600000);
    for (int k = 0; k < 3; k++) {
        cbd_binomial_init(&bd[k], counts[k].armies + 7, 700000);
    }
    cbd_rng rng;
    cbd_rng_seed(&rng, 8);
    for (uint64_t t = 0; t < trials; t++) {
        if (t == CBD_SIM_BLOCK) {
            cbd_rng_seed(&rng, 8);
            cbd_rng_jump(&rng);
        }
        double d = cbd_rng_double(&rng);
        uint32_t k = d < sums[0] ? 0 : d < sums[1] ? 1 : 2;
        uint64_t xa = cbd_binomial_draw(&ba, &rng);
        uint64_t xd = cbd_binomial_draw(&bd[k], &rng);
        cbd_kill_value va = cbd_warapp_blend(30, 600000, 160000, xa);
        cbd_kill_value vd = cbd_warapp_blend(counts[k].armies + 7, 700000, 160000, xd);
        uint64_t ka =
            va.frac ? cbd_round_weighted(va, cbd_rng_bounded(&rng, CBD_KILL_FRAC_ONE)) : va.whole;
        uint64_t kd =
            vd.frac ? cbd_round_weighted(vd, cbd_rng_bounded(&rng, CBD_KILL_FRAC_ONE)) : vd.whole;
        cr_assert_eq(b[t].count, k, "trial %llu", (unsigned long long)t);
        cr_assert_eq(b[t].battle.attacker_kills, ka, "trial %llu", (unsigned long long)t);
        cr_assert_eq(b[t].battle.defender_kills, kd, "trial %llu", (unsigned long long)t);
    }
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(b);
}

/* A distribution of one count draws nothing: the battles of the count given as a number. */
Test(fog_simulate, one_count_plays_the_battles_of_that_number) {
    cbd_warapp_side attack = {12, 0, NULL}, defense = {8, 0, NULL};
    cbd_warapp_count one = {8, 1.0};
    cbd_warapp_settings s = settings(500000, CBD_ROUND_WEIGHTED);
    cbd_sim_plan a = fog_plan(&attack, &defense, &one, 1, &s);
    cbd_sim_plan b = fog_plan(&attack, &defense, NULL, 0, &s);
    cbd_rng ra, rb;
    cbd_rng_seed(&ra, 77);
    cbd_rng_seed(&rb, 77);
    for (int t = 0; t < 10000; t++) {
        cbd_sim_record x = cbd_sim_plan_one(&a, &ra), y = cbd_sim_plan_one(&b, &rb);
        cr_assert_eq(x.battle.attacker_kills, y.battle.attacker_kills);
        cr_assert_eq(x.battle.defender_kills, y.battle.defender_kills);
        cr_assert_eq(x.battle.outcome.defenders_left, y.battle.outcome.defenders_left);
    }
    cr_assert_eq(memcmp(&ra, &rb, sizeof ra), 0, "the same draws");
    cbd_sim_plan_free(&a);
    cbd_sim_plan_free(&b);
}

/* ---- the joint outcome against the brute force's mixture ---- */

#define N_COUNTS   4
#define MAX_ARMIES 16

static size_t cell(size_t k, uint64_t a_left, uint64_t d_left) {
    return (k * (MAX_ARMIES + 1) + (size_t)a_left) * (MAX_ARMIES + 2) + (size_t)d_left;
}
#define CELLS (N_COUNTS * (MAX_ARMIES + 1) * (MAX_ARMIES + 2))

/* P(count k, attackers left, defenders left): each count's weight times its battle, by every
 * pair of damage values (bf_damage) and W19/W20 written again (bf_take). */
static void exact(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                  const cbd_warapp_count *counts, const cbd_warapp_settings *s, long double *p) {
    bf_dist da;
    bf_damage(cbd_warapp_side_power(attack, true), s->offense_kill_rate, s->luck_modifier,
              s->rounding, &da);
    for (size_t k = 0; k < N_COUNTS; k++) {
        cbd_warapp_side d = *defense;
        d.armies = counts[k].armies;
        bf_dist dd;
        bf_damage(cbd_warapp_side_power(&d, false), s->defense_kill_rate, s->luck_modifier,
                  s->rounding, &dd);
        for (uint64_t ka = 0; ka <= BF_MAX_DAMAGE; ka++) {
            for (uint64_t kd = 0; da.p[ka] > 0 && kd <= BF_MAX_DAMAGE; kd++) {
                if (dd.p[kd] == 0) {
                    continue;
                }
                uint64_t al[CBD_WARAPP_MAX_UNITS], dl[CBD_WARAPP_MAX_UNITS];
                uint64_t a_left = bf_take(attack, kd, al), d_left = bf_take(&d, ka, dl);
                if (bf_empty(attack, a_left, al) && bf_empty(&d, d_left, dl)) {
                    d_left = 1; /* W5, W20 */
                }
                p[cell(k, a_left, d_left)] += (long double)counts[k].weight * da.p[ka] * dd.p[kd];
            }
        }
    }
}

/*
 * 9 attackers against 2, 4, 7 or 11 defenders with chances 0.1, 0.2, 0.3, 0.4 beside a
 * Commander, at 50 % luck with straight rounding: the cell is (count drawn, attackers left,
 * defenders left), 10^6 trials, α = 0.001.
 */
Test(fog_simulate, the_joint_outcome_fits_the_mixture) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {9, 0, NULL}, defense = {0, 1, &c};
    cbd_warapp_count counts[N_COUNTS] = {{2, 0.1}, {4, 0.2}, {7, 0.3}, {11, 0.4}};
    cbd_warapp_settings s = settings(500000, CBD_ROUND_STRAIGHT);
    cbd_sim_plan plan = fog_plan(&attack, &defense, counts, N_COUNTS, &s);
    uint64_t *obs = calloc(CELLS, sizeof *obs);
    long double *p = calloc(CELLS, sizeof *p);
    cr_assert(obs && p);
    cbd_rng rng;
    cbd_rng_seed(&rng, 4711);
    const uint64_t trials = 1000000;
    for (uint64_t t = 0; t < trials; t++) {
        cbd_sim_record r = cbd_sim_plan_one(&plan, &rng);
        obs[cell(r.count, r.battle.outcome.attackers_left, r.battle.outcome.defenders_left)]++;
    }
    exact(&attack, &defense, counts, &s, p);
    chi_square_result r = chi_square_test(obs, p, CELLS, trials);
    cr_log_info("fog joint: chi2 %.1f, critical %.1f, df %d", r.statistic, r.critical, r.df);
    cr_expect_lt(r.statistic, r.critical, "chi2 %.1f >= %.1f (df %d)", r.statistic, r.critical,
                 r.df);
    cr_expect_gt(r.df, 10);
    /* With the chances of the first two counts swapped the same trials are rejected. */
    counts[0].weight = 0.2;
    counts[1].weight = 0.1;
    memset(p, 0, CELLS * sizeof *p);
    exact(&attack, &defense, counts, &s, p);
    chi_square_result wrong = chi_square_test(obs, p, CELLS, trials);
    cr_log_info("swapped chances: chi2 %.1f, critical %.1f", wrong.statistic, wrong.critical);
    cr_expect_gt(wrong.statistic, wrong.critical);
    free(obs);
    free(p);
    cbd_sim_plan_free(&plan);
}

/* ---- the budget ---- */

/*
 * A plan of 3 counts is charged CBD_WORK_SIM_COUNT for each; a battle CBD_WORK_BATTLE plus, for
 * the count, a uniform and two halvings of the 3 counts (3 · CBD_WORK_FOG_STEP); a run the
 * tally of its 3 counts as histogram slots, once.
 */
Test(fog_simulate, a_plan_and_its_battles_are_charged) {
    cbd_warapp_side attack = {10, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[3] = {{3, 0.25}, {5, 0.25}, {9, 0.5}};
    cbd_warapp_settings s = settings(160000, CBD_ROUND_WEIGHTED);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_sim_plan plan;
    cr_assert_eq(cbd_sim_plan_init(&plan, &attack, &defense, counts, 3, &s, &b), CBD_OK);
    cr_expect_eq(b.work_spent, 3 * CBD_WORK_SIM_COUNT);
    cr_expect_eq(cbd_sim_plan_battle_units(&plan), CBD_WORK_BATTLE + 3 * CBD_WORK_FOG_STEP);
    cbd_budget run;
    cbd_budget_init(&run, UINT64_MAX, SIZE_MAX);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&plan, 1, 100, 0, 1, &run, &st, NULL), CBD_OK);
    uint64_t slots =
        cbd_windows_slots(&st.attackers_left.w) + cbd_windows_slots(&st.defenders_left.w) + 3;
    cr_expect_eq(run.work_spent, 100 * cbd_sim_plan_battle_units(&plan) + CBD_WORK_RNG_JUMP +
                                     slots * CBD_WORK_HIST_SLOT);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    cr_expect_eq(b.mem_held, 0, "the plan's tables went back to its budget");

    /* Refused before anything is allocated when the counts' set-up is past the budget. */
    cbd_budget_init(&b, 3 * CBD_WORK_SIM_COUNT - 1, SIZE_MAX);
    cr_expect_eq(cbd_sim_plan_init(&plan, &attack, &defense, counts, 3, &s, &b), CBD_ERR_BUDGET);
    cr_expect_eq(b.mem_peak, 0);
}

/* Tables past the cache cost each battle its misses besides the bisection's steps. */
Test(fog_simulate, a_large_distribution_pays_its_cache_misses) {
    const size_t n = 100000;
    cbd_warapp_count *counts = calloc(n, sizeof *counts);
    cr_assert(counts);
    for (size_t k = 0; k < n; k++) {
        counts[k].armies = k;
        counts[k].weight = 1.0 / (double)n;
    }
    cbd_warapp_side attack = {10, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_settings s = settings(160000, CBD_ROUND_WEIGHTED);
    cbd_sim_plan small = fog_plan(&attack, &defense, counts + n - 1000, 1000, &s);
    cbd_sim_plan large = fog_plan(&attack, &defense, counts, n, &s);
    /* 1000 counts: a uniform and 10 halvings; 10^5: 17 halvings and the misses. */
    cr_expect_eq(cbd_sim_plan_battle_units(&small), CBD_WORK_BATTLE + 11 * CBD_WORK_FOG_STEP);
    cr_expect_eq(cbd_sim_plan_battle_units(&large),
                 CBD_WORK_BATTLE + 18 * CBD_WORK_FOG_STEP + CBD_WORK_FOG_MISS);
    cbd_sim_plan_free(&small);
    cbd_sim_plan_free(&large);
    free(counts);
}
