/*
 * Turns with cards and maps (W24–W30) against the brute force written from docs/rules.md's text
 * in warapp_turn_cards_brute.h. The oracle's own checks run always: on card-free turns (deploys,
 * maps, units, fog, every move order) it must agree with the core's analysis to 1e-12; on turns
 * with every card its answers are distributions; its schedules are the ones W30's example lists;
 * and each ruling's worked example in docs/rules.md comes out of it with the numbers worked by
 * hand there (test_warapp_turn_cards.c). The core's analysis is held to the same: random turns
 * with every card (with units and fog, under each move order) to 1e-12, and seeded turns against
 * the analysis by chi-square.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "chi_square.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_cards_cases.h"

enum { ALICE = 0, BOB = 1, CAROL = 2, NEUTRAL_P = -1 };

Test(turn_cards_brute, w24_card_free_turns_agree_with_the_engine, .timeout = 240) {
    uint64_t seed = 20261203;
    int maps = 0, fogged = 0, cycles = 0, deploys = 0;
    for (int k = 0; k < 600; k++) {
        static cb_case c;
        cb_random_case(&c, &seed, false);
        cbd_turn_limits lim = cbd_turn_default_limits();
        cbd_turn_analysis a;
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_analyze(&c.turn, &lim, NULL, &a, &err), CBD_OK,
                     "case %d: kind %d index %zu", k, err.kind, err.index);
        static cb_res r;
        cb_brute(&c, &r);
        cb_compare(&c, &a, &r, k);
        cbd_turn_analysis_free(&a);
        maps += c.turn.neighbor_off != NULL;
        fogged += c.turn.fog != NULL;
        cycles += c.turn.move_order == CBD_MOVE_CYCLE;
        for (size_t o = 0; o < c.turn.n_orders; o++) {
            deploys += c.ord[o].type == CBD_ORDER_DEPLOY;
        }
    }
    cr_log_info("600 card-free turns: %d maps, %d fogged, %d cycles, %d deploys", maps, fogged,
                cycles, deploys);
    cr_expect_gt(maps, 200, "%d", maps);
    cr_expect_gt(fogged, 120, "%d", fogged);
    cr_expect_gt(cycles, 120, "%d", cycles);
    cr_expect_gt(deploys, 300, "%d", deploys);
}

/* The oracle on turns with cards: every territory's owner and armies, and every order's
 * outcomes, are distributions; the cards reach what they test. */
Test(turn_cards_brute, w25_w30_the_oracle_answers_distributions_with_cards, .timeout = 240) {
    uint64_t seed = 20261204;
    int ran[CBD_ORDER_DELAY + 1] = {0}, skipped[CBD_ORDER_DELAY + 1] = {0};
    for (int k = 0; k < 600; k++) {
        static cb_case c;
        cb_random_case(&c, &seed, true);
        static cb_res r;
        cb_brute(&c, &r);
        for (size_t t = 0; t < c.turn.n_territories; t++) {
            long double so = 0, sa = 0;
            for (size_t p = 0; p <= c.turn.n_players; p++) {
                so += r.owner[t][p];
            }
            for (size_t v = 0; v <= CB_A; v++) {
                sa += r.armies[t][v];
            }
            cr_assert_float_eq((double)so, 1.0, 1e-12, "case %d territory %zu", k, t);
            cr_assert_float_eq((double)sa, 1.0, 1e-12, "case %d territory %zu", k, t);
        }
        for (size_t o = 0; o < c.turn.n_orders; o++) {
            const long double *w = r.ostat[o];
            cbd_turn_order_type type = c.ord[o].type;
            if (type == CBD_ORDER_ATTACK_TRANSFER) {
                cr_assert_float_eq((double)(w[0] + w[1] + w[2]), 1.0, 1e-12, "case %d", k);
            } else if (cb_is_card(type) && cb_phase(type) >= 0) {
                cr_assert(w[0] >= 0 && w[0] <= 1 + 1e-12L && w[1] == 0 && w[2] == 0);
                ran[type] += w[0] < 1 - 1e-12L;
                skipped[type] += w[0] > 1e-12L;
            }
        }
    }
    for (int type = CBD_ORDER_BOMB; type <= CBD_ORDER_GIFT; type++) {
        cr_log_info("card %d: ran in %d turns, skipped in %d", type, ran[type], skipped[type]);
        cr_expect_gt(ran[type], 20, "type %d ran %d", type, ran[type]);
        cr_expect_gt(skipped[type], 10, "type %d skipped %d", type, skipped[type]);
    }
}

/* W24–W30: random turns with every card, with units, fog and maps, under each move order,
 * against the brute force to 1e-12. */
Test(turn_cards_brute, w24_w30_turns_with_cards_agree_with_the_brute_force, .timeout = 240) {
    uint64_t seed = 20261205;
    int with[CBD_ORDER_DELAY + 1] = {0}, fog_cards = 0, unit_cards = 0, moves[3] = {0};
    for (int k = 0; k < 800; k++) {
        static cb_case c;
        cb_random_case(&c, &seed, true);
        cbd_turn_limits lim = cbd_turn_default_limits();
        cbd_turn_analysis a;
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_analyze(&c.turn, &lim, NULL, &a, &err), CBD_OK,
                     "case %d: kind %d index %zu", k, err.kind, err.index);
        static cb_res r;
        cb_brute(&c, &r);
        cb_compare(&c, &a, &r, k);
        cbd_turn_analysis_free(&a);
        int cards = 0;
        for (size_t o = 0; o < c.turn.n_orders; o++) {
            with[c.ord[o].type]++;
            cards += cb_is_card(c.ord[o].type);
        }
        fog_cards += cards > 0 && c.turn.fog != NULL;
        unit_cards += cards > 0 && c.turn.n_units > 0;
        moves[c.turn.move_order] += cards > 0;
    }
    for (int type = CBD_ORDER_BOMB; type <= CBD_ORDER_DELAY; type++) {
        cr_expect_gt(with[type], 60, "type %d: %d", type, with[type]);
    }
    cr_expect_gt(fog_cards, 100, "%d", fog_cards);
    cr_expect_gt(unit_cards, 300, "%d", unit_cards);
    for (int m = 0; m < 3; m++) {
        cr_expect_gt(moves[m], 100, "move order %d: %d", m, moves[m]);
    }
}

/*
 * Seeded turns with cards against the exact analysis (chi-square, fixed seed): a map, 100 %
 * luck, weighted rounding, the random move order, bob's Commander; a bomb, an airlift, an
 * emergency blockade, a gift, a blockade and bob's Order Priority around three attacks.
 * Cells: who owns B and how many armies A holds at the end, and whether alice's A → D ran
 * (the blockade of A always runs here: bob's 3 eligible attackers cannot take A's 12).
 */
Test(turn_cards_brute, w24_w30_seeded_turns_with_cards_agree_with_the_analysis) {
    static cb_case c;
    cbd_turn_territory terr[4] = {{ALICE, 12}, {BOB, 6}, {BOB, 4}, {CBD_TURN_NEUTRAL, 3}};
    cb_example(&c, 4, terr, 2);
    cb_borders_of(&c, "01 12 23 03");
    c.units[0] = (cbd_turn_unit){cbd_warapp_commander(), true, 2};
    c.turn.n_units = 1;
    c.turn.battle.luck_modifier = 1000000;
    c.turn.battle.rounding = CBD_ROUND_WEIGHTED;
    c.turn.move_order = CBD_MOVE_RANDOM;
    cb_add(&c, cb_move(ALICE, 0, 1, 10));
    cb_add(&c, cb_card_order(CBD_ORDER_BOMB, ALICE, 1));
    cbd_turn_order lift = {
        .type = CBD_ORDER_AIRLIFT, .player = BOB, .from = 2, .to = 1, .armies = 2};
    cb_add(&c, lift);
    cb_add(&c, cb_move(BOB, 1, 0, 4));
    cb_add(&c, cb_card_order(CBD_ORDER_BLOCKADE, ALICE, 0));
    cb_add(&c, cb_card_order(CBD_ORDER_PRIORITY, BOB, 0));
    cb_add(&c, cb_move(ALICE, 0, 3, 3));
    cbd_turn_order gift = cb_card_order(CBD_ORDER_GIFT, BOB, 2);
    gift.to_player = ALICE;
    cb_add(&c, gift);
    cb_add(&c, cb_card_order(CBD_ORDER_EMERGENCY_BLOCKADE, ALICE, 3));
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cbd_turn_analysis a;
    cr_assert_eq(cbd_turn_analyze(&c.turn, &lim, NULL, &a, &err), CBD_OK);
    static cb_res r;
    cb_brute(&c, &r);
    cb_compare(&c, &a, &r, 0);
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(&c.turn, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 28282828);
    enum { TRIALS = 40000 };
    uint64_t owner_b[3] = {0}, armies_a[CB_A + 1] = {0}, blockade[2] = {0};
    for (int i = 0; i < TRIALS; i++) {
        cbd_turn_territory out[4];
        cbd_turn_event ev[CB_O];
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, out, ev), CBD_OK);
        owner_b[out[1].owner == CBD_TURN_NEUTRAL ? 2 : out[1].owner]++;
        cr_assert(out[0].armies <= CB_A);
        armies_a[out[0].armies]++;
        blockade[ev[6].kind == CBD_TURN_SKIPPED]++;
    }
    long double po[3], pa[CB_A + 1] = {0}, pb[2];
    for (int i = 0; i < 3; i++) {
        po[i] = a.territories[1].owner[i];
    }
    for (size_t j = 0; j < a.territories[0].n_armies; j++) {
        pa[a.territories[0].armies[j].armies] = a.territories[0].armies[j].probability;
    }
    cr_expect_float_eq(a.orders[4].skipped, 0.0, 1e-12, "the blockade of A always runs");
    pb[1] = a.orders[6].skipped;
    pb[0] = 1.0L - pb[1];
    chi_square_result x[3] = {chi_square_test(owner_b, po, 3, TRIALS),
                              chi_square_test(armies_a, pa, CB_A + 1, TRIALS),
                              chi_square_test(blockade, pb, 2, TRIALS)};
    for (int i = 0; i < 3; i++) {
        cr_log_info("chi-square %d: %.3f on %d df (critical %.3f)", i, x[i].statistic, x[i].df,
                    x[i].critical);
        cr_expect_lt(x[i].statistic, x[i].critical, "family %d", i);
        cr_expect_gt(x[i].df, 0, "family %d", i);
    }
    cbd_turn_sim_free(sim);
    cbd_turn_analysis_free(&a);
}
