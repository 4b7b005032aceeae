#include "api.h"
#include "endpoint_support.h"
#include "json/json_alloc.h"
#include "json/json_reader.h"
#include "json/json_write.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* A problem in the words of the endpoint that answers it. */
static void endpoint_problem_reply(const cbd_api_endpoint *ep, const json_t *request,
                                   const cbd_problem *problem, cbd_api_reply *reply) {
    if (ep->envelope) {
        ep->envelope->refuse(request, problem, reply);
    } else {
        cbd_api_problem_reply(problem, reply);
    }
}

bool cbd_api_parse(const cbd_api_endpoint *ep, const char *body, size_t len, cbd_api_request *req,
                   cbd_api_reply *reply) {
    cbd_problem problem;
    cbd_problem_init(&problem);
    req->ep = ep;
    req->doc = NULL;
    req->body_len = len;
    req->protocol = NULL;
    json_error_t err;
    cbd_json_alloc_reset();
    req->arena = cbd_json_arena_new();
    if (!req->arena) {
        cbdp_api_oom_reply(reply);
        return false;
    }
    cbd_json_arena *heap = cbd_json_arena_use(req->arena);
    /* No JSON_DISABLE_EOF_CHECK: trailing garbage after the document is an error. */
    bool any = ep->envelope && ep->envelope->any_value;
    json_t *doc = json_loadb(body, len, JSON_REJECT_DUPLICATES | (any ? JSON_DECODE_ANY : 0), &err);
    (void)cbd_json_arena_use(heap);
    if (cbd_json_alloc_failed()) { /* the document may be wrong, or the error be ours */
        cbd_api_request_release(req);
        cbdp_api_oom_reply(reply);
        return false;
    }
    if (!doc && any && json_error_code(&err) == json_error_numeric_overflow) {
        /* Valid JSON (RFC 8259 sets no range), but no value this service can hold. */
        cbd_api_request_release(req);
        cbd_problem_field(&problem, "", "holds a number out of range (line %d, column %d)",
                          err.line, err.column);
        endpoint_problem_reply(ep, NULL, &problem, reply);
        return false;
    }
    if (!doc) {
        cbd_api_request_release(req);
        cbd_problem_set(&problem, 400, "The body is not valid JSON: line %d, column %d: %s",
                        err.line, err.column, err.text);
        endpoint_problem_reply(ep, NULL, &problem, reply);
        return false;
    }
    if (!json_is_object(doc) && !(any && json_is_array(doc))) {
        cbd_api_request_release(req);
        cbd_problem_field(&problem, "", "the request must be a JSON object");
        endpoint_problem_reply(ep, NULL, &problem, reply);
        return false;
    }
    req->doc = doc;
    return true;
}

uint64_t cbd_api_cost(const cbd_api_request *req, const cbd_config *cfg) {
    return req->ep->cost ? req->ep->cost(cfg, req->doc) : CBD_COST_BASE_NS;
}

void cbd_api_request_release(cbd_api_request *req) {
    /* The whole document goes with its arena: no walk to free it value by value. */
    req->doc = NULL;
    cbd_json_arena_free(req->arena);
    req->arena = NULL;
}

cbd_api_limits cbd_api_full_limits(const cbd_config *cfg) {
    return (cbd_api_limits){
        .work_limit = cbd_work_times(cfg->limits.work_budget_ms, CBD_WORK_UNITS_PER_MS),
        .mem_limit = (size_t)cfg->limits.memory_budget,
    };
}

cbd_api_limits cbd_api_inline_limits(const cbd_config *cfg) {
    cbd_api_limits l = cbd_api_full_limits(cfg);
    uint64_t inline_units =
        cbd_work_times(cfg->limits.inline_work_us, CBD_WORK_UNITS_PER_MS / 1000);
    if (inline_units < l.work_limit) {
        l.work_limit = inline_units;
        l.hand_back = true;
    }
    return l;
}

/* The handler's outcome as a reply: its text, or its problem (the budget's or the cap's when
 * those stopped it, whatever the handler concluded). An endpoint that accepted the request and
 * has nothing to answer wrote nothing: 202 Accepted without a body (/mcp's notifications). */
static void reply_of(const cbd_api_request *req, bool ok, cbd_jw *out, cbd_problem *problem,
                     const cbd_config *cfg, const cbd_budget *budget, cbd_api_reply *reply) {
    size_t len = 0;
    char *text = ok ? cbd_jw_finish(out, &len) : NULL;
    if (ok && text) {
        cbd_api_text_reply(len > 0 ? 200 : 202, len > 0 ? "application/json" : NULL, text, len,
                           reply);
        return;
    }
    cbd_jw_discard(out);
    if (!cbd_api_settle_problem(ok, out, cfg, budget, problem)) {
        cbdp_api_oom_reply(reply);
        return;
    }
    endpoint_problem_reply(req->ep, req->doc, problem, reply);
}

bool cbd_api_answer_within(cbd_api_request *req, const cbd_config *cfg,
                           const cbd_api_limits *limits, cbd_api_reply *reply) {
    cbd_problem problem;
    cbd_problem_init(&problem);
    /* In the caller's report when it asked for one, so that its progress callback can read what
     * the request has spent so far (tests and bench_budget: the units between two checks). */
    cbd_budget own;
    cbd_budget *budget = limits->report ? limits->report : &own;
    cbd_budget_init(budget, limits->work_limit, limits->mem_limit);
    cbd_budget_set_progress(budget, limits->progress, limits->progress_arg);
    cbd_budget_set_scratch(budget, limits->scratch);
    cbd_jw out;
    cbd_jw_init(&out);
    cbd_jw_set_limit(&out, (size_t)cfg->limits.max_answer_bytes);
    cbd_json_alloc_reset();
    cbd_json_arena *heap = cbd_json_arena_use(req->arena);
    /* What every request costs besides its endpoint's steps: its body parsed (done already, and
     * charged here so that it counts where the request runs, the inline budget too), the pages
     * of its document's blocks past the malloc policy's threshold (mappings of their own, fresh
     * to every request that parses so large a body), and its answer set up and handed over.
     * When that alone spends the budget the handler still runs: its first charge fails, naming
     * its member; one that charges nothing names the body. */
    bool paid =
        cbd_charge(budget, cbd_work_times(CBD_WORK_BODY_BYTE, req->body_len) + CBD_WORK_REQUEST);
    paid = cbd_charge_fresh(
               budget, cbd_json_arena_bytes_in_blocks_from(req->arena, CBD_MALLOC_MAPPED_FROM)) &&
           paid;
    const cbd_api_envelope *envelope = req->ep->envelope;
    bool ok = envelope && envelope->handle
                  ? envelope->handle(cfg, budget, req->doc, req->protocol, &out, &problem)
                  : req->ep->handle(cfg, budget, req->doc, &out, &problem);
    if (ok && !paid) {
        ok = cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, "", &problem);
    }
    (void)cbd_json_arena_use(heap);
    /* The caller's stop (its client gone, the server stopping) is answered in its own words,
     * whatever the handler made of it. */
    bool refused = budget->stopped == CBD_BUDGET_CANCELLED && limits->refuse_cancelled &&
                   limits->refuse_cancelled(limits->progress_arg, &problem);
    /* (a plan answered within its reserve past the slice too: the worker searches further) */
    if (limits->hand_back && cbd_budget_stop_reason(budget) == CBD_BUDGET_WORK) {
        cbd_jw_discard(&out); /* run again with the full budget; the request is kept */
        return false;
    }
    if (refused) {
        cbd_jw_discard(&out);
        endpoint_problem_reply(req->ep, req->doc, &problem, reply);
    } else if (cbd_json_alloc_failed()) { /* whatever the handler concluded, it may be wrong */
        cbd_jw_discard(&out);
        cbdp_api_oom_reply(reply);
    } else {
        reply_of(req, ok, &out, &problem, cfg, budget, reply);
    }
    cbd_api_request_release(req);
    return true;
}

void cbd_api_refuse(cbd_api_request *req, const cbd_problem *problem, cbd_api_reply *reply) {
    endpoint_problem_reply(req->ep, req->doc, problem, reply);
    cbd_api_request_release(req);
}

const cbd_api_endpoint *cbd_api_called(const cbd_api_request *req) {
    return req->ep->envelope ? req->ep->envelope->called(req->doc) : NULL;
}

void cbd_api_answer(cbd_api_request *req, const cbd_config *cfg, cbd_api_reply *reply) {
    cbd_api_limits limits = cbd_api_full_limits(cfg);
    /* As a server that has just started: the request's large blocks are kept warm while it
     * runs and freed when it ends. */
    cbd_scratch scratch;
    cbd_scratch_init(&scratch, limits.mem_limit);
    limits.scratch = &scratch;
    (void)cbd_api_answer_within(req, cfg, &limits, reply);
    cbd_scratch_release(&scratch);
}

void cbd_api_run(const cbd_api_endpoint *ep, const cbd_config *cfg, const char *body, size_t len,
                 cbd_api_reply *reply) {
    cbd_api_request req;
    if (cbd_api_parse(ep, body, len, &req, reply)) {
        cbd_api_answer(&req, cfg, reply);
    }
}
