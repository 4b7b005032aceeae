/* Charges made in pieces (include/combatd/budget.h): the same units in all as one charge, with
 * the progress check coming between the pieces; and a moved block's pages touched in pieces with
 * the check between (src/core/budget_pace.h). The figures are worked out by hand in the
 * comments. */
#include <criterion/criterion.h>

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "combatd/budget.h"

/* work_spent at each progress call. */
static uint64_t seen[64];
static size_t n_seen;

static cbd_budget_stop record(void *arg) {
    const cbd_budget *b = arg;
    if (n_seen < sizeof seen / sizeof seen[0]) {
        seen[n_seen] = b->work_spent;
    }
    n_seen++;
    return CBD_BUDGET_RUNNING;
}

static void watch(cbd_budget *b) {
    n_seen = 0;
    cbd_budget_set_progress(b, record, b);
}

/* 5 · 2^20 + 3 = 5,242,883 units over 1,000 steps: 6 pieces (units / 2^20 + 1) of 166 steps;
 * after the first piece floor(5,242,883 · 166 / 1000) = 870,318 units, after the second
 * floor(5,242,883 · 332 / 1000) = 1,740,637; every unit once paid, at the end. */
Test(budget_pieces, a_share_charges_its_units_in_pieces_as_the_loop_runs) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    watch(&b);
    cbd_charge_share l;
    uint64_t units = 5 * CBD_BUDGET_PROGRESS_UNITS + 3;
    cbd_charge_share_init(&l, &b, units, 1000);
    cr_assert(cbd_charge_share_step(&l));
    cr_assert_eq(b.work_spent, 870318);
    for (int i = 1; i < 166; i++) {
        cr_assert(cbd_charge_share_step(&l));
    }
    cr_assert_eq(b.work_spent, 870318, "the piece's steps are paid for");
    cr_assert(cbd_charge_share_step(&l));
    cr_assert_eq(b.work_spent, 1740637);
    for (int i = 167; i < 1000; i++) {
        cr_assert(cbd_charge_share_step(&l));
    }
    cr_assert(cbd_charge_share_end(&l));
    cr_assert_eq(b.work_spent, units);
    /* The first check at 1,048,576, each next one 2^20 past the charge that made the last:
     * at the pieces ending at 1,740,637 (k = 332), then 3,481,274 (k = 664, past 2,789,213)
     * and 5,221,911 (k = 996, past 4,529,850); the last piece (4 steps) crosses none. */
    cr_assert_eq(n_seen, 3);
    cr_assert_eq(seen[0], 1740637);
    cr_assert_eq(seen[1], 3481274);
    cr_assert_eq(seen[2], 5221911);
}

Test(budget_pieces, a_share_of_no_steps_charges_everything_at_its_end) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_charge_share l;
    cbd_charge_share_init(&l, &b, 64, 0);
    cr_assert_eq(b.work_spent, 0);
    cr_assert(cbd_charge_share_end(&l));
    cr_assert_eq(b.work_spent, 64);
    /* A share past the limit stops the budget like any charge. */
    cbd_budget small;
    cbd_budget_init(&small, 100, SIZE_MAX);
    cbd_charge_share_init(&l, &small, 1000, 10);
    cr_assert_not(cbd_charge_share_step(&l));
    cr_assert_eq(small.stopped, CBD_BUDGET_WORK);
}

/* A block of 4 MiB less a page, with no scratch: its header brings it to 4 MiB, 1,024 new pages,
 * 10,240,000 units (CBD_WORK_FRESH_PAGE each). Zeroed in 16 chunks of 256 KiB (the last
 * 258,048 bytes), each paying floor(10,240,000 · k / 16) less the last: 640,000 (pieces:
 * 10,240,000 / 2^20 + 1 = 10, of 16 / 10 = 1 chunk). The checks come at every second chunk,
 * 1,280,000 · j, 8 in all; cbd_mem_calloc charged the pages at once, one check. */
Test(budget_pieces, a_paced_calloc_charges_its_new_pages_as_it_zeroes_them) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    watch(&b);
    size_t bytes = ((size_t)4 << 20) - 4096;
    unsigned char *p = cbd_mem_calloc_paced(&b, 1, bytes);
    cr_assert_not_null(p);
    cr_assert_eq(b.work_spent, 10240000);
    cr_assert_eq(b.fresh_units, 10240000);
    cr_assert_eq(n_seen, 8);
    for (size_t j = 0; j < 8; j++) {
        cr_assert_eq(seen[j], 1280000 * (j + 1), "check %zu at %llu", j,
                     (unsigned long long)seen[j]);
    }
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; i++) {
        nonzero += p[i] != 0;
    }
    cr_assert_eq(nonzero, 0);
    cbd_mem_free(p);
}

/* A block of `bytes` from b, each byte i holding i % 251 (a period no power of two divides). */
static unsigned char *patterned_block(cbd_budget *b, size_t bytes) {
    unsigned char *p = cbd_mem_alloc(b, bytes);
    cr_assert_not_null(p);
    for (size_t i = 0; i < bytes; i++) {
        p[i] = (unsigned char)(i % 251);
    }
    return p;
}

/* The bytes of p's first `bytes` that no longer hold patterned_block's pattern. */
static size_t pattern_misses(const unsigned char *p, size_t bytes) {
    size_t wrong = 0;
    for (size_t i = 0; i < bytes; i++) {
        wrong += p[i] != (unsigned char)(i % 251);
    }
    return wrong;
}

/* A block the system moves when it grows (realloc of a mapping of its own) keeps its pages, but
 * the first touch of each at its new place costs the reference machine some 5-6 µs of CPU that no
 * fault counts (src/core/budget_pace.h). Its kept pages are read right after the move, with the
 * check between pieces of 256 KiB, no units charged. A block of 4 MiB less a page, no scratch:
 * with its header, 4 MiB, 16 pieces, the check between two: 15 checks (none before). Its new
 * pages (1,024 taken, 1,024 more grown to 8 MiB less a page) are owed here, not charged: the
 * checks come by pages. */
Test(budget_pieces, a_block_moved_by_its_growth_is_touched_with_checks_between_pieces) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    watch(&b);
    uint64_t owed = 0;
    cbd_budget_defer_pages(&b, &owed);
    size_t bytes = ((size_t)4 << 20) - 4096;
    unsigned char *p = patterned_block(&b, bytes);
    cr_assert_eq(n_seen, 0);
    unsigned char *grown = cbd_mem_realloc(&b, p, bytes + ((size_t)4 << 20));
    cr_assert_not_null(grown);
    cbd_budget_defer_pages(&b, NULL);
    cr_assert_eq(n_seen, 15);
    cr_assert_eq(b.work_spent, 0, "no units: the checks came by the pages touched");
    cr_assert_eq(owed, 2048 * (uint64_t)CBD_WORK_FRESH_PAGE);
    cr_assert_eq(pattern_misses(grown, bytes), 0, "the block's bytes kept");
    cbd_mem_free(grown);
    cr_assert_eq(b.mem_held, 0);
}

/* A scratch whose one kept block (1 MiB) is smaller than the block asked for grows it (realloc:
 * its pages move, only the growth is new): its 1 MiB of kept pages is read in 4 pieces, the
 * check between two, 3 checks; its 256 new pages are owed (2,560,000 units). */
Test(budget_pieces, a_kept_block_grown_for_a_larger_one_is_touched_with_checks_between_pieces) {
    cbd_scratch s;
    cbd_scratch_init(&s, SIZE_MAX);
    void *kept = malloc((size_t)1 << 20);
    cr_assert_not_null(kept);
    cbd_scratch_give(&s, kept, (size_t)1 << 20);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_scratch(&b, &s);
    watch(&b);
    uint64_t owed = 0;
    cbd_budget_defer_pages(&b, &owed);
    void *p = cbd_mem_alloc(&b, ((size_t)2 << 20) - 4096);
    cbd_budget_defer_pages(&b, NULL);
    cr_assert_not_null(p);
    cr_assert_eq(n_seen, 3);
    cr_assert_eq(b.work_spent, 0);
    cr_assert_eq(owed, 256 * (uint64_t)CBD_WORK_FRESH_PAGE);
    cbd_mem_free(p);
    cbd_scratch_release(&s);
}

/* The thread's minor page faults (a count of the kernel's). */
static uint64_t faults_now(void) {
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? (uint64_t)ru.ru_minflt : 0;
}

/* The most faults between two checks (the call's start and end count as checks). */
static uint64_t fault_mark, fault_widest;
static size_t fault_checks;

static void fault_gap(void) {
    uint64_t now = faults_now();
    fault_widest = now - fault_mark > fault_widest ? now - fault_mark : fault_widest;
    fault_mark = now;
}

static cbd_budget_stop record_faults(void *arg) {
    (void)arg;
    fault_gap();
    fault_checks++;
    return CBD_BUDGET_RUNNING;
}

/* A large block that malloc cut from its heap (here the mmap threshold is raised past it, as
 * earlier requests' freed small blocks make it do) is not a mapping realloc can move: realloc
 * would copy its 8 MiB into 2,048 new pages with no check between. It is copied in pieces of
 * 256 KiB with the check between instead: 32 pieces, 31 checks, each piece's 64 new pages
 * faulted between two (the first piece's with the new block's taking; under ASan, which copies
 * every block so, its allocator's bookkeeping too: fewer than half the copy's pages in all). */
Test(budget_pieces, a_block_of_the_heap_grown_is_copied_with_checks_between_pieces) {
    /* (ASan's allocator takes no mallopt: it copies every block grown so, as said above) */
    (void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_progress(&b, record_faults, NULL);
    uint64_t owed = 0; /* the new pages owed, not charged: the checks come by the pieces */
    cbd_budget_defer_pages(&b, &owed);
    size_t bytes = ((size_t)8 << 20) - 4096;
    unsigned char *p = patterned_block(&b, bytes);
    void *wall = malloc(4096); /* past the block: realloc cannot grow it where it is */
    cr_assert_not_null(wall);
    fault_mark = faults_now();
    unsigned char *grown = cbd_mem_realloc(&b, p, bytes + ((size_t)8 << 20));
    fault_gap();
    cbd_budget_defer_pages(&b, NULL);
    cr_assert_not_null(grown);
    cr_expect_eq(fault_checks, 31, "%zu checks", fault_checks);
    cr_expect_eq(owed, 4096 * (uint64_t)CBD_WORK_FRESH_PAGE, "2,048 pages taken, 2,048 grown");
    cr_expect_lt(fault_widest, 1024, "%llu faults between two checks",
                 (unsigned long long)fault_widest);
    cr_expect_eq(pattern_misses(grown, bytes), 0, "the block's bytes kept");
    cbd_mem_free(grown);
    free(wall);
    cr_expect_eq(b.mem_held, 0);
}

/* A kept block of malloc's heap (the mmap threshold raised past it, as in the test above) that
 * the scratch grows for a larger request is not copied: its bytes are not needed, so it goes back
 * to the heap and a new block is taken. realloc would copy its 8 MiB into 2,048 new pages within
 * the take, with no check between; freed and taken anew, the take faults under half that (under
 * ASan, whose allocator never counts a block as mapped, its bookkeeping's pages). It is counted
 * as a block grown: 8 MiB reused and 8 MiB new. */
Test(budget_pieces, a_kept_block_of_the_heap_is_not_copied_to_grow) {
    (void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
    cbd_scratch s;
    cbd_scratch_init(&s, (size_t)64 << 20);
    size_t cap, fresh, bytes = (size_t)8 << 20;
    unsigned char *p = cbd_scratch_take(&s, bytes, &cap, &fresh);
    cr_assert_not_null(p);
    memset(p, 0x5a, cap); /* its pages resident, as a kept block's are */
    cr_assert(!cbd_scratch_mapped_alone(p, cap), "a block of the heap");
    void *wall = malloc(4096); /* past the block: realloc cannot grow it where it is */
    cr_assert_not_null(wall);
    cbd_scratch_give(&s, p, cap);
    uint64_t before = faults_now();
    void *grown = cbd_scratch_take(&s, 2 * bytes, &cap, &fresh);
    uint64_t faults = faults_now() - before;
    cr_assert_not_null(grown);
    cr_expect_eq(cap, 2 * bytes);
    cr_expect_eq(fresh, bytes, "the growth alone new");
    cr_expect_eq(s.reused_bytes, bytes);
    cr_expect_eq(s.count, 0);
    cr_expect_eq(s.kept, 0);
    cr_expect_lt(faults, 1024, "%llu faults in the take", (unsigned long long)faults);
    cbd_scratch_give(&s, grown, cap);
    cbd_scratch_release(&s);
    free(wall);
}
