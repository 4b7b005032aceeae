/*
 * Seeded resolution of one War.app turn (W12–W15, W24): its set-up, the draws before the
 * orders (fog, W23; the move order, W13) and the orders in schedule order, each by the sampled
 * step of its kind's row (warapp_turn_kinds.c).
 */
#include <string.h>

#include "warapp_turn_sim_internal.h"

void cbd_turn_sim_free(cbd_turn_sim *sim) {
    if (!sim) {
        return;
    }
    cbdp_turn_plan_free(&sim->plan);
    cbd_mem_free(sim->eligible);
    cbd_mem_free(sim->drawn);
    cbd_mem_free(sim->first);
    cbd_mem_free(sim->sched);
    cbd_mem_free(sim->side[0]);
    cbd_mem_free(sim->side[1]);
    cbd_mem_free(sim->ready);
    cbd_mem_free(sim->eliminated);
    cbd_mem_free(sim->has_commander);
    cbd_mem_free(sim);
}

cbd_status cbd_turn_sim_create(const cbd_turn *turn, const cbd_turn_limits *limits,
                               cbd_budget *budget, cbd_turn_sim **out, cbd_turn_error *err) {
    *out = NULL;
    cbd_turn_sim *sim = cbd_mem_calloc(budget, 1, sizeof *sim);
    if (!sim) {
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return cbd_budget_nomem(budget);
    }
    cbd_status st = cbdp_turn_plan_build(turn, limits, budget, &sim->plan, err);
    if (st != CBD_OK) {
        cbd_mem_free(sim);
        return st;
    }
    const cbd_turn_plan *p = &sim->plan;
    uint64_t total = 0;
    for (size_t i = 0; i < p->n_terr; i++) {
        total += p->start[i].armies;
    }
    sim->cache_n = total + 1 < CBD_TURN_SIDE_CACHE ? (size_t)total + 1 : CBD_TURN_SIDE_CACHE;
    sim->eligible = cbd_mem_alloc(budget, (p->n_terr + 1) * sizeof *sim->eligible);
    sim->drawn = cbd_mem_alloc(budget, (p->n_terr + 1) * sizeof *sim->drawn);
    sim->first = cbd_mem_alloc(budget, (p->n_movers + 1) * sizeof *sim->first);
    sim->sched = cbd_mem_alloc(budget, (2 * p->n_seq + 1) * sizeof *sim->sched);
    sim->side[0] = cbd_mem_alloc(budget, sim->cache_n * sizeof *sim->side[0]);
    sim->side[1] = cbd_mem_alloc(budget, sim->cache_n * sizeof *sim->side[1]);
    sim->ready = cbd_mem_calloc(budget, sim->cache_n, 1);
    sim->eliminated = cbd_mem_calloc(budget, p->n_players + 1, sizeof *sim->eliminated);
    sim->has_commander = cbd_mem_calloc(budget, p->n_players + 1, sizeof *sim->has_commander);
    if (!sim->eligible || !sim->drawn || !sim->first || !sim->sched || !sim->side[0] ||
        !sim->side[1] || !sim->ready || !sim->eliminated || !sim->has_commander) {
        cbd_turn_sim_free(sim);
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return cbd_budget_nomem(budget);
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        sim->drawn[i] = turn->territories[i].armies;
        sim->fog_points += turn->fog ? turn->fog[i].n : 0;
        sim->fog_terr += turn->fog && turn->fog[i].n > 0;
    }
    for (size_t u = 0; u < turn->n_units; u++) {
        cbd_turn_player owner = p->start[turn->units[u].territory].owner;
        if (turn->units[u].commander && owner != CBD_TURN_NEUTRAL) {
            sim->has_commander[owner] = true;
        }
    }
    if (turn->move_order != CBD_MOVE_RANDOM) {
        /* listed and cycle run one schedule: work it out once. */
        cbdp_turn_plan_schedule(p, turn->move_order == CBD_MOVE_CYCLE ? p->cycle_first : NULL,
                                sim->sched);
    }
    *out = sim;
    return CBD_OK;
}

const uint64_t *cbd_turn_sim_drawn(const cbd_turn_sim *sim) {
    return sim->drawn;
}

const uint32_t *cbd_turn_sim_unit_at(const cbd_turn_sim *sim) {
    return sim->unit_at;
}

const bool *cbd_turn_sim_eliminated(const cbd_turn_sim *sim) {
    return sim->eliminated;
}

size_t cbd_turn_sim_units_listed(const cbd_turn_sim *sim, uint32_t *out) {
    /* At most CBD_TURN_MAX_UNITS units: an insertion sort by (territory, arrival). */
    size_t n = 0;
    for (size_t u = 0; u < sim->plan.turn->n_units; u++) {
        uint32_t at = sim->unit_at[u];
        if (at == CBD_TURN_UNIT_DEAD) {
            continue;
        }
        size_t j = n++;
        while (j > 0 &&
               (sim->unit_at[out[j - 1]] > at ||
                (sim->unit_at[out[j - 1]] == at && sim->arrival[out[j - 1]] > sim->arrival[u]))) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint32_t)u;
    }
    return n;
}

/* W21: every unit where it starts, at full health, not moved; nobody eliminated. */
static void units_start(cbd_turn_sim *sim) {
    const cbd_turn *t = sim->plan.turn;
    for (size_t u = 0; u < t->n_units; u++) {
        sim->unit_at[u] = t->units[u].territory;
        sim->health[u] = t->units[u].unit.toughness;
        sim->arrival[u] = u; /* the board's order on each territory */
        sim->moved[u] = false;
    }
    sim->next_arrival = t->n_units;
    memset(sim->eliminated, 0, sim->plan.n_players * sizeof *sim->eliminated);
}

/* W23: one count of a distribution, by inversion of one double (warapp_turn.h). */
static uint64_t draw_count(const cbd_turn_fog *f, cbd_rng *rng) {
    double u = cbd_rng_double(rng), c = 0.0;
    for (size_t k = 0; k + 1 < f->n; k++) {
        c += f->points[k].weight;
        if (u < c) {
            return f->points[k].armies;
        }
    }
    return f->points[f->n - 1].armies;
}

/* W23: each fog territory's armies for this turn, in ascending territory index, replacing the
 * largest count the start holds (its deploys kept, W12). */
static void draw_fog(cbd_turn_sim *sim, cbd_rng *rng, cbd_turn_territory *board) {
    const cbd_turn *t = sim->plan.turn;
    for (size_t i = 0; t->fog && i < sim->plan.n_terr; i++) {
        const cbd_turn_fog *f = &t->fog[i];
        if (f->n > 0) {
            uint64_t deployed = board[i].armies - f->points[f->n - 1].armies;
            sim->drawn[i] = draw_count(f, rng);
            board[i].armies = deployed + sim->drawn[i];
        }
    }
}

cbd_status cbd_turn_sim_one(cbd_turn_sim *sim, cbd_budget *budget, cbd_rng *rng,
                            cbd_turn_territory *board, cbd_turn_event *events) {
    const cbd_turn_plan *p = &sim->plan;
    const cbd_turn *t = p->turn;
    /* The board copied, the shuffle and its schedule, every order looked at; each fog count
     * drawn (W23): its points scanned, a uniform, and the scan's end, a branch mispredicted
     * about once a draw (two CBD_WORK_FOG_STEP): a draw of 3 counts takes 8-9 ns, and charged
     * its 3 points alone, 10^6 turns of 256 such fogs ran 3.3-4.2 s of CPU before a 2 s
     * budget stopped them. */
    uint64_t units = cbd_work_times(CBD_WORK_TURN_ORDER, p->n_seq) +
                     cbd_work_times(CBD_WORK_SCAN_TERM,
                                    p->n_terr + p->n_orders + p->n_movers + sim->fog_points) +
                     cbd_work_times(2 * CBD_WORK_FOG_STEP, sim->fog_terr) +
                     cbd_work_times(CBD_WORK_SIM_UNIT, cbd_work_times(t->n_units, p->n_seq + 1));
    if (!cbd_charge(budget, units)) {
        return CBD_ERR_BUDGET;
    }
    memcpy(board, p->start, p->n_terr * sizeof *board);
    units_start(sim);
    draw_fog(sim, rng, board);
    for (size_t i = 0; i < p->n_terr; i++) {
        sim->eligible[i] = board[i].armies; /* W15: what stands after deploys */
    }
    if (t->move_order == CBD_MOVE_RANDOM) {
        /* W13: a uniform permutation of the movers, Fisher–Yates from the ascending order. */
        for (size_t i = 0; i < p->n_movers; i++) {
            sim->first[i] = (uint32_t)i;
        }
        for (size_t i = p->n_movers; i-- > 1;) {
            size_t j = (size_t)cbd_rng_bounded(rng, i + 1);
            uint32_t tmp = sim->first[i];
            sim->first[i] = sim->first[j];
            sim->first[j] = tmp;
        }
        cbdp_turn_plan_schedule(p, sim->first, sim->sched);
    }
    if (events) {
        for (size_t i = 0; i < p->n_orders; i++) {
            if (t->orders[i].type == CBD_ORDER_DEPLOY) {
                memset(&events[i], 0, sizeof events[i]);
                events[i].kind = CBD_TURN_DEPLOYED;
                events[i].sent = t->orders[i].armies;
            } else if (p->phase[i] == CBD_PHASE_NONE) {
                memset(&events[i], 0, sizeof events[i]);
                events[i].kind = CBD_TURN_PLAYED; /* W30: it only reorders */
            }
        }
    }
    cbd_turn_event scratch;
    for (size_t k = 0; k < p->n_seq; k++) {
        const cbd_turn_order *o = &t->orders[sim->sched[k]];
        cbd_turn_event *ev = events ? &events[sim->sched[k]] : &scratch;
        memset(ev, 0, sizeof *ev);
        if (!cbdp_turn_kind_of(o->type)->sampled(sim, budget, o, board, rng, ev)) {
            return CBD_ERR_BUDGET;
        }
    }
    return CBD_OK;
}
