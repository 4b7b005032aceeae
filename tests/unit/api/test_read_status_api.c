/*
 * What reading a request came to (cbd_api_read_status, src/api/endpoint_support.c): read whole,
 * refused with every bad member recorded, or out of memory with the 500 recorded, told apart in
 * one place; and the turn reader (cbd_turn_read_request) returning it, so that an unknown member
 * (recorded by cbd_reader_open, which reads on) is a refusal and never a turn read whole; the
 * same for /analyze-attack's reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api/endpoint_support.h"
#include "api/warapp/turn/warapp_turn_json.h"
#include "api/warapp/warapp_analyze_read.h"

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
