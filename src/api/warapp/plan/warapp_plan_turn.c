/*
 * POST /plan-turn: the best plan (W31) of a player for a goal, with its exact value, up to
 * three next-best plans, and the plan's turn analysed as /analyze-turn answers it. The turn is
 * read as /analyze-turn's (warapp_turn_json.c), the plan's members in warapp_plan_json.c; the
 * search is the core's (cbd_plan_search).
 *
 * The plan's turn, whose analysis is answered and whose value is the plan's, is the request's
 * board with `orders` the plan's orders followed by the request's, and for `all` `goals` each
 * goal territory (capture, then hold, in the request's order) with the player as owner: the same
 * request to /analyze-turn answers the same numbers. Each plan's `value` is taken from those
 * numbers as /analyze-turn writes them (15 significant digits): its goals_probability, or the
 * sum in goal order of the player's owner probabilities (W31's objectives), and written so that
 * it reads back as that double exactly: a client that reads the analysis and adds up its
 * numbers gets the same value, to the last bit.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "api/api.h"
#include "api/endpoint_support.h"
#include "json/json_real.h"
#include "api/warapp/turn/warapp_analyze_turn.h"
#include "warapp_plan_position_json.h"
#include "api/warapp/turn/warapp_turn_json.h"

/* The turn's members but `goals` (the plan's goal is its own member), and the plan's. */
static const char *const request_keys[] = {
    "territories",  "orders",    "settings", "teams",       "move_order",
    "player_order", "diplomacy", "bonuses",  CBD_PLAN_KEYS, NULL};

/* A chance v as an answer writes it (15 significant digits), read back, within [0, 1]: the
 * analysis's sums of many products may pass 1 by a few ulps (1.00000000000009 was answered),
 * and a value is a chance or a sum of chances (the contract's bounds). */
static double as_written(double v) {
    char text[CBD_JSON_REAL_MAX];
    cbd_json_real(v, text);
    double w = strtod(text, NULL);
    return w > 1.0 ? 1.0 : w < 0.0 ? 0.0 : w;
}

/* The plan's value from its analysis's numbers as /analyze-turn writes them. */
static double answered_value(const cbd_plan_read *pr, const cbd_turn_analysis *a) {
    const cbd_plan_request *req = &pr->req;
    if (req->objective == CBD_PLAN_ALL) {
        return as_written(a->goals_probability);
    }
    double sum = 0;
    if (req->objective == CBD_PLAN_INCOME) {
        /* W32: each bonus's value times the analysis's "bonuses" chance as written */
        for (size_t k = 0; k < req->n_bonuses; k++) {
            double own = a->bonus_owner[pr->bonus_index[k] * a->n_players + req->player];
            sum += (double)req->bonuses[k].value * as_written(own);
        }
        return sum;
    }
    for (size_t g = 0; g < req->n_goals; g++) {
        sum += as_written(a->territories[req->goals[g]].owner[req->player]);
    }
    return sum;
}

/* "value": v in the fewest digits that read back as v exactly (a sum of written numbers needs
 * more than 15 at times); /warzone/plan-turn writes it the same way. */
static void value_json(cbd_jw *w, double v) {
    cbd_jw_key(w, "value");
    cbd_jw_real_exact(w, v);
}

/* The plan's turn, as q's: its orders and goals in arrays of their own (the caller frees
 * them), the rest q's. */
static bool plan_request(const cbd_turn_request *q, const cbd_plan_read *pr, const cbd_plan *p,
                         cbd_turn_request *out) {
    *out = *q;
    out->orders = calloc(p->n_orders + q->turn.n_orders + 1, sizeof *out->orders);
    out->goals = calloc(pr->req.n_goals + 1, sizeof *out->goals);
    if (!out->orders || !out->goals) {
        free(out->orders);
        free(out->goals);
        out->orders = NULL; /* the caller frees them either way */
        out->goals = NULL;
        return false;
    }
    cbd_plan_turn_of(&q->turn, &pr->req, p, out->orders, out->goals, &out->turn);
    return true;
}

/* Analyses a plan's turn (pq: plan_request's, freed by the caller) into *a. */
static bool analyse(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                    const cbd_plan_read *pr, const cbd_plan *p, cbd_turn_request *pq,
                    cbd_turn_analysis *a, cbd_problem *problem) {
    if (!plan_request(q, pr, p, pq)) {
        return cbd_api_oom_problem(problem);
    }
    cbd_turn_error err;
    cbd_status st = cbd_turn_analyze(&pq->turn, &pq->limits, budget, a, &err);
    if (st == CBD_OK) {
        st = cbd_turn_analyze_bonuses(&pq->turn, &pq->limits, budget, a, &err);
        if (st != CBD_OK) {
            cbd_turn_analysis_free(a);
        }
    }
    if (st != CBD_OK && err.index != CBD_TURN_NO_ORDER && err.index != CBD_TURN_FOG_START &&
        (err.kind == CBD_TURN_ERR_BUDGET || err.kind == CBD_TURN_ERR_WORK ||
         err.kind == CBD_TURN_ERR_STATES)) {
        /* the plan's turn lists the plan's orders first: name the request's own order (the
         * other players' that the analysis was running), or the plan's income for one of the
         * plan's */
        if (err.index >= p->n_orders) {
            err.index -= p->n_orders;
        } else if (err.kind == CBD_TURN_ERR_BUDGET) {
            err.index = CBD_TURN_NO_ORDER;
            return cbd_turn_core_problem(cfg, budget, q, st, &err, "/income", problem);
        }
    }
    return st == CBD_OK || cbd_turn_core_problem(cfg, budget, q, st, &err, "/goal", problem);
}

/* "alternatives": each next-best plan's orders and value (from its own analysis, as the
 * plan's). */
static bool alternatives_json(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                              const cbd_plan_read *pr, const cbd_plan_result *res, cbd_jw *out,
                              cbd_problem *problem) {
    cbd_jw_key(out, "alternatives");
    cbd_jw_array_open(out);
    bool ok = true;
    for (size_t i = 0; ok && i < res->n_alternatives; i++) {
        cbd_turn_request pq = {0};
        cbd_turn_analysis a;
        ok = analyse(cfg, budget, q, pr, &res->alternatives[i], &pq, &a, problem);
        if (ok) {
            cbd_jw_object_open(out);
            cbdp_plan_orders_json(out, q, &res->alternatives[i]);
            value_json(out, answered_value(pr, &a));
            cbd_jw_object_close(out);
            cbd_turn_analysis_free(&a);
        }
        free(pq.orders);
        free(pq.goals);
    }
    cbd_jw_array_close(out);
    return ok;
}

static bool render(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                   const cbd_plan_read *pr, const cbd_plan_result *res, cbd_jw *out,
                   cbd_problem *problem) {
    if (pr->req.objective == CBD_PLAN_POSITION) {
        return cbdp_plan_position_render(cfg, budget, q, pr, res, out, problem);
    }
    cbd_turn_request pq = {0};
    cbd_turn_analysis a;
    bool ok = analyse(cfg, budget, q, pr, &res->best, &pq, &a, problem);
    if (ok) {
        cbd_jw_object_open(out);
        cbd_jw_key_string(out, "player", q->player_id[pr->req.player]);
        cbd_jw_key_string(out, "objective", cbdp_plan_objective_name(pr->req.objective));
        cbdp_plan_orders_json(out, q, &res->best);
        value_json(out, answered_value(pr, &a));
        cbd_jw_key_bool(out, "optimal", res->optimal);
        if (cbd_plan_stop_name(res->stopped_by)) { /* absent when nothing stopped it */
            cbd_jw_key_string(out, "stopped_by", cbd_plan_stop_name(res->stopped_by));
        }
        cbd_jw_key_uint(out, "plans_evaluated", res->plans_evaluated);
        cbd_jw_key_uint(out, "plans_bounded", res->plans_bounded);
        ok = alternatives_json(cfg, budget, q, pr, res, out, problem);
        cbd_jw_key(out, "analysis");
        ok = ok && cbd_turn_analysis_answer(cfg, budget, &pq, &a,
                                            cfg->warapp.max_distribution_points, out, problem);
        cbd_jw_object_close(out);
        cbd_turn_analysis_free(&a);
    }
    free(pq.orders);
    free(pq.goals);
    return ok;
}

/*
 * The search's own work: a quarter of what a worker's budget (server.work_budget_ms) has left
 * at this point, so that it stops at the same plan each time the same request comes, wherever
 * it runs: on an HTTP thread the request's own budget (the inline slice) ends first and the
 * request is handed to a worker (the deadline ends the search as it comes, with the best plan
 * so far: the search's work is charged to the request's budget as it goes), and the rest
 * answers the plans' analyses. A
 * quarter, not half: on turns whose groups of territories grow large (many of a plan's orders
 * joining them) the exact analysis was measured at about 3.3 ns of CPU per unit charged
 * (bench/bench_budget's plan-turn row), not the 1 its charges aim at, and the request must
 * still end within its CPU budget.
 */
static uint64_t search_work(const cbd_config *cfg, const cbd_budget *budget) {
    if (!budget || budget->work_limit == UINT64_MAX) {
        return UINT64_MAX;
    }
    uint64_t full = cbd_work_times(cfg->limits.work_budget_ms, CBD_WORK_UNITS_PER_MS);
    full = full > budget->work_limit ? full : budget->work_limit;
    return full > budget->work_spent ? (full - budget->work_spent) / 4 : 0;
}

/*
 * The answer's reserve (budget.h): when the answer deadline or the request's own work budget
 * ends the search, the best plan so far is still answered, and writing it takes work past that
 * stop: the plan's analysis and its alternatives' (each a turn the search analysed within its
 * share, a quarter of the budget) and their JSON. A quarter of server.work_budget_ms more, at
 * most; past it the request stops for good (a 504 past the deadline, else a 422).
 */
static uint64_t answer_reserve(const cbd_config *cfg) {
    uint64_t full = cbd_work_times(cfg->limits.work_budget_ms, CBD_WORK_UNITS_PER_MS);
    return full / 4 > 0 ? full / 4 : 1;
}

/*
 * `max_work`: the search's share of the work in work units (budget.h: about a nanosecond of CPU
 * each), so that a bot asks for the best plan within that much work and gets the same plan each
 * time, wherever it runs (a wall-clock deadline would not). At most the work budget the server
 * gives a request (server.work_budget_ms): a share that large leaves nothing for the answer, and
 * the request's own budget ends the search first (`stopped_by: "budget"`). *out 0 when absent.
 */
static bool read_max_work(const cbd_reader *r, const cbd_config *cfg, uint64_t *out) {
    uint64_t limit = cbd_work_times(cfg->limits.work_budget_ms, CBD_WORK_UNITS_PER_MS), v = 0;
    cbd_field f = cbd_read_u64(r, "max_work", 1, INT64_MAX, &v);
    *out = f == CBD_FIELD_OK ? v : 0;
    if (f == CBD_FIELD_OK && v > limit) {
        cbd_reader_error(r, "max_work",
                         "must be at most %" PRIu64 " work units, the work budget of a request "
                         "(server.work_budget_ms: %" PRIu64 " ms), not %" PRIu64,
                         limit, cfg->limits.work_budget_ms, v);
        return false;
    }
    return f != CBD_FIELD_BAD;
}

static bool plan(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                 cbd_plan_read *pr, cbd_jw *out, cbd_problem *problem) {
    pr->req.max_work = pr->max_work > 0 ? pr->max_work : search_work(cfg, budget);
    cbd_plan_result res;
    cbd_turn_error err;
    cbd_budget_set_reserve(budget, answer_reserve(cfg));
    cbd_status st = cbd_plan_search(&q->turn, &pr->req, &q->limits, budget, &res, &err);
    bool ok = st == CBD_OK && render(cfg, budget, q, pr, &res, out, problem);
    /* whatever comes next on this budget (an MCP batch's next call) finds it as the search left
     * it: spent when the deadline or the work ended the search */
    cbd_budget_end_reserve(budget);
    if (st != CBD_OK) {
        return cbd_turn_core_problem(cfg, budget, q, st, &err, "/max_plans", problem);
    }
    cbd_plan_result_free(&res);
    return ok;
}

bool cbd_api_plan_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                       cbd_jw *out, cbd_problem *problem) {
    /* `orders` is optional here (the other players' orders may be unknown): the turn reader
     * wants it, so a request without one is read as with none. */
    json_t *copy = NULL;
    if (json_is_object(request) && !json_object_get(request, "orders")) {
        copy = json_copy((json_t *)request);
        if (!copy || json_object_set_new(copy, "orders", json_array()) != 0) {
            json_decref(copy);
            return cbd_api_oom_problem(problem);
        }
        request = copy;
    }
    /* W49: `others`' orders are read as the request's own, after them */
    cbd_plan_others others;
    json_t *merged = NULL;
    bool ok = cbd_plan_others_merge(request, &merged, &others, problem);
    request = merged ? merged : request;
    cbd_reader r;
    ok = ok && cbd_reader_open(&r, request, "", request_keys, problem);
    cbd_turn_request q;
    cbd_plan_read pr = {0};
    memset(&q, 0, sizeof q);
    ok = ok && cbd_turn_read_request(&r, &cfg->warapp, &q) == CBD_READ_OK;
    ok = ok && cbdp_plan_read_request(&r, &cfg->warapp, &q, &pr) == CBD_READ_OK;
    ok = ok && read_max_work(&r, cfg, &pr.max_work);
    bool position = ok && pr.req.objective == CBD_PLAN_POSITION;
    ok = ok && (position ? cbdp_plan_position_read(&r, &cfg->warapp, &q, &others, &pr)
                         : cbdp_plan_position_members_absent(&r));
    cbd_plan_others_pointers(&others, problem);
    ok = ok && plan(cfg, budget, &q, &pr, out, problem);
    cbdp_plan_position_free(pr.position);
    cbdp_plan_read_free(&pr);
    cbd_turn_request_free(&q);
    json_decref(merged);
    json_decref(copy);
    return ok;
}

/*
 * The estimate the http layer compares with server.inline_cost_ns (api.h): a plan search
 * analyses up to max_plans turns, each about /analyze-turn's estimate of the request with the
 * plan's orders (one per pair at most, so the board's borders bound them): any search goes to
 * the worker pool.
 */
uint64_t cbd_api_plan_turn_cost(const cbd_config *cfg, const json_t *request) {
    const json_t *m = json_object_get(request, "max_plans");
    double plans = json_is_integer(m) && json_integer_value(m) > 0
                       ? (double)json_integer_value(m)
                       : (double)CBD_PLAN_DEFAULT_MAX_PLANS;
    plans = plans < CBD_PLAN_MAX_PLANS ? plans : CBD_PLAN_MAX_PLANS;
    /* A small max_plans does not make a search cheap (max_plans 1 once held an
     * HTTP thread): the count, the bounds, the seeds and the fronts' runs come first. The search is
     * charged to the budget throughout, so an inline attempt would be handed back at the
     * inline slice anyway; the estimate sends it to a worker at once. */
    plans = plans > CBD_PLAN_DEFAULT_MAX_PLANS ? plans : CBD_PLAN_DEFAULT_MAX_PLANS;
    double one = (double)cbd_api_analyze_turn_cost(cfg, request) + 4.0 * 60000.0;
    double cost = (double)CBD_COST_BASE_NS + plans * one;
    return cost < 1e18 ? (uint64_t)cost : UINT64_C(1000000000000000000);
}
