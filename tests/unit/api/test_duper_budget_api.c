/*
 * The Duper endpoints against the request budget, with the costliest legal requests at the
 * default limits (tests/support/duper_costly.h: 2,000 tiles, 8,000 pairs, 64 attacks, range
 * 0). With the default config each one is answered within the work budget and the memory
 * budget, as the budget reports them (limits.report); with a small budget it is a 422 naming
 * the member that drives its cost; an answer past server.max_answer_bytes (4096, the least it
 * may be) is a 422 naming the member that makes it large; and the estimates send the costly
 * ones to the worker pool at once, while on an HTTP thread the meter hands them back.
 */
#include <criterion/criterion.h>

#include "budget_test.h"
#include "duper_costly.h"

static cbd_config defaults(void) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return cfg;
}

/* The answer was a 200 within every budget of cfg. */
static void expect_within(const cbd_config *cfg, const budget_outcome *o) {
    cr_expect_eq(o->status, 200, "%.300s", o->doc ? json_dumps(o->doc, JSON_COMPACT) : "");
    cr_expect_leq(o->spent.work_spent, cbd_api_full_limits(cfg).work_limit);
    cr_expect_eq(o->spent.stopped, CBD_BUDGET_RUNNING);
    cr_expect_leq(o->spent.mem_peak, cfg->limits.memory_budget);
    cr_expect_eq(o->spent.mem_held, 0, "every block is given back with the request");
    cr_expect_leq(o->answer_bytes, cfg->limits.max_answer_bytes);
}

Test(duper_budget, the_costliest_battle_is_a_fixed_few_microseconds) {
    /* One battle read, resolved and written: CBD_WORK_DUPER_BATTLE and twice
     * CBD_WORK_DUPER_BATTLE_JSON, whatever the counts, besides the request's body and answer;
     * no memory of the budget's. */
    char *body = duper_fullest_battle();
    cbd_config cfg = defaults();
    budget_outcome o = budget_answer(&cfg, "/duper/battle", body, false);
    expect_within(&cfg, &o);
    cr_expect_eq(o.spent.work_spent, budget_request_units(body) + CBD_WORK_DUPER_BATTLE +
                                         2 * CBD_WORK_DUPER_BATTLE_JSON);
    cr_expect_eq(json_array_size(json_walk(o.doc, "power/defense/support")), 8);
    budget_outcome_free(&o);
    /* Without a cost estimate it is answered on an HTTP thread, and it fits the inline
     * budget of 1 ms (10^6 units), the smallest work budget and the smallest answer cap. */
    cr_expect_null(cbd_api_find_endpoint("/duper/battle")->cost);
    o = budget_answer(&cfg, "/duper/battle", body, true);
    cr_expect_not(o.handed_back);
    cr_expect_eq(o.status, 200);
    budget_outcome_free(&o);
    cfg.limits.work_budget_ms = 1;
    cfg.limits.max_answer_bytes = 4096;
    o = budget_answer(&cfg, "/duper/battle", body, false);
    expect_within(&cfg, &o);
    budget_outcome_free(&o);
    /* An inline budget of 1 µs (1,000 units) is less than it costs: the meter hands it back. */
    cfg.limits.inline_work_us = 1;
    o = budget_answer(&cfg, "/duper/battle", body, true);
    cr_expect(o.handed_back);
    cr_expect_eq(o.spent.stopped, CBD_BUDGET_WORK);
    free(body);
}

Test(duper_budget, the_costliest_board_battle_ends_within_the_budget) {
    char *body = duper_fullest_board_battle();
    cbd_config cfg = defaults();
    budget_outcome o = budget_answer(&cfg, "/duper/board/battle", body, false);
    expect_within(&cfg, &o);
    cr_expect_eq(json_array_size(json_walk(o.doc, "battles")), COSTLY_ATTACKS);
    /* Every attack ran, each with 8 supporting tiles on each side (D14). */
    for (size_t i = 0; i < COSTLY_ATTACKS; i += 9) {
        char path[64];
        snprintf(path, sizeof path, "battles/%zu/skipped", i);
        cr_expect(json_is_false(json_walk(o.doc, path)), "%s", path);
        snprintf(path, sizeof path, "battles/%zu/support/defense", i);
        cr_expect_eq(json_array_size(json_walk(o.doc, path)), 8, "%s", path);
    }
    cr_expect_eq(json_object_size(json_walk(o.doc, "board/tiles")), COSTLY_TILES);
    cr_expect_eq(json_array_size(json_walk(o.doc, "board/adjacent")), COSTLY_PAIRS);
    /* It reads and writes 2,000 tiles and 8,000 pairs: past 10^6 units (1 ms), far within 2 s
     * and the 128 MiB (the board and its reading hold under 4 MB). */
    cr_expect_gt(o.spent.work_spent, CBD_WORK_UNITS_PER_MS);
    cr_expect_lt(o.spent.mem_peak, 4000000);
    budget_outcome_free(&o);
    free(body);
}

Test(duper_budget, the_costliest_board_battle_past_a_small_budget_names_the_member) {
    char *body = duper_fullest_board_battle();
    cbd_config cfg = defaults();
    /* 1 ms of work: reading 2,000 tiles alone passes it. */
    cfg.limits.work_budget_ms = 1;
    budget_outcome o = budget_answer(&cfg, "/duper/board/battle", body, false);
    budget_expect_422_at(&o, "/board/tiles", "work budget");
    budget_outcome_free(&o);
    /* 1 MiB of memory: the tiles read and the board built from them pass it (the tiles'
     * reading and building cost more than the pairs'). */
    cfg = defaults();
    cfg.limits.memory_budget = 1024 * 1024;
    o = budget_answer(&cfg, "/duper/board/battle", body, false);
    budget_expect_422_at(&o, "/board/tiles", "memory budget");
    cr_expect_eq(o.spent.stopped, CBD_BUDGET_MEMORY);
    budget_outcome_free(&o);
    /* An answer of 4096 bytes: the 64 battles come first and pass it. */
    cfg = defaults();
    cfg.limits.max_answer_bytes = 4096;
    o = budget_answer(&cfg, "/duper/board/battle", body, false);
    budget_expect_422_at(&o, "/attacks", "max_answer_bytes");
    budget_outcome_free(&o);
    free(body);
}

/* 200 NPC tiles of 10^9 larvae around a red tile that attacks one of them: one small battle,
 * then a board of about 17 KB. */
static char *board_past_its_battle(void) {
    costly_buf t = {NULL, 0, 0};
    costly_add(&t, "{\"board\": {\"tiles\": {\"r\": {\"owner\": \"red\", \"units\": "
                   "{\"soldier\": 3}}, ");
    for (int i = 0; i < 200; i++) {
        costly_add(&t, "\"n%d\": {\"owner\": \"npc\", \"units\": {\"larva\": 1000000000}}%s", i,
                   i + 1 < 200 ? ", " : "");
    }
    costly_add(&t, "}, \"adjacent\": [[\"r\", \"n0\"]]}, \"attacks\": [{\"from\": \"r\", "
                   "\"to\": \"n0\"}], \"seed\": 1}");
    return t.p;
}

Test(duper_budget, a_board_past_the_answer_cap_names_the_board) {
    char *body = board_past_its_battle();
    cbd_config cfg = defaults();
    budget_outcome o = budget_answer(&cfg, "/duper/board/battle", body, false);
    expect_within(&cfg, &o);
    cr_expect_gt(o.answer_bytes, 4096);
    budget_outcome_free(&o);
    cfg.limits.max_answer_bytes = 4096;
    o = budget_answer(&cfg, "/duper/board/battle", body, false);
    budget_expect_422_at(&o, "/board", "max_answer_bytes");
    budget_outcome_free(&o);
    free(body);
}

Test(duper_budget, the_costliest_options_end_within_the_budget) {
    /* 1,000 plane tiles on 1,000 targets: 10^6 long-distance options and 8,000 normal ones,
     * each resolved and ranked; the best 1,000 listed. */
    char *body = duper_fullest_board_options(0);
    cbd_config cfg = defaults();
    budget_outcome o = budget_answer(&cfg, "/duper/board/options", body, false);
    expect_within(&cfg, &o);
    cr_expect_eq(json_integer_value(json_walk(o.doc, "count")), 1008000);
    cr_expect(json_is_true(json_walk(o.doc, "truncated")));
    cr_expect_eq(json_array_size(json_walk(o.doc, "options")), 1000);
    /* The best: the last red tile's planes, 4 · (10^6 + 999,000) = 7,996,000, long-distance on
     * the weakest target, o999: level 1 + 999 mod 3 = 1 (buff 1), 9,000,000 − 999 soldiers and
     * as many planes (5 · 8,999,001 = 44,995,005), a fort (7) and 999 red keys at 2 (1,998):
     * 44,997,011, a margin of −37,001,011. (r999's normal attacks meet o992 at best: 8 more
     * attack, 24 more defense.) */
    cr_expect_str_eq(json_string_value(json_walk(o.doc, "options/0/from")), "r999");
    cr_expect_str_eq(json_string_value(json_walk(o.doc, "options/0/to")), "o999");
    cr_expect_str_eq(json_string_value(json_walk(o.doc, "options/0/kind")), "long_distance");
    cr_expect_eq(json_integer_value(json_walk(o.doc, "options/0/margin")), -37001011);
    /* Every option is charged at least a battle and a comparison: over 2 · 10^8 units, in
     * under 2 · 10^9; and only the best 1,000 are held (no more than 4 MB, where the whole
     * list took 152 MB). */
    cr_expect_geq(o.spent.work_spent,
                  (uint64_t)1008000 * (CBD_WORK_DUPER_BATTLE + CBD_WORK_COMPARE));
    cr_expect_lt(o.spent.mem_peak, 4000000);
    /* The estimate routes it to the worker pool, and tracks what it spends (within a factor
     * of 2: it takes every option to be kept). */
    cr_expect_gt(o.estimate, cfg.limits.inline_cost_ns);
    cr_expect_geq(o.estimate, o.spent.work_spent / 2);
    cr_expect_leq(o.estimate, 2 * o.spent.work_spent);
    budget_outcome_free(&o);
    free(body);
}

Test(duper_budget, the_costliest_options_past_a_small_budget_name_the_member) {
    char *body = duper_fullest_board_options(0);
    cbd_config cfg = defaults();
    /* 1 ms: reading the 2,000 tiles passes it. */
    cfg.limits.work_budget_ms = 1;
    budget_outcome o = budget_answer(&cfg, "/duper/board/options", body, false);
    budget_expect_422_at(&o, "/board/tiles", "work budget");
    budget_outcome_free(&o);
    /* 50 ms: the board is read and built, the long-distance search passes it. */
    cfg.limits.work_budget_ms = 50;
    o = budget_answer(&cfg, "/duper/board/options", body, false);
    budget_expect_422_at(&o, "/long_distance_range", "work budget");
    cr_expect_gt(o.spent.work_spent, o.spent.work_limit);
    budget_outcome_free(&o);
    /* 4096 bytes: 1,000 options listed pass it. */
    cfg = defaults();
    cfg.limits.max_answer_bytes = 4096;
    o = budget_answer(&cfg, "/duper/board/options", body, false);
    budget_expect_422_at(&o, "/long_distance_range", "max_answer_bytes");
    budget_outcome_free(&o);
    free(body);
}

Test(duper_budget, the_costly_boards_go_to_the_worker_pool_and_inline_they_are_handed_back) {
    cbd_config cfg = defaults();
    char *bodies[] = {duper_fullest_board_battle(), duper_fullest_board_options(0),
                      duper_fullest_board_options(1)};
    const char *paths[] = {"/duper/board/battle", "/duper/board/options", "/duper/board/options"};
    for (size_t i = 0; i < 3; i++) {
        /* On an HTTP thread the meter stops it at 1 ms of work, whatever the estimate said. */
        budget_outcome o = budget_answer(&cfg, paths[i], bodies[i], true);
        cr_expect_gt(o.estimate, cfg.limits.inline_cost_ns, "%s %zu", paths[i], i);
        cr_expect(o.handed_back, "%s %zu", paths[i], i);
        cr_expect_eq(o.spent.stopped, CBD_BUDGET_WORK);
        cr_expect_eq(o.spent.mem_held, 0);
        /* Its body alone (some 400 KB parsed) passes the limit; the endpoint's first charge
         * then fails, and nothing more is charged. */
        cr_expect_leq(o.spent.work_spent,
                      budget_request_units(bodies[i]) + 2 * cbd_api_inline_limits(&cfg).work_limit,
                      "it stops at the first charge past the limit");
        free(bodies[i]);
    }
}
