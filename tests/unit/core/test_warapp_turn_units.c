/*
 * Special units in a turn (W21) and elimination by a Commander's death (W22), worked out by
 * hand from the rules. Every case is at 0 % luck with straight rounding, so each battle has one
 * outcome (W1: kills = round(power × rate), offense 0.6, defense 0.7), and the exact analysis
 * and a seeded resolution must both give it.
 */
#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"

enum { ALICE = 0, BOB = 1, CAROL = 2, NEUTRAL = CBD_TURN_NEUTRAL };

static cbd_turn_order move(cbd_turn_player p, uint32_t from, uint32_t to, uint64_t armies,
                           size_t n_units, const uint32_t *units) {
    cbd_turn_order o = {.type = CBD_ORDER_ATTACK_TRANSFER,
                        .player = p,
                        .from = from,
                        .to = to,
                        .armies = armies,
                        .n_units = n_units,
                        .units = units};
    return o;
}

static cbd_turn_unit commander_on(uint32_t territory) {
    cbd_turn_unit u = {.unit = cbd_warapp_commander(), .commander = true, .territory = territory};
    return u;
}

static cbd_turn base_turn(size_t n_terr, const cbd_turn_territory *board, size_t n_players,
                          size_t n_orders, const cbd_turn_order *orders, size_t n_units,
                          const cbd_turn_unit *units) {
    cbd_turn t = {.n_territories = n_terr,
                  .territories = board,
                  .n_players = n_players,
                  .n_orders = n_orders,
                  .orders = orders,
                  .n_units = n_units,
                  .units = units};
    t.battle = cbd_warapp_default_settings(); /* 0.6 / 0.7, 0 % luck, straight, guard on */
    return t;
}

static void analyze(const cbd_turn *t, cbd_turn_analysis *a) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(t, &lim, NULL, a, &err), CBD_OK, "kind %d index %zu", err.kind,
                 err.index);
}

/* One seeded resolution of the turn (every battle here has one outcome). */
static cbd_turn_sim *simulate(const cbd_turn *t, cbd_turn_territory *board, cbd_turn_event *ev) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 7);
    cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, board, ev), CBD_OK);
    return sim;
}

static void expect_sure(const cbd_turn_analysis *a, uint32_t terr, size_t owner_slot,
                        uint64_t armies) {
    cr_expect_float_eq(a->territories[terr].owner[owner_slot], 1.0, 1e-15, "territory %u owner",
                       terr);
    cr_assert_eq(a->territories[terr].n_armies, 1, "territory %u", terr);
    cr_expect_eq(a->territories[terr].armies[0].armies, armies, "territory %u armies", terr);
}

/*
 * W22 by hand. Bob holds T1 with 3 armies and his only Commander, and T2 with 5; Alice holds
 * T0 with 17 and T3 with 2. Order 0: Alice sends 16 (17 less the guard) from T0 into T1. Her
 * power 16 deals round(9.6) = 10 damage; Bob's power 3 + 7 = 10 deals round(7.0) = 7. W19: the
 * 10 damage kills the 3 armies first (the Commander's combat order 10000 comes after them),
 * and the 7 left are at least its damage to kill 7: the Commander dies. Bob's side keeps
 * nothing and Alice keeps 16 − 7 = 9: T1 is captured with 9 (W20). Bob's last Commander died:
 * he is eliminated at once (W22), so T2 becomes neutral with its 5 armies, and his order 1
 * (T2 into T3, which would have sent 4 against 2) is skipped: T3 stays Alice's with 2.
 */
Test(turn_units, commander_killed_defending_eliminates_its_player) {
    cbd_turn_territory board[4] = {{ALICE, 17}, {BOB, 3}, {BOB, 5}, {ALICE, 2}};
    cbd_turn_unit units[1] = {commander_on(1)};
    cbd_turn_order orders[2] = {move(ALICE, 0, 1, 100, 0, NULL), move(BOB, 2, 3, 100, 0, NULL)};
    cbd_turn t = base_turn(4, board, 2, 2, orders, 1, units);
    cbd_turn_analysis a;
    analyze(&t, &a);
    expect_sure(&a, 0, ALICE, 1);
    expect_sure(&a, 1, ALICE, 9);
    expect_sure(&a, 2, 2, 5); /* owner slot n_players: neutral */
    expect_sure(&a, 3, ALICE, 2);
    cr_expect_float_eq(a.orders[0].capture, 1.0, 1e-15);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-15);
    cr_expect_float_eq(a.units[0].alive, 0.0, 1e-15);
    cr_expect_float_eq(a.eliminated[BOB], 1.0, 1e-15);
    cr_expect_float_eq(a.eliminated[ALICE], 0.0, 1e-15);
    cr_expect(a.deterministic);
    cbd_turn_analysis_free(&a);

    cbd_turn_territory out[4];
    cbd_turn_event ev[2];
    cbd_turn_sim *sim = simulate(&t, out, ev);
    cr_expect_eq(out[1].owner, ALICE);
    cr_expect_eq(out[1].armies, 9);
    cr_expect_eq(out[2].owner, NEUTRAL);
    cr_expect_eq(out[2].armies, 5);
    cr_expect_eq(ev[1].kind, CBD_TURN_SKIPPED);
    cr_expect_eq(ev[0].units_died, 1);
    cr_expect_eq(cbd_turn_sim_unit_at(sim)[0], CBD_TURN_UNIT_DEAD);
    cr_expect(cbd_turn_sim_eliminated(sim)[BOB]);
    cr_expect(!cbd_turn_sim_eliminated(sim)[ALICE]);
    uint32_t listed[1];
    cr_expect_eq(cbd_turn_sim_units_listed(sim, listed), 0); /* the dead are left out */
    cbd_turn_sim_free(sim);
}

/*
 * A Commander attacks beside 4 armies into a neutral T1 of 4: power 4 + 7 = 11 deals
 * round(6.6) = 7 ≥ 4, the defenders' 4 deal round(2.8) = 3, spent on the 4 armies first (W19):
 * 1 army and the Commander survive and move in (W20, W21). T0 keeps its guard of 1.
 */
Test(turn_units, commander_moves_with_an_attack_and_captures) {
    cbd_turn_territory board[2] = {{ALICE, 5}, {NEUTRAL, 4}};
    cbd_turn_unit units[1] = {commander_on(0)};
    uint32_t cmdr[1] = {0};
    cbd_turn_order orders[1] = {move(ALICE, 0, 1, 4, 1, cmdr)};
    cbd_turn t = base_turn(2, board, 1, 1, orders, 1, units);
    cbd_turn_analysis a;
    analyze(&t, &a);
    expect_sure(&a, 0, ALICE, 1);
    expect_sure(&a, 1, ALICE, 1);
    cr_expect_float_eq(a.orders[0].capture, 1.0, 1e-15);
    cr_expect_float_eq(a.units[0].territory[1], 1.0, 1e-15);
    cr_expect_float_eq(a.units[0].alive, 1.0, 1e-15);
    cr_expect_float_eq(a.eliminated[ALICE], 0.0, 1e-15);
    cbd_turn_analysis_free(&a);

    cbd_turn_territory out[2];
    cbd_turn_event ev[1];
    cbd_turn_sim *sim = simulate(&t, out, ev);
    cr_expect_eq(cbd_turn_sim_unit_at(sim)[0], 1);
    cr_expect_eq(ev[0].units_sent, 1);
    cr_expect_eq(ev[0].units_died, 0);
    cbd_turn_sim_free(sim);
}

/*
 * W21: a unit that is not on `from` is left out. Alice's Commander stands on T2; her order from
 * T0 (3 armies: 2 sent) into a neutral T1 of 2 lists it anyway. Alone the 2 deal round(1.2) = 1
 * against 2 defenders: the attack fails; T1 keeps 2 − 1 = 1, and the 2 defenders' round(1.4) = 1
 * leaves 1 attacker to go home (T0: 1 + 1 = 2). With the Commander (power 9: 5 damage) it would
 * have captured. The Commander stays on T2.
 */
Test(turn_units, unit_not_on_from_is_left_out) {
    cbd_turn_territory board[3] = {{ALICE, 3}, {NEUTRAL, 2}, {ALICE, 1}};
    cbd_turn_unit units[1] = {commander_on(2)};
    uint32_t cmdr[1] = {0};
    cbd_turn_order orders[1] = {move(ALICE, 0, 1, 10, 1, cmdr)};
    cbd_turn t = base_turn(3, board, 1, 1, orders, 1, units);
    cbd_turn_analysis a;
    analyze(&t, &a);
    cr_expect_float_eq(a.orders[0].attack, 1.0, 1e-15);
    cr_expect_float_eq(a.orders[0].capture, 0.0, 1e-15);
    expect_sure(&a, 0, ALICE, 2);
    expect_sure(&a, 1, 1, 1);
    cr_expect_float_eq(a.units[0].territory[2], 1.0, 1e-15);
    cbd_turn_analysis_free(&a);
}

/*
 * W21 without multi_attack: order 0 transfers the Commander from T2 to T0 (with 0 armies: the
 * guard keeps T2's only army; an order that sends only a unit runs). Order 1 then lists it from
 * T0 into the neutral T1 of 2 beside 2 armies: it moved already, so it is left out and the 2
 * armies fail as in the case above (T0: 1 + 1 = 2, T1: 1). With multi_attack on it goes: power
 * 2 + 7 = 9 deals round(5.4) = 5 ≥ 2, the defenders' round(1.4) = 1 kills one army, and 1 army
 * and the Commander take T1.
 */
Test(turn_units, moved_unit_is_left_out_without_multi_attack) {
    cbd_turn_territory board[3] = {{ALICE, 3}, {NEUTRAL, 2}, {ALICE, 1}};
    cbd_turn_unit units[1] = {commander_on(2)};
    uint32_t cmdr[1] = {0};
    cbd_turn_order orders[2] = {move(ALICE, 2, 0, 5, 1, cmdr), move(ALICE, 0, 1, 2, 1, cmdr)};
    cbd_turn t = base_turn(3, board, 1, 2, orders, 1, units);
    cbd_turn_analysis a;
    analyze(&t, &a);
    cr_expect_float_eq(a.orders[0].transfer, 1.0, 1e-15);
    cr_expect_float_eq(a.orders[1].capture, 0.0, 1e-15);
    expect_sure(&a, 0, ALICE, 2);
    expect_sure(&a, 1, 1, 1);
    cr_expect_float_eq(a.units[0].territory[0], 1.0, 1e-15);
    cbd_turn_analysis_free(&a);

    t.multi_attack = true;
    analyze(&t, &a);
    cr_expect_float_eq(a.orders[1].capture, 1.0, 1e-15);
    expect_sure(&a, 0, ALICE, 1);
    expect_sure(&a, 1, ALICE, 1);
    cr_expect_float_eq(a.units[0].territory[1], 1.0, 1e-15);
    cbd_turn_analysis_free(&a);
}

/*
 * W21: never onto a teammate's territory. Alice and Carol are a team; Alice sends 2 armies and
 * her Commander from T0 (3 armies) to Carol's T1: the armies arrive (W8), the Commander stays
 * on T0. An order whose only unit cannot go and which sends no army is skipped: the second,
 * from T2 (1 army, the guard) to T1 with the Commander of T2.
 */
Test(turn_units, unit_never_transferred_onto_a_teammate) {
    cbd_turn_territory board[3] = {{ALICE, 3}, {CAROL, 1}, {ALICE, 1}};
    cbd_turn_unit units[2] = {commander_on(0), commander_on(2)};
    uint32_t first[1] = {0}, second[1] = {1};
    cbd_turn_order orders[2] = {move(ALICE, 0, 1, 2, 1, first), move(ALICE, 2, 1, 2, 1, second)};
    uint16_t team[3] = {0, 1, 0};
    cbd_turn t = base_turn(3, board, 3, 2, orders, 2, units);
    t.team = team;
    cbd_turn_analysis a;
    analyze(&t, &a);
    cr_expect_float_eq(a.orders[0].transfer, 1.0, 1e-15);
    cr_expect_float_eq(a.orders[1].skipped, 1.0, 1e-15);
    expect_sure(&a, 0, ALICE, 1);
    expect_sure(&a, 1, CAROL, 3);
    cr_expect_float_eq(a.units[0].territory[0], 1.0, 1e-15);
    cr_expect_float_eq(a.units[1].territory[2], 1.0, 1e-15);
    cbd_turn_analysis_free(&a);
}

/*
 * W21: an order that sends only a unit. T0 has 1 army (the guard: none movable) and Alice's
 * Commander; it attacks the neutral T1 of 2 alone: power 7 deals round(4.2) = 4 ≥ 2, the
 * defenders' power 2 deals round(1.4) = 1 < 7, spent on the Commander without killing it
 * (W19). T1 is taken with 0 armies and the Commander (W20); T0 keeps its army.
 */
Test(turn_units, order_with_only_a_unit) {
    cbd_turn_territory board[2] = {{ALICE, 1}, {NEUTRAL, 2}};
    cbd_turn_unit units[1] = {commander_on(0)};
    uint32_t cmdr[1] = {0};
    cbd_turn_order orders[1] = {move(ALICE, 0, 1, 5, 1, cmdr)};
    cbd_turn t = base_turn(2, board, 1, 1, orders, 1, units);
    cbd_turn_analysis a;
    analyze(&t, &a);
    cr_expect_float_eq(a.orders[0].capture, 1.0, 1e-15);
    expect_sure(&a, 0, ALICE, 1);
    expect_sure(&a, 1, ALICE, 0);
    cr_expect_float_eq(a.units[0].territory[1], 1.0, 1e-15);
    cbd_turn_analysis_free(&a);

    cbd_turn_territory out[2];
    cbd_turn_event ev[1];
    cbd_turn_sim *sim = simulate(&t, out, ev);
    cr_expect_eq(ev[0].kind, CBD_TURN_ATTACKED);
    cr_expect_eq(ev[0].sent, 0);
    cr_expect_eq(out[1].owner, ALICE);
    cr_expect_eq(out[1].armies, 0);
    cbd_turn_sim_free(sim);
}

/*
 * W19, W21: the units as the board lists them after the turn. The board's units are A on T1,
 * B on T0, C on T1 and D on T0, in that order. Alice transfers 2 of T0's 3 armies and B to T1:
 * B arrives after those already there. So T0 lists D, and T1 lists A and C (the board's order)
 * and then B: [D, A, C, B] by territory, whatever the units' own order.
 */
Test(turn_units, w21_units_listed_by_territory_then_arrival) {
    cbd_turn_territory board[2] = {{ALICE, 3}, {ALICE, 2}};
    cbd_turn_unit units[4] = {commander_on(1), commander_on(0), commander_on(1), commander_on(0)};
    uint32_t b[1] = {1};
    cbd_turn_order orders[1] = {move(ALICE, 0, 1, 2, 1, b)};
    cbd_turn t = base_turn(2, board, 1, 1, orders, 4, units);
    cbd_turn_territory out[2];
    cbd_turn_event ev[1];
    cbd_turn_sim *sim = simulate(&t, out, ev);
    cr_expect_eq(ev[0].kind, CBD_TURN_TRANSFERRED);
    cr_expect_eq(out[0].armies, 1);
    cr_expect_eq(out[1].armies, 4);
    uint32_t listed[4];
    cr_assert_eq(cbd_turn_sim_units_listed(sim, listed), 4);
    cr_expect_eq(listed[0], 3);
    cr_expect_eq(listed[1], 0);
    cr_expect_eq(listed[2], 2);
    cr_expect_eq(listed[3], 1);
    cbd_turn_sim_free(sim);
}

/*
 * W22 across territories that no order links: Bob's Commander dies attacking, and his other
 * territory T3, which no order touches, turns neutral (the analysis joins Bob's territories
 * into one group). Bob sends 2 armies and his Commander from T2 (3 armies) into Alice's T0 of
 * 20: his power 9 deals round(5.4) = 5 (Alice keeps 15), her power 20 deals round(14.0) = 14:
 * W19 kills his 2 armies, and the 12 left are at least 7: the Commander dies. The attack fails
 * with nothing to go home; Bob is eliminated, and T2 (its guard of 1) and T3 turn neutral.
 */
Test(turn_units, elimination_reaches_an_untouched_territory) {
    cbd_turn_territory board[4] = {{ALICE, 20}, {NEUTRAL, 1}, {BOB, 3}, {BOB, 6}};
    cbd_turn_unit units[1] = {commander_on(2)};
    uint32_t cmdr[1] = {0};
    cbd_turn_order orders[1] = {move(BOB, 2, 0, 2, 1, cmdr)};
    cbd_turn t = base_turn(4, board, 2, 1, orders, 1, units);
    cbd_turn_analysis a;
    analyze(&t, &a);
    /* Bob's power 9 deals 5 to Alice: 15 left. T2 keeps its guard of 1, then turns neutral. */
    expect_sure(&a, 0, ALICE, 15);
    expect_sure(&a, 2, 2, 1);
    expect_sure(&a, 3, 2, 6);
    cr_expect_float_eq(a.eliminated[BOB], 1.0, 1e-15);
    cr_expect_eq(a.n_groups, 2); /* {T0, T2, T3} joined by Bob's Commander; T1 alone */
    cbd_turn_analysis_free(&a);
}

/*
 * The budget meters the units' work too: the W22 turn above, at 100 % luck so that battles
 * branch, costs more with its Commander than the same turn without it, and under every budget
 * short of what it spent the analysis and a resolution stop with CBD_ERR_BUDGET, never more.
 */
Test(turn_units, units_are_metered) {
    cbd_turn_territory board[4] = {{ALICE, 17}, {BOB, 3}, {BOB, 5}, {ALICE, 2}};
    cbd_turn_unit units[1] = {commander_on(1)};
    cbd_turn_order orders[2] = {move(ALICE, 0, 1, 100, 0, NULL), move(BOB, 2, 3, 100, 0, NULL)};
    cbd_turn t = base_turn(4, board, 2, 2, orders, 1, units);
    t.battle.luck_modifier = 1000000;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    uint64_t spent[2];
    for (int with = 0; with < 2; with++) {
        t.n_units = (size_t)with;
        cbd_budget b;
        cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
        cbd_turn_analysis a;
        cr_assert_eq(cbd_turn_analyze(&t, &lim, &b, &a, &err), CBD_OK);
        spent[with] = b.work_spent;
        cbd_turn_analysis_free(&a);
    }
    cr_expect_gt(spent[1], spent[0], "with %llu, without %llu", (unsigned long long)spent[1],
                 (unsigned long long)spent[0]);
    for (uint64_t limit = 0; limit < spent[1]; limit += spent[1] / 50 + 1) {
        cbd_budget b;
        cbd_budget_init(&b, limit, SIZE_MAX);
        cbd_turn_analysis a;
        cr_expect_eq(cbd_turn_analyze(&t, &lim, &b, &a, &err), CBD_ERR_BUDGET, "limit %llu",
                     (unsigned long long)limit);
    }
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 3);
    cbd_turn_territory out[4];
    cbd_budget b;
    cbd_budget_init(&b, CBD_WORK_BATTLE, SIZE_MAX); /* less than one battle and its units */
    cr_expect_eq(cbd_turn_sim_one(sim, &b, &rng, out, NULL), CBD_ERR_BUDGET);
    cbd_turn_sim_free(sim);
}

/*
 * Fog (W23) with units: Bob's T1 holds 3 or 10 armies (1/4, 3/4) beside his Commander. Alice's
 * 16 deal 10 at 0 % luck: against 3 the Commander dies and Bob is eliminated (as above),
 * against 10 the armies absorb it all. The answer is the exact mixture: Bob is eliminated and
 * T2 neutral with probability 1/4, the Commander alive on T1 with 3/4.
 */
Test(turn_units, fog_mixes_units_and_eliminations) {
    cbd_turn_territory board[4] = {{ALICE, 17}, {BOB, 10}, {BOB, 5}, {ALICE, 2}};
    cbd_turn_unit units[1] = {commander_on(1)};
    cbd_turn_order orders[2] = {move(ALICE, 0, 1, 100, 0, NULL), move(BOB, 2, 3, 100, 0, NULL)};
    cbd_warapp_count counts[2] = {{3, 0.25}, {10, 0.75}};
    cbd_turn_fog fog[4] = {{0, NULL}, {2, counts}, {0, NULL}, {0, NULL}};
    cbd_turn t = base_turn(4, board, 2, 2, orders, 1, units);
    t.fog = fog;
    cbd_turn_analysis a;
    analyze(&t, &a);
    cr_expect_float_eq(a.eliminated[BOB], 0.25, 1e-15);
    cr_expect_float_eq(a.units[0].territory[1], 0.75, 1e-15);
    cr_expect(!a.deterministic);
    cr_expect_float_eq(a.territories[2].owner[2], 0.25, 1e-15);
    cr_expect_float_eq(a.orders[1].skipped, 0.25, 1e-15);
    cbd_turn_analysis_free(&a);
}

/*
 * `deterministic` counts the units too. Alice's single army (T0 holds 2, the guard stays)
 * attacks Bob's T1: 10 armies and a Shield (defense 0, damage to kill 1, combat order −1: it
 * takes damage before the armies, W19). At 100 % luck her roll is Bin(1, 0.6): with 0.6 the 1
 * damage kills the Shield and nothing else, else nothing dies. At a defense rate of 1 Bob's 10
 * deal 10, so her army always dies. Every territory ends one way (T0 1, T1 Bob's 10); only the
 * Shield's fate varies: alive with 0.4.
 */
Test(turn_units, deterministic_counts_units) {
    cbd_turn_territory board[2] = {{ALICE, 2}, {BOB, 10}};
    cbd_turn_unit shield = {.unit = {.attack_power = 0,
                                     .defense_power = 0,
                                     .combat_order = -1,
                                     .has_health = false,
                                     .toughness = 1},
                            .commander = false,
                            .territory = 1};
    cbd_turn_order orders[1] = {move(ALICE, 0, 1, 1, 0, NULL)};
    cbd_turn t = base_turn(2, board, 2, 1, orders, 1, &shield);
    t.battle.luck_modifier = 1000000;
    t.battle.defense_kill_rate = 1000000;
    cbd_turn_analysis a;
    analyze(&t, &a);
    expect_sure(&a, 0, ALICE, 1);
    expect_sure(&a, 1, BOB, 10);
    cr_expect_float_eq(a.units[0].territory[1], 0.4, 1e-15);
    cr_expect(!a.deterministic);
    cbd_turn_analysis_free(&a);
}
