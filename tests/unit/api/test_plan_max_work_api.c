/*
 * `max_work` on /plan-turn: the search's share of the work in work units, so that a bot asks
 * for "the best plan within this much work" and gets the same plan every time (work units are
 * counted, not timed): two equal requests answer the same bytes, a larger share never lowers the
 * value, the share's end is `stopped_by: "work"`; a share past the request's work budget
 * (server.work_budget_ms) is a 422 at /max_work naming the limit; a share as large as the budget
 * leaves the request's own budget to end the search ("budget", a 200 with the best plan so
 * far). The board: plan_star.h's star of six goals, whose search improves with work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "plan_star.h"

static const char *stopped_by(const json_t *doc) {
    const char *by = json_string_value(json_object_get(doc, "stopped_by"));
    return by ? by : "-";
}

Test(plan_max_work, two_equal_requests_answer_the_same_bytes) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    char *body = star_body(3000000);
    json_t *a = NULL, *b = NULL;
    char *ta = NULL, *tb = NULL;
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &a, &ta), 200, "%s", ta);
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &b, &tb), 200);
    cr_expect_str_eq(ta, tb);
    cr_expect_str_eq(stopped_by(a), "work");
    cr_expect(json_is_false(json_object_get(a, "optimal")));
    printf("max_work 3e6: value %.8g, %.0f plans\n", json_number_at(a, "value"),
           json_number_at(a, "plans_evaluated"));
    json_decref(a);
    json_decref(b);
    free(ta);
    free(tb);
    free(body);
}

/* The answer as a worker gives it, its large blocks from `scratch` (NULL: a scratch of its
 * own, fresh: every block new pages). */
static char *answer_with(const char *body, cbd_scratch *scratch) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/plan-turn");
    cbd_api_request req;
    cbd_api_reply reply = {0};
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply));
    cbd_api_limits limits = cbd_api_full_limits(&cfg);
    cbd_scratch own;
    cbd_scratch_init(&own, limits.mem_limit);
    limits.scratch = scratch ? scratch : &own;
    cr_assert(cbd_api_answer_within(&req, &cfg, &limits, &reply));
    cr_assert_eq(reply.status, 200, "%s", reply.body);
    char *text = strndup(reply.body, reply.body_len);
    cbd_api_reply_free(&reply);
    cbd_scratch_release(&own);
    return text;
}

/* A server that has just started faults its memory in (new pages, charged to the request), one
 * that has answered before has it warm: the share counts the search's steps, not those pages,
 * so both answer the same bytes (a cold server's first search once valued 2 plans where a warm
 * one valued 92). */
Test(plan_max_work, a_cold_and_a_warm_server_answer_the_same_bytes) {
    char *body = star_body(4000000);
    cbd_scratch kept; /* a server's: warm once it has answered */
    cbd_scratch_init(&kept, SIZE_MAX);
    char *cold = answer_with(body, &kept);
    uint64_t first = kept.fresh_bytes;
    char *warm = answer_with(body, &kept);
    printf("new pages: %llu bytes in the first answer, %llu in the second\n",
           (unsigned long long)first, (unsigned long long)(kept.fresh_bytes - first));
    cr_expect_gt(first, kept.fresh_bytes - first, "the second answer found its memory warm");
    cr_expect_str_eq(cold, warm);
    cbd_scratch_release(&kept);
    json_t *doc = json_loads(cold, 0, NULL);
    printf("max_work 4e6, cold and warm: value %.8g, %.0f plans\n", json_number_at(doc, "value"),
           json_number_at(doc, "plans_evaluated"));
    json_decref(doc);
    free(cold);
    free(warm);
    free(body);
}

/* Shares of 10^6 to 1.6·10^7 units (a 2 s budget is 2·10^9): the value never falls as the
 * share grows (2.817 at 10^6, the greedy split's; higher from 4·10^6), and the plans valued
 * never shrink. */
Test(plan_max_work, a_larger_share_never_lowers_the_value) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    double first = -1, last = -1, last_plans = 0;
    for (unsigned long long work = 1000000; work <= 16000000; work *= 4) {
        char *body = star_body(work);
        json_t *doc = NULL;
        cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &doc, NULL), 200);
        double v = json_number_at(doc, "value"), plans = json_number_at(doc, "plans_evaluated");
        printf("max_work %llu: value %.8g, %.0f plans, stopped_by %s\n", work, v, plans,
               stopped_by(doc));
        cr_expect_geq(v, last, "max_work %llu: %.12g below %.12g", work, v, last);
        cr_expect_geq(plans, last_plans, "max_work %llu", work);
        first = first < 0 ? v : first;
        last = v;
        last_plans = plans;
        json_decref(doc);
        free(body);
    }
    cr_expect_gt(last, first + 0.01, "more work found a better plan: %.12g, %.12g", first, last);
}

/* server.work_budget_ms 50: at most 5·10^7 units; one more is a 422 at /max_work that names the
 * limit and the key. */
Test(plan_max_work, past_the_work_budget_is_a_422_naming_the_limit) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.work_budget_ms = 50;
    char *body = star_body(50000001);
    json_t *doc = NULL;
    char *text = NULL;
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &doc, &text), 422, "%s", text);
    cr_expect(has_error(doc, "/max_work", "at most 50000000 work units"), "%s", text);
    cr_expect(has_error(doc, "/max_work", "server.work_budget_ms"), "%s", text);
    json_decref(doc);
    free(text);
    free(body);
    /* 0 is no share: a 422 at it too */
    body = star_body(0);
    char zero[4096];
    snprintf(zero, sizeof zero, "%.*s, \"max_work\": 0}", (int)strlen(body) - 1, body);
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", zero, &doc, &text), 422, "%s", text);
    cr_expect(has_error(doc, "/max_work", "from 1"), "%s", text);
    json_decref(doc);
    free(text);
    free(body);
}

/* server.work_budget_ms 20 and a share of all of it (2·10^7): reading the request took some of
 * the budget, so the request's own budget ends the search before the share: a 200 with the best
 * plan so far, "budget", written within the answer's reserve. */
Test(plan_max_work, the_whole_budget_as_the_share_says_budget) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.work_budget_ms = 20;
    char *body = star_body(20000000);
    json_t *doc = NULL;
    char *text = NULL;
    cr_assert_eq(api_test_run(&cfg, "/plan-turn", body, &doc, &text), 200, "%s", text);
    printf("work_budget_ms 20, max_work 2e7: value %.8g, %.0f plans, stopped_by %s\n",
           json_number_at(doc, "value"), json_number_at(doc, "plans_evaluated"), stopped_by(doc));
    cr_expect_str_eq(stopped_by(doc), "budget");
    cr_expect(json_is_false(json_object_get(doc, "optimal")));
    json_decref(doc);
    free(text);
    free(body);
}
