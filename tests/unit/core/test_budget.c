/* The request budget (include/combatd/budget.h): work stops at its limit, memory at its cap,
 * blocks go back to the budget they came from, and the progress callback can cancel. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "combatd/budget.h"

Test(budget, work_stops_once_the_limit_is_passed_and_stays_stopped) {
    cbd_budget b;
    cbd_budget_init(&b, 100, SIZE_MAX);
    cr_assert(cbd_charge(&b, 60));
    cr_assert(cbd_charge(&b, 40)); /* exactly the limit: still within */
    cr_assert_eq(b.stopped, CBD_BUDGET_RUNNING);
    cr_assert_not(cbd_charge(&b, 1));
    cr_assert_eq(b.stopped, CBD_BUDGET_WORK);
    cr_assert_eq(b.work_spent, 101);
    cr_assert_not(cbd_charge(&b, 0), "a stopped budget refuses every later charge");
    cr_assert(cbd_budget_spent(&b));
}

Test(budget, a_huge_charge_saturates_rather_than_wrapping) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX - 1, SIZE_MAX);
    cr_assert(cbd_charge(&b, 10));
    cr_assert_not(cbd_charge(&b, UINT64_MAX));
    cr_assert_eq(b.work_spent, UINT64_MAX);
    cr_assert_eq(cbd_work_times(UINT64_MAX / 2, 3), UINT64_MAX);
    cr_assert_eq(cbd_work_times(7, 6), 42);
    cr_assert_eq(cbd_work_times(7, 0), 0);
}

Test(budget, a_null_budget_is_unlimited) {
    cr_assert(cbd_charge(NULL, UINT64_MAX));
    cr_assert_not(cbd_budget_spent(NULL));
    void *p = cbd_mem_alloc(NULL, 1000);
    cr_assert_not_null(p);
    p = cbd_mem_realloc(NULL, p, 5000);
    cr_assert_not_null(p);
    cbd_mem_free(p);
    cr_assert_eq(cbd_budget_nomem(NULL), CBD_ERR_NOMEM);
}

Test(budget, memory_is_held_until_freed_and_capped) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, 1000);
    char *a = cbd_mem_alloc(&b, 600);
    cr_assert_not_null(a);
    cr_assert_eq(b.mem_held, 600);
    cr_assert_null(cbd_mem_alloc(&b, 401), "600 + 401 passes 1000");
    cr_assert_eq(b.stopped, CBD_BUDGET_MEMORY);
    cr_assert_eq(cbd_budget_nomem(&b), CBD_ERR_BUDGET);
    cr_assert_eq(b.mem_held, 600, "a refused block is not counted");
    cr_assert_eq(b.mem_refused, 401, "but its size is kept for the 422");
    cbd_mem_free(a);
    cr_assert_eq(b.mem_held, 0);
    cr_assert_eq(b.mem_peak, 600);
}

Test(budget, calloc_zeroes_and_refuses_an_overflowing_product) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    unsigned char *z = cbd_mem_calloc(&b, 10, 7);
    cr_assert_not_null(z);
    for (int i = 0; i < 70; i++) {
        cr_assert_eq(z[i], 0);
    }
    cr_assert_eq(b.mem_held, 70);
    cr_assert_null(cbd_mem_calloc(&b, SIZE_MAX / 2, 3));
    cbd_mem_free(z);
}

Test(budget, realloc_moves_the_count_with_the_block) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, 1000);
    int *p = cbd_mem_realloc(&b, NULL, 100);
    cr_assert_not_null(p);
    p[0] = 42;
    p = cbd_mem_realloc(&b, p, 800);
    cr_assert_not_null(p);
    cr_assert_eq(p[0], 42);
    cr_assert_eq(b.mem_held, 800);
    cr_assert_null(cbd_mem_realloc(&b, p, 1001), "past the cap: the old block is kept");
    cr_assert_eq(b.mem_held, 800);
    cr_assert_eq(p[0], 42);
    b.stopped = CBD_BUDGET_RUNNING;
    p = cbd_mem_realloc(&b, p, 8);
    cr_assert_not_null(p);
    cr_assert_eq(b.mem_held, 8, "shrinking gives memory back");
    cbd_mem_free(p);
    cr_assert_eq(b.mem_held, 0);
    cr_assert_eq(b.mem_peak, 800);
}

static unsigned calls;
static cbd_budget_stop stop_on_third(void *arg) {
    (void)arg;
    return ++calls == 3 ? CBD_BUDGET_CANCELLED : CBD_BUDGET_RUNNING;
}

/* Small blocks come from malloc's heap: 4 MiB of them are free of charge (a running server's
 * heap has those pages), and each new peak past them is charged as new pages, 10,000 units a
 * page of 4,096 bytes, rounded up per block. Memory given back and taken again below the peak
 * costs nothing more. */
Test(budget, small_blocks_past_4_mib_of_heap_are_charged_as_new_pages) {
    const size_t block = 15 * 4096; /* 61,440 bytes: under the 64 KiB of a large block */
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    void *blocks[80];
    for (int i = 0; i < 68; i++) {
        blocks[i] = cbd_mem_alloc(&b, block);
        cr_assert_not_null(blocks[i]);
    }
    cr_assert_eq(b.work_spent, 0, "68 blocks: 4,177,920 bytes, under 4 MiB (4,194,304)");
    blocks[68] = cbd_mem_alloc(&b, block);
    /* 4,239,360 bytes: 45,056 past 4 MiB, 11 pages */
    cr_assert_eq(b.work_spent, 110000);
    for (int i = 69; i < 80; i++) {
        blocks[i] = cbd_mem_alloc(&b, block);
    }
    cr_assert_eq(b.work_spent, 110000 + 11 * 150000, "11 more blocks of 15 pages");
    cbd_mem_free(blocks[79]);
    blocks[79] = cbd_mem_alloc(&b, block);
    cr_assert_eq(b.work_spent, 1760000, "back to the same peak: nothing more");
    cr_assert_eq(b.fresh_bytes, 176 * 4096);
    for (int i = 0; i < 80; i++) {
        cbd_mem_free(blocks[i]);
    }
    cr_assert_eq(b.mem_held, 0);
    cr_assert_eq(b.small_held, 0);
    cr_assert_eq(b.mem_peak, 80 * block);
}

/* A large block (64 KiB or more) with no scratch is a mapping of its own under the server's
 * malloc policy: each one is charged all its pages, its 32-byte header included. 1 MiB + 32
 * bytes: 257 pages. */
Test(budget, large_blocks_without_a_scratch_are_charged_each_time) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    void *p = cbd_mem_alloc(&b, (size_t)1 << 20);
    cr_assert_not_null(p);
    cr_assert_eq(b.work_spent, 2570000);
    cbd_mem_free(p);
    p = cbd_mem_alloc(&b, (size_t)1 << 20);
    cr_assert_eq(b.work_spent, 2 * 2570000, "taken again: new pages again");
    cbd_mem_free(p);
    cr_assert_eq(b.mem_held, 0);
}

/* With a scratch, a large block freed is kept warm: taken again it costs nothing; a larger one
 * grows the largest kept block, charged for its growth only. */
Test(budget, large_blocks_from_a_scratch_are_charged_once) {
    cbd_scratch s;
    cbd_scratch_init(&s, (size_t)64 << 20);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_scratch(&b, &s);
    char *p = cbd_mem_alloc(&b, (size_t)1 << 20);
    cr_assert_not_null(p);
    cr_assert_eq(b.work_spent, 2570000, "257 new pages");
    p[0] = 7;
    cbd_mem_free(p);
    cr_assert_eq(s.count, 1);
    cr_assert_eq(s.kept, ((size_t)1 << 20) + 4096);
    p = cbd_mem_alloc(&b, (size_t)1 << 20);
    cr_assert_eq(b.work_spent, 2570000, "the kept block: nothing more");
    cr_assert_eq(s.count, 0);
    char *q = cbd_mem_alloc(&b, (size_t)512 << 10);
    cr_assert_eq(b.work_spent, 2570000 + 1290000, "a second block, 129 new pages");
    cbd_mem_free(p);
    cbd_mem_free(q);
    cr_assert_eq(s.count, 2);
    p = cbd_mem_alloc(&b, (size_t)2 << 20);
    cr_assert_not_null(p);
    cr_assert_eq(b.work_spent, 3860000 + 2560000, "the 1 MiB block grown by 256 pages");
    cr_assert_eq(s.count, 1, "the 512 KiB block is still kept");
    cbd_mem_free(p);
    cr_assert_eq(b.mem_held, 0);
    cr_assert_eq(b.fresh_bytes, (size_t)(257 + 129 + 256) * 4096);
    cbd_scratch_release(&s);
    cr_assert_eq(s.kept, 0);
}

/* A large block grows in place within its capacity, into a kept block when one holds it, and
 * else by realloc: its content moves with it each time and only growth is charged. */
Test(budget, a_large_block_grows_warm) {
    cbd_scratch s;
    cbd_scratch_init(&s, (size_t)64 << 20);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_scratch(&b, &s);
    void *spare = cbd_mem_alloc(&b, (size_t)3 << 20); /* 769 pages, kept when freed */
    cbd_mem_free(spare);
    uint64_t before = b.work_spent;
    cr_assert_eq(before, 7690000);
    unsigned char *p = cbd_mem_alloc(&b, (size_t)100 << 10); /* served by the kept block */
    cr_assert_eq(b.work_spent, before);
    p[0] = 1;
    p = cbd_mem_realloc(&b, p, (size_t)3 << 20);
    cr_assert_eq(p[0], 1);
    cr_assert_eq(b.work_spent, before, "within the capacity: in place");
    p = cbd_mem_realloc(&b, p, (size_t)4 << 20);
    cr_assert_not_null(p);
    cr_assert_eq(p[0], 1);
    cr_assert_eq(b.work_spent, before + 2560000, "grown by realloc: 256 pages");
    cr_assert_eq(b.mem_held, (size_t)4 << 20);
    unsigned char *small = cbd_mem_alloc(&b, 1000);
    small[999] = 9;
    small = cbd_mem_realloc(&b, small, (size_t)200 << 10);
    cr_assert_eq(small[999], 9, "a heap block grown large keeps its content");
    cr_assert_eq(b.mem_held, ((size_t)4 << 20) + ((size_t)200 << 10));
    cbd_mem_free(small);
    cbd_mem_free(p);
    cr_assert_eq(b.mem_held, 0);
    cr_assert_eq(b.small_held, 0);
    cbd_scratch_release(&s);
}

/* A fresh charge that passes the work limit keeps its block; the budget stops with the work
 * named, and the next charge says so. 5 MiB + 32 bytes: 1,281 pages against 100 units. */
Test(budget, a_fresh_charge_past_the_work_limit_stops_the_budget_on_work) {
    cbd_budget b;
    cbd_budget_init(&b, 100, SIZE_MAX);
    void *p = cbd_mem_alloc(&b, (size_t)5 << 20);
    cr_assert_not_null(p);
    cr_assert_eq(b.work_spent, 12810000);
    cr_assert_eq(b.stopped, CBD_BUDGET_WORK);
    cr_assert_not(cbd_charge(&b, 1));
    cbd_mem_free(p);
}

Test(budget, progress_is_called_once_per_interval_and_can_cancel) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_progress(&b, stop_on_third, NULL);
    calls = 0;
    /* Small charges: one call each time the total crosses an interval. */
    for (uint64_t i = 0; i < CBD_BUDGET_PROGRESS_UNITS / 1024 * 2 - 1; i++) {
        cr_assert(cbd_charge(&b, 1024));
    }
    cr_assert_eq(calls, 1);
    /* One charge of many intervals calls it once, not once per interval. */
    cr_assert(cbd_charge(&b, CBD_BUDGET_PROGRESS_UNITS * 10));
    cr_assert_eq(calls, 2);
    cr_assert_not(cbd_charge(&b, CBD_BUDGET_PROGRESS_UNITS));
    cr_assert_eq(calls, 3);
    cr_assert_eq(b.stopped, CBD_BUDGET_CANCELLED);
}

/* A budget with a cache: its small blocks come from size classes of 2^k bytes with their
 * 32-byte header (100 + 32 and 200 + 32 both fit 256) and go back to them, so that a second
 * round of blocks of one class takes nothing more from the heap. */
Test(budget, a_cache_serves_freed_blocks_again) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_block_cache c;
    memset(&c, 0, sizeof c);
    cbd_budget_set_cache(&b, &c);
    void *p[10];
    for (int i = 0; i < 10; i++) {
        p[i] = cbd_mem_alloc(&b, 100);
        cr_assert_not_null(p[i]);
        memset(p[i], i, 100);
    }
    cr_expect_eq(c.heap_blocks, 10);
    cr_expect_eq(c.reused, 0);
    cr_expect_eq(b.mem_held, 1000);
    for (int i = 0; i < 10; i++) {
        cbd_mem_free(p[i]);
    }
    cr_expect_eq(c.kept, 10 * 256);
    cr_expect_eq(b.mem_held, 0);
    for (int i = 0; i < 10; i++) {
        p[i] = cbd_mem_alloc(&b, 200);
        cr_assert_not_null(p[i]);
    }
    cr_expect_eq(c.heap_blocks, 10, "a second round of the class came from the heap");
    cr_expect_eq(c.reused, 10);
    cr_expect_eq(c.kept, 0);
    cr_expect_eq(b.mem_held, 2000);
    void *other = cbd_mem_alloc(&b, 300); /* 332 bytes: the class of 512, empty */
    cr_expect_eq(c.heap_blocks, 11);
    cbd_mem_free(other);
    for (int i = 0; i < 10; i++) {
        cbd_mem_free(p[i]);
    }
    cr_expect_eq(c.kept, 10 * 256 + 512);
    cr_expect_eq(b.heap_blocks, 11, "the budget counts its cache's blocks from the heap");
    cbd_block_cache_release(&c);
    cr_expect_eq(c.kept, 0);
    cr_expect_eq(c.heap_blocks, 11);
    for (int k = 0; k < CBD_CACHE_CLASSES; k++) {
        cr_expect_null(c.free[k]);
    }
}

/* A cached block grows in place within its class (100 -> 200: 232 of 256 bytes), then moves
 * with its bytes to the class that fits (1000: 1032 of 2048), its old place kept for the next
 * block of its class. */
Test(budget, a_cached_block_grows_in_its_class_then_moves) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_block_cache c;
    memset(&c, 0, sizeof c);
    cbd_budget_set_cache(&b, &c);
    unsigned char *p = cbd_mem_alloc(&b, 100);
    cr_assert_not_null(p);
    memset(p, 7, 100);
    unsigned char *q = cbd_mem_realloc(&b, p, 200);
    cr_expect_eq(q, p);
    cr_expect_eq(b.mem_held, 200);
    unsigned char *r = cbd_mem_realloc(&b, q, 1000);
    cr_assert_not_null(r);
    cr_expect_neq(r, q);
    cr_expect_eq(b.mem_held, 1000);
    for (int i = 0; i < 100; i++) {
        cr_expect_eq(r[i], 7);
    }
    cr_expect_eq(c.kept, 256);
    unsigned char *s = cbd_mem_alloc(&b, 150);
    cr_expect_eq(s, p, "the class of 256's freed block");
    cbd_mem_free(s);
    cbd_mem_free(r);
    cr_expect_eq(b.mem_held, 0);
    cr_expect_eq(c.heap_blocks, 2);
    cbd_block_cache_release(&c);
}

/* Freed blocks past CBD_CACHE_KEEP (16 MiB) go to the heap: 300 blocks of 60,000 bytes (class
 * 65,536) freed keep 256 of them, 16 MiB exactly. A budget without a cache counts its small
 * blocks from the heap itself. */
Test(budget, the_cache_keeps_at_most_its_keep) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_block_cache c;
    memset(&c, 0, sizeof c);
    cbd_budget_set_cache(&b, &c);
    void *p[300];
    for (int i = 0; i < 300; i++) {
        p[i] = cbd_mem_alloc(&b, 60000);
        cr_assert_not_null(p[i]);
    }
    for (int i = 0; i < 300; i++) {
        cbd_mem_free(p[i]);
    }
    cr_expect_eq(c.kept, (size_t)256 * 65536);
    cr_expect_eq(c.kept, CBD_CACHE_KEEP);
    cbd_block_cache_release(&c);
    cbd_budget plain;
    cbd_budget_init(&plain, UINT64_MAX, SIZE_MAX);
    for (int i = 0; i < 3; i++) {
        p[i] = cbd_mem_alloc(&plain, 100);
    }
    cr_expect_eq(plain.heap_blocks, 3);
    for (int i = 0; i < 3; i++) {
        cbd_mem_free(p[i]);
    }
}

/* A child budget whose new pages go to its parent (the plan search's share): the child's work
 * stays its steps', the parent pays the pages (5 MiB + 32 bytes: 1,281 pages, 12,810,000 units)
 * and its steady work leaves them out. */
Test(budget, new_pages_of_a_child_are_charged_to_its_fresh_to) {
    cbd_budget parent, child;
    cbd_budget_init(&parent, UINT64_MAX, SIZE_MAX);
    cbd_budget_init(&child, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_fresh_to(&child, &parent);
    cr_assert(cbd_charge(&parent, 7));
    void *p = cbd_mem_alloc(&child, (size_t)5 << 20);
    cr_assert_not_null(p);
    cr_expect_eq(child.work_spent, 0);
    cr_expect_eq(parent.work_spent, 12810007);
    cr_expect_eq(parent.fresh_units, 12810000);
    cr_expect_eq(cbd_budget_steady_work(&parent), 7);
    cr_expect_gt(child.fresh_bytes, (uint64_t)5 << 20);
    cbd_mem_free(p);
}

/* A child budget (a computation's own meter): its own work limit, the memory its parent has
 * left, the parent's progress callback (an abandon stops it too), its new pages the parent's. */
Test(budget, a_child_draws_on_its_parent) {
    cbd_budget parent, child;
    cbd_budget_init(&parent, 1000, 4096);
    cr_assert(cbd_charge(&parent, 400));
    void *p = cbd_mem_alloc(&parent, 1000);
    cr_assert_not_null(p);
    cr_expect_eq(cbd_budget_work_left(&parent), 600);
    cr_expect_eq(cbd_budget_work_left(NULL), UINT64_MAX);
    cbd_budget_set_progress(&parent, stop_on_third, NULL);
    cbd_budget_init_child(&child, &parent, CBD_BUDGET_PROGRESS_UNITS * 10);
    cr_expect_eq(child.work_limit, CBD_BUDGET_PROGRESS_UNITS * 10);
    cr_expect_eq(child.mem_limit, 3096);
    cr_expect_eq(child.fresh_to, &parent);
    calls = 0;
    cr_expect(cbd_charge(&child, CBD_BUDGET_PROGRESS_UNITS));
    cr_expect(cbd_charge(&child, CBD_BUDGET_PROGRESS_UNITS));
    cr_expect_not(cbd_charge(&child, CBD_BUDGET_PROGRESS_UNITS));
    cr_expect_eq(child.stopped, CBD_BUDGET_CANCELLED);
    cbd_mem_free(p);
}
