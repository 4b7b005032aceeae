/*
 * The whole plan space (W31), enumerated: every deploy of the income, every amount of every
 * pair within what may move, every order of the chosen orders. Orders that commute (disjoint
 * territories, setup_independence in warapp_plan.c) are taken in one order, generated so
 * and never found by walking n! permutations: the chosen orders fall into blocks (joined by
 * pairs that do not commute, transitively), every order of one block commutes with every order
 * of another, so the blocks are laid out one after another in a fixed order and only the orders
 * within each block are permuted (an odometer over the blocks' permutations). Within a block a
 * permutation with two adjacent commuting orders out of pair order is passed over, so every
 * class of orders that differ only by such swaps keeps at least its representative (its
 * lexicographic least). Counting takes the product of the blocks' factorials (an upper bound of
 * the representatives) without walking them; every step of the walk is charged. Plans whose bound
 * (warapp_plan_bound.c) could not beat the last plan kept are left out: they could not be kept. The
 * seeds of the local search go first (each plan is analysed once), so that a walk cut short by
 * max_plans answers no worse than they.
 */
#include "warapp_plan_internal.h"

#include "core/permutation.h"

#include <string.h>

typedef struct {
    plan_ctx *c;
    plan_state *st;
    uint64_t *left;   /* per own territory: armies not yet given to a pair */
    uint32_t *active; /* the chosen pairs, block after block, each block permuted */
    uint32_t *root;   /* per chosen pair: its block (union-find over indices into active) */
    size_t *block;    /* the blocks' starts in active, and n_active at the end */
    bool counting;
    uint64_t count, cap;
    eval_result result; /* EVAL_STOP or EVAL_ERROR end the walk */
} walk;

static bool commute(const plan_ctx *c, uint32_t p, uint32_t q) {
    uint32_t a = c->space.own[c->space.pfrom[p]], b = c->space.pto[p],
             x = c->space.own[c->space.pfrom[q]], y = c->space.pto[q];
    if (!c->space.independent_ok || a == x || a == y || b == x || b == y) {
        return false;
    }
    return c->board->move_order == CBD_MOVE_LISTED ||
           !(c->space.touched[a] || c->space.touched[b] || c->space.touched[x] ||
             c->space.touched[y]);
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
    if (!cbd_charge(&c->meter.search,
                    cbd_work_times(CBD_WORK_SCAN_TERM, c->space.np + n_active + 1))) {
        c->meter.stopped = true;
        w->result = EVAL_STOP;
        return false;
    }
    if (w->counting) {
        return w->count <= w->cap; /* orders_of added the plans */
    }
    /* seq: the active pairs in their order, then the others in pair order */
    size_t j = 0;
    for (size_t i = 0; i < n_active; i++) {
        w->st->seq[j++] = w->active[i];
    }
    for (uint32_t p = 0; p < c->space.np; p++) {
        if (w->st->a[p] == 0) {
            w->st->seq[j++] = p;
        }
    }
    if (!cbdp_plan_may_keep(c, cbdp_plan_bound(c, w->st), cbdp_plan_size(c, w->st))) {
        c->best.bounded_out++;
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

static uint32_t find(uint32_t *root, uint32_t i) {
    while (root[i] != i) {
        root[i] = root[root[i]];
        i = root[i];
    }
    return i;
}

/* The chosen pairs into blocks: w->active holds them block after block (blocks by their
 * least pair, each ascending), w->block the blocks' starts; their number. */
static size_t blocks_of(walk *w, size_t n) {
    plan_ctx *c = w->c;
    for (size_t i = 0; i < n; i++) {
        w->root[i] = (uint32_t)i;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            if (!commute(c, w->active[i], w->active[j])) {
                uint32_t a = find(w->root, (uint32_t)i), b = find(w->root, (uint32_t)j);
                w->root[a > b ? a : b] = a < b ? a : b;
            }
        }
    }
    /* stable by root: the root is the block's least index, active being ascending */
    uint32_t *sorted = w->active + n; /* room: active has np + 1 slots twice over */
    size_t m = 0, nb = 0;
    for (size_t r = 0; r < n; r++) {
        if (find(w->root, (uint32_t)r) != r) {
            continue;
        }
        w->block[nb++] = m;
        for (size_t i = r; i < n; i++) {
            if (find(w->root, (uint32_t)i) == r) {
                sorted[m++] = w->active[i];
            }
        }
    }
    w->block[nb] = n;
    memcpy(w->active, sorted, n * sizeof *w->active);
    return nb;
}

/* The next of the blocks' permutations, the last block turning fastest; false after the
 * last (every block back in ascending order). */
static bool next_orders(walk *w, size_t nb) {
    for (size_t b = nb; b-- > 0;) {
        uint32_t *v = w->active + w->block[b];
        size_t len = w->block[b + 1] - w->block[b];
        if (cbd_next_permutation(v, len)) {
            return true;
        }
        for (size_t l = 0, r = len; len > 1 && l + 1 < r; l++, r--) { /* descending: reverse */
            uint32_t t = v[l];
            v[l] = v[r - 1];
            v[r - 1] = t;
        }
    }
    return false;
}

static bool orders_of(walk *w) {
    plan_ctx *c = w->c;
    size_t n = 0;
    for (uint32_t p = 0; p < c->space.np; p++) {
        if (w->st->a[p] > 0) {
            w->active[n++] = p;
        }
    }
    if (!cbd_charge(&c->meter.search, cbd_work_times(CBD_WORK_SCAN_TERM, n * n + 1))) {
        c->meter.stopped = true;
        w->result = EVAL_STOP;
        return false;
    }
    size_t nb = blocks_of(w, n);
    if (w->counting) {
        /* the blocks' orders multiply: an upper bound of the plans, reached without a walk */
        uint64_t ways = 1;
        for (size_t b = 0; b < nb; b++) {
            for (uint64_t f = 2; f <= w->block[b + 1] - w->block[b]; f++) {
                ways = cbd_work_times(ways, f);
            }
        }
        w->count = w->count + ways < w->count ? UINT64_MAX : w->count + ways;
        return visit(w, n);
    }
    do {
        /* every permutation walked is charged, those passed over too */
        if (!cbd_charge(&c->meter.search, cbd_work_times(CBD_WORK_SCAN_TERM, n + 1))) {
            c->meter.stopped = true;
            w->result = EVAL_STOP;
            return false;
        }
        bool first = true; /* of its class: within each block (across blocks all commute) */
        for (size_t b = 0; b < nb && first; b++) {
            first = canonical(c, w->active + w->block[b], w->block[b + 1] - w->block[b]);
        }
        if (first && !visit(w, n)) {
            return false;
        }
    } while (next_orders(w, nb));
    return true;
}

/* Pair p's amount, from the most its territory has left down to none. */
static bool amounts(walk *w, size_t p) {
    plan_ctx *c = w->c;
    if (p == c->space.np) {
        return orders_of(w);
    }
    uint32_t i = c->space.pfrom[p];
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
    if (i + 1 >= c->space.k) {
        w->st->d[i] = income_left;
        w->left[i] = c->space.movable[i] + income_left;
        return amounts(w, 0);
    }
    for (uint64_t v = 0; v <= income_left; v++) {
        w->st->d[i] = v;
        w->left[i] = c->space.movable[i] + v;
        if (!deploys(w, i + 1, income_left - v)) {
            return false;
        }
    }
    return true;
}

static eval_result run(plan_ctx *c, bool counting, uint64_t cap, uint64_t *count) {
    walk w = {c, &c->scratch, NULL, NULL, NULL, NULL, counting, 0, cap, EVAL_DONE};
    w.left = cbd_mem_calloc(c->meter.budget, c->space.k + 1, sizeof *w.left);
    w.active = cbd_mem_calloc(c->meter.budget, 2 * (c->space.np + 1), sizeof *w.active);
    w.root = cbd_mem_calloc(c->meter.budget, c->space.np + 1, sizeof *w.root);
    w.block = cbd_mem_calloc(c->meter.budget, c->space.np + 2, sizeof *w.block);
    if (!w.left || !w.active || !w.root || !w.block) {
        cbd_mem_free(w.left);
        cbd_mem_free(w.active);
        cbd_mem_free(w.root);
        cbd_mem_free(w.block);
        c->meter.status = cbd_budget_nomem(c->meter.budget);
        return EVAL_ERROR;
    }
    memset(c->scratch.a, 0, c->space.np * sizeof *c->scratch.a);
    memset(c->scratch.d, 0, c->space.k * sizeof *c->scratch.d);
    (void)deploys(&w, 0, c->req->income);
    cbd_mem_free(w.left);
    cbd_mem_free(w.active);
    cbd_mem_free(w.root);
    cbd_mem_free(w.block);
    if (count) {
        *count = w.count;
    }
    return w.result;
}

eval_result cbdp_plan_count(plan_ctx *c, uint64_t cap, uint64_t *count) {
    uint64_t n = 0;
    eval_result r = run(c, true, cap, &n);
    /* the count is charged to the request too; a count cut short counts as too many */
    if (!cbd_budget_relay_settle(&c->meter.relay)) {
        c->meter.status = CBD_ERR_BUDGET;
        *c->meter.err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return EVAL_ERROR;
    }
    c->meter.stopped = false;
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
