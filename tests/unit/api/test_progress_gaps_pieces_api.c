/*
 * The progress check between the pieces of a step that once was charged whole (issue 43, item
 * 4): the plan search's analyses, charged to the request only when each ended (a plan of the
 * ring below: some 10 · 2^20 units at once; bench_budget's "8 own of 1e6 in a ring": 178), and
 * a fog's mixture, its joined window of millions of slots made and charged at once (10.8 · 2^20
 * units in bench_budget's "1e9 v fog of 500"). Charged as they run, no two of the request's
 * checks are more than 3 · 2^20 units apart (2^20 for the interval, up to 2^20 for the piece that
 * crosses it and room for the small charges that stay whole), counted as
 * test_progress_gaps_api counts them: the request's work_spent at each check, its start and end
 * counted as checks. The scratch is warm (warm_scratch.h): new pages, charged whole when a block
 * is taken, are not what is measured here.
 */
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "costly_requests.h"
#include "duper_costly.h"
#include "progress_gaps.h"

/* `n` own territories of `armies` in a ring, each beside an enemy of as many (bench_budget's
 * costly_plan_turn at a smaller size), `max_plans` plans: each plan's analysis is one exact turn
 * of n battles of about `armies` a side. */
static char *plan_ring(int n, int armies, int max_plans) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\": {");
    for (int i = 0; i < n; i++) {
        costly_add(&b,
                   "%s\"M%d\": {\"owner\": \"me\", \"armies\": %d, \"neighbors\": "
                   "[\"E%d\", \"E%d\", \"M%d\"]}, \"E%d\": {\"owner\": \"bob\", \"armies\": "
                   "%d, \"neighbors\": []}",
                   i ? ", " : "", i, armies, i, (i + 1) % n, (i + 1) % n, i, armies);
    }
    costly_add(&b, "}, \"player\": \"me\", \"income\": %d, \"goal\": {\"capture\": [", armies);
    for (int i = 0; i < n; i++) {
        costly_add(&b, "%s\"E%d\"", i ? ", " : "", i);
    }
    costly_add(&b,
               "]}, \"objective\": \"expected\", \"max_plans\": %d, \"settings\": "
               "{\"luck_modifier\": 0.2}}",
               max_plans);
    return b.p;
}

static gap_probe expect_gaps(const char *label, const char *path, char *body, int want_status) {
    int status = 0;
    gap_probe p = run_measured(path, body, &status);
    printf("%s: %d, %llu units, %llu checks, at most %.2f x 2^20 units between two\n", label,
           status, (unsigned long long)p.last, (unsigned long long)p.checks,
           (double)p.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(status, want_status, "%s", label);
    cr_expect_gt(p.last, 20 * CBD_BUDGET_PROGRESS_UNITS, "%s: a costly request", label);
    cr_expect_leq(p.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%s: %llu units between two checks",
                  label, (unsigned long long)p.widest);
    free(body);
    return p;
}

Test(progress_gaps_pieces_api, a_plan_search_charged_as_its_analyses_run) {
    expect_gaps("plan, a ring", "/plan-turn", plan_ring(4, 100000, 1), 200);
}

/*
 * A Duper board's options as a worker computes them: 1000 red tiles with planes on a board of
 * 2000 (duper_costly.h), range 1. The board is read and built, and the options walked and
 * ranked, each charged as it goes: after the job's first check no two are more than 3 · 2^20
 * units of steps apart. What comes first is charged whole and is no stretch of the job's: the
 * body's parse (CBD_WORK_BODY_BYTE a byte and CBD_WORK_REQUEST, api.c), done on the server's
 * HTTP thread before the job (src/http/request.c), and the new pages of the parsed document's
 * mapped blocks (CBD_WORK_FRESH_PAGE each: a block's pages are charged whole when it is taken,
 * so the steps between two checks are counted here without them). bench_budget's Duper rows:
 * 8.1 and 12.0 · 2^20 units between two checks, those two charges; 1.6-2.7 ms of CPU at most
 * between two checks of the job.
 */
Test(progress_gaps_pieces_api, a_duper_board_read_and_walked_in_pieces) {
    char *body = duper_fullest_board_options(1);
    uint64_t parse = CBD_WORK_BODY_BYTE * (uint64_t)strlen(body) + CBD_WORK_REQUEST;
    int status = 0;
    gap_probe p = run_measured("/duper/board/options", body, &status);
    printf("duper options, range 1: %d, %llu units, %llu checks, the first after %.2f x 2^20 "
           "(the body's %.2f), then at most %.2f x 2^20 of steps between two, %.2f x 2^20 "
           "of new pages in all\n",
           status, (unsigned long long)p.last, (unsigned long long)p.checks,
           (double)p.first / (double)CBD_BUDGET_PROGRESS_UNITS,
           (double)parse / (double)CBD_BUDGET_PROGRESS_UNITS,
           (double)p.widest_steps_after / (double)CBD_BUDGET_PROGRESS_UNITS,
           (double)p.last_fresh / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(status, 200);
    cr_expect_gt(p.last, 20 * CBD_BUDGET_PROGRESS_UNITS, "a costly request");
    cr_expect_gt(p.checks, 10);
    cr_expect_leq(p.first, parse + 3 * CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_leq(p.widest_steps_after, 3 * CBD_BUDGET_PROGRESS_UNITS,
                  "%llu units between two checks", (unsigned long long)p.widest_steps_after);
    free(body);
}
