/*
 * One run of the plan search (W31): one front (warapp_plan_front.c) at one deploy total. Its
 * setup (the front's own territories, the pairs a plan may order, the run's own budget), the
 * choice between the whole space and the anytime local search, and the run's best plans as
 * orders. The search itself is in the folder's other files.
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

/* Whether t is one of the run's own territories: the player's at the start, in the front. */
static bool is_own(const plan_ctx *c, size_t t) {
    return c->board->territories[t].owner == c->req->player && (!c->front_own || c->front_own[t]);
}

/* The player's territories of the front and the pairs (from, to) across the map's borders. */
static bool setup_pairs(plan_ctx *c) {
    const cbd_turn *b = c->board;
    uint64_t guard = b->battle.one_army_must_stand_guard ? 1 : 0;
    size_t k = 0, np = 0;
    for (size_t t = 0; t < b->n_territories; t++) {
        if (is_own(c, t)) {
            k++;
            np += b->neighbor_off[t + 1] - b->neighbor_off[t];
        }
    }
    c->space.k = k;
    c->space.np = np;
    c->space.own = cbd_mem_calloc(c->meter.budget, k + 1, sizeof *c->space.own);
    c->space.movable = cbd_mem_calloc(c->meter.budget, k + 1, sizeof *c->space.movable);
    c->space.pfrom = cbd_mem_calloc(c->meter.budget, np + 1, sizeof *c->space.pfrom);
    c->space.pto = cbd_mem_calloc(c->meter.budget, np + 1, sizeof *c->space.pto);
    c->space.touched = cbd_mem_calloc(c->meter.budget, b->n_territories, sizeof *c->space.touched);
    if (!c->space.own || !c->space.movable || !c->space.pfrom || !c->space.pto ||
        !c->space.touched) {
        return false;
    }
    size_t i = 0, p = 0;
    for (size_t t = 0; t < b->n_territories; t++) {
        if (!is_own(c, t)) {
            continue;
        }
        uint64_t armies = b->territories[t].armies;
        c->space.own[i] = (uint32_t)t;
        c->space.movable[i] = armies > guard ? armies - guard : 0;
        for (uint32_t e = b->neighbor_off[t]; e < b->neighbor_off[t + 1]; e++) {
            c->space.pfrom[p] = (uint32_t)i;
            c->space.pto[p++] = b->neighbors[e];
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
    c->space.independent_ok = true;
    for (size_t u = 0; u < b->n_units; u++) {
        c->space.independent_ok &= !b->units[u].commander;
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        const cbd_turn_order *o = &b->orders[i];
        if (o->type != CBD_ORDER_DEPLOY) {
            c->space.touched[o->from] = true;
            c->space.touched[o->to] = true;
        }
    }
}

static void free_ctx(plan_ctx *c) {
    for (size_t i = 0; i <= CBD_PLAN_ALTERNATIVES; i++) {
        cbdp_plan_state_free(&c->best.kept[i].st);
    }
    cbdp_plan_state_free(&c->scratch);
    cbdp_plan_bounds_free(c);
    cbd_mem_free(c->space.own);
    cbd_mem_free(c->space.movable);
    cbd_mem_free(c->space.pfrom);
    cbd_mem_free(c->space.pto);
    cbd_mem_free(c->space.touched);
    cbd_mem_free(c->orders);
    cbd_mem_free(c->goals);
    cbd_mem_free(c->seen.slots);
}

static bool alloc_ctx(plan_ctx *c) {
    size_t n_orders = c->space.k + c->space.np + c->board->n_orders;
    c->orders = cbd_mem_calloc(c->meter.budget, n_orders + 1, sizeof *c->orders);
    c->goals = cbd_mem_calloc(c->meter.budget, c->req->n_goals, sizeof *c->goals);
    c->seen.cap = 64;
    while (c->seen.cap < 2 * c->req->max_plans + 64 && c->seen.cap < ((size_t)1 << 24)) {
        c->seen.cap *= 2;
    }
    /* zeroed in pieces, its new pages charged as they are (up to 4.92 · 2^20 units at once) */
    c->seen.slots = cbd_mem_calloc_paced(c->meter.budget, c->seen.cap, sizeof *c->seen.slots);
    bool ok = c->orders && c->goals && c->seen.slots && cbdp_plan_state_alloc(c, &c->scratch);
    for (size_t i = 0; ok && i <= CBD_PLAN_ALTERNATIVES; i++) {
        ok = cbdp_plan_state_alloc(c, &c->best.kept[i].st);
    }
    return ok;
}

/* The kept plans as the answer's. */
static cbd_status answer(plan_ctx *c, cbd_plan_result *out) {
    size_t room = c->space.k + c->space.np;
    for (size_t i = 0; i <= CBD_PLAN_ALTERNATIVES && c->best.kept[i].used; i++) {
        cbd_plan *p = i == 0 ? &out->best : &out->alternatives[i - 1];
        p->orders = cbd_mem_calloc(c->meter.budget, room + 1, sizeof *p->orders);
        if (!p->orders) {
            return cbd_budget_nomem(c->meter.budget);
        }
        p->n_orders = cbdp_plan_state_orders(c, &c->best.kept[i].st, p->orders);
        p->value = c->best.kept[i].value;
        out->n_alternatives = i;
    }
    out->plans_evaluated = c->best.evaluated;
    out->plans_bounded = c->best.bounded_out;
    return CBD_OK;
}

/* The search proper, once the context is set up: the plain splits alone (RUN_SPLITS); or the
 * whole space when it is no larger than the plans that may be analysed (or, where the bounds
 * cut it, 64 times that), else the anytime local search. */
static cbd_status search(plan_ctx *c, run_kind kind, plan_run *run) {
    bool whole = false;
    eval_result r;
    if (kind == RUN_SPLITS) {
        r = cbdp_plan_splits(c, &c->scratch);
    } else {
        cbd_status st = cbdp_plan_bounds_init(c);
        if (st != CBD_OK) {
            return st;
        }
        uint64_t cap = cbd_work_times(c->bounds.bounded ? 64 : 1, c->req->max_plans);
        uint64_t space = 0;
        if (cbdp_plan_count(c, cap, &space) == EVAL_ERROR) {
            return c->meter.status;
        }
        whole = space <= cap;
        r = whole ? cbdp_plan_exhaust(c) : cbdp_plan_local(c);
    }
    if (r == EVAL_ERROR) {
        return c->meter.status;
    }
    if (!c->best.kept[0].used) {
        /* Nothing fitted the run's share, or the core's limits refused every plan (the splits'
         * failing leaves it to the search). */
        run->first_error = c->meter.first_error;
        run->first_err = c->meter.first_err;
        if (kind == RUN_SEARCH && c->meter.first_error != CBD_OK &&
            c->meter.first_error != CBD_ERR_BUDGET) {
            *c->meter.err = c->meter.first_err;
            return c->meter.first_error;
        }
        return CBD_OK;
    }
    /* A value no plan can pass (every goal certain) is proven optimal whatever was searched. */
    double most = cbd_plan_most(c->req);
    run->proven =
        (whole && !c->meter.stopped && !c->meter.unproven) || c->best.kept[0].value >= most;
    run->ran = true;
    return answer(c, &run->res);
}

/* The run's own budget (c->meter.search): the request's max_work, or what the request has left when
 * that is less, its memory what the request has left, its large blocks from the request's
 * scratch (kept warm too) and its small ones from `cache`: each plan's analysis makes and drops
 * the same small blocks, reused from plan to plan rather than malloc'd and freed each time
 * (budget.h's cbd_block_cache). The request's deadline, its client going away and the server's
 * drain stop the run within one progress interval, inside an analysis too. */
static void init_search_budget(plan_ctx *c, cbd_block_cache *cache) {
    uint64_t left = cbd_budget_work_left(c->meter.budget);
    c->meter.cap_by_request = left < c->req->max_work;
    /* (its new pages are the request's: they vary with what the server's memory held before) */
    cbd_budget_init_child(&c->meter.search, c->meter.budget,
                          c->meter.cap_by_request ? left : c->req->max_work);
    cbd_budget_relay_start(&c->meter.relay, &c->meter.search, c->meter.budget,
                           &c->meter.request_charged);
    memset(cache, 0, sizeof *cache);
    cbd_budget_set_cache(&c->meter.search, cache);
}

/* What ended a run that did not search its whole space: its own work (the run's meter spent),
 * else max_plans (plan_evaluate's stop); plans left out for memory the request has not got
 * rank above both (a larger memory limit values them). */
static cbd_plan_stop stop_of(const plan_ctx *c) {
    if (c->meter.memory_refused > 0) {
        return CBD_PLAN_STOP_MEMORY;
    }
    cbd_plan_stop answer = cbdp_plan_answer_stop(c->meter.budget);
    if (answer != CBD_PLAN_STOP_NONE) {
        return answer; /* the request's deadline or work, in this run or before it */
    }
    if (!c->meter.stopped) {
        return CBD_PLAN_STOP_NONE;
    }
    return cbd_budget_spent(&c->meter.search) ? CBD_PLAN_STOP_WORK : CBD_PLAN_STOP_MAX_PLANS;
}

const char *cbd_plan_stop_name(cbd_plan_stop stop) {
    switch (stop) {
        case CBD_PLAN_STOP_MAX_PLANS:
            return "max_plans";
        case CBD_PLAN_STOP_WORK:
            return "work";
        case CBD_PLAN_STOP_BUDGET:
            return "budget";
        case CBD_PLAN_STOP_DEADLINE:
            return "deadline";
        case CBD_PLAN_STOP_MEMORY:
            return "memory";
        case CBD_PLAN_STOP_NONE:
            break;
    }
    return NULL;
}

/* The run's end on the request's budget: the rest of the run's work (walks, tries) is the
 * request's; a run stopped by the request's deadline or by what the request had left moves the
 * request onto its reserve, to answer the best plan so far; an abandon (the client, the drain),
 * or a stop with no reserve, stops the request (its caller names what to reduce), and so do
 * plans that all needed more memory than the request has. */
static cbd_status settle(plan_ctx *c, cbd_status st, run_kind kind, const plan_run *run) {
    cbd_budget *budget = c->meter.budget;
    cbd_budget_stop why = c->meter.search.stopped;
    bool charged = cbd_budget_relay_settle(&c->meter.relay);
    bool request_stop = why == CBD_BUDGET_CANCELLED || why == CBD_BUDGET_DEADLINE ||
                        (why == CBD_BUDGET_WORK && c->meter.cap_by_request);
    if (st == CBD_OK && request_stop) {
        cbd_budget_halt(budget, why); /* (an abandon: nothing) */
    }
    bool answering = cbdp_plan_answer_stop(budget) != CBD_PLAN_STOP_NONE;
    if (st == CBD_OK && !answering && (!charged || request_stop)) {
        bool caller = why == CBD_BUDGET_CANCELLED || why == CBD_BUDGET_DEADLINE;
        cbd_budget_mark_stopped(budget, caller ? why : CBD_BUDGET_WORK, 0);
        *c->meter.err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return CBD_ERR_BUDGET;
    }
    if (st == CBD_OK && kind == RUN_SEARCH && !run->ran && c->meter.memory_refused > 0 && budget &&
        cbd_budget_stop_reason(budget) == CBD_BUDGET_RUNNING) {
        /* every plan tried needed more memory than the request has: that is what to reduce */
        cbd_budget_mark_stopped(budget, CBD_BUDGET_MEMORY, c->meter.memory_refused);
        *c->meter.err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return CBD_ERR_BUDGET;
    }
    return st;
}

cbd_status cbdp_plan_run(const cbd_turn *board, const cbd_plan_request *req, const bool *front_own,
                         const size_t *order_map, bool first_on_request, run_kind kind,
                         const cbd_turn_limits *limits, cbd_budget *budget, plan_run *run,
                         cbd_turn_error *err) {
    memset(run, 0, sizeof *run);
    run->stop = cbdp_plan_answer_stop(budget);
    if (run->stop != CBD_PLAN_STOP_NONE) {
        return CBD_OK; /* the request answers what it has: no run starts */
    }
    plan_ctx c;
    memset(&c, 0, sizeof c);
    c.board = board;
    c.req = req;
    c.front_own = front_own;
    c.order_map = order_map;
    c.meter.first_on_request = first_on_request;
    c.limits = limits;
    c.meter.budget = budget;
    c.meter.err = err;
    c.meter.first_error = CBD_OK;
    cbd_block_cache cache;
    init_search_budget(&c, &cache);
    cbd_status st = CBD_OK;
    if (!setup_pairs(&c) || !alloc_ctx(&c)) {
        st = cbd_budget_nomem(budget);
    } else if (c.space.k == 0) {
        *err = (cbd_turn_error){CBD_TURN_ERR_SIZE, 0, 0, 0};
        st = CBD_ERR_INVALID;
    } else {
        /* (the pairs may be more than a turn takes: a plan whose turn passes the core's limits
         * is left out when it is evaluated, EVAL_SKIP) */
        setup_independence(&c);
        st = search(&c, kind, run);
    }
    st = settle(&c, st, kind, run);
    if (st == CBD_OK) {
        run->stop = stop_of(&c);
    }
    free_ctx(&c);
    cbd_block_cache_release(&cache);
    if (st != CBD_OK) {
        cbd_plan_result_free(&run->res);
        run->ran = false;
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
