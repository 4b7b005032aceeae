/*
 * The exact analysis of a turn (W12–W16), group by group.
 *
 * Territories that no order links cannot affect each other, so the board is split into groups
 * (territories joined by an order's from and to, union–find) and each group's states are
 * enumerated alone: the state count is the product within a group, not across the board.
 * Under the random move order (W13) a group's schedule depends only on the relative order of
 * the players who give orders in it, so each group weighs the permutations of its own movers
 * (equal schedules merged, weighed by how many permutations give them). The groups then share
 * the players' permutation: per-territory and per-order results are per group anyway, and the
 * goals' joint probability averages the product over the permutations of the movers that the
 * goal groups share (groups with disjoint movers are independent). The groups and their
 * schedules are warapp_turn_groups.c's; this file runs them and gathers the results.
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

static bool retired_before(const cbd_turn_retired *a, const cbd_turn_retired *b) {
    return a->territory != b->territory ? a->territory < b->territory : a->armies < b->armies;
}

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

/* Points merged between two charges: some 2^16-2^19 units (a pass over 10^6 points took 2.6 ms
 * of CPU, and charged whole the sort ran 45-57 ms between two progress checks). */
#define MERGE_CHUNK ((size_t)1 << 16)

/* Merges src[lo, mid) and src[mid, hi) into dst, charging `per_point` units a point in chunks of
 * MERGE_CHUNK points, before they are merged, and in the first pass (`pages` not NULL) the new
 * pages of dst point by point as the pass first writes them; false once the budget is spent. */
static bool merge_runs(cbd_budget *budget, const cbd_turn_retired *src, cbd_turn_retired *dst,
                       size_t lo, size_t mid, size_t hi, uint64_t per_point,
                       cbd_charge_share *pages) {
    size_t i = lo, j = mid;
    for (size_t k = lo; k < hi;) {
        size_t end = min_size(k + MERGE_CHUNK, hi);
        if (!cbd_charge(budget, cbd_work_times(per_point, end - k))) {
            return false;
        }
        for (; k < end; k++) {
            if (pages && !cbd_charge_share_step(pages)) {
                return false;
            }
            bool right = j < hi && (i == mid || retired_before(&src[j], &src[i]));
            dst[k] = right ? src[j++] : src[i++];
        }
    }
    return true;
}

/*
 * Sorts the points by (territory, armies), stably: equal points keep the order they were
 * gathered in, so each value's probability is summed in that order (as glibc's qsort, a merge
 * sort, summed them; a stable sort's output is unique). A merge sort of our own, so that its
 * scratch, as large as the points, comes from the budget rather than from qsort's malloc, and
 * its passes are charged as they run: CBD_WORK_SCAN_TERM a point a pass, the first pass also the
 * scratch it fills (`growth` a point) and the scratch's new pages (cbd_budget_defer_pages), which
 * the first pass writes in order: charged whole when the scratch was taken, they were 12-31 ·
 * 2^20 units at once in bench_budget's 11000x11000, and their faults up to 10 ms of CPU in the
 * pass that followed without a check.
 */
static bool sort_points(cbd_budget *budget, cbd_turn_retired *pts, size_t n, uint64_t growth) {
    if (n < 2) {
        return true;
    }
    uint64_t owed = 0;
    cbd_budget_defer_pages(budget, &owed);
    cbd_turn_retired *tmp = cbd_mem_alloc(budget, n * sizeof *tmp);
    cbd_budget_defer_pages(budget, NULL);
    if (!tmp) {
        return false;
    }
    cbd_charge_share pages;
    cbd_charge_share_pages_init(&pages, budget, owed, n);
    cbd_turn_retired *src = pts, *dst = tmp;
    uint64_t per_point = CBD_WORK_SCAN_TERM + growth;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = min_size(lo + width, n), hi = min_size(lo + 2 * width, n);
            if (!merge_runs(budget, src, dst, lo, mid, hi, per_point, width == 1 ? &pages : NULL)) {
                cbd_mem_free(tmp);
                return false;
            }
        }
        if (width == 1 && !cbd_charge_share_end(&pages)) {
            cbd_mem_free(tmp);
            return false;
        }
        per_point = CBD_WORK_SCAN_TERM;
        cbd_turn_retired *t = src;
        src = dst;
        dst = t;
    }
    if (src != pts) {
        memcpy(pts, src, n * sizeof *pts);
    }
    cbd_mem_free(tmp);
    return true;
}

/* About log2(n) + 1: the depth of a sort of n points. */
static uint64_t log2_ceil(size_t n) {
    uint64_t d = 1;
    while (n > 1) {
        n >>= 1;
        d++;
    }
    return d;
}

/* The merge sort's passes over n points: ceil(log2(n)). */
static uint64_t merge_passes(size_t n) {
    uint64_t p = 0;
    for (size_t width = 1; width < n; width *= 2) {
        p++;
    }
    return p;
}

/* W16: each territory's armies distribution from the points its retirements gathered. */
static cbd_status armies_results(cbd_turn_groups *a, cbd_turn_engine *e, cbd_turn_analysis *out) {
    size_t n;
    cbd_turn_retired *pts = (cbd_turn_retired *)cbdp_turn_engine_points(e, &n);
    /* The merge sort's passes (each moves every point once, in order) and its scratch, then
     * one pass to merge equal points: log2_ceil(n) + 1 units a point and the scratch's bytes at
     * CBD_WORK_TURN_GROWTH. The sort charges its passes and its scratch as it runs them
     * (sort_points); the merge of equal points, with what the passes leave of that count, point
     * by point in pieces of about 2^20 units. */
    uint64_t passes = merge_passes(n);
    uint64_t growth = passes > 0 ? sizeof *pts / CBD_WORK_TURN_GROWTH : 0;
    uint64_t merge = (log2_ceil(n) + 1 - passes) * CBD_WORK_SCAN_TERM +
                     (passes > 0 ? 0 : sizeof *pts / CBD_WORK_TURN_GROWTH);
    if (!sort_points(a->budget, pts, n, growth)) {
        return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
    }
    cbd_charge_loop paid;
    cbd_charge_loop_init(&paid, a->budget, merge, n);
    for (size_t i = 0; i < n;) {
        size_t j = i, distinct = 0;
        for (; j < n && pts[j].territory == pts[i].territory; j++) {
            distinct += j == i || pts[j].armies != pts[j - 1].armies;
        }
        cbd_turn_territory_result *r = &out->territories[pts[i].territory];
        r->armies = cbd_mem_alloc(a->budget, distinct * sizeof *r->armies);
        if (!r->armies) {
            return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
        }
        for (size_t k = i; k < j; k++) {
            if (!cbd_charge_loop_step(&paid)) {
                return cbdp_turn_outside_orders(a, CBD_ERR_BUDGET);
            }
            if (r->n_armies > 0 && r->armies[r->n_armies - 1].armies == pts[k].armies) {
                r->armies[r->n_armies - 1].probability += pts[k].probability;
            } else {
                r->armies[r->n_armies++] = (cbd_turn_point){pts[k].armies, pts[k].probability};
            }
            r->mean_armies += (double)pts[k].armies * pts[k].probability;
        }
        i = j;
    }
    cbdp_turn_engine_clear_points(e);
    return CBD_OK;
}

/* The final board has one outcome iff every territory has one owner and one army count (and
 * every unit one place; W22's eliminations follow from the owners). */
static bool one_outcome(const cbd_turn_analysis *out) {
    for (size_t t = 0; t < out->n_territories; t++) {
        size_t owners = 0;
        for (size_t p = 0; p <= out->n_players; p++) {
            owners += out->territories[t].owner[p] > 0;
        }
        if (owners != 1 || out->territories[t].n_armies != 1) {
            return false;
        }
    }
    /* W21: and every unit has one fate (dead, or alive on one territory). */
    for (size_t u = 0; u < out->n_units; u++) {
        size_t places = 1.0 - out->units[u].alive > 1e-12; /* a chance that it died */
        for (size_t t = 0; t < out->n_territories; t++) {
            places += out->units[u].territory[t] > 0;
        }
        if (places != 1) {
            return false;
        }
    }
    return true;
}

void cbd_turn_analysis_free(cbd_turn_analysis *r) {
    for (size_t t = 0; r->territories && t < r->n_territories; t++) {
        cbd_mem_free(r->territories[t].owner);
        cbd_mem_free(r->territories[t].armies);
    }
    for (size_t u = 0; r->units && u < r->n_units; u++) {
        cbd_mem_free(r->units[u].territory);
    }
    cbd_mem_free(r->units);
    cbd_mem_free(r->eliminated);
    cbd_mem_free(r->territories);
    cbd_mem_free(r->orders);
    cbd_mem_free(r->bonus_owner);
    memset(r, 0, sizeof *r);
}

/* W21, W22: each unit's chance per territory and each player's chance of elimination. */
static cbd_status unit_results_alloc(cbd_turn_groups *a, cbd_turn_analysis *out) {
    const cbd_turn_plan *p = a->plan;
    size_t n = p->turn->n_units;
    if (n == 0) {
        return CBD_OK;
    }
    uint64_t values = cbd_work_times(n, p->n_terr) + p->n_players;
    if (!cbd_charge(a->budget, cbd_work_times(2 * CBD_WORK_SCAN_TERM, values))) {
        return cbdp_turn_outside_orders(a, CBD_ERR_BUDGET);
    }
    out->units = cbd_mem_calloc(a->budget, n, sizeof *out->units);
    out->eliminated = cbd_mem_calloc(a->budget, p->n_players + 1, sizeof *out->eliminated);
    if (!out->units || !out->eliminated) {
        return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
    }
    out->n_units = n;
    for (size_t u = 0; u < n; u++) {
        out->units[u].territory = cbd_mem_calloc(a->budget, p->n_terr + 1, sizeof(double));
        if (!out->units[u].territory) {
            return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
        }
    }
    return CBD_OK;
}

static cbd_status result_alloc(cbd_turn_groups *a, cbd_turn_analysis *out) {
    const cbd_turn_plan *p = a->plan;
    out->n_territories = p->n_terr;
    out->n_orders = p->n_orders;
    out->n_players = p->n_players;
    /* Every owner chance and every owner's armies (W48) cleared here and read again by
     * one_outcome: two values an owner a territory. */
    uint64_t values = cbd_work_times(p->n_terr, 2 * (p->n_players + 1));
    if (!cbd_charge(a->budget, cbd_work_times(2 * CBD_WORK_SCAN_TERM, values))) {
        return cbdp_turn_outside_orders(a, CBD_ERR_BUDGET);
    }
    out->territories = cbd_mem_calloc(a->budget, p->n_terr + 1, sizeof *out->territories);
    out->orders = cbd_mem_calloc(a->budget, p->n_orders + 1, sizeof *out->orders);
    if (!out->territories || !out->orders) {
        return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t t = 0; t < p->n_terr; t++) {
        double *block = cbd_mem_calloc(a->budget, 2 * (p->n_players + 1), sizeof(double));
        if (!block) {
            return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
        }
        out->territories[t].owner = block;
        out->territories[t].owned_armies = block + p->n_players + 1;
    }
    return unit_results_alloc(a, out);
}

/* Every schedule of group g, then its territories' results. */
static cbd_status analyze_group(cbd_turn_groups *a, cbd_turn_engine *e, size_t g,
                                cbd_turn_analysis *out) {
    cbd_turn_group *gr = &a->groups[g];
    cbd_status st = cbdp_turn_group_schedules(a, g);
    for (size_t id = 0; id < gr->n_sched && st == CBD_OK; id++) {
        st = cbdp_turn_engine_run(e, gr->terr, gr->n_terr, gr->seqs + id * gr->len, gr->len,
                                  gr->weight[id], &gr->fval[id]);
    }
    return st == CBD_OK ? armies_results(a, e, out) : st;
}

cbd_status cbd_turn_analyze(const cbd_turn *turn, const cbd_turn_limits *limits, cbd_budget *budget,
                            cbd_turn_analysis *out, cbd_turn_error *err) {
    memset(out, 0, sizeof *out);
    cbd_turn_plan plan;
    cbd_status st = cbdp_turn_plan_build(turn, limits, budget, &plan, err);
    if (st != CBD_OK) {
        return st;
    }
    cbd_turn_groups a = {.plan = &plan, .limits = limits, .budget = budget, .err = err};
    cbd_turn_engine *e = NULL;
    if ((st = cbdp_turn_groups_build(&a)) == CBD_OK && (st = result_alloc(&a, out)) == CBD_OK) {
        st = cbdp_turn_engine_create(&plan, limits, budget, out, err, &e);
    }
    out->n_groups = a.n_groups;
    for (size_t g = 0; g < a.n_groups && st == CBD_OK; g++) {
        st = analyze_group(&a, e, g, out);
    }
    if (st == CBD_OK) {
        /* A kill window cut short of its exact support leaves a certainty unproven. */
        out->deterministic = one_outcome(out) && !cbdp_turn_engine_truncated(e);
        out->max_group_states = cbdp_turn_engine_peak(e);
        out->work = cbdp_turn_engine_work(e);
        st = cbdp_turn_combine_goals(a.groups, a.n_groups, plan.n_movers, limits->max_schedules,
                                     budget, err, &out->goals_probability);
    }
    cbdp_turn_engine_free(e);
    cbdp_turn_groups_free(&a);
    cbdp_turn_plan_free(&plan);
    if (st != CBD_OK) {
        cbd_turn_analysis_free(out);
    }
    return st;
}
