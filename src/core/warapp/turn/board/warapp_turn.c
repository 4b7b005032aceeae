/* War.app turns: limits, validation, the plan and the order schedule (W11–W13, W24). */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

cbd_turn_limits cbd_turn_default_limits(void) {
    cbd_turn_limits l = {
        .max_territories = 256,
        .max_orders = 256,
        .max_players = 64,
        .max_states = CBD_TURN_DEFAULT_MAX_STATES,
        .max_state_words = UINT64_C(1) << 24,
        .max_work = 100000000,
        .max_schedules = 40320,
    };
    return l;
}

static cbd_status fail(cbd_turn_error *err, cbd_turn_err_kind kind, size_t index) {
    err->kind = kind;
    err->index = index;
    return CBD_ERR_INVALID;
}

static bool valid_owner(const cbd_turn *t, cbd_turn_player owner) {
    return owner == CBD_TURN_NEUTRAL || owner < t->n_players;
}

/* W23: a distribution of distinct ascending counts with weights above 0 whose largest count
 * is the territory's armies (the bounds taken from the board then hold for every count). */
static bool valid_fog(const cbd_turn *t, size_t i) {
    if (!t->fog || t->fog[i].n == 0) {
        return true;
    }
    const cbd_turn_fog *f = &t->fog[i];
    if (!f->points || f->points[f->n - 1].armies != t->territories[i].armies) {
        return false;
    }
    for (size_t k = 0; k < f->n; k++) {
        if (!(f->points[k].weight > 0.0) ||
            (k > 0 && f->points[k].armies <= f->points[k - 1].armies)) {
            return false;
        }
    }
    return true;
}

/* Every order's player in range, then its kind's own checks (its row's `valid`). */
static cbd_status check_orders(const cbd_turn *t, cbd_turn_error *err) {
    for (size_t i = 0; i < t->n_orders; i++) {
        const cbd_turn_order *o = &t->orders[i];
        const cbd_turn_kind *k = cbdp_turn_kind_of(o->type);
        if (o->player >= t->n_players || !k->valid || !k->valid(t, o)) {
            return fail(err, CBD_TURN_ERR_ORDER, i);
        }
    }
    return CBD_OK;
}

/* W24: the map's lists: offsets that never fall, neighbours on the board, ascending, never the
 * territory itself, and symmetric (a border counts both ways). */
static cbd_status check_map(const cbd_turn *t, cbd_turn_error *err) {
    if (!t->neighbor_off) {
        return CBD_OK;
    }
    if (!t->neighbors && t->neighbor_off[t->n_territories] > 0) {
        return fail(err, CBD_TURN_ERR_TERRITORY, 0);
    }
    for (size_t i = 0; i < t->n_territories; i++) {
        if (t->neighbor_off[i + 1] < t->neighbor_off[i]) {
            return fail(err, CBD_TURN_ERR_TERRITORY, i);
        }
        for (uint32_t k = t->neighbor_off[i]; k < t->neighbor_off[i + 1]; k++) {
            uint32_t n = t->neighbors[k];
            if (n >= t->n_territories || n == i ||
                (k > t->neighbor_off[i] && n <= t->neighbors[k - 1]) ||
                !cbd_turn_map_borders(t, n, (uint32_t)i)) {
                return fail(err, CBD_TURN_ERR_TERRITORY, i);
            }
        }
    }
    return CBD_OK;
}

/* W29: pairs of two distinct players; W26: the multipliers at most 100. */
static cbd_status check_cards(const cbd_turn *t, cbd_turn_error *err) {
    if (t->n_peace > 0 && !t->peace) {
        return fail(err, CBD_TURN_ERR_SIZE, 0);
    }
    for (size_t i = 0; i < t->n_peace; i++) {
        const cbd_turn_peace *q = &t->peace[i];
        if (q->a >= t->n_players || q->b >= t->n_players || q->a == q->b) {
            return fail(err, CBD_TURN_ERR_SIZE, i);
        }
    }
    if (t->blockade_multiplier > CBD_TURN_MAX_BLOCKADE_MULTIPLIER ||
        t->emergency_blockade_multiplier > CBD_TURN_MAX_BLOCKADE_MULTIPLIER) {
        return fail(err, CBD_TURN_ERR_SIZE, 0);
    }
    return CBD_OK;
}

/* W10: no territory may ever hold more than 10^9, so the board's total after deploys is capped
 * (armies only move between territories or die during a turn). */
static cbd_status check_armies(const cbd_turn *t, cbd_turn_error *err) {
    uint64_t total = 0;
    for (size_t i = 0; i < t->n_territories; i++) {
        total += t->territories[i].armies;
        if (total > CBD_WARAPP_MAX_ARMIES) {
            return fail(err, CBD_TURN_ERR_SIZE, i);
        }
    }
    for (size_t i = 0; i < t->n_orders; i++) {
        if (t->orders[i].type == CBD_ORDER_DEPLOY) {
            total += t->orders[i].armies;
            if (total > CBD_WARAPP_MAX_ARMIES) {
                return fail(err, CBD_TURN_ERR_SIZE, i);
            }
        }
    }
    return CBD_OK;
}

/* W17: a unit's numbers within W10's bounds (its state words hold a health left). */
static bool valid_unit(const cbd_turn *t, const cbd_turn_unit *u) {
    const cbd_warapp_unit *w = &u->unit;
    return u->territory < t->n_territories && w->toughness >= 1 &&
           w->toughness <= CBD_WARAPP_MAX_ARMIES && w->attack_power <= CBD_WARAPP_MAX_ARMIES &&
           w->defense_power <= CBD_WARAPP_MAX_ARMIES;
}

/*
 * W21: units on the board and in the orders. An order lists distinct units of its own player
 * (standing on a territory it owns at the start). The board's armies after deploys plus every
 * unit's larger power stay within 10^9, so no battle's power passes W10 (W18).
 */
static cbd_status check_units(const cbd_turn *t, cbd_turn_error *err) {
    if (t->n_units > CBD_TURN_MAX_UNITS || (t->n_units > 0 && !t->units)) {
        return fail(err, CBD_TURN_ERR_UNIT, CBD_TURN_MAX_UNITS);
    }
    uint64_t total = 0;
    for (size_t i = 0; i < t->n_territories; i++) {
        total += t->territories[i].armies;
    }
    for (size_t i = 0; i < t->n_orders; i++) {
        total += t->orders[i].type == CBD_ORDER_DEPLOY ? t->orders[i].armies : 0;
    }
    for (size_t i = 0; i < t->n_units; i++) {
        const cbd_warapp_unit *w = &t->units[i].unit;
        if (!valid_unit(t, &t->units[i])) {
            return fail(err, CBD_TURN_ERR_UNIT, i);
        }
        total += w->attack_power > w->defense_power ? w->attack_power : w->defense_power;
        if (total > CBD_WARAPP_MAX_ARMIES) {
            return fail(err, CBD_TURN_ERR_UNIT, i);
        }
    }
    for (size_t i = 0; i < t->n_orders; i++) {
        const cbd_turn_order *o = &t->orders[i];
        if (o->n_units > 0 && (!cbdp_turn_kind_of(o->type)->lists_units || !o->units)) {
            return fail(err, CBD_TURN_ERR_ORDER, i);
        }
        for (size_t k = 0; k < o->n_units; k++) {
            uint32_t u = o->units[k];
            bool repeated = false;
            for (size_t j = 0; j < k; j++) {
                repeated = repeated || o->units[j] == u;
            }
            if (u >= t->n_units || repeated ||
                t->territories[t->units[u].territory].owner != o->player) {
                return fail(err, CBD_TURN_ERR_ORDER, i);
            }
        }
    }
    return CBD_OK;
}

cbd_status cbd_turn_validate(const cbd_turn *t, const cbd_turn_limits *limits,
                             cbd_turn_error *err) {
    memset(err, 0, sizeof *err);
    if (t->n_territories > limits->max_territories || t->n_orders > limits->max_orders ||
        t->n_players > limits->max_players || t->n_players >= CBD_TURN_NEUTRAL ||
        t->n_territories > UINT32_MAX / 4 || t->move_order > CBD_MOVE_RANDOM) {
        return fail(err, CBD_TURN_ERR_SIZE, 0);
    }
    const cbd_warapp_settings *s = &t->battle;
    if (s->offense_kill_rate > CBD_MICRO_ONE || s->defense_kill_rate > CBD_MICRO_ONE ||
        s->luck_modifier > CBD_MICRO_ONE || s->rounding > CBD_ROUND_WEIGHTED) {
        return fail(err, CBD_TURN_ERR_SIZE, 0);
    }
    for (size_t i = 0; i < t->n_territories; i++) {
        if (!valid_owner(t, t->territories[i].owner) ||
            t->territories[i].armies > CBD_WARAPP_MAX_ARMIES || !valid_fog(t, i)) {
            return fail(err, CBD_TURN_ERR_TERRITORY, i);
        }
    }
    for (size_t i = 0; i < t->n_goals; i++) {
        if (t->goals[i].territory >= t->n_territories || !valid_owner(t, t->goals[i].owner)) {
            return fail(err, CBD_TURN_ERR_GOAL, i);
        }
    }
    cbd_status st = check_map(t, err);
    st = st != CBD_OK ? st : check_cards(t, err);
    st = st != CBD_OK ? st : check_orders(t, err);
    st = st != CBD_OK ? st : check_armies(t, err);
    return st != CBD_OK ? st : check_units(t, err);
}

void cbdp_turn_plan_free(cbd_turn_plan *p) {
    cbd_mem_free(p->start);
    cbd_mem_free(p->team);
    cbd_mem_free(p->listed);
    cbd_mem_free(p->phase);
    cbd_mem_free(p->movers);
    cbd_mem_free(p->mover_of);
    cbd_mem_free(p->mover_off);
    cbd_mem_free(p->prio);
    cbd_mem_free(p->level);
    cbd_mem_free(p->lead);
    cbd_mem_free(p->next);
    cbd_mem_free(p->mover_orders);
    cbd_mem_free(p->cycle_first);
    memset(p, 0, sizeof *p);
}

/* What building a plan costs: validation, the copies and the movers' lists are a few passes
 * over the turn; the cycle's player order is checked pairwise. */
static uint64_t plan_units(const cbd_turn *t) {
    uint64_t linear = (uint64_t)t->n_territories + t->n_orders + t->n_goals + t->n_players;
    for (size_t i = 0; t->fog && i < t->n_territories; i++) {
        linear += t->fog[i].n; /* W23: each point checked */
    }
    linear += t->n_units + t->n_peace;
    if (t->neighbor_off) {
        linear += 2 * (uint64_t)t->neighbor_off[t->n_territories]; /* W24: each border bisected */
    }
    for (size_t i = 0; i < t->n_orders; i++) {
        linear += t->orders[i].n_units * (t->orders[i].n_units + 1); /* W21: pairwise distinct */
    }
    uint64_t pairs = t->move_order == CBD_MOVE_CYCLE
                         ? (uint64_t)t->n_player_order * (t->n_player_order + t->n_players)
                         : 0;
    return cbd_work_times(CBD_WORK_SCAN_TERM, cbd_work_times(4, linear) + pairs);
}

/* CBD_MOVE_CYCLE: round 1's order of the movers from player_order (W13), which must name each
 * mover once; players without orders may be listed and are passed over. */
static cbd_status plan_cycle(cbd_turn_plan *p, cbd_turn_error *err) {
    const cbd_turn *t = p->turn;
    size_t k = 0;
    for (size_t i = 0; i < t->n_player_order; i++) {
        cbd_turn_player pl = t->player_order[i];
        if (pl >= t->n_players) {
            return fail(err, CBD_TURN_ERR_PLAYER_ORDER, i);
        }
        for (size_t j = 0; j < i; j++) {
            if (t->player_order[j] == pl) {
                return fail(err, CBD_TURN_ERR_PLAYER_ORDER, i);
            }
        }
        if (p->mover_of[pl] != UINT32_MAX) {
            p->cycle_first[k++] = p->mover_of[pl];
        }
    }
    if (k != p->n_movers) {
        for (size_t m = 0; m < p->n_movers; m++) {
            bool listed = false;
            for (size_t i = 0; i < t->n_player_order; i++) {
                listed = listed || t->player_order[i] == p->movers[m];
            }
            if (!listed) {
                return fail(err, CBD_TURN_ERR_PLAYER_ORDER, p->movers[m]);
            }
        }
    }
    return CBD_OK;
}

/* Each order's phase (W24), and the orders in sequence by phase, in request order within one. */
static void plan_phases(cbd_turn_plan *p) {
    const cbd_turn *t = p->turn;
    for (size_t i = 0; i < t->n_orders; i++) {
        p->phase[i] = (uint8_t)cbd_turn_kind_phase(t->orders[i].type);
    }
    uint32_t at[CBD_PHASES + 1] = {0}; /* a counting sort: each phase's first place */
    for (size_t i = 0; i < t->n_orders; i++) {
        at[p->phase[i] < CBD_PHASES ? p->phase[i] + 1 : 0] += p->phase[i] != CBD_PHASE_DEPLOY;
    }
    at[0] = 0;
    for (size_t ph = 1; ph <= CBD_PHASES; ph++) {
        at[ph] += at[ph - 1];
    }
    p->n_seq = at[CBD_PHASES];
    for (size_t i = 0; i < t->n_orders; i++) {
        if (p->phase[i] != CBD_PHASE_DEPLOY && p->phase[i] < CBD_PHASES) {
            p->listed[at[p->phase[i]]++] = (uint32_t)i;
        }
    }
}

static void plan_movers(cbd_turn_plan *p) {
    const cbd_turn *t = p->turn;
    uint32_t *count = p->mover_off; /* counts first, then offsets */
    plan_phases(p);
    for (size_t pl = 0; pl < p->n_players; pl++) {
        p->mover_of[pl] = UINT32_MAX;
    }
    for (size_t a = 0; a < p->n_seq; a++) {
        p->mover_of[t->orders[p->listed[a]].player] = 0;
    }
    for (size_t pl = 0; pl < p->n_players; pl++) {
        if (p->mover_of[pl] == 0) {
            p->mover_of[pl] = (uint32_t)p->n_movers;
            p->movers[p->n_movers++] = (cbd_turn_player)pl;
        }
    }
    size_t slots = p->n_movers * CBD_PHASES;
    memset(count, 0, (slots + 1) * sizeof *count);
    for (size_t a = 0; a < p->n_seq; a++) {
        uint32_t oi = p->listed[a];
        count[cbdp_turn_plan_slot(p->mover_of[t->orders[oi].player], p->phase[oi]) + 1]++;
    }
    for (size_t s = 0; s < slots; s++) {
        if (count[s + 1] > p->rounds[s % CBD_PHASES]) {
            p->rounds[s % CBD_PHASES] = count[s + 1];
        }
        count[s + 1] += count[s];
    }
    /* Each slot's next free place, in `next` (from the budget with the plan): one pass, where
     * scanning past the orders already placed took a mover's orders squared. */
    uint32_t *next = p->next;
    memcpy(next, count, slots * sizeof *next);
    for (size_t a = 0; a < p->n_seq; a++) {
        uint32_t oi = p->listed[a];
        p->mover_orders[next[cbdp_turn_plan_slot(p->mover_of[t->orders[oi].player],
                                                 p->phase[oi])]++] = oi;
    }
}

cbd_status cbdp_turn_plan_build(const cbd_turn *t, const cbd_turn_limits *limits,
                                cbd_budget *budget, cbd_turn_plan *p, cbd_turn_error *err) {
    memset(p, 0, sizeof *p);
    cbd_status st = cbd_turn_validate(t, limits, err);
    if (st != CBD_OK) {
        return st;
    }
    if (!cbd_charge(budget, plan_units(t))) {
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return CBD_ERR_BUDGET;
    }
    p->turn = t;
    p->n_terr = t->n_territories;
    p->n_players = t->n_players;
    p->n_orders = t->n_orders;
    size_t np = t->n_players + 1, no = t->n_orders + 1;
    p->start = cbd_mem_alloc(budget, (p->n_terr + 1) * sizeof *p->start);
    p->team = cbd_mem_alloc(budget, np * sizeof *p->team);
    p->listed = cbd_mem_alloc(budget, no * sizeof *p->listed);
    p->phase = cbd_mem_alloc(budget, no * sizeof *p->phase);
    p->movers = cbd_mem_alloc(budget, np * sizeof *p->movers);
    p->mover_of = cbd_mem_alloc(budget, np * sizeof *p->mover_of);
    p->mover_off = cbd_mem_alloc(budget, (np * CBD_PHASES + 1) * sizeof *p->mover_off);
    p->next = cbd_mem_alloc(budget, (np * CBD_PHASES + 1) * sizeof *p->next);
    p->mover_orders = cbd_mem_alloc(budget, no * sizeof *p->mover_orders);
    p->cycle_first = cbd_mem_alloc(budget, np * sizeof *p->cycle_first);
    p->prio = cbd_mem_calloc(budget, np, sizeof *p->prio);
    p->level = cbd_mem_calloc(budget, no, sizeof *p->level);
    p->lead = cbd_mem_calloc(budget, no, sizeof *p->lead);
    if (!p->start || !p->team || !p->listed || !p->phase || !p->movers || !p->mover_of ||
        !p->mover_off || !p->next || !p->mover_orders || !p->cycle_first || !p->prio || !p->level ||
        !p->lead) {
        cbdp_turn_plan_free(p);
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return cbd_budget_nomem(budget);
    }
    memcpy(p->start, t->territories, p->n_terr * sizeof *p->start);
    for (size_t i = 0; i < t->n_orders; i++) {
        p->mover_orders[i] = UINT32_MAX;
        if (t->orders[i].type == CBD_ORDER_DEPLOY) {
            p->start[t->orders[i].to].armies += t->orders[i].armies; /* W12: deploys first */
        }
    }
    for (size_t pl = 0; pl < t->n_players; pl++) {
        p->team[pl] = t->team ? t->team[pl] : (uint32_t)pl + 0x10000u; /* W8: own team */
    }
    plan_movers(p);
    cbdp_turn_plan_cards(p);
    if (t->move_order == CBD_MOVE_CYCLE && (st = plan_cycle(p, err)) != CBD_OK) {
        cbdp_turn_plan_free(p);
        return st;
    }
    return CBD_OK;
}

bool cbd_turn_goals_met(const cbd_turn *t, const cbd_turn_territory *board) {
    for (size_t i = 0; i < t->n_goals; i++) {
        if (board[t->goals[i].territory].owner != t->goals[i].owner) {
            return false;
        }
    }
    return true;
}
