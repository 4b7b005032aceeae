/*
 * W33: attack-only and transfer-only orders, and orders that attack teammates, in both engines
 * (the exact analysis and one seeded turn), worked out by hand from docs/rules.md. Every case is
 * at 0 % luck with straight rounding (W1: kills = round(armies × rate), offense 0.6, defense
 * 0.7), so each battle has one outcome and any seed gives the board worked out here.
 */
#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"

static cbd_turn_order only(cbd_turn_player p, uint32_t from, uint32_t to, uint64_t armies,
                           cbd_turn_move_only mode, bool mates) {
    cbd_turn_order o = atk(p, from, to, armies);
    o.only = mode;
    o.attack_teammates = mates;
    return o;
}

static void expect_certain(const cbd_turn_analysis *a, size_t i, cbd_turn_player owner,
                           uint64_t armies) {
    size_t slot = owner == NEUTRAL ? a->n_players : owner;
    cr_expect_float_eq(a->territories[i].owner[slot], 1.0, 1e-12, "territory %zu owner", i);
    cr_expect_eq(a->territories[i].n_armies, 1, "territory %zu: %zu counts", i,
                 a->territories[i].n_armies);
    cr_expect_eq(a->territories[i].armies[0].armies, armies, "territory %zu armies", i);
}

static void sim_one(const cbd_turn *t, cbd_turn_territory *board, cbd_turn_event *ev) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 11);
    cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, board, ev), CBD_OK);
    cbd_turn_sim_free(sim);
}

/*
 * Alice holds A (10) and B (2), bob C (3); listed:
 *  0. A → B 5 attack-only: B is alice's, skipped (A 10, B 2);
 *  1. A → C 5 transfer-only: C is bob's, skipped;
 *  2. A → C 5 attack-only: 5 kill round(3.0) = 3 ≥ 3, lose round(2.1) = 2 < 5: C alice's with 3,
 *     A 5 (5 of its armies still eligible, W15);
 *  3. A → C 2 transfer-only: C is alice's now: min(2, 5 − 1, 5) = 2 arrive: A 3, C 5.
 */
Test(turn_only, w33_attack_only_and_transfer_only_meet_the_owner_when_they_run) {
    cbd_turn_territory b[] = {{ALICE, 10}, {ALICE, 2}, {BOB, 3}};
    cbd_turn_order o[] = {only(ALICE, 0, 1, 5, CBD_ONLY_ATTACK, false),
                          only(ALICE, 0, 2, 5, CBD_ONLY_TRANSFER, false),
                          only(ALICE, 0, 2, 5, CBD_ONLY_ATTACK, false),
                          only(ALICE, 0, 2, 2, CBD_ONLY_TRANSFER, false)};
    cbd_turn t = make(b, 3, o, 4);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, ALICE, 3);
    expect_certain(&a, 1, ALICE, 2);
    expect_certain(&a, 2, ALICE, 5);
    cr_expect_float_eq(a.orders[0].skipped, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[2].attack, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[2].capture, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[3].transfer, 1.0, 1e-12);
    cbd_turn_analysis_free(&a);

    cbd_turn_territory board[3];
    cbd_turn_event ev[4];
    sim_one(&t, board, ev);
    cr_expect_eq(ev[0].kind, CBD_TURN_SKIPPED);
    cr_expect_eq(ev[0].sent, 0);
    cr_expect_eq(ev[1].kind, CBD_TURN_SKIPPED);
    cr_expect_eq(ev[2].kind, CBD_TURN_ATTACKED);
    cr_expect(ev[2].outcome.captured);
    cr_expect_eq(ev[3].kind, CBD_TURN_TRANSFERRED);
    cr_expect_eq(ev[3].sent, 2);
    cr_expect_eq(board[0].armies, 3);
    cr_expect_eq(board[2].owner, ALICE);
    cr_expect_eq(board[2].armies, 5);
}

/*
 * The same orders without W33 (either): 0. transfers 5 (A 5, B 7); 1. sends min(5, 4, 5) = 4 at C:
 * 4 kill round(2.4) = 2 < 3, fail; C kills round(2.1) = 2: A 1 + 2 = 3, C 1; 2. sends
 * min(5, 2, 1) = 1 (one eligible army left of A's 10 − 5 − 4): 1 kills round(0.6) = 1 ≥ 1 and
 * loses round(0.7) = 1, not < 1: both wiped out, C keeps 1 (W5), A 2; 3. A → C 2 sends
 * min(2, 1, 0) = 0: skipped.
 */
Test(turn_only, w33_either_is_the_game_as_before) {
    cbd_turn_territory b[] = {{ALICE, 10}, {ALICE, 2}, {BOB, 3}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 5), atk(ALICE, 0, 2, 5), atk(ALICE, 0, 2, 5),
                          atk(ALICE, 0, 2, 2)};
    cbd_turn t = make(b, 3, o, 4);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, ALICE, 2);
    expect_certain(&a, 1, ALICE, 7);
    expect_certain(&a, 2, BOB, 1);
    cr_expect_float_eq(a.orders[0].transfer, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[3].skipped, 1.0, 1e-12);
    cbd_turn_analysis_free(&a);
}

/*
 * Alice and bob are one team (team 0), carol another. Alice holds A (7), bob B (3), carol C (4).
 *  - A → B 6 attacking teammates: 6 kill round(3.6) = 4 ≥ 3 and lose round(2.1) = 2 < 6: B is
 *    alice's with 4, A 1.
 *  - Without it, a transfer (W8): B bob's with 9, A 1.
 *  - Attack-only without it: skipped (a teammate's is her own side). Transfer-only with it:
 *    skipped (the teammate is attacked, not joined).
 */
Test(turn_only, w33_attacking_a_teammate_instead_of_joining_them) {
    static const uint16_t team[] = {0, 0, 1};
    cbd_turn_territory b[] = {{ALICE, 7}, {BOB, 3}, {CAROL, 4}};
    struct {
        cbd_turn_move_only mode;
        bool mates;
        cbd_turn_player owner;
        uint64_t a_armies, b_armies;
        cbd_turn_event_kind kind;
    } cases[] = {
        {CBD_ONLY_EITHER, true, ALICE, 1, 4, CBD_TURN_ATTACKED},
        {CBD_ONLY_ATTACK, true, ALICE, 1, 4, CBD_TURN_ATTACKED},
        {CBD_ONLY_EITHER, false, BOB, 1, 9, CBD_TURN_TRANSFERRED},
        {CBD_ONLY_TRANSFER, false, BOB, 1, 9, CBD_TURN_TRANSFERRED},
        {CBD_ONLY_ATTACK, false, BOB, 7, 3, CBD_TURN_SKIPPED},
        {CBD_ONLY_TRANSFER, true, BOB, 7, 3, CBD_TURN_SKIPPED},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cbd_turn_order o[] = {only(ALICE, 0, 1, 6, cases[c].mode, cases[c].mates)};
        cbd_turn t = make(b, 3, o, 1);
        t.team = team;
        cbd_turn_analysis a = turn_analyze_ok(&t);
        expect_certain(&a, 0, ALICE, cases[c].a_armies);
        expect_certain(&a, 1, cases[c].owner, cases[c].b_armies);
        expect_certain(&a, 2, CAROL, 4);
        cbd_turn_analysis_free(&a);
        cbd_turn_territory board[3];
        cbd_turn_event ev[1];
        sim_one(&t, board, ev);
        cr_expect_eq(ev[0].kind, cases[c].kind, "case %zu", c);
        cr_expect_eq(board[1].owner, cases[c].owner, "case %zu", c);
        cr_expect_eq(board[1].armies, cases[c].b_armies, "case %zu", c);
    }
}

/*
 * W33 judges the destination when the order runs. Alice holds A (12), bob B (2), carol C (4);
 * listed:
 *  0. carol C → B 3: 3 kill round(1.8) = 2 ≥ 2, lose round(1.4) = 1 < 3: B carol's with 2, C 1;
 *  1. alice A → B 8 attack-only meets carol's B: 8 kill round(4.8) = 5 ≥ 2 and lose round(1.4) =
 *     1 < 8: B alice's with 7, A 4 (4 eligible);
 *  2. alice A → B 2 transfer-only: B is hers now: min(2, 3, 4) = 2 arrive: A 2, B 9.
 */
Test(turn_only, w33_the_destination_is_judged_when_the_order_runs) {
    cbd_turn_territory b[] = {{ALICE, 12}, {BOB, 2}, {CAROL, 4}};
    cbd_turn_order o[] = {atk(CAROL, 2, 1, 3), only(ALICE, 0, 1, 8, CBD_ONLY_ATTACK, false),
                          only(ALICE, 0, 1, 2, CBD_ONLY_TRANSFER, false)};
    cbd_turn t = make(b, 3, o, 3);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, ALICE, 2);
    expect_certain(&a, 1, ALICE, 9);
    expect_certain(&a, 2, CAROL, 1);
    cr_expect_float_eq(a.orders[1].capture, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[2].transfer, 1.0, 1e-12);
    cbd_turn_analysis_free(&a);
}
