#ifndef COMBATD_TEST_WARAPP_PLAN_BRUTE_H
#define COMBATD_TEST_WARAPP_PLAN_BRUTE_H

/*
 * W31's plan space on small boards, written from the ruling's text and sharing no code with the
 * planner: the space's membership test, every plan of the space enumerated (every deploy of the
 * income, every amount of every pair, every order of the orders: no reduction), and a plan's
 * value from the turn brute force (warapp_turn_brute.h: the board after the deploys, W12, then
 * the plan's attack/transfer orders and the other players'). Header-only, for the planner's
 * core and api tests.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "combatd/warapp_plan.h"
#include "warapp_turn_brute.h"

#define PB_ME 0 /* the planning player */

typedef struct {
    size_t nt, n_players;
    cbd_turn_territory terr[BT];
    bool adj[BT][BT]; /* symmetric */
    cbd_turn_order given[BO];
    size_t n_given;
    uint32_t goals[2];
    size_t n_goals;
    cbd_plan_objective objective;
    uint64_t income;
    cbd_warapp_settings battle;
    bool multi;
    cbd_move_order move_order;
    /* the turn the planner gets (pb_turn) */
    uint32_t off[BT + 1], nb[BT * BT];
    uint16_t team[BP];
} pboard;

/* A plan: deploys and attack/transfer orders, in the order given. */
typedef struct {
    size_t n;
    cbd_turn_order o[BT + BO];
} pplan;

static inline void pb_turn(pboard *b, cbd_turn *t) {
    size_t e = 0;
    for (size_t i = 0; i < b->nt; i++) {
        b->off[i] = (uint32_t)e;
        for (size_t j = 0; j < b->nt; j++) {
            if (b->adj[i][j]) {
                b->nb[e++] = (uint32_t)j;
            }
        }
    }
    b->off[b->nt] = (uint32_t)e;
    for (size_t p = 0; p < BP; p++) {
        b->team[p] = (uint16_t)p;
    }
    memset(t, 0, sizeof *t);
    t->n_territories = b->nt;
    t->territories = b->terr;
    t->n_players = b->n_players;
    t->team = b->team;
    t->n_orders = b->n_given;
    t->orders = b->given;
    t->battle = b->battle;
    t->multi_attack = b->multi;
    t->move_order = b->move_order;
    t->neighbor_off = b->off;
    t->neighbors = b->nb;
}

static inline uint64_t pb_guard(const pboard *b) {
    return b->battle.one_army_must_stand_guard ? 1 : 0;
}

/* W31, from its text: deploys onto the player's territories totalling the income; orders from
 * a territory the player owns across a border, armies >= 1, one per pair, each territory's
 * orders within its armies after the deploys less the guard (W14.2); deploys listed first. */
static inline bool pb_in_space(const pboard *b, const cbd_turn_order *o, size_t n) {
    uint64_t deployed = 0, dep[BT] = {0}, sent[BT] = {0};
    bool pair[BT][BT] = {{false}};
    bool orders = false;
    for (size_t i = 0; i < n; i++) {
        if (o[i].player != PB_ME || o[i].to >= b->nt) {
            return false;
        }
        if (o[i].type == CBD_ORDER_DEPLOY) {
            if (orders || b->terr[o[i].to].owner != PB_ME || o[i].armies == 0) {
                return false;
            }
            deployed += o[i].armies;
            dep[o[i].to] += o[i].armies;
            continue;
        }
        orders = true;
        uint32_t f = o[i].from, t = o[i].to;
        if (o[i].type != CBD_ORDER_ATTACK_TRANSFER || o[i].by_percent || o[i].n_units ||
            f >= b->nt || b->terr[f].owner != PB_ME || !b->adj[f][t] || o[i].armies < 1 ||
            pair[f][t]) {
            return false;
        }
        pair[f][t] = true;
        sent[f] += o[i].armies;
    }
    for (size_t t = 0; t < b->nt; t++) {
        uint64_t room = b->terr[t].armies + dep[t];
        room = room > pb_guard(b) ? room - pb_guard(b) : 0;
        if (sent[t] > room) {
            return false;
        }
    }
    return deployed == b->income;
}

/* The plan's value by the turn brute force. */
static inline long double pb_value(const pboard *b, const cbd_turn_order *o, size_t n) {
    static bcase c; /* large: not on the stack */
    memset(&c, 0, sizeof c);
    memcpy(c.terr, b->terr, sizeof c.terr);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (o[i].type == CBD_ORDER_DEPLOY) {
            c.terr[o[i].to].armies += o[i].armies; /* W12: deploys first */
        } else {
            cr_assert(k < BO, "too many orders for the brute force");
            c.ord[k++] = o[i];
        }
    }
    for (size_t i = 0; i < b->n_given; i++) {
        cr_assert(k < BO, "too many orders for the brute force");
        c.ord[k++] = b->given[i];
    }
    cbd_turn_goal goals[2];
    for (size_t g = 0; g < b->n_goals; g++) {
        goals[g] = (cbd_turn_goal){b->goals[g], PB_ME};
    }
    for (size_t p = 0; p < BP; p++) {
        c.team[p] = (uint16_t)p;
    }
    c.turn.n_territories = b->nt;
    c.turn.territories = c.terr;
    c.turn.n_players = b->n_players;
    c.turn.team = c.team;
    c.turn.n_orders = k;
    c.turn.orders = c.ord;
    c.turn.battle = b->battle;
    c.turn.multi_attack = b->multi;
    c.turn.move_order = b->move_order;
    c.turn.n_goals = b->n_goals;
    c.turn.goals = goals;
    static bres r;
    brute(&c, &r);
    if (b->objective == CBD_PLAN_ALL) {
        return r.goals;
    }
    long double sum = 0;
    for (size_t g = 0; g < b->n_goals; g++) {
        sum += r.owner[b->goals[g]][PB_ME];
    }
    return sum;
}

/* The whole space: every plan goes to visit(b, plan, arg). */
typedef void (*pb_visit_fn)(const pboard *b, const pplan *plan, void *arg);

typedef struct {
    const pboard *b;
    pb_visit_fn visit;
    void *arg;
    uint32_t own[BT], pf[BT * BT], pt[BT * BT];
    size_t k, np;
    uint64_t dep[BT], amt[BT * BT], left[BT];
    uint64_t count;
} pb_walk;

static inline void pb_orders(pb_walk *w) {
    size_t act[BT * BT], n = 0;
    for (size_t p = 0; p < w->np; p++) {
        if (w->amt[p] > 0) {
            act[n++] = p;
        }
    }
    int perm[BT * BT];
    for (size_t i = 0; i < n; i++) {
        perm[i] = (int)i;
    }
    do {
        pplan plan = {0};
        for (size_t i = 0; i < w->k; i++) {
            if (w->dep[i] > 0) {
                plan.o[plan.n++] = (cbd_turn_order){.type = CBD_ORDER_DEPLOY,
                                                    .player = PB_ME,
                                                    .to = w->own[i],
                                                    .armies = w->dep[i]};
            }
        }
        for (size_t i = 0; i < n; i++) {
            size_t p = act[perm[i]];
            plan.o[plan.n++] = (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                                                .player = PB_ME,
                                                .from = w->pf[p],
                                                .to = w->pt[p],
                                                .armies = w->amt[p]};
        }
        w->count++;
        w->visit(w->b, &plan, w->arg);
    } while (next_perm(perm, (int)n));
}

static inline void pb_amounts(pb_walk *w, size_t p) {
    if (p == w->np) {
        pb_orders(w);
        return;
    }
    size_t i = 0;
    while (w->own[i] != w->pf[p]) {
        i++;
    }
    uint64_t most = w->left[i];
    for (uint64_t v = 0; v <= most; v++) {
        w->amt[p] = v;
        w->left[i] = most - v;
        pb_amounts(w, p + 1);
    }
    w->left[i] = most;
    w->amt[p] = 0;
}

static inline void pb_deploys(pb_walk *w, size_t i, uint64_t income) {
    if (i + 1 == w->k) {
        w->dep[i] = income;
    }
    for (uint64_t v = i + 1 == w->k ? income : 0; v <= income; v++) {
        w->dep[i] = v;
        uint64_t room = w->b->terr[w->own[i]].armies + v;
        w->left[i] = room > pb_guard(w->b) ? room - pb_guard(w->b) : 0;
        if (i + 1 == w->k) {
            pb_amounts(w, 0);
        } else {
            pb_deploys(w, i + 1, income - v);
        }
    }
}

/* Visits every plan of W31's space; returns their number. */
static inline uint64_t pb_enumerate(const pboard *b, pb_visit_fn visit, void *arg) {
    pb_walk w;
    memset(&w, 0, sizeof w);
    w.b = b;
    w.visit = visit;
    w.arg = arg;
    for (size_t t = 0; t < b->nt; t++) {
        if (b->terr[t].owner == PB_ME) {
            w.own[w.k++] = (uint32_t)t;
        }
    }
    for (size_t i = 0; i < w.k; i++) {
        for (size_t t = 0; t < b->nt; t++) {
            if (b->adj[w.own[i]][t]) {
                w.pf[w.np] = w.own[i];
                w.pt[w.np++] = (uint32_t)t;
            }
        }
    }
    pb_deploys(&w, 0, b->income);
    return w.count;
}

#endif
