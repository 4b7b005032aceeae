/*
 * The plan search is anytime on the request's own stops (W47): when the answer deadline (the
 * budget's progress callback says CBD_BUDGET_DEADLINE) or the request's work budget ends the
 * search, cbd_plan_search answers the best plan valued so far, not proven, stopped_by "deadline"
 * or "budget", with the budget on its reserve (budget.h) to write the answer; an abandon (the
 * client gone, the server stopping: CBD_BUDGET_CANCELLED) still ends it with CBD_ERR_BUDGET.
 * Counts, not time: the callback says stop at its Nth check, and checks come once every
 * CBD_BUDGET_PROGRESS_UNITS units of work charged, so the same stop comes at the same plan.
 *
 * The board: a star (one own territory of 5 armies beside 12 goals of 6-11 armies, income 108,
 * luck 0.16, `expected`), whose whole space no search covers (at luck 1 for a first plan that
 * costs more than a check's interval); the greedy split (W47) is the
 * test's own (plan_greedy_split.h), valued by cbd_turn_analyze.
 */
#include <criterion/criterion.h>

#include "plan_greedy_split.h"
#include "stopper.h"

/* One own territory (5 armies) beside k goals of 6-11 armies, income 9 a goal: too little to
 * take every goal surely, so that no plan is worth the most a plan may be. */
static void star(gboard *b, size_t k, double luck) {
    board_init(b, CBD_PLAN_EXPECTED, luck);
    uint32_t hub = add(b, ME, 5);
    for (size_t i = 0; i < k; i++) {
        uint32_t g = add(b, i % 2 ? ENEMY : CBD_TURN_NEUTRAL, 6 + i % 6);
        border(b, hub, g);
        b->goals[b->n_goals++] = g;
    }
    b->income = 9 * k;
    finish(b);
}

/* The reserve the tests give the answer: a tenth of a second of work. */
#define RESERVE (100 * CBD_WORK_UNITS_PER_MS)

static cbd_status search(const gboard *b, cbd_budget *budget, cbd_plan_result *r) {
    static gboard copy; /* (turn_of reads the board's arrays, which outlive the call) */
    copy = *b;
    cbd_turn t = turn_of(&copy);
    cbd_plan_request req = {.player = ME,
                            .income = copy.income,
                            .n_goals = copy.n_goals,
                            .goals = copy.goals,
                            .objective = copy.objective,
                            .max_plans = 2000,
                            .max_work = UINT64_MAX};
    cbd_turn_limits lim = limits();
    cbd_turn_error err;
    return cbd_plan_search(&t, &req, &lim, budget, r, &err);
}

static double greedy_value(const gboard *b) {
    static cbd_turn_order orders[2 * MAX_T];
    size_t n = greedy_orders(b, orders);
    return value_of(b, orders, n);
}

/* The deadline at the 8th check (about 8 ms of work, the splits valued, the search under way):
 * the best plan so far, at least the greedy split's, its value that of its own orders. */
Test(plan_anytime_core, the_deadline_answers_the_best_plan_so_far) {
    static gboard b;
    star(&b, 12, 0.16);
    double greedy = greedy_value(&b);
    cbd_budget budget;
    cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    stopper s = {0, 8, CBD_BUDGET_DEADLINE};
    cbd_budget_set_progress(&budget, stop_at, &s);
    cbd_budget_set_reserve(&budget, RESERVE);
    cbd_plan_result r;
    cr_assert_eq(search(&b, &budget, &r), CBD_OK);
    printf("deadline at check 8: value %.8f (greedy %.8f), %llu plans, %u checks\n", r.best.value,
           greedy, (unsigned long long)r.plans_evaluated, s.checks);
    cr_expect_not(r.optimal);
    cr_expect_eq(r.stopped_by, CBD_PLAN_STOP_DEADLINE);
    cr_expect_geq(r.best.value, greedy - 1e-9, "%.12f below the greedy split %.12f", r.best.value,
                  greedy);
    cr_expect_lt(r.plans_evaluated, 2000, "the deadline, not max_plans, ended it");
    cr_expect_leq(fabs(value_of(&b, r.best.orders, r.best.n_orders) - r.best.value), 1e-9);
    /* on its reserve: the deadline stops it no more, the answer's analysis is still to make */
    cr_expect(cbd_budget_answering(&budget));
    cr_expect_eq(cbd_budget_stop_reason(&budget), CBD_BUDGET_DEADLINE);
    cr_expect(cbd_charge(&budget, CBD_BUDGET_PROGRESS_UNITS * 2));
    cbd_budget_end_reserve(&budget);
    cr_expect_eq(budget.stopped, CBD_BUDGET_DEADLINE);
    cbd_plan_result_free(&r);
}

/* The request's own work budget: the search's cap is what the request has left (max_work is
 * more), so its end is the request's: "budget", the best plan so far. 20 ms of work: the splits
 * (each one analysis) fit, the search does not. */
Test(plan_anytime_core, the_request_budget_answers_the_best_plan_so_far) {
    static gboard b;
    star(&b, 12, 0.16);
    double greedy = greedy_value(&b);
    cbd_budget budget;
    cbd_budget_init(&budget, 20 * CBD_WORK_UNITS_PER_MS, SIZE_MAX);
    cbd_budget_set_reserve(&budget, RESERVE);
    cbd_plan_result r;
    cr_assert_eq(search(&b, &budget, &r), CBD_OK);
    printf("work budget 20 ms: value %.8f (greedy %.8f), %llu plans\n", r.best.value, greedy,
           (unsigned long long)r.plans_evaluated);
    cr_expect_not(r.optimal);
    cr_expect_eq(r.stopped_by, CBD_PLAN_STOP_BUDGET);
    cr_expect_geq(r.best.value, greedy - 1e-9);
    cr_expect_eq(cbd_budget_stop_reason(&budget), CBD_BUDGET_WORK);
    cr_expect(cbd_budget_answering(&budget));
    cr_expect_leq(budget.work_limit, budget.work_spent + RESERVE);
    cbd_plan_result_free(&r);
}

/* Without a reserve a stop is final, as for every other computation: CBD_ERR_BUDGET, the budget
 * stopped as it was (the deadline: a 504 above). */
Test(plan_anytime_core, without_a_reserve_the_deadline_is_final) {
    static gboard b;
    star(&b, 12, 0.16);
    cbd_budget budget;
    cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    stopper s = {0, 8, CBD_BUDGET_DEADLINE};
    cbd_budget_set_progress(&budget, stop_at, &s);
    cbd_plan_result r;
    cr_expect_eq(search(&b, &budget, &r), CBD_ERR_BUDGET);
    cr_expect_eq(budget.stopped, CBD_BUDGET_DEADLINE);
    cr_expect_not(cbd_budget_answering(&budget));
}

/* An abandon (the client gone, the server stopping) ends the search with nothing to answer,
 * the reserve unused, whether it comes at the first checks or mid-search. */
Test(plan_anytime_core, an_abandon_is_never_answered) {
    static gboard b;
    star(&b, 12, 0.16);
    const unsigned at[] = {1, 8};
    for (size_t i = 0; i < 2; i++) {
        cbd_budget budget;
        cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
        stopper s = {0, at[i], CBD_BUDGET_CANCELLED};
        cbd_budget_set_progress(&budget, stop_at, &s);
        cbd_budget_set_reserve(&budget, RESERVE);
        cbd_plan_result r;
        cr_expect_eq(search(&b, &budget, &r), CBD_ERR_BUDGET, "abandon at check %u", at[i]);
        cr_expect_eq(budget.stopped, CBD_BUDGET_CANCELLED, "abandon at check %u", at[i]);
        cr_expect_not(cbd_budget_answering(&budget));
        cr_expect_null(r.best.orders);
    }
}

/* The deadline at the first check, inside the greedy split's analysis (at luck 1 every battle's
 * survivors come home to the hub, whose states multiply: one analysis is some 100 ms of work):
 * not one plan was valued, so the request stops for good on the deadline (a 504 above), its
 * reserve unused. */
Test(plan_anytime_core, a_deadline_before_any_plan_is_final) {
    static gboard b;
    star(&b, 12, 1.0);
    cbd_budget budget;
    cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    stopper s = {0, 1, CBD_BUDGET_DEADLINE};
    cbd_budget_set_progress(&budget, stop_at, &s);
    cbd_budget_set_reserve(&budget, RESERVE);
    cbd_plan_result r;
    cbd_status st = search(&b, &budget, &r);
    printf("deadline at check 1: status %d, %u checks\n", (int)st, s.checks);
    cr_expect_eq(st, CBD_ERR_BUDGET);
    cr_expect_eq(budget.stopped, CBD_BUDGET_DEADLINE);
}
