/*
 * The battle cores charge the request budget exactly what they say (budget.h): a binomial
 * window its room's terms before walking it (and its new pages as it writes them), the seeded
 * battles their blocks before playing them, and
 * a budget one unit or one byte short stops them with CBD_ERR_BUDGET holding no memory.
 * Every expected figure is worked out by hand below from the documented rules.
 */
#include <criterion/criterion.h>

#include <stdint.h>

#include "combatd/binomial.h"
#include "combatd/budget.h"
#include "combatd/warapp_simulate.h"

/* ---- binomial windows ---- */

/*
 * The walk makes room for `reach` = floor(10σ) + 64 values each side of the mode
 * floor((n + 1)·p), clamped to [0, n], and charges CBD_WORK_BINOM_TERM for every slot (one
 * attempt: 10σ is past the cut-off of 1e-18 of the peak, about 9.1σ, so it is never retried).
 */
typedef struct {
    uint64_t n;
    cbd_micro p;
    uint64_t room;  /* below + above + 1, by hand */
    uint64_t pages; /* of its room's block, 32 bytes of header included, when it is large */
} window_case;

static const window_case windows[] = {
    /* σ = √(100·½·½) = 5, reach 50 + 64 = 114; mode 50 clamps both sides to 50: 101. */
    {100, 500000, 101, 0},
    /* σ = √(10^6·¼) = 500, reach 5064; mode 500000 leaves both sides whole: 2·5064 + 1. */
    /* 81,032 + 32 bytes: a large block (64 KiB or more) of 20 pages of 4,096. */
    {1000000, 500000, 10129, 20},
    /* σ = √(10^9·0.6·0.4) = 15491.93, reach 154919 + 64 = 154983: 2·154983 + 1. */
    /* 2,479,736 + 32 bytes: 606 pages (605.4 rounded up). */
    {1000000000, 600000, 309967, 606},
    /* σ = √(1000·0.001·0.999) = 0.9995, reach 9 + 64 = 73; mode floor(1001·0.001) = 1 clamps
     * below to 1: 1 + 73 + 1. */
    {1000, 1000, 75, 0},
};

Test(binomial_budget, a_window_charges_every_slot_of_its_room) {
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        const window_case *c = &windows[i];
        cbd_budget b;
        cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
        cbd_binom_window w;
        cr_assert_eq(cbd_binom_window_compute(c->n, c->p, &b, &w), CBD_OK);
        /* With no scratch to keep it warm, a large block's pages are new each time. */
        cr_expect_eq(b.work_spent, CBD_WORK_BINOM_TERM * c->room + CBD_WORK_FRESH_PAGE * c->pages,
                     "n=%lu: %lu units", (unsigned long)c->n, (unsigned long)b.work_spent);
        /* The room is held at once, then shrunk to the window. */
        cr_expect_eq(b.mem_peak, c->room * sizeof(double), "n=%lu", (unsigned long)c->n);
        cr_expect_eq(b.mem_held, w.len * sizeof(double));
        cr_expect_leq(w.len, c->room);
        cbd_binom_window_free(&w);
        cr_expect_eq(b.mem_held, 0);
    }
}

Test(binomial_budget, a_budget_one_unit_short_stops_before_any_memory_is_taken) {
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        const window_case *c = &windows[i];
        uint64_t units = CBD_WORK_BINOM_TERM * c->room;
        cbd_budget b;
        cbd_budget_init(&b, units - 1, SIZE_MAX);
        cbd_binom_window w;
        cr_assert_eq(cbd_binom_window_compute(c->n, c->p, &b, &w), CBD_ERR_BUDGET);
        cr_expect_eq(b.stopped, CBD_BUDGET_WORK);
        cr_expect_eq(b.work_spent, units, "the refused charge is recorded as spent");
        cr_expect_eq(b.mem_held, 0);
        cr_expect_eq(b.mem_peak, 0);
        cr_expect_null(w.pmf);
        /* Exactly the charge, its room's new pages included, is within the budget; a unit
         * less stops the walk on the way (its pages are paid as it writes them), its buffer
         * given back. */
        uint64_t all = units + CBD_WORK_FRESH_PAGE * c->pages;
        cbd_budget_init(&b, all, SIZE_MAX);
        cr_assert_eq(cbd_binom_window_compute(c->n, c->p, &b, &w), CBD_OK);
        cbd_binom_window_free(&w);
        cr_expect_eq(b.mem_held, 0);
        if (c->pages > 0) {
            cbd_budget_init(&b, all - 1, SIZE_MAX);
            cr_expect_eq(cbd_binom_window_compute(c->n, c->p, &b, &w), CBD_ERR_BUDGET);
            cr_expect_eq(b.stopped, CBD_BUDGET_WORK);
            cr_expect_eq(b.mem_held, 0);
        }
    }
}

Test(binomial_budget, a_budget_one_byte_short_stops_with_nothing_held) {
    const window_case *c = &windows[1];
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, c->room * sizeof(double) - 1);
    cbd_binom_window w;
    cr_assert_eq(cbd_binom_window_compute(c->n, c->p, &b, &w), CBD_ERR_BUDGET);
    cr_expect_eq(b.stopped, CBD_BUDGET_MEMORY);
    cr_expect_eq(b.mem_held, 0);
    cr_expect_null(w.pmf);
}

/* ---- seeded battles ---- */

/*
 * 10 against 10 at kill rates 0.6 and 0.7 with no luck: every battle is 6 kills against 7
 * (W1), leaving 3 attackers and 4 defenders (W4), and neither roll needs a draw, so a battle
 * costs CBD_WORK_BATTLE less two CBD_WORK_BATTLE_ROLL. The first value of a histogram opens the
 * window [v − 32, v + 32) clamped at 0: [0, 35) for 3 and [0, 36) for 4, 71 slots in all.
 */
#define FIXED_BATTLE     (CBD_WORK_BATTLE - 2 * CBD_WORK_BATTLE_ROLL)
#define FIXED_HIST_SLOTS 71u
/* A histogram's list of windows: room for 4 at first (windows.h). */
#define HIST_LIST (4 * sizeof(cbd_window))

static cbd_warapp_settings fixed_settings(void) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.offense_kill_rate = 600000;
    s.defense_kill_rate = 700000;
    s.luck_modifier = 0;
    s.rounding = CBD_ROUND_STRAIGHT;
    return s;
}

static cbd_warapp_sim fixed_sim(void) {
    cbd_warapp_settings s = fixed_settings();
    cbd_warapp_sim sim;
    cbd_warapp_sim_init(&sim, 10, 10, &s);
    return sim;
}

/* The same battle as a plan, made outside the budgets under test. */
static cbd_sim_plan fixed_plan(void) {
    cbd_warapp_settings s = fixed_settings();
    cbd_warapp_side a = {10, 0, NULL}, d = {10, 0, NULL};
    cbd_sim_plan plan;
    cr_assert_eq(cbd_sim_plan_init(&plan, &a, &d, NULL, 0, &s, NULL), CBD_OK);
    return plan;
}

Test(simulate_budget, a_battle_is_charged_for_the_rolls_it_draws) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = 160000;
    cbd_warapp_sim sim;
    cbd_warapp_sim_init(&sim, 10, 10, &s);
    cr_expect_eq(cbd_warapp_sim_battle_units(&sim), CBD_WORK_BATTLE);
    /* A defense rate of 1 kills every attacker whatever the luck: no roll on that side. */
    s.defense_kill_rate = 1000000;
    cbd_warapp_sim_init(&sim, 10, 10, &s);
    cr_expect_eq(cbd_warapp_sim_battle_units(&sim), CBD_WORK_BATTLE - CBD_WORK_BATTLE_ROLL);
    sim = fixed_sim();
    cr_expect_eq(cbd_warapp_sim_battle_units(&sim), FIXED_BATTLE);
}

Test(simulate_budget, blocks_charge_their_battles_jumps_and_histograms_exactly) {
    cbd_sim_plan sim = fixed_plan();
    /* Four blocks, the last one of 5 trials. */
    const uint64_t trials = 3 * CBD_SIM_BLOCK + 5;
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 9, trials, 0, 4, &b, &st, NULL), CBD_OK);
    cr_expect_eq(st.trials, trials);
    cr_expect_eq(cbd_hist_get(&st.attackers_left, 3), trials);
    cr_expect_eq(cbd_hist_get(&st.defenders_left, 4), trials);
    /* 196613 · 20 + 4 jumps · 220 + 71 slots · 3 = 3932260 + 880 + 213. */
    cr_expect_eq(b.work_spent, trials * FIXED_BATTLE + 4 * CBD_WORK_RNG_JUMP +
                                   FIXED_HIST_SLOTS * CBD_WORK_HIST_SLOT);
    cr_expect_eq(b.mem_peak, FIXED_HIST_SLOTS * sizeof(cbd_slot) + 2 * HIST_LIST);
    cbd_sim_stats_free(&st);
    cr_expect_eq(b.mem_held, 0);

    /* Blocks 2 and 3 alone: the two jumps to reach block 2 are charged first. */
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 9, trials, 2, 4, &b, &st, NULL), CBD_OK);
    cr_expect_eq(st.trials, CBD_SIM_BLOCK + 5);
    cr_expect_eq(b.work_spent, 2 * CBD_WORK_RNG_JUMP + (CBD_SIM_BLOCK + 5) * FIXED_BATTLE +
                                   2 * CBD_WORK_RNG_JUMP + FIXED_HIST_SLOTS * CBD_WORK_HIST_SLOT);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&sim);
}

/* A block's battles run in slices of CBD_BUDGET_PROGRESS_UNITS of work (2^20 / 20 = 52,428
 * battles of 20 units; a block of 65,536 is a slice of 52,428 and one of 13,108), each charged
 * before it runs, so that the progress check comes every slice: a slice the budget cannot pay
 * for is not played. */
#define FIXED_SLICE (CBD_BUDGET_PROGRESS_UNITS / FIXED_BATTLE)

Test(simulate_budget, a_slice_is_refused_before_it_runs) {
    cbd_sim_plan sim = fixed_plan();
    const uint64_t trials = 2 * CBD_SIM_BLOCK;
    cr_assert_eq(FIXED_SLICE, 52428);
    const uint64_t first_slice = FIXED_SLICE * FIXED_BATTLE;
    /* One unit short of the first slice: not one battle is played, nothing is allocated. */
    cbd_budget b;
    cbd_budget_init(&b, first_slice - 1, SIZE_MAX);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 9, trials, 0, 2, &b, &st, NULL), CBD_ERR_BUDGET);
    cr_expect_eq(b.stopped, CBD_BUDGET_WORK);
    cr_expect_eq(st.trials, 0);
    cr_expect_eq(b.mem_peak, 0);
    cbd_sim_stats_free(&st);

    /* The first slice and its histograms, not the block's second slice (13,108 battles). */
    uint64_t slice_hist = first_slice + FIXED_HIST_SLOTS * CBD_WORK_HIST_SLOT;
    cbd_budget_init(&b, slice_hist, SIZE_MAX);
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 9, trials, 0, 2, &b, &st, NULL), CBD_ERR_BUDGET);
    cr_expect_eq(st.trials, FIXED_SLICE, "the first slice was played");
    cr_expect_eq(b.work_spent, slice_hist + (CBD_SIM_BLOCK - FIXED_SLICE) * FIXED_BATTLE);
    cbd_sim_stats_free(&st);

    /* Enough for the first block (its slices, its histograms, the jump), not for the second. */
    uint64_t one_block =
        CBD_SIM_BLOCK * FIXED_BATTLE + CBD_WORK_RNG_JUMP + FIXED_HIST_SLOTS * CBD_WORK_HIST_SLOT;
    cbd_budget_init(&b, one_block, SIZE_MAX);
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 9, trials, 0, 2, &b, &st, NULL), CBD_ERR_BUDGET);
    cr_expect_eq(st.trials, CBD_SIM_BLOCK, "the first block was played");
    cr_expect_eq(b.work_spent, one_block + first_slice);
    cbd_sim_stats_free(&st);
    cr_expect_eq(b.mem_held, 0);
    cbd_sim_plan_free(&sim);
}

Test(simulate_budget, histograms_take_their_windows_from_the_budget) {
    cbd_sim_plan sim = fixed_plan();
    /* Room for the attackers' 35 slots, one byte short of the defenders' 36 as well (each
     * histogram's list of windows beside). */
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, FIXED_HIST_SLOTS * sizeof(cbd_slot) + 2 * HIST_LIST - 1);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cr_assert_eq(cbd_warapp_sim_blocks(&sim, 9, 10, 0, 1, &b, &st, NULL), CBD_ERR_BUDGET);
    cr_expect_eq(b.stopped, CBD_BUDGET_MEMORY);
    cr_expect_eq(b.mem_held, 35 * sizeof(cbd_slot) + HIST_LIST);
    cbd_sim_stats_free(&st);
    cr_expect_eq(b.mem_held, 0);
    cbd_sim_plan_free(&sim);
}

Test(simulate_budget, a_merge_charges_the_slots_it_reads) {
    /* src: 7 at value 100 opens [68, 132), 64 slots; merged into an empty dst it opens the
     * same 64 slots there: 64 · 1 read + 64 · 3 made. */
    cbd_hist src, dst;
    cbd_hist_init(&src);
    cbd_hist_init(&dst);
    cr_assert_eq(cbd_hist_add(&src, 100, 7, NULL), CBD_OK);
    cr_assert_eq(cbd_windows_slots(&src.w), 64);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cr_assert_eq(cbd_hist_merge(&dst, &src, &b), CBD_OK);
    cr_expect_eq(b.work_spent, 64 * CBD_WORK_SCAN_TERM + 64 * CBD_WORK_HIST_SLOT);
    cr_expect_eq(cbd_hist_get(&dst, 100), 7);
    cr_expect_eq(b.mem_held, 64 * sizeof(cbd_slot) + HIST_LIST);
    cbd_hist_free(&dst);
    cbd_hist_free(&src);
    cr_expect_eq(b.mem_held, 0);
}
