/* Seeded resolution of one War.app turn (W12–W15), drawing as /simulate does per battle. */
#include <string.h>

#include "combatd/warapp_simulate.h"
#include "warapp_turn_internal.h"

/* Battle samplers are cached for army counts below this (a bounded table, not per army):
 * their set-up (logs, square roots) would otherwise cost as much as the draws. */
#define SIDE_CACHE 1024

struct cbd_turn_sim {
    cbd_turn_plan plan;
    uint64_t *eligible; /* W15, per territory */
    uint64_t *drawn;    /* W23: the last turn's armies before deploys, per territory */
    size_t fog_points;  /* W23: every point of every distribution */
    uint32_t *first;    /* round 1's order of movers */
    uint32_t *sched;    /* the attack/transfer orders in running order */
    size_t cache_n;
    cbd_sim_side *side[2]; /* [0] attackers (offense rate), [1] defenders, by army count */
    uint8_t *ready;
    /* W21, W22: the units as the turn runs (turn->n_units <= CBD_TURN_MAX_UNITS). */
    uint32_t unit_at[CBD_TURN_MAX_UNITS]; /* territory, or CBD_TURN_UNIT_DEAD */
    uint64_t health[CBD_TURN_MAX_UNITS];  /* a health unit's health left */
    uint64_t arrival[CBD_TURN_MAX_UNITS]; /* W19's listed order on a territory: ascending */
    bool moved[CBD_TURN_MAX_UNITS];
    uint64_t next_arrival;
    bool *eliminated;    /* n_players */
    bool *has_commander; /* n_players: started the turn with one (W22) */
};

void cbd_turn_sim_free(cbd_turn_sim *sim) {
    if (!sim) {
        return;
    }
    cbd_turn_plan_free(&sim->plan);
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
    cbd_status st = cbd_turn_plan_build(turn, limits, budget, &sim->plan, err);
    if (st != CBD_OK) {
        cbd_mem_free(sim);
        return st;
    }
    const cbd_turn_plan *p = &sim->plan;
    uint64_t total = 0;
    for (size_t i = 0; i < p->n_terr; i++) {
        total += p->start[i].armies;
    }
    sim->cache_n = total + 1 < SIDE_CACHE ? (size_t)total + 1 : SIDE_CACHE;
    sim->eligible = cbd_mem_alloc(budget, (p->n_terr + 1) * sizeof *sim->eligible);
    sim->drawn = cbd_mem_alloc(budget, (p->n_terr + 1) * sizeof *sim->drawn);
    sim->first = cbd_mem_alloc(budget, (p->n_movers + 1) * sizeof *sim->first);
    sim->sched = cbd_mem_alloc(budget, (p->n_attack + 1) * sizeof *sim->sched);
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
    }
    for (size_t u = 0; u < turn->n_units; u++) {
        cbd_turn_player owner = p->start[turn->units[u].territory].owner;
        if (turn->units[u].commander && owner != CBD_TURN_NEUTRAL) {
            sim->has_commander[owner] = true;
        }
    }
    if (turn->move_order != CBD_MOVE_RANDOM) {
        /* listed and cycle run one schedule: work it out once. */
        cbd_turn_plan_schedule(p, turn->move_order == CBD_MOVE_CYCLE ? p->cycle_first : NULL,
                               sim->sched);
    }
    *out = sim;
    return CBD_OK;
}

/* The sampler of one side for n armies, from the cache or set up in *tmp; NULL when the
 * budget would not pay for setting one up. */
static const cbd_sim_side *side_for(cbd_turn_sim *sim, cbd_budget *budget, int which, uint64_t n,
                                    cbd_sim_side *tmp) {
    bool cached = n < sim->cache_n && sim->ready[n];
    if (!cached && !cbd_charge(budget, CBD_WORK_SIM_SETUP)) {
        return NULL;
    }
    if (n < sim->cache_n) {
        if (!sim->ready[n]) {
            cbd_warapp_sim s;
            cbd_warapp_sim_init(&s, n, n, &sim->plan.turn->battle);
            sim->side[0][n] = s.side[0];
            sim->side[1][n] = s.side[1];
            sim->ready[n] = 1;
        }
        return &sim->side[which][n];
    }
    cbd_warapp_sim s;
    cbd_warapp_sim_init(&s, which == 0 ? n : 0, which == 0 ? 0 : n, &sim->plan.turn->battle);
    *tmp = s.side[which];
    return tmp;
}

static inline uint64_t side_kills(const cbd_sim_side *s, uint64_t x, cbd_rounding r, cbd_rng *rng) {
    cbd_kill_value v = cbd_sim_side_blend(s, x);
    if (r == CBD_ROUND_STRAIGHT || v.frac == 0) {
        return cbd_round_straight(v); /* W2; with no fraction both modes agree */
    }
    return cbd_round_weighted(v, cbd_rng_bounded(rng, CBD_KILL_FRAC_ONE));
}

/*
 * One battle, drawing exactly as cbd_warapp_sim_one (warapp_simulate.h): both rolls, then both
 * rounding draws. It takes the two cached sides instead of a cbd_warapp_sim so that a turn
 * does not set up a sampler per battle; test_warapp_turn checks the two agree draw for draw.
 */
static void battle(const cbd_sim_side *a, const cbd_sim_side *d, cbd_rounding r, cbd_rng *rng,
                   cbd_turn_event *ev) {
    uint64_t xa = a->rolls ? cbd_binomial_draw(&a->roll, rng) : a->fixed_x;
    uint64_t xd = d->rolls ? cbd_binomial_draw(&d->roll, rng) : d->fixed_x;
    ev->attacker_kills = side_kills(a, xa, r, rng);
    ev->defender_kills = side_kills(d, xd, r, rng);
    ev->outcome = cbd_warapp_resolve(a->n, d->n, ev->attacker_kills, ev->defender_kills);
}

/* W21: the units order o can send from its `from` (on it, not moved without multi_attack, and
 * not onto a teammate's territory), in the order listed. */
static size_t sendable(const cbd_turn_sim *sim, const cbd_turn_order *o, cbd_turn_player to_owner,
                       uint32_t *out) {
    const cbd_turn *t = sim->plan.turn;
    if (to_owner != o->player && cbd_turn_is_own(&sim->plan, o->player, to_owner)) {
        return 0; /* W21: such units stay on `from` */
    }
    size_t n = 0;
    for (size_t k = 0; k < o->n_units; k++) {
        uint32_t u = o->units[k];
        if (sim->unit_at[u] == o->from && (t->multi_attack || !sim->moved[u])) {
            out[n++] = u;
        }
    }
    return n;
}

/* W21: units arrive on territory `to` after those there, in the order of `list`. */
static void arrive(cbd_turn_sim *sim, const uint32_t *list, size_t n, uint32_t to) {
    for (size_t i = 0; i < n; i++) {
        sim->unit_at[list[i]] = to;
        sim->arrival[list[i]] = sim->next_arrival++;
        sim->moved[list[i]] = true;
    }
}

/* The units on territory `at` in W19's listed order (ascending arrival). */
static size_t units_on(const cbd_turn_sim *sim, uint32_t at, uint32_t *out) {
    size_t n = 0;
    for (size_t u = 0; u < sim->plan.turn->n_units; u++) {
        if (sim->unit_at[u] != at) {
            continue;
        }
        size_t j = n++;
        while (j > 0 && sim->arrival[out[j - 1]] > sim->arrival[u]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint32_t)u;
    }
    return n;
}

/* W22: player p, who started with a Commander, has none left: every territory of theirs
 * becomes neutral with what it holds. */
static void eliminate_if_last(cbd_turn_sim *sim, cbd_turn_territory *b, cbd_turn_player p) {
    const cbd_turn *t = sim->plan.turn;
    if (p == CBD_TURN_NEUTRAL || !sim->has_commander[p] || sim->eliminated[p]) {
        return;
    }
    for (size_t u = 0; u < t->n_units; u++) {
        if (t->units[u].commander && sim->unit_at[u] != CBD_TURN_UNIT_DEAD &&
            sim->plan.start[t->units[u].territory].owner == p) {
            return;
        }
    }
    sim->eliminated[p] = true;
    for (size_t i = 0; i < sim->plan.n_terr; i++) {
        if (b[i].owner == p) {
            b[i].owner = CBD_TURN_NEUTRAL;
            sim->eligible[i] = 0;
        }
    }
}

/* One side of a battle with its units as they stand (a health unit's toughness: its health). */
static void side_with_units(const cbd_turn_sim *sim, uint64_t armies, const uint32_t *list,
                            size_t n, cbd_warapp_unit *units, cbd_warapp_side *side) {
    for (size_t i = 0; i < n; i++) {
        units[i] = sim->plan.turn->units[list[i]].unit;
        if (units[i].has_health) {
            units[i].toughness = sim->health[list[i]];
        }
    }
    *side = (cbd_warapp_side){armies, n, units};
}

/* W19: the units of a side after its damage; returns whether a Commander of them died. */
static bool units_take(cbd_turn_sim *sim, const uint32_t *list, size_t n, const uint64_t *left,
                       cbd_turn_event *ev) {
    bool commander = false;
    for (size_t i = 0; i < n; i++) {
        if (left[i] == 0) {
            sim->unit_at[list[i]] = CBD_TURN_UNIT_DEAD;
            ev->units_died |= UINT64_C(1) << list[i];
            commander = commander || sim->plan.turn->units[list[i]].commander;
        } else {
            sim->health[list[i]] = left[i];
        }
    }
    return commander;
}

/* The survivors of list (by left[]) in their order. */
static size_t alive_of(const uint32_t *list, size_t n, const uint64_t *left, uint32_t *out) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (left[i] > 0) {
            out[m++] = list[i];
        }
    }
    return m;
}

/*
 * W17–W22: a battle with units. It draws as battle() does, for the sides' powers (W18); the
 * damage is spent in combat order (W19), W20 decides, the survivors move (W21), and a player
 * whose last Commander died is eliminated (W22). false when the budget stopped it.
 */
static bool battle_units(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                         cbd_turn_territory *b, const uint32_t *sent_units, size_t n_sent,
                         cbd_rng *rng, cbd_turn_event *ev) {
    uint32_t def_list[CBD_TURN_MAX_UNITS];
    size_t n_def = units_on(sim, o->to, def_list);
    cbd_warapp_unit au[CBD_TURN_MAX_UNITS], du[CBD_TURN_MAX_UNITS];
    cbd_warapp_side att, def;
    side_with_units(sim, ev->sent, sent_units, n_sent, au, &att);
    side_with_units(sim, b[o->to].armies, def_list, n_def, du, &def);
    cbd_sim_side ta, td;
    const cbd_sim_side *sa, *sd;
    /* W19's walks and the units placed again, and W22's look over the board. */
    uint64_t walk =
        cbd_work_times(CBD_WORK_UNIT_DAMAGE, 4 * (n_sent + n_def) + 2 * sim->plan.turn->n_units) +
        cbd_work_times(CBD_WORK_SCAN_TERM, 2 * sim->plan.n_terr);
    if (!cbd_charge(budget, CBD_WORK_BATTLE + walk) ||
        !(sa = side_for(sim, budget, 0, cbd_warapp_side_power(&att, true), &ta)) ||
        !(sd = side_for(sim, budget, 1, cbd_warapp_side_power(&def, false), &td))) {
        return false;
    }
    battle(sa, sd, sim->plan.turn->battle.rounding, rng, ev);
    size_t ao[CBD_WARAPP_MAX_UNITS], dor[CBD_WARAPP_MAX_UNITS], ab, db;
    uint64_t aleft[CBD_WARAPP_MAX_UNITS], dleft[CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state as = {0, aleft}, ds = {0, dleft};
    cbd_warapp_damage_order(&att, ao, &ab);
    cbd_warapp_damage_order(&def, dor, &db);
    cbd_warapp_take_damage(&att, ao, ab, ev->defender_kills, &as);
    cbd_warapp_take_damage(&def, dor, db, ev->attacker_kills, &ds);
    ev->outcome =
        cbd_warapp_decide(att.armies, def.armies, as.armies_left, cbd_warapp_side_empty(&att, &as),
                          ds.armies_left, cbd_warapp_side_empty(&def, &ds)); /* W20 */
    const cbd_warapp_outcome *out = &ev->outcome;
    cbd_turn_player defender = b[o->to].owner;
    bool att_cmdr = units_take(sim, sent_units, n_sent, aleft, ev);
    bool def_cmdr = units_take(sim, def_list, n_def, dleft, ev);
    uint32_t back[CBD_TURN_MAX_UNITS];
    size_t n_back = alive_of(sent_units, n_sent, aleft, back);
    if (out->captured) {
        b[o->to].owner = o->player;
        b[o->to].armies = out->attackers_left;
        sim->eligible[o->to] = 0;
        arrive(sim, back, n_back, o->to);
    } else {
        b[o->from].armies += out->attackers_left;
        b[o->to].armies = out->defenders_left;
        if (sim->eligible[o->to] > out->defenders_left) {
            sim->eligible[o->to] = out->defenders_left;
        }
        arrive(sim, back, n_back, o->from);
    }
    if (att_cmdr) {
        eliminate_if_last(sim, b, o->player);
    }
    if (def_cmdr) {
        eliminate_if_last(sim, b, defender);
    }
    return true;
}

/* W14: one attack/transfer order on the board; false when the budget stopped its battle. */
static bool run_order(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                      cbd_turn_territory *b, cbd_rng *rng, cbd_turn_event *ev) {
    const cbd_turn *t = sim->plan.turn;
    uint64_t *elig = sim->eligible;
    memset(ev, 0, sizeof *ev);
    ev->kind = CBD_TURN_SKIPPED;
    if (b[o->from].owner != o->player) {
        return true; /* W14.1 */
    }
    uint64_t sent = cbd_turn_sent(t, o, b[o->from].armies, elig[o->from]);
    uint32_t units[CBD_TURN_MAX_UNITS];
    size_t n_units = o->n_units ? sendable(sim, o, b[o->to].owner, units) : 0;
    if (sent == 0 && n_units == 0) {
        return true; /* W14.3, W21: neither an army nor a unit to send */
    }
    ev->sent = sent;
    for (size_t i = 0; i < n_units; i++) {
        ev->units_sent |= UINT64_C(1) << units[i];
        sim->unit_at[units[i]] = CBD_TURN_UNIT_DEAD; /* on the move: on no territory */
    }
    b[o->from].armies -= sent;
    elig[o->from] = elig[o->from] > sent ? elig[o->from] - sent : 0;
    if (cbd_turn_is_own(&sim->plan, o->player, b[o->to].owner)) {
        ev->kind = CBD_TURN_TRANSFERRED; /* W8: arrivals are not eligible (W15) */
        b[o->to].armies += sent;
        arrive(sim, units, n_units, o->to);
        return true;
    }
    ev->kind = CBD_TURN_ATTACKED;
    ev->defenders = b[o->to].armies;
    if (t->n_units > 0 && (n_units > 0 || units_on(sim, o->to, units + n_units) > 0)) {
        return battle_units(sim, budget, o, b, units, n_units, rng, ev);
    }
    cbd_sim_side ta, td;
    const cbd_sim_side *sa, *sd;
    if (!cbd_charge(budget, CBD_WORK_BATTLE) || !(sa = side_for(sim, budget, 0, sent, &ta)) ||
        !(sd = side_for(sim, budget, 1, b[o->to].armies, &td))) {
        return false;
    }
    battle(sa, sd, t->battle.rounding, rng, ev);
    if (ev->outcome.captured) {
        b[o->to].owner = o->player; /* W6; a new owner has no eligible armies (W15) */
        b[o->to].armies = ev->outcome.attackers_left;
        elig[o->to] = 0;
    } else {
        b[o->from].armies += ev->outcome.attackers_left; /* back home, not eligible */
        b[o->to].armies = ev->outcome.defenders_left;    /* W5 */
        if (elig[o->to] > ev->outcome.defenders_left) {
            elig[o->to] = ev->outcome.defenders_left;
        }
    }
    return true;
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
    /* The board copied, the shuffle and its schedule, every order looked at. */
    uint64_t units =
        cbd_work_times(CBD_WORK_TURN_ORDER, p->n_attack) +
        cbd_work_times(CBD_WORK_SCAN_TERM,
                       p->n_terr + p->n_orders + p->n_movers + sim->fog_points) +
        cbd_work_times(CBD_WORK_UNIT_DAMAGE, cbd_work_times(t->n_units, p->n_attack + 1));
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
        cbd_turn_plan_schedule(p, sim->first, sim->sched);
    }
    if (events) {
        for (size_t i = 0; i < p->n_orders; i++) {
            if (t->orders[i].type == CBD_ORDER_DEPLOY) {
                memset(&events[i], 0, sizeof events[i]);
                events[i].kind = CBD_TURN_DEPLOYED;
                events[i].sent = t->orders[i].armies;
            }
        }
    }
    cbd_turn_event scratch;
    for (size_t k = 0; k < p->n_attack; k++) {
        uint32_t oi = sim->sched[k];
        if (!run_order(sim, budget, &t->orders[oi], board, rng, events ? &events[oi] : &scratch)) {
            return CBD_ERR_BUDGET;
        }
    }
    return CBD_OK;
}
