/*
 * The progress check within a plan search: the search's analyses were charged
 * to the request only when each ended (bench_budget's "8 own of 1e6 in a ring": 178 · 2^20 units
 * between two checks). Relayed to the request's budget at each of the search's own checks
 * (cbd_budget_relay), no two of the request's checks are more than 3 · 2^20 units apart (2^20 for
 * the interval, up to 2^20 for the piece that crosses it and room for the small charges that stay
 * whole), counted as test_progress_gaps_api counts them: the request's work_spent at each check,
 * its start and end counted as checks. No warm memory (its setting up under the sanitizers takes
 * seconds): the steps between two checks are counted without the new pages charged, which the
 * search's analyses charge to the request, and some when a block is taken.
 */
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "costly_requests.h"
#include "progress_gaps.h"

/* `n` own territories of `armies` in a ring, each beside an enemy of as many (bench_budget's
 * costly_plan_turn at a smaller size), `max_plans` plans: each plan's analysis is one exact turn
 * of n battles of about `armies` a side. 2 of 500, one plan: 5.6 · 2^20 units in all, nearly all
 * of them the plan's one analysis, which the request was charged at once (5.5 · 2^20 between two
 * checks before the relay). */
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

Test(progress_gaps_pieces_api, a_plan_search_charged_as_its_analyses_run) {
    char *body = plan_ring(2, 500, 1);
    int status = 0;
    gap_probe p = run_measured_with("/plan-turn", body, NULL, &status);
    printf("plan, a ring of 2: %d, %llu units (%llu of new pages), %llu checks, at most %.2f x "
           "2^20 units of steps between two\n",
           status, (unsigned long long)p.last, (unsigned long long)p.last_fresh,
           (unsigned long long)p.checks,
           (double)p.widest_steps / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(status, 200);
    cr_expect_gt(p.last - p.last_fresh, 4 * CBD_BUDGET_PROGRESS_UNITS, "more than a few pieces");
    cr_expect_leq(p.widest_steps, 3 * CBD_BUDGET_PROGRESS_UNITS, "%llu units between two checks",
                  (unsigned long long)p.widest_steps);
    free(body);
}
