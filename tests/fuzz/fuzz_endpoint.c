/*
 * libFuzzer harness for one endpoint: raw bytes in as the request body, through cbd_api_run
 * (parse, validate, compute, render), the full reply out. FUZZ_ENDPOINT names the endpoint at
 * build time (tests/fuzz/build.sh builds one binary per endpoint, /mcp's included).
 *
 * Besides ASan, UBSan and LeakSanitizer, the harness checks the reply itself: always a body,
 * of the stated length, that is a JSON object; a problem for every non-200 with a matching
 * status; never a 500 (that is a bug, not bad input). /mcp answers in JSON-RPC instead
 * (check_json_rpc): a response with exactly one of result and error, 202 with no body, a 400
 * error without id; a tool's answer is its text item, and a tool error's text a problem.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/api.h"
#include "api/api_config.h"

#ifndef FUZZ_ENDPOINT
#error "define FUZZ_ENDPOINT, e.g. -DFUZZ_ENDPOINT=\"/analyze-attack\""
#endif

static cbd_config cfg;
static const cbd_api_endpoint *endpoint;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed: %s: ", #cond);                                     \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    json_object_seed(1);
    cbd_config_defaults(&cfg);
    /* The army cap stays at W10's 10^9 so that the big-number paths are explored; only the
     * per-request work lists are bounded, so one input costs microseconds, not seconds. */
    cfg.warapp.max_distribution_points = 1000;
    cfg.warapp.max_graph_points = 100;
    cfg.warapp.max_targets = 8;
    cfg.warapp.max_trials = 1000;
    cfg.warapp.max_listed_battles = 10;
    cfg.warapp.max_turn_states = 10000;
    cfg.warapp.max_turn_simulated_orders = 100000;
    cfg.warapp.max_listed_turns = 10;
    /* The seeds include the costly table's requests, which the default budget lets run for 2 s
     * of CPU: 15-30 s under the sanitizers and coverage, past libFuzzer's -timeout=10 on a busy
     * machine. A twentieth of it still walks every step of them up to the budget's refusal. */
    cfg.limits.work_budget_ms = 100;
    endpoint = cbd_api_find_endpoint(FUZZ_ENDPOINT);
    if (!endpoint) {
        fprintf(stderr, "no endpoint %s\n", FUZZ_ENDPOINT);
        abort();
    }
    return 0;
}

/* A tools/call's result: the answer as its one text item, the same JSON as structuredContent;
 * a tool error's text a problem document naming its status. */
static void check_tool_result(const json_t *result, const char *body) {
    const json_t *content = json_object_get(result, "content");
    CHECK(json_array_size(content) == 1, "%s", body);
    const json_t *text = json_object_get(json_array_get(content, 0), "text");
    CHECK(json_is_string(text), "%s", body);
    json_t *inner = json_loadb(json_string_value(text), json_string_length(text), 0, NULL);
    CHECK(json_is_object(inner), "the text is not JSON: %s", body);
    const json_t *structured = json_object_get(result, "structuredContent");
    if (json_is_true(json_object_get(result, "isError"))) {
        CHECK(structured == NULL, "a tool error with structuredContent: %s", body);
        CHECK(json_integer_value(json_object_get(inner, "status")) >= 400, "%s", body);
        CHECK(json_is_array(json_object_get(inner, "errors")), "%s", body);
    } else {
        CHECK(json_equal(inner, structured), "the text and structuredContent differ: %s", body);
    }
    json_decref(inner);
}

/* One JSON-RPC 2.0 response (mcp.c): exactly one of result and error, an error's code one the
 * service assigns; a tools/call result (the request of the same id) is a tool result. */
static void check_response(const json_t *doc, const json_t *request, const char *body) {
    CHECK(json_is_object(doc), "a response is not a JSON object: %s", body);
    const char *version = json_string_value(json_object_get(doc, "jsonrpc"));
    CHECK(version && strcmp(version, "2.0") == 0, "%s", body);
    const json_t *result = json_object_get(doc, "result"), *error = json_object_get(doc, "error");
    CHECK((result == NULL) != (error == NULL), "one of result and error: %s", body);
    if (error) {
        json_int_t code = json_integer_value(json_object_get(error, "code"));
        CHECK(code == -32700 || code == -32600 || code == -32601 || code == -32602 ||
                  code == -32002 || code == -32000,
              "error %lld: %s", (long long)code, body);
    }
    const char *method = json_string_value(json_object_get(request, "method"));
    if (result && method && strcmp(method, "tools/call") == 0) {
        check_tool_result(result, body);
    }
}

/* A JSON string's text when it holds no NUL, else NULL. */
static const char *plain_text(const json_t *v) {
    const char *s = json_string_value(v);
    return s && strlen(s) == json_string_length(v) ? s : NULL;
}

/* Whether a batch element is a request, which gets a response with its id: "jsonrpc" "2.0", a
 * method, and an id that is a string or an integer (JSON-RPC 2.0; anything else is answered
 * with an id of null, or not at all). */
static bool is_request(const json_t *item) {
    const char *version = plain_text(json_object_get(item, "jsonrpc"));
    const json_t *id = json_object_get(item, "id");
    return version && strcmp(version, "2.0") == 0 && plain_text(json_object_get(item, "method")) &&
           (json_is_string(id) || json_is_integer(id));
}

/* The request element a batch's response answers (NULL for an id of null, the answer of an
 * element that is no request): the batch answers its requests in order, and ids may repeat, so
 * the next request at or after *from with that id; *from moves past it. */
static const json_t *request_of(const json_t *batch, const json_t *response, size_t *from) {
    const json_t *id = json_object_get(response, "id");
    if (!id || json_is_null(id)) {
        return NULL;
    }
    for (size_t i = *from; i < json_array_size(batch); i++) {
        const json_t *item = json_array_get(batch, i);
        if (is_request(item) && json_equal(json_object_get(item, "id"), id)) {
            *from = i + 1;
            return item;
        }
    }
    return NULL;
}

/* /mcp's reply: a JSON-RPC 2.0 response, or for a batch (2025-03-26) an array of them. */
static void check_json_rpc(const cbd_api_reply *reply, const uint8_t *data, size_t size) {
    if (reply->status == 202) {
        CHECK(reply->body_len == 0 && reply->content_type == NULL, "202 with a body");
        return;
    }
    CHECK(reply->status == 200 || reply->status == 400, "status %d: %s", reply->status,
          reply->body);
    CHECK(strcmp(reply->content_type, "application/json") == 0, "%s", reply->content_type);
    json_t *doc = json_loadb(reply->body, reply->body_len, JSON_REJECT_DUPLICATES, NULL);
    json_t *request = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (json_is_array(doc)) {
        CHECK(reply->status == 200 && json_is_array(request) && json_array_size(doc) > 0 &&
                  json_array_size(doc) <= json_array_size(request),
              "a batch's answer: %s", reply->body);
        size_t i, from = 0;
        const json_t *item;
        json_array_foreach(doc, i, item) {
            check_response(item, request_of(request, item, &from), reply->body);
        }
    } else {
        check_response(doc, json_is_object(request) ? request : NULL, reply->body);
        if (reply->status == 400) {
            CHECK(json_object_get(doc, "error") && json_is_null(json_object_get(doc, "id")), "%s",
                  reply->body);
        }
    }
    json_decref(request);
    json_decref(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cbd_api_reply reply;
    memset(&reply, 0, sizeof reply);
    cbd_api_run(endpoint, &cfg, (const char *)data, size, &reply);

    CHECK(reply.body != NULL, "no body");
    CHECK(strlen(reply.body) == reply.body_len, "body_len %zu, strlen %zu", reply.body_len,
          strlen(reply.body));
    if (endpoint->envelope) {
        check_json_rpc(&reply, data, size);
        cbd_api_reply_free(&reply);
        return 0;
    }
    CHECK(reply.content_type != NULL, "no content type");
    CHECK(reply.status == 200 || reply.status == 400 || reply.status == 422, "status %d: %s",
          reply.status, reply.body);
    json_error_t err;
    json_t *doc = json_loadb(reply.body, reply.body_len, JSON_REJECT_DUPLICATES, &err);
    CHECK(json_is_object(doc), "reply is not a JSON object (%s): %s", err.text, reply.body);
    if (reply.status == 200) {
        CHECK(strcmp(reply.content_type, "application/json") == 0, "%s", reply.content_type);
    } else {
        CHECK(strcmp(reply.content_type, "application/problem+json") == 0, "%s",
              reply.content_type);
        CHECK(json_integer_value(json_object_get(doc, "status")) == reply.status, "%s", reply.body);
        CHECK(json_is_string(json_object_get(doc, "detail")), "%s", reply.body);
        CHECK(json_is_array(json_object_get(doc, "errors")), "%s", reply.body);
        if (reply.status == 422) {
            CHECK(json_array_size(json_object_get(doc, "errors")) > 0, "422 names no field: %s",
                  reply.body);
        }
    }
    json_decref(doc);
    cbd_api_reply_free(&reply);
    return 0;
}
