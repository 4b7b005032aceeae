/*
 * W48's armies with owner and armies taken jointly, on a board worked out by hand (0 % luck,
 * 60/70, straight round, W13 `random` move order): alice holds A (10) and C (1), bob B (6);
 * borders A-B and A-C. Alice transfers 9 from A to C, bob attacks A from B with 5. Each player
 * has one order, so each goes first with chance ½:
 * - alice first: A keeps 1 and C gets 9 (10); bob's 5 kill round(3) = 3 ≥ 1 and lose
 *   round(0.7) = 1: A is bob's with 4, B keeps 1;
 * - bob first: A's 10 kill round(7) = 7 ≥ 5 attackers and lose round(3) = 3, so A holds 7 and
 *   B keeps 1; alice's transfer of 9 moves the 6 A may spare (W14.3): A 1, C 7.
 * A ends alice's with 1 or bob's with 4: its mean armies are 2.5, but alice holds 0.5 of them on
 * average and bob 2. The product of the marginals (½ · 2.5 each) would credit alice with the
 * armies bob moved in.
 */
#include <criterion/criterion.h>

#include "combatd/warapp_plan_position.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"

enum { A, B, C, TERRITORIES };

static const cbd_turn_territory terr[TERRITORIES] = {{ALICE, 10}, {BOB, 6}, {ALICE, 1}};
/* A: B C; B: A; C: A */
static const uint32_t off[TERRITORIES + 1] = {0, 2, 3, 4};
static const uint32_t nb[4] = {B, C, A, A};

#define EPS 1e-12

static cbd_turn race(const cbd_turn_order *orders) {
    cbd_turn t = make(terr, TERRITORIES, orders, 2);
    t.n_players = 2;
    t.move_order = CBD_MOVE_RANDOM;
    t.neighbor_off = off;
    t.neighbors = nb;
    return t;
}

Test(plan_position_joint, w48_owned_armies_are_the_armies_each_owner_holds) {
    const cbd_turn_order o[2] = {atk(ALICE, A, C, 9), atk(BOB, B, A, 5)};
    cbd_turn t = race(o);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    const cbd_turn_territory_result *ra = &a.territories[A];
    cr_expect_float_eq(ra->owner[ALICE], 0.5, EPS);
    cr_expect_float_eq(ra->owner[BOB], 0.5, EPS);
    cr_expect_float_eq(ra->mean_armies, 2.5, EPS);
    cr_expect_float_eq(ra->owned_armies[ALICE], 0.5, EPS);
    cr_expect_float_eq(ra->owned_armies[BOB], 2.0, EPS);
    cr_expect_float_eq(ra->owned_armies[a.n_players], 0.0, EPS); /* neutral */
    cr_expect_float_eq(a.territories[C].owned_armies[ALICE], 8.5, EPS);
    cr_expect_float_eq(a.territories[B].owned_armies[BOB], 1.0, EPS);
    cr_expect_float_eq(a.territories[B].owned_armies[ALICE], 0.0, EPS);
    cbd_turn_analysis_free(&a);
}

/* W48's parts, base income 5, no bonus: alice's armies 0.5 + 8.5 = 9 (9.75 by the product),
 * territories ½ + 1; bob's armies 2 + 1 = 3 (2.25 by the product), territories ½ + 1. */
Test(plan_position_joint, w48_armies_count_what_each_player_holds) {
    const cbd_turn_order o[2] = {atk(ALICE, A, C, 9), atk(BOB, B, A, 5)};
    cbd_turn t = race(o);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    unsigned char scratch[TERRITORIES] = {0};
    cbd_position_parts alice, bob;
    cbd_plan_position_parts(&t, &a, 5, ALICE, scratch, &alice);
    cbd_plan_position_parts(&t, &a, 5, BOB, scratch, &bob);
    cr_expect_float_eq(alice.armies, 9.0, EPS);
    cr_expect_float_eq(alice.territories, 1.5, EPS);
    cr_expect_float_eq(alice.income, 5.0, EPS);
    cr_expect_float_eq(bob.armies, 3.0, EPS);
    cr_expect_float_eq(bob.territories, 1.5, EPS);
    /* S = 3 · 5 + ½ · armies + ½ · territories: 15 + 4.5 + 0.75 and 15 + 1.5 + 0.75. */
    cr_expect_float_eq(cbd_plan_position_standing(&alice), 20.25, EPS);
    cr_expect_float_eq(cbd_plan_position_standing(&bob), 17.25, EPS);
    cr_expect_float_eq(cbd_plan_position_score(&t, &a, 5, ALICE, scratch), 3.0, EPS);
    cbd_turn_analysis_free(&a);
}
