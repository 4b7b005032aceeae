/*
 * cbd_plan_search (W31, W47): the plain splits (warapp_plan_greedy.c) valued first, on the whole
 * board, then the search by fronts (warapp_plan_front.c) with what is left of max_plans and the
 * work; the answer is the better of the two, so that it is never below the greedy split. A split
 * worth the most any plan can be worth ends the search there, proven. When the search's share
 * of the work ends before any run had a plan, the splits' plan is the answer (not proven); only
 * when not one plan could be valued does the budget stop the request.
 */
#include "warapp_plan_internal.h"

#include <string.h>

/* The request against the board: goals on it, the player owning a territory, its territories
 * known (W23), none of the board's orders the player's. */
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
    size_t own = 0;
    for (size_t t = 0; t < b->n_territories; t++) {
        own += b->territories[t].owner == req->player;
        if (b->fog && b->territories[t].owner == req->player && b->fog[t].n > 0) {
            *err = (cbd_turn_error){CBD_TURN_ERR_TERRITORY, t, 0, 0};
            return false;
        }
    }
    if (own == 0) {
        *err = (cbd_turn_error){CBD_TURN_ERR_SIZE, 0, 0, 0};
        return false;
    }
    return true;
}

/* The splits' plan is the answer (the search found nothing better, or ran out of its share
 * before any plan): proven when it is worth the most a plan can be; the search's counts and its
 * stop kept. */
static void answer_splits(cbd_plan_result *out, plan_run *splits) {
    size_t fronts = out->fronts;
    cbd_plan_stop stopped_by = out->stopped_by;
    uint64_t evaluated = out->plans_evaluated, bounded = out->plans_bounded;
    cbd_plan_result_free(out);
    *out = splits->res;
    memset(&splits->res, 0, sizeof splits->res);
    out->fronts = fronts;
    out->stopped_by = stopped_by;
    out->plans_evaluated += evaluated; /* the search's, which found nothing better */
    out->plans_bounded += bounded;
    out->optimal = splits->proven;
}

/* What is left of the request's plans and work for the search after the splits' run. */
static cbd_plan_request rest_of(const cbd_plan_request *req, const plan_run *splits,
                                uint64_t work_spent) {
    cbd_plan_request rest = *req;
    uint64_t used = splits->res.plans_evaluated;
    rest.max_plans = req->max_plans > used ? req->max_plans - used : 0;
    if (rest.max_work != UINT64_MAX) {
        rest.max_work = rest.max_work > work_spent ? rest.max_work - work_spent : 0;
    }
    return rest;
}

/* What ended the search: nothing when the answer is proven; the search's share of
 * the work when no run of the search fitted it; max_plans when the splits used every plan; else
 * the highest of the splits' and the fronts' stops (the fronts' already in out). */
static cbd_plan_stop stop_of(const cbd_plan_result *out, const plan_run *splits, bool search,
                             bool share_spent, uint64_t plans_left, const cbd_budget *budget) {
    if (out->optimal) {
        return CBD_PLAN_STOP_NONE;
    }
    cbd_plan_stop stop = out->stopped_by > splits->stop ? out->stopped_by : splits->stop;
    if (share_spent && stop < CBD_PLAN_STOP_WORK) {
        stop = CBD_PLAN_STOP_WORK;
    }
    cbd_plan_stop answer = cbdp_plan_answer_stop(budget);
    stop = answer > stop ? answer : stop; /* the deadline or the request's work: the last */
    if (!search && plans_left == 0 && stop < CBD_PLAN_STOP_MAX_PLANS) {
        stop = CBD_PLAN_STOP_MAX_PLANS;
    }
    return stop;
}

/* Not one plan was valued: the request stops for good, as what ended it (the deadline: a 504;
 * else the work budget, to raise: a 422), its reserve unused. */
static void stop_unanswered(cbd_budget *budget) {
    cbd_budget_stop why = cbd_budget_stop_reason(budget);
    cbd_budget_mark_stopped(budget, why == CBD_BUDGET_DEADLINE ? why : CBD_BUDGET_WORK, 0);
}

cbd_status cbd_plan_search(const cbd_turn *board, const cbd_plan_request *req,
                           const cbd_turn_limits *limits, cbd_budget *budget, cbd_plan_result *out,
                           cbd_turn_error *err) {
    memset(out, 0, sizeof *out);
    if (!check_request(board, req, err)) {
        return CBD_ERR_INVALID;
    }
    plan_run splits;
    uint64_t before = cbd_budget_steady_work(budget);
    cbd_status st =
        cbdp_plan_run(board, req, NULL, NULL, true, RUN_SPLITS, limits, budget, &splits, err);
    if (st != CBD_OK) {
        return st;
    }
    /* (the steps' work, not the new pages': the same search each time, budget.h) */
    cbd_plan_request rest = rest_of(req, &splits, cbd_budget_steady_work(budget) - before);
    bool search = !(splits.ran && splits.proven) && rest.max_plans > 0 &&
                  cbdp_plan_answer_stop(budget) == CBD_PLAN_STOP_NONE;
    bool share_spent = false;
    st = cbdp_plan_fronts(board, &rest, limits, budget, search,
                          splits.ran ? &splits.res.best : NULL, out, err, &share_spent);
    if (st == CBD_OK && search && !share_spent) {
        cbdp_plan_result_take(req, out, &splits.res);
    } else if (st == CBD_OK && splits.ran) {
        answer_splits(out, &splits);
    } else if (st == CBD_OK && splits.first_error != CBD_OK) {
        /* not one plan could be valued: what made the first one fail is what to reduce */
        if (splits.first_error == CBD_ERR_BUDGET) {
            stop_unanswered(budget);
        }
        *err = splits.first_err;
        st = splits.first_error;
    } else if (st == CBD_OK) {
        /* not one plan could be valued within the search's work: the budget is what to raise */
        stop_unanswered(budget);
        *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        st = CBD_ERR_BUDGET;
    }
    if (st == CBD_OK) {
        out->stopped_by = stop_of(out, &splits, search, share_spent, rest.max_plans, budget);
    }
    cbd_plan_result_free(&splits.res);
    if (st != CBD_OK) {
        cbd_plan_result_free(out);
    }
    return st;
}
