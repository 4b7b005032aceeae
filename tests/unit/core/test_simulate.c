/*
 * Random War.app battles (W1–W6) from the /simulate core. The exact outcome distributions are
 * built here independently: binomial pmfs (tests/support/chi_square.h), W1 blending in 128-bit
 * integers, W2 rounding, W4/W5 resolution, all written again in this file.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chi_square.h"
#include "combatd/warapp_simulate.h"

__extension__ typedef unsigned __int128 u128;

#define TRIALS 1000000u

/* ---- the exact distribution, independently ---- */

typedef struct {
    uint64_t kills[2];
    long double prob[2]; /* up to two rounded values (W2 weighted), prob 0 when unused */
} rounded;

/* W1 + W2 for one side given roll x: v·10^12 = L·x·10^6 + (10^6 − L)·n·p. */
static rounded round_kills(uint64_t n, uint32_t p, uint32_t luck, uint64_t x, bool weighted) {
    u128 v = (u128)luck * x * 1000000u + (u128)(1000000u - luck) * n * p;
    uint64_t whole = (uint64_t)(v / 1000000000000u);
    uint64_t frac = (uint64_t)(v % 1000000000000u);
    rounded r = {{whole, whole + 1}, {1.0L, 0.0L}};
    if (!weighted) {
        if (2 * frac >= 1000000000000u) { /* W2: .5 rounds up */
            r.kills[0] = whole + 1;
        }
    } else {
        r.prob[1] = (long double)frac / 1e12L;
        r.prob[0] = 1.0L - r.prob[1];
    }
    return r;
}

/* The pmf of a side's roll (W1): Binomial(n, p) when luck matters, else a point mass. */
static long double roll_pmf(uint64_t n, uint32_t p, uint32_t luck, uint64_t x) {
    if (luck == 0) {
        return x == 0 ? 1.0L : 0.0L; /* X is ignored at L = 0 */
    }
    return binomial_pmf(n, (long double)p / 1e6L, x);
}

typedef struct {
    uint64_t a, d;
    uint32_t off, def, luck;
    bool weighted;
} setting;

/* Cell of the joint outcome (attackers_left, defenders_left). */
static size_t cell(const setting *s, uint64_t a_left, uint64_t d_left) {
    return (size_t)(a_left * (s->d + 1) + d_left);
}

/* W4, W5: the outcome cell for rounded kills ka, kd. */
static size_t outcome_cell(const setting *s, uint64_t ka, uint64_t kd) {
    uint64_t d_left = s->d - (ka < s->d ? ka : s->d);
    uint64_t a_left = s->a - (kd < s->a ? kd : s->a);
    if (a_left == 0 && d_left == 0) {
        d_left = 1; /* W5: mutual destruction, one defender resurrected */
    }
    return cell(s, a_left, d_left);
}

static long double *exact_distribution(const setting *s) {
    size_t cells = (size_t)((s->a + 1) * (s->d + 1));
    long double *dist = calloc(cells, sizeof *dist);
    cr_assert(dist);
    for (uint64_t xa = 0; xa <= s->a; xa++) {
        long double pa = roll_pmf(s->a, s->off, s->luck, xa);
        if (pa < 1e-30L) {
            continue;
        }
        rounded ra = round_kills(s->a, s->off, s->luck, xa, s->weighted);
        for (uint64_t xd = 0; xd <= s->d; xd++) {
            long double pd = roll_pmf(s->d, s->def, s->luck, xd);
            if (pd < 1e-30L) {
                continue;
            }
            rounded rd = round_kills(s->d, s->def, s->luck, xd, s->weighted);
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 2; j++) {
                    long double pr = pa * pd * ra.prob[i] * rd.prob[j];
                    if (pr > 0) {
                        dist[outcome_cell(s, ra.kills[i], rd.kills[j])] += pr;
                    }
                }
            }
        }
    }
    return dist;
}

static cbd_warapp_settings settings_of(const setting *s) {
    cbd_warapp_settings st = cbd_warapp_default_settings();
    st.offense_kill_rate = s->off;
    st.defense_kill_rate = s->def;
    st.luck_modifier = s->luck;
    st.rounding = s->weighted ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    return st;
}

static cbd_warapp_sim make_sim(const setting *s) {
    cbd_warapp_settings st = settings_of(s);
    cbd_warapp_sim sim;
    cbd_warapp_sim_init(&sim, s->a, s->d, &st);
    return sim;
}

/* The plan of the same battle, armies only (free it with cbd_sim_plan_free). */
static cbd_sim_plan make_plan(const setting *s) {
    cbd_warapp_settings st = settings_of(s);
    cbd_warapp_side a = {s->a, 0, NULL}, d = {s->d, 0, NULL};
    cbd_sim_plan plan;
    cr_assert_eq(cbd_sim_plan_init(&plan, &a, &d, NULL, 0, &st, NULL), CBD_OK);
    return plan;
}

/* TRIALS seeded battles of `sim` binned by joint outcome, tested against setting s exactly. */
static chi_square_result run_chi_square(const setting *s, const cbd_warapp_sim *sim,
                                        uint64_t seed) {
    size_t cells = (size_t)((s->a + 1) * (s->d + 1));
    long double *dist = exact_distribution(s);
    uint64_t *obs = calloc(cells, sizeof *obs);
    cr_assert(obs);
    cbd_rng rng;
    cbd_rng_seed(&rng, seed);
    for (unsigned t = 0; t < TRIALS; t++) {
        cbd_sim_battle b = cbd_warapp_sim_one(sim, &rng);
        cr_assert_eq(b.outcome.attackers_lost + b.outcome.attackers_left, s->a);
        obs[cell(s, b.outcome.attackers_left, b.outcome.defenders_left)]++;
    }
    chi_square_result r = chi_square_test(obs, dist, cells, TRIALS);
    free(obs);
    free(dist);
    return r;
}

static void expect_fits(setting s, const char *name) {
    cbd_warapp_sim sim = make_sim(&s);
    chi_square_result r = run_chi_square(&s, &sim, 20240601u + s.a);
    cr_log_info("%s: chi2 %.1f, critical %.1f, df %d", name, r.statistic, r.critical, r.df);
    cr_expect_lt(r.statistic, r.critical, "%s: chi2 %.1f >= %.1f (df %d)", name, r.statistic,
                 r.critical, r.df);
}

/* ---- six-plus settings: 0, 16, 75, 100 % luck, both roundings, other kill rates ---- */

/* 0 % luck, weighted: 13 attackers kill 7.8 (7 w.p. 0.2, 8 w.p. 0.8), 9 defenders kill 6.3
 * (6 w.p. 0.7, 7 w.p. 0.3): four outcome cells. */
Test(simulate_chi_square, luck_0_weighted) {
    expect_fits((setting){13, 9, 600000, 700000, 0, true}, "0% weighted 13v9");
}

/* 16 %, weighted, 100 vs 60: both rolls use BTRS (100·0.4 = 40, 60·0.3 = 18 >= 10). */
Test(simulate_chi_square, luck_16_weighted_btrs) {
    expect_fits((setting){100, 60, 600000, 700000, 160000, true}, "16% weighted 100v60");
}

/* 16 %, straight, 12 vs 8: both rolls by inversion. */
Test(simulate_chi_square, luck_16_straight) {
    expect_fits((setting){12, 8, 600000, 700000, 160000, false}, "16% straight 12v8");
}

/* 75 %, straight, 30 vs 20: attackers by BTRS (12), defenders by inversion (6). */
Test(simulate_chi_square, luck_75_straight) {
    expect_fits((setting){30, 20, 600000, 700000, 750000, false}, "75% straight 30v20");
}

/* 75 %, weighted, 25 vs 15. */
Test(simulate_chi_square, luck_75_weighted) {
    expect_fits((setting){25, 15, 600000, 700000, 750000, true}, "75% weighted 25v15");
}

/* 100 %, straight, 10 vs 7 (kills are the rolls themselves). */
Test(simulate_chi_square, luck_100_straight) {
    expect_fits((setting){10, 7, 600000, 700000, 1000000, false}, "100% straight 10v7");
}

/* Non-default kill rates 0.35 / 0.85 at 50 % luck, weighted, 40 vs 12. */
Test(simulate_chi_square, other_kill_rates_weighted) {
    expect_fits((setting){40, 12, 350000, 850000, 500000, true}, "0.35/0.85 50% weighted 40v12");
}

/* The same test has power: a roll sampler off by 0.01 in p is rejected at 16 % and 100 %. */
Test(simulate_chi_square, rejects_sampler_off_by_001) {
    setting s = {100, 60, 600000, 700000, 160000, true};
    cbd_warapp_sim sim = make_sim(&s);
    cbd_binomial_init_double(&sim.side[0].roll, 100, 0.61);
    chi_square_result r = run_chi_square(&s, &sim, 5);
    cr_log_info("skewed 16%%: chi2 %.1f, critical %.1f", r.statistic, r.critical);
    cr_expect_gt(r.statistic, r.critical, "16%%: chi2 %.1f < %.1f", r.statistic, r.critical);

    setting t = {10, 7, 600000, 700000, 1000000, false};
    sim = make_sim(&t);
    cbd_binomial_init_double(&sim.side[1].roll, 7, 0.71);
    r = run_chi_square(&t, &sim, 6);
    cr_log_info("skewed 100%%: chi2 %.1f, critical %.1f", r.statistic, r.critical);
    cr_expect_gt(r.statistic, r.critical, "100%%: chi2 %.1f < %.1f", r.statistic, r.critical);
}

/* ---- rulings' reference values ---- */

/* docs/rules.md: 100 attackers, 50 % luck, a roll of 54 kills → 0.5·54 + 0.5·60 = 57 kills. */
Test(simulate, reference_roll_54_gives_57) {
    setting s = {100, 10, 600000, 700000, 500000, false};
    cbd_warapp_sim sim = make_sim(&s);
    cbd_kill_value v = cbd_sim_side_blend(&sim.side[0], 54);
    cr_expect_eq(v.whole, 57u);
    cr_expect_eq(v.frac, 0u);
}

/* W3: 45 defenders at 0.7 kill exactly 31.5 at 0 % luck, which straight-rounds to 32. */
Test(simulate, w3_exact_half_rounds_up) {
    setting s = {40, 45, 600000, 700000, 0, false};
    cbd_warapp_sim sim = make_sim(&s);
    cbd_rng rng;
    cbd_rng_seed(&rng, 1);
    for (int i = 0; i < 100; i++) {
        cbd_sim_battle b = cbd_warapp_sim_one(&sim, &rng);
        cr_assert_eq(b.defender_kills, 32u);
        cr_assert_eq(b.attacker_kills, 24u); /* 40·0.6 = 24 */
    }
}

/* The per-battle blend equals cbd_warapp_blend (W1) on random inputs up to 10^9 armies. */
Test(simulate, fast_blend_matches_reference_blend) {
    cbd_rng rng;
    cbd_rng_seed(&rng, 99);
    for (int i = 0; i < 200000; i++) {
        uint64_t n = cbd_rng_bounded(&rng, i % 2 ? 1000000001u : 200u);
        cbd_micro p = (cbd_micro)cbd_rng_bounded(&rng, 1000001u);
        cbd_micro l = (cbd_micro)cbd_rng_bounded(&rng, 1000001u);
        uint64_t x = cbd_rng_bounded(&rng, n + 1);
        cbd_warapp_settings st = cbd_warapp_default_settings();
        st.offense_kill_rate = p;
        st.luck_modifier = l;
        cbd_warapp_sim sim;
        cbd_warapp_sim_init(&sim, n ? n : 1, 1, &st);
        cbd_kill_value a = cbd_sim_side_blend(&sim.side[0], x);
        cbd_kill_value b = cbd_warapp_blend(n ? n : 1, p, l, x);
        cr_assert(a.whole == b.whole && a.frac == b.frac, "n=%llu p=%u L=%u x=%llu",
                  (unsigned long long)n, p, l, (unsigned long long)x);
    }
}

/* 100 % luck: 1 vs 1 captures iff the attacker hits and the defender misses: 0.6·0.3 = 0.18.
 * 2 vs 2: the attackers need 2 hits (0.36) and the defenders at most 1 (1 − 0.49 = 0.51):
 * 0.36·0.51 = 0.1836. Both within 5 standard errors of 10^6 trials (σ ≈ 0.000387). */
Test(simulate, reference_capture_rates_at_full_luck) {
    setting one = {1, 1, 600000, 700000, 1000000, false};
    setting two = {2, 2, 600000, 700000, 1000000, false};
    const setting *cases[] = {&one, &two};
    const double expect[] = {0.18, 0.1836};
    for (int c = 0; c < 2; c++) {
        cbd_sim_plan plan = make_plan(cases[c]);
        cbd_sim_stats st;
        cbd_sim_stats_init(&st);
        cr_assert_eq(cbd_warapp_sim_blocks(&plan, 42, TRIALS, 0, cbd_sim_block_count(TRIALS), NULL,
                                           &st, NULL),
                     CBD_OK);
        cbd_sim_plan_free(&plan);
        double rate = (double)st.captures / (double)st.trials;
        cr_expect_lt(fabs(rate - expect[c]), 5 * 0.000387, "case %d: %f", c, rate);
        /* 1 vs 1: mutual destruction iff both hit: 0.6·0.7 = 0.42. */
        if (c == 0) {
            double md = (double)st.mutual_destructions / (double)st.trials;
            cr_expect_lt(fabs(md - 0.42), 5 * 0.000494, "md %f", md);
            /* After mutual destruction the resurrected defender is counted as left (W5). */
            cr_expect_eq(cbd_hist_get(&st.defenders_left, 1), st.trials - st.captures);
        }
        cbd_sim_stats_free(&st);
    }
}

/* ---- reproducibility and the draw order ---- */

static void run_split(const cbd_sim_plan *sim, uint64_t seed, uint64_t trials, const uint64_t *cuts,
                      int n_cuts, cbd_sim_stats *out, cbd_sim_record *battles) {
    cbd_sim_stats_init(out);
    for (int i = 0; i + 1 < n_cuts; i++) {
        cbd_sim_stats part;
        cbd_sim_stats_init(&part);
        cr_assert_eq(
            cbd_warapp_sim_blocks(sim, seed, trials, cuts[i], cuts[i + 1], NULL, &part, battles),
            CBD_OK);
        cr_assert_eq(cbd_sim_stats_merge(out, &part, NULL), CBD_OK);
        cbd_sim_stats_free(&part);
    }
}

/* Field by field: the structs have padding that memcmp would read. */
static bool battles_equal(const cbd_sim_record *x, const cbd_sim_record *y, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        const cbd_warapp_outcome *a = &x[i].battle.outcome, *b = &y[i].battle.outcome;
        if (a->captured != b->captured || a->attackers_lost != b->attackers_lost ||
            a->defenders_lost != b->defenders_lost || a->attackers_left != b->attackers_left ||
            a->defenders_left != b->defenders_left ||
            x[i].battle.attacker_kills != y[i].battle.attacker_kills ||
            x[i].battle.defender_kills != y[i].battle.defender_kills || x[i].count != y[i].count ||
            x[i].mutual != y[i].mutual || x[i].attacking_dead != y[i].attacking_dead ||
            x[i].defending_dead != y[i].defending_dead) {
            return false;
        }
    }
    return true;
}

/* Every count of a is b's (values outside a's windows are 0 in a). */
static bool hist_within(const cbd_hist *a, const cbd_hist *b) {
    for (size_t k = 0; k < a->w.n; k++) {
        for (size_t i = 0; i < a->w.w[k].len; i++) {
            uint64_t v = a->w.w[k].lo + i;
            if (cbd_hist_get(a, v) != cbd_hist_get(b, v)) {
                return false;
            }
        }
    }
    return true;
}

static bool hist_equal(const cbd_hist *a, const cbd_hist *b) {
    return hist_within(a, b) && hist_within(b, a);
}

/* Any split of the blocks gives the same battles and the same statistics. */
Test(simulate, split_does_not_change_results) {
    setting s = {100, 60, 600000, 700000, 160000, true};
    cbd_sim_plan sim = make_plan(&s);
    const uint64_t trials = 3 * CBD_SIM_BLOCK + 1234; /* 4 blocks, the last one partial */
    cbd_sim_record *b1 = calloc(trials, sizeof *b1), *b2 = calloc(trials, sizeof *b2);
    cr_assert(b1 && b2);
    const uint64_t whole[] = {0, 4}, pieces[] = {0, 1, 3, 4}, singles[] = {0, 1, 2, 3, 4};
    cbd_sim_stats w, p, q;
    run_split(&sim, 777, trials, whole, 2, &w, b1);
    run_split(&sim, 777, trials, pieces, 4, &p, b2);
    cr_expect(battles_equal(b1, b2, trials));
    run_split(&sim, 777, trials, singles, 5, &q, NULL);
    const cbd_sim_stats *all[] = {&p, &q};
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(all[i]->trials, trials);
        cr_expect_eq(all[i]->captures, w.captures);
        cr_expect_eq(all[i]->mutual_destructions, w.mutual_destructions);
        cr_expect(hist_equal(&all[i]->attackers_left, &w.attackers_left));
        cr_expect(hist_equal(&all[i]->defenders_left, &w.defenders_left));
    }
    /* Another seed gives other battles. */
    cbd_sim_stats o;
    run_split(&sim, 778, trials, whole, 2, &o, b2);
    cr_expect(!battles_equal(b1, b2, trials));
    cbd_sim_stats_free(&w);
    cbd_sim_stats_free(&p);
    cbd_sim_stats_free(&q);
    cbd_sim_stats_free(&o);
    cbd_sim_plan_free(&sim);
    free(b1);
    free(b2);
}

/* The documented draw order: X_a, X_d, then u_a and u_d (only for fractional kills), and block
 * b starts from the seeded generator jumped b times. Replayed here from the primitives. */
Test(simulate, draw_order_is_as_documented) {
    setting s = {100, 60, 600000, 700000, 160000, true};
    cbd_sim_plan sim = make_plan(&s);
    cbd_binomial ba, bd;
    cbd_binomial_init(&ba, 100, 600000);
    cbd_binomial_init(&bd, 60, 700000);
    const uint64_t trials = CBD_SIM_BLOCK + 10;
    cbd_sim_record *battles = calloc(trials, sizeof *battles);
    cr_assert(battles);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 31337, trials, 0, 2, NULL, &st, battles), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 31337);
    for (uint64_t t = 0; t < trials; t++) {
        if (t == CBD_SIM_BLOCK) {
            cbd_rng_seed(&rng, 31337);
            cbd_rng_jump(&rng);
        }
        uint64_t xa = cbd_binomial_draw(&ba, &rng);
        uint64_t xd = cbd_binomial_draw(&bd, &rng);
        cbd_kill_value va = cbd_warapp_blend(100, 600000, 160000, xa);
        cbd_kill_value vd = cbd_warapp_blend(60, 700000, 160000, xd);
        uint64_t ka =
            va.frac ? cbd_round_weighted(va, cbd_rng_bounded(&rng, CBD_KILL_FRAC_ONE)) : va.whole;
        uint64_t kd =
            vd.frac ? cbd_round_weighted(vd, cbd_rng_bounded(&rng, CBD_KILL_FRAC_ONE)) : vd.whole;
        cr_assert_eq(battles[t].battle.attacker_kills, ka, "trial %llu", (unsigned long long)t);
        cr_assert_eq(battles[t].battle.defender_kills, kd, "trial %llu", (unsigned long long)t);
    }
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&sim);
    free(battles);
}

/* A plan's blocks play each battle as cbd_sim_plan_one does, field for field (the blocks take a
 * shorter path for armies alone, and this keeps the two the same), at a setting with mutual
 * destructions (1 v 1 at full luck: both hit with probability 0.42). */
Test(simulate, blocks_play_the_battles_of_plan_one) {
    const setting cases[] = {{100, 60, 600000, 700000, 160000, true},
                             {1, 1, 600000, 700000, 1000000, false}};
    for (int c = 0; c < 2; c++) {
        cbd_sim_plan plan = make_plan(&cases[c]);
        const uint64_t trials = 5000;
        cbd_sim_record *listed = calloc(trials, sizeof *listed), *one = calloc(trials, sizeof *one);
        cr_assert(listed && one);
        cbd_sim_stats st;
        cbd_sim_stats_init(&st);
        cr_assert_eq(cbd_warapp_sim_blocks(&plan, 2718, trials, 0, 1, NULL, &st, listed), CBD_OK);
        cbd_rng rng;
        cbd_rng_seed(&rng, 2718);
        uint64_t mutual = 0;
        for (uint64_t t = 0; t < trials; t++) {
            one[t] = cbd_sim_plan_one(&plan, &rng);
            mutual += one[t].mutual;
        }
        cr_expect(battles_equal(listed, one, trials), "case %d", c);
        cr_expect_eq(st.mutual_destructions, mutual);
        cr_expect(c == 0 || mutual > 1000, "1 v 1 destroys both often: %llu",
                  (unsigned long long)mutual);
        cbd_sim_stats_free(&st);
        cbd_sim_plan_free(&plan);
        free(listed);
        free(one);
    }
}

/* ---- histograms ---- */

Test(simulate, histogram_grows_both_ways_and_merges) {
    cbd_hist h, g;
    cbd_hist_init(&h);
    cbd_hist_init(&g);
    cr_assert_eq(cbd_hist_add(&h, 1000, 2, NULL), CBD_OK);
    cr_assert_eq(cbd_hist_add(&h, 5, 1, NULL), CBD_OK); /* below the window */
    /* Far above it: a window of its own, 64 counts, not 10^9 of them. */
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cr_assert_eq(cbd_hist_add(&h, 1000000000, 1, &b), CBD_OK);
    cr_expect_eq(b.mem_held, 64 * sizeof(cbd_slot)); /* the list had room for a third */
    cr_assert_eq(cbd_hist_add(&g, 0, 4, NULL), CBD_OK);
    cr_assert_eq(cbd_hist_merge(&h, &g, NULL), CBD_OK);
    cr_expect_eq(cbd_hist_get(&h, 1000), 2u);
    cr_expect_eq(cbd_hist_get(&h, 5), 1u);
    cr_expect_eq(cbd_hist_get(&h, 1000000000), 1u);
    cr_expect_eq(cbd_hist_get(&h, 0), 4u);
    cr_expect_eq(cbd_hist_get(&h, 6), 0u);
    cr_expect_eq(cbd_hist_get(&h, 999999999), 0u);
    /* mean = (2·1000 + 5 + 10^9 + 0) / 8 = 1000002005 / 8 = 125000250.625 */
    cr_expect_eq(cbd_hist_mean(&h), 125000250.625);
    cbd_hist_free(&h);
    cbd_hist_free(&g);
}
