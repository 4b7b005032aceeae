#ifndef COMBATD_TEST_WARM_SCRATCH_H
#define COMBATD_TEST_WARM_SCRATCH_H

/*
 * A scratch (combatd/scratch.h) that already holds enough large blocks for any request of the
 * tests, as a running server's warm memory does: a budget that uses it is charged its steps
 * only, never new pages, so that tests which work out a request's charge step by step (or the
 * member a small budget stops at) need not count the pages of blocks a server would have warm.
 * What new pages cost is budget.h's, tested in tests/unit/core/test_budget.c and measured per
 * request in test_budget_attacks. The blocks are malloc'd and never touched here: mappings of
 * their own, resident only once used.
 */
#include <stdlib.h>

#include "combatd/budget.h"
#include "combatd/scratch.h"

#define WARM_SCRATCH_BLOCKS 48
#define WARM_SCRATCH_BLOCK  ((size_t)64 << 20)

static cbd_scratch warm_scratch_kept;

/* At exit the blocks go back: LeakSanitizer (the ASan build's detect_leaks) scans every block
 * still held for pointers at exit, and the 3 GiB of these took some 10 s of a test process that
 * used them (test_progress_gaps_api: 11.5 s a test, 1.9 with detect_leaks off). */
static inline void warm_scratch_release(void) {
    cbd_scratch_release(&warm_scratch_kept);
}

static inline cbd_scratch *warm_scratch(void) {
    static bool filled;
    if (!filled) {
        filled = true;
        cbd_scratch_init(&warm_scratch_kept, SIZE_MAX);
        for (int i = 0; i < WARM_SCRATCH_BLOCKS; i++) {
            cbd_scratch_give(&warm_scratch_kept, malloc(WARM_SCRATCH_BLOCK), WARM_SCRATCH_BLOCK);
        }
        (void)atexit(warm_scratch_release); /* (without it they are only scanned) */
    }
    return &warm_scratch_kept;
}

/* cbd_budget_init, with the warm scratch. */
static inline void warm_budget_init(cbd_budget *b, uint64_t work_limit, size_t mem_limit) {
    cbd_budget_init(b, work_limit, mem_limit);
    cbd_budget_set_scratch(b, warm_scratch());
}

#endif
