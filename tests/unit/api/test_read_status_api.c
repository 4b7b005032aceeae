/*
 * What reading a request came to (cbd_api_read_status, src/api/endpoint_support.c): read whole,
 * refused with every bad member recorded, or out of memory with the 500 recorded, told apart in
 * one place; and the turn reader (cbd_turn_read_request) returning it, so that an unknown member
 * (recorded by cbd_reader_open, which reads on) is a refusal and never a turn read whole; the
 * same for /analyze-attack's reader, the Duper board's, /duper/battle's and /plan-turn's own
 * members'. Each reader's three outcomes: read whole, refused, and out of memory (an allocation
 * failed by this file's allocator, every one in turn, or jansson's note of a failed one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api/api.h"
#include "api/duper/duper_board_json.h"
#include "api/endpoint_support.h"
#include "api/warapp/plan/warapp_plan_json.h"
#include "api/warapp/turn/warapp_turn_json.h"
#include "api/warapp/warapp_analyze_read.h"
#include "json/json_alloc.h"

#include "failing_alloc.h"

/* The four cases a reader's bool and its problem can be in, and a 500 a reader recorded. */
Test(read_status_api, each_case_told_apart) {
    cbd_problem p;
    cbd_problem_init(&p);
    cr_expect_eq(cbd_api_read_status(true, &p), CBD_READ_OK);
    cr_expect_eq(p.status, 0);

    /* false with nothing recorded: memory ran out somewhere that could not say so */
    cbd_problem_init(&p);
    cr_expect_eq(cbd_api_read_status(false, &p), CBD_READ_NO_MEMORY);
    cr_expect_eq(p.status, 500);

    /* an error recorded is a refusal, whether the reader went on (true) or not */
    cbd_problem_init(&p);
    cbd_problem_field(&p, "/foo", "is not a member of this request");
    cr_expect_eq(cbd_api_read_status(true, &p), CBD_READ_INVALID);
    cr_expect_eq(p.status, 422);
    cr_expect_eq(cbd_api_read_status(false, &p), CBD_READ_INVALID);
    cr_expect_eq(p.n_errors, 1);

    /* a 500 a reader recorded itself stays that 500 */
    cbd_problem_init(&p);
    cbd_problem_set(&p, 500, "The service ran out of memory; try again.");
    cr_expect_eq(cbd_api_read_status(false, &p), CBD_READ_NO_MEMORY);
    cr_expect_eq(p.status, 500);
}

static cbd_read_status read_turn(const char *body, cbd_problem *problem) {
    static const char *const keys[] = {CBD_TURN_KEYS, NULL};
    json_t *doc = json_loads(body, 0, NULL);
    cr_assert_not_null(doc, "%s", body);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem_init(problem);
    cbd_reader r;
    cr_assert(cbd_reader_open(&r, doc, "", keys, problem) || problem->status == 422);
    cbd_turn_request q;
    memset(&q, 0, sizeof q);
    cbd_read_status st = cbd_turn_read_request(&r, &cfg.warapp, &q);
    cbd_turn_request_free(&q);
    json_decref(doc);
    return st;
}

/* A turn read whole is CBD_READ_OK; the same turn with an unknown member is CBD_READ_INVALID
 * with the member named (422), not a turn read whole; a bad army count beside it is named too
 * (two errors). */
Test(read_status_api, turn_reader_returns_the_status) {
    const char *good = "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10}, "
                       "\"B\": {\"owner\": \"bob\", \"armies\": 6}}, \"orders\": [{\"player\": "
                       "\"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 9}]";
    char body[512];
    cbd_problem p;
    snprintf(body, sizeof body, "%s}", good);
    cr_expect_eq(read_turn(body, &p), CBD_READ_OK);
    cr_expect_eq(p.status, 0);
    snprintf(body, sizeof body, "%s, \"foo\": 1}", good);
    cr_expect_eq(read_turn(body, &p), CBD_READ_INVALID);
    cr_expect_eq(p.status, 422);
    cr_expect_eq(p.n_errors, 1);
    cr_expect_str_eq(p.errors[0].pointer, "/foo");
    char bad[512];
    snprintf(bad, sizeof bad, "%s", body);
    char *at = strstr(bad, "\"armies\": 10");
    cr_assert_not_null(at);
    memcpy(at, "\"armies\": -1", strlen("\"armies\": -1"));
    cr_expect_eq(read_turn(bad, &p), CBD_READ_INVALID);
    cr_expect_eq(p.n_errors, 2);
}

static cbd_read_status read_attack(const char *body, cbd_problem *problem) {
    json_t *doc = json_loads(body, 0, NULL);
    cr_assert_not_null(doc, "%s", body);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem_init(problem);
    cbd_analyze_request *q = cbdp_analyze_request_new();
    cr_assert_not_null(q);
    cbd_read_status st = cbdp_analyze_read(&cfg, doc, q, problem);
    cbdp_warapp_battle_free(&q->battle);
    free(q);
    json_decref(doc);
    return st;
}

/* /analyze-attack's reader: 10 against 6 is read whole; with an unknown member it is a
 * refusal naming it, and its cost is not weighed (one error). */
Test(read_status_api, attack_reader_returns_the_status) {
    cbd_problem p;
    cr_expect_eq(read_attack("{\"attackers\": 10, \"defenders\": 6}", &p), CBD_READ_OK);
    cr_expect_eq(p.status, 0);
    cr_expect_eq(read_attack("{\"attackers\": 10, \"defenders\": 6, \"bar\": true}", &p),
                 CBD_READ_INVALID);
    cr_expect_eq(p.status, 422);
    cr_expect_eq(p.n_errors, 1);
    cr_expect_str_eq(p.errors[0].pointer, "/bar");
}

static json_t *parse(const char *body) {
    json_t *doc = json_loads(body, 0, NULL);
    cr_assert_not_null(doc, "%s", body);
    return doc;
}

/* A board of two tiles, one pair and one holder's keys: its reader takes one block for each of
 * the three lists (counted by hand in read_tiles, read_pairs, read_keys). */
#define BOARD                                                                                      \
    "{\"board\": {\"tiles\": {\"a1\": {\"owner\": \"red\", \"units\": {\"soldier\": 2}}, "         \
    "\"b1\": {\"owner\": \"blue\", \"units\": {\"soldier\": 1}}}, \"adjacent\": [[\"a1\", "        \
    "\"b1\"]], \"keys\": {\"red\": {\"blue\": 1}}}"

static cbd_read_status read_board(const char *body, long fail, cbd_problem *problem,
                                  long *allocations) {
    static const char *const keys[] = {"board", NULL};
    json_t *doc = parse(body);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem_init(problem);
    cbd_reader r;
    cr_assert(cbd_reader_open(&r, doc, "", keys, problem) || problem->status == 422);
    cbd_board_read b;
#if FAILING_ALLOCATOR
    failing_alloc_arm(fail);
#endif
    cbd_read_status st = cbdp_board_json_read(&r, &cfg, NULL, &b);
#if FAILING_ALLOCATOR
    *allocations = failing_alloc_disarm();
#else
    (void)fail;
    *allocations = -1;
#endif
    cbdp_board_read_free(&b);
    json_decref(doc);
    return st;
}

/* D13: the board read whole; with an unknown member of the request and a level of 4, a refusal
 * naming both (two errors); and with each of its 3 allocations failed in turn, out of memory
 * with the 500, never a refusal nor a board read whole. */
Test(read_status_api, duper_board_reader_returns_the_status) {
    cbd_problem p;
    long n = 0;
    cr_expect_eq(read_board(BOARD "}", 0, &p, &n), CBD_READ_OK);
    cr_expect_eq(p.status, 0);
    cr_expect_eq(read_board("{\"board\": {\"tiles\": {\"a1\": {\"owner\": \"red\", "
                            "\"level\": 4, \"units\": {\"soldier\": 1}}}}, \"foo\": 1}",
                            0, &p, &n),
                 CBD_READ_INVALID);
    cr_expect_eq(p.status, 422);
    cr_expect_eq(p.n_errors, 2);
    cr_expect_str_eq(p.errors[0].pointer, "/foo");
    cr_expect_str_eq(p.errors[1].pointer, "/board/tiles/a1/level");
#if FAILING_ALLOCATOR
    (void)read_board(BOARD "}", 0, &p, &n);
    cr_assert_eq(n, 3);
    for (long k = 1; k <= n; k++) {
        long seen = 0;
        cr_expect_eq(read_board(BOARD "}", k, &p, &seen), CBD_READ_NO_MEMORY, "allocation %ld", k);
        cr_expect_eq(p.status, 500, "allocation %ld", k);
    }
#endif
}

/* /duper/battle's reader, through its endpoint: 8 soldiers against 5 read whole (an answer);
 * a 0-soldier attack beside an unknown member, a refusal naming both; and a request whose
 * jansson allocation failed, out of memory whatever it reads (json_alloc.h: jansson may have
 * dropped a digit). */
Test(read_status_api, duper_battle_reader_returns_the_status) {
    static const char good[] =
        "{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"soldier\": 8}}}, "
        "\"defense\": {\"player\": \"blue\", \"tile\": {\"level\": 1, \"units\": "
        "{\"soldier\": 5}}}, \"seed\": 7";
    char body[512];
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem p;
    snprintf(body, sizeof body, "%s}", good);
    json_t *doc = parse(body);
    cbd_jw out;
    cbd_jw_init(&out);
    cbd_problem_init(&p);
    cr_expect(cbd_api_duper_battle(&cfg, NULL, doc, &out, &p));
    cr_expect_eq(p.status, 0);
    cbd_jw_discard(&out);
    json_decref(doc);

    snprintf(body, sizeof body, "%s, \"bar\": 1}", good);
    char *at = strstr(body, "\"soldier\": 8");
    cr_assert_not_null(at);
    memcpy(at, "\"soldier\": 0", strlen("\"soldier\": 0"));
    doc = parse(body);
    cbd_jw_init(&out);
    cbd_problem_init(&p);
    cr_expect_not(cbd_api_duper_battle(&cfg, NULL, doc, &out, &p));
    cr_expect_eq(p.status, 422);
    cr_expect_eq(p.n_errors, 2);
    cr_expect_str_eq(p.errors[0].pointer, "/bar");
    cr_expect_str_eq(p.errors[1].pointer, "/attack/tile/units");
    cbd_jw_discard(&out);
    json_decref(doc);

#if FAILING_ALLOCATOR
    snprintf(body, sizeof body, "%s}", good);
    doc = parse(body);
    cbd_json_alloc_reset();
    failing_alloc_arm(1);
    json_t *lost = json_object();
    (void)failing_alloc_disarm();
    cr_assert_null(lost);
    cr_assert(cbd_json_alloc_failed());
    cbd_jw_init(&out);
    cbd_problem_init(&p);
    cr_expect_not(cbd_api_duper_battle(&cfg, NULL, doc, &out, &p));
    cr_expect_eq(p.status, 500);
    cr_expect_eq(p.n_errors, 0);
    cbd_jw_discard(&out);
    json_decref(doc);
    cbd_json_alloc_reset();
#endif
}

/* docs/api/plan.md's example (W31): alice's A (4) borders bob's B (2) and the neutral C (2). */
#define PLAN_TURN                                                                                  \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4, \"neighbors\": [\"B\", "      \
    "\"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 2, \"neighbors\": [\"C\"]}, \"C\": "         \
    "{\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": []}}, \"orders\": [], "

static cbd_read_status read_plan(const char *body, long fail, cbd_problem *problem,
                                 long *allocations) {
    static const char *const keys[] = {CBD_TURN_KEYS, CBD_PLAN_KEYS, NULL};
    json_t *doc = parse(body);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem_init(problem);
    cbd_reader r;
    cr_assert(cbd_reader_open(&r, doc, "", keys, problem));
    cbd_turn_request q;
    cr_assert_eq(cbd_turn_read_request(&r, &cfg.warapp, &q), CBD_READ_OK, "%s", body);
    cbd_plan_read pr;
#if FAILING_ALLOCATOR
    failing_alloc_arm(fail);
#endif
    cbd_read_status st = cbdp_plan_read_request(&r, &cfg.warapp, &q, &pr);
#if FAILING_ALLOCATOR
    *allocations = failing_alloc_disarm();
#else
    (void)fail;
    *allocations = -1;
#endif
    cbdp_plan_read_free(&pr);
    cbd_turn_request_free(&q);
    json_decref(doc);
    return st;
}

/* /plan-turn's own members: alice with income 5 and a goal of B and C read whole; bob's goal of
 * an unknown territory Z with a max_plans of 0, a refusal naming both; and with each of the
 * reader's 2 allocations failed in turn (the goals and the bonuses' indices), out of memory
 * with the 500. */
Test(read_status_api, plan_reader_returns_the_status) {
    cbd_problem p;
    long n = 0;
    const char *good = PLAN_TURN "\"player\": \"alice\", \"income\": 5, \"goal\": {\"capture\": "
                                 "[\"B\", \"C\"]}}";
    cr_expect_eq(read_plan(good, 0, &p, &n), CBD_READ_OK);
    cr_expect_eq(p.status, 0);
    cr_expect_eq(read_plan(PLAN_TURN "\"player\": \"alice\", \"income\": 5, \"goal\": "
                                     "{\"capture\": [\"Z\"]}, \"max_plans\": 0}",
                           0, &p, &n),
                 CBD_READ_INVALID);
    cr_expect_eq(p.status, 422);
    cr_expect_eq(p.n_errors, 2);
    cr_expect_str_eq(p.errors[0].pointer, "/max_plans");
    cr_expect_str_eq(p.errors[1].pointer, "/goal/capture/0");
#if FAILING_ALLOCATOR
    (void)read_plan(good, 0, &p, &n);
    cr_assert_eq(n, 2);
    for (long k = 1; k <= n; k++) {
        long seen = 0;
        cr_expect_eq(read_plan(good, k, &p, &seen), CBD_READ_NO_MEMORY, "allocation %ld", k);
        cr_expect_eq(p.status, 500, "allocation %ld", k);
    }
#endif
}
