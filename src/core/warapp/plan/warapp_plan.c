/*
 * The plan search (W31): its setup (the player's territories, the pairs a plan may order, the
 * search's own budget), the choice between the whole space and a local search, and the answer
 * (the best plans as orders). The search itself is in the folder's other files.
 */
#include "warapp_plan_internal.h"

#include <string.h>

void cbd_plan_turn_of(const cbd_turn *board, const cbd_plan_request *req, const cbd_plan *plan,
                      cbd_turn_order *orders, cbd_turn_goal *goals, cbd_turn *out) {
    cbdp_plan_build_turn(board, req, plan, orders, goals, out);
}

double cbd_plan_value(const cbd_plan_request *req, const cbd_turn_analysis *a) {
    return cbdp_plan_objective_value(req, a);
}

/* The request against the board: goals on it, the player's territories known (W23), none of
 * the board's orders the player's. */
static bool check_request(const cbd_turn *b, const cbd_plan_request *req, cbd_turn_error *err) {
    *err = (cbd_turn_error){CBD_TURN_ERR_NONE, 0, 0, 0};
    if (req->player >= b->n_players || req->n_goals == 0 || req->max_plans == 0 ||
        !b->neighbor_off) {
        err->kind = CBD_TURN_ERR_SIZE;
        return false;
    }
    for (size_t g = 0; g < req->n_goals; g++) {
        for (size_t h = 0; h < g; h++) {
            if (req->goals[g] >= b->n_territories || req->goals[h] == req->goals[g]) {
                *err = (cbd_turn_error){CBD_TURN_ERR_GOAL, g, 0, 0};
                return false;
            }
        }
        if (req->goals[g] >= b->n_territories) {
            *err = (cbd_turn_error){CBD_TURN_ERR_GOAL, g, 0, 0};
            return false;
        }
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        if (b->orders[i].player == req->player) {
            *err = (cbd_turn_error){CBD_TURN_ERR_ORDER, i, 0, 0};
            return false;
        }
    }
    for (size_t t = 0; b->fog && t < b->n_territories; t++) {
        if (b->territories[t].owner == req->player && b->fog[t].n > 0) {
            *err = (cbd_turn_error){CBD_TURN_ERR_TERRITORY, t, 0, 0};
            return false;
        }
    }
    return true;
}

/* The player's territories and the pairs (from, to) across the map's borders. */
static bool setup_pairs(plan_ctx *c) {
    const cbd_turn *b = c->board;
    uint64_t guard = b->battle.one_army_must_stand_guard ? 1 : 0;
    size_t k = 0, np = 0;
    for (size_t t = 0; t < b->n_territories; t++) {
        if (b->territories[t].owner == c->req->player) {
            k++;
            np += b->neighbor_off[t + 1] - b->neighbor_off[t];
        }
    }
    c->k = k;
    c->np = np;
    c->own = cbd_mem_calloc(c->budget, k + 1, sizeof *c->own);
    c->movable = cbd_mem_calloc(c->budget, k + 1, sizeof *c->movable);
    c->pfrom = cbd_mem_calloc(c->budget, np + 1, sizeof *c->pfrom);
    c->pto = cbd_mem_calloc(c->budget, np + 1, sizeof *c->pto);
    c->touched = cbd_mem_calloc(c->budget, b->n_territories, sizeof *c->touched);
    if (!c->own || !c->movable || !c->pfrom || !c->pto || !c->touched) {
        return false;
    }
    size_t i = 0, p = 0;
    for (size_t t = 0; t < b->n_territories; t++) {
        if (b->territories[t].owner != c->req->player) {
            continue;
        }
        uint64_t armies = b->territories[t].armies;
        c->own[i] = (uint32_t)t;
        c->movable[i] = armies > guard ? armies - guard : 0;
        for (uint32_t e = b->neighbor_off[t]; e < b->neighbor_off[t + 1]; e++) {
            c->pfrom[p] = (uint32_t)i;
            c->pto[p++] = b->neighbors[e];
        }
        i++;
    }
    return true;
}

/*
 * Two orders of the plan that touch disjoint territories commute (each battle reads and writes
 * only its two territories): one order of them is enough. Not with Commanders on the board (a
 * death eliminates a player everywhere, W22), and under cycle and random only for orders that
 * no given order touches (their place among the other players' orders would change).
 */
static void setup_independence(plan_ctx *c) {
    const cbd_turn *b = c->board;
    c->independent_ok = true;
    for (size_t u = 0; u < b->n_units; u++) {
        c->independent_ok &= !b->units[u].commander;
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        const cbd_turn_order *o = &b->orders[i];
        if (o->type != CBD_ORDER_DEPLOY) {
            c->touched[o->from] = true;
            c->touched[o->to] = true;
        }
    }
}

static void free_ctx(plan_ctx *c) {
    for (size_t i = 0; i <= CBD_PLAN_ALTERNATIVES; i++) {
        cbdp_plan_state_free(&c->kept[i].st);
    }
    cbdp_plan_state_free(&c->scratch);
    cbdp_plan_bounds_free(c);
    cbd_mem_free(c->own);
    cbd_mem_free(c->movable);
    cbd_mem_free(c->pfrom);
    cbd_mem_free(c->pto);
    cbd_mem_free(c->touched);
    cbd_mem_free(c->orders);
    cbd_mem_free(c->goals);
    cbd_mem_free(c->seen);
}

static bool alloc_ctx(plan_ctx *c) {
    size_t n_orders = c->k + c->np + c->board->n_orders;
    c->orders = cbd_mem_calloc(c->budget, n_orders + 1, sizeof *c->orders);
    c->goals = cbd_mem_calloc(c->budget, c->req->n_goals, sizeof *c->goals);
    c->seen_cap = 64;
    while (c->seen_cap < 2 * c->req->max_plans + 64 && c->seen_cap < ((size_t)1 << 24)) {
        c->seen_cap *= 2;
    }
    c->seen = cbd_mem_calloc(c->budget, c->seen_cap, sizeof *c->seen);
    bool ok = c->orders && c->goals && c->seen && cbdp_plan_state_alloc(c, &c->scratch);
    for (size_t i = 0; ok && i <= CBD_PLAN_ALTERNATIVES; i++) {
        ok = cbdp_plan_state_alloc(c, &c->kept[i].st);
    }
    return ok;
}

/* The kept plans as the answer's. */
static cbd_status answer(plan_ctx *c, cbd_plan_result *out) {
    size_t room = c->k + c->np;
    for (size_t i = 0; i <= CBD_PLAN_ALTERNATIVES && c->kept[i].used; i++) {
        cbd_plan *p = i == 0 ? &out->best : &out->alternatives[i - 1];
        p->orders = cbd_mem_calloc(c->budget, room + 1, sizeof *p->orders);
        if (!p->orders) {
            return cbd_budget_nomem(c->budget);
        }
        p->n_orders = cbdp_plan_state_orders(c, &c->kept[i].st, p->orders);
        p->value = c->kept[i].value;
        out->n_alternatives = i;
    }
    out->plans_evaluated = c->evaluated;
    out->plans_bounded = c->bounded_out;
    return CBD_OK;
}

/* When the search's own work ended before any plan was analysed: the rule of thumb, with what
 * the request's budget has left, so that a plan is answered whenever one fits at all (the
 * request's budget stopping it is the request's failure, naming what to reduce). */
static eval_result last_resort(plan_ctx *c) {
    uint64_t left = c->budget && c->budget->work_limit > c->budget->work_spent
                        ? c->budget->work_limit - c->budget->work_spent
                        : UINT64_MAX;
    size_t mem_left = c->budget ? c->budget->mem_limit - c->budget->mem_held : SIZE_MAX;
    cbd_budget_init(&c->search, left, mem_left);
    cbd_budget_set_scratch(&c->search, c->budget ? c->budget->scratch : NULL);
    c->stopped = false;
    cbdp_plan_rule_of_thumb(c, &c->scratch);
    double value;
    eval_result r = cbdp_plan_evaluate(c, &c->scratch, &value);
    c->stopped = true; /* nothing is proven */
    if (r == EVAL_STOP) {
        /* it ran to the request's last unit: the request's budget is spent */
        (void)cbd_charge(c->budget, 1);
        c->status = CBD_ERR_BUDGET;
        *c->err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return EVAL_ERROR;
    }
    return r;
}

/* The search proper, once the context is set up. */
static cbd_status search(plan_ctx *c, cbd_plan_result *out) {
    cbd_status st = cbdp_plan_bounds_init(c);
    if (st != CBD_OK) {
        return st;
    }
    size_t mem_left = c->budget ? c->budget->mem_limit - c->budget->mem_held : SIZE_MAX;
    cbd_budget_init(&c->search, c->req->max_work, mem_left);
    cbd_budget_set_scratch(&c->search, c->budget ? c->budget->scratch : NULL); /* kept warm too */
    /* The whole space when it is no larger than the plans that may be analysed, or, where the
     * bounds cut it, up to 64 times that. */
    uint64_t cap = cbd_work_times(c->bounded ? 64 : 1, c->req->max_plans);
    uint64_t space = 0;
    if (cbdp_plan_count(c, cap, &space) == EVAL_ERROR) {
        return c->status;
    }
    bool whole = space <= cap;
    eval_result r = whole ? cbdp_plan_exhaust(c) : cbdp_plan_local(c);
    if (r != EVAL_ERROR && !c->kept[0].used && c->stopped) {
        r = last_resort(c);
    }
    if (r == EVAL_ERROR) {
        return c->status;
    }
    if (!c->kept[0].used) {
        *c->err = c->first_err;
        return c->first_error != CBD_OK ? c->first_error : CBD_ERR_BUDGET;
    }
    /* A value no plan can pass (every goal certain) is proven optimal whatever was searched. */
    double most = c->req->objective == CBD_PLAN_ALL ? 1.0 : (double)c->req->n_goals;
    out->optimal = (whole && !c->stopped && !c->unproven) || c->kept[0].value >= most;
    return answer(c, out);
}

cbd_status cbd_plan_search(const cbd_turn *board, const cbd_plan_request *req,
                           const cbd_turn_limits *limits, cbd_budget *budget, cbd_plan_result *out,
                           cbd_turn_error *err) {
    memset(out, 0, sizeof *out);
    if (!check_request(board, req, err)) {
        return CBD_ERR_INVALID;
    }
    plan_ctx c;
    memset(&c, 0, sizeof c);
    c.board = board;
    c.req = req;
    c.limits = limits;
    c.budget = budget;
    c.err = err;
    c.first_error = CBD_OK;
    cbd_status st = CBD_OK;
    if (!setup_pairs(&c) || !alloc_ctx(&c)) {
        st = cbd_budget_nomem(budget);
    } else if (c.k == 0 || c.k + c.np + board->n_orders > limits->max_orders) {
        *err = (cbd_turn_error){CBD_TURN_ERR_SIZE, 0, 0, 0};
        st = CBD_ERR_INVALID;
    } else {
        setup_independence(&c);
        st = search(&c, out);
    }
    free_ctx(&c);
    if (st != CBD_OK) {
        cbd_plan_result_free(out);
    }
    return st;
}

void cbd_plan_result_free(cbd_plan_result *r) {
    cbd_mem_free(r->best.orders);
    for (size_t i = 0; i < CBD_PLAN_ALTERNATIVES; i++) {
        cbd_mem_free(r->alternatives[i].orders);
    }
    memset(r, 0, sizeof *r);
}
