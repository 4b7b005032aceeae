#ifndef COMBATD_TEST_CHECK_GAPS_H
#define COMBATD_TEST_CHECK_GAPS_H

/*
 * The units a core budget is charged between two of its progress checks: a progress callback
 * that only measures (cbd_budget_set_progress(&b, gap_count_check, &g)), the budget's work_spent
 * read at each check; gap_count_mark at the end counts it as a check too. For the core's piece
 * tests (test_fog_pieces.c, test_turn_map_pages.c); the api's are progress_gaps.h.
 */
#include "combatd/budget.h"

typedef struct {
    const cbd_budget *b;
    uint64_t last, widest, checks;
} gap_count;

static inline void gap_count_mark(gap_count *g) {
    uint64_t now = g->b->work_spent;
    g->widest = now - g->last > g->widest ? now - g->last : g->widest;
    g->last = now;
}

static inline cbd_budget_stop gap_count_check(void *arg) {
    gap_count_mark(arg);
    ((gap_count *)arg)->checks++;
    return CBD_BUDGET_RUNNING;
}

/* A budget of no work limit and 1 GiB whose checks g counts (g starts at 0). */
static inline void gap_count_start(cbd_budget *b, gap_count *g) {
    cbd_budget_init(b, UINT64_MAX, (size_t)1 << 30);
    *g = (gap_count){.b = b};
    cbd_budget_set_progress(b, gap_count_check, g);
}

#endif
