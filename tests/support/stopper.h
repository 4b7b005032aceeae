#ifndef COMBATD_TEST_STOPPER_H
#define COMBATD_TEST_STOPPER_H

/*
 * A progress callback that stops a budget at a chosen check: `stop` (a deadline, a cancel) from
 * the `at`-th check on, the checks counted in `checks`
 * (cbd_budget_set_progress(&b, stop_at, &s)).
 */
#include "combatd/budget.h"

typedef struct {
    unsigned checks, at;
    cbd_budget_stop stop;
} stopper;

static inline cbd_budget_stop stop_at(void *arg) {
    stopper *s = arg;
    return ++s->checks >= s->at ? s->stop : CBD_BUDGET_RUNNING;
}

#endif
