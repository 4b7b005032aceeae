/*
 * The board split into groups of territories that cannot affect each other, and each group's
 * schedules (see warapp_turn_analyze.c for why the analysis runs group by group). Territories
 * are joined by the territories each order reads or writes (its kind's row, union–find) and by
 * a Commander's owner (W22); under
 * the random move order (W13) a group weighs the permutations of its own movers.
 */
#include <string.h>

#include "core/hash_index.h"
#include "core/permutation.h"
#include "core/warapp/turn/warapp_turn_internal.h"

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

void cbdp_turn_groups_free(cbd_turn_groups *a) {
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

cbd_status cbdp_turn_outside_orders(cbd_turn_groups *a, cbd_status st) {
    if (st == CBD_ERR_BUDGET || st == CBD_ERR_NOMEM) {
        a->err->kind = CBD_TURN_ERR_BUDGET;
        a->err->index = CBD_TURN_NO_ORDER;
    }
    return st;
}

/* Lists each group's territories and movers; gr->len counts its orders. */
static cbd_status groups_fill(cbd_turn_groups *a) {
    const cbd_turn_plan *p = a->plan;
    /* Each group looks over every order and every mover. */
    uint64_t pairs = cbd_work_times(a->n_groups, p->n_seq + p->n_movers);
    if (!cbd_charge(a->budget, cbd_work_times(CBD_WORK_SCAN_TERM, pairs + p->n_terr))) {
        return cbdp_turn_outside_orders(a, CBD_ERR_BUDGET);
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        a->groups[a->group_of_terr[i]].n_terr++;
    }
    uint8_t *mark = cbd_mem_calloc(a->budget, p->n_movers + 1, 1);
    if (!mark) {
        return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t g = 0; g < a->n_groups; g++) {
        cbd_turn_group *gr = &a->groups[g];
        gr->terr = cbd_mem_alloc(a->budget, gr->n_terr * sizeof *gr->terr);
        gr->movers = cbd_mem_alloc(a->budget, (p->n_movers + 1) * sizeof *gr->movers);
        if (!gr->terr || !gr->movers) {
            cbd_mem_free(mark);
            return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
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
        for (size_t k = 0; k < p->n_seq; k++) {
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

/* W24: the territories each order in sequence reads or writes (its row's `touches`) are
 * joined, so that no group's order looks at another group's territory. */
static void join_orders(const cbd_turn_plan *p, uint32_t *parent, uint32_t *touched) {
    for (size_t k = 0; k < p->n_seq; k++) {
        const cbd_turn_order *o = &p->turn->orders[p->listed[k]];
        size_t n = cbdp_turn_kind_of(o->type)->touches(p->turn, o, touched);
        for (size_t i = 1; i < n; i++) {
            parent[uf_find(parent, touched[i])] = uf_find(parent, touched[0]);
        }
    }
}

cbd_status cbdp_turn_groups_build(cbd_turn_groups *a) {
    const cbd_turn_plan *p = a->plan;
    /* Union–find over the orders, then a pass over the territories and the orders; and a pass
     * over the territories for each unit (W22, join_commanders). */
    uint64_t steps = p->n_terr + p->n_orders + cbd_work_times(p->turn->n_units, p->n_terr);
    if (p->turn->neighbor_off) {
        steps += p->turn->neighbor_off[p->n_terr]; /* W25: a bomb joins its target's neighbours */
    }
    if (!cbd_charge(a->budget, cbd_work_times(4 * CBD_WORK_SCAN_TERM, steps))) {
        return cbdp_turn_outside_orders(a, CBD_ERR_BUDGET);
    }
    uint32_t *parent = cbd_mem_alloc(a->budget, (p->n_terr + 1) * sizeof *parent);
    uint32_t *touched = cbd_mem_alloc(a->budget, (p->n_terr + 2) * sizeof *touched);
    a->group_of_terr = cbd_mem_alloc(a->budget, (p->n_terr + 1) * sizeof *a->group_of_terr);
    a->group_of_order = cbd_mem_alloc(a->budget, (p->n_orders + 1) * sizeof *a->group_of_order);
    a->full = cbd_mem_alloc(a->budget, (2 * p->n_seq + 1) * sizeof *a->full);
    a->first = cbd_mem_alloc(a->budget, (p->n_movers + 1) * sizeof *a->first);
    if (!parent || !touched || !a->group_of_terr || !a->group_of_order || !a->full || !a->first) {
        cbd_mem_free(parent);
        cbd_mem_free(touched);
        return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        parent[i] = (uint32_t)i;
        a->group_of_terr[i] = UINT32_MAX;
    }
    join_orders(p, parent, touched);
    join_commanders(p, parent);
    for (size_t i = 0; i < p->n_terr; i++) {
        uint32_t r = uf_find(parent, (uint32_t)i);
        if (a->group_of_terr[r] == UINT32_MAX) {
            a->group_of_terr[r] = (uint32_t)a->n_groups++;
        }
        a->group_of_terr[i] = a->group_of_terr[r];
    }
    cbd_mem_free(parent);
    for (size_t k = 0; k < p->n_seq; k++) {
        const cbd_turn_order *o = &p->turn->orders[p->listed[k]];
        cbdp_turn_kind_of(o->type)->touches(p->turn, o, touched);
        a->group_of_order[p->listed[k]] = a->group_of_terr[touched[0]];
    }
    cbd_mem_free(touched);
    a->groups = cbd_mem_calloc(a->budget, a->n_groups + 1, sizeof *a->groups);
    if (!a->groups) {
        return cbdp_turn_outside_orders(a, cbd_budget_nomem(a->budget));
    }
    cbd_status st = groups_fill(a);
    for (size_t i = 0; i < p->turn->n_goals && st == CBD_OK; i++) {
        a->groups[a->group_of_terr[p->turn->goals[i].territory]].has_goal = true;
    }
    return st;
}

/* The group's orders as they run when round 1's movers are `first` (NULL: listed). */
static void group_seq(cbd_turn_groups *a, size_t g, const uint32_t *first, uint32_t *out) {
    cbdp_turn_plan_schedule(a->plan, first, a->full);
    size_t n = 0;
    for (size_t k = 0; k < a->plan->n_seq; k++) {
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

/* What weighing one permutation costs: round 1 completed with the other movers, the group's
 * schedule picked out of the whole one, hashed and compared. */
static uint64_t permutation_units(const cbd_turn_groups *a, const cbd_turn_group *gr) {
    const cbd_turn_plan *p = a->plan;
    uint64_t steps = (uint64_t)p->n_movers * (gr->n_movers + 1) +
                     (uint64_t)cbdp_turn_plan_rounds(p) * p->n_movers + p->n_seq + 2 * gr->len;
    /* W30: the priority players' places sorted, the orders by delay level. */
    steps += p->any_prio ? (uint64_t)p->n_movers * p->n_movers : 0;
    steps += p->max_level > 0 ? (uint64_t)p->n_seq * (p->max_level + 2) : 0;
    return cbd_work_times(CBD_WORK_SCAN_TERM, steps);
}

/* The schedules' status: a spent budget or memory is blamed on the random move order. */
static cbd_status schedules_stopped(cbd_turn_groups *a, cbd_status st) {
    a->err->kind = CBD_TURN_ERR_SCHEDULES;
    a->err->index = CBD_TURN_NO_ORDER;
    return st;
}

/* W13 random: each permutation of the group's movers, equal schedules merged. */
static cbd_status random_schedules(cbd_turn_groups *a, size_t g, uint32_t *perm, uint32_t *table,
                                   size_t tcap, cbd_charge_share *pages) {
    cbd_turn_group *gr = &a->groups[g];
    const cbd_turn_plan *p = a->plan;
    size_t rank = 0, len = gr->len, k = gr->n_movers;
    memcpy(perm, gr->movers, k * sizeof *perm);
    /* Charged permutation by permutation in pieces (cbd_charge_loop): 7 movers' 5,040 were
     * some 5·10^6 units at once. */
    cbd_charge_loop paid;
    cbd_charge_loop_init(&paid, a->budget, permutation_units(a, gr), gr->n_ranks);
    do {
        if (!cbd_charge_loop_step(&paid) || !cbd_charge_share_step(pages)) {
            return schedules_stopped(a, CBD_ERR_BUDGET);
        }
        /* Round 1 puts the group's movers in `perm`'s order; the others do not matter here. */
        memcpy(a->first, perm, k * sizeof *perm);
        for (size_t m = 0, n = k; m < p->n_movers; m++) {
            if (!cbdp_turn_contains(perm, k, (uint32_t)m)) {
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
    } while (cbd_next_permutation(perm, k));
    return cbd_charge_share_end(pages) ? CBD_OK : schedules_stopped(a, CBD_ERR_BUDGET);
}

cbd_status cbdp_turn_group_schedules(cbd_turn_groups *a, size_t g) {
    cbd_turn_group *gr = &a->groups[g];
    const cbd_turn *t = a->plan->turn;
    uint64_t cap = a->limits->max_schedules;
    uint64_t fact =
        t->move_order == CBD_MOVE_RANDOM ? cbdp_turn_factorial_capped(gr->n_movers, cap) : 1;
    if (fact > cap) {
        a->err->kind = CBD_TURN_ERR_SCHEDULES;
        a->err->needed = fact;
        a->err->limit = cap;
        return CBD_ERR_TOO_LARGE;
    }
    /* The random order's permutations are charged as they are weighed (random_schedules). */
    if (t->move_order != CBD_MOVE_RANDOM && !cbd_charge(a->budget, permutation_units(a, gr))) {
        return schedules_stopped(a, CBD_ERR_BUDGET);
    }
    gr->n_ranks = (size_t)fact;
    /* The blocks' new pages are paid as the permutations fill them (random_schedules), not when
     * they are taken: 5,040 schedules of 128 orders were 6.04 · 2^20 units at once. */
    uint64_t owed = 0;
    cbd_budget_defer_pages(a->budget, &owed);
    gr->seqs = cbd_mem_alloc(a->budget, (gr->n_ranks * gr->len + 1) * sizeof *gr->seqs);
    gr->weight = cbd_mem_alloc(a->budget, gr->n_ranks * sizeof *gr->weight);
    gr->fval = cbd_mem_alloc(a->budget, gr->n_ranks * sizeof *gr->fval);
    gr->rank_to_id = cbd_mem_alloc(a->budget, gr->n_ranks * sizeof *gr->rank_to_id);
    cbd_budget_defer_pages(a->budget, NULL);
    cbd_charge_share pages;
    cbd_charge_share_pages_init(&pages, a->budget, owed, gr->n_ranks);
    if (!gr->seqs || !gr->weight || !gr->fval || !gr->rank_to_id) {
        (void)cbd_charge_share_end(&pages);
        return schedules_stopped(a, cbd_budget_nomem(a->budget));
    }
    if (t->move_order != CBD_MOVE_RANDOM) {
        group_seq(a, g, t->move_order == CBD_MOVE_CYCLE ? a->plan->cycle_first : NULL, gr->seqs);
        gr->n_sched = 1;
        gr->weight[0] = 1.0;
        gr->rank_to_id[0] = 0;
        return cbd_charge_share_end(&pages) ? CBD_OK : schedules_stopped(a, CBD_ERR_BUDGET);
    }
    size_t tcap = 4;
    while (tcap < 2 * gr->n_ranks) {
        tcap *= 2;
    }
    uint32_t *table = cbd_mem_calloc(a->budget, tcap, sizeof *table);
    uint32_t *perm = cbd_mem_alloc(a->budget, (gr->n_movers + 1) * sizeof *perm);
    cbd_status st = table && perm ? random_schedules(a, g, perm, table, tcap, &pages)
                                  : schedules_stopped(a, cbd_budget_nomem(a->budget));
    cbd_mem_free(table);
    cbd_mem_free(perm);
    return st;
}
