/*
 * W16 goals across groups under the random move order, and the small permutation helpers the
 * analysis shares. A group's goal chance depends on the relative order of its own movers only;
 * groups that share a mover share that order, so their goals are averaged together over the
 * permutations of the movers they have between them; the rest multiply.
 */
#include <string.h>

#include "core/permutation.h"
#include "core/warapp/turn/warapp_turn_internal.h"

typedef struct {
    const cbd_turn_group *groups;
    size_t n_groups, n_movers;
    uint64_t max_schedules;
    cbd_budget *budget;
    cbd_turn_error *err;
} goal_ctx;

/* The goals' status when the budget stopped them (or memory failed). */
static cbd_status goals_stopped(const goal_ctx *a, cbd_status st) {
    a->err->kind = CBD_TURN_ERR_GOAL;
    a->err->index = CBD_TURN_NO_ORDER;
    return st;
}

bool cbdp_turn_contains(const uint32_t *v, size_t n, uint32_t x) {
    for (size_t i = 0; i < n; i++) {
        if (v[i] == x) {
            return true;
        }
    }
    return false;
}

uint64_t cbdp_turn_factorial_capped(size_t k, uint64_t cap) {
    uint64_t f = 1;
    for (size_t i = 2; i <= k; i++) {
        if (f > cap / i) {
            return cap + 1;
        }
        f *= i;
    }
    return f;
}

/* The lexicographic rank of the group's movers in the order they appear in perm. */
static size_t restricted_rank(const cbd_turn_group *gr, const uint32_t *perm, size_t n,
                              uint32_t *seq) {
    size_t k = 0, rank = 0;
    for (size_t i = 0; i < n; i++) {
        if (cbdp_turn_contains(gr->movers, gr->n_movers, perm[i])) {
            seq[k++] = perm[i];
        }
    }
    for (size_t i = 0; i < k; i++) {
        size_t smaller = 0;
        for (size_t j = i + 1; j < k; j++) {
            smaller += seq[j] < seq[i];
        }
        rank = rank * (k - i) + smaller; /* Lehmer code in the factorial base */
    }
    return rank;
}

/* The goals on groups that share movers, averaged over the permutations of those movers. */
static cbd_status component_goals(const goal_ctx *a, const uint32_t *comp, size_t c, double *out) {
    uint32_t *u = cbd_mem_alloc(a->budget, (a->n_movers + 1) * 2 * sizeof *u);
    if (!u) {
        return goals_stopped(a, cbd_budget_nomem(a->budget));
    }
    uint32_t *seq = u + a->n_movers + 1;
    size_t n = 0;
    for (size_t m = 0; m < a->n_movers; m++) {
        for (size_t g = 0; g < a->n_groups; g++) {
            if (comp[g] == c &&
                cbdp_turn_contains(a->groups[g].movers, a->groups[g].n_movers, (uint32_t)m)) {
                u[n++] = (uint32_t)m;
                break;
            }
        }
    }
    uint64_t fact = cbdp_turn_factorial_capped(n, a->max_schedules);
    if (fact > a->max_schedules) {
        cbd_mem_free(u);
        a->err->kind = CBD_TURN_ERR_SCHEDULES;
        a->err->needed = fact;
        a->err->limit = a->max_schedules;
        return CBD_ERR_TOO_LARGE;
    }
    /* Each permutation ranks the shared movers once per group of the component. */
    uint64_t per = 0;
    for (size_t g = 0; g < a->n_groups; g++) {
        per += comp[g] == c ? n * (a->groups[g].n_movers + n) + 1 : 0;
    }
    if (!cbd_charge(a->budget, cbd_work_times(CBD_WORK_SCAN_TERM, cbd_work_times(per, fact)))) {
        cbd_mem_free(u);
        return goals_stopped(a, CBD_ERR_BUDGET);
    }
    double sum = 0;
    do {
        double prod = 1;
        for (size_t g = 0; g < a->n_groups; g++) {
            if (comp[g] == c) {
                const cbd_turn_group *gr = &a->groups[g];
                prod *= gr->fval[gr->rank_to_id[restricted_rank(gr, u, n, seq)]];
            }
        }
        sum += prod;
    } while (cbd_next_permutation(u, n));
    cbd_mem_free(u);
    *out = sum / (double)fact;
    return CBD_OK;
}

static bool varies(const cbd_turn_group *gr) {
    for (size_t i = 1; i < gr->n_sched; i++) {
        if (gr->fval[i] != gr->fval[0]) {
            return true;
        }
    }
    return false;
}

static bool share_movers(const cbd_turn_group *x, const cbd_turn_group *y) {
    for (size_t i = 0; i < x->n_movers; i++) {
        if (cbdp_turn_contains(y->movers, y->n_movers, x->movers[i])) {
            return true;
        }
    }
    return false;
}

/* W16: P(every goal holds). Groups whose goal chance does not depend on the permutation are
 * independent factors; the others are joined into components by shared movers. */
cbd_status cbdp_turn_combine_goals(const cbd_turn_group *groups, size_t n_groups, size_t n_movers,
                                   uint64_t max_schedules, cbd_budget *budget, cbd_turn_error *err,
                                   double *out) {
    goal_ctx ctx = {groups, n_groups, n_movers, max_schedules, budget, err}, *a = &ctx;
    *out = 1.0;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, n_groups))) {
        return goals_stopped(a, CBD_ERR_BUDGET);
    }
    uint32_t *comp = cbd_mem_alloc(budget, (a->n_groups + 1) * sizeof *comp);
    if (!comp) {
        return goals_stopped(a, cbd_budget_nomem(budget));
    }
    size_t n_comp = 0;
    for (size_t g = 0; g < a->n_groups; g++) {
        const cbd_turn_group *gr = &a->groups[g];
        comp[g] = UINT32_MAX;
        if (!gr->has_goal) {
            continue;
        }
        if (!varies(gr)) {
            *out *= gr->fval[0];
            continue;
        }
        comp[g] = (uint32_t)n_comp++;
        /* Its movers against every earlier group's, and the components relabelled. */
        uint64_t steps = cbd_work_times(g + 1, (uint64_t)gr->n_movers * n_movers + g + 1);
        if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, steps))) {
            cbd_mem_free(comp);
            return goals_stopped(a, CBD_ERR_BUDGET);
        }
        for (size_t h = 0; h < g; h++) { /* join every earlier component it shares a mover with */
            if (comp[h] != UINT32_MAX && comp[h] != comp[g] && share_movers(gr, &a->groups[h])) {
                uint32_t from = comp[h];
                for (size_t x = 0; x <= g; x++) {
                    comp[x] = comp[x] == from ? comp[g] : comp[x];
                }
            }
        }
    }
    cbd_status st = CBD_OK;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, cbd_work_times(n_comp, n_groups)))) {
        st = goals_stopped(a, CBD_ERR_BUDGET);
    }
    for (size_t c = 0; c < n_comp && st == CBD_OK; c++) {
        bool used = false;
        for (size_t g = 0; g < a->n_groups; g++) {
            used = used || comp[g] == c;
        }
        double f = 1.0;
        if (used && (st = component_goals(a, comp, c, &f)) == CBD_OK) {
            *out *= f;
        }
    }
    cbd_mem_free(comp);
    return st;
}
