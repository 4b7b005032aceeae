/*
 * Turns with special units (W17–W20, units moved by id W21, elimination W22) against the brute
 * force written from the rules' text in warapp_turn_brute.h. Random small turns, compared to
 * 1e-12: each territory's owner and armies, each order's chances, each unit's place and each
 * player's elimination; those with one outcome also against one seeded resolution. Then seeded
 * turns against the analysis (chi-square, fixed seed). Fog with units:
 * test_warapp_turn_units_fog.c.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "chi_square.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_brute.h"

/* At 0 % luck with straight rounding and the listed order a turn has one outcome: one seeded
 * resolution must end on the brute force's board, units and eliminations included. */
static void sim_matches(const bcase *c, const bres *r, int k) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(&c->turn, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, (uint64_t)k);
    cbd_turn_territory out[BT];
    cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, out, NULL), CBD_OK);
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        size_t slot = out[t].owner == NEUTRAL_ID ? c->turn.n_players : out[t].owner;
        cr_assert_float_eq((double)r->owner[t][slot], 1.0, 1e-12, "case %d territory %zu", k, t);
        cr_assert_float_eq((double)r->armies[t][out[t].armies], 1.0, 1e-12, "case %d armies %zu", k,
                           t);
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        uint32_t at = cbd_turn_sim_unit_at(sim)[u];
        long double alive = 0;
        for (size_t t = 0; t < c->turn.n_territories; t++) {
            alive += r->unit_at[u][t];
        }
        double want = at == CBD_TURN_UNIT_DEAD ? 1.0 - (double)alive : (double)r->unit_at[u][at];
        cr_assert_float_eq(want, 1.0, 1e-12, "case %d unit %zu", k, u);
    }
    for (size_t p = 0; p < c->turn.n_players; p++) {
        cr_assert_float_eq((double)r->eliminated[p], cbd_turn_sim_eliminated(sim)[p] ? 1.0 : 0.0,
                           1e-12, "case %d player %zu", k, p);
    }
    cbd_turn_sim_free(sim);
}

Test(turn_units_brute, random_small_turns_with_units, .timeout = 120) {
    uint64_t seed = 20261201;
    int eliminations = 0, unit_battles = 0, sims = 0;
    for (int k = 0; k < 1000; k++) {
        bcase c;
        random_case(&c, &seed);
        cbd_turn_limits lim = cbd_turn_default_limits();
        cbd_turn_analysis a;
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_analyze(&c.turn, &lim, NULL, &a, &err), CBD_OK,
                     "case %d: kind %d index %zu", k, err.kind, err.index);
        static bres r;
        brute(&c, &r);
        compare(&c, &a, &r, k);
        for (size_t p = 0; p < c.turn.n_players; p++) {
            eliminations += r.eliminated[p] > 0;
        }
        for (size_t o = 0; o < c.turn.n_orders; o++) {
            unit_battles += r.ostat[o][1] > 0 && c.ord[o].n_units > 0;
        }
        if (c.turn.battle.luck_modifier == 0 && c.turn.battle.rounding == CBD_ROUND_STRAIGHT &&
            c.turn.move_order == CBD_MOVE_LISTED) {
            sim_matches(&c, &r, k);
            sims++;
        }
        cbd_turn_analysis_free(&a);
    }
    /* The cases must reach what they test: eliminations and attacks that list units. */
    cr_expect_gt(eliminations, 60, "%d", eliminations);
    cr_expect_gt(unit_battles, 200, "%d", unit_battles);
    cr_expect_gt(sims, 50, "%d", sims);
    cr_log_info("1000 turns: %d with an elimination, %d attacks listing units, %d resolved",
                eliminations, unit_battles, sims);
}

/*
 * Seeded turns against the exact analysis, with units: a Commander on each side, 100 % luck,
 * weighted rounding, the random move order. Cells: where Alice's Commander ends (each
 * territory or dead), who owns T2 at the end, and whether Bob is eliminated.
 */
Test(turn_units_brute, seeded_turns_agree_with_the_analysis) {
    cbd_turn_territory board[4] = {{0, 12}, {1, 2}, {1, 4}, {0, 3}};
    cbd_turn_unit units[2] = {{cbd_warapp_commander(), true, 1}, {cbd_warapp_commander(), true, 3}};
    uint32_t alice_cmdr[1] = {1};
    cbd_turn_order ord[3] = {
        {.type = CBD_ORDER_ATTACK_TRANSFER, .player = 0, .from = 0, .to = 1, .armies = 11},
        {.type = CBD_ORDER_ATTACK_TRANSFER, .player = 1, .from = 2, .to = 3, .armies = 3},
        {.type = CBD_ORDER_ATTACK_TRANSFER,
         .player = 0,
         .from = 3,
         .to = 2,
         .armies = 2,
         .n_units = 1,
         .units = alice_cmdr},
    };
    cbd_turn t = {.n_territories = 4,
                  .territories = board,
                  .n_players = 2,
                  .n_orders = 3,
                  .orders = ord,
                  .move_order = CBD_MOVE_RANDOM,
                  .n_units = 2,
                  .units = units};
    t.battle = cbd_warapp_default_settings();
    t.battle.luck_modifier = 1000000;
    t.battle.rounding = CBD_ROUND_WEIGHTED;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cbd_turn_analysis a;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK);
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 424242);
    enum { TRIALS = 40000 };
    uint64_t where[5] = {0}, owner2[3] = {0}, bob_out[2] = {0};
    for (int i = 0; i < TRIALS; i++) {
        cbd_turn_territory out[4];
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, out, NULL), CBD_OK);
        uint32_t at = cbd_turn_sim_unit_at(sim)[1];
        where[at == CBD_TURN_UNIT_DEAD ? 4 : at]++;
        owner2[out[2].owner == CBD_TURN_NEUTRAL ? 2 : out[2].owner]++;
        bob_out[cbd_turn_sim_eliminated(sim)[1] ? 1 : 0]++;
    }
    long double pw[5], po[3], pb[2];
    for (int i = 0; i < 4; i++) {
        pw[i] = a.units[1].territory[i];
    }
    pw[4] = 1.0L - a.units[1].alive;
    for (int i = 0; i < 3; i++) {
        po[i] = a.territories[2].owner[i];
    }
    pb[1] = a.eliminated[1];
    pb[0] = 1.0L - pb[1];
    cr_assert(pb[1] > 0.05 && pb[1] < 0.95, "Bob's elimination is uncertain: %g", (double)pb[1]);
    chi_square_result r[3] = {chi_square_test(where, pw, 5, TRIALS),
                              chi_square_test(owner2, po, 3, TRIALS),
                              chi_square_test(bob_out, pb, 2, TRIALS)};
    for (int i = 0; i < 3; i++) {
        cr_log_info("chi-square %d: %.3f on %d df (critical %.3f)", i, r[i].statistic, r[i].df,
                    r[i].critical);
        cr_expect_lt(r[i].statistic, r[i].critical, "family %d", i);
        cr_expect_gt(r[i].df, 0, "family %d", i);
    }
    cbd_turn_sim_free(sim);
    cbd_turn_analysis_free(&a);
}
