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
 *
 * A table's hash index rebuilt (cbd_hash_index_build): each entry placed is charged about 4
 * units, a few ns in the cache but a miss past it (some 50 ns: 2^20 units took 11-13 ms of CPU in
 * bench_budget's "7 players in 5000x5000's"), so the check comes every 16,384 entries placed as
 * well (cbd_budget_poll), counted here with no units charged at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check_gaps.h"

#include "combatd/budget.h"
#include "core/hash_index.h"
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

#define ENTRIES 100000 /* placed in a table of 2^18 slots (1 MiB) */
#define SLOTS   ((size_t)1 << 18)

static uint64_t *entry_hashes(void) {
    uint64_t *keys = malloc(ENTRIES * sizeof *keys);
    cr_assert_not_null(keys);
    for (uint64_t i = 0; i < ENTRIES; i++) {
        keys[i] = (i + 1) * UINT64_C(0x9E3779B97F4A7C15);
    }
    return keys;
}

/* A scratch that holds a 2 MiB block already, room for the index's 1 MiB table: taking it
 * faults no new page. */
static void scratch_with_a_table_block(cbd_scratch *s) {
    cbd_scratch_init(s, SIZE_MAX);
    void *kept = malloc((size_t)2 << 20);
    cr_assert_not_null(kept);
    cbd_scratch_give(s, kept, (size_t)2 << 20);
}

/* A budget whose scratch holds a block for the table already (no new pages) and whose growth
 * units are 0: the checks are the index's own, one after each 16,384th entry placed,
 * floor(100,000 / 16,384) = 6 (none before, when checks came by units only). */
Test(turn_map_pages, a_rebuilt_index_checks_by_the_entries_it_places) {
    cbd_scratch s;
    scratch_with_a_table_block(&s);
    cbd_budget b;
    gap_count g;
    gap_count_start(&b, &g);
    cbd_budget_set_scratch(&b, &s);
    uint64_t *keys = entry_hashes();
    uint32_t *slot_of = malloc(ENTRIES * sizeof *slot_of);
    cr_assert_not_null(slot_of);
    uint32_t *t = cbd_hash_index_build(&b, keys, ENTRIES, SLOTS, slot_of, 0);
    cr_assert_not_null(t);
    cr_expect_eq(b.work_spent, 0, "nothing charged: no units, no new pages");
    cr_expect_eq(g.checks, 6);
    size_t placed = 0;
    for (size_t i = 0; i < ENTRIES; i++) {
        placed += t[slot_of[i]] == i + 1;
    }
    cr_expect_eq(placed, ENTRIES, "every entry where its slot says");
    cbd_mem_free(t);
    free(slot_of);
    free(keys);
    cbd_scratch_release(&s);
}

static int cancel_at;
static cbd_budget_stop cancel_at_check(void *arg) {
    (void)arg;
    return --cancel_at > 0 ? CBD_BUDGET_RUNNING : CBD_BUDGET_CANCELLED;
}

/* The client gone at the second check (after 32,768 entries placed): the build stops there, its
 * table given back, though no unit was charged. */
Test(turn_map_pages, a_rebuilt_index_stops_at_a_check_by_entries) {
    cbd_scratch s;
    scratch_with_a_table_block(&s);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_scratch(&b, &s);
    cancel_at = 2;
    cbd_budget_set_progress(&b, cancel_at_check, NULL);
    uint64_t *keys = entry_hashes();
    cr_expect_null(cbd_hash_index_build(&b, keys, ENTRIES, SLOTS, NULL, 0));
    cr_expect_eq(b.stopped, CBD_BUDGET_CANCELLED);
    cr_expect_eq(cancel_at, 0, "two checks");
    cr_expect_eq(b.mem_held, 0, "the table given back");
    free(keys);
    cbd_scratch_release(&s);
}
