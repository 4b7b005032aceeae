/* The request budget (include/combatd/budget.h): work stops at its limit, memory at its cap,
 * blocks go back to the budget they came from, and the progress callback can cancel. */
#include <criterion/criterion.h>

#include <stdint.h>

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
static bool stop_on_third(void *arg) {
    (void)arg;
    return ++calls == 3;
}

/* 4 MiB are free of charge; each new peak past them costs a unit per 2 bytes, and memory
 * given back and taken again below the peak costs nothing more. */
Test(budget, a_peak_past_4_mib_is_charged_as_work) {
    const size_t mib = (size_t)1 << 20;
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    void *small = cbd_mem_alloc(&b, 3 * mib);
    cr_assert_not_null(small);
    cr_assert_eq(b.work_spent, 0, "3 MiB: under the 4 free of charge");
    void *big = cbd_mem_alloc(&b, 3 * mib);
    cr_assert_not_null(big);
    cr_assert_eq(b.work_spent, mib, "a peak of 6 MiB: 2 MiB past 4, 1 Mi units");
    cbd_mem_free(big);
    big = cbd_mem_alloc(&b, 3 * mib);
    cr_assert_not_null(big);
    cr_assert_eq(b.work_spent, mib, "back to the same peak: nothing more");
    big = cbd_mem_realloc(&b, big, 5 * mib);
    cr_assert_not_null(big);
    cr_assert_eq(b.work_spent, 2 * mib, "a peak of 8 MiB: 2 MiB more past the old peak");
    cbd_mem_free(big);
    cbd_mem_free(small);
    cr_assert_eq(b.mem_held, 0);
    cr_assert_eq(b.mem_peak, 8 * mib);
}

/* A peak whose charge passes the work limit keeps its block; the budget stops with the work
 * named, and the next charge says so. 5 MiB: 1 MiB past 4, 524,288 units against 100. */
Test(budget, a_peak_past_the_work_limit_stops_the_budget_on_work) {
    cbd_budget b;
    cbd_budget_init(&b, 100, SIZE_MAX);
    void *p = cbd_mem_alloc(&b, (size_t)5 << 20);
    cr_assert_not_null(p);
    cr_assert_eq(b.work_spent, 524288);
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
