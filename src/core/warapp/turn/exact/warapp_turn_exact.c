/*
 * The exact engine of a turn (W14–W16): the distribution of a group's states, order by order,
 * equal states merged. One battle from one state branches into every pair (attackers lost,
 * defenders lost): the two sides roll independently (W1), so the pair's probability is the
 * product of each side's capped kill distribution (W4), computed exactly by cbd_warapp_kills.
 * This file holds the engine's life and its run, and W22's hold on retiring; one order over
 * every state is warapp_turn_step.c, the start states and retiring territories
 * warapp_turn_retire.c, what the steps charge warapp_turn_charge.c and the kill windows
 * warapp_turn_kills.c.
 */
#include "core/warapp/turn/warapp_turn_internal.h"

void cbdp_turn_engine_free(cbd_turn_engine *e) {
    if (!e) {
        return;
    }
    cbdp_turn_kills_cache_free(&e->cache[0]);
    cbdp_turn_kills_cache_free(&e->cache[1]);
    cbdp_turn_map_free(&e->cur);
    cbdp_turn_map_free(&e->next);
    cbd_mem_free(e->pts);
    cbd_mem_free(e->last);
    cbd_mem_free(e->touched);
    cbd_mem_free(e->buf[0]);
    cbd_mem_free(e->buf[1]);
    cbd_mem_free(e->key);
    cbd_mem_free(e->local);
    cbd_mem_free(e);
}

cbd_status cbdp_turn_engine_create(const cbd_turn_plan *plan, const cbd_turn_limits *limits,
                                   cbd_budget *budget, cbd_turn_analysis *res, cbd_turn_error *err,
                                   cbd_turn_engine **out) {
    cbd_turn_engine *e = cbd_mem_calloc(budget, 1, sizeof *e);
    *out = e;
    if (!e) {
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return cbd_budget_nomem(budget);
    }
    e->plan = plan;
    e->limits = limits;
    e->budget = budget;
    e->cur.budget = budget;
    e->next.budget = budget;
    e->ores = res->orders;
    e->out = res;
    e->err = err;
    e->order = CBD_TURN_NO_ORDER;
    e->stride = plan->turn->multi_attack ? 2 : 3; /* W15 needs eligible armies only without */
    e->local = cbd_mem_alloc(budget, (plan->n_terr + 1) * sizeof *e->local);
    e->last = cbd_mem_alloc(budget, (plan->n_terr + 1) * sizeof *e->last);
    e->touched = cbd_mem_alloc(budget, (plan->n_terr + 2) * sizeof *e->touched);
    if (!e->local || !e->last || !e->touched) {
        return cbdp_turn_stopped(e, cbd_budget_nomem(budget));
    }
    for (size_t i = 0; i < plan->n_terr; i++) {
        e->local[i] = UINT32_MAX; /* not in the group being run */
    }
    return CBD_OK;
}

const cbd_turn_retired *cbdp_turn_engine_points(const cbd_turn_engine *e, size_t *n) {
    *n = e->n_pts;
    return e->pts;
}

void cbdp_turn_engine_clear_points(cbd_turn_engine *e) {
    e->n_pts = 0;
}

uint64_t cbdp_turn_engine_peak(const cbd_turn_engine *e) {
    return e->peak;
}

bool cbdp_turn_engine_truncated(const cbd_turn_engine *e) {
    return e->truncated;
}

uint64_t cbdp_turn_engine_work(const cbd_turn_engine *e) {
    return e->work;
}

/*
 * W22: an elimination changes the owner of every territory of the player at once, so while one
 * may still happen no territory may retire (its final owner is not known yet). The last step
 * that can kill a Commander is the last whose `to` may hold one (where one starts, or where an
 * order listing one sends it) or that lists one; every territory stays until then. Without a
 * Commander's player in the group nothing changes.
 */
static cbd_status hold_for_eliminations(cbd_turn_engine *e, const uint32_t *seq, size_t len,
                                        size_t n_terr) {
    const cbd_turn *t = e->plan->turn;
    if (e->gu.n_cmdr_players == 0) {
        return CBD_OK;
    }
    uint64_t listed = 0;
    for (size_t s = 0; s < len; s++) {
        listed += t->orders[seq[s]].n_units + 1;
    }
    if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_SCAN_TERM, 2 * listed + e->gu.n + n_terr))) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    /* The local territories that may hold a Commander, as bits of l mod 64: a group of more
     * shares bits, which only holds the territories longer (still exact). */
    uint64_t reach = 0;
    for (size_t gu = 0; gu < e->gu.n; gu++) {
        if (t->units[e->gu.board[gu]].commander) {
            reach |= UINT64_C(1) << (e->local[t->units[e->gu.board[gu]].territory] & 63);
        }
    }
    int32_t hold = -1;
    for (size_t pass = 0; pass < 2; pass++) { /* the second sees every `to` reached later */
        for (size_t s = 0; s < len; s++) {
            const cbd_turn_order *o = &t->orders[seq[s]];
            bool lists = false;
            for (size_t k = 0; k < o->n_units; k++) {
                lists = lists || t->units[o->units[k]].commander;
            }
            uint64_t to_bit = UINT64_C(1) << (e->local[o->to] & 63);
            reach |= lists ? to_bit : 0;
            if ((lists || (reach & to_bit)) && (int32_t)s > hold) {
                hold = (int32_t)s;
            }
        }
    }
    for (size_t l = 0; l < n_terr; l++) {
        e->last[l] = e->last[l] > hold ? e->last[l] : hold;
    }
    return CBD_OK;
}

/* W22: the chance that each player with a Commander in the group ends the turn eliminated. */
static cbd_status count_eliminated(cbd_turn_engine *e, double weight) {
    uint64_t per_state = cbd_work_times(CBD_WORK_UNIT_DAMAGE, e->gu.n);
    if (!cbd_charge(e->budget, cbd_work_times(per_state, e->cur.count))) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    for (size_t i = 0; i < e->cur.count; i++) {
        const uint32_t *k = e->cur.keys + i * e->cur.words;
        for (size_t c = 0; c < e->gu.n_cmdr_players; c++) {
            cbd_turn_player p = e->gu.cmdr_players[c];
            if (cbdp_turn_gunits_eliminated(&e->gu, k, p)) {
                e->out->eliminated[p] += e->cur.prob[i] * weight;
            }
        }
    }
    return CBD_OK;
}

cbd_status cbdp_turn_engine_run(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr,
                                const uint32_t *seq, size_t len, double weight, double *goals) {
    e->order = CBD_TURN_NO_ORDER;
    cbd_status st = cbdp_turn_start_state(e, terr, n_terr);
    const cbd_turn_order *orders = e->plan->turn->orders;
    /* Only on a started state: a failed start leaves e->local unset (UINT32_MAX). */
    for (size_t s = 0; s < len && st == CBD_OK; s++) {
        const cbd_turn_order *o = &orders[seq[s]];
        size_t n = cbdp_turn_kind_of(o->type)->touches(e->plan->turn, o, e->touched);
        for (size_t i = 0; i < n; i++) {
            e->last[e->local[e->touched[i]]] = (int32_t)s; /* W24: what the order reads */
        }
    }
    st = st == CBD_OK ? hold_for_eliminations(e, seq, len, n_terr) : st;
    st = st == CBD_OK ? cbdp_turn_retire(e, terr, n_terr, -1, weight) : st;
    for (size_t s = 0; s < len && st == CBD_OK; s++) {
        st = cbdp_turn_kind_of(orders[seq[s]].type)->exact(e, seq[s], weight);
        e->peak = e->cur.count > e->peak ? e->cur.count : e->peak;
        st = st == CBD_OK ? cbdp_turn_retire(e, terr, n_terr, (int32_t)s, weight) : st;
    }
    if (st == CBD_OK && !cbd_charge(e->budget, cbd_work_times(CBD_WORK_SCAN_TERM, e->cur.count))) {
        st = cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    double f = 0;
    for (size_t i = 0; i < e->cur.count && st == CBD_OK; i++) {
        f += e->cur.keys[i * e->cur.words + e->cur.words - 1] ? e->cur.prob[i] : 0.0;
    }
    *goals = f;
    st = st == CBD_OK ? count_eliminated(e, weight) : st;
    for (size_t t = 0; t < n_terr; t++) {
        e->local[terr[t]] = UINT32_MAX;
    }
    return st;
}
