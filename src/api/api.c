#include "api.h"
#include "endpoints.h"
#include "json_alloc.h"
#include "json_reader.h"
#include "json_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* The POST columns of every row of endpoints.h; a GET resource's row has no handler. */
#define API_ROW(path, allow, post, cost, get, label) {path, post, cost},
const cbd_api_endpoint cbd_api_endpoints[] = {
    CBD_ENDPOINT_TABLE(API_ROW){NULL, NULL, NULL},
};

const cbd_api_endpoint *cbd_api_find_endpoint(const char *path) {
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        if (ep->handle && strcmp(ep->path, path) == 0) {
            return ep;
        }
    }
    return NULL;
}

/* Used when even the problem cannot be built: a constant body needs no allocation. */
const char cbd_api_oom_body[] =
    "{\"type\":\"about:blank\",\"title\":\"Internal Server Error\",\"status\":500,"
    "\"detail\":\"The service ran out of memory; try again.\",\"errors\":[]}";
const size_t cbd_api_oom_body_len = sizeof cbd_api_oom_body - 1;

static void oom_reply(cbd_api_reply *reply) {
    reply->status = 500;
    reply->content_type = "application/problem+json";
    reply->body = strdup(cbd_api_oom_body);
    reply->body_len = reply->body ? cbd_api_oom_body_len : 0;
}

/* Takes a rendered body, or answers 500 when rendering ran out of memory (text NULL). */
static void text_reply(int status, const char *content_type, char *text, size_t len,
                       cbd_api_reply *reply) {
    if (!text) {
        oom_reply(reply);
        return;
    }
    reply->status = status;
    reply->content_type = content_type;
    reply->body = text;
    reply->body_len = len;
}

void cbd_api_problem_reply(const cbd_problem *problem, cbd_api_reply *reply) {
    cbd_json_alloc_reset();
    json_t *doc = cbd_problem_to_json(problem);
    size_t len = 0;
    char *text = doc ? cbd_json_write(doc, &len) : NULL;
    json_decref(doc);
    if (cbd_json_alloc_failed()) { /* a member may be missing: the constant 500 instead */
        free(text);
        text = NULL;
    }
    text_reply(problem->status ? problem->status : 500, "application/problem+json", text, len,
               reply);
}

bool cbd_api_parse(const cbd_api_endpoint *ep, const char *body, size_t len, cbd_api_request *req,
                   cbd_api_reply *reply) {
    cbd_problem problem;
    cbd_problem_init(&problem);
    req->ep = ep;
    req->doc = NULL;
    json_error_t err;
    cbd_json_alloc_reset();
    req->arena = cbd_json_arena_new();
    if (!req->arena) {
        oom_reply(reply);
        return false;
    }
    cbd_json_arena *heap = cbd_json_arena_use(req->arena);
    /* No JSON_DISABLE_EOF_CHECK: trailing garbage after the document is an error. */
    json_t *doc = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
    (void)cbd_json_arena_use(heap);
    if (cbd_json_alloc_failed()) { /* the document may be wrong, or the error be ours */
        cbd_api_request_release(req);
        oom_reply(reply);
        return false;
    }
    if (!doc) {
        cbd_api_request_release(req);
        cbd_problem_set(&problem, 400, "The body is not valid JSON: line %d, column %d: %s",
                        err.line, err.column, err.text);
        cbd_api_problem_reply(&problem, reply);
        return false;
    }
    if (!json_is_object(doc)) {
        cbd_api_request_release(req);
        cbd_problem_field(&problem, "", "the request must be a JSON object");
        cbd_api_problem_reply(&problem, reply);
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

void cbd_api_answer(cbd_api_request *req, const cbd_config *cfg, cbd_api_reply *reply) {
    cbd_problem problem;
    cbd_problem_init(&problem);
    cbd_jw out;
    cbd_jw_init(&out);
    cbd_json_alloc_reset();
    cbd_json_arena *heap = cbd_json_arena_use(req->arena);
    bool ok = req->ep->handle(cfg, req->doc, &out, &problem);
    (void)cbd_json_arena_use(heap);
    if (cbd_json_alloc_failed()) { /* whatever the handler concluded, it may be wrong */
        cbd_jw_discard(&out);
        oom_reply(reply);
    } else if (!ok) {
        cbd_jw_discard(&out);
        if (problem.status == 0) {
            cbd_problem_set(&problem, 500, "The service could not compute an answer.");
        }
        cbd_api_problem_reply(&problem, reply);
    } else {
        size_t len = 0;
        char *text = cbd_jw_finish(&out, &len);
        text_reply(200, "application/json", text, len, reply);
    }
    cbd_api_request_release(req);
}

void cbd_api_run(const cbd_api_endpoint *ep, const cbd_config *cfg, const char *body, size_t len,
                 cbd_api_reply *reply) {
    cbd_api_request req;
    if (cbd_api_parse(ep, body, len, &req, reply)) {
        cbd_api_answer(&req, cfg, reply);
    }
}

void cbd_api_reply_free(cbd_api_reply *reply) {
    free(reply->body);
    reply->body = NULL;
    reply->body_len = 0;
}

bool cbd_api_fresh_seed(uint64_t *seed, cbd_problem *problem) {
    uint64_t v;
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        cbd_problem_set(problem, 503, "The OS could not supply a random seed; send a seed.");
        return false;
    }
    *seed = v & CBD_SEED_MAX;
    return true;
}
