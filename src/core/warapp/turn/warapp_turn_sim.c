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
    if (!sim->eligible || !sim->drawn || !sim->first || !sim->sched || !sim->side[0] ||
        !sim->side[1] || !sim->ready) {
        cbd_turn_sim_free(sim);
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return cbd_budget_nomem(budget);
    }
    for (size_t i = 0; i < p->n_terr; i++) {
        sim->drawn[i] = turn->territories[i].armies;
        sim->fog_points += turn->fog ? turn->fog[i].n : 0;
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
    if (sent == 0) {
        return true; /* W14.3 */
    }
    ev->sent = sent;
    b[o->from].armies -= sent;
    elig[o->from] = elig[o->from] > sent ? elig[o->from] - sent : 0;
    if (cbd_turn_is_own(&sim->plan, o->player, b[o->to].owner)) {
        ev->kind = CBD_TURN_TRANSFERRED; /* W8: arrivals are not eligible (W15) */
        b[o->to].armies += sent;
        return true;
    }
    ev->kind = CBD_TURN_ATTACKED;
    ev->defenders = b[o->to].armies;
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
        cbd_work_times(CBD_WORK_SCAN_TERM, p->n_terr + p->n_orders + p->n_movers + sim->fog_points);
    if (!cbd_charge(budget, units)) {
        return CBD_ERR_BUDGET;
    }
    memcpy(board, p->start, p->n_terr * sizeof *board);
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
