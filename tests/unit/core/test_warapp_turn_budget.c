/*
 * War.app turns on a request budget (include/combatd/budget.h): the meter stops an analysis
 * and a simulation with CBD_ERR_BUDGET holding nothing, a limit at or above what a request
 * spends changes none of its numbers, the work counter counts the terms computed, the kill
 * cache stays bounded, and clearing a state map costs what it held, not what a large step
 * once grew it to. The units charged per step are the weights of budget.h.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_odds.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"
#include "warm_scratch.h"

/* A turn with some of everything the meter charges: three battles at full luck, a transfer,
 * the random move order over two players, a goal. */
static cbd_turn_territory mixed_board[] = {{ALICE, 40}, {BOB, 25}, {NEUTRAL, 6}, {BOB, 30}};
static cbd_turn_order mixed_orders[4];

static cbd_turn mixed(void) {
    mixed_orders[0] = atk(ALICE, 0, 1, 30);
    mixed_orders[1] = atk(BOB, 3, 1, 20);
    mixed_orders[2] = atk(BOB, 1, 2, 15);
    mixed_orders[3] = atk(ALICE, 1, 2, 10);
    static cbd_turn_goal goal = {1, ALICE};
    cbd_turn t = make(mixed_board, 4, mixed_orders, 4);
    t.battle.luck_modifier = 1000000;
    t.multi_attack = true;
    t.move_order = CBD_MOVE_RANDOM;
    t.n_goals = 1;
    t.goals = &goal;
    return t;
}

/* The analysis under an unlimited budget, and what it spent and held at its peak. */
static cbd_turn_analysis unlimited(const cbd_turn *t, cbd_budget *b) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    warm_budget_init(b, UINT64_MAX, SIZE_MAX);
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(t, &lim, b, &a, &err), CBD_OK);
    return a;
}

/* The same numbers, bit for bit. */
static void expect_same(const cbd_turn_analysis *x, const cbd_turn_analysis *y) {
    cr_assert_eq(x->n_territories, y->n_territories);
    for (size_t t = 0; t < x->n_territories; t++) {
        cr_expect_eq(memcmp(x->territories[t].owner, y->territories[t].owner,
                            (x->n_players + 1) * sizeof(double)),
                     0, "territory %zu owner", t);
        cr_assert_eq(x->territories[t].n_armies, y->territories[t].n_armies);
        cr_expect_eq(memcmp(x->territories[t].armies, y->territories[t].armies,
                            x->territories[t].n_armies * sizeof(cbd_turn_point)),
                     0, "territory %zu armies", t);
    }
    cr_expect_eq(memcmp(x->orders, y->orders, x->n_orders * sizeof *x->orders), 0);
    cr_expect_eq(x->goals_probability, y->goals_probability);
}

Test(turn_budget, every_work_limit_stops_cleanly_or_changes_nothing) {
    cbd_turn t = mixed();
    cbd_budget full;
    cbd_turn_analysis want = unlimited(&t, &full);
    uint64_t spent = full.work_spent;
    cr_assert_gt(spent, 10000, "the turn does some work (%llu)", (unsigned long long)spent);
    cbd_turn_limits lim = cbd_turn_default_limits();
    for (uint64_t k = 0; k <= 64; k++) {
        uint64_t limit = k == 64 ? spent : spent * k / 64;
        cbd_budget b;
        warm_budget_init(&b, limit, SIZE_MAX);
        cbd_turn_analysis a;
        cbd_turn_error err;
        cbd_status st = cbd_turn_analyze(&t, &lim, &b, &a, &err);
        if (limit < spent) {
            cr_assert_eq(st, CBD_ERR_BUDGET, "limit %llu of %llu", (unsigned long long)limit,
                         (unsigned long long)spent);
            cr_expect_eq(b.stopped, CBD_BUDGET_WORK);
            cr_expect_eq(b.mem_held, 0, "limit %llu: %zu bytes still held",
                         (unsigned long long)limit, b.mem_held);
            /* The stop names what was running: an attack order, or no order at all. */
            cr_expect(err.kind == CBD_TURN_ERR_BUDGET || err.kind == CBD_TURN_ERR_SCHEDULES ||
                      err.kind == CBD_TURN_ERR_GOAL);
            cr_expect(err.index < t.n_orders || err.index == CBD_TURN_NO_ORDER);
        } else {
            cr_assert_eq(st, CBD_OK, "the limit it spends exactly is enough");
            cr_expect_eq(b.work_spent, spent, "the same work, whatever the limit");
            expect_same(&a, &want);
            cbd_turn_analysis_free(&a);
            cr_expect_eq(b.mem_held, 0);
        }
    }
    cbd_turn_analysis_free(&want);
    cr_expect_eq(full.mem_held, 0, "the result was the last thing held");
}

Test(turn_budget, every_memory_limit_stops_cleanly_or_changes_nothing) {
    cbd_turn t = mixed();
    cbd_budget full;
    cbd_turn_analysis want = unlimited(&t, &full);
    size_t peak = full.mem_peak;
    cr_assert_gt(peak, 1000);
    cbd_turn_limits lim = cbd_turn_default_limits();
    for (size_t k = 0; k <= 32; k++) {
        size_t limit = k == 32 ? peak : peak / 32 * k;
        cbd_budget b;
        cbd_budget_init(&b, UINT64_MAX, limit);
        cbd_turn_analysis a;
        cbd_turn_error err;
        cbd_status st = cbd_turn_analyze(&t, &lim, &b, &a, &err);
        if (limit < peak) {
            cr_assert_eq(st, CBD_ERR_BUDGET, "limit %zu of %zu", limit, peak);
            cr_expect_eq(b.stopped, CBD_BUDGET_MEMORY);
            cr_expect_leq(b.mem_peak, limit);
        } else {
            cr_assert_eq(st, CBD_OK, "the peak it reaches is enough");
            expect_same(&a, &want);
            cbd_turn_analysis_free(&a);
        }
        cr_expect_eq(b.mem_held, 0, "limit %zu: %zu bytes still held", limit, b.mem_held);
    }
    cbd_turn_analysis_free(&want);
}

/*
 * One turn of one battle, 9 of Alice's 10 against Bob's 5 at 0 % luck: kills round(5.4) = 5
 * and round(3.5) = 4 (W2), captured every time. What each turn is charged (budget.h):
 * CBD_WORK_TURN_ORDER for its one attack/transfer order and 1 for each of its 2 territories,
 * 1 order and 1 mover looked at, CBD_WORK_BATTLE for the battle, and the first turn
 * CBD_WORK_SIM_SETUP more for each side's sampler (9 and 5 armies are cached after). Creating
 * it charges the plan: 4 passes over its 2 territories, 1 order, 0 goals and 3 players (24).
 */
Test(turn_budget, a_simulation_stops_at_the_turn_that_passes_the_limit) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 5}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 9)};
    cbd_turn t = make(b, 2, o, 1);
    cbd_turn_limits lim = cbd_turn_default_limits();
    const uint64_t plan = 24, next = CBD_WORK_TURN_ORDER + 4 + CBD_WORK_BATTLE;
    const uint64_t first = next + 2 * CBD_WORK_SIM_SETUP;
    cbd_budget budget;
    cbd_budget_init(&budget, plan + first + 5 * next, SIZE_MAX);
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, &budget, &sim, &err), CBD_OK);
    cr_expect_eq(budget.work_spent, plan);
    cbd_rng rng;
    cbd_rng_seed(&rng, 7);
    cbd_turn_territory out[2];
    cbd_turn_event ev;
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(cbd_turn_sim_one(sim, &budget, &rng, out, &ev), CBD_OK, "turn %d", i);
        cr_expect(ev.outcome.captured);
        cr_expect_eq(out[1].armies, 5);
    }
    cr_expect_eq(budget.work_spent, budget.work_limit, "six turns spend the limit exactly");
    cr_expect_eq(cbd_turn_sim_one(sim, &budget, &rng, out, &ev), CBD_ERR_BUDGET);
    cr_expect_eq(budget.stopped, CBD_BUDGET_WORK);
    cr_expect_gt(budget.mem_held, 0, "the prepared turn is held");
    cbd_turn_sim_free(sim);
    cr_expect_eq(budget.mem_held, 0);
}

Test(turn_budget, a_simulation_without_the_memory_to_prepare_holds_nothing) {
    cbd_turn_territory b[] = {{ALICE, 10}, {BOB, 5}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 9)};
    cbd_turn t = make(b, 2, o, 1);
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_budget budget;
    cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, &budget, &sim, &err), CBD_OK);
    size_t needed = budget.mem_peak;
    cbd_turn_sim_free(sim);
    for (size_t limit = 0; limit < needed; limit += needed / 16 + 1) {
        cbd_budget_init(&budget, UINT64_MAX, limit);
        cr_assert_eq(cbd_turn_sim_create(&t, &lim, &budget, &sim, &err), CBD_ERR_BUDGET);
        cr_expect_null(sim);
        cr_expect_eq(budget.stopped, CBD_BUDGET_MEMORY);
        cr_expect_eq(budget.mem_held, 0);
    }
}

/* [lo, hi] of min(K, cap) over K's window (W4): its length. */
static uint64_t capped_len(const cbd_kills *k, uint64_t cap) {
    uint64_t lo = k->dist.lo < cap ? k->dist.lo : cap;
    uint64_t top = k->dist.lo + k->dist.len - 1;
    return (top < cap ? top : cap) - lo + 1;
}

/*
 * The work counter counts what was computed: each side's roll values (its binomial window),
 * then one outcome per pair of capped kills (W4). At 5 % luck a kill window keeps about 5 %
 * of the roll values it took, so counting the values kept undercounted twentyfold.
 */
Test(turn_budget, work_counts_the_terms_computed_not_the_values_kept) {
    cbd_turn_territory b[] = {{ALICE, 1000001}, {BOB, 300000}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 1000000)};
    cbd_turn t = make(b, 2, o, 1);
    t.battle.luck_modifier = 50000;
    cbd_kills ka, kd;
    const cbd_warapp_settings *s = &t.battle;
    cr_assert_eq(
        cbd_warapp_kills(1000000, s->offense_kill_rate, s->luck_modifier, s->rounding, NULL, &ka),
        CBD_OK);
    cr_assert_eq(
        cbd_warapp_kills(300000, s->defense_kill_rate, s->luck_modifier, s->rounding, NULL, &kd),
        CBD_OK);
    /* The roll of 10^6 at 0.6 has sigma = sqrt(240,000) = 490: its window is some 9 sigma a
     * side, of which 5 % survive as kill values. */
    cr_expect_gt(ka.terms, 8000);
    cr_expect_gt(ka.terms, 15 * ka.dist.len);
    uint64_t pairs = capped_len(&kd, 1000000) * capped_len(&ka, 300000);
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK);
    cr_expect_eq(a.work, ka.terms + kd.terms + pairs);
    cbd_turn_analysis_free(&a);
    /* A max_work between the values kept and the terms computed now refuses it. */
    lim.max_work = ka.dist.len + kd.dist.len + pairs;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_ERR_TOO_LARGE);
    cr_expect_eq(err.kind, CBD_TURN_ERR_WORK);
    cr_expect_eq(err.needed, ka.terms + kd.terms + pairs);
    cbd_kills_free(&ka);
    cbd_kills_free(&kd);
}

/*
 * 220,000 of Alice's armies take Bob's 120,000 for certain at full luck (they kill 132,000 ± 230,
 * W1), leaving one of about 3,000 survivor counts (Bob's 84,000 ± 160 kills); then 99 % of them
 * (multi_attack, W15) attack 10 neutrals, a different army count in every state, each with a
 * kill window of about 3,400 values (27 KiB). Cached all at once they would hold some 80 MiB;
 * the cache keeps 8 MiB a side.
 */
Test(turn_budget, the_kill_cache_is_bounded) {
    cbd_turn_territory b[] = {{ALICE, 220001}, {BOB, 120000}, {NEUTRAL, 10}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 220000), atk(ALICE, 1, 2, 0)};
    o[1].by_percent = true;
    o[1].percent = 990000;
    cbd_turn t = make(b, 3, o, 2);
    t.battle.luck_modifier = 1000000;
    t.multi_attack = true;
    cbd_budget budget;
    cbd_turn_analysis a = unlimited(&t, &budget);
    cr_expect_gt(a.max_group_states, 2000, "%llu states", (unsigned long long)a.max_group_states);
    cr_expect_float_eq(a.territories[2].owner[ALICE], 1.0, 1e-12, "the neutrals fall");
    cr_expect_lt(budget.mem_peak, 24u << 20, "peak %zu bytes", budget.mem_peak);
    cbd_turn_analysis_free(&a);
    cr_expect_eq(budget.mem_held, 0);
}

/*
 * A large battle in one group, then seven players whose orders send nothing in another group
 * of as many territories, under the random move order: 7! = 5,040 schedules of 7 steps, each
 * with a single state. The state maps keep the table the battle grew (some 2^19 slots), and
 * clearing one is charged for the slots it clears. Per schedule of the second group (budget.h
 * weights): its start (7 words) and a clear of at most 1 state; each of its 7 steps 2 to look
 * at its state, at most 1 to clear, 20 + 7 to store it; one retirement of both territories
 * (20 + 7 + 2 + 2·2, and a clear); the goals' fold (1): 253 units. Weighing each permutation
 * looks at 8 movers × 8, 1 round × 8, 8 orders and 2 × 7 steps (94). The 10,080 points sort in
 * 15 passes of 4 units each (604,800); both maps' first clear wipes them whole once (2 × 2^19
 * / 4). So the second group costs at most 5,040 × 347 + 604,800 + 262,144 < 3·10^6 units
 * beyond the battle alone; wiping the whole table at every step would charge 2^17 a clear,
 * 10^9 and more.
 */
Test(turn_budget, clearing_a_state_map_costs_what_it_held) {
    cbd_turn_territory b[] = {{ALICE, 3000}, {BOB, 3000}, {1, 1}, {2, 1}};
    cbd_turn_order o[8];
    o[0] = atk(ALICE, 0, 1, 3000);
    for (cbd_turn_player p = 1; p <= 7; p++) {
        o[p] = atk(p, 2, 3, 0); /* nothing to send (W14.3), or not p's territory (W14.1) */
    }
    cbd_turn t = make(b, 4, o, 8);
    t.n_players = 8;
    t.battle.luck_modifier = 1000000;
    t.move_order = CBD_MOVE_RANDOM;
    cbd_budget alone, full;
    t.n_orders = 1;
    cbd_turn_analysis a = unlimited(&t, &alone);
    cr_expect_gt(a.max_group_states, 100000, "a large step: %llu states",
                 (unsigned long long)a.max_group_states);
    cbd_turn_analysis_free(&a);
    t.n_orders = 8;
    a = unlimited(&t, &full);
    cr_expect_eq(a.n_groups, 2);
    cr_expect_float_eq(a.orders[7].skipped, 1.0, 1e-12);
    cbd_turn_analysis_free(&a);
    cr_expect_lt(full.work_spent, alone.work_spent + 3000000, "%llu units, %llu for the battle",
                 (unsigned long long)full.work_spent, (unsigned long long)alone.work_spent);
}
