/*
 * A whole War.app turn (W11–W16), on boards worked out by hand from the rules.
 * Unless a test says otherwise: kill rates 0.6/0.7, 0 % luck, straight round, stand guard on
 * (W9), so a side of n armies kills round(0.6·n) or round(0.7·n), an exact .5 rounding up (W2, W3).
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_simulate.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"

static cbd_turn_order pct(cbd_turn_player p, uint32_t from, uint32_t to, cbd_micro percent) {
    cbd_turn_order o = atk(p, from, to, 0);
    o.by_percent = true;
    o.percent = percent;
    return o;
}

static double owner_p(const cbd_turn_analysis *a, size_t t, cbd_turn_player p) {
    return a->territories[t].owner[p == NEUTRAL ? a->n_players : p];
}

static double armies_p(const cbd_turn_analysis *a, size_t t, uint64_t armies) {
    for (size_t i = 0; i < a->territories[t].n_armies; i++) {
        if (a->territories[t].armies[i].armies == armies) {
            return a->territories[t].armies[i].probability;
        }
    }
    return 0.0;
}

#define EPS 1e-12
/* Territory t ends with owner p and exactly `armies`, for certain. */
#define expect_board(a, t, p, armies)                                                              \
    do {                                                                                           \
        cr_expect_float_eq(owner_p(a, t, p), 1.0, EPS, "territory %d owner", (int)(t));            \
        cr_expect_float_eq(armies_p(a, t, armies), 1.0, EPS, "territory %d armies", (int)(t));     \
    } while (0)
#define expect_order(a, i, sk, at, tr, cap)                                                        \
    do {                                                                                           \
        cr_expect_float_eq((a)->orders[i].skipped, sk, EPS, "order %d skipped", (int)(i));         \
        cr_expect_float_eq((a)->orders[i].attack, at, EPS, "order %d attack", (int)(i));           \
        cr_expect_float_eq((a)->orders[i].transfer, tr, EPS, "order %d transfer", (int)(i));       \
        cr_expect_float_eq((a)->orders[i].capture, cap, EPS, "order %d capture", (int)(i));        \
    } while (0)

Test(turn, two_attacks_on_one_territory) {
    /* W14: 6 of 7 attack 6: kills round(3.6) = 4 and round(4.2) = 4, so 2 defenders hold and
     * 2 attackers go home (A0 = 1 + 2 = 3, W6). Then 6 attack those 2: 4 kills >= 2 and the
     * defenders kill round(1.4) = 1 < 6: captured, 5 move in (W5, W6). */
    cbd_turn_territory b[] = {{ALICE, 7}, {ALICE, 7}, {BOB, 6}};
    cbd_turn_order o[] = {atk(ALICE, 0, 2, 6), atk(ALICE, 1, 2, 6)};
    cbd_turn t = make(b, 3, o, 2);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 0, ALICE, 3);
    expect_board(&a, 1, ALICE, 1);
    expect_board(&a, 2, ALICE, 5);
    expect_order(&a, 0, 0, 1, 0, 0);
    expect_order(&a, 1, 0, 1, 0, 1);
    cr_expect(a.deterministic);
    cr_expect_eq(a.n_groups, 1);
    cbd_turn_analysis_free(&a);
}

Test(turn, chain_with_and_without_multi_attack) {
    /* 10 of 11 attack 2: kills 6 and round(1.4) = 1, captured, 9 on B. Then B -> C asks 10.
     * multi_attack on (W15): B's 9 may move less the guard (W7): 8 attack 2: kills
     * round(4.8) = 5 and 1: captured, 7 on C, 1 left on B. Off: B changed owner, so none of its
     * armies are eligible: nothing to send, skipped (W14.3). */
    cbd_turn_territory b[] = {{ALICE, 11}, {BOB, 2}, {BOB, 2}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 10), atk(ALICE, 1, 2, 10)};
    cbd_turn t = make(b, 3, o, 2);
    t.multi_attack = true;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 0, ALICE, 1);
    expect_board(&a, 1, ALICE, 1);
    expect_board(&a, 2, ALICE, 7);
    expect_order(&a, 1, 0, 1, 0, 1);
    cbd_turn_analysis_free(&a);

    t.multi_attack = false;
    a = turn_analyze_ok(&t);
    expect_board(&a, 1, ALICE, 9);
    expect_board(&a, 2, BOB, 2);
    expect_order(&a, 1, 1, 0, 0, 0);
    cr_expect(a.deterministic);
    cbd_turn_analysis_free(&a);
}

Test(turn, fifty_then_hundred_percent_from_41) {
    /* 41 armies, 40 movable (W7): 50 % sends floor(20) = 20 against 20: kills 12 and 14, so 8
     * defenders hold and 6 attackers come home (A = 21 + 6 = 27, eligible still 21, W15).
     * 100 %: without multi_attack min(26, 21) = 21 are sent to C (2 neutral): kills 13 and 1,
     * captured with 20; A keeps 6. With multi_attack all 26 go: 25 on C, A keeps 1. */
    cbd_turn_territory b[] = {{ALICE, 41}, {BOB, 20}, {NEUTRAL, 2}};
    cbd_turn_order o[] = {pct(ALICE, 0, 1, 500000), pct(ALICE, 0, 2, 1000000)};
    cbd_turn t = make(b, 3, o, 2);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 0, ALICE, 6);
    expect_board(&a, 1, BOB, 8);
    expect_board(&a, 2, ALICE, 20);
    expect_order(&a, 0, 0, 1, 0, 0);
    expect_order(&a, 1, 0, 1, 0, 1);
    cbd_turn_analysis_free(&a);
    t.multi_attack = true;
    a = turn_analyze_ok(&t);
    expect_board(&a, 0, ALICE, 1);
    expect_board(&a, 2, ALICE, 25);
    cbd_turn_analysis_free(&a);
}

Test(turn, order_that_became_a_transfer) {
    /* 9 of 10 take B (kills 5 and 1: 8 move in); C -> B then finds B alice's: a transfer (W8),
     * all 4 arrive: B = 12, C = 1. */
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 2}, {ALICE, 5}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 9), atk(ALICE, 2, 1, 4)};
    cbd_turn t = make(b, 3, o, 2);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 1, ALICE, 12);
    expect_board(&a, 2, ALICE, 1);
    expect_order(&a, 1, 0, 0, 1, 0);
    cbd_turn_analysis_free(&a);
}

Test(turn, order_whose_source_was_lost) {
    /* Bob's 9 attack alice's 5: kills round(5.4) = 5 >= 5, alice's round(3.5) = 4 < 9 (an exact
     * .5 rounds up, W2/W3): captured with 5. Alice's order from A is then skipped (W14.1). */
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 10}};
    cbd_turn_order o[] = {atk(BOB, 1, 0, 9), atk(ALICE, 0, 1, 4)};
    cbd_turn t = make(b, 2, o, 2);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 0, BOB, 5);
    expect_board(&a, 1, BOB, 1);
    expect_order(&a, 1, 1, 0, 0, 0);
    cbd_turn_analysis_free(&a);
}

Test(turn, deploys_run_first) {
    /* W12: the deploy listed last still runs before the attack: 8 + 3 = 11, 10 attack 5:
     * kills 6 and round(3.5) = 4: captured with 6. */
    cbd_turn_territory b[] = {{ALICE, 8}, {BOB, 5}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 10),
                          {.type = CBD_ORDER_DEPLOY, .player = ALICE, .to = 0, .armies = 3}};
    cbd_turn t = make(b, 2, o, 2);
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 0, ALICE, 1);
    expect_board(&a, 1, ALICE, 6);
    expect_order(&a, 1, 0, 0, 0, 0);
    cbd_turn_analysis_free(&a);
}

/*
 * Two players race for a neutral territory with 0 armies (T = 2), each with two orders of 1.
 * Who comes first takes T with 1 (W5: any attack captures 0 defenders). 1 against 1: kills
 * round(0.6) = 1 and round(0.7) = 1, both wiped out, the defender keeps 1 (W5).
 * Cycle with alice first runs a1 b1 b2 a2 (W13): a1 takes T, b1 and b2 die on it (B = 8),
 * a2 becomes a transfer: T alice 2, A = 8. Bob first: b1 a1 a2 b2: T bob 2, A = 8, B = 8.
 */
static void race(cbd_turn_territory *b, cbd_turn_order *o) {
    b[0] = (cbd_turn_territory){ALICE, 10};
    b[1] = (cbd_turn_territory){BOB, 10};
    b[2] = (cbd_turn_territory){NEUTRAL, 0};
    o[0] = atk(ALICE, 0, 2, 1);
    o[1] = atk(ALICE, 0, 2, 1);
    o[2] = atk(BOB, 1, 2, 1);
    o[3] = atk(BOB, 1, 2, 1);
}

Test(turn, cycle_two_players) {
    cbd_turn_territory b[3];
    cbd_turn_order o[4];
    race(b, o);
    cbd_turn t = make(b, 3, o, 4);
    cbd_turn_player order[] = {BOB, ALICE};
    t.move_order = CBD_MOVE_CYCLE;
    t.n_player_order = 2;
    t.player_order = order;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 2, BOB, 2);
    expect_board(&a, 0, ALICE, 8);
    expect_board(&a, 1, BOB, 8);
    expect_order(&a, 2, 0, 1, 0, 1); /* b1 */
    expect_order(&a, 3, 0, 0, 1, 0); /* b2: a transfer */
    expect_order(&a, 1, 0, 1, 0, 0); /* a2: an attack that fails */
    cr_expect(a.deterministic);
    cbd_turn_analysis_free(&a);

    /* Listed: a1 a2 b1 b2: a1 takes T, a2 transfers (T = 2), b1 loses to 2 (kills 1 < 2;
     * round(1.4) = 1 kills the attacker; T keeps 2 − 1 = 1), b2 meets 1: both die, T keeps 1. */
    t.move_order = CBD_MOVE_LISTED;
    a = turn_analyze_ok(&t);
    expect_board(&a, 2, ALICE, 1);
    expect_order(&a, 1, 0, 0, 1, 0);
    cbd_turn_analysis_free(&a);
}

Test(turn, random_two_players) {
    /* W13 random: alice first or bob first, each 1/2; T has 2 armies either way. */
    cbd_turn_territory b[3];
    cbd_turn_order o[4];
    race(b, o);
    cbd_turn t = make(b, 3, o, 4);
    t.move_order = CBD_MOVE_RANDOM;
    cbd_turn_goal goal = {2, ALICE};
    t.n_goals = 1;
    t.goals = &goal;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_expect_float_eq(owner_p(&a, 2, ALICE), 0.5, EPS);
    cr_expect_float_eq(owner_p(&a, 2, BOB), 0.5, EPS);
    cr_expect_float_eq(armies_p(&a, 2, 2), 1.0, EPS);
    expect_order(&a, 0, 0, 1, 0, 0.5);   /* a1: takes T, or dies on bob's 1 */
    expect_order(&a, 1, 0, 0.5, 0.5, 0); /* a2: transfer or a failed attack */
    cr_expect_float_eq(a.goals_probability, 0.5, EPS);
    cr_expect_not(a.deterministic);
    cbd_turn_analysis_free(&a);
}

Test(turn, random_goals_share_the_permutation) {
    /* Two separate races, one order each per player. Alice's orders are her rounds 1 and 2,
     * bob's too; round 2 runs in reverse (W13). Alice first: she takes T in round 1 and bob
     * takes T' in round 2; bob first: the opposite. So "alice holds both" never happens
     * (independent groups would wrongly give 1/4) and "alice T, bob T'" has chance 1/2. */
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 10}, {NEUTRAL, 0},
                              {ALICE, 10}, {BOB, 10}, {NEUTRAL, 0}};
    cbd_turn_order o[] = {atk(ALICE, 0, 2, 1), atk(BOB, 1, 2, 1), atk(ALICE, 3, 5, 1),
                          atk(BOB, 4, 5, 1)};
    cbd_turn t = make(b, 6, o, 4);
    t.move_order = CBD_MOVE_RANDOM;
    cbd_turn_goal goals[] = {{2, ALICE}, {5, ALICE}};
    t.n_goals = 2;
    t.goals = goals;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_expect_eq(a.n_groups, 2);
    cr_expect_float_eq(owner_p(&a, 2, ALICE), 0.5, EPS);
    cr_expect_float_eq(a.goals_probability, 0.0, EPS);
    cbd_turn_analysis_free(&a);
    goals[1].owner = BOB;
    a = turn_analyze_ok(&t);
    cr_expect_float_eq(a.goals_probability, 0.5, EPS);
    cbd_turn_analysis_free(&a);
}

Test(turn, teams_make_transfers) {
    /* W8, W11: carol is alice's teammate: moving into carol's territory is a transfer. */
    cbd_turn_territory b[] = {{ALICE, 6}, {CAROL, 1}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 5)};
    cbd_turn t = make(b, 2, o, 1);
    uint16_t team[] = {7, 8, 7};
    t.team = team;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    expect_board(&a, 1, CAROL, 6);
    expect_order(&a, 0, 0, 0, 1, 0);
    cbd_turn_analysis_free(&a);
}

Test(turn, one_vs_one_at_full_luck) {
    /* docs/rules.md: 100 % luck, 1 vs 1 captures with 0.6 · 0.3 = 0.18. Otherwise: both kill (0.42,
     * W5: B keeps 1, nobody comes home: A = 1), only the defender kills (0.28, A = 1), nobody
     * kills (0.12, the attacker comes home: A = 2). */
    cbd_turn_territory b[] = {{ALICE, 2}, {BOB, 1}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 1)};
    cbd_turn t = make(b, 2, o, 1);
    t.battle.luck_modifier = 1000000;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_expect_float_eq(owner_p(&a, 1, ALICE), 0.18, EPS);
    cr_expect_float_eq(armies_p(&a, 1, 1), 1.0, EPS);
    cr_expect_float_eq(armies_p(&a, 0, 1), 0.88, EPS);
    cr_expect_float_eq(armies_p(&a, 0, 2), 0.12, EPS);
    cr_expect_float_eq(a.territories[0].mean_armies, 1.12, EPS);
    expect_order(&a, 0, 0, 1, 0, 0.18);
    cr_expect_not(a.deterministic);
    cbd_turn_analysis_free(&a);
}

Test(turn, untouched_territories_stay_independent) {
    /* Groups: three territory pairs, one order each, are three independent groups. Per group the
     * pair (A, B) ends (1, alice 1), (1, bob 1) or (2, bob 1) (see one_vs_one_at_full_luck). */
    cbd_turn_territory b[] = {{ALICE, 2}, {BOB, 1}, {ALICE, 2}, {BOB, 1}, {ALICE, 2}, {BOB, 1}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 1), atk(ALICE, 2, 3, 1), atk(ALICE, 4, 5, 1)};
    cbd_turn t = make(b, 6, o, 3);
    t.battle.luck_modifier = 1000000;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_expect_eq(a.n_groups, 3);
    cr_expect_eq(a.max_group_states, 3);
    for (int k = 1; k < 6; k += 2) {
        cr_expect_float_eq(owner_p(&a, (size_t)k, ALICE), 0.18, EPS);
    }
    cbd_turn_analysis_free(&a);
}

Test(turn, one_stack_attacking_in_turn_stays_small) {
    /* A stack of 7 sends 1 at each of six territories of bob's 1 (100 % luck). Each battle:
     * captured 0.18, both die 0.42, only the defender kills 0.28, nobody kills 0.12 (the one
     * attacker comes home). A target no later order touches leaves the state, so after the
     * k-th attack the states are A's armies (k + 1 values: R homecomers) with the k-th target
     * alice's (R <= k − 1) or bob's (R <= k): 2k + 1 states, 13 at k = 6, where keeping
     * every target would give up to 2^6 · 7. A ends with 1 + R, R ~ Binomial(6, 0.12). */
    cbd_turn_territory b[7] = {{ALICE, 7}};
    cbd_turn_order o[6];
    for (uint32_t i = 0; i < 6; i++) {
        b[i + 1] = (cbd_turn_territory){BOB, 1};
        o[i] = atk(ALICE, 0, i + 1, 1);
    }
    cbd_turn t = make(b, 7, o, 6);
    t.battle.luck_modifier = 1000000;
    cbd_turn_analysis a = turn_analyze_ok(&t);
    cr_expect_eq(a.max_group_states, 13);
    for (size_t i = 1; i < 7; i++) {
        cr_expect_float_eq(owner_p(&a, i, ALICE), 0.18, EPS);
        cr_expect_float_eq(armies_p(&a, i, 1), 1.0, EPS);
        cr_expect_float_eq(a.orders[i - 1].capture, 0.18, EPS);
    }
    cr_expect_float_eq(armies_p(&a, 0, 1), pow(0.88, 6), EPS);
    cr_expect_float_eq(armies_p(&a, 0, 7), pow(0.12, 6), EPS);
    cr_expect_float_eq(armies_p(&a, 0, 2), 6 * 0.12 * pow(0.88, 5), EPS);
    cbd_turn_analysis_free(&a);
}

Test(turn, state_limit_is_an_error_not_a_hang) {
    cbd_turn_territory b[] = {{ALICE, 1000001}, {BOB, 1000000}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 1000000)};
    cbd_turn t = make(b, 2, o, 1);
    t.battle.luck_modifier = 1000000;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_ERR_TOO_LARGE);
    cr_expect_eq(err.kind, CBD_TURN_ERR_STATES);
    cr_expect_eq(err.index, 0);
    cr_expect_gt(err.needed, lim.max_states);
}

Test(turn, bad_input_is_invalid) {
    cbd_turn_territory b[] = {{ALICE, 5}, {BOB, 5}};
    cbd_turn_order o[] = {{.type = CBD_ORDER_DEPLOY, .player = ALICE, .to = 1, .armies = 1}};
    cbd_turn t = make(b, 2, o, 1);
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID); /* W12 */
    cr_expect_eq(err.kind, CBD_TURN_ERR_ORDER);
    o[0] = pct(ALICE, 0, 1, 1000001);
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
    o[0] = atk(ALICE, 0, 0, 1);
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
    o[0] = atk(ALICE, 0, 1, 1);
    t.move_order = CBD_MOVE_CYCLE; /* no player_order */
    cr_expect_eq(cbd_turn_analyze(&t, &lim, NULL, &(cbd_turn_analysis){0}, &err), CBD_ERR_INVALID);
    cr_expect_eq(err.kind, CBD_TURN_ERR_PLAYER_ORDER);
}

/* The turn's battles draw exactly as /simulate's: one order against cbd_warapp_sim_one. */
Test(turn_sim, battle_matches_simulate) {
    cbd_turn_territory b[] = {{ALICE, 31}, {BOB, 24}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 30)};
    cbd_turn t = make(b, 2, o, 1);
    t.battle.luck_modifier = 160000;
    t.battle.rounding = CBD_ROUND_WEIGHTED;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_warapp_sim ref;
    cbd_warapp_sim_init(&ref, 30, 24, &t.battle);
    cbd_rng r1, r2;
    cbd_rng_seed(&r1, 42);
    cbd_rng_seed(&r2, 42);
    for (int i = 0; i < 10000; i++) {
        cbd_turn_territory out[2];
        cbd_turn_event ev;
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &r1, out, &ev), CBD_OK);
        cbd_sim_battle want = cbd_warapp_sim_one(&ref, &r2);
        cr_assert_eq(ev.kind, CBD_TURN_ATTACKED);
        cr_assert_eq(ev.attacker_kills, want.attacker_kills);
        cr_assert_eq(ev.defender_kills, want.defender_kills);
        cr_assert_eq(out[1].owner, want.outcome.captured ? ALICE : BOB);
        cr_assert_eq(out[1].armies, want.outcome.captured ? want.outcome.attackers_left
                                                          : want.outcome.defenders_left);
    }
    cr_expect_eq(memcmp(&r1, &r2, sizeof r1), 0);
    cbd_turn_sim_free(sim);
}

Test(turn_sim, deterministic_turn_resolves_as_analysed) {
    cbd_turn_territory b[] = {{ALICE, 41}, {BOB, 20}, {NEUTRAL, 2}};
    cbd_turn_order o[] = {pct(ALICE, 0, 1, 500000), pct(ALICE, 0, 2, 1000000)};
    cbd_turn t = make(b, 3, o, 2);
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 1);
    cbd_turn_territory out[3];
    cbd_turn_event ev[2];
    cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, out, ev), CBD_OK);
    /* As fifty_then_hundred_percent_from_41. */
    cr_expect_eq(out[0].armies, 6);
    cr_expect_eq(out[1].armies, 8);
    cr_expect_eq(out[2].owner, ALICE);
    cr_expect_eq(out[2].armies, 20);
    cr_expect_eq(ev[0].sent, 20);
    cr_expect_eq(ev[1].sent, 21);
    cr_expect(ev[1].outcome.captured);
    cbd_turn_sim_free(sim);
}

Test(turn, schedule_and_work_limits) {
    /* Two movers under random: 2! = 2 schedules, refused when only 1 is allowed. */
    cbd_turn_territory b[3];
    cbd_turn_order o[4];
    race(b, o);
    cbd_turn t = make(b, 3, o, 4);
    t.move_order = CBD_MOVE_RANDOM;
    cbd_turn_limits lim = cbd_turn_default_limits();
    lim.max_schedules = 1;
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_ERR_TOO_LARGE);
    cr_expect_eq(err.kind, CBD_TURN_ERR_SCHEDULES);
    cr_expect_eq(err.needed, 2);
    /* 1 vs 1 at full luck: 2 × 2 pairs of kills (plus each side's kill window of 2 values)
     * cannot fit a budget of 3 outcomes. */
    cbd_turn_territory c[] = {{ALICE, 2}, {BOB, 1}};
    cbd_turn_order p[] = {atk(ALICE, 0, 1, 1)};
    cbd_turn u = make(c, 2, p, 1);
    u.battle.luck_modifier = 1000000;
    lim = cbd_turn_default_limits();
    lim.max_work = 3;
    cr_assert_eq(cbd_turn_analyze(&u, &lim, NULL, &a, &err), CBD_ERR_TOO_LARGE);
    cr_expect_eq(err.kind, CBD_TURN_ERR_WORK);
    cr_expect_eq(err.index, 0);
    cr_expect_eq(err.needed, 2 + 2 + 4);
}
