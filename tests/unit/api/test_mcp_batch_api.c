/*
 * JSON-RPC batches on POST /mcp at the api layer (mcp.c, answer_batch): MCP 2025-03-26 takes
 * them, and a request that names no revision is read as 2025-03-26; 2025-06-18 and later
 * refuse them with -32600. Each element is answered as it would be alone, every refusal
 * in-band, in one array in order; the answer cap holds for the whole array and the budget for
 * the whole batch. The expected answers are worked out here from the rules and from JSON-RPC
 * 2.0, or are the same message's answer alone (tests/unit/api/test_mcp_api.c checks those).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "api/api.h"
#include "api/api_config.h"
#include "budget_test.h"
#include "warm_scratch.h"

static cbd_config defaults(void) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return cfg;
}

/* A body through /mcp as the http layer hands it over with MCP-Protocol-Version `protocol`
 * (NULL: the header absent); the caller frees. */
static cbd_api_reply run_in(const cbd_config *cfg, const char *protocol, const char *body) {
    cbd_api_request req;
    cbd_api_reply reply;
    if (cbd_api_parse(cbd_api_find_endpoint("/mcp"), body, strlen(body), &req, &reply)) {
        req.protocol = protocol;
        cbd_api_answer(&req, cfg, &reply);
    }
    return reply;
}

static json_t *parsed(const cbd_api_reply *r) {
    cr_assert_not_null(r->body);
    json_t *doc = json_loads(r->body, JSON_REJECT_DUPLICATES, NULL);
    cr_assert_not_null(doc, "%s", r->body);
    return doc;
}

/* The problem document inside a tool error's text. */
static json_t *tool_problem(const json_t *response) {
    const json_t *result = json_object_get(response, "result");
    cr_assert(json_is_true(json_object_get(result, "isError")), "not a tool error");
    const char *text = json_string_value(
        json_object_get(json_array_get(json_object_get(result, "content"), 0), "text"));
    cr_assert_not_null(text);
    json_t *problem = json_loads(text, 0, NULL);
    cr_assert_not_null(problem, "%s", text);
    return problem;
}

static const char list_and_call[] =
    "[{\"jsonrpc\": \"2.0\", \"id\": \"list\", \"method\": \"tools/list\"},"
    " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": "
    "\"analyze_attack\", \"arguments\": {\"attackers\": 10, \"defenders\": 5, \"settings\": "
    "{\"luck_modifier\": 0}}}}]";

/* tools/list and a tools/call, answered as an array in the batch's order with their ids. The
 * call, worked from the rules (W1-W5, straight round, no luck): 10 attackers kill 10 x 0.6 = 6
 * >= 5 defenders, the 5 defenders kill 5 x 0.7 = 3.5, rounded to 4, so the territory is
 * taken, certainly, by 10 - 4 = 6 survivors. */
Test(mcp_batch, a_batch_is_answered_as_an_array_in_order_with_each_id) {
    cbd_config cfg = defaults();
    static const char *const revisions[] = {"2025-03-26", NULL};
    for (size_t v = 0; v < 2; v++) {
        cbd_api_reply r = run_in(&cfg, revisions[v], list_and_call);
        cr_expect_eq(r.status, 200, "%s", r.body);
        cr_expect_str_eq(r.content_type, "application/json");
        json_t *doc = parsed(&r);
        cr_assert_eq(json_array_size(doc), 2, "%s", r.body);
        const json_t *list = json_array_get(doc, 0), *call = json_array_get(doc, 1);
        cr_expect_str_eq(json_string_value(json_object_get(list, "id")), "list");
        size_t tools = 0;
        for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
            tools += ep->tool.title != NULL;
        }
        cr_expect_eq(json_array_size(json_object_get(json_object_get(list, "result"), "tools")),
                     tools);
        cr_expect_eq(json_integer_value(json_object_get(call, "id")), 2);
        const json_t *result = json_object_get(call, "result");
        cr_expect(json_is_false(json_object_get(result, "isError")), "%s", r.body);
        const json_t *answer = json_object_get(result, "structuredContent");
        cr_expect_eq(json_real_value(json_object_get(answer, "capture_probability")), 1.0);
        const json_t *outcome = json_object_get(answer, "outcome");
        cr_expect(json_is_true(json_object_get(outcome, "captured")));
        cr_expect_eq(json_integer_value(json_object_get(outcome, "attackers_lost")), 4);
        cr_expect_eq(json_integer_value(json_object_get(outcome, "defenders_lost")), 5);
        cr_expect_eq(json_integer_value(json_object_get(outcome, "attackers_left")), 6);
        json_decref(doc);
        cbd_api_reply_free(&r);
    }
}

/* Each response of a batch is the one its message gets alone, byte for byte. */
Test(mcp_batch, each_response_is_the_messages_answer_alone) {
    cbd_config cfg = defaults();
    cbd_api_reply batch = run_in(&cfg, NULL, list_and_call);
    json_t *doc = parsed(&batch);
    json_t *messages = json_loads(list_and_call, 0, NULL);
    cr_assert_not_null(messages);
    for (size_t i = 0; i < 2; i++) {
        char *alone_body = json_dumps(json_array_get(messages, i), JSON_COMPACT);
        cbd_api_reply alone = run_in(&cfg, NULL, alone_body);
        cr_expect_eq(alone.status, 200);
        char *response = json_dumps(json_array_get(doc, i), JSON_COMPACT | JSON_REAL_PRECISION(15));
        cr_expect_str_eq(response, alone.body, "element %zu", i);
        free(response);
        free(alone_body);
        cbd_api_reply_free(&alone);
    }
    json_decref(messages);
    json_decref(doc);
    cbd_api_reply_free(&batch);
}

/* JSON-RPC 2.0 (6): notifications get no response, nor do the client's responses. */
Test(mcp_batch, notifications_and_responses_in_a_batch_get_no_response) {
    cbd_config cfg = defaults();
    cbd_api_reply r = run_in(&cfg, "2025-03-26",
                             "[{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"},"
                             " {\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"},"
                             " {\"jsonrpc\": \"2.0\", \"id\": \"x\", \"result\": {}},"
                             " {\"jsonrpc\": \"2.0\", \"id\": \"two\", \"method\": \"ping\"}]");
    cr_expect_eq(r.status, 200);
    cr_expect_str_eq(r.body, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},"
                             "{\"jsonrpc\":\"2.0\",\"id\":\"two\",\"result\":{}}]");
    cbd_api_reply_free(&r);
}

/* MCP 2025-03-26 (Streamable HTTP): input of notifications and responses only is 202 Accepted
 * with no body. */
Test(mcp_batch, a_batch_of_notifications_only_is_202_without_a_body) {
    cbd_config cfg = defaults();
    cbd_api_reply r =
        run_in(&cfg, NULL,
               "[{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"},"
               " {\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": "
               "{\"requestId\": 3}}, {\"jsonrpc\": \"2.0\", \"id\": 4, \"error\": {\"code\": 1, "
               "\"message\": \"m\"}}]");
    cr_expect_eq(r.status, 202, "%s", r.body);
    cr_expect_eq(r.body_len, 0);
    cr_expect_null(r.content_type);
    cbd_api_reply_free(&r);
}

/* The -32600 a whole body gets: one error object without id (not an array), answered 400,
 * whose problem names the member at fault with `needle` in its words. */
static void expect_refused_body(const char *protocol, const char *body, const char *needle) {
    cbd_config cfg = defaults();
    cbd_api_reply r = run_in(&cfg, protocol, body);
    cr_expect_eq(r.status, 400, "%s: %s", body, r.body);
    json_t *doc = parsed(&r);
    cr_assert(json_is_object(doc), "%s", r.body);
    cr_expect(json_is_null(json_object_get(doc, "id")), "%s", r.body);
    const json_t *error = json_object_get(doc, "error");
    cr_expect_eq(json_integer_value(json_object_get(error, "code")), -32600, "%s", r.body);
    cr_expect_str_eq(json_string_value(json_object_get(error, "message")), "Invalid Request");
    const json_t *problem = json_object_get(error, "data");
    cr_expect_eq(json_integer_value(json_object_get(problem, "status")), 400);
    cr_expect(has_error(problem, "", needle), "%s", r.body);
    json_decref(doc);
    cbd_api_reply_free(&r);
}

/* JSON-RPC 2.0 (6): "[]" is one Invalid Request error, not an empty array. */
Test(mcp_batch, an_empty_batch_is_one_invalid_request) {
    expect_refused_body(NULL, "[]", "empty batch");
    expect_refused_body("2025-03-26", "[ ]", "empty batch");
}

/* 2025-06-18 removed batches, and 2025-11-25 has none either. */
Test(mcp_batch, later_revisions_refuse_a_batch_with_invalid_request) {
    static const char batch[] = "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]";
    expect_refused_body("2025-06-18", batch, "MCP 2025-06-18 does not take");
    expect_refused_body("2025-11-25", batch, "MCP 2025-11-25 does not take");
    expect_refused_body("2025-06-18", "[]", "does not take");
    /* The same message alone is answered in every revision. */
    cbd_config cfg = defaults();
    cbd_api_reply r = run_in(&cfg, "2025-06-18",
                             "{\"jsonrpc\": \"2.0\", \"id\": 1, "
                             "\"method\": \"ping\"}");
    cr_expect_eq(r.status, 200);
    cbd_api_reply_free(&r);
}

/* 2025-03-26: "The initialize request MUST NOT be part of a JSON-RPC batch": that element is
 * an Invalid Request with its id, and the others are answered. */
Test(mcp_batch, initialize_in_a_batch_is_an_invalid_request) {
    cbd_config cfg = defaults();
    cbd_api_reply r =
        run_in(&cfg, "2025-03-26",
               "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
               "{\"protocolVersion\": \"2025-03-26\", \"capabilities\": {}, \"clientInfo\": "
               "{\"name\": \"t\", \"version\": \"1\"}}},"
               " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"ping\"}]");
    cr_expect_eq(r.status, 200);
    cr_expect_str_eq(r.body, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"
                             "\"message\":\"Invalid Request: initialize may not be part of a "
                             "JSON-RPC batch\"}},{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}]");
    cbd_api_reply_free(&r);
}

/* The pointers of an element's -32600, joined by spaces. */
static void expect_invalid_element(const json_t *response, const char *pointers) {
    cr_expect(json_is_null(json_object_get(response, "id")));
    const json_t *error = json_object_get(response, "error");
    cr_expect_eq(json_integer_value(json_object_get(error, "code")), -32600);
    const json_t *errors = json_object_get(json_object_get(error, "data"), "errors");
    char got[256] = "";
    for (size_t i = 0; i < json_array_size(errors); i++) {
        strcat(got, i ? " " : "");
        strcat(got, json_string_value(json_object_get(json_array_get(errors, i), "pointer")));
    }
    cr_expect_str_eq(got, pointers);
}

/* A bad element spoils nothing else: JSON-RPC 2.0's "[1,2,3]" example, an element whose
 * jsonrpc is wrong, a refused tool call and a ping, each answered on its own, with pointers
 * into the batch. */
Test(mcp_batch, each_element_is_answered_on_its_own) {
    cbd_config cfg = defaults();
    cbd_api_reply r =
        run_in(&cfg, NULL,
               "[1, {\"jsonrpc\": \"1.0\", \"id\": 5, \"method\": \"ping\"}, {\"jsonrpc\": "
               "\"2.0\", \"id\": 3, \"method\": \"ping\"}, {\"jsonrpc\": \"2.0\", \"id\": 4, "
               "\"method\": \"tools/call\", \"params\": {\"name\": \"analyze_attack\", "
               "\"arguments\": {\"attackers\": -1, \"defenders\": 5}}}, {}, []]");
    cr_expect_eq(r.status, 200, "%s", r.body);
    json_t *doc = parsed(&r);
    cr_assert_eq(json_array_size(doc), 6, "%s", r.body);
    expect_invalid_element(json_array_get(doc, 0), "/0");
    expect_invalid_element(json_array_get(doc, 1), "/1/jsonrpc");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(doc, 2), "id")), 3);
    cr_expect(json_is_object(json_object_get(json_array_get(doc, 2), "result")));
    json_t *problem = tool_problem(json_array_get(doc, 3));
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(doc, 3), "id")), 4);
    cr_expect(has_error(problem, "/attackers", NULL), "%s", r.body);
    json_decref(problem);
    expect_invalid_element(json_array_get(doc, 4), "/4/jsonrpc /4/method");
    expect_invalid_element(json_array_get(doc, 5), "/5");
    json_decref(doc);
    cbd_api_reply_free(&r);
}

/* n pings with the 3-digit ids 100, 101, ...: each response {"jsonrpc":"2.0","id":NNN,
 * "result":{}} is 17 + 9 + 12 = 38 bytes, so the batch's answer is 1 + 38 n + (n - 1) + 1 =
 * 39 n + 1 bytes. */
static char *pings(size_t n) {
    char *body = malloc(64 * n + 2);
    cr_assert_not_null(body);
    size_t used = 0;
    body[used++] = '[';
    for (size_t i = 0; i < n; i++) {
        used +=
            (size_t)sprintf(body + used, "%s{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"ping\"}",
                            i ? "," : "", 100 + i);
    }
    body[used++] = ']';
    body[used] = '\0';
    return body;
}

/* The cap holds for the whole array: at the smallest cap, 4,096 bytes, 105 pings answer
 * 39 x 105 + 1 = 4,096 bytes and fit; with a 106th, whose response does not fit and whose
 * error would not either, the batch is refused naming that element. */
Test(mcp_batch, the_cap_holds_for_the_whole_answer_to_the_byte) {
    cbd_config cfg = defaults();
    cfg.limits.max_answer_bytes = 4096;
    char *body = pings(105);
    cbd_api_reply r = run_in(&cfg, NULL, body);
    cr_expect_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(r.body_len, 4096);
    cbd_api_reply_free(&r);
    free(body);
    body = pings(106);
    r = run_in(&cfg, NULL, body);
    cr_expect_eq(r.status, 400, "%.300s", r.body);
    json_t *doc = parsed(&r);
    const json_t *error = json_object_get(doc, "error");
    cr_expect_eq(json_integer_value(json_object_get(error, "code")), -32600);
    cr_expect(has_error(json_object_get(error, "data"), "/105", "server.max_answer_bytes"), "%s",
              r.body);
    json_decref(doc);
    cbd_api_reply_free(&r);
    free(body);
}

/* A response that does not fit in what the batch has left is an error of its own: a tool
 * call's is a tool error naming the argument whose part passed (as alone), any other request's
 * is "Answer too large" with its id; the responses after it are answered in what is left. The
 * graph call answers between 3,600 and 7,200 bytes (test_mcp_api.c), twice in its result. */
Test(mcp_batch, a_response_past_the_room_left_is_its_own_error) {
    cbd_config cfg = defaults();
    cfg.limits.max_answer_bytes = 2 * 7200 + 2000;
    static const char call[] =
        "{\"jsonrpc\": \"2.0\", \"id\": %d, \"method\": \"tools/call\", \"params\": {\"name\": "
        "\"analyze_attack\", \"arguments\": {\"attackers\": 10, \"defenders\": 5, \"settings\": "
        "{\"luck_modifier\": 0.16}, \"graph\": {\"from\": 1, \"to\": 30}, "
        "\"max_distribution_points\": 10}}}";
    char one[512], two[512], body[1200];
    snprintf(one, sizeof one, call, 7);
    snprintf(two, sizeof two, call, 8);
    snprintf(body, sizeof body, "[%s, %s, {\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"ping\"}]",
             one, two);
    cbd_api_reply alone = run_in(&cfg, NULL, one);
    cr_assert_eq(alone.status, 200);
    cr_assert_null(strstr(alone.body, "\"isError\":true"), "%s", alone.body);
    cbd_api_reply r = run_in(&cfg, NULL, body);
    cr_expect_eq(r.status, 200, "%.400s", r.body);
    cr_expect_leq(r.body_len, cfg.limits.max_answer_bytes);
    /* The first response, then ',' and the second: what was left for the second is the cap
     * less '[', the first, ',' and the closing ']'. */
    cr_expect_eq(memcmp(r.body + 1, alone.body, alone.body_len), 0);
    size_t room = cfg.limits.max_answer_bytes - 1 - alone.body_len - 2;
    json_t *doc = parsed(&r);
    cr_assert_eq(json_array_size(doc), 3);
    json_t *problem = tool_problem(json_array_get(doc, 1));
    cr_expect(has_error(problem, "/graph", "server.max_answer_bytes"), "%s", r.body);
    char left[64];
    snprintf(left, sizeof left, "left %zu bytes", room);
    cr_expect_not_null(strstr(json_string_value(json_object_get(problem, "detail")), left), "%s",
                       json_string_value(json_object_get(problem, "detail")));
    cr_expect_eq(json_integer_value(json_object_get(problem, "status")), 422);
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(doc, 2), "id")), 9);
    json_decref(problem);
    json_decref(doc);
    cbd_api_reply_free(&r);
    cbd_api_reply_free(&alone);

    /* tools/list (the schemas of every tool: tens of KB) past the smallest cap: its error has
     * its id and the problem the same message alone is answered over HTTP with. */
    cfg.limits.max_answer_bytes = 4096;
    r = run_in(&cfg, NULL,
               "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}, {\"jsonrpc\": "
               "\"2.0\", \"id\": 2, \"method\": \"ping\"}]");
    cr_expect_eq(r.status, 200, "%s", r.body);
    doc = parsed(&r);
    const json_t *error = json_object_get(json_array_get(doc, 0), "error");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(doc, 0), "id")), 1);
    cr_expect_eq(json_integer_value(json_object_get(error, "code")), -32000);
    cr_expect_str_eq(json_string_value(json_object_get(error, "message")), "Answer too large");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(error, "data"), "status")),
                 422);
    char *ping = json_dumps(json_array_get(doc, 1), JSON_COMPACT);
    cr_expect_str_eq(ping, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
    free(ping);
    json_decref(doc);
    cbd_api_reply_free(&r);
}

/* 60,000 trials of a seeded battle of 10 v 5: about 1.2 ms of budget (the test measures it
 * before it counts on it). */
static const char trials_60000[] =
    "{\"jsonrpc\": \"2.0\", \"id\": %zu, \"method\": \"tools/call\", \"params\": {\"name\": "
    "\"simulate\", \"arguments\": {\"attackers\": 10, \"defenders\": 5, \"trials\": 60000, "
    "\"seed\": 3}}}";

/* The batch is one request to the budget: at a budget that holds the batch's parse and one
 * call of about 1.2 ms but not two, of 1,000 such calls the first is answered and the other 999
 * are tool errors that say the budget is spent, not 1,000 budgets run. */
Test(mcp_batch, a_batch_is_one_request_to_the_budget) {
    cbd_config cfg = defaults();
    char one[400];
    snprintf(one, sizeof one, trials_60000, (size_t)0);
    cbd_budget spent;
    cbd_api_limits limits = cbd_api_full_limits(&cfg);
    limits.report = &spent;
    limits.scratch = warm_scratch();
    cbd_api_request req;
    cbd_api_reply r;
    cr_assert(cbd_api_parse(cbd_api_find_endpoint("/mcp"), one, strlen(one), &req, &r));
    cr_assert(cbd_api_answer_within(&req, &cfg, &limits, &r));
    cr_assert_null(strstr(r.body, "\"isError\":true"), "%s", r.body);
    cbd_api_reply_free(&r);
    uint64_t call = spent.work_spent - budget_request_units(one);
    cr_assert_gt(call, CBD_WORK_UNITS_PER_MS, "a call is more than a millisecond: %llu",
                 (unsigned long long)call);

    size_t n = 1000;
    char *body = malloc(n * sizeof one + 2);
    cr_assert_not_null(body);
    size_t used = 0;
    body[used++] = '[';
    for (size_t i = 0; i < n; i++) {
        used += (size_t)sprintf(body + used, "%s", i ? "," : "");
        used += (size_t)sprintf(body + used, trials_60000, i);
    }
    strcpy(body + used, "]");
    uint64_t batch = budget_request_units(body);
    cfg.limits.work_budget_ms = (batch + call) / CBD_WORK_UNITS_PER_MS + 1;
    cr_assert_lt(cfg.limits.work_budget_ms * CBD_WORK_UNITS_PER_MS, batch + 2 * call,
                 "two calls do not fit");
    r = run_in(&cfg, NULL, body);
    cr_expect_eq(r.status, 200);
    json_t *doc = parsed(&r);
    cr_assert_eq(json_array_size(doc), n);
    const json_t *first = json_object_get(json_array_get(doc, 0), "result");
    cr_expect(json_is_false(json_object_get(first, "isError")));
    cr_expect_eq(
        json_integer_value(json_object_get(json_object_get(first, "structuredContent"), "trials")),
        60000);
    for (size_t i = 1; i < n; i++) {
        json_t *problem = tool_problem(json_array_get(doc, i));
        cr_assert_eq(json_integer_value(json_object_get(json_array_get(doc, i), "id")), (int)i);
        char *text = json_dumps(problem, 0);
        cr_assert_not_null(strstr(text, "work budget"), "%zu: %s", i, text);
        free(text);
        json_decref(problem);
    }
    json_decref(doc);
    cbd_api_reply_free(&r);
    free(body);
}

/* A batch's estimate is its tool calls' together with one parse, so a costly batch goes to a
 * worker at once as its calls would. */
Test(mcp_batch, a_batch_costs_its_calls_together) {
    cbd_config cfg = defaults();
    const char *args = "{\"attackers\": 50, \"defenders\": 40, \"trials\": 1000000, \"seed\": 1}";
    char body[1024];
    snprintf(body, sizeof body,
             "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
             "{\"name\": \"simulate\", \"arguments\": %s}}, {\"jsonrpc\": \"2.0\", \"id\": 2, "
             "\"method\": \"ping\"}, {\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": "
             "\"tools/call\", \"params\": {\"name\": \"simulate\", \"arguments\": %s}}]",
             args, args);
    json_t *a = json_loads(args, 0, NULL), *batch = json_loads(body, 0, NULL);
    json_t *ping = json_loads("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]", 0, NULL);
    cr_assert(a && batch && ping);
    uint64_t one = cbd_api_simulate_cost(&cfg, a);
    cr_assert_gt(one, CBD_COST_BASE_NS);
    cr_expect_eq(cbd_api_mcp_cost(&cfg, batch), 2 * one - CBD_COST_BASE_NS);
    cr_expect_eq(cbd_api_mcp_cost(&cfg, ping), CBD_COST_BASE_NS);
    json_decref(a);
    json_decref(batch);
    json_decref(ping);
}

/* A batch refused before it runs (the worker pool had no room) is the 503 over HTTP, the
 * problem as every endpoint answers it: no one call's tool error could stand for the whole
 * batch, while a single call's is a tool error (test_mcp_api.c). */
Test(mcp_batch, a_batch_refused_for_room_is_the_503) {
    cbd_problem busy;
    cbd_problem_init(&busy);
    cbd_problem_set(&busy, 503, "All 66 places for long requests are taken; retry shortly.");
    cbd_api_reply want;
    cbd_api_problem_reply(&busy, &want);
    static const char batch[] =
        "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": "
        "\"simulate\", \"arguments\": {\"attackers\": 5, \"defenders\": 3, \"seed\": 1}}}]";
    cbd_api_request req;
    cbd_api_reply reply;
    cr_assert(cbd_api_parse(cbd_api_find_endpoint("/mcp"), batch, strlen(batch), &req, &reply));
    cr_expect_null(cbd_api_called(&req), "a batch names no one tool");
    cbd_api_refuse(&req, &busy, &reply);
    cr_expect_eq(reply.status, 503);
    cr_expect_str_eq(reply.content_type, "application/problem+json");
    cr_expect_str_eq(reply.body, want.body);
    cbd_api_reply_free(&reply);
    cbd_api_reply_free(&want);
}
