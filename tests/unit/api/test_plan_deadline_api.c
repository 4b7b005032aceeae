/*
 * /plan-turn answers its best plan so far when the answer deadline or the request's own work
 * budget ends its search (W47): a 200, `optimal` false, `stopped_by` "deadline" or "budget",
 * the answer written within the reserve past the stop; an abandon (the client gone, the server
 * stopping) is refused in the caller's words; the other endpoints keep the deadline's 504. The
 * deadline is the progress callback's word at its Nth check, as a worker's job says it
 * (src/http/offload.c): counts of work, not time. The board: plan_grid.h's 4 x 4 grid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "costly_requests.h"
#include "plan_grid.h"
#include "stopper.h"

/* The stopping server's refusal, as offload.c's refuse_stopped gives it. */
static bool refuse(void *arg, cbd_problem *problem) {
    (void)arg;
    cbd_problem_init(problem);
    cbd_problem_set(problem, 503, "The service is stopping; retry on another replica.");
    return true;
}

typedef struct {
    bool answered; /* false: handed back */
    int status;
    json_t *doc;
} outcome;

/* `body` at `path` as a worker answers it (the config's full budget, or `work_limit` units when
 * not 0), its progress callback `s` (may be NULL). */
static outcome run(const char *path, const char *body, stopper *s, uint64_t work_limit,
                   bool hand_back) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cbd_api_request req;
    cbd_api_reply reply = {0};
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply), "%s", reply.body);
    cbd_api_limits limits = cbd_api_full_limits(&cfg);
    limits.work_limit = work_limit > 0 ? work_limit : limits.work_limit;
    limits.hand_back = hand_back;
    limits.progress = s ? stop_at : NULL;
    limits.progress_arg = s;
    limits.refuse_cancelled = refuse;
    outcome o = {cbd_api_answer_within(&req, &cfg, &limits, &reply), 0, NULL};
    if (!o.answered) {
        cbd_api_request_release(&req);
        return o;
    }
    o.status = reply.status;
    o.doc = json_loadb(reply.body, reply.body_len, 0, NULL);
    cr_assert_not_null(o.doc, "%s", reply.body);
    cbd_api_reply_free(&reply);
    return o;
}

static const char *stopped_by(const json_t *doc) {
    const char *by = json_string_value(json_object_get(doc, "stopped_by"));
    return by ? by : "-";
}

/* The deadline at the 3rd check (the splits valued, the search under way): the best plan so
 * far, at least the greedy split's (max_plans 1 answers that split alone,
 * test_plan_stop_api.c). */
Test(plan_deadline_api, the_deadline_answers_the_best_plan_so_far) {
    char *one = grid_body(1), *body = grid_body(100000);
    outcome split = run("/plan-turn", one, NULL, 0, false);
    cr_assert_eq(split.status, 200);
    stopper s = {0, 3, CBD_BUDGET_DEADLINE};
    outcome o = run("/plan-turn", body, &s, 0, false);
    cr_assert_eq(o.status, 200, "%d", o.status);
    double v = json_number_at(o.doc, "value"), floor = json_number_at(split.doc, "value");
    printf("deadline at check 3: %s, value %.8g (greedy split %.8g), %.0f plans, %u checks\n",
           stopped_by(o.doc), v, floor, json_number_at(o.doc, "plans_evaluated"), s.checks);
    cr_expect(json_is_false(json_object_get(o.doc, "optimal")));
    cr_expect_str_eq(stopped_by(o.doc), "deadline");
    cr_expect_geq(v, floor);
    cr_expect_not_null(json_object_get(o.doc, "analysis"));
    json_decref(o.doc);
    json_decref(split.doc);
    free(one);
    free(body);
}

/* The request's own work budget, 5 ms of units (an HTTP thread's slice, not handed back): the
 * search's share (a quarter of server.work_budget_ms) is more than the request has, so the
 * request's end is the search's: "budget", a 200. Handed back, the same request goes on to a
 * worker instead of answering the slice's plan. */
Test(plan_deadline_api, the_request_budget_answers_or_hands_back) {
    char *body = grid_body(100000);
    outcome o = run("/plan-turn", body, NULL, 5 * CBD_WORK_UNITS_PER_MS, false);
    cr_assert(o.answered);
    cr_assert_eq(o.status, 200, "%d", o.status);
    printf("work budget 5 ms: %s, value %.8g, %.0f plans\n", stopped_by(o.doc),
           json_number_at(o.doc, "value"), json_number_at(o.doc, "plans_evaluated"));
    cr_expect(json_is_false(json_object_get(o.doc, "optimal")));
    cr_expect_str_eq(stopped_by(o.doc), "budget");
    json_decref(o.doc);
    outcome back = run("/plan-turn", body, NULL, 5 * CBD_WORK_UNITS_PER_MS, true);
    cr_expect_not(back.answered, "handed back to a worker");
    free(body);
}

/* An abandon at the 3rd check: the caller's refusal (the stopping server's 503), no plan. */
Test(plan_deadline_api, an_abandon_is_refused_not_answered) {
    char *body = grid_body(100000);
    stopper s = {0, 3, CBD_BUDGET_CANCELLED};
    outcome o = run("/plan-turn", body, &s, 0, false);
    cr_expect_eq(o.status, 503, "%d", o.status);
    cr_expect_null(json_object_get(o.doc, "orders"));
    json_decref(o.doc);
    free(body);
}

/* /analyze-turn has no answer short of its whole analysis: the deadline is its 504. */
Test(plan_deadline_api, other_endpoints_keep_the_504) {
    char *body = costly_turn_chain_neutral();
    stopper s = {0, 3, CBD_BUDGET_DEADLINE};
    outcome o = run("/analyze-turn", body, &s, 0, false);
    cr_expect_eq(o.status, 504, "%d", o.status);
    json_decref(o.doc);
    free(body);
}
