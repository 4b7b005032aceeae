/*
 * Each card's steps in the core (W24–W30), worked out by hand from docs/rules.md. Every case
 * is at 0 % luck with straight rounding (W1: kills = round(power × rate), offense 0.6, defense
 * 0.7), so each battle has one outcome, and both the exact analysis and one seeded turn must
 * give the board worked out here; fog cases weigh their counts by hand.
 */
#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"

static cbd_turn_order card(cbd_turn_order_type type, cbd_turn_player p, uint32_t target) {
    cbd_turn_order o = {.type = type, .player = p, .to = target};
    return o;
}

static cbd_turn turn_of(const cbd_turn_territory *t, size_t nt, const cbd_turn_order *o,
                        size_t no) {
    cbd_turn turn = make(t, nt, o, no);
    turn.blockade_multiplier = CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER;
    turn.emergency_blockade_multiplier = CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER;
    return turn;
}

/* The analysis of a turn, which must be valid. */
/* W16: territory i ends with `owner` and `armies` for certain. */
static void expect_certain(const cbd_turn_analysis *a, size_t i, cbd_turn_player owner,
                           uint64_t armies) {
    size_t slot = owner == NEUTRAL ? a->n_players : owner;
    cr_expect_float_eq(a->territories[i].owner[slot], 1.0, 1e-12, "territory %zu owner", i);
    cr_expect_eq(a->territories[i].n_armies, 1, "territory %zu: %zu counts", i,
                 a->territories[i].n_armies);
    cr_expect_eq(a->territories[i].armies[0].armies, armies, "territory %zu armies", i);
}

/* One seeded turn (0 % luck: the same board whatever the seed), with its events. */
static void sim_one(const cbd_turn *t, cbd_turn_territory *board, cbd_turn_event *ev) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 7);
    cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, board, ev), CBD_OK);
    cbd_turn_sim_free(sim);
}

Test(turn_card_steps, w25_a_bomb_halves_9_to_4_and_skips_its_own_side) {
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 9}, {ALICE, 6}};
    cbd_turn_order o[] = {card(CBD_ORDER_BOMB, ALICE, 1), card(CBD_ORDER_BOMB, ALICE, 2)};
    cbd_turn t = turn_of(b, 3, o, 2);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 1, BOB, 4); /* floor(9 / 2) */
    expect_certain(&a, 2, ALICE, 6);
    cr_expect_float_eq(a.orders[0].skipped, 0.0, 1e-12);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-12); /* her own territory */
    cr_expect_float_eq(a.orders[0].attack + a.orders[0].transfer + a.orders[0].capture, 0, 0);
    cbd_turn_territory out[3];
    cbd_turn_event ev[2];
    sim_one(&t, out, ev);
    cr_expect_eq(out[1].armies, 4);
    cr_expect_eq(ev[0].kind, CBD_TURN_PLAYED);
    cr_expect_eq(ev[1].kind, CBD_TURN_SKIPPED);
    cbd_turn_analysis_free(&a);
}

/* W25 with W17 and W24: on a map a bomb needs a border with the bomber; the bombed
 * Commander's territory is halved and the Commander stands (docs/rules.md's example). */
Test(turn_card_steps, w25_a_bombed_commanders_territory_keeps_its_commander) {
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 7}, {BOB, 9}};
    uint32_t off[] = {0, 1, 3, 4}, nb[] = {1, 0, 2, 1}; /* A–B, B–C */
    cbd_turn_unit u[] = {{cbd_warapp_commander(), true, 1}};
    cbd_turn_order o[] = {card(CBD_ORDER_BOMB, ALICE, 1), card(CBD_ORDER_BOMB, ALICE, 2),
                          atk(BOB, 1, 0, 6)};
    cbd_turn t = turn_of(b, 3, o, 3);
    t.neighbor_off = off;
    t.neighbors = nb;
    t.n_units = 1;
    t.units = u;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    /* B keeps 3, C (no border with alice) 9; bob sends min(6, 3 − 1) = 2: they kill
     * round(1.2) = 1 and lose round(3.5) = 4, every attacker: A keeps 4, B 1. */
    expect_certain(&a, 0, ALICE, 4);
    expect_certain(&a, 1, BOB, 1);
    expect_certain(&a, 2, BOB, 9);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-12);
    cr_expect_float_eq(a.units[0].territory[1], 1.0, 1e-12);
    cbd_turn_territory out[3];
    cbd_turn_event ev[3];
    sim_one(&t, out, ev);
    cr_expect_eq(out[1].armies, 1);
    cr_expect_eq(out[0].armies, 4);
    cbd_turn_analysis_free(&a);
}

Test(turn_card_steps, w26_a_blockade_of_5_at_3_is_neutral_15) {
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 2}};
    cbd_turn_order o[] = {card(CBD_ORDER_BLOCKADE, ALICE, 0)};
    cbd_turn t = turn_of(b, 2, o, 1);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, NEUTRAL, 15);
    cbd_turn_analysis_free(&a);
    t.blockade_multiplier = 2500000; /* floor(5 × 2.5) */
    a = turn_analyze_ok(&t);
    expect_certain(&a, 0, NEUTRAL, 12);
    cbd_turn_territory out[2];
    cbd_turn_event ev[1];
    sim_one(&t, out, ev);
    cr_expect_eq(out[0].owner, NEUTRAL);
    cr_expect_eq(out[0].armies, 12);
    cbd_turn_analysis_free(&a);
}

/* W26's example: the emergency blockade runs before the attacks, the blockade after. */
Test(turn_card_steps, w26_emergency_blockade_first_blockade_last) {
    cbd_turn_territory b[] = {{ALICE, 4}, {ALICE, 6}, {BOB, 5}};
    cbd_turn_order o[] = {card(CBD_ORDER_BLOCKADE, ALICE, 1), atk(BOB, 2, 1, 5),
                          atk(ALICE, 0, 1, 3), card(CBD_ORDER_EMERGENCY_BLOCKADE, ALICE, 0)};
    cbd_turn t = turn_of(b, 3, o, 4);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, NEUTRAL, 12); /* 4 · 3 */
    expect_certain(&a, 1, NEUTRAL, 12); /* bob's 4 die, B keeps 4, then 4 · 3 */
    expect_certain(&a, 2, BOB, 1);
    cr_expect_float_eq(a.orders[2].skipped, 1.0, 1e-12); /* A is no longer hers */
    cbd_turn_territory out[3];
    cbd_turn_event ev[4];
    sim_one(&t, out, ev);
    cr_expect_eq(out[0].armies, 12);
    cr_expect_eq(out[1].armies, 12);
    cr_expect_eq(ev[2].kind, CBD_TURN_SKIPPED);
    cbd_turn_analysis_free(&a);
}

/* W26 with W17, W23: no blockade where a unit stands; under fog each count is multiplied. */
Test(turn_card_steps, w26_blockades_with_a_unit_and_under_fog) {
    cbd_turn_territory b[] = {{ALICE, 4}, {ALICE, 4}};
    cbd_warapp_count pts[] = {{2, 0.25}, {4, 0.75}};
    cbd_turn_fog fog[] = {{0, NULL}, {2, pts}};
    cbd_turn_unit u[] = {{cbd_warapp_commander(), true, 0}};
    cbd_turn_order o[] = {card(CBD_ORDER_BLOCKADE, ALICE, 0), card(CBD_ORDER_BLOCKADE, ALICE, 1)};
    cbd_turn t = turn_of(b, 2, o, 2);
    t.fog = fog;
    t.n_units = 1;
    t.units = u;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, ALICE, 4);
    cr_expect_float_eq(a.orders[0].skipped, 1.0, 1e-12);
    cr_expect_float_eq(a.territories[1].owner[a.n_players], 1.0, 1e-12);
    cr_assert_eq(a.territories[1].n_armies, 2);
    cr_expect_eq(a.territories[1].armies[0].armies, 6);
    cr_expect_float_eq(a.territories[1].armies[0].probability, 0.25, 1e-12);
    cr_expect_eq(a.territories[1].armies[1].armies, 12);
    cr_expect_float_eq(a.territories[1].mean_armies, 0.25 * 6 + 0.75 * 12, 1e-12);
    cbd_turn_analysis_free(&a);
}

/* W27's example: the airlifted armies are not eligible; with multi_attack they are. */
Test(turn_card_steps, w27_an_airlift_moves_armies_that_may_not_move_again) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 7}, {ALICE, 2}};
    uint32_t off[] = {0, 1, 3, 4}, nb[] = {1, 0, 2, 1}; /* A–B, B–C */
    cbd_turn_order lift = {
        .type = CBD_ORDER_AIRLIFT, .player = ALICE, .from = 0, .to = 2, .armies = 6};
    cbd_turn_order o[] = {lift, atk(ALICE, 2, 1, 7)};
    cbd_turn t = turn_of(b, 3, o, 2);
    t.neighbor_off = off;
    t.neighbors = nb;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    /* C holds 8, 2 eligible: 2 attack 7, kill 1, lose round(4.9) = 5. */
    expect_certain(&a, 0, ALICE, 4);
    expect_certain(&a, 1, BOB, 6);
    expect_certain(&a, 2, ALICE, 6);
    cbd_turn_territory out[3];
    cbd_turn_event ev[2];
    sim_one(&t, out, ev);
    cr_expect_eq(ev[0].kind, CBD_TURN_PLAYED);
    cr_expect_eq(ev[0].sent, 6);
    cr_expect_eq(ev[1].sent, 2);
    cbd_turn_analysis_free(&a);
    t.multi_attack = true; /* 7 attack 7: kill 4, lose 5: B keeps 3, C 1 + 2 */
    a = turn_analyze_ok(&t);
    expect_certain(&a, 1, BOB, 3);
    expect_certain(&a, 2, ALICE, 3);
    cbd_turn_analysis_free(&a);
}

/* W27 with W21: an airlifted Commander arrives, a percent sends the floor, and an airlift to
 * an enemy's territory is skipped. */
Test(turn_card_steps, w27_an_airlifted_commander_and_a_percent) {
    cbd_turn_territory b[] = {{ALICE, 10}, {ALICE, 1}, {BOB, 3}};
    cbd_turn_unit u[] = {{cbd_warapp_commander(), true, 0}};
    uint32_t list[] = {0};
    cbd_turn_order lift = {.type = CBD_ORDER_AIRLIFT,
                           .player = ALICE,
                           .from = 0,
                           .to = 1,
                           .by_percent = true,
                           .percent = 500000,
                           .n_units = 1,
                           .units = list};
    cbd_turn_order enemy = {
        .type = CBD_ORDER_AIRLIFT, .player = ALICE, .from = 0, .to = 2, .armies = 1};
    cbd_turn_order o[] = {lift, enemy};
    cbd_turn t = turn_of(b, 3, o, 2);
    t.n_units = 1;
    t.units = u;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, ALICE, 6); /* floor(0.5 × 9) = 4 sent */
    expect_certain(&a, 1, ALICE, 5);
    cr_expect_float_eq(a.units[0].territory[1], 1.0, 1e-12);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-12);
    cbd_turn_territory out[3];
    cbd_turn_event ev[2];
    sim_one(&t, out, ev);
    cr_expect_eq(out[1].armies, 5);
    cr_expect_eq(ev[0].units_sent, 1);
    cbd_turn_analysis_free(&a);
}

/* W28's example: a gift gives everything on it, none of it eligible, its Commander to the
 * receiver; the giver is not eliminated. */
Test(turn_card_steps, w28_a_gift_changes_the_owner_and_its_units) {
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 3}};
    cbd_turn_unit u[] = {{cbd_warapp_commander(), true, 0}};
    cbd_turn_order g = card(CBD_ORDER_GIFT, ALICE, 0);
    g.to_player = BOB;
    cbd_turn_order o[] = {g, atk(ALICE, 0, 1, 4), atk(BOB, 0, 1, 4)};
    cbd_turn t = turn_of(b, 2, o, 3);
    t.n_units = 1;
    t.units = u;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 0, BOB, 5);
    expect_certain(&a, 1, BOB, 3);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[2].skipped, 1.0, 1e-12); /* none eligible */
    cr_expect_float_eq(a.units[0].territory[0], 1.0, 1e-12);
    cr_expect_float_eq(a.eliminated[ALICE], 0.0, 1e-12);
    cbd_turn_analysis_free(&a);
    t.multi_attack = true; /* bob's 4 go to his own B */
    a = turn_analyze_ok(&t);
    expect_certain(&a, 0, BOB, 1);
    expect_certain(&a, 1, BOB, 7);
    cbd_turn_analysis_free(&a);
}

/* W28 with W22 and W23: a gifted Commander that dies eliminates its receiver (who started with
 * one), not its giver; a fogged gift keeps its distribution. */
Test(turn_card_steps, w28_a_gifted_commander_dies_for_its_receiver) {
    /* Alice gifts A (her Commander, 0 armies) to bob, who holds B with his own Commander.
     * Carol's 10 from C take A: 10 attack 7 of power (the Commander), kill 6 < 7: the
     * Commander stands... so carol sends 12 instead: kill round(7.2) = 7, it dies. */
    cbd_turn_territory b[] = {{ALICE, 0}, {BOB, 2}, {CAROL, 13}};
    cbd_turn_unit u[] = {{cbd_warapp_commander(), true, 0}, {cbd_warapp_commander(), true, 1}};
    cbd_turn_order g = card(CBD_ORDER_GIFT, ALICE, 0);
    g.to_player = BOB;
    cbd_turn_order o[] = {g, atk(CAROL, 2, 0, 12)};
    cbd_turn t = turn_of(b, 3, o, 2);
    t.n_units = 2;
    t.units = u;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    /* 12 attack 0 armies + 7 power: kill 7, the Commander dies; it deals round(4.9) = 5: A is
     * carol's with 7. Bob still has his own Commander: not eliminated; nor is alice. */
    expect_certain(&a, 0, CAROL, 7);
    cr_expect_float_eq(a.eliminated[BOB], 0.0, 1e-12);
    cr_expect_float_eq(a.eliminated[ALICE], 0.0, 1e-12);
    cbd_turn_analysis_free(&a);
    cbd_turn_territory b2[] = {{ALICE, 0}, {BOB, 2}, {CAROL, 13}};
    cbd_turn_unit u2[] = {{cbd_warapp_commander(), true, 0}, {cbd_warapp_commander(), true, 0}};
    t.territories = b2;
    t.units = u2; /* both Commanders alice's on A: the gift makes both bob's */
    b2[1].owner = BOB;
    cbd_turn_order o2[] = {g, atk(CAROL, 2, 0, 12)};
    t.orders = o2;
    a = turn_analyze_ok(&t);
    /* 12 against 14 power: kill 7, the first Commander dies, the second stands (W19): A stays
     * bob's with the second. Bob started without a Commander: never eliminated (W22). */
    expect_certain(&a, 0, BOB, 0);
    cr_expect_float_eq(a.eliminated[BOB], 0.0, 1e-12);
    cr_expect_float_eq(a.eliminated[ALICE], 0.0, 1e-12);
    cbd_turn_analysis_free(&a);
}

/* W28 with W23: a gift of a fogged territory gives every count. */
Test(turn_card_steps, w28_a_gift_of_a_fogged_territory) {
    cbd_turn_territory b[] = {{ALICE, 6}, {BOB, 1}};
    cbd_warapp_count pts[] = {{3, 0.5}, {6, 0.5}};
    cbd_turn_fog fog[] = {{2, pts}, {0, NULL}};
    cbd_turn_order g = card(CBD_ORDER_GIFT, ALICE, 0);
    g.to_player = CAROL;
    cbd_turn t = turn_of(b, 2, &g, 1);
    t.fog = fog;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_expect_float_eq(a.territories[0].owner[CAROL], 1.0, 1e-12);
    cr_expect_float_eq(a.territories[0].mean_armies, 4.5, 1e-12);
    cbd_turn_analysis_free(&a);
}

/* W29's example: peace skips alice's attack on bob; carol's takes B. */
Test(turn_card_steps, w29_peace_skips_the_attack) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 3}, {CAROL, 7}};
    cbd_turn_peace peace[] = {{ALICE, BOB}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 9), atk(CAROL, 2, 1, 6), card(CBD_ORDER_BOMB, ALICE, 1)};
    cbd_turn t = turn_of(b, 3, o, 3);
    t.n_peace = 1;
    t.peace = peace;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    /* The bomb (peace) is skipped too; carol's 6 attack 3: kill 4, lose 2: B carol's with 4. */
    cr_expect_float_eq(a.orders[0].skipped, 1.0, 1e-12);
    cr_expect_float_eq(a.orders[2].skipped, 1.0, 1e-12);
    expect_certain(&a, 1, CAROL, 4);
    expect_certain(&a, 0, ALICE, 10);
    cbd_turn_territory out[3];
    cbd_turn_event ev[3];
    sim_one(&t, out, ev);
    cr_expect_eq(ev[0].kind, CBD_TURN_SKIPPED);
    cr_expect_eq(out[1].owner, CAROL);
    cbd_turn_analysis_free(&a);
}

/*
 * W30: bob (B 5) and alice (A 10) both attack neutral N (2). Bob first: 4 take N (kill 2,
 * lose 1) and alice's 9 take it from bob's 3 (kill 5, lose 2): N alice's with 7. Alice first:
 * 9 take N (kill 5, lose 1: 8), then bob's 4 kill 2 and lose 6: N alice's with 6.
 */
static uint64_t n_armies_after(cbd_move_order mo, const cbd_turn_order *extra, size_t n_extra) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 5}, {NEUTRAL, 2}};
    cbd_turn_order o[6];
    size_t n = 0;
    for (size_t i = 0; i < n_extra; i++) {
        o[n++] = extra[i];
    }
    o[n++] = atk(BOB, 1, 2, 4);
    o[n++] = atk(ALICE, 0, 2, 9);
    cbd_turn t = turn_of(b, 3, o, n);
    cbd_turn_player first[] = {BOB, ALICE};
    t.move_order = mo;
    t.n_player_order = 2;
    t.player_order = first;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_assert_float_eq(a.territories[2].owner[ALICE], 1.0, 1e-12);
    cr_assert_eq(a.territories[2].n_armies, 1);
    uint64_t armies = a.territories[2].armies[0].armies;
    cbd_turn_territory out[3];
    cbd_turn_event ev[6];
    sim_one(&t, out, ev);
    cr_expect_eq(out[2].armies, armies, "the seeded turn agrees");
    cbd_turn_analysis_free(&a);
    return armies;
}

Test(turn_card_steps, w30_priority_and_delay_reorder_listed_and_cycle) {
    cbd_turn_order prio = card(CBD_ORDER_PRIORITY, ALICE, 0);
    cbd_turn_order delay = card(CBD_ORDER_DELAY, BOB, 0);
    for (int mo = CBD_MOVE_LISTED; mo <= CBD_MOVE_CYCLE; mo++) {
        cr_expect_eq(n_armies_after((cbd_move_order)mo, NULL, 0), 7, "%d: bob first", mo);
        cr_expect_eq(n_armies_after((cbd_move_order)mo, &prio, 1), 6, "%d: priority", mo);
        cr_expect_eq(n_armies_after((cbd_move_order)mo, &delay, 1), 6, "%d: delay", mo);
    }
    /* A delay card listed after bob's order holds nothing back. */
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 5}, {NEUTRAL, 2}};
    cbd_turn_order o[] = {atk(BOB, 1, 2, 4), delay, atk(ALICE, 0, 2, 9)};
    cbd_turn t = turn_of(b, 3, o, 3);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_certain(&a, 2, ALICE, 7);
    cbd_turn_analysis_free(&a);
}

/* W30 under random: without a card each of bob and alice goes first with chance 1/2; with
 * alice's priority card she goes first with chance 1. */
Test(turn_card_steps, w30_priority_under_the_random_order) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 5}, {NEUTRAL, 2}};
    cbd_turn_order o[] = {atk(BOB, 1, 2, 4), atk(ALICE, 0, 2, 9),
                          card(CBD_ORDER_PRIORITY, ALICE, 0)};
    cbd_turn t = turn_of(b, 3, o, 2);
    t.move_order = CBD_MOVE_RANDOM;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_assert_eq(a.territories[2].n_armies, 2);
    cr_expect_float_eq(a.territories[2].armies[0].probability, 0.5, 1e-12); /* 6 */
    cr_expect_float_eq(a.territories[2].armies[1].probability, 0.5, 1e-12); /* 7 */
    cbd_turn_analysis_free(&a);
    t.n_orders = 3;
    a = turn_analyze_ok(&t);
    expect_certain(&a, 2, ALICE, 6);
    cbd_turn_analysis_free(&a);
}

/* W24–W30: what cbd_turn_validate refuses, naming the element. */
Test(turn_card_steps, w24_w30_validation_names_the_element) {
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 3}, {CAROL, 2}};
    uint32_t off[] = {0, 1, 2, 2}, nb[] = {1, 0}; /* A–B only */
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cbd_turn_order g = card(CBD_ORDER_GIFT, ALICE, 0);
    g.to_player = ALICE;
    cbd_turn_order self_lift = {.type = CBD_ORDER_AIRLIFT, .player = ALICE, .from = 0, .to = 0};
    cbd_turn_order far = atk(ALICE, 0, 2, 1);
    cbd_turn_order bad[] = {g, self_lift, far};
    for (size_t i = 0; i < 3; i++) {
        cbd_turn_order o[] = {atk(ALICE, 0, 1, 1), bad[i]};
        cbd_turn t = turn_of(b, 3, o, 2);
        t.neighbor_off = off;
        t.neighbors = nb;
        cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID, "case %zu", i);
        cr_expect_eq(err.kind, CBD_TURN_ERR_ORDER, "case %zu", i);
        cr_expect_eq(err.index, 1, "case %zu", i);
        t.neighbor_off = NULL;
        cr_expect_eq(cbd_turn_validate(&t, &lim, &err), i == 2 ? CBD_OK : CBD_ERR_INVALID,
                     "case %zu without a map", i);
    }
    cbd_turn t = turn_of(b, 3, NULL, 0);
    cbd_turn_peace same[] = {{BOB, BOB}};
    t.n_peace = 1;
    t.peace = same;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
    t.n_peace = 0;
    t.blockade_multiplier = CBD_TURN_MAX_BLOCKADE_MULTIPLIER + 1;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
    t.blockade_multiplier = CBD_TURN_MAX_BLOCKADE_MULTIPLIER;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_OK);
    uint32_t one_way[] = {1}, off1[] = {0, 1, 1, 1}; /* A lists B, B not A */
    t.neighbor_off = off1;
    t.neighbors = one_way;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
    cr_expect_eq(err.kind, CBD_TURN_ERR_TERRITORY);
    uint32_t out_of_range[] = {3};
    t.neighbors = out_of_range;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
}
