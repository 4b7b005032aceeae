/*
 * An upper bound of a plan's value from one-battle odds (W31, W1–W6), to leave plans out of the
 * whole space's search without analysing them.
 *
 * Under `listed` the plan's orders run first. A goal territory the player does not own at the
 * start is then owned at the end only if one of the plan's attacks captures it. The first such
 * attack meets exactly the defenders on it after the deploys (nothing before it touches the
 * territory), with at most the armies it orders: its chance is at most the best capture chance
 * of a attackers or fewer against those defenders (cbd_warapp_graph). A later attack meets at
 * least the one army a failed attack leaves (W5), so its chance is at most that against one
 * defender. The chance that the territory is taken is at most the sum over its attacks (capped
 * at 1); a territory of a teammate is never taken by a transfer (0), one the player owns has
 * bound 1. `all` is bounded by the smallest goal's bound, `expected` by their sum.
 *
 * No bound is taken (every plan is analysed) under cycle or random, when the other players'
 * orders hold card orders, or for a territory with special units (W17–W21) or not known (W23:
 * then the fewest of its counts is taken as its defenders).
 */
#include "warapp_plan_internal.h"

#include "combatd/warapp_odds.h"

/* Bounds are taken while the attacks stay this small (the curves' cost). */
#define BOUND_MAX_ARMIES 4096

/* The fewest armies t may hold after the deploys: its armies (the fewest of its counts under
 * fog) and the other players' deploys onto it. */
static uint64_t defenders_at_first(const cbd_turn *b, uint32_t t) {
    uint64_t d = b->territories[t].armies;
    if (b->fog && b->fog[t].n > 0) {
        d = b->fog[t].points[0].armies; /* ascending: the first is the fewest */
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        if (b->orders[i].type == CBD_ORDER_DEPLOY && b->orders[i].to == t) {
            d += b->orders[i].armies;
        }
    }
    return d;
}

static bool has_units(const cbd_turn *b, uint32_t t) {
    for (size_t u = 0; u < b->n_units; u++) {
        if (b->units[u].territory == t) {
            return true;
        }
    }
    return false;
}

/* The capture curve for 1..n attackers against d defenders, as prefix maxima in out[0..n]. */
static cbd_status curve(plan_ctx *c, uint64_t d, uint64_t n, double *out) {
    cbd_warapp_graph_point *g = cbd_mem_calloc(c->meter.budget, n, sizeof *g);
    if (!g) {
        return cbd_budget_nomem(c->meter.budget);
    }
    cbd_status st =
        d == 0 ? CBD_OK : cbd_warapp_graph(d, 1, n, &c->board->battle, c->meter.budget, g);
    out[0] = 0;
    for (uint64_t a = 1; st == CBD_OK && a <= n; a++) {
        double p = d == 0 ? 1.0 : g[a - 1].capture_probability;
        out[a] = p > out[a - 1] ? p : out[a - 1];
    }
    cbd_mem_free(g);
    return st;
}

static bool bounds_apply(const plan_ctx *c) {
    const cbd_turn *b = c->board;
    if (b->move_order != CBD_MOVE_LISTED || c->req->objective == CBD_PLAN_POSITION) {
        /* (W48: the position is not bounded by the goals' one-battle odds) */
        return false;
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        if (b->orders[i].type != CBD_ORDER_DEPLOY &&
            b->orders[i].type != CBD_ORDER_ATTACK_TRANSFER) {
            return false;
        }
    }
    return true;
}

cbd_status cbdp_plan_bounds_init(plan_ctx *c) {
    const cbd_turn *b = c->board;
    uint64_t most = 0;
    for (size_t i = 0; i < c->space.k; i++) {
        uint64_t m = c->space.movable[i] + c->req->income;
        most = m > most ? m : most;
    }
    /* (nothing may move at all: every plan is the empty one, and a curve of no point is no
     * curve) */
    c->bounds.bounded = bounds_apply(c) && most >= 1 && most <= BOUND_MAX_ARMIES;
    if (!c->bounds.bounded) {
        return CBD_OK;
    }
    c->bounds.bound_max = most;
    c->bounds.first_cap =
        cbd_mem_calloc(c->meter.budget, b->n_territories, sizeof *c->bounds.first_cap);
    c->bounds.one_cap = cbd_mem_calloc(c->meter.budget, most + 1, sizeof *c->bounds.one_cap);
    if (!c->bounds.first_cap || !c->bounds.one_cap) {
        return cbd_budget_nomem(c->meter.budget);
    }
    cbd_status st = curve(c, 1, most, c->bounds.one_cap);
    for (size_t g = 0; st == CBD_OK && g < c->req->n_goals; g++) {
        uint32_t t = c->req->goals[g];
        if (b->territories[t].owner == c->req->player || has_units(b, t) ||
            c->bounds.first_cap[t]) {
            continue;
        }
        c->bounds.first_cap[t] =
            cbd_mem_calloc(c->meter.budget, most + 1, sizeof **c->bounds.first_cap);
        if (!c->bounds.first_cap[t]) {
            return cbd_budget_nomem(c->meter.budget);
        }
        st = curve(c, defenders_at_first(b, t), most, c->bounds.first_cap[t]);
    }
    return st;
}

void cbdp_plan_bounds_free(plan_ctx *c) {
    for (size_t t = 0; c->bounds.first_cap && t < c->board->n_territories; t++) {
        cbd_mem_free(c->bounds.first_cap[t]);
    }
    cbd_mem_free(c->bounds.first_cap);
    cbd_mem_free(c->bounds.one_cap);
    c->bounds.first_cap = NULL;
    c->bounds.one_cap = NULL;
}

static bool teammates(const cbd_turn *b, cbd_turn_player p, cbd_turn_player q) {
    return q != CBD_TURN_NEUTRAL && (p == q || (b->team && b->team[p] == b->team[q]));
}

/* The bound of one goal territory t. */
static double goal_bound(const plan_ctx *c, const plan_state *s, uint32_t t) {
    const cbd_turn *b = c->board;
    cbd_turn_player owner = b->territories[t].owner;
    if (owner == c->req->player) {
        return 1.0;
    }
    if (teammates(b, c->req->player, owner)) {
        return 0.0; /* the plan's orders into it are transfers, all before anyone else's */
    }
    if (!c->bounds.first_cap[t]) {
        return 1.0;
    }
    double sum = 0;
    bool first = true;
    for (size_t j = 0; j < c->space.np && sum < 1.0; j++) {
        uint32_t p = s->seq[j];
        if (s->a[p] > 0 && c->space.pto[p] == t) {
            uint64_t a = s->a[p] < c->bounds.bound_max ? s->a[p] : c->bounds.bound_max;
            sum += first ? c->bounds.first_cap[t][a] : c->bounds.one_cap[a];
            first = false;
        }
    }
    return sum < 1.0 ? sum : 1.0;
}

double cbdp_plan_bound(const plan_ctx *c, const plan_state *s) {
    const cbd_plan_request *req = c->req;
    if (!c->bounds.bounded) {
        return cbd_plan_most(req);
    }
    if (req->objective == CBD_PLAN_INCOME) {
        /* W32: a bonus is owned whole at most as likely as its least likely territory; one of
         * negative value is worth at most 0 (the plan may lose it) */
        double income = 0;
        for (size_t i = 0; i < req->n_bonuses; i++) {
            const cbd_turn_bonus *bonus = &req->bonuses[i];
            double least = 1.0;
            for (size_t k = 0; bonus->value > 0 && k < bonus->n_territories; k++) {
                double v = goal_bound(c, s, bonus->territories[k]);
                least = v < least ? v : least;
            }
            income += bonus->value > 0 ? (double)bonus->value * least : 0;
        }
        return income;
    }
    double all = 1.0, sum = 0;
    for (size_t g = 0; g < req->n_goals; g++) {
        double v = goal_bound(c, s, req->goals[g]);
        all = v < all ? v : all;
        sum += v;
    }
    return req->objective == CBD_PLAN_ALL ? all : sum;
}
