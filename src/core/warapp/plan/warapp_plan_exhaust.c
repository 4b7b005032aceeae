/*
 * The whole plan space (W31), enumerated: every deploy of the income, every amount of every
 * pair within what may move, every order of the chosen orders. Orders that commute (disjoint
 * territories, setup_independence in warapp_plan.c) are taken in one order: a permutation with
 * two adjacent commuting orders out of pair order is passed over, so every class of orders that
 * differ only by such swaps keeps at least its representative in pair order (its lexicographic
 * least). Plans whose bound (warapp_plan_bound.c) could not beat the last plan kept are left
 * out: they could not be kept. The seeds of the local search go first (each plan is analysed
 * once), so that a walk cut short by max_plans answers no worse than they.
 */
#include "warapp_plan_internal.h"

#include "core/permutation.h"

#include <string.h>

typedef struct {
    plan_ctx *c;
    plan_state *st;
    uint64_t *left;   /* per own territory: armies not yet given to a pair */
    uint32_t *active; /* the chosen pairs, permuted */
    bool counting;
    uint64_t count, cap;
    eval_result result; /* EVAL_STOP or EVAL_ERROR end the walk */
} walk;

static bool commute(const plan_ctx *c, uint32_t p, uint32_t q) {
    uint32_t a = c->own[c->pfrom[p]], b = c->pto[p], x = c->own[c->pfrom[q]], y = c->pto[q];
    if (!c->independent_ok || a == x || a == y || b == x || b == y) {
        return false;
    }
    return c->board->move_order == CBD_MOVE_LISTED ||
           !(c->touched[a] || c->touched[b] || c->touched[x] || c->touched[y]);
}

static bool canonical(const plan_ctx *c, const uint32_t *v, size_t n) {
    for (size_t i = 0; i + 1 < n; i++) {
        if (v[i] > v[i + 1] && commute(c, v[i], v[i + 1])) {
            return false;
        }
    }
    return true;
}

/* One plan: counted, or bounded out, or evaluated. False ends the walk. */
static bool visit(walk *w, size_t n_active) {
    plan_ctx *c = w->c;
    if (!cbd_charge(&c->search, cbd_work_times(CBD_WORK_SCAN_TERM, c->np + n_active + 1))) {
        c->stopped = true;
        w->result = EVAL_STOP;
        return false;
    }
    if (w->counting) {
        return ++w->count <= w->cap;
    }
    /* seq: the active pairs in their order, then the others in pair order */
    size_t j = 0;
    for (size_t i = 0; i < n_active; i++) {
        w->st->seq[j++] = w->active[i];
    }
    for (uint32_t p = 0; p < c->np; p++) {
        if (w->st->a[p] == 0) {
            w->st->seq[j++] = p;
        }
    }
    if (!cbdp_plan_may_keep(c, cbdp_plan_bound(c, w->st), cbdp_plan_size(c, w->st))) {
        c->bounded_out++;
        return true;
    }
    double value;
    eval_result r = cbdp_plan_try(c, w->st, &value);
    if (r == EVAL_STOP || r == EVAL_ERROR) {
        w->result = r;
        return false;
    }
    return true;
}

static bool orders_of(walk *w) {
    plan_ctx *c = w->c;
    size_t n = 0;
    for (uint32_t p = 0; p < c->np; p++) {
        if (w->st->a[p] > 0) {
            w->active[n++] = p;
        }
    }
    do {
        if (canonical(c, w->active, n) && !visit(w, n)) {
            return false;
        }
    } while (cbd_next_permutation(w->active, n));
    return true;
}

/* Pair p's amount, from the most its territory has left down to none. */
static bool amounts(walk *w, size_t p) {
    plan_ctx *c = w->c;
    if (p == c->np) {
        return orders_of(w);
    }
    uint32_t i = c->pfrom[p];
    uint64_t most = w->left[i];
    for (uint64_t v = most + 1; v-- > 0;) {
        w->st->a[p] = v;
        w->left[i] = most - v;
        bool go = amounts(w, p + 1);
        w->left[i] = most;
        if (!go) {
            w->st->a[p] = 0;
            return false;
        }
    }
    w->st->a[p] = 0;
    return true;
}

/* Territory i's deploy, from none up to all that is left of the income. */
static bool deploys(walk *w, size_t i, uint64_t income_left) {
    plan_ctx *c = w->c;
    if (i + 1 >= c->k) {
        w->st->d[i] = income_left;
        w->left[i] = c->movable[i] + income_left;
        return amounts(w, 0);
    }
    for (uint64_t v = 0; v <= income_left; v++) {
        w->st->d[i] = v;
        w->left[i] = c->movable[i] + v;
        if (!deploys(w, i + 1, income_left - v)) {
            return false;
        }
    }
    return true;
}

static eval_result run(plan_ctx *c, bool counting, uint64_t cap, uint64_t *count) {
    walk w = {c, &c->scratch, NULL, NULL, counting, 0, cap, EVAL_DONE};
    w.left = cbd_mem_calloc(c->budget, c->k + 1, sizeof *w.left);
    w.active = cbd_mem_calloc(c->budget, c->np + 1, sizeof *w.active);
    if (!w.left || !w.active) {
        cbd_mem_free(w.left);
        cbd_mem_free(w.active);
        c->status = cbd_budget_nomem(c->budget);
        return EVAL_ERROR;
    }
    memset(c->scratch.a, 0, c->np * sizeof *c->scratch.a);
    memset(c->scratch.d, 0, c->k * sizeof *c->scratch.d);
    (void)deploys(&w, 0, c->req->income);
    cbd_mem_free(w.left);
    cbd_mem_free(w.active);
    if (count) {
        *count = w.count;
    }
    return w.result;
}

eval_result cbdp_plan_count(plan_ctx *c, uint64_t cap, uint64_t *count) {
    uint64_t n = 0;
    uint64_t spent = c->search.work_spent;
    eval_result r = run(c, true, cap, &n);
    /* the count is charged to the request too; a count cut short counts as too many */
    if (!cbd_charge(c->budget, c->search.work_spent - spent)) {
        c->status = CBD_ERR_BUDGET;
        *c->err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return EVAL_ERROR;
    }
    c->stopped = false;
    *count = r == EVAL_DONE ? n : cap + 1;
    return r == EVAL_ERROR ? r : EVAL_DONE;
}

eval_result cbdp_plan_exhaust(plan_ctx *c) {
    /* the seeds first, so that a walk cut short answers no worse than they */
    eval_result r = cbdp_plan_seeds(c, &c->scratch, false);
    if (r == EVAL_STOP || r == EVAL_ERROR) {
        return r;
    }
    return run(c, false, 0, NULL);
}
