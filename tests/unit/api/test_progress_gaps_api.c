/*
 * A worker's job stops at its progress check (its deadline, its client gone, the server
 * stopping), which the budget makes once per CBD_BUDGET_PROGRESS_UNITS (2^20) units charged.
 * A step charged whole before it runs (a sort of millions of points, a state table's rehash or
 * clear, a step's estimate over every state, the cache misses of a step charged after it) ran
 * 15-57 ms of CPU between two checks in bench_budget. Charged in pieces as they run, no two
 * checks are more than 3 · 2^20 units apart: 2^20 for the interval, up to 2^20 for the piece
 * that crosses it and room for the small charges that stay whole. Counted in units, not in time:
 * the units charged between two checks, read from the request's budget as it runs
 * (cbd_api_limits.report), over the whole request (its start and end count as checks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "budget_test.h"
#include "costly_requests.h"
#include "progress_gaps.h"

static void expect_checked_throughout(const char *label, const char *path, char *body) {
    int status = 0;
    gap_probe p = run_measured(path, body, &status);
    printf("%s: %d, %llu units, %llu checks, at most %.2f x 2^20 units between two\n", label,
           status, (unsigned long long)p.last, (unsigned long long)p.checks,
           (double)p.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(status, 200, "%s", label);
    cr_expect_gt(p.last, 20 * CBD_BUDGET_PROGRESS_UNITS, "%s: a costly request", label);
    cr_expect_leq(p.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%s: %llu units between two checks",
                  label, (unsigned long long)p.widest);
    free(body);
}

/* Before: 5.9 · 2^20 units at once for the sort of its points, 12 for a table's growth. */
Test(progress_gaps_api, a_battle_then_40_steps) {
    expect_checked_throughout("3000 a side, 40 steps", "/analyze-turn",
                              costly_battle_then_zeros(3000, 40, false, "B"));
}

/* Before: the sort of 10^6 points charged whole; the cache misses of a step past the cache
 * charged after it. */
Test(progress_gaps_api, a_wide_battle_then_10_steps) {
    expect_checked_throughout("6000 a side, 10 steps", "/analyze-turn",
                              costly_battle_then_zeros(6000, 10, false, "B"));
}

/* A request answered with no warm memory: every large block new pages, more than min_fresh
 * units of them charged, and no two checks more than 3 · 2^20 units apart. */
static void expect_checked_on_new_pages(const char *label, const char *path, const char *body,
                                        uint64_t min_fresh) {
    int status = 0;
    gap_probe p = run_measured_with(path, body, NULL, &status);
    printf("%s, new pages: %d, %llu units (%llu of pages), %llu checks, at most %.2f x 2^20 units "
           "between two\n",
           label, status, (unsigned long long)p.last, (unsigned long long)p.last_fresh,
           (unsigned long long)p.checks, (double)p.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(status, 200, "%s", label);
    cr_expect_gt(p.last_fresh, min_fresh, "%s: pages charged", label);
    cr_expect_leq(p.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%s: %llu units between two checks",
                  label, (unsigned long long)p.widest);
}

/* With no warm memory, every large block new pages (CBD_WORK_FRESH_PAGE each): the state
 * tables' hash indexes are charged their pages as they are zeroed (cbd_mem_calloc_paced) and
 * the sort's scratch as its first pass writes it, not whole when they are taken (16.95 · 2^20
 * units at once for the sort's scratch then, 9.78 for a hash index). */
Test(progress_gaps_api, a_wide_battle_then_10_steps_on_new_pages) {
    char *body = costly_battle_then_zeros(6000, 10, false, "B");
    expect_checked_on_new_pages("6000 a side, 10 steps", "/analyze-turn", body,
                                20 * CBD_BUDGET_PROGRESS_UNITS);
    free(body);
}

/* Before: the 5,040 schedules charged at once, and the battle's group as above. */
Test(progress_gaps_api, a_battle_beside_7_players_in_random_order) {
    expect_checked_throughout("4000 a side, 7 players beside", "/analyze-turn",
                              costly_battle_then_zeros(4000, 15, true, "T2"));
}

/* Before: each step's estimate over every state charged at once (some 3.8 · 10^6 units for
 * the 11,880 states of 64 Commanders). */
Test(progress_gaps_api, units_under_the_random_order) {
    expect_checked_throughout("Commanders, 4 players random", "/analyze-turn",
                              costly_turn_units(8, 4, 3, 20, "{\"luck_modifier\": 0.16}",
                                                ", \"move_order\": \"random\""));
}

/* The answer's writing: each territory's distribution summarised and listed (24 units a value,
 * some 4,800 values a territory here, 64 territories) is charged before that territory is
 * written, not all before the answer (some 7 · 2^20 units at once for these 32 battles, 28 for
 * bench_budget's 128, then the writing ran without a check). */
Test(progress_gaps_api, the_answer_of_32_wide_battles) {
    expect_checked_throughout(
        "32 wide battles, 100 points", "/analyze-turn",
        costly_many_battles(32, 2210000, 1300000, 1, ",\"max_distribution_points\":100"));
}

/* A binomial window's buffer (the 2,479,768 bytes of 10^9 at luck 0.2: 606 pages) is paid as its
 * walk writes it, its terms too, not all when it is taken: 5.78 · 2^20 units at once before, then
 * its walk and its faults with no check between. */
Test(progress_gaps_api, a_window_of_1e9_on_new_pages) {
    expect_checked_on_new_pages("1e9 v 1e9 L0.2", "/analyze-attack",
                                "{\"attackers\": 1000000000, \"defenders\": 1000000000, "
                                "\"settings\": {\"luck_modifier\": 0.2}}",
                                10 * CBD_BUDGET_PROGRESS_UNITS);
}

/* The search's prefix sums over the 10^9 defenders' damage (three arrays of 504 pages each) are
 * paid as their two passes write them: 3.02 · 2^20 units at once for the passes and 4.92 for
 * each array's pages before. */
Test(progress_gaps_api, a_graph_against_a_far_fog_on_new_pages) {
    expect_checked_on_new_pages(
        "10 v fog {1e9, 5} L1 graph 20 targets 2", "/analyze-attack",
        "{\"attackers\": 10, \"defenders\": [{\"armies\": 1000000000, \"probability\": 0.5}, "
        "{\"armies\": 5, \"probability\": 0.5}], \"settings\": {\"luck_modifier\": 1}, \"graph\": "
        "{\"from\": 1, \"to\": 20}, \"targets\": [0.25, 0.45]}",
        10 * CBD_BUDGET_PROGRESS_UNITS);
}

/* The random order's 5,040 schedules of 7 players' orders in the battle's group, with no warm
 * memory: their blocks' new pages (631 of them for the 128 orders of a schedule of 5000x5000's)
 * are paid as the permutations fill them, not when they are taken (6.04 · 2^20 units at once). */
Test(progress_gaps_api, the_schedules_of_7_players_on_new_pages) {
    char *body = costly_battle_then_zeros(2, 15, true, "B");
    expect_checked_on_new_pages("2 a side, 7 players in its group", "/analyze-turn", body, 0);
    free(body);
}

/* The survivor distributions' reading, paid as it runs when the budget has room for it (some
 * 546,000 values of two windows at luck 1, read about 4 times each: 8.33 · 2^20 units at once
 * before the reading, then the walk with no check). */
Test(progress_gaps_api, the_survivors_of_1e9_at_luck_1) {
    int status = 0;
    gap_probe p = run_measured("/analyze-attack",
                               "{\"attackers\": 1000000000, \"defenders\": 1000000000, "
                               "\"settings\": {\"luck_modifier\": 1}}",
                               &status);
    printf("1e9 v 1e9 L1: %d, %llu units, %llu checks, at most %.2f x 2^20 units between two\n",
           status, (unsigned long long)p.last, (unsigned long long)p.checks,
           (double)p.widest / (double)CBD_BUDGET_PROGRESS_UNITS);
    cr_expect_eq(status, 200);
    cr_expect_gt(p.last, 10 * CBD_BUDGET_PROGRESS_UNITS, "the reading charged");
    cr_expect_leq(p.widest, 3 * CBD_BUDGET_PROGRESS_UNITS, "%llu units between two checks",
                  (unsigned long long)p.widest);
}

/* /simulate-turn's histograms (one a territory, 128 territories, 1,500 trials of 64 wide
 * battles). The system takes some 0.6 µs of CPU to take back each page of a freed block, so each
 * is freed as its territory is written, between the sorts' charges: all freed after the answer
 * before (8.76 MB between two checks here; bench_budget's 256 territories and 30,000 trials ran
 * 9.5 ms so). And the tables grow together: each growth of a page or more comes after a check,
 * as the heap's first pages are new on a server's first requests and uncharged (1.83 MB grown
 * between two checks before). */
Test(progress_gaps_api, the_histograms_of_64_wide_battles) {
    char *body = costly_many_battles(64, 3800000, 3250000, 1, ",\"trials\":1500,\"seed\":1");
    int status = 0;
    gap_probe p = run_measured("/simulate-turn", body, &status);
    printf("64 wide battles, 1500 trials: %d, %llu checks, at most %zu bytes freed and %zu grown "
           "between two\n",
           status, (unsigned long long)p.checks, p.widest_freed, p.widest_small_growth);
    cr_expect_eq(status, 200);
    cr_expect_gt(p.last, 20 * CBD_BUDGET_PROGRESS_UNITS, "a costly request");
    cr_expect_leq(p.widest_freed, (size_t)2 << 20, "%zu bytes freed between two checks",
                  p.widest_freed);
    cr_expect_leq(p.widest_small_growth, (size_t)512 << 10, "%zu bytes grown between two checks",
                  p.widest_small_growth);
    cr_expect_leq(p.widest, 3 * CBD_BUDGET_PROGRESS_UNITS);
    free(body);
}
