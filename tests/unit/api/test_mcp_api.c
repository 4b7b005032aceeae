/*
 * POST /mcp at the api layer (mcp.h): the JSON-RPC envelope around the endpoints' own answers.
 * The envelopes expected here are built with jansson from the endpoint's HTTP answer and
 * printed by json_dumps, which the streaming writer matches byte for byte (json_write.h), so
 * the test does not trust the writer it checks: a tools/call's structuredContent must be the
 * HTTP answer as it is, its text item the same answer escaped as jansson escapes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "api/api.h"
#include "api/api_config.h"
#include "api_test.h"
#include "api/embedded.h"
#include "api/mcp/mcp.h"

static cbd_config defaults(void) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return cfg;
}

/* A body through an endpoint as the fuzzers and benchmarks run it; the caller frees. */
static cbd_api_reply run(const cbd_config *cfg, const char *path, const char *body) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cr_assert_not_null(ep, "no endpoint %s", path);
    cbd_api_reply reply;
    cbd_api_run(ep, cfg, body, strlen(body), &reply);
    cr_assert_not_null(reply.body);
    return reply;
}

/* A tools/call of `tool` with `arguments` (JSON text) and id 7. */
static char *tool_call(const char *tool, const char *arguments) {
    char *body = malloc(strlen(arguments) + 256);
    cr_assert_not_null(body);
    sprintf(body,
            "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", \"params\": "
            "{\"name\": \"%s\", \"arguments\": %s}}",
            tool, arguments);
    return body;
}

/* json_dumps as the writer prints (compact, 15 significant digits). */
static char *dump(json_t *v) {
    char *text = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(15));
    cr_assert_not_null(text);
    json_decref(v);
    return text;
}

/* The envelope of a successful call, from the endpoint's HTTP answer `answer`. */
static char *expected_result(const char *answer) {
    json_t *structured = json_loads(answer, 0, NULL);
    cr_assert_not_null(structured, "%s", answer);
    return dump(json_pack("{s:s, s:i, s:{s:[{s:s, s:s}], s:o, s:b}}", "jsonrpc", "2.0", "id", 7,
                          "result", "content", "type", "text", "text", answer, "structuredContent",
                          structured, "isError", 0));
}

/* The envelope of a tool error, from the endpoint's problem body. */
static char *expected_tool_error(const char *problem) {
    return dump(json_pack("{s:s, s:i, s:{s:[{s:s, s:s}], s:b}}", "jsonrpc", "2.0", "id", 7,
                          "result", "content", "type", "text", "text", problem, "isError", 1));
}

/* A problem of the work meter as the tool call states it: the envelope's longer body is parsed
 * too (CBD_WORK_BODY_BYTE a byte), so "it spent N units" is `more` units more; any other
 * problem as it is. The caller frees. */
static char *spent_more(const char *problem, uint64_t more) {
    static const char mark[] = "it spent ";
    const char *at = strstr(problem, mark);
    char *out = malloc(strlen(problem) + 32);
    cr_assert_not_null(out);
    if (!at) {
        strcpy(out, problem);
        return out;
    }
    at += strlen(mark);
    char *end;
    unsigned long long spent = strtoull(at, &end, 10);
    sprintf(out, "%.*s%llu%s", (int)(at - problem), problem, spent + more, end);
    return out;
}

/* The same arguments through the endpoint and through tools/call: the envelope holds the
 * endpoint's answer exactly (but for the work its own bytes cost, where a refusal states it). */
static void expect_same_answer(const cbd_config *cfg, const char *path, const char *tool,
                               const char *arguments) {
    cbd_api_reply http = run(cfg, path, arguments);
    char *body = tool_call(tool, arguments);
    cbd_api_reply mcp = run(cfg, "/mcp", body);
    cr_expect_eq(mcp.status, 200, "%s", mcp.body);
    cr_expect_str_eq(mcp.content_type, "application/json");
    char *problem =
        spent_more(http.body, CBD_WORK_BODY_BYTE * (uint64_t)(strlen(body) - strlen(arguments)));
    char *want = http.status == 200 ? expected_result(http.body) : expected_tool_error(problem);
    free(problem);
    cr_expect_str_eq(mcp.body, want, "%s %s", tool, arguments);
    cr_expect_eq(mcp.call_status, http.status == 200 ? 0 : http.status);
    free(want);
    free(body);
    cbd_api_reply_free(&http);
    cbd_api_reply_free(&mcp);
}

Test(mcp_api, a_tool_call_answers_the_endpoints_answer_structured_and_as_text) {
    cbd_config cfg = defaults();
    expect_same_answer(&cfg, "/analyze-attack", "analyze_attack",
                       "{\"attackers\": 10, \"defenders\": 5, \"settings\": {\"luck_modifier\": "
                       "0.16}, \"graph\": {\"from\": 1, \"to\": 12}, \"targets\": [0.5, 0.9]}");
    expect_same_answer(&cfg, "/simulate", "simulate",
                       "{\"attackers\": 10, \"defenders\": 5, \"trials\": 1000, \"seed\": 3}");
    expect_same_answer(&cfg, "/duper/board/options", "duper_board_options",
                       "{\"board\": {\"tiles\": {\"a\": {\"owner\": \"red\", \"units\": "
                       "{\"soldier\": 5}}, \"b\": {\"owner\": \"blue\", \"units\": {\"soldier\": "
                       "1}}}, \"adjacent\": [[\"a\", \"b\"]]}, \"player\": \"red\"}");
}

Test(mcp_api, a_refusal_is_a_tool_error_with_the_endpoints_problem_and_no_structured_content) {
    cbd_config cfg = defaults();
    /* -1 attackers and a luck of 2: the endpoint's 422 names both. */
    expect_same_answer(
        &cfg, "/analyze-attack", "analyze_attack",
        "{\"attackers\": -1, \"defenders\": 5, \"settings\": {\"luck_modifier\": 2}}");
    char *body = tool_call("analyze_attack", "{\"attackers\": -1, \"defenders\": 5}");
    cbd_api_reply mcp = run(&cfg, "/mcp", body);
    cr_expect_null(strstr(mcp.body, "structuredContent"), "%s", mcp.body);
    cr_expect_not_null(strstr(mcp.body, "\\\"pointer\\\":\\\"/attackers\\\""), "%s", mcp.body);
    cr_expect_eq(mcp.call_status, 422);
    cbd_api_reply_free(&mcp);
    free(body);
}

/* About 30 ms of one core (binomial windows of 10^5 armies at 50 % luck, 101 graph points). */
static const char heavy_analysis[] =
    "{\"attackers\": 100000, \"defenders\": 100000, \"settings\": {\"luck_modifier\": 0.5}, "
    "\"graph\": {\"from\": 99000, \"to\": 99100}}";

Test(mcp_api, the_work_budget_and_the_answer_cap_hold_for_a_tool_as_over_http) {
    cbd_config cfg = defaults();
    /* A graph of 100 points near 10^5 armies at 50 % luck is about 30 ms of work: past a
     * budget of 1 ms, the endpoint's 422 names /graph. */
    cfg.limits.work_budget_ms = 1;
    cbd_api_reply refused = run(&cfg, "/analyze-attack", heavy_analysis);
    cr_expect_eq(refused.status, 422, "%s", refused.body);
    cr_expect_not_null(strstr(refused.body, "work budget"), "%s", refused.body);
    cbd_api_reply_free(&refused);
    expect_same_answer(&cfg, "/analyze-attack", "analyze_attack", heavy_analysis);
    /* 1,000 graph points at 160 bytes each pass a cap of 100,000: refused naming /graph. */
    cfg = defaults();
    cfg.limits.max_answer_bytes = 100000;
    expect_same_answer(&cfg, "/analyze-attack", "analyze_attack",
                       "{\"attackers\": 5, \"defenders\": 10, \"graph\": {\"from\": 1, \"to\": "
                       "1000}}");
    /* The cap holds for the JSON-RPC answer, which holds the tool's twice (as it is and as
     * escaped text): an answer of more than half the cap is a tool error naming the member
     * whose part passed it (the graph, most of the answer), one of less is answered. */
    cfg.limits.max_answer_bytes = 7200;
    const char *graph = "{\"attackers\": 10, \"defenders\": 5, \"settings\": {\"luck_modifier\": "
                        "0.16}, \"graph\": {\"from\": 1, \"to\": 30}, "
                        "\"max_distribution_points\": 10}";
    cbd_api_reply http = run(&cfg, "/analyze-attack", graph);
    cr_assert_eq(http.status, 200, "%s", http.body);
    cr_assert_gt(http.body_len, 7200 / 2, "the answer is more than half the cap");
    cr_assert_lt(http.body_len, 7200);
    cbd_api_reply_free(&http);
    char *body = tool_call("analyze_attack", graph);
    cbd_api_reply mcp = run(&cfg, "/mcp", body);
    cr_expect_eq(mcp.status, 200, "%s", mcp.body);
    cr_expect_leq(mcp.body_len, 7200);
    json_t *doc = json_loads(mcp.body, 0, NULL);
    cr_assert_not_null(doc, "%s", mcp.body);
    cr_expect(json_is_true(json_object_get(json_object_get(doc, "result"), "isError")), "%s",
              mcp.body);
    json_t *problem = json_loads(
        json_string_value(json_object_get(
            json_array_get(json_object_get(json_object_get(doc, "result"), "content"), 0), "text")),
        0, NULL);
    cr_assert_not_null(problem, "%s", mcp.body);
    cr_expect(has_error(problem, "/graph", "server.max_answer_bytes"), "%s", mcp.body);
    cr_expect_eq(mcp.call_status, 422);
    json_decref(problem);
    json_decref(doc);
    cbd_api_reply_free(&mcp);
    free(body);
    cfg.limits.max_answer_bytes = 2 * 7200 + 2000;
    expect_same_answer(&cfg, "/analyze-attack", "analyze_attack", graph);
}

/* A call that spends the HTTP thread's budget is handed back like any request, and answered
 * in full on the worker's. */
Test(mcp_api, a_call_past_the_inline_budget_is_handed_back_to_a_worker) {
    cbd_config cfg = defaults();
    char *body = tool_call("analyze_attack", heavy_analysis);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/mcp");
    cbd_api_request req;
    cbd_api_reply reply;
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply));
    cbd_api_limits inline_limits = cbd_api_inline_limits(&cfg);
    cr_assert(inline_limits.hand_back);
    cr_assert_not(cbd_api_answer_within(&req, &cfg, &inline_limits, &reply),
                  "30 ms of work fit in the 1 ms of an HTTP thread");
    cbd_api_answer(&req, &cfg, &reply);
    cbd_api_reply http = run(&cfg, "/analyze-attack", heavy_analysis);
    cr_assert_eq(http.status, 200);
    char *want = expected_result(http.body);
    cr_expect_str_eq(reply.body, want);
    free(want);
    cbd_api_reply_free(&http);
    cbd_api_reply_free(&reply);
    free(body);
}

Test(mcp_api, a_tool_calls_cost_is_its_endpoints_so_heavy_calls_go_to_a_worker) {
    cbd_config cfg = defaults();
    const char *args = "{\"attackers\": 50, \"defenders\": 40, \"trials\": 1000000, \"seed\": 1}";
    json_t *a = json_loads(args, 0, NULL);
    char *body = tool_call("simulate", args);
    json_t *call = json_loads(body, 0, NULL);
    cr_assert(a && call);
    uint64_t cost = cbd_api_mcp_cost(&cfg, call);
    cr_expect_eq(cost, cbd_api_simulate_cost(&cfg, a));
    cr_expect_gt(cost, cfg.limits.inline_cost_ns);
    json_t *ping = json_loads("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}", 0, NULL);
    cr_expect_eq(cbd_api_mcp_cost(&cfg, ping), CBD_COST_BASE_NS);
    json_decref(ping);
    json_decref(a);
    json_decref(call);
    free(body);
}

/* A call refused before it runs (the worker pool had no room) is a tool error too, while the
 * same refusal of a plain endpoint is its problem+json. */
Test(mcp_api, a_call_refused_for_room_is_a_tool_error_saying_to_retry) {
    cbd_problem busy;
    cbd_problem_init(&busy);
    cbd_problem_set(&busy, 503, "All 66 places for long requests are taken; retry shortly.");
    cbd_api_reply problem;
    cbd_api_problem_reply(&busy, &problem);

    char *body = tool_call("simulate", "{\"attackers\": 5, \"defenders\": 3, \"seed\": 1}");
    cbd_api_request req;
    cbd_api_reply reply;
    cr_assert(cbd_api_parse(cbd_api_find_endpoint("/mcp"), body, strlen(body), &req, &reply));
    const cbd_api_endpoint *called = cbd_api_called(&req);
    cr_assert_not_null(called);
    cr_expect_str_eq(called->path, "/simulate");
    cr_expect_eq(called->handle, cbd_api_find_endpoint("/simulate")->handle);
    cbd_api_refuse(&req, &busy, &reply);
    char *want = expected_tool_error(problem.body);
    cr_expect_eq(reply.status, 200);
    cr_expect_eq(reply.call_status, 503);
    cr_expect_str_eq(reply.body, want);
    free(want);
    cbd_api_reply_free(&reply);

    const char *plain = "{\"attackers\": 5, \"defenders\": 3}";
    cr_assert(
        cbd_api_parse(cbd_api_find_endpoint("/simulate"), plain, strlen(plain), &req, &reply));
    cr_expect_null(cbd_api_called(&req));
    cbd_api_refuse(&req, &busy, &reply);
    cr_expect_eq(reply.status, 503);
    cr_expect_str_eq(reply.content_type, "application/problem+json");
    cr_expect_str_eq(reply.body, problem.body);
    cbd_api_reply_free(&reply);
    cbd_api_reply_free(&problem);
    free(body);
}

/* ---- the envelope's own answers ---- */

static void expect_reply(const char *body, int status, const char *want) {
    cbd_config cfg = defaults();
    cbd_api_reply r = run(&cfg, "/mcp", body);
    cr_expect_eq(r.status, status, "%s: %d %s", body, r.status, r.body);
    cr_expect_str_eq(r.body, want, "%s", body);
    cbd_api_reply_free(&r);
}

Test(mcp_api, notifications_and_responses_are_accepted_without_a_body) {
    static const char *const accepted[] = {
        "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}",
        "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": "
        "{\"requestId\": 3}}",
        "{\"jsonrpc\": \"2.0\", \"method\": \"no/such/notification\"}",
        "{\"jsonrpc\": \"2.0\", \"id\": 4, \"result\": {}}",
        "{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"error\": {\"code\": 1, \"message\": \"m\"}}",
    };
    cbd_config cfg = defaults();
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        cbd_api_reply r = run(&cfg, "/mcp", accepted[i]);
        cr_expect_eq(r.status, 202, "%s: %d %s", accepted[i], r.status, r.body);
        cr_expect_eq(r.body_len, 0);
        cr_expect_null(r.content_type);
        cbd_api_reply_free(&r);
    }
}

Test(mcp_api, ping_answers_an_empty_result_with_the_id_as_sent) {
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}", 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": \"a\\\"b\", \"method\": \"ping\", \"params\": {}}",
                 200, "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"result\":{}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 9007199254740993, \"method\": \"ping\"}", 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"result\":{}}");
}

Test(mcp_api, a_body_that_is_not_a_request_is_an_error_without_id) {
    expect_reply("{\"jsonrpc\": \"2.0\", ", 400,
                 "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse "
                 "error\",\"data\":{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":"
                 "400,\"detail\":\"The body is not valid JSON: line 1, column 19: string or '}' "
                 "expected near end of file\",\"errors\":[]}}}");
    /* The problem's status is the HTTP status it is answered with. (Batches:
     * test_mcp_batch_api.c.) */
    expect_reply("{\"id\": 1, \"method\": 5}", 400,
                 "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":"
                 "\"Invalid Request\",\"data\":{\"type\":\"about:blank\",\"title\":\"Bad "
                 "Request\",\"status\":400,\"detail\":\"The body is not a JSON-RPC 2.0 message; "
                 "see `errors`.\",\"errors\":[{\"pointer\":\"/jsonrpc\",\"detail\":\"must be "
                 "\\\"2.0\\\"\"},{\"pointer\":\"/method\",\"detail\":\"must be a string\"}]}}}");
}

/* JSON-RPC 2.0 (5.1): valid JSON that is not a Request object is -32600 Invalid Request;
 * -32700 is for a body that is not JSON. A number past what the service holds is valid JSON
 * too (RFC 8259 sets no range). */
Test(mcp_api, valid_json_that_is_no_request_is_an_invalid_request) {
    static const char *const bodies[] = {
        "\"x\"",
        "1",
        "null",
        "true",
        "{\"jsonrpc\": \"2.0\", \"id\": 18446744073709551616, \"method\": \"ping\"}",
        "{\"jsonrpc\": \"2.0\", \"id\": 1e30, \"method\": \"ping\"}",
    };
    cbd_config cfg = defaults();
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        cbd_api_reply r = run(&cfg, "/mcp", bodies[i]);
        cr_expect_eq(r.status, 400, "%s", bodies[i]);
        json_t *doc = json_loads(r.body, 0, NULL);
        cr_assert_not_null(doc, "%s", r.body);
        const json_t *error = json_object_get(doc, "error");
        cr_expect_eq(json_integer_value(json_object_get(error, "code")), -32600, "%s: %s",
                     bodies[i], r.body);
        cr_expect_eq(json_integer_value(json_object_get(json_object_get(error, "data"), "status")),
                     400, "%s", r.body);
        json_decref(doc);
        cbd_api_reply_free(&r);
    }
}

/* The members at fault, as the -32600's problem names them. */
static void expect_invalid(const char *body, const char *pointers) {
    cbd_config cfg = defaults();
    cbd_api_reply r = run(&cfg, "/mcp", body);
    cr_expect_eq(r.status, 400, "%s", body);
    json_t *doc = json_loads(r.body, 0, NULL);
    cr_assert_not_null(doc);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(doc, "error"), "code")), -32600,
                 "%s", r.body);
    cr_expect(json_is_null(json_object_get(doc, "id")));
    json_t *errors =
        json_object_get(json_object_get(json_object_get(doc, "error"), "data"), "errors");
    char got[256] = "";
    for (size_t i = 0; i < json_array_size(errors); i++) {
        strcat(got, i ? " " : "");
        strcat(got, json_string_value(json_object_get(json_array_get(errors, i), "pointer")));
    }
    cr_expect_str_eq(got, pointers, "%s", body);
    json_decref(doc);
    cbd_api_reply_free(&r);
}

Test(mcp_api, an_invalid_message_names_each_member_at_fault) {
    expect_invalid("{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}", "/jsonrpc");
    expect_invalid("{\"id\": 1, \"method\": \"ping\"}", "/jsonrpc");
    expect_invalid("{\"jsonrpc\": \"2.0\", \"id\": null, \"method\": \"ping\"}", "/id");
    expect_invalid("{\"jsonrpc\": \"2.0\", \"id\": 1.5, \"method\": \"ping\"}", "/id");
    expect_invalid("{\"jsonrpc\": \"2.0\", \"id\": [1], \"method\": \"ping\"}", "/id");
    expect_invalid("{\"jsonrpc\": \"2.0\", \"id\": 1}", "/method");
    expect_invalid("{\"jsonrpc\": \"2.0\"}", "/method");
    expect_invalid("{}", "/jsonrpc /method");
}

Test(mcp_api, an_unknown_method_or_bad_params_is_an_error_with_the_id) {
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"completion/complete\"}", 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"Method "
                 "not found: completion/complete\"}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"ping\", \"params\": [1]}", 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Invalid "
                 "params: params must be an object\"}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"no_such_tool\"}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Unknown "
                 "tool: no_such_tool\"}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": 5}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Invalid "
                 "params: params.name must be a string\"}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"simulate\", \"arguments\": [1]}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Invalid "
                 "params: params.arguments must be an object\"}}");
    /* A tool named by the path itself is not one. */
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"/simulate\"}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Unknown "
                 "tool: /simulate\"}}");
}

Test(mcp_api, a_call_without_arguments_is_the_endpoints_answer_to_an_empty_object) {
    cbd_config cfg = defaults();
    cbd_api_reply http = run(&cfg, "/analyze-attack", "{}");
    cr_assert_eq(http.status, 422);
    cbd_api_reply mcp = run(&cfg, "/mcp",
                            "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"tools/call\", "
                            "\"params\": {\"name\": \"analyze_attack\"}}");
    char *want = expected_tool_error(http.body);
    cr_expect_str_eq(mcp.body, want);
    free(want);
    cbd_api_reply_free(&http);
    cbd_api_reply_free(&mcp);
}

/* ---- initialize ---- */

static json_t *initialize(const char *version) {
    char body[512];
    snprintf(body, sizeof body,
             "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
             "{\"protocolVersion\": \"%s\", \"capabilities\": {}, \"clientInfo\": {\"name\": "
             "\"t\", \"version\": \"1\"}}}",
             version);
    cbd_config cfg = defaults();
    cbd_api_reply r = run(&cfg, "/mcp", body);
    cr_expect_eq(r.status, 200);
    json_t *doc = json_loads(r.body, 0, NULL);
    cr_assert_not_null(doc, "%s", r.body);
    cbd_api_reply_free(&r);
    return doc;
}

static const char *answered_version(const char *asked) {
    static char got[32];
    json_t *doc = initialize(asked);
    const char *v =
        json_string_value(json_object_get(json_object_get(doc, "result"), "protocolVersion"));
    snprintf(got, sizeof got, "%s", v ? v : "(none)");
    json_decref(doc);
    return got;
}

Test(mcp_api, initialize_answers_in_the_clients_revision_or_the_newest) {
    cr_expect_str_eq(answered_version("2025-11-25"), "2025-11-25");
    cr_expect_str_eq(answered_version("2025-06-18"), "2025-06-18");
    cr_expect_str_eq(answered_version("2025-03-26"), "2025-03-26");
    cr_expect_str_eq(answered_version("2024-11-05"), "2025-11-25");
    cr_expect_str_eq(answered_version("next"), "2025-11-25");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"Invalid "
                 "params: params.protocolVersion must be a string\"}}");
}

Test(mcp_api, initialize_names_the_service_its_version_and_capabilities) {
    json_t *doc = initialize("2025-11-25");
    json_t *result = json_object_get(doc, "result");
    json_t *info = json_object_get(result, "serverInfo");
    cr_expect_str_eq(json_string_value(json_object_get(info, "name")), "combatd");
    cr_expect_str_eq(json_string_value(json_object_get(info, "version")), COMBATD_VERSION);
    json_t *caps = json_object_get(result, "capabilities");
    cr_expect(json_is_object(json_object_get(caps, "tools")));
    cr_expect(json_is_object(json_object_get(caps, "resources")));
    const char *instructions = json_string_value(json_object_get(result, "instructions"));
    cr_assert_not_null(instructions);
    cr_expect_not_null(strstr(instructions, "combatd://docs/rules.md"));
    json_decref(doc);
}

/* ---- tools/list ---- */

/* A tool's name, worked out here from its path: without the leading '/', with '/' and '-' as
 * '_' ("/duper/board/options" is "duper_board_options"). */
static void tool_name_of(const char *path, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = path + 1; *p && n + 1 < size; p++) {
        out[n++] = *p == '/' || *p == '-' ? '_' : *p;
    }
    out[n] = '\0';
}

static json_t *tools_list(void) {
    cbd_config cfg = defaults();
    cbd_api_reply r =
        run(&cfg, "/mcp", "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}");
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *doc = json_loads(r.body, JSON_REJECT_DUPLICATES, NULL);
    cr_assert_not_null(doc);
    cbd_api_reply_free(&r);
    json_t *tools = json_incref(json_object_get(json_object_get(doc, "result"), "tools"));
    json_decref(doc);
    return tools;
}

/* One tool for each row of the endpoint table with one (every POST endpoint but /mcp), in the
 * table's order, named after its path, idempotent unless a seed is drawn. */
Test(mcp_api, tools_list_has_one_tool_per_post_endpoint_with_its_facts) {
    json_t *tools = tools_list();
    size_t i = 0;
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        cr_expect_eq(ep->tool.title != NULL, ep->handle && !ep->envelope, "%s", ep->path);
        if (!ep->tool.title) {
            continue;
        }
        char name[64];
        tool_name_of(ep->path, name, sizeof name);
        json_t *t = json_array_get(tools, i++);
        cr_assert_not_null(t, "no tool %s in tools/list", name);
        cr_expect_str_eq(json_string_value(json_object_get(t, "name")), name);
        cr_expect_str_eq(json_string_value(json_object_get(t, "title")), ep->tool.title);
        cr_expect_str_eq(json_string_value(json_object_get(t, "description")),
                         ep->tool.description);
        json_t *notes = json_object_get(t, "annotations");
        cr_expect(json_is_true(json_object_get(notes, "readOnlyHint")));
        cr_expect_eq(json_is_true(json_object_get(notes, "idempotentHint")), !ep->tool.seeded, "%s",
                     name);
        cr_expect(json_is_false(json_object_get(notes, "destructiveHint")));
        cr_expect(json_is_false(json_object_get(notes, "openWorldHint")));
        for (int s = 0; s < 2; s++) {
            json_t *schema = json_object_get(t, s ? "outputSchema" : "inputSchema");
            cr_expect_str_eq(json_string_value(json_object_get(schema, "type")), "object", "%s %d",
                             name, s);
        }
        /* The tool runs the row's own handler and estimate (mcp_tools.c keeps its own rows). */
        const cbd_api_endpoint *tool = cbd_mcp_tool_named(name);
        cr_assert_not_null(tool);
        cr_expect_str_eq(tool->path, ep->path);
        cr_expect_eq(tool->handle, ep->handle, "%s", name);
        cr_expect_eq(tool->cost, ep->cost, "%s", name);
        cr_expect_null(tool->envelope);
    }
    cr_expect_eq(json_array_size(tools), i, "tools/list has %zu tools, the table %zu",
                 json_array_size(tools), i);
    /* Both games are there: the table has not lost its rows. */
    cr_expect_not_null(cbd_mcp_tool_named("analyze_turn"));
    cr_expect_not_null(cbd_mcp_tool_named("duper_board_options"));
    json_decref(tools);
}

/* The answers that are a oneOf (an attack or a transfer) are wrapped, not changed. */
Test(mcp_api, a_oneof_answer_schema_is_wrapped_in_an_object) {
    json_t *tools = tools_list();
    json_t *output = json_object_get(json_array_get(tools, 0), "outputSchema");
    json_t *one_of = json_object_get(output, "oneOf");
    cr_expect_eq(json_array_size(one_of), 2);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(one_of, 1), "type")),
                     "object");
    cr_expect_not_null(
        json_object_get(json_object_get(json_array_get(one_of, 1), "properties"), "transfer"));
    json_decref(tools);
}

Test(mcp_api, every_tool_has_both_schemas_in_the_embedded_file_and_nothing_else_is_there) {
    size_t rows = 0;
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        const char *json;
        size_t len;
        bool has = cbd_mcp_tool_schema(ep->path, "inputSchema", &json, &len);
        cr_expect_eq(has, ep->tool.title != NULL, "%s", ep->path);
        if (!ep->tool.title) {
            continue;
        }
        rows++;
        for (int s = 0; s < 2; s++) {
            cr_assert(
                cbd_mcp_tool_schema(ep->path, s ? "outputSchema" : "inputSchema", &json, &len));
            json_error_t err;
            json_t *doc = json_loadb(json, len, JSON_REJECT_DUPLICATES, &err);
            cr_expect(json_is_object(doc), "%s: %s", ep->path, err.text);
            cr_expect_null(strstr(json, "\"$ref\""), "%s is not self-contained", ep->path);
            json_decref(doc);
        }
    }
    /* The file is JSON too: its members are the tools' two schemas and the comment. */
    json_t *file = json_loadb((const char *)cbd_asset_mcp_tool_schemas,
                              cbd_asset_mcp_tool_schemas_len, JSON_REJECT_DUPLICATES, NULL);
    cr_assert_not_null(file);
    cr_expect_eq(json_object_size(file), 2 * rows + 1);
    json_decref(file);
}

Test(mcp_api, tool_names_come_from_the_path) {
    char buf[32];
    cr_assert(cbd_mcp_tool_name("/duper/board/options", buf, sizeof buf));
    cr_expect_str_eq(buf, "duper_board_options");
    cr_assert(cbd_mcp_tool_name("/analyze-attack", buf, sizeof buf));
    cr_expect_str_eq(buf, "analyze_attack");
    cr_expect_not(cbd_mcp_tool_name("/duper/board/options", buf, 19), "19 bytes hold 18 and NUL");
    cr_expect(cbd_mcp_tool_name("/duper/board/options", buf, 20));
    cr_expect_null(cbd_mcp_tool_named("mcp"));
    cr_expect_null(cbd_mcp_tool_named("livez"));
    cr_expect_null(cbd_mcp_tool_named("analyze_attac"));
    cr_expect_null(cbd_mcp_tool_named("analyze_attackx"));
    cr_expect(cbd_mcp_version_supported("2025-06-18"));
    cr_expect_not(cbd_mcp_version_supported("2025-06-1"));
}

Test(mcp_api, tools_list_takes_no_cursor) {
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\", \"params\": "
                 "{\"cursor\": \"x\"}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"Invalid "
                 "params: no such cursor (every tool is on one page)\"}}");
}

/* ---- resources ---- */

Test(mcp_api, the_contract_and_the_rules_are_resources) {
    cbd_config cfg = defaults();
    cbd_api_reply r =
        run(&cfg, "/mcp", "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/list\"}");
    json_t *doc = json_loads(r.body, 0, NULL);
    json_t *list = json_object_get(json_object_get(doc, "result"), "resources");
    cr_expect_eq(json_array_size(list), 2, "%s", r.body);
    bool rules = false;
    for (size_t i = 0; i < json_array_size(list); i++) {
        rules |= strcmp(json_string_value(json_object_get(json_array_get(list, i), "uri")),
                        "combatd://docs/rules.md") == 0;
    }
    cr_expect(rules, "%s", r.body);
    json_decref(doc);
    cbd_api_reply_free(&r);

    r = run(&cfg, "/mcp",
            "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/read\", \"params\": "
            "{\"uri\": \"combatd://openapi.yaml\"}}");
    doc = json_loads(r.body, 0, NULL);
    cr_assert_not_null(doc);
    json_t *content =
        json_array_get(json_object_get(json_object_get(doc, "result"), "contents"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(content, "mimeType")), "application/yaml");
    cr_expect_eq(json_string_length(json_object_get(content, "text")), cbd_asset_openapi_yaml_len);
    cr_expect_eq(memcmp(json_string_value(json_object_get(content, "text")), cbd_asset_openapi_yaml,
                        cbd_asset_openapi_yaml_len),
                 0);
    json_decref(doc);
    cbd_api_reply_free(&r);

    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/read\", \"params\": "
                 "{\"uri\": \"combatd://nothing\"}}",
                 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32002,\"message\":\"Resource "
                 "not found: combatd://nothing\"}}");
    expect_reply("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/templates/list\"}", 200,
                 "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resourceTemplates\":[]}}");
}

/* The documents go out as JSON strings as they are: they must be UTF-8 (a rules document
 * that is not fails here, before any client reads it). */
Test(mcp_api, the_embedded_documents_are_utf8) {
    const struct {
        const unsigned char *text;
        unsigned long len;
    } docs[] = {{cbd_asset_openapi_yaml, cbd_asset_openapi_yaml_len},
                {cbd_asset_rules_md, cbd_asset_rules_md_len}};
    for (size_t d = 0; d < 2; d++) {
        json_t *s = json_stringn((const char *)docs[d].text, docs[d].len);
        cr_expect(docs[d].len == 0 || s != NULL, "document %zu is not UTF-8", d);
        json_decref(s);
    }
}
