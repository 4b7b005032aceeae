/*
 * The fronts of a board (W31, W34) and one front's run: the player's orders fall into fronts
 * that cannot interact, each searched on its own at a deploy total (warapp_plan_split.c splits
 * the income across them); the plan is the fronts' plans together, its value their values
 * combined (a sum for `expected` and `income`, a product for `all`).
 *
 * A front is a set of territories closed under the board's possible interactions: an own
 * territory with every territory it borders (a plan's order may join them), and the two
 * territories of every other player's order. Two orders of different fronts touch disjoint
 * territories, so under `listed` (the plan's orders first, W31) and whenever no other player
 * moves, they commute, and the battles of different fronts are independent: the board at the
 * end is the product of the fronts' boards (W34's proof in docs/rules.md). Where that fails
 * (a Commander's death reaches the whole board, W22; card orders; the other players' orders
 * interleaved with the plan's under `cycle` and `random`, W13) the board is one front.
 *
 * Fronts whose territories the player owns none of (fixed) are valued once with the other
 * players' orders; fronts without goals (sinks) take deploys that change no value.
 */
#include "warapp_plan_internal.h"

#include <string.h>

/* W34: whether the board may be split into fronts. */
static bool split_allowed(const cbd_turn *b) {
    for (size_t u = 0; u < b->n_units; u++) {
        if (b->units[u].commander) {
            return false; /* W22: a death eliminates a player everywhere */
        }
    }
    bool moves = false;
    for (size_t i = 0; i < b->n_orders; i++) {
        cbd_turn_order_type t = b->orders[i].type;
        if (t != CBD_ORDER_DEPLOY && t != CBD_ORDER_ATTACK_TRANSFER) {
            return false; /* cards: bombs read the borders, priority and delay the order */
        }
        moves |= t == CBD_ORDER_ATTACK_TRANSFER;
    }
    return b->move_order == CBD_MOVE_LISTED || !moves;
}

static uint32_t find(uint32_t *root, uint32_t i) {
    while (root[i] != i) {
        root[i] = root[root[i]];
        i = root[i];
    }
    return i;
}

static void unite(uint32_t *root, uint32_t a, uint32_t b) {
    a = find(root, a);
    b = find(root, b);
    if (a != b) {
        root[a > b ? a : b] = a < b ? a : b;
    }
}

#include "warapp_plan_fronts.h"

void cbdp_fronts_free(fronts *s) {
    for (size_t i = 0; s->f && i < s->nf; i++) {
        cbd_mem_free(s->f[i].goal);
        cbd_mem_free(s->f[i].bonus);
        cbd_mem_free(s->f[i].orders);
        cbd_mem_free(s->f[i].order_map);
        cbd_mem_free(s->f[i].mask);
    }
    cbd_mem_free(s->f);
    cbd_mem_free(s->front_of);
}

/* The fronts of the board (one when W34 does not let it split). False: out of memory. */
/* The union of the territories that may interact (W34, W35) into root; false when the budget
 * is spent. */
static bool join(fronts *s, uint32_t *root) {
    const cbd_turn *b = s->board;
    size_t n = b->n_territories;
    if (!cbd_charge(s->budget, cbd_work_times(CBD_WORK_BOARD_STEP, n + b->n_orders + 1))) {
        return false;
    }
    /* W48: the position's value is no sum over fronts (the strongest other, the risks) */
    bool split = split_allowed(b) && s->req->objective != CBD_PLAN_POSITION;
    for (uint32_t t = 0; t < n; t++) {
        root[t] = split ? t : 0;
    }
    for (uint32_t t = 0; split && t < n; t++) {
        if (b->territories[t].owner != s->req->player) {
            continue;
        }
        if (!cbd_charge(s->budget, b->neighbor_off[t + 1] - b->neighbor_off[t])) {
            return false;
        }
        for (uint32_t e = b->neighbor_off[t]; e < b->neighbor_off[t + 1]; e++) {
            unite(root, t, b->neighbors[e]);
        }
    }
    for (size_t i = 0; split && i < b->n_orders; i++) {
        if (b->orders[i].type == CBD_ORDER_ATTACK_TRANSFER) {
            unite(root, b->orders[i].from, b->orders[i].to);
        }
    }
    /* W35: a bonus's chance to be owned whole is joint over its territories, not a sum over
     * fronts, so the income splits across fronts only when each bonus lies on one */
    for (size_t k = 0; split && k < s->req->n_bonuses; k++) {
        const cbd_turn_bonus *bonus = &s->req->bonuses[k];
        for (size_t i = 1; i < bonus->n_territories; i++) {
            unite(root, bonus->territories[0], bonus->territories[i]);
        }
    }
    return true;
}

/* How many goals, bonuses and orders each front holds, and whether it holds own territories
 * (and its least), so that each front's arrays are sized by what it holds: sized by the board's
 * totals, a board of 4,000 territories and 1,000 orders split into 2,000 fronts would take
 * 2,000 times 60 KB. */
static void count(fronts *s) {
    const cbd_turn *b = s->board;
    for (size_t i = 0; i < s->nf; i++) {
        s->f[i].first_own = UINT32_MAX;
    }
    for (uint32_t t = 0; t < b->n_territories; t++) {
        front *f = &s->f[s->front_of[t]];
        if (b->territories[t].owner == s->req->player) {
            f->own = true;
            f->first_own = f->first_own < t ? f->first_own : t;
        }
    }
    for (size_t g = 0; g < s->req->n_goals; g++) {
        front *f = &s->f[s->front_of[s->req->goals[g]]];
        f->goals = true;
        f->n_goals++;
    }
    for (size_t k = 0; k < s->req->n_bonuses; k++) {
        s->f[s->front_of[s->req->bonuses[k].territories[0]]].n_bonuses++;
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        /* a deploy names `to` only; an attack/transfer's two territories share a front */
        s->f[s->front_of[b->orders[i].to]].n_orders++;
    }
}

/* Each front's arrays, by its counts; the mask of own territories only where a run needs it
 * (own territories and goals). The counts are set back to 0 for fill. False: out of memory. */
static bool alloc_fronts(fronts *s) {
    cbd_budget *bud = s->budget;
    size_t n = s->board->n_territories;
    for (size_t i = 0; i < s->nf; i++) {
        front *f = &s->f[i];
        f->goal = cbd_mem_calloc(bud, f->n_goals + 1, sizeof *f->goal);
        f->bonus = cbd_mem_calloc(bud, f->n_bonuses + 1, sizeof *f->bonus);
        f->orders = cbd_mem_calloc(bud, f->n_orders + 1, sizeof *f->orders);
        f->order_map = cbd_mem_calloc(bud, f->n_orders + 1, sizeof *f->order_map);
        f->mask = f->own && f->goals ? cbd_mem_calloc(bud, n + 1, sizeof *f->mask) : NULL;
        if (!f->goal || !f->bonus || !f->orders || !f->order_map ||
            (f->own && f->goals && !f->mask)) {
            return false;
        }
        f->n_goals = f->n_bonuses = f->n_orders = 0;
    }
    return true;
}

/* The fronts' own territories, goals, bonuses and the other players' orders, once each
 * territory's front is known; false when memory is short. */
static bool fill(fronts *s) {
    const cbd_turn *b = s->board;
    s->f = cbd_mem_calloc(s->budget, s->nf + 1, sizeof *s->f);
    if (!s->f) {
        return false;
    }
    count(s);
    if (!alloc_fronts(s)) {
        return false;
    }
    for (uint32_t t = 0; t < b->n_territories; t++) {
        front *f = &s->f[s->front_of[t]];
        if (f->mask && b->territories[t].owner == s->req->player) {
            f->mask[t] = true;
        }
    }
    for (size_t g = 0; g < s->req->n_goals; g++) {
        front *f = &s->f[s->front_of[s->req->goals[g]]];
        f->goal[f->n_goals++] = s->req->goals[g];
    }
    for (size_t k = 0; k < s->req->n_bonuses; k++) {
        const cbd_turn_bonus *bonus = &s->req->bonuses[k];
        front *f = &s->f[s->front_of[bonus->territories[0]]];
        f->bonus[f->n_bonuses++] = *bonus;
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        front *f = &s->f[s->front_of[b->orders[i].to]];
        f->order_map[f->n_orders] = i;
        f->orders[f->n_orders++] = b->orders[i];
    }
    for (size_t i = 0; i < s->nf; i++) {
        front *f = &s->f[i];
        f->board = *b;
        f->board.orders = f->orders;
        f->board.n_orders = f->n_orders;
        f->board.goals = NULL;
        f->board.n_goals = 0;
    }
    return true;
}

bool cbdp_fronts_of(fronts *s) {
    const cbd_turn *b = s->board;
    size_t n = b->n_territories;
    cbd_budget *bud = s->budget;
    uint32_t *root = cbd_mem_calloc(bud, n + 1, sizeof *root);
    s->front_of = cbd_mem_calloc(bud, n + 1, sizeof *s->front_of);
    if (!root || !s->front_of || !join(s, root)) {
        cbd_mem_free(root);
        return false;
    }
    size_t nf = 0;
    for (uint32_t t = 0; t < n; t++) {
        if (find(root, t) == t) {
            s->front_of[t] = (uint32_t)nf++;
        }
    }
    for (uint32_t t = 0; t < n; t++) {
        s->front_of[t] = s->front_of[find(root, t)];
    }
    cbd_mem_free(root);
    s->nf = nf;
    return fill(s);
}

/* The value of a front the player cannot touch: its goals with the other players' orders. */
cbd_status cbdp_fixed_value(fronts *s, const front *f, double *value) {
    cbd_plan_request sub = *s->req;
    sub.goals = f->goal;
    sub.n_goals = f->n_goals;
    sub.bonuses = f->bonus;
    sub.n_bonuses = f->n_bonuses;
    cbd_turn_order *orders = cbd_mem_calloc(s->budget, f->n_orders + 1, sizeof *orders);
    cbd_turn_goal *goals = cbd_mem_calloc(s->budget, f->n_goals + 1, sizeof *goals);
    if (!orders || !goals) {
        cbd_mem_free(orders);
        cbd_mem_free(goals);
        return cbd_budget_nomem(s->budget);
    }
    cbd_plan none = {0, orders, 0};
    cbd_turn turn;
    cbdp_plan_build_turn(&f->board, &sub, &none, orders, goals, &turn);
    cbd_turn_analysis a;
    cbd_turn_error err;
    cbd_status st = cbd_turn_analyze(&turn, s->limits, s->budget, &a, &err);
    if (st == CBD_OK && sub.objective == CBD_PLAN_INCOME) {
        st = cbdp_plan_income(&turn, &sub, &a, s->limits, s->budget, value, &err);
        cbd_turn_analysis_free(&a);
    } else if (st == CBD_OK) {
        *value = cbdp_plan_objective_value(&sub, &a);
        cbd_turn_analysis_free(&a);
    }
    if (st != CBD_OK) {
        if (err.kind == CBD_TURN_ERR_BUDGET && err.index < f->n_orders) {
            err.index = f->order_map[err.index];
        } else if (err.kind == CBD_TURN_ERR_BUDGET && err.index != CBD_TURN_FOG_START) {
            err.index = CBD_TURN_NO_ORDER;
        }
        *s->err = err;
    }
    cbd_mem_free(orders);
    cbd_mem_free(goals);
    return st;
}

/* One run of front f at deploy total d, with its share of the plans and the work. */
cbd_status cbdp_run_front(fronts *s, const front *f, uint64_t d, plan_run *run) {
    cbd_plan_request sub = *s->req;
    sub.income = d;
    sub.goals = f->goal;
    sub.n_goals = f->n_goals;
    sub.bonuses = f->bonus;
    sub.n_bonuses = f->n_bonuses;
    uint64_t runs = s->runs_left > 0 ? s->runs_left : 1;
    sub.max_plans = s->plans_left / runs > 0 ? s->plans_left / runs : 1;
    sub.max_work = s->work_left == UINT64_MAX ? UINT64_MAX : s->work_left / runs;
    /* (its share counts the steps, not the new pages: the same plans each time) */
    uint64_t before = cbd_budget_steady_work(s->budget);
    cbd_status st = cbdp_plan_run(&f->board, &sub, f->mask, f->order_map, !s->first_done,
                                  RUN_SEARCH, s->limits, s->budget, run, s->err);
    uint64_t spent = cbd_budget_steady_work(s->budget) - before;
    s->runs_left = s->runs_left > 0 ? s->runs_left - 1 : 0;
    if (s->work_left != UINT64_MAX) {
        s->work_left = s->work_left > spent ? s->work_left - spent : 0;
    }
    if (st == CBD_OK && run->stop > s->stop) {
        s->stop = run->stop;
    }
    if (st == CBD_OK && run->ran) {
        s->first_done = true;
        s->evaluated += run->res.plans_evaluated;
        s->bounded += run->res.plans_bounded;
        uint64_t used = run->res.plans_evaluated;
        s->plans_left = s->plans_left > used ? s->plans_left - used : 0;
    }
    return st;
}

/* A combination of two fronts' values (W34). */
double cbdp_combine(const cbd_plan_request *req, double a, double b) {
    return req->objective == CBD_PLAN_ALL ? a * b : a + b;
}

/* One front's orders (attack/transfers) and deploys added to a plan being composed. */
static void add_plan(const cbd_plan *p, uint64_t *deploy, cbd_turn_order *attacks, size_t *na) {
    for (size_t i = 0; i < p->n_orders; i++) {
        if (p->orders[i].type == CBD_ORDER_DEPLOY) {
            deploy[p->orders[i].to] += p->orders[i].armies;
        } else {
            attacks[(*na)++] = p->orders[i];
        }
    }
}

/* The plan of the chosen runs (alt: the front whose plan is its alternative `which`, or
 * SIZE_MAX), with `extra` deployed on territory `extra_on`. */
cbd_status cbdp_compose(fronts *s, plan_run *const *chosen, size_t m, size_t alt, size_t which,
                        uint64_t extra, uint32_t extra_on, uint64_t *deploy, cbd_plan *out) {
    size_t room = 0;
    for (size_t i = 0; i < m; i++) {
        room += chosen[i]->res.best.n_orders + 4;
        for (size_t a = 0; a < chosen[i]->res.n_alternatives; a++) {
            room += chosen[i]->res.alternatives[a].n_orders;
        }
    }
    room += s->board->n_territories;
    out->orders = cbd_mem_calloc(s->budget, room + 1, sizeof *out->orders);
    if (!out->orders) {
        return cbd_budget_nomem(s->budget);
    }
    memset(deploy, 0, s->board->n_territories * sizeof *deploy);
    if (extra > 0) {
        deploy[extra_on] += extra;
    }
    cbd_turn_order *attacks = out->orders + s->board->n_territories;
    size_t na = 0;
    for (size_t i = 0; i < m; i++) {
        const cbd_plan *p = i == alt ? &chosen[i]->res.alternatives[which] : &chosen[i]->res.best;
        add_plan(p, deploy, attacks, &na);
    }
    size_t n = 0;
    for (uint32_t t = 0; t < s->board->n_territories; t++) {
        if (deploy[t] > 0) {
            out->orders[n++] = (cbd_turn_order){
                .type = CBD_ORDER_DEPLOY, .player = s->req->player, .to = t, .armies = deploy[t]};
        }
    }
    memmove(out->orders + n, attacks, na * sizeof *attacks);
    out->n_orders = n + na;
    return CBD_OK;
}

/* A plan's size as cbdp_plan_size counts it (orders << 40 | armies sent). */
uint64_t cbdp_size_of(const cbd_plan *p) {
    uint64_t orders = 0, armies = 0;
    for (size_t i = 0; i < p->n_orders; i++) {
        if (p->orders[i].type != CBD_ORDER_DEPLOY) {
            orders++;
            armies += p->orders[i].armies;
        }
    }
    return orders << 40 | (armies < (UINT64_C(1) << 40) ? armies : (UINT64_C(1) << 40) - 1);
}
