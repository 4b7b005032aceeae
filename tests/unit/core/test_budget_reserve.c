/*
 * The budget's two kinds of stop (budget.h): an abandon (the progress callback's
 * CBD_BUDGET_CANCELLED: the client gone, the server stopping) is final; the work limit and the
 * deadline (CBD_BUDGET_DEADLINE) move a budget that has an answer's reserve onto it, once: the
 * charge that met the stop fails (the computation ends), later charges pass up to the reserve,
 * and the deadline stops it no more.
 */
#include <criterion/criterion.h>

#include <stdint.h>

#include "combatd/budget.h"

static unsigned calls;
static cbd_budget_stop say;

static cbd_budget_stop say_from_second(void *arg) {
    (void)arg;
    return ++calls >= 2 ? say : CBD_BUDGET_RUNNING;
}

#define P CBD_BUDGET_PROGRESS_UNITS

Test(budget_reserve, the_work_limit_moves_onto_the_reserve_once) {
    cbd_budget b;
    cbd_budget_init(&b, 100, SIZE_MAX);
    cbd_budget_set_reserve(&b, 50);
    cr_assert(cbd_charge(&b, 100));
    cr_assert_not(cbd_charge(&b, 10), "the charge that meets the limit fails");
    cr_assert(cbd_budget_answering(&b));
    cr_assert_eq(cbd_budget_stop_reason(&b), CBD_BUDGET_WORK);
    cr_assert_not(cbd_budget_spent(&b));
    cr_assert_eq(b.work_limit, 160); /* 110 spent + 50 */
    cr_assert(cbd_charge(&b, 50), "the answer's charges pass, up to the reserve");
    cr_assert_not(cbd_charge(&b, 1), "past the reserve: final");
    cr_assert_eq(b.stopped, CBD_BUDGET_WORK);
    cr_assert_not(cbd_budget_answering(&b));
}

/* The deadline at the 2nd check: the charge crossing it fails; on the reserve the callback's
 * DEADLINE is past already and stops nothing, an abandon still does. */
Test(budget_reserve, past_the_deadline_only_an_abandon_stops_it) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_progress(&b, say_from_second, NULL);
    cbd_budget_set_reserve(&b, 10 * P);
    calls = 0;
    say = CBD_BUDGET_DEADLINE;
    cr_assert(cbd_charge(&b, P));     /* check 1 */
    cr_assert_not(cbd_charge(&b, P)); /* check 2: the deadline */
    cr_assert_eq(cbd_budget_stop_reason(&b), CBD_BUDGET_DEADLINE);
    cr_assert(cbd_budget_answering(&b));
    cr_assert_eq(b.work_limit, 12 * P);
    cr_assert(cbd_charge(&b, P)); /* check 3 says DEADLINE again: passed */
    cr_assert(cbd_charge(&b, P));
    cr_assert_eq(calls, 4);
    say = CBD_BUDGET_CANCELLED;
    cr_assert_not(cbd_charge(&b, P));
    cr_assert_eq(b.stopped, CBD_BUDGET_CANCELLED);
}

Test(budget_reserve, an_abandon_never_moves_onto_the_reserve) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_progress(&b, say_from_second, NULL);
    cbd_budget_set_reserve(&b, 10 * P);
    calls = 0;
    say = CBD_BUDGET_CANCELLED;
    cr_assert(cbd_charge(&b, P));
    cr_assert_not(cbd_charge(&b, P));
    cr_assert_eq(b.stopped, CBD_BUDGET_CANCELLED);
    cr_assert_not(cbd_budget_answering(&b));
}

/* Without a reserve the deadline is final (every endpoint but /plan-turn: a 504). */
Test(budget_reserve, without_a_reserve_the_deadline_is_final) {
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    cbd_budget_set_progress(&b, say_from_second, NULL);
    calls = 0;
    say = CBD_BUDGET_DEADLINE;
    cr_assert(cbd_charge(&b, P));
    cr_assert_not(cbd_charge(&b, P));
    cr_assert_eq(b.stopped, CBD_BUDGET_DEADLINE);
    cr_assert_not(cbd_charge(&b, 0));
}

/* The reserve's end: a budget on it stops as it had ended (what comes next finds it spent); one
 * that never stopped runs on, with no reserve left for a later stop. */
Test(budget_reserve, its_end_leaves_the_stop_for_what_comes_next) {
    cbd_budget b;
    cbd_budget_init(&b, 100, SIZE_MAX);
    cbd_budget_set_reserve(&b, 50);
    cr_assert_not(cbd_charge(&b, 101));
    cbd_budget_end_reserve(&b);
    cr_assert_eq(b.stopped, CBD_BUDGET_WORK);
    cr_assert_not(cbd_charge(&b, 0));

    cbd_budget_init(&b, 100, SIZE_MAX);
    cbd_budget_set_reserve(&b, 50);
    cr_assert(cbd_charge(&b, 10));
    cbd_budget_end_reserve(&b);
    cr_assert_eq(b.stopped, CBD_BUDGET_RUNNING);
    cr_assert_not(cbd_charge(&b, 100));
    cr_assert_eq(b.stopped, CBD_BUDGET_WORK, "no reserve left: final");
}

/* A computation's own budget stopped (the plan search's meter): cbd_budget_halt stops the
 * request's as its own check would have, once. */
Test(budget_reserve, halt_stops_as_the_check_would) {
    cbd_budget b;
    cbd_budget_init(&b, 1000, SIZE_MAX);
    cbd_budget_set_reserve(&b, 50);
    cr_assert(cbd_charge(&b, 10));
    cbd_budget_halt(&b, CBD_BUDGET_DEADLINE);
    cr_assert(cbd_budget_answering(&b));
    cr_assert_eq(cbd_budget_stop_reason(&b), CBD_BUDGET_DEADLINE);
    cr_assert_eq(b.work_limit, 60);
    cbd_budget_halt(&b, CBD_BUDGET_WORK); /* on the reserve already: nothing */
    cr_assert_eq(cbd_budget_stop_reason(&b), CBD_BUDGET_DEADLINE);
    cbd_budget_halt(&b, CBD_BUDGET_MEMORY); /* not an answerable stop: nothing */
    cr_assert(cbd_budget_answering(&b));
    cbd_budget_halt(NULL, CBD_BUDGET_WORK);
    cr_assert_eq(cbd_budget_stop_reason(NULL), CBD_BUDGET_RUNNING);
}
