/* A child budget's work relayed to its parent's as it is spent (cbd_budget_relay, budget.h). */
#include "combatd/budget.h"

/* The child's progress check: the parent charged the child's work since the last, its own
 * check's interval restarted there, and its callback asked. */
static cbd_budget_stop relay_progress(void *arg) {
    cbd_budget_relay *r = arg;
    cbd_budget *p = r->parent;
    uint64_t spent = r->child->work_spent;
    uint64_t owed = spent > *r->charged ? spent - *r->charged : 0;
    if (p->stopped == CBD_BUDGET_RUNNING && owed <= cbd_budget_work_left(p)) {
        cbd_budget_add_spent(p, owed);
        *r->charged += owed;
        uint64_t next = p->work_spent + CBD_BUDGET_PROGRESS_UNITS;
        p->next_progress = !p->progress ? UINT64_MAX : next < p->work_spent ? UINT64_MAX : next;
    }
    return p->progress ? p->progress(p->progress_arg) : CBD_BUDGET_RUNNING;
}

void cbd_budget_relay_start(cbd_budget_relay *r, cbd_budget *child, cbd_budget *parent,
                            uint64_t *charged) {
    *r = (cbd_budget_relay){child, parent, charged};
    if (parent) {
        cbd_budget_set_progress(child, relay_progress, r);
    }
}

bool cbd_budget_relay_settle(cbd_budget_relay *r) {
    if (!r->parent) {
        return true;
    }
    uint64_t spent = r->child->work_spent;
    uint64_t owed = spent > *r->charged ? spent - *r->charged : 0;
    *r->charged += owed;
    return cbd_charge(r->parent, owed);
}
