/* The scratch (include/combatd/scratch.h): a block freed is served again, the smallest kept
 * block that holds a size is the one taken, the limits free the smallest blocks first and keep
 * the largest, and the refill runs once. */
#include <criterion/criterion.h>

#include <stdlib.h>

#include "combatd/scratch.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

Test(scratch, capacity_is_whole_pages) {
    cr_assert_eq(cbd_scratch_capacity(1), 4096);
    cr_assert_eq(cbd_scratch_capacity(4096), 4096);
    cr_assert_eq(cbd_scratch_capacity(4097), 8192);
    cr_assert_eq(cbd_scratch_capacity(MIB + 32), MIB + 4096);
}

Test(scratch, a_block_given_back_is_taken_again_without_new_pages) {
    cbd_scratch s;
    cbd_scratch_init(&s, 16 * MIB);
    size_t cap = 0, fresh = 0;
    void *p = cbd_scratch_take(&s, MIB, &cap, &fresh);
    cr_assert_not_null(p);
    cr_assert_eq(cap, MIB);
    cr_assert_eq(fresh, MIB);
    cbd_scratch_give(&s, p, cap);
    cr_assert_eq(s.count, 1);
    void *q = cbd_scratch_take(&s, 100 * KIB, &cap, &fresh);
    cr_assert_eq(q, p, "the kept block holds the smaller size");
    cr_assert_eq(cap, MIB);
    cr_assert_eq(fresh, 0);
    cr_assert_eq(s.fresh_bytes, MIB);
    cr_assert_eq(s.reused_bytes, MIB);
    cbd_scratch_give(&s, q, cap);
    cbd_scratch_release(&s);
    cr_assert_eq(s.count, 0);
    cr_assert_eq(s.freed_bytes, MIB);
}

Test(scratch, the_smallest_block_that_holds_a_size_is_taken) {
    cbd_scratch s;
    cbd_scratch_init(&s, 64 * MIB);
    size_t sizes[] = {4 * MIB, MIB, 2 * MIB, 8 * MIB};
    void *blocks[4];
    size_t cap, fresh;
    for (int i = 0; i < 4; i++) {
        blocks[i] = cbd_scratch_take(&s, sizes[i], &cap, &fresh);
    }
    for (int i = 0; i < 4; i++) {
        cbd_scratch_give(&s, blocks[i], sizes[i]);
    }
    cr_assert_eq(s.kept, 15 * MIB);
    for (unsigned i = 1; i < s.count; i++) {
        cr_assert_lt(s.slots[i - 1].capacity, s.slots[i].capacity, "kept smallest first");
    }
    void *p = cbd_scratch_take(&s, 3 * MIB, &cap, &fresh);
    cr_assert_eq(p, blocks[0], "4 MiB: the smallest of 4 and 8 that holds 3");
    cr_assert_eq(cap, 4 * MIB);
    cr_assert_eq(fresh, 0);
    cbd_scratch_give(&s, p, cap);
    cbd_scratch_release(&s);
}

Test(scratch, a_size_larger_than_every_kept_block_grows_the_largest) {
    cbd_scratch s;
    cbd_scratch_init(&s, 64 * MIB);
    size_t cap, fresh;
    void *a = cbd_scratch_take(&s, MIB, &cap, &fresh);
    void *b = cbd_scratch_take(&s, 2 * MIB, &cap, &fresh);
    cbd_scratch_give(&s, a, MIB);
    cbd_scratch_give(&s, b, 2 * MIB);
    void *c = cbd_scratch_take(&s, 5 * MIB, &cap, &fresh);
    cr_assert_not_null(c);
    cr_assert_eq(cap, 5 * MIB);
    cr_assert_eq(fresh, 3 * MIB, "2 MiB of it were kept");
    cr_assert_eq(s.count, 1);
    cr_assert_eq(s.kept, MIB);
    cbd_scratch_give(&s, c, cap);
    cbd_scratch_release(&s);
}

/* Past the limit, the largest blocks are kept first and smaller ones fill the room left. */
Test(scratch, past_its_limit_it_keeps_the_largest_blocks) {
    cbd_scratch s;
    cbd_scratch_init(&s, 10 * MIB);
    size_t cap, fresh;
    size_t sizes[] = {MIB, 3 * MIB, 4 * MIB, 5 * MIB};
    void *blocks[4];
    for (int i = 0; i < 4; i++) {
        blocks[i] = cbd_scratch_take(&s, sizes[i], &cap, &fresh);
    }
    for (int i = 0; i < 4; i++) {
        cbd_scratch_give(&s, blocks[i], sizes[i]);
    }
    /* 13 MiB given to a 10 MiB scratch: 5 and 4 kept, 3 does not fit the 1 left, 1 does. */
    cr_assert_eq(s.count, 3);
    cr_assert_eq(s.slots[0].capacity, MIB);
    cr_assert_eq(s.slots[1].capacity, 4 * MIB);
    cr_assert_eq(s.slots[2].capacity, 5 * MIB);
    cr_assert_eq(s.kept, 10 * MIB);
    cr_assert_eq(s.freed_bytes, 3 * MIB);
    cbd_scratch_trim(&s, 6 * MIB);
    cr_assert_eq(s.count, 2, "5 kept, 4 freed, 1 kept");
    cr_assert_eq(s.kept, 6 * MIB);
    cbd_scratch_trim(&s, 0);
    cr_assert_eq(s.count, 0);
    void *big = malloc(11 * MIB);
    cbd_scratch_give(&s, big, 11 * MIB);
    cr_assert_eq(s.count, 0, "a block past the limit is freed at once");
    cr_assert_eq(s.freed_bytes, 3 * MIB + 10 * MIB + 11 * MIB);
}

Test(scratch, past_its_slots_the_smallest_blocks_go) {
    cbd_scratch s;
    cbd_scratch_init(&s, (size_t)1 << 40);
    for (size_t i = 0; i < CBD_SCRATCH_SLOTS + 3; i++) {
        size_t size = CBD_SCRATCH_MIN_BLOCK + i * 4096;
        cbd_scratch_give(&s, malloc(size), size);
    }
    cr_assert_eq(s.count, CBD_SCRATCH_SLOTS);
    cr_assert_eq(s.slots[0].capacity, CBD_SCRATCH_MIN_BLOCK + 3 * 4096, "the 3 smallest went");
    cbd_scratch_give(&s, malloc(CBD_SCRATCH_MIN_BLOCK), CBD_SCRATCH_MIN_BLOCK);
    cr_assert_eq(s.slots[0].capacity, CBD_SCRATCH_MIN_BLOCK + 3 * 4096,
                 "a block smaller than every kept one is freed, not kept");
    cbd_scratch_release(&s);
}

static int refills;
static void refill_from(void *arg, cbd_scratch *s) {
    refills++;
    cbd_scratch_merge(s, arg);
}

/* The refill runs before the first look at the kept blocks, once; a merge moves every block. */
Test(scratch, the_refill_runs_once_and_merge_moves_every_block) {
    cbd_scratch shared, mine;
    cbd_scratch_init(&shared, 64 * MIB);
    cbd_scratch_init(&mine, 64 * MIB);
    size_t cap, fresh;
    void *a = cbd_scratch_take(&shared, 2 * MIB, &cap, &fresh);
    cbd_scratch_give(&shared, a, cap);
    cbd_scratch_set_refill(&mine, refill_from, &shared);
    refills = 0;
    void *p = cbd_scratch_take(&mine, MIB, &cap, &fresh);
    cr_assert_eq(refills, 1);
    cr_assert_eq(p, a, "the shared block, taken through the refill");
    cr_assert_eq(fresh, 0);
    cr_assert_eq(shared.count, 0);
    cbd_scratch_give(&mine, p, cap);
    void *q = cbd_scratch_take(&mine, 8 * MIB, &cap, &fresh);
    cr_assert_eq(refills, 1, "once only");
    cr_assert_eq(fresh, 6 * MIB);
    cbd_scratch_give(&mine, q, cap);
    cbd_scratch_merge(&shared, &mine);
    cr_assert_eq(mine.count, 0);
    cr_assert_eq(mine.kept, 0);
    cr_assert_eq(shared.count, 1);
    cr_assert_eq(shared.kept, 8 * MIB);
    cbd_scratch_release(&shared);
}
