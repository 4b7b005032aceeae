/*
 * A turn table's arrays grown, their new pages charged as its states fill them: a state table
 * doubles its arrays when full, and the pages the growth adds come to the request as the kernel
 * faults them in, when a state is first written there. Charged when the arrays were taken
 * (CBD_WORK_FRESH_PAGE a page, with the growth's bytes at CBD_WORK_TURN_GROWTH), a keys array grown
 * by 8 MiB was 2048 pages, 20.5 · 10^6 units, between two progress checks; bench_budget's "8 own of
 * 1e6 in a ring" 10.5 · 2^20 for its 40 MB, its "7 players in 5000x5000's" 78 · 2^20 for a table of
 * points (warapp_turn_retire.c, charged the same way). Charged over the states that fill them
 * (cbd_budget_defer_pages and cbd_charge_share_pages_init), no two checks are more than 3 · 2^20
 * units apart, and every page the states touched is charged. Counted in units: the budget's
 * work_spent at each check, its start and end counted as checks. No scratch: every large block's
 * pages are new (budget.c).
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check_gaps.h"

#include "combatd/budget.h"
#include "core/warapp/turn/warapp_turn_internal.h"

#define WORDS  64    /* a state of 256 bytes */
#define STATES 65536 /* 16 MiB of keys: the last growth adds 8 MiB of them, 2048 pages */

Test(turn_map_pages, a_grown_table_charges_its_pages_as_its_states_fill_it) {
    cbd_budget b;
    gap_count g;
    gap_count_start(&b, &g);
    cbd_turn_map m;
    memset(&m, 0, sizeof m);
    m.budget = &b;
    cr_assert_eq(cbdp_turn_map_clear(&m, WORDS), CBD_OK);
    uint32_t key[WORDS];
    memset(key, 0, sizeof key);
    for (uint32_t i = 0; i < STATES; i++) {
        key[0] = i; /* distinct states: each a new entry */
        cr_assert(cbd_charge(&b, CBD_WORK_TURN_STATE), "the caller's charge for the state");
        cr_assert_eq(cbdp_turn_map_add(&m, key, 1.0), CBD_OK);
    }
    gap_count_mark(&g); /* the end */
    cr_assert_eq(m.count, STATES);
    printf("%d states of %d words: %llu units, %llu checks, %llu units of new pages, at most "
           "%.2f x 2^20 units between two\n",
           STATES, WORDS, (unsigned long long)g.last, (unsigned long long)g.checks,
           (unsigned long long)b.fresh_units, (double)g.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    /* Every page of the filled keys array is charged: 16 MiB / 4 KiB = 4096 pages at least. */
    cr_expect_geq(b.fresh_units, 4096 * (uint64_t)CBD_WORK_FRESH_PAGE);
    cr_expect_gt(g.last, 20 * CBD_BUDGET_PROGRESS_UNITS, "a costly table");
    cr_expect_leq(g.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%llu units between two checks",
                  (unsigned long long)g.widest);
    cbdp_turn_map_free(&m);
    cr_expect_eq(b.mem_held, 0, "every block given back");
}
