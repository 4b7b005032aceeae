#ifndef COMBATD_TEST_BUDGET_TEST_H
#define COMBATD_TEST_BUDGET_TEST_H

/*
 * Running one request through the api as the server does, keeping what the request budget
 * recorded: the endpoints' budget tests (tests/unit/api/test_*_budget_api.c) share it.
 * Header-only, like api_test.h.
 */
#include "api_test.h"
#include "combatd/budget.h"
#include "combatd/scratch.h"
#include "json/json_alloc.h"
#include "warm_scratch.h"

/* The fresh pages of a body's document (api.c): parsed into an arena as cbd_api_parse parses
 * it, the pages used in its blocks past the malloc policy's threshold, CBD_WORK_FRESH_PAGE
 * each. 0 for a body of up to some 20 KB, whose document fits the heap's blocks. (That the
 * count is right is tested by hand in test_battle_budget_api.c.) */
static inline uint64_t budget_document_units(const char *body) {
    cbd_json_alloc_install();
    cbd_json_arena *arena = cbd_json_arena_new();
    if (!arena) {
        abort();
    }
    cbd_json_arena *heap = cbd_json_arena_use(arena);
    json_t *doc = json_loads(body, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
    (void)cbd_json_arena_use(heap);
    (void)doc; /* it lives in the arena */
    size_t bytes = cbd_json_arena_bytes_in_blocks_from(arena, CBD_MALLOC_MAPPED_FROM);
    cbd_json_arena_free(arena); /* the document with it */
    return CBD_WORK_FRESH_PAGE * (uint64_t)((bytes + CBD_SCRATCH_PAGE - 1) / CBD_SCRATCH_PAGE);
}

/* What cbd_api_answer_within charges every request before its endpoint's steps: its body
 * parsed, its document's fresh pages, and its answer set up (budget.h). */
static inline uint64_t budget_request_units(const char *body) {
    return CBD_WORK_REQUEST + CBD_WORK_BODY_BYTE * (uint64_t)strlen(body) +
           budget_document_units(body);
}

/* What a request came to. */
typedef struct {
    bool handed_back; /* the inline budget was spent: to be run again on a worker */
    int status;
    json_t *doc;         /* the answer (NULL when handed back) */
    size_t answer_bytes; /* its text's length */
    uint64_t estimate;   /* the endpoint's cost estimate, in ns */
    cbd_budget spent;    /* the budget as the request left it */
} budget_outcome;

/* Parses and answers `body` at `path` with cfg, at an HTTP thread's limits (`on_http_thread`)
 * or a worker's. */
static inline budget_outcome budget_answer(const cbd_config *cfg, const char *path,
                                           const char *body, bool on_http_thread) {
    budget_outcome o = {0};
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cr_assert_not_null(ep, "no endpoint %s", path);
    cbd_api_request req;
    cbd_api_reply reply = {0};
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply), "%s", reply.body);
    o.estimate = cbd_api_cost(&req, cfg);
    cbd_api_limits limits = on_http_thread ? cbd_api_inline_limits(cfg) : cbd_api_full_limits(cfg);
    limits.report = &o.spent;
    limits.scratch = warm_scratch(); /* a running server's: steps only (warm_scratch.h) */
    if (!cbd_api_answer_within(&req, cfg, &limits, &reply)) {
        o.handed_back = true;
        cbd_api_request_release(&req);
        return o;
    }
    o.status = reply.status;
    o.answer_bytes = reply.body_len;
    o.doc = json_loadb(reply.body, reply.body_len, 0, NULL);
    cr_assert_not_null(o.doc, "not JSON: %.300s", reply.body);
    cbd_api_reply_free(&reply);
    return o;
}

/* The answer was a 422 naming `pointer`, its detail saying `needle`, with every block the
 * request took given back. */
static inline void budget_expect_422_at(const budget_outcome *o, const char *pointer,
                                        const char *needle) {
    char *text = o->doc ? json_dumps(o->doc, JSON_COMPACT) : NULL;
    cr_expect_eq(o->status, 422, "status %d: %.400s", o->status, text ? text : "");
    cr_expect(has_error(o->doc, pointer, needle), "want %s (%s) in %.400s", pointer, needle,
              text ? text : "");
    cr_expect_eq(o->spent.mem_held, 0);
    free(text);
}

static inline void budget_outcome_free(budget_outcome *o) {
    json_decref(o->doc);
    o->doc = NULL;
}

#endif
