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
 * goal groups share (cbd_turn_groups with disjoint movers are independent).
 */
#include <string.h>

#include "hash_index.h"
#include "warapp_turn_internal.h"

typedef struct {
    const cbd_turn_plan *plan;
    const cbd_turn_limits *limits;
    cbd_budget *budget;
    cbd_turn_error *err;
    size_t n_groups;
    cbd_turn_group *groups;
    uint32_t *group_of_terr;
    uint32_t *group_of_order;
    uint32_t *full, *first; /* scratch: a whole schedule, round 1's movers */
} analysis;

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void groups_free(analysis *a) {
    for (size_t g = 0; a->groups && g < a->n_groups; g++) {
        cbd_turn_group *gr = &a->groups[g];
        cbd_mem_free(gr->terr);
        cbd_mem_free(gr->movers);
        cbd_mem_free(gr->seqs);
        cbd_mem_free(gr->weight);
        cbd_mem_free(gr->fval);
        cbd_mem_free(gr->rank_to_id);
    }
    cbd_mem_free(a->groups);
    cbd_mem_free(a->group_of_terr);
    cbd_mem_free(a->group_of_order);
    cbd_mem_free(a->full);
    cbd_mem_free(a->first);
}

/* The status of a step outside any order that the budget stopped (or memory failed). */
static cbd_status outside_orders(analysis *a, cbd_status st) {
    if (st == CBD_ERR_BUDGET || st == CBD_ERR_NOMEM) {
        a->err->kind = CBD_TURN_ERR_BUDGET;
        a->err->index = CBD_TURN_NO_ORDER;
    }
    return st;
}

/* Lists each group's territories and movers; gr->len counts its orders. */
static cbd_status groups_fill(analysis *a) {
    const cbd_turn_plan *p = a->plan;
    /* Each group looks over every order and every mover. */
    uint64_t pairs = cbd_work_times(a->n_groups, p->n_attack + p->n_movers);
    if (!cbd_charge(a->budget, cbd_work_times(CBD_WORK_SCAN_TERM, pairs + p->n_terr))) {
        return outside_orders(a, CBD_ERR_BUDGET);
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        a->groups[a->group_of_terr[i]].n_terr++;
    }
    uint8_t *mark = cbd_mem_calloc(a->budget, p->n_movers + 1, 1);
    if (!mark) {
        return outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t g = 0; g < a->n_groups; g++) {
        cbd_turn_group *gr = &a->groups[g];
        gr->terr = cbd_mem_alloc(a->budget, gr->n_terr * sizeof *gr->terr);
        gr->movers = cbd_mem_alloc(a->budget, (p->n_movers + 1) * sizeof *gr->movers);
        if (!gr->terr || !gr->movers) {
            cbd_mem_free(mark);
            return outside_orders(a, cbd_budget_nomem(a->budget));
        }
        gr->n_terr = 0;
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        cbd_turn_group *gr = &a->groups[a->group_of_terr[i]];
        gr->terr[gr->n_terr++] = (uint32_t)i;
    }
    for (size_t g = 0; g < a->n_groups; g++) {
        cbd_turn_group *gr = &a->groups[g];
        memset(mark, 0, p->n_movers + 1);
        for (size_t k = 0; k < p->n_attack; k++) {
            if (a->group_of_order[p->listed[k]] == g) {
                gr->len++;
                mark[p->mover_of[p->turn->orders[p->listed[k]].player]] = 1;
            }
        }
        for (size_t m = 0; m < p->n_movers; m++) {
            if (mark[m]) {
                gr->movers[gr->n_movers++] = (uint32_t)m;
            }
        }
    }
    cbd_mem_free(mark);
    return CBD_OK;
}

/*
 * W22 couples territories that no order links: when a player's last Commander dies, every
 * territory the player owns at that moment turns neutral. So the territories of each player
 * who starts with a Commander go into one group. That is enough to keep groups independent:
 * a player owns, during the turn, only territories it owned at the start or took by an order
 * from one it owned then (an order joins its from and to), so every territory an elimination
 * can touch, and the battle that kills the Commander, are in that one group. A player who
 * starts without a Commander is never eliminated (W22) and needs nothing joined. Without
 * units no group changes, and neither does any answer.
 */
static void join_commanders(const cbd_turn_plan *p, uint32_t *parent) {
    const cbd_turn *t = p->turn;
    for (size_t u = 0; u < t->n_units; u++) {
        cbd_turn_player owner = p->start[t->units[u].territory].owner;
        if (!t->units[u].commander || owner == CBD_TURN_NEUTRAL) {
            continue;
        }
        uint32_t root = uf_find(parent, t->units[u].territory);
        for (size_t i = 0; i < p->n_terr; i++) {
            if (p->start[i].owner == owner) {
                parent[uf_find(parent, (uint32_t)i)] = root;
                root = uf_find(parent, root);
            }
        }
    }
}

static cbd_status groups_build(analysis *a) {
    const cbd_turn_plan *p = a->plan;
    /* Union–find over the orders, then a pass over the territories and the orders; and a pass
     * over the territories for each unit (W22, join_commanders). */
    uint64_t steps = p->n_terr + p->n_orders + cbd_work_times(p->turn->n_units, p->n_terr);
    if (!cbd_charge(a->budget, cbd_work_times(4 * CBD_WORK_SCAN_TERM, steps))) {
        return outside_orders(a, CBD_ERR_BUDGET);
    }
    uint32_t *parent = cbd_mem_alloc(a->budget, (p->n_terr + 1) * sizeof *parent);
    a->group_of_terr = cbd_mem_alloc(a->budget, (p->n_terr + 1) * sizeof *a->group_of_terr);
    a->group_of_order = cbd_mem_alloc(a->budget, (p->n_orders + 1) * sizeof *a->group_of_order);
    a->full = cbd_mem_alloc(a->budget, (p->n_attack + 1) * sizeof *a->full);
    a->first = cbd_mem_alloc(a->budget, (p->n_movers + 1) * sizeof *a->first);
    if (!parent || !a->group_of_terr || !a->group_of_order || !a->full || !a->first) {
        cbd_mem_free(parent);
        return outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        parent[i] = (uint32_t)i;
        a->group_of_terr[i] = UINT32_MAX;
    }
    for (size_t k = 0; k < p->n_attack; k++) {
        const cbd_turn_order *o = &p->turn->orders[p->listed[k]];
        parent[uf_find(parent, o->from)] = uf_find(parent, o->to);
    }
    join_commanders(p, parent);
    for (size_t i = 0; i < p->n_terr; i++) {
        uint32_t r = uf_find(parent, (uint32_t)i);
        if (a->group_of_terr[r] == UINT32_MAX) {
            a->group_of_terr[r] = (uint32_t)a->n_groups++;
        }
        a->group_of_terr[i] = a->group_of_terr[r];
    }
    cbd_mem_free(parent);
    for (size_t k = 0; k < p->n_attack; k++) {
        a->group_of_order[p->listed[k]] = a->group_of_terr[p->turn->orders[p->listed[k]].from];
    }
    a->groups = cbd_mem_calloc(a->budget, a->n_groups + 1, sizeof *a->groups);
    if (!a->groups) {
        return outside_orders(a, cbd_budget_nomem(a->budget));
    }
    cbd_status st = groups_fill(a);
    for (size_t i = 0; i < p->turn->n_goals && st == CBD_OK; i++) {
        a->groups[a->group_of_terr[p->turn->goals[i].territory]].has_goal = true;
    }
    return st;
}

/* The group's orders as they run when round 1's movers are `first` (NULL: listed). */
static void group_seq(analysis *a, size_t g, const uint32_t *first, uint32_t *out) {
    cbd_turn_plan_schedule(a->plan, first, a->full);
    size_t n = 0;
    for (size_t k = 0; k < a->plan->n_attack; k++) {
        if (a->group_of_order[a->full[k]] == g) {
            out[n++] = a->full[k];
        }
    }
}

/* The probe's test for the schedules' table: an empty slot, or one holding schedule `cand`. */
typedef struct {
    const uint32_t *table, *seqs, *cand;
    size_t len;
} schedule_probe;

static bool schedule_slot_done(const void *ctx, size_t s) {
    const schedule_probe *q = ctx;
    return !q->table[s] ||
           memcmp(q->seqs + (q->table[s] - 1) * q->len, q->cand, q->len * sizeof *q->cand) == 0;
}

/* W13 random: each permutation of the group's movers, equal schedules merged. */
static cbd_status random_schedules(analysis *a, size_t g, uint32_t *perm, uint32_t *table,
                                   size_t tcap) {
    cbd_turn_group *gr = &a->groups[g];
    const cbd_turn_plan *p = a->plan;
    size_t rank = 0, len = gr->len, k = gr->n_movers;
    memcpy(perm, gr->movers, k * sizeof *perm);
    do {
        /* Round 1 puts the group's movers in `perm`'s order; the others do not matter here. */
        memcpy(a->first, perm, k * sizeof *perm);
        for (size_t m = 0, n = k; m < p->n_movers; m++) {
            if (!cbd_turn_contains(perm, k, (uint32_t)m)) {
                a->first[n++] = (uint32_t)m;
            }
        }
        uint32_t *cand = gr->seqs + gr->n_sched * len;
        group_seq(a, g, a->first, cand);
        schedule_probe q = {table, gr->seqs, cand, len};
        size_t s = cbd_hash_probe(cbd_hash_words(cand, len), tcap - 1, schedule_slot_done, &q);
        if (!table[s]) {
            table[s] = (uint32_t)++gr->n_sched;
            gr->weight[table[s] - 1] = 0;
        }
        gr->weight[table[s] - 1] += 1.0 / (double)gr->n_ranks;
        gr->rank_to_id[rank++] = table[s] - 1;
    } while (cbd_turn_next_permutation(perm, k));
    return CBD_OK;
}

/* What weighing one permutation costs: round 1 completed with the other movers, the group's
 * schedule picked out of the whole one, hashed and compared. */
static uint64_t permutation_units(const analysis *a, const cbd_turn_group *gr) {
    const cbd_turn_plan *p = a->plan;
    uint64_t steps = (uint64_t)p->n_movers * (gr->n_movers + 1) +
                     (uint64_t)p->max_rounds * p->n_movers + p->n_attack + 2 * gr->len;
    return cbd_work_times(CBD_WORK_SCAN_TERM, steps);
}

/* The schedules' status: a spent budget or memory is blamed on the random move order. */
static cbd_status schedules_stopped(analysis *a, cbd_status st) {
    a->err->kind = CBD_TURN_ERR_SCHEDULES;
    a->err->index = CBD_TURN_NO_ORDER;
    return st;
}

static cbd_status group_schedules(analysis *a, size_t g) {
    cbd_turn_group *gr = &a->groups[g];
    const cbd_turn *t = a->plan->turn;
    uint64_t cap = a->limits->max_schedules;
    uint64_t fact =
        t->move_order == CBD_MOVE_RANDOM ? cbd_turn_factorial_capped(gr->n_movers, cap) : 1;
    if (fact > cap) {
        a->err->kind = CBD_TURN_ERR_SCHEDULES;
        a->err->needed = fact;
        a->err->limit = cap;
        return CBD_ERR_TOO_LARGE;
    }
    if (!cbd_charge(a->budget, cbd_work_times(permutation_units(a, gr), fact))) {
        return schedules_stopped(a, CBD_ERR_BUDGET);
    }
    gr->n_ranks = (size_t)fact;
    gr->seqs = cbd_mem_alloc(a->budget, (gr->n_ranks * gr->len + 1) * sizeof *gr->seqs);
    gr->weight = cbd_mem_alloc(a->budget, gr->n_ranks * sizeof *gr->weight);
    gr->fval = cbd_mem_alloc(a->budget, gr->n_ranks * sizeof *gr->fval);
    gr->rank_to_id = cbd_mem_alloc(a->budget, gr->n_ranks * sizeof *gr->rank_to_id);
    if (!gr->seqs || !gr->weight || !gr->fval || !gr->rank_to_id) {
        return schedules_stopped(a, cbd_budget_nomem(a->budget));
    }
    if (t->move_order != CBD_MOVE_RANDOM) {
        group_seq(a, g, t->move_order == CBD_MOVE_CYCLE ? a->plan->cycle_first : NULL, gr->seqs);
        gr->n_sched = 1;
        gr->weight[0] = 1.0;
        gr->rank_to_id[0] = 0;
        return CBD_OK;
    }
    size_t tcap = 4;
    while (tcap < 2 * gr->n_ranks) {
        tcap *= 2;
    }
    uint32_t *table = cbd_mem_calloc(a->budget, tcap, sizeof *table);
    uint32_t *perm = cbd_mem_alloc(a->budget, (gr->n_movers + 1) * sizeof *perm);
    cbd_status st = table && perm ? random_schedules(a, g, perm, table, tcap)
                                  : schedules_stopped(a, cbd_budget_nomem(a->budget));
    cbd_mem_free(table);
    cbd_mem_free(perm);
    return st;
}

static bool retired_before(const cbd_turn_retired *a, const cbd_turn_retired *b) {
    return a->territory != b->territory ? a->territory < b->territory : a->armies < b->armies;
}

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

/*
 * Sorts the points by (territory, armies), stably: equal points keep the order they were
 * gathered in, so each value's probability is summed in that order (as glibc's qsort, a merge
 * sort, summed them; a stable sort's output is unique). A merge sort of our own, so that its
 * scratch, as large as the points, comes from the budget rather than from qsort's malloc.
 */
static bool sort_points(cbd_budget *budget, cbd_turn_retired *pts, size_t n) {
    if (n < 2) {
        return true;
    }
    cbd_turn_retired *tmp = cbd_mem_alloc(budget, n * sizeof *tmp);
    if (!tmp) {
        return false;
    }
    cbd_turn_retired *src = pts, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = min_size(lo + width, n), hi = min_size(lo + 2 * width, n);
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                dst[k++] = retired_before(&src[j], &src[i]) ? src[j++] : src[i++];
            }
            while (i < mid) {
                dst[k++] = src[i++];
            }
            while (j < hi) {
                dst[k++] = src[j++];
            }
        }
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

/* W16: each territory's armies distribution from the points its retirements gathered. */
static cbd_status armies_results(analysis *a, cbd_turn_engine *e, cbd_turn_analysis *out) {
    size_t n;
    cbd_turn_retired *pts = (cbd_turn_retired *)cbd_turn_engine_points(e, &n);
    /* The merge sort's passes (each moves every point once, in order) and its scratch, then
     * one pass to merge equal points. */
    uint64_t steps = cbd_work_times(n, log2_ceil(n) + 1);
    uint64_t scratch = cbd_work_times(n, sizeof *pts) / CBD_WORK_TURN_GROWTH;
    if (!cbd_charge(a->budget, cbd_work_times(CBD_WORK_SCAN_TERM, steps) + scratch)) {
        return outside_orders(a, CBD_ERR_BUDGET);
    }
    if (!sort_points(a->budget, pts, n)) {
        return outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t i = 0; i < n;) {
        size_t j = i, distinct = 0;
        for (; j < n && pts[j].territory == pts[i].territory; j++) {
            distinct += j == i || pts[j].armies != pts[j - 1].armies;
        }
        cbd_turn_territory_result *r = &out->territories[pts[i].territory];
        r->armies = cbd_mem_alloc(a->budget, distinct * sizeof *r->armies);
        if (!r->armies) {
            return outside_orders(a, cbd_budget_nomem(a->budget));
        }
        for (size_t k = i; k < j; k++) {
            if (r->n_armies > 0 && r->armies[r->n_armies - 1].armies == pts[k].armies) {
                r->armies[r->n_armies - 1].probability += pts[k].probability;
            } else {
                r->armies[r->n_armies++] = (cbd_turn_point){pts[k].armies, pts[k].probability};
            }
            r->mean_armies += (double)pts[k].armies * pts[k].probability;
        }
        i = j;
    }
    cbd_turn_engine_clear_points(e);
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
    memset(r, 0, sizeof *r);
}

/* W21, W22: each unit's chance per territory and each player's chance of elimination. */
static cbd_status unit_results_alloc(analysis *a, cbd_turn_analysis *out) {
    const cbd_turn_plan *p = a->plan;
    size_t n = p->turn->n_units;
    if (n == 0) {
        return CBD_OK;
    }
    uint64_t values = cbd_work_times(n, p->n_terr) + p->n_players;
    if (!cbd_charge(a->budget, cbd_work_times(2 * CBD_WORK_SCAN_TERM, values))) {
        return outside_orders(a, CBD_ERR_BUDGET);
    }
    out->units = cbd_mem_calloc(a->budget, n, sizeof *out->units);
    out->eliminated = cbd_mem_calloc(a->budget, p->n_players + 1, sizeof *out->eliminated);
    if (!out->units || !out->eliminated) {
        return outside_orders(a, cbd_budget_nomem(a->budget));
    }
    out->n_units = n;
    for (size_t u = 0; u < n; u++) {
        out->units[u].territory = cbd_mem_calloc(a->budget, p->n_terr + 1, sizeof(double));
        if (!out->units[u].territory) {
            return outside_orders(a, cbd_budget_nomem(a->budget));
        }
    }
    return CBD_OK;
}

static cbd_status result_alloc(analysis *a, cbd_turn_analysis *out) {
    const cbd_turn_plan *p = a->plan;
    out->n_territories = p->n_terr;
    out->n_orders = p->n_orders;
    out->n_players = p->n_players;
    /* Every owner chance cleared here and read again by one_outcome. */
    uint64_t values = cbd_work_times(p->n_terr, p->n_players + 1);
    if (!cbd_charge(a->budget, cbd_work_times(2 * CBD_WORK_SCAN_TERM, values))) {
        return outside_orders(a, CBD_ERR_BUDGET);
    }
    out->territories = cbd_mem_calloc(a->budget, p->n_terr + 1, sizeof *out->territories);
    out->orders = cbd_mem_calloc(a->budget, p->n_orders + 1, sizeof *out->orders);
    if (!out->territories || !out->orders) {
        return outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t t = 0; t < p->n_terr; t++) {
        out->territories[t].owner = cbd_mem_calloc(a->budget, p->n_players + 1, sizeof(double));
        if (!out->territories[t].owner) {
            return outside_orders(a, cbd_budget_nomem(a->budget));
        }
    }
    return unit_results_alloc(a, out);
}

/* Every schedule of group g, then its territories' results. */
static cbd_status analyze_group(analysis *a, cbd_turn_engine *e, size_t g, cbd_turn_analysis *out) {
    cbd_turn_group *gr = &a->groups[g];
    cbd_status st = group_schedules(a, g);
    for (size_t id = 0; id < gr->n_sched && st == CBD_OK; id++) {
        st = cbd_turn_engine_run(e, gr->terr, gr->n_terr, gr->seqs + id * gr->len, gr->len,
                                 gr->weight[id], &gr->fval[id]);
    }
    return st == CBD_OK ? armies_results(a, e, out) : st;
}

cbd_status cbd_turn_analyze(const cbd_turn *turn, const cbd_turn_limits *limits, cbd_budget *budget,
                            cbd_turn_analysis *out, cbd_turn_error *err) {
    memset(out, 0, sizeof *out);
    cbd_turn_plan plan;
    cbd_status st = cbd_turn_plan_build(turn, limits, budget, &plan, err);
    if (st != CBD_OK) {
        return st;
    }
    analysis a = {.plan = &plan, .limits = limits, .budget = budget, .err = err};
    cbd_turn_engine *e = NULL;
    if ((st = groups_build(&a)) == CBD_OK && (st = result_alloc(&a, out)) == CBD_OK) {
        st = cbd_turn_engine_create(&plan, limits, budget, out, err, &e);
    }
    out->n_groups = a.n_groups;
    for (size_t g = 0; g < a.n_groups && st == CBD_OK; g++) {
        st = analyze_group(&a, e, g, out);
    }
    if (st == CBD_OK) {
        /* A kill window cut short of its exact support leaves a certainty unproven. */
        out->deterministic = one_outcome(out) && !cbd_turn_engine_truncated(e);
        out->max_group_states = cbd_turn_engine_peak(e);
        out->work = cbd_turn_engine_work(e);
        st = cbd_turn_combine_goals(a.groups, a.n_groups, plan.n_movers, limits->max_schedules,
                                    budget, err, &out->goals_probability);
    }
    cbd_turn_engine_free(e);
    groups_free(&a);
    cbd_turn_plan_free(&plan);
    if (st != CBD_OK) {
        cbd_turn_analysis_free(out);
    }
    return st;
}
