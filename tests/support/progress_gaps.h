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
    /* The first check's units from the start (the body's charge among them); the most units
     * of steps (less the new pages charged, CBD_WORK_FRESH_PAGE each) between two checks after
     * it; and the request's fresh_units at the last check. */
    uint64_t first, widest_steps_after, last_fresh;
} gap_probe;

static inline void gap_mark(gap_probe *p) {
    uint64_t now = p->budget->work_spent, fresh = p->budget->fresh_units;
    p->widest = now - p->last > p->widest ? now - p->last : p->widest;
    uint64_t steps = (now - p->last) - (fresh - p->last_fresh);
    if (p->checks > 0 && steps > p->widest_steps_after) {
        p->widest_steps_after = steps;
    }
    if (p->checks == 0) {
        p->first = now;
    }
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

/* Answers `body` at `path` as a worker answers it, its checks measured. */
static inline gap_probe run_measured(const char *path, const char *body, int *status) {
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
    limits.scratch = warm_scratch();
    limits.progress = gap_check;
    limits.progress_arg = &p;
    cr_assert(cbd_api_answer_within(&req, &cfg, &limits, &reply));
    gap_mark(&p); /* the end */
    *status = reply.status;
    cr_expect_eq(spent.mem_held, 0, "every block given back");
    cbd_api_reply_free(&reply);
    return p;
}

#endif
