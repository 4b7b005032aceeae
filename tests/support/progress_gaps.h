#ifndef COMBATD_TEST_PROGRESS_GAPS_H
#define COMBATD_TEST_PROGRESS_GAPS_H

/*
 * The units a request's budget is charged between two of its progress checks, measured as a
 * worker answers it (cbd_api_answer_within with a progress callback that only measures): the
 * request's work_spent read at each check (cbd_api_limits.report), its start and end counted as
 * checks. For tests/unit/api/test_progress_gaps*_api.c.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "budget_test.h"

typedef struct {
    const cbd_budget *budget; /* the request's, as it runs */
    uint64_t last;            /* work_spent at the last check */
    uint64_t widest;          /* the most units between two checks */
    uint64_t checks;
    /* The most units of steps between two checks: less the new pages charged (CBD_WORK_FRESH_PAGE
     * each, fresh_units), which a request with no warm memory is charged when it takes a block;
     * and the request's fresh_units at the last check. */
    uint64_t widest_steps, last_fresh;
    /* The memory the request held at the last check, and of it in the heap's small blocks; the
     * most it gave back between two checks, and the most its small blocks grew (net). */
    size_t held, small, widest_freed, widest_small_growth;
} gap_probe;

static inline void gap_mark(gap_probe *p) {
    size_t held = p->budget->mem_held, small = p->budget->small_held;
    size_t freed = p->held > held ? p->held - held : 0;
    size_t grown = small > p->small ? small - p->small : 0;
    p->widest_freed = freed > p->widest_freed ? freed : p->widest_freed;
    p->widest_small_growth = grown > p->widest_small_growth ? grown : p->widest_small_growth;
    p->held = held;
    p->small = small;
    uint64_t now = p->budget->work_spent, fresh = p->budget->fresh_units;
    p->widest = now - p->last > p->widest ? now - p->last : p->widest;
    uint64_t steps = (now - p->last) - (fresh - p->last_fresh);
    p->widest_steps = steps > p->widest_steps ? steps : p->widest_steps;
    p->last = now;
    p->last_fresh = fresh;
}

/* Never stops the request: it only measures. */
static inline cbd_budget_stop gap_check(void *arg) {
    gap_probe *p = arg;
    gap_mark(p);
    p->checks++;
    return CBD_BUDGET_RUNNING;
}

/* Answers `body` at `path` as a worker answers it, its checks measured, its large blocks from
 * `scratch` (NULL: malloc's, every one new pages). */
static inline gap_probe run_measured_with(const char *path, const char *body, cbd_scratch *scratch,
                                          int *status) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cr_assert_not_null(ep);
    cbd_api_request req;
    cbd_api_reply reply = {0};
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply), "%s", reply.body);
    cbd_budget spent;
    memset(&spent, 0, sizeof spent);
    gap_probe p = {.budget = &spent};
    cbd_api_limits limits = cbd_api_full_limits(&cfg);
    limits.report = &spent;
    limits.scratch = scratch;
    limits.progress = gap_check;
    limits.progress_arg = &p;
    cr_assert(cbd_api_answer_within(&req, &cfg, &limits, &reply));
    gap_mark(&p); /* the end */
    *status = reply.status;
    cr_expect_eq(spent.mem_held, 0, "every block given back");
    cbd_api_reply_free(&reply);
    return p;
}

/* ... with the warm scratch (warm_scratch.h): a running server's, steps only. */
static inline gap_probe run_measured(const char *path, const char *body, int *status) {
    return run_measured_with(path, body, warm_scratch(), status);
}

#endif
