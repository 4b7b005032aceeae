/*
 * POST /plan-turn against requests that once ran for seconds to forever, as the server runs
 * them (budget_test.h: a worker's limits or an HTTP thread's inline slice), asserting what
 * they answer and the work units they spend, never the time they take:
 *
 * - 12 and 13 own territories each beside a neutral of its own (12 and 13 fronts, W34), and a
 *   ring of 16 (one front of 16 territories and 32 pairs): a plan, in a few million units,
 *   where the count of the plans once walked n! orderings uncharged;
 * - with max_plans 1 the estimate still sends the search to a worker, and on an HTTP thread it
 *   stops at the inline slice (handed back), never past it;
 * - an income of 999,999,990 (and two fronts sharing 10^9): answered, proven, in a few million
 *   units (the income is split by the fronts' value curves, never one army at a time);
 * - other players' capture-then-onwards orders with multi_attack (4·10^7 armies at 1.708·10^7
 *   at luck 0.05, then 99 % of the stack onwards): a 422 naming the order to reduce at every
 *   work budget, never a 500;
 * - a sweep of work budgets over every board here: 200 or a 422 naming a member, never a 500.
 *
 * The values are worked out by hand in the comments (W1–W6 at 0 % luck).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "budget_test.h"

typedef struct {
    char *p;
    size_t n, cap;
} sbuf;

static void add(sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->n + (size_t)len + 1 > b->cap) {
        b->cap = (b->n + (size_t)len + 1) * 2;
        b->p = realloc(b->p, b->cap);
        cr_assert_not_null(b->p);
    }
    vsnprintf(b->p + b->n, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    b->n += (size_t)len;
}

/* n own territories M<i> of 2 armies, each beside its own neutral N<i> of 1 (and, in a ring,
 * beside M<i+1>); goal: capture N0. */
static char *pairs_body(int n, bool ring, int max_plans, unsigned long long income) {
    sbuf b = {0};
    add(&b, "{\"territories\": {");
    for (int i = 0; i < n; i++) {
        add(&b, "%s\"M%d\": {\"owner\": \"me\", \"armies\": 2, \"neighbors\": [\"N%d\"",
            i ? ", " : "", i, i);
        if (ring) {
            add(&b, ", \"M%d\"", (i + 1) % n);
        }
        add(&b, "]}, \"N%d\": {\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}", i);
    }
    add(&b, "}, \"player\": \"me\", \"income\": %llu, \"goal\": {\"capture\": [\"N0\"]}", income);
    if (max_plans > 0) {
        add(&b, ", \"max_plans\": %d", max_plans);
    }
    add(&b, "}");
    return b.p;
}

/* The other players' capture-then-onwards orders beside a front of the planner's own. */
static const char onwards[] =
    "{\"territories\": {\"M\": {\"owner\": \"me\", \"armies\": 5, \"neighbors\": [\"N\"]}, "
    "\"N\": {\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}, \"X\": {\"owner\": \"x\", "
    "\"armies\": 40000000, \"neighbors\": [\"Y\"]}, \"Y\": {\"owner\": \"y\", \"armies\": "
    "17080000, \"neighbors\": [\"Z\"]}, \"Z\": {\"owner\": \"z\", \"armies\": 1, \"neighbors\": "
    "[]}}, \"orders\": [{\"player\": \"x\", \"from\": \"X\", \"to\": \"Y\", \"armies\": 40000000}, "
    "{\"player\": \"x\", \"from\": \"Y\", \"to\": \"Z\", \"percent\": 0.99}], \"settings\": "
    "{\"luck_modifier\": 0.05, \"multi_attack\": true}, \"player\": \"me\", \"income\": 3, "
    "\"goal\": {\"capture\": [\"N\"]}}";

/* 5 armies beside a territory of 4, income 999,999,990 (W10: 10^9 on the board at most). */
static const char big_income[] =
    "{\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 5, \"neighbors\": [\"B\"]}, "
    "\"B\": {\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}}, \"player\": \"me\", "
    "\"income\": 999999990, \"goal\": {\"capture\": [\"B\"]}}";

/* Two fronts: A (1) beside B (4), C (1) beside D (4); income 999,999,990, expected. */
static const char two_fronts_big_income[] =
    "{\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": [\"B\"]}, "
    "\"B\": {\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}, \"C\": {\"owner\": "
    "\"me\", \"armies\": 1, \"neighbors\": [\"D\"]}, \"D\": {\"owner\": \"neutral\", \"armies\": "
    "4, \"neighbors\": []}}, \"player\": \"me\", \"income\": 999999990, \"objective\": "
    "\"expected\", \"goal\": {\"capture\": [\"B\", \"D\"]}}";

static budget_outcome worker(const char *body) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return budget_answer(&cfg, "/plan-turn", body, false);
}

/* Few enough units that no walk of orderings or of armies one at a time can hide in them. */
#define SMALL_WORK UINT64_C(50000000) /* 5·10^7 units: about 50 ms of the reference core */

/*
 * 12 fronts M<i>–N<i>; only N0's has a goal, the income is 0: the plan's value is the one
 * front's. 2 armies on M0 leave 1 to send (W7); 1 attacker against 1 defender at 0 % luck
 * kills round(0.6) = 1 and is killed by round(0.7) = 1: both wiped out, the attack fails (W5).
 * No plan takes N0: the value is 0, proven (the front's space is 2 plans: no order, or 1 army).
 */
Test(plan_budget, issue36_twelve_separate_pairs_end_in_a_few_units) {
    for (int n = 12; n <= 13; n++) {
        char *body = pairs_body(n, false, 0, 0);
        budget_outcome o = worker(body);
        cr_expect_eq(o.status, 200, "%d pairs: %d", n, o.status);
        cr_expect_float_eq(json_number_at(o.doc, "value"), 0.0, 1e-15);
        cr_expect(json_is_true(json_walk(o.doc, "optimal")), "%d pairs: not proven", n);
        cr_expect_leq(json_number_at(o.doc, "plans_evaluated"), 4);
        cr_expect_lt(o.spent.work_spent, SMALL_WORK, "%d pairs: %llu units", n,
                     (unsigned long long)o.spent.work_spent);
        budget_outcome_free(&o);
        free(body);
    }
}

/* A ring of 16: one front whose space is far past max_plans (every amount of 32 pairs in every
 * order): the anytime search ends at max_plans or its work share, optimal false, well within
 * the request's budget. N0 still cannot fall: armies that arrive on M0 by transfer may not
 * move again (W15), so M0 sends 1 at most (value 0, as above). */
Test(plan_budget, issue36_a_ring_of_sixteen_ends_within_the_budget) {
    char *body = pairs_body(16, true, 0, 0);
    budget_outcome o = worker(body);
    cr_expect_eq(o.status, 200);
    cr_expect_float_eq(json_number_at(o.doc, "value"), 0.0, 1e-15);
    cr_expect(json_is_false(json_walk(o.doc, "optimal")));
    cr_expect_leq(json_number_at(o.doc, "plans_evaluated"), 2000);
    cr_expect_leq(o.spent.work_spent, o.spent.work_limit);
    budget_outcome_free(&o);
    free(body);
}

/* max_plans 1 does not make a search look cheap: the estimate passes server.inline_cost_ns,
 * and run on an HTTP thread anyway the ring is handed back at the inline slice or answered
 * within it, never run past it. */
Test(plan_budget, issue36_max_plans_1_never_runs_past_the_inline_slice) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    uint64_t slice = cbd_work_times(cfg.limits.inline_work_us, CBD_WORK_UNITS_PER_MS / 1000);
    const bool rings[2] = {false, true};
    for (int r = 0; r < 2; r++) {
        char *body = pairs_body(rings[r] ? 16 : 11, rings[r], 1, 0);
        budget_outcome o = budget_answer(&cfg, "/plan-turn", body, true);
        cr_expect_gt(o.estimate, cfg.limits.inline_cost_ns, "ring %d: estimate %llu ns", r,
                     (unsigned long long)o.estimate);
        /* the slice, and at most one step's charge past it (a step is charged before it runs:
         * the first charge that passes the limit stops it) */
        cr_expect_leq(o.spent.work_spent, slice + slice / 2, "ring %d: %llu units", r,
                      (unsigned long long)o.spent.work_spent);
        cr_expect(o.handed_back || o.status == 200, "ring %d: status %d", r, o.status);
        budget_outcome_free(&o);
        free(body);
    }
    /* the ring's 16 on a worker with max_plans 1: one plan */
    char *body = pairs_body(16, true, 1, 0);
    budget_outcome o = budget_answer(&cfg, "/plan-turn", body, false);
    cr_expect_eq(o.status, 200);
    cr_expect_eq(json_number_at(o.doc, "plans_evaluated"), 1);
    cr_expect_lt(o.spent.work_spent, SMALL_WORK);
    budget_outcome_free(&o);
    free(body);
}

/*
 * Income 999,999,990: all of it on A and sent at B. At 0 % luck a attackers against 4
 * defenders kill round(0.6 a) >= 4 for a >= 6 (0.6 · 6 = 3.6 → 4), and 4 defenders kill
 * round(2.8) = 3 < a: the capture is certain, value 1, proven (nothing passes 1). The two
 * fronts' version: each front needs 5 more armies at least (1 + d − 1 >= 6), the income
 * allows both: 2 expected territories, proven.
 */
Test(plan_budget, issue36_an_income_of_a_billion_is_split_by_curves_in_few_units) {
    budget_outcome o = worker(big_income);
    cr_expect_eq(o.status, 200);
    cr_expect_float_eq(json_number_at(o.doc, "value"), 1.0, 1e-15);
    cr_expect(json_is_true(json_walk(o.doc, "optimal")));
    cr_expect_lt(o.spent.work_spent, SMALL_WORK, "%llu units",
                 (unsigned long long)o.spent.work_spent);
    budget_outcome_free(&o);

    o = worker(two_fronts_big_income);
    cr_expect_eq(o.status, 200);
    cr_expect_float_eq(json_number_at(o.doc, "value"), 2.0, 1e-15);
    cr_expect(json_is_true(json_walk(o.doc, "optimal")));
    cr_expect_lt(o.spent.work_spent, SMALL_WORK, "%llu units",
                 (unsigned long long)o.spent.work_spent);
    budget_outcome_free(&o);
}

/* Whether the 422 names a member whose pointer starts with `prefix`. */
static bool names_member(const json_t *doc, const char *prefix) {
    const json_t *errors = json_object_get(doc, "errors");
    for (size_t i = 0; i < json_array_size(errors); i++) {
        const char *p = json_string_value(json_object_get(json_array_get(errors, i), "pointer"));
        if (p && strncmp(p, prefix, strlen(prefix)) == 0) {
            return true;
        }
    }
    return false;
}

/* The other players' battles cost more than a request may spend (or than an analysis takes,
 * 10^8 terms): at every work budget a 422 names their order (the one running when the budget
 * ended, /orders/1: the 99 % onwards from a stack of some 10^4 possible sizes), never a 500,
 * and the planner's own front (M beside N) is searched without them. */
Test(plan_budget, issue36_others_capture_onwards_is_a_422_naming_the_order) {
    const unsigned ms[] = {1, 5, 50, 400, 2000};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        cbd_config cfg;
        cbd_config_defaults(&cfg);
        cfg.limits.work_budget_ms = ms[i];
        budget_outcome o = budget_answer(&cfg, "/plan-turn", onwards, false);
        cr_expect_eq(o.status, 422, "%u ms: %d", ms[i], o.status);
        cr_expect(names_member(o.doc, "/orders"), "%u ms: no /orders member", ms[i]);
        if (o.spent.stopped != CBD_BUDGET_RUNNING) {
            cr_expect(has_error(o.doc, "/orders/1", NULL), "%u ms: not /orders/1", ms[i]);
        }
        cr_expect_leq(o.spent.work_spent, o.spent.work_limit + o.spent.work_limit / 2);
        budget_outcome_free(&o);
    }
}

/* Every board here at work budgets from 1 ms up: a plan or a 422 naming a member. */
Test(plan_budget, issue36_a_spent_budget_is_never_a_500) {
    char *bodies[6] = {pairs_body(12, false, 0, 3),   pairs_body(16, true, 0, 2),
                       pairs_body(16, true, 1, 0),    strdup(big_income),
                       strdup(two_fronts_big_income), strdup(onwards)};
    const unsigned ms[] = {1, 2, 3, 5, 8, 13, 30};
    for (size_t b = 0; b < 6; b++) {
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
            cbd_config cfg;
            cbd_config_defaults(&cfg);
            cfg.limits.work_budget_ms = ms[i];
            budget_outcome o = budget_answer(&cfg, "/plan-turn", bodies[b], false);
            cr_expect(o.status == 200 || o.status == 422, "board %zu at %u ms: %d", b, ms[i],
                      o.status);
            if (o.status == 422) {
                cr_expect(names_member(o.doc, "/"), "board %zu at %u ms: no member", b, ms[i]);
            }
            cr_expect_eq(o.spent.mem_held, 0);
            budget_outcome_free(&o);
        }
        free(bodies[b]);
    }
}

/* The search's analyses reuse their memory from plan to plan (budget.h's
 * cbd_block_cache), so that malloc's heap, whose cost no step charged, is not paid again for
 * each plan. The ring of 16 at max_plans 100 and 1000: 900 plans more take fewer than 900
 * blocks more from the heap (each plan's analysis makes and drops dozens of blocks). */
Test(plan_budget, more_plans_take_no_more_blocks_from_the_heap) {
    budget_outcome o[2];
    const int max_plans[2] = {100, 1000};
    for (int i = 0; i < 2; i++) {
        char *body = pairs_body(16, true, max_plans[i], 0);
        o[i] = worker(body);
        free(body);
        cr_assert_eq(o[i].status, 200);
        cr_assert_eq(json_number_at(o[i].doc, "plans_evaluated"), max_plans[i]);
    }
    printf("ring of 16: %llu blocks from the heap at 100 plans, %llu at 1000\n",
           (unsigned long long)o[0].spent.heap_blocks, (unsigned long long)o[1].spent.heap_blocks);
    cr_expect_gt(o[0].spent.heap_blocks, 0);
    cr_expect_lt(o[1].spent.heap_blocks, o[0].spent.heap_blocks + 900);
    budget_outcome_free(&o[0]);
    budget_outcome_free(&o[1]);
}
