#ifndef COMBATD_WARAPP_PLAN_H
#define COMBATD_WARAPP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/status.h"
#include "combatd/warapp_turn.h"

/*
 * Plans for a War.app turn (docs/rules.md W31): a player's deploys and attack/transfer orders,
 * searched for the highest value, each plan's value computed exactly by cbd_turn_analyze of the
 * board, the plan and the other players' orders.
 *
 * The plan space (W31): deploys of whole armies onto the territories the player owns at the
 * start, totalling the income; attack/transfer orders from a territory the player owns at the
 * start to one it borders on the board's map (W24), whole armies >= 1, at most one order per
 * (from, to), the orders from a territory sending in total at most what may move from it after
 * the deploys (W14.2: its armies and deploys, less the guard of W7), in a listed order.
 *
 * A plan's turn (cbd_plan_turn_of) lists the plan's deploys (in territory order), then its
 * attack/transfer orders in the plan's order, then the board's own orders (the other players'),
 * and for CBD_PLAN_ALL as goals (W16) every goal territory with the player as its owner, in the
 * request's order (none for CBD_PLAN_EXPECTED, whose value reads each territory's owner): so
 * under `listed` the plan's orders run first, and /analyze-turn of that turn answers the
 * plan's value.
 *
 * Implemented in src/core/warapp/plan/: warapp_plan_search.c (cbd_plan_search),
 * warapp_plan_greedy.c (the plain splits, W47), warapp_plan_front.c and warapp_plan_split.c (by
 * fronts), warapp_plan.c (one front's run, cbd_plan_turn_of, cbd_plan_value) and
 * warapp_plan_eval.c (a plan's evaluation, cbd_plan_most).
 */

typedef enum {
    CBD_PLAN_ALL = 0,      /* the chance that every goal holds (W16's goals probability) */
    CBD_PLAN_EXPECTED = 1, /* the expected number of goal territories the player owns */
    /* W32: the expected sum of the values of the request's bonuses the player owns whole */
    CBD_PLAN_INCOME = 2,
    /* W48: the player's standing after the turn against the strongest other player, the
     * weighted mean over the scenarios of the others' orders (W49; warapp_plan_position.h) */
    CBD_PLAN_POSITION = 3,
} cbd_plan_objective;

/* W49: one guess of the other players' orders, run after the board's own (CBD_PLAN_POSITION). */
typedef struct {
    double weight; /* > 0; the scenarios' weights are divided by their sum */
    size_t n_orders;
    const cbd_turn_order *orders;
} cbd_plan_scenario;

/*
 * What ended a search before it proved its plan or searched its whole space: the
 * answer is then the best plan valued so far. Where several limits ended parts of the search
 * (one front's run its plans, another its work), the highest of them is named; a request that
 * searches again with that one raised searches further. The enum's order is that ranking.
 */
typedef enum {
    CBD_PLAN_STOP_NONE = 0,      /* proven optimal, or the whole space searched */
    CBD_PLAN_STOP_MAX_PLANS = 1, /* max_plans: the plans that may be analysed */
    CBD_PLAN_STOP_WORK = 2,      /* max_work: the search's share of the work */
    CBD_PLAN_STOP_BUDGET = 3,    /* the request's own work budget */
    CBD_PLAN_STOP_DEADLINE = 4,  /* the budget's progress callback (the answer deadline) */
    CBD_PLAN_STOP_MEMORY = 5,    /* the request's memory */
} cbd_plan_stop;

/* The stop's name in answers ("max_plans", "work", ...); NULL for CBD_PLAN_STOP_NONE. */
const char *cbd_plan_stop_name(cbd_plan_stop stop);

/* Up to this many next-best plans are kept beside the best. */
#define CBD_PLAN_ALTERNATIVES 3

typedef struct {
    cbd_turn_player player;
    uint64_t income;
    size_t n_goals;
    const uint32_t *goals; /* territory indices, distinct: the player should own each at the end */
    cbd_plan_objective objective;
    uint64_t max_plans; /* plans evaluated (analysed) at most, >= 1 */
    /*
     * The search's work (budget.h units). The search stops where this is spent, whatever the
     * request's own budget says, so that the same request searches the same plans and answers
     * the same bytes; the work is charged to the request's budget too, whose own stops (its
     * work, its deadline) end the search as they come.
     */
    uint64_t max_work;
    /* CBD_PLAN_INCOME: the bonuses valued (W32); goals then lists every territory of them, so
     * that the fronts and the seeds know where the value lies. A bonus spanning fronts joins
     * them into one (W35). */
    size_t n_bonuses;
    const cbd_turn_bonus *bonuses;
    /* CBD_PLAN_POSITION (W48, W49): bonuses are every bonus of the board, goals the territories
     * the search aims at (cbd_plan_position_goals), and the others' orders one scenario each
     * (at least one; the board's own orders run in every scenario). */
    size_t n_scenarios;
    const cbd_plan_scenario *scenarios;
    uint64_t base_income; /* W48: every player's income before its bonuses */
} cbd_plan_request;

typedef struct {
    size_t n_orders;
    cbd_turn_order *orders; /* deploys (territory order), then attack/transfers in plan order */
    double value;
} cbd_plan;

typedef struct {
    cbd_plan best;
    size_t n_alternatives;
    cbd_plan alternatives[CBD_PLAN_ALTERNATIVES]; /* next-best first, each with other orders */
    /* No plan of W31's space has a higher value: the whole space was searched, by evaluating
     * each plan or by bounding it below the plans kept. */
    bool optimal;
    uint64_t plans_evaluated;
    uint64_t plans_bounded;   /* plans left out by a bound, without their analysis */
    size_t fronts;            /* W34: the fronts holding the player's territories */
    cbd_plan_stop stopped_by; /* CBD_PLAN_STOP_NONE when optimal */
} cbd_plan_result;

/*
 * Searches the plans of req->player on `board` (a map: board->neighbor_off not NULL; its orders
 * are the other players', none of req->player). First the plain splits (W47: the greedy split
 * and the even split of the income and the movable armies, warapp_plan_greedy.c) are valued on
 * the whole board, so that the answer is never worth less than the greedy split; a split worth
 * the most any plan can be (cbd_plan_most) is the answer, proven. Then the board is split into
 * fronts that cannot interact (W34: warapp_plan_front.c), each searched on its own at the
 * deploy totals the splits' plan gives it and at a grid of totals (warapp_plan_split.c), the
 * income split across them by an exact knapsack over their value curves, their values combined
 * (a sum for `expected`, a product for `all`). Within a front, small spaces are enumerated whole
 * (orders that touch disjoint territories in one order only, generated so, never by walking n!
 * orderings), with plans bounded out by one-battle odds; larger ones by an anytime local search
 * (the splits, seeds, climbs, kicks and restarts) that goes on until max_plans or max_work ends
 * it, answering the best found with optimal false. Whatever ends the search, the best plan
 * valued so far is the answer. optimal is true when every front's search was proven and the
 * income's split exact (an income of at most 16, or one front taking it all), or the value is
 * the most any plan can be. Every step is charged to `budget`, whose progress callback (a
 * deadline) stops it inside an analysis too. Deterministic. When `budget` has an answer's
 * reserve (cbd_budget_set_reserve), its deadline and its work limit end the search with the
 * best plan so far (stopped_by CBD_PLAN_STOP_DEADLINE, CBD_PLAN_STOP_BUDGET), the budget left
 * on its reserve for the caller to write the answer; without one, or for an abandon
 * (CBD_BUDGET_CANCELLED), they end it with CBD_ERR_BUDGET.
 *
 * The plan's possible orders may be more than limits->max_orders: a plan whose turn passes the
 * core's limits is left out. CBD_ERR_INVALID (err: CBD_TURN_ERR_TERRITORY for a territory of
 * the player given as a distribution, W23, whose armies a plan must know; CBD_TURN_ERR_GOAL,
 * CBD_TURN_ERR_ORDER for an order of the player; CBD_TURN_ERR_SIZE when the player owns no
 * territory), CBD_ERR_BUDGET when the request's budget stops it before any plan was valued, or
 * the error of the first plan's analysis when not even it can be evaluated. *out's orders come
 * from `budget` until cbd_plan_result_free.
 */
cbd_status cbd_plan_search(const cbd_turn *board, const cbd_plan_request *req,
                           const cbd_turn_limits *limits, cbd_budget *budget, cbd_plan_result *out,
                           cbd_turn_error *err);

void cbd_plan_result_free(cbd_plan_result *r);

/*
 * A plan's turn: *out is board with `orders` (room for plan->n_orders + board->n_orders) holding
 * the plan's orders then the board's, and `goals` (room for req->n_goals) the goal territories
 * owned by the player (for CBD_PLAN_ALL only).
 */
void cbd_plan_turn_of(const cbd_turn *board, const cbd_plan_request *req, const cbd_plan *plan,
                      cbd_turn_order *orders, cbd_turn_goal *goals, cbd_turn *out);

/* A plan's value from its turn's analysis (the goals probability, or the sum of the player's
 * chances to own each goal territory, in goal order; for CBD_PLAN_INCOME the sum in bonus
 * order of each bonus's value times its chance, read from a->bonus_owner, which
 * cbd_turn_analyze_bonuses filled for the turn's bonuses, the request's being those). */
double cbd_plan_value(const cbd_plan_request *req, const cbd_turn_analysis *a);

/* The most any plan may be worth: 1 for `all`, the goals for `expected`, the sum of the
 * positive values for `income`. */
double cbd_plan_most(const cbd_plan_request *req);

#endif
