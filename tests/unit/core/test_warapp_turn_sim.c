/*
 * Seeded simulated turns agree with the exact analysis (which test_warapp_turn_brute
 * checks against an independent enumeration): chi-square on a territory's owner and armies,
 * z-tests on each order's chances, fixed seeds. And the draw order: same seed, same turns.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "chi_square.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"

/* Three players, random move order, 16 % luck, weighted rounding, multi_attack: every order
 * depends on the ones before it. */
static cbd_turn_territory board[] = {{ALICE, 12}, {BOB, 9}, {CAROL, 7}, {NEUTRAL, 3}};
static cbd_turn_order orders[6];

static cbd_turn make_turn(bool multi, cbd_move_order move) {
    orders[0] = atk(ALICE, 0, 1, 11);
    orders[1] = atk(BOB, 1, 0, 8);
    orders[2] = atk(CAROL, 2, 1, 6);
    orders[3] = atk(ALICE, 1, 3, 20); /* from B: only if alice took it */
    orders[4] = atk(BOB, 1, 3, 5);
    orders[5] = (cbd_turn_order){.type = CBD_ORDER_DEPLOY, .player = CAROL, .to = 2, .armies = 2};
    cbd_turn t = {.n_territories = 4,
                  .territories = board,
                  .n_players = 3,
                  .n_orders = 6,
                  .orders = orders,
                  .multi_attack = multi,
                  .move_order = move};
    t.battle = cbd_warapp_default_settings();
    t.battle.luck_modifier = 160000;
    t.battle.rounding = CBD_ROUND_WEIGHTED;
    return t;
}

#define TRIALS 400000

static void check(bool multi, cbd_move_order move, uint64_t seed) {
    cbd_turn t = make_turn(multi, move);
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK);
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, seed);
    static uint64_t owner_n[4][4], armies_n[4][64], stat[6][4];
    memset(owner_n, 0, sizeof owner_n);
    memset(armies_n, 0, sizeof armies_n);
    memset(stat, 0, sizeof stat);
    for (int i = 0; i < TRIALS; i++) {
        cbd_turn_territory out[4];
        cbd_turn_event ev[6];
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, out, ev), CBD_OK);
        for (int k = 0; k < 4; k++) {
            owner_n[k][out[k].owner == NEUTRAL ? 3 : out[k].owner]++;
            cr_assert_lt(out[k].armies, 64);
            armies_n[k][out[k].armies]++;
        }
        for (int o = 0; o < 5; o++) {
            stat[o][0] += ev[o].kind == CBD_TURN_SKIPPED;
            stat[o][1] += ev[o].kind == CBD_TURN_ATTACKED;
            stat[o][2] += ev[o].kind == CBD_TURN_TRANSFERRED;
            stat[o][3] += ev[o].kind == CBD_TURN_ATTACKED && ev[o].outcome.captured;
        }
    }
    for (int k = 0; k < 4; k++) {
        long double po[4], pa[64] = {0};
        for (int p = 0; p < 4; p++) {
            po[p] = a.territories[k].owner[p];
        }
        for (size_t i = 0; i < a.territories[k].n_armies; i++) {
            pa[a.territories[k].armies[i].armies] = a.territories[k].armies[i].probability;
        }
        chi_square_result r = chi_square_test(owner_n[k], po, 4, TRIALS);
        cr_expect_lt(r.statistic, r.critical, "territory %d owner: chi2 %g df %d", k, r.statistic,
                     r.df);
        r = chi_square_test(armies_n[k], pa, 64, TRIALS);
        cr_expect_lt(r.statistic, r.critical, "territory %d armies: chi2 %g df %d", k, r.statistic,
                     r.df);
    }
    for (int o = 0; o < 5; o++) {
        const cbd_turn_order_result *x = &a.orders[o];
        double want[4] = {x->skipped, x->attack, x->transfer, x->capture};
        for (int s = 0; s < 4; s++) {
            double var = want[s] * (1 - want[s]);
            double sd = sqrt(var > 0 ? var / TRIALS : 0) + 1e-9;
            double z = ((double)stat[o][s] / TRIALS - want[s]) / sd;
            cr_expect_lt(fabs(z), 4.5, "order %d stat %d: %g vs %g", o, s,
                         (double)stat[o][s] / TRIALS, want[s]);
        }
    }
    cr_expect_not(a.deterministic);
    cbd_turn_sim_free(sim);
    cbd_turn_analysis_free(&a);
}

Test(turn_freq, random_multi_attack) {
    check(true, CBD_MOVE_RANDOM, 7);
}

Test(turn_freq, random_single_moves) {
    check(false, CBD_MOVE_RANDOM, 8);
}

Test(turn_freq, listed) {
    check(false, CBD_MOVE_LISTED, 9);
}

/* The random move order's shuffle (documented in warapp_turn.h) comes first from the stream:
 * replaying it from the primitives must pick round 1's player as the simulator did. With one
 * order each and 0 % luck the battles draw nothing, so the first mover's capture shows it. */
Test(turn_freq, shuffle_draw_order) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 10}, {CAROL, 10}, {NEUTRAL, 0}};
    cbd_turn_order o[] = {atk(ALICE, 0, 3, 1), atk(BOB, 1, 3, 1), atk(CAROL, 2, 3, 1)};
    cbd_turn t = {.n_territories = 4,
                  .territories = b,
                  .n_players = 3,
                  .n_orders = 3,
                  .orders = o,
                  .move_order = CBD_MOVE_RANDOM};
    t.battle = cbd_warapp_default_settings();
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    for (uint64_t seed = 0; seed < 200; seed++) {
        cbd_rng r1, r2;
        cbd_rng_seed(&r1, seed);
        cbd_rng_seed(&r2, seed);
        int perm[3] = {0, 1, 2};
        for (int i = 2; i > 0; i--) {
            int j = (int)cbd_rng_bounded(&r2, (uint64_t)i + 1), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        cbd_turn_territory out[4];
        cbd_turn_event ev[3];
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &r1, out, ev), CBD_OK);
        cr_assert_eq(out[3].owner, perm[0], "seed %d", (int)seed);
        cr_assert(ev[perm[0]].outcome.captured);
        cr_assert_eq(memcmp(&r1, &r2, sizeof r1), 0);
    }
    cbd_turn_sim_free(sim);
}
