/*
 * A fog's mixture (W23) made in pieces (issue 43, item 4): each count's distributions are added
 * into windows that join as the counts' windows overlap, and a joined window of millions of
 * slots was made (zeroed, copied into) and charged at once: 10.8 · 2^20 units between two
 * progress checks in bench_budget's "1e9 v fog of 500". Made and charged a piece of about 2^20
 * units at a time (windows.c's fill_window, warapp_fog.c's mix_into), no two checks are more than
 * 3 · 2^20 units apart: 2^20 for the interval, up to 2^20 for the charge that crosses it, and
 * room for the small charges that stay whole. Counted in units, not time: the budget's
 * work_spent at each check, its start and end counted as checks. The scratch is warm
 * (warm_scratch.h): a block's new pages, charged whole when it is taken, are not measured here.
 */
#include <stdio.h>

#include <criterion/criterion.h>

#include "combatd/warapp_odds.h"
#include "warm_scratch.h"

typedef struct {
    const cbd_budget *b;
    uint64_t last, widest, checks;
} gap_count;

static void mark(gap_count *g) {
    uint64_t now = g->b->work_spent;
    g->widest = now - g->last > g->widest ? now - g->last : g->widest;
    g->last = now;
}

static cbd_budget_stop count_check(void *arg) {
    mark(arg);
    ((gap_count *)arg)->checks++;
    return CBD_BUDGET_RUNNING;
}

/*
 * 10^9 attackers against 20 counts from 5·10^8, 2.5·10^5 apart, at full luck with weighted
 * rounding (bench_budget's row, fewer counts further apart): the defenders' kills of count c are
 * binomial(c, 0.7) (luck 1), their means 0.7 · 2.5·10^5 = 175,000 apart, each spread over
 * some ±9 standard deviations of sqrt(5·10^8 · 0.7 · 0.3) = 10,247 where its probabilities are
 * not 0 in a double: wider than the gap, so the counts' attackers-left windows overlap and join
 * into one that holds at least the 19 · 175,000 = 3,325,000 values between the first count's
 * mean and the last's: 3.17 · 2^20 slots, charged whole one charge of more than 3 · 2^20 units
 * (a slot: CBD_WORK_SCAN_TERM).
 */
Test(fog_pieces, a_mixture_of_20_counts_is_checked_throughout) {
    cbd_warapp_side attack = {1000000000, 0, NULL}, defense = {0, 0, NULL};
    cbd_warapp_count counts[20];
    for (int k = 0; k < 20; k++) {
        counts[k] = (cbd_warapp_count){500000000 + 250000 * (uint64_t)k, 1.0 / 20};
    }
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = 1000000; /* 1 */
    s.rounding = CBD_ROUND_WEIGHTED;
    cbd_budget b;
    warm_budget_init(&b, UINT64_MAX, (size_t)1 << 30);
    gap_count g = {.b = &b};
    cbd_budget_set_progress(&b, count_check, &g);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_fog(&attack, &defense, counts, 20, &s, &b, &a), CBD_OK);
    mark(&g); /* the end */
    size_t slots = cbd_windows_slots(&a.attackers_left);
    printf("fog of 20 counts: %llu units, %llu checks, %zu slots of attackers left, at most %.2f "
           "x 2^20 units between two\n",
           (unsigned long long)g.last, (unsigned long long)g.checks, slots,
           (double)g.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_geq(slots, 3325000, "the counts' windows joined (the span worked out above)");
    size_t widest = a.attackers_left.n > 0 ? a.attackers_left.w[0].len : 0;
    cr_expect_eq(a.attackers_left.n, 1, "one window");
    cr_expect_eq(widest, slots);
    cr_expect_gt(g.last, 20 * CBD_BUDGET_PROGRESS_UNITS, "a costly mixture");
    cr_expect_leq(g.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%llu units between two checks",
                  (unsigned long long)g.widest);
    cbd_warapp_analysis_free(&a);
    cr_expect_eq(b.mem_held, 0, "every block given back");
}

/*
 * A count's kill distribution, zeroed when it is made (cbd_dist_alloc): its new pages were charged
 * whole when its block was taken and all faulted in at once by the zeroing, 7.2 · 2^20 units and
 * 10 ms of CPU between two checks in bench_budget's fog of 500. Zeroed a piece at a time, each
 * piece's pages charged before it (about 2^20 units of them), no two checks are more than
 * 3 · 2^20 units apart. 2^20 values of 8 bytes are 8 MiB, 2048 pages of 4 KiB at least, all
 * charged (no scratch: every large block's pages are new) and all zero.
 */
Test(fog_pieces, a_distribution_of_8_mib_is_zeroed_in_pieces) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, (size_t)1 << 30);
    gap_count g = {.b = &b};
    cbd_budget_set_progress(&b, count_check, &g);
    cbd_dist d;
    cr_assert_eq(cbd_dist_alloc(&d, 1000, 1000 + ((uint64_t)1 << 20) - 1, &b), CBD_OK);
    mark(&g); /* the end */
    printf("a distribution of 2^20 values: %llu units, %llu checks, at most %.2f x 2^20 units "
           "between two\n",
           (unsigned long long)g.last, (unsigned long long)g.checks,
           (double)g.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(d.lo, 1000);
    cr_expect_eq(d.len, (size_t)1 << 20);
    size_t nonzero = 0;
    for (size_t i = 0; i < d.len; i++) {
        nonzero += d.p[i] != 0.0;
    }
    cr_expect_eq(nonzero, 0, "every value zero");
    cr_expect_geq(b.fresh_units, 2048 * (uint64_t)CBD_WORK_FRESH_PAGE, "every page charged");
    cr_expect_leq(g.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%llu units between two checks",
                  (unsigned long long)g.widest);
    cbd_dist_free(&d);
    cr_expect_eq(b.mem_held, 0);
}
