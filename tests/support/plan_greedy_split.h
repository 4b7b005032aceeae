#ifndef COMBATD_TESTS_PLAN_GREEDY_SPLIT_H
#define COMBATD_TESTS_PLAN_GREEDY_SPLIT_H

/*
 * A board for the planner's tests built in code (gboard), its value by cbd_turn_analyze of given
 * orders (value_of), and the tests' own greedy split (W47: greedy_orders), made independently
 * of the planner's code: chances from cbd_warapp_graph (the single-battle odds of
 * /analyze-attack), the plan valued by the turn analysis. Shared by the planner's floor tests
 * (test_warapp_plan_greedy.c) and its anytime tests (test_warapp_plan_anytime.c). Include after
 * <criterion/criterion.h>.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "combatd/warapp.h"
#include "combatd/warapp_odds.h"
#include "combatd/warapp_plan.h"

#define ME    0
#define ENEMY 1
#define MAX_T 4000
#define MAX_E 8000

typedef struct {
    size_t nt;
    cbd_turn_territory terr[MAX_T];
    uint32_t ea[MAX_E], eb[MAX_E];
    size_t ne;
    uint32_t off[MAX_T + 1], nb[2 * MAX_E];
    uint32_t goals[MAX_T];
    size_t n_goals;
    cbd_turn_bonus bonus[MAX_T];
    uint32_t bonus_terr[MAX_T][2];
    size_t n_bonuses;
    uint64_t income;
    cbd_plan_objective objective;
    cbd_warapp_settings battle;
} gboard;

static void board_init(gboard *b, cbd_plan_objective objective, double luck) {
    memset(b, 0, sizeof *b);
    b->objective = objective;
    b->battle = cbd_warapp_default_settings();
    b->battle.luck_modifier = (cbd_micro)llround(luck * 1e6);
}

static uint32_t add(gboard *b, cbd_turn_player owner, uint64_t armies) {
    b->terr[b->nt] = (cbd_turn_territory){owner, armies};
    return (uint32_t)b->nt++;
}

static void border(gboard *b, uint32_t x, uint32_t y) {
    b->ea[b->ne] = x;
    b->eb[b->ne++] = y;
}

/* The map's lists (ascending, symmetric) from the borders. */
static void finish(gboard *b) {
    memset(b->off, 0, sizeof b->off);
    for (size_t e = 0; e < b->ne; e++) {
        b->off[b->ea[e] + 1]++;
        b->off[b->eb[e] + 1]++;
    }
    for (size_t t = 0; t < b->nt; t++) {
        b->off[t + 1] += b->off[t];
    }
    uint32_t fill[MAX_T];
    memcpy(fill, b->off, sizeof fill);
    for (size_t e = 0; e < b->ne; e++) {
        b->nb[fill[b->ea[e]]++] = b->eb[e];
        b->nb[fill[b->eb[e]]++] = b->ea[e];
    }
    for (size_t t = 0; t < b->nt; t++) { /* insertion sort of each list */
        for (uint32_t i = b->off[t] + 1; i < b->off[t + 1]; i++) {
            for (uint32_t j = i; j > b->off[t] && b->nb[j - 1] > b->nb[j]; j--) {
                uint32_t x = b->nb[j];
                b->nb[j] = b->nb[j - 1];
                b->nb[j - 1] = x;
            }
        }
    }
}

static cbd_turn turn_of(const gboard *b) {
    cbd_turn t;
    memset(&t, 0, sizeof t);
    t.n_territories = b->nt;
    t.territories = b->terr;
    t.n_players = 2;
    t.battle = b->battle;
    t.move_order = CBD_MOVE_LISTED;
    t.neighbor_off = b->off;
    t.neighbors = b->nb;
    t.blockade_multiplier = CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER;
    t.emergency_blockade_multiplier = CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER;
    return t;
}

static cbd_turn_limits limits(void) {
    cbd_turn_limits l = cbd_turn_default_limits();
    l.max_territories = MAX_T;
    l.max_orders = MAX_T;
    return l;
}

/* The value of orders on the board by cbd_turn_analyze: W16's goals probability for `all`, the
 * goals' chances summed for `expected`, W32's bonuses for `income`. */
static double value_of(const gboard *b, const cbd_turn_order *orders, size_t n) {
    cr_assert_leq(n, 256, "%zu orders: past the default limit", n);
    cbd_turn t = turn_of(b);
    static cbd_turn_goal goals[MAX_T];
    for (size_t g = 0; g < b->n_goals; g++) {
        goals[g] = (cbd_turn_goal){b->goals[g], ME};
    }
    t.orders = orders;
    t.n_orders = n;
    t.goals = goals;
    t.n_goals = b->objective == CBD_PLAN_ALL ? b->n_goals : 0;
    t.bonuses = b->bonus;
    t.n_bonuses = b->objective == CBD_PLAN_INCOME ? b->n_bonuses : 0;
    cbd_turn_limits lim = limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK, "analysis: %d", err.kind);
    double v = 0;
    if (b->objective == CBD_PLAN_ALL) {
        v = a.goals_probability;
    } else if (b->objective == CBD_PLAN_EXPECTED) {
        for (size_t g = 0; g < b->n_goals; g++) {
            v += a.territories[b->goals[g]].owner[ME];
        }
    } else {
        cr_assert_eq(cbd_turn_analyze_bonuses(&t, &lim, NULL, &a, &err), CBD_OK);
        for (size_t k = 0; k < b->n_bonuses; k++) {
            v += (double)b->bonus[k].value * a.bonus_owner[k * a.n_players + ME];
        }
    }
    cbd_turn_analysis_free(&a);
    return v;
}

/* ---- the test's own greedy split (W47) ---- */

typedef struct {
    uint32_t t, src;
    uint64_t given, from_income;
    size_t len;
    double chance[512];
} ggoal;

static uint64_t movable(const gboard *b, uint32_t t) {
    return b->terr[t].armies > 1 ? b->terr[t].armies - 1 : 0;
}

/* The goal's single-battle capture chances for 0..most armies (the curve stops once it passes
 * 1 - 1e-12, as W47's does: later armies raise it by less). */
static void chances(const gboard *b, ggoal *g, uint64_t most) {
    most = most < 511 ? most : 511;
    static cbd_warapp_graph_point pts[512];
    uint64_t d = b->terr[g->t].armies;
    g->chance[0] = 0;
    if (most > 0) {
        cr_assert_eq(cbd_warapp_graph(d, 1, most, &b->battle, NULL, pts), CBD_OK);
    }
    g->len = 1;
    for (uint64_t x = 1; x <= most; x++) {
        g->chance[x] = pts[x - 1].capture_probability;
        g->len = (size_t)x + 1;
        if (g->chance[x] >= 1 - 1e-12) {
            break;
        }
    }
}

static double factor(const gboard *b, const ggoal *gs, size_t n, size_t i) {
    if (b->objective != CBD_PLAN_INCOME) {
        return 1.0;
    }
    double f = 0;
    for (size_t k = 0; k < b->n_bonuses; k++) {
        bool in = false;
        double rest = (double)b->bonus[k].value;
        for (size_t j = 0; j < b->bonus[k].n_territories; j++) {
            uint32_t u = b->bonus[k].territories[j];
            if (u == gs[i].t) {
                in = true;
                continue;
            }
            double q = b->terr[u].owner == ME ? 1.0 : 0.0;
            for (size_t h = 0; h < n; h++) {
                q = gs[h].t == u ? gs[h].chance[gs[h].given] : q;
            }
            rest *= q;
        }
        f += in ? rest : 0;
    }
    return f;
}

/* One bundle handed out; false when none raises the weight (plain: the chance alone). */
static bool step(const gboard *b, ggoal *gs, size_t n, uint64_t *left, uint64_t *income,
                 bool plain) {
    double best = 0;
    size_t bi = 0;
    uint64_t bk = 0;
    for (size_t i = 0; i < n; i++) {
        double f = plain ? 1.0 : factor(b, gs, n, i);
        uint64_t may = left[gs[i].src] + *income;
        for (uint64_t k = 1; k <= may && gs[i].given + k < gs[i].len; k++) {
            double rate =
                f * (gs[i].chance[gs[i].given + k] - gs[i].chance[gs[i].given]) / (double)k;
            if (rate > best) {
                best = rate;
                bi = i;
                bk = k;
            }
        }
    }
    if (bk == 0) {
        return false;
    }
    uint64_t from_src = left[gs[bi].src] < bk ? left[gs[bi].src] : bk;
    left[gs[bi].src] -= from_src;
    *income -= bk - from_src;
    gs[bi].given += bk;
    gs[bi].from_income += bk - from_src;
    return true;
}

/* The greedy split's orders: deploys, then the attacks in the goals' order. */
static size_t greedy_orders(const gboard *b, cbd_turn_order *out) {
    static ggoal gs[MAX_T];
    static uint64_t left[MAX_T];
    size_t n = 0;
    uint32_t first_own = UINT32_MAX;
    for (size_t t = 0; t < b->nt; t++) {
        left[t] = movable(b, (uint32_t)t);
        first_own = b->terr[t].owner == ME && first_own == UINT32_MAX ? (uint32_t)t : first_own;
    }
    for (size_t g = 0; g < b->n_goals; g++) {
        uint32_t t = b->goals[g], src = UINT32_MAX;
        for (uint32_t e = b->off[t]; b->terr[t].owner != ME && e < b->off[t + 1]; e++) {
            uint32_t u = b->nb[e];
            if (b->terr[u].owner == ME && (src == UINT32_MAX || movable(b, u) > movable(b, src))) {
                src = u;
            }
        }
        if (src != UINT32_MAX) {
            gs[n] = (ggoal){.t = t, .src = src};
            chances(b, &gs[n], movable(b, src) + b->income);
            n++;
        }
    }
    uint64_t income = b->income;
    while (step(b, gs, n, left, &income, false) ||
           (b->objective == CBD_PLAN_INCOME && step(b, gs, n, left, &income, true))) {
    }
    static uint64_t deploy[MAX_T];
    memset(deploy, 0, sizeof deploy);
    deploy[first_own] = income;
    for (size_t i = 0; i < n; i++) {
        deploy[gs[i].src] += gs[i].from_income;
    }
    size_t m = 0;
    for (uint32_t t = 0; t < b->nt; t++) {
        if (deploy[t] > 0) {
            out[m++] = (cbd_turn_order){
                .type = CBD_ORDER_DEPLOY, .player = ME, .to = t, .armies = deploy[t]};
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (gs[i].given > 0) {
            out[m++] = (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                                        .player = ME,
                                        .from = gs[i].src,
                                        .to = gs[i].t,
                                        .armies = gs[i].given};
        }
    }
    return m;
}

#endif
