/*
 * A fog's steps made in pieces (W23): each count's kill distribution is made
 * zeroed (cbd_dist_alloc), and each count's distributions are added into windows that join as
 * the counts' windows overlap (cbd_windows_cover). A joined window of millions of slots was made
 * (zeroed, copied into) and charged at once, and both blocks' new pages were charged whole when
 * they were taken: 10.8 and 7.2 · 2^20 units between two progress checks in bench_budget's "1e9 v
 * fog of 500". Made and charged a piece of about 2^20 units at a time, no two checks are more
 * than 3 · 2^20 units apart: 2^20 for the interval, up to 2^20 for the charge that crosses it, and
 * room for the small charges that stay whole. Counted in units, not time: the budget's
 * work_spent at each check, its start and end counted as checks. No scratch: every large block's
 * pages are new (budget.c), and charged.
 */
#include <stdio.h>

#include <criterion/criterion.h>

#include "check_gaps.h"

#include "combatd/warapp_odds.h"
#include "combatd/windows.h"

/*
 * The windows' own step (windows.c): a window of 10 values and one of 10 more 4·10^6 values
 * further, covered from the first to the last, join into one new window of 4,000,020 slots, made
 * (zeroed, the two copied in) and charged at CBD_WORK_SCAN_TERM a slot: 3.8 · 2^20 units, charged
 * whole before it was made (a fog's mixture of 500 counts joined windows of 10.8 · 2^20 so), and
 * the new pages of its block (no scratch: all of them), charged whole when it was taken.
 */
Test(fog_pieces, a_joined_window_is_made_in_pieces) {
    cbd_budget b;
    gap_count g;
    gap_count_start(&b, &g);
    cbd_windows ws;
    cbd_windows_init(&ws);
    cbd_slot *at;
    cr_assert_eq(cbd_windows_cover(&ws, 0, 9, 0, CBD_WORK_SCAN_TERM, &b, &at), CBD_OK);
    at[3].p = 0.25;
    cr_assert_eq(cbd_windows_cover(&ws, 4000010, 4000019, 0, CBD_WORK_SCAN_TERM, &b, &at), CBD_OK);
    at[5].p = 0.75;
    cr_assert_eq(ws.n, 2, "two windows, far apart");
    uint64_t before = b.work_spent, fresh_before = b.fresh_units;
    g.last = before;
    g.widest = 0;
    cr_assert_eq(cbd_windows_cover(&ws, 0, 4000019, 0, CBD_WORK_SCAN_TERM, &b, &at), CBD_OK);
    gap_count_mark(&g); /* the end */
    printf("a window of 4,000,020 slots joined: %llu units, %llu checks, at most %.2f x 2^20 "
           "units between two\n",
           (unsigned long long)(g.last - before), (unsigned long long)g.checks,
           (double)g.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(ws.n, 1);
    cr_expect_eq(cbd_windows_slots(&ws), 4000020);
    /* a unit a slot (no window moved in the list), and the new block's pages: no scratch, so
     * every page of its 32 MB (4,000,020 slots of 8 bytes), 7,813 at least */
    uint64_t pages = b.fresh_units - fresh_before;
    cr_expect_eq(g.last - before - pages, 4000020);
    cr_expect_geq(pages, 7813 * (uint64_t)CBD_WORK_FRESH_PAGE);
    cr_expect_eq(cbd_windows_p(&ws, 3), 0.25);
    cr_expect_eq(cbd_windows_p(&ws, 4000015), 0.75);
    cr_expect_eq(cbd_windows_p(&ws, 2000000), 0.0);
    cr_expect_leq(g.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%llu units between two checks",
                  (unsigned long long)g.widest);
    cbd_windows_free(&ws);
    cr_expect_eq(b.mem_held, 0);
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
    gap_count g;
    gap_count_start(&b, &g);
    cbd_dist d;
    cr_assert_eq(cbd_dist_alloc(&d, 1000, 1000 + ((uint64_t)1 << 20) - 1, &b), CBD_OK);
    gap_count_mark(&g); /* the end */
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
