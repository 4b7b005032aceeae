/*
 * POST /mcp over raw sockets: what the HTTP layer adds to the api layer's envelope (tested in
 * tests/unit/api/test_mcp_api.c). Statuses and headers of the JSON-RPC answers, 202 without a
 * body, 405 for GET and DELETE, the Origin check against DNS rebinding (an origin listed by
 * name is served, `*` does not count, none is fine), the MCP-Protocol-Version header, the
 * preflight, mcp.enabled, the worker pool's refusal as a tool error, the metrics by tool, and
 * JSON-RPC batches (2025-03-26 only, as the MCP-Protocol-Version header says).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "http_client.h"
#include "raw_http.h"

static void setup(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.n_cors_origins = 2;
    snprintf(cfg.server.cors_origins[0], sizeof cfg.server.cors_origins[0], "*");
    snprintf(cfg.server.cors_origins[1], sizeof cfg.server.cors_origins[1],
             "https://agent.example");
    test_suite_start_with(&cfg);
}

TestSuite(mcp_http, .init = setup, .fini = test_suite_stop);

static const char ping[] = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}";

/* One request with the given extra header lines ("Name: value\r\n" each, or ""), and its whole
 * answer (the connection is closed after it). */
static char *exchange(uint16_t port, const char *method, const char *headers, const char *body) {
    char request[4096];
    snprintf(request, sizeof request,
             "%s /mcp HTTP/1.1\r\nHost: t\r\n%s%sContent-Length: %zu\r\nConnection: close\r\n\r\n"
             "%s",
             method, body ? "Content-Type: application/json\r\n" : "", headers,
             body ? strlen(body) : 0, body ? body : "");
    int fd = raw_connect(port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, request));
    char *text = raw_answer_of(fd, 10.0);
    cr_assert_not_null(text);
    return text;
}

static bool has(const char *text, const char *needle) {
    return strstr(text, needle) != NULL;
}

/* The body after the header block. */
static const char *body_of(const char *text) {
    const char *b = strstr(text, "\r\n\r\n");
    cr_assert_not_null(b, "%s", text);
    return b + 4;
}

Test(mcp_http, a_request_is_answered_200_in_json) {
    char *text = exchange(test_port, "POST", "", ping);
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect(has(text, "\r\nContent-Type: application/json\r\n"), "%s", text);
    cr_expect_str_eq(body_of(text), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    free(text);
}

Test(mcp_http, a_notification_is_202_without_a_body_or_its_type) {
    char *text = exchange(test_port, "POST", "",
                          "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}");
    cr_expect_eq(raw_status(text), 202, "%s", text);
    cr_expect(has(text, "\r\nContent-Length: 0\r\n"), "%s", text);
    cr_expect_not(has(text, "\r\nContent-Type:"), "%s", text);
    cr_expect_str_eq(body_of(text), "");
    free(text);
}

Test(mcp_http, json_rpc_errors_carry_their_codes_and_statuses) {
    char *text = exchange(test_port, "POST", "", "{\"jsonrpc\": ");
    cr_expect_eq(raw_status(text), 400, "%s", text);
    cr_expect(has(text, "\r\nContent-Type: application/json\r\n"), "%s", text);
    cr_expect(has(body_of(text), "\"id\":null,\"error\":{\"code\":-32700,"), "%s", text);
    free(text);
    text = exchange(test_port, "POST", "", "{\"id\": 1, \"method\": \"ping\"}");
    cr_expect_eq(raw_status(text), 400, "%s", text);
    cr_expect(has(body_of(text), "\"id\":null,\"error\":{\"code\":-32600,"), "%s", text);
    free(text);
    text =
        exchange(test_port, "POST", "", "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"x/y\"}");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect(has(body_of(text), "\"id\":2,\"error\":{\"code\":-32601,"), "%s", text);
    free(text);
    text = exchange(test_port, "POST", "",
                    "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": "
                    "{\"name\": \"nope\"}}");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect(has(body_of(text), "\"id\":3,\"error\":{\"code\":-32602,"), "%s", text);
    free(text);
}

Test(mcp_http, get_and_delete_are_405_with_allow) {
    static const char *const methods[] = {"GET", "DELETE"};
    for (size_t i = 0; i < 2; i++) {
        char *text = exchange(test_port, methods[i], "", NULL);
        cr_expect_eq(raw_status(text), 405, "%s %s", methods[i], text);
        cr_expect(has(text, "\r\nAllow: POST, OPTIONS\r\n"), "%s", text);
        cr_expect(has(text, "application/problem+json"), "%s", text);
        free(text);
    }
}

Test(mcp_http, an_origin_is_served_only_when_listed_by_name) {
    /* "*" is in cors_origins, and every other endpoint serves this origin. */
    char *text = exchange(test_port, "POST", "Origin: https://evil.example\r\n", ping);
    cr_expect_eq(raw_status(text), 403, "%s", text);
    cr_expect(has(body_of(text), "list it by name in server.cors_origins"), "%s", text);
    /* A refused origin is not invited to read the refusal: no CORS header, though "*" is
     * listed for every other answer. */
    cr_expect_not(has(text, "\r\nAccess-Control-Allow-Origin:"), "%s", text);
    free(text);
    /* RFC 9110 (5.5): whitespace around a field value is not part of it. */
    text = exchange(test_port, "POST", "Origin:   https://agent.example \t \r\n", ping);
    cr_expect_eq(raw_status(text), 200, "a listed origin with whitespace around it: %s", text);
    free(text);
    int fd = raw_connect(test_port);
    cr_assert(raw_send_str(fd, "POST /analyze-attack HTTP/1.1\r\nHost: t\r\nOrigin: "
                               "https://evil.example\r\nContent-Type: application/json\r\n"
                               "Content-Length: 2\r\nConnection: close\r\n\r\n{}"));
    text = raw_answer_of(fd, 10.0);
    cr_expect_eq(raw_status(text), 422, "the other endpoints are unchanged: %s", text);
    free(text);

    text = exchange(test_port, "POST", "Origin: https://agent.example\r\n", ping);
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect(has(text, "\r\nAccess-Control-Allow-Origin: "), "%s", text);
    free(text);
    text = exchange(test_port, "POST",
                    "Origin: https://agent.example\r\nOrigin: https://evil.example\r\n", ping);
    cr_expect_eq(raw_status(text), 403, "two origins: %s", text);
    free(text);
    /* The check holds for every method, before its 405. */
    text = exchange(test_port, "GET", "Origin: https://evil.example\r\n", NULL);
    cr_expect_eq(raw_status(text), 403, "%s", text);
    free(text);
}

Test(mcp_http, the_protocol_version_header_must_be_a_served_revision) {
    static const char *const served[] = {"2025-11-25", "2025-06-18", "2025-03-26"};
    for (size_t i = 0; i < 3; i++) {
        char header[96];
        snprintf(header, sizeof header, "MCP-Protocol-Version: %s\r\n", served[i]);
        char *text = exchange(test_port, "POST", header, ping);
        cr_expect_eq(raw_status(text), 200, "%s: %s", served[i], text);
        free(text);
    }
    char *text = exchange(test_port, "POST", "MCP-Protocol-Version: 2025-06-18  \r\n", ping);
    cr_expect_eq(raw_status(text), 200, "trailing whitespace is not part of the value: %s", text);
    free(text);
    text = exchange(test_port, "POST", "MCP-Protocol-Version: 2024-11-05\r\n", ping);
    cr_expect_eq(raw_status(text), 400, "%s", text);
    cr_expect(has(body_of(text), "2025-11-25, 2025-06-18, 2025-03-26"), "%s", text);
    free(text);
    text =
        exchange(test_port, "POST",
                 "mcp-protocol-version: 2025-06-18\r\nMCP-Protocol-Version: 2025-06-18\r\n", ping);
    cr_expect_eq(raw_status(text), 400, "sent twice: %s", text);
    free(text);
}

Test(mcp_http, the_preflight_allows_the_protocol_version_header) {
    char *text =
        exchange(test_port, "OPTIONS",
                 "Origin: https://agent.example\r\nAccess-Control-Request-Method: POST\r\n", NULL);
    cr_expect_eq(raw_status(text), 204, "%s", text);
    cr_expect(has(text, "\r\nAccess-Control-Allow-Headers: Content-Type, X-Request-Id, "
                        "MCP-Protocol-Version, Mcp-Session-Id\r\n"),
              "%s", text);
    free(text);
}

Test(mcp_http, tool_calls_are_counted_by_tool_and_the_status_of_their_endpoint) {
    char *text =
        exchange(test_port, "POST", "",
                 "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"analyze_attack\", \"arguments\": {\"attackers\": 0, "
                 "\"defenders\": 1}}}");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect(has(body_of(text), "\"isError\":true"), "%s", text);
    free(text);
    text =
        exchange(test_port, "POST", "",
                 "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"duper_battle\", \"arguments\": {\"attack\": {\"player\": \"red\", "
                 "\"tile\": {\"units\": {\"soldier\": 5}}}, \"defense\": {\"player\": \"blue\", "
                 "\"tile\": {\"level\": 1, \"units\": {\"soldier\": 1}}}, \"seed\": 1}}}");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect(has(body_of(text), "\"isError\":false"), "%s", text);
    free(text);
    static const char *const needles[] = {
        "combatd_mcp_tool_calls_total{tool=\"analyze_attack\",status=\"422\"} 1\n",
        "combatd_mcp_tool_calls_total{tool=\"duper_battle\",status=\"200\"} 1\n",
        "combatd_requests_total{route=\"/mcp\",status=\"200\"} 2\n", NULL};
    test_response r;
    cr_assert_eq(test_metrics_with(test_port, needles, 5.0, &r), 0);
    for (size_t i = 0; needles[i]; i++) {
        cr_expect(has(r.body, needles[i]), "no %s in\n%s", needles[i], r.body);
    }
    test_response_free(&r);
}

/* ---- batches: MCP 2025-03-26, and a request without MCP-Protocol-Version ---- */

static const char list_and_call[] =
    "[{\"jsonrpc\": \"2.0\", \"id\": \"list\", \"method\": \"tools/list\"},"
    " {\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": "
    "\"analyze_attack\", \"arguments\": {\"attackers\": 10, \"defenders\": 5, \"settings\": "
    "{\"luck_modifier\": 0}}}}]";

/* tools/list and a call answered in order with their ids; the call worked from the rules
 * (W1-W5, no luck, straight round): 10 x 0.6 = 6 kills take the 5 defenders, whose 5 x 0.7 =
 * 3.5 kills round to 4, so 6 attackers move in, certainly. */
Test(mcp_http, a_batch_is_answered_200_as_an_array_in_order) {
    static const char *const headers[] = {"", "MCP-Protocol-Version: 2025-03-26\r\n"};
    for (size_t h = 0; h < 2; h++) {
        char *text = exchange(test_port, "POST", headers[h], list_and_call);
        cr_expect_eq(raw_status(text), 200, "%.300s", text);
        cr_expect(has(text, "\r\nContent-Type: application/json\r\n"), "%.300s", text);
        json_t *doc = json_loads(body_of(text), 0, NULL);
        cr_assert(json_is_array(doc), "%.300s", text);
        cr_assert_eq(json_array_size(doc), 2);
        cr_expect_str_eq(json_string_value(json_object_get(json_array_get(doc, 0), "id")), "list");
        cr_expect(json_is_array(
            json_object_get(json_object_get(json_array_get(doc, 0), "result"), "tools")));
        const json_t *call = json_array_get(doc, 1);
        cr_expect_eq(json_integer_value(json_object_get(call, "id")), 2);
        const json_t *answer =
            json_object_get(json_object_get(call, "result"), "structuredContent");
        cr_expect_eq(json_real_value(json_object_get(answer, "capture_probability")), 1.0);
        cr_expect_eq(json_integer_value(
                         json_object_get(json_object_get(answer, "outcome"), "attackers_left")),
                     6);
        json_decref(doc);
        free(text);
    }
}

/* A batch is one request to the metrics: counted as /mcp's, its tool call not by tool. */
Test(mcp_http, a_batch_is_counted_as_one_mcp_request_not_by_tool) {
    char *text = exchange(test_port, "POST", "", list_and_call);
    cr_expect_eq(raw_status(text), 200, "%.300s", text);
    free(text);
    static const char *const needles[] = {
        "combatd_requests_total{route=\"/mcp\",status=\"200\"} 1\n", NULL};
    test_response r;
    cr_assert_eq(test_metrics_with(test_port, needles, 5.0, &r), 0);
    cr_expect(has(r.body, needles[0]), "no %s in\n%s", needles[0], r.body);
    cr_expect_not(has(r.body, "combatd_mcp_tool_calls_total{"), "%s", r.body);
    test_response_free(&r);
}

Test(mcp_http, a_notification_in_a_batch_gets_no_response_and_a_batch_of_them_is_202) {
    char *text = exchange(test_port, "POST", "",
                          "[{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}, "
                          "{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\"}]");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect_str_eq(body_of(text), "[{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}]");
    free(text);
    text = exchange(test_port, "POST", "MCP-Protocol-Version: 2025-03-26\r\n",
                    "[{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}, "
                    "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}]");
    cr_expect_eq(raw_status(text), 202, "%s", text);
    cr_expect(has(text, "\r\nContent-Length: 0\r\n"), "%s", text);
    cr_expect_not(has(text, "\r\nContent-Type:"), "%s", text);
    free(text);
}

/* One error object without id, 400: an empty batch (JSON-RPC 2.0), and any batch in the
 * revisions that removed them. */
Test(mcp_http, an_empty_batch_and_a_batch_of_a_later_revision_are_invalid_requests) {
    static const struct {
        const char *header, *body, *needle;
    } cases[] = {
        {"", "[]", "empty batch"},
        {"MCP-Protocol-Version: 2025-06-18\r\n",
         "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
         "\"ping\"}]",
         "MCP 2025-06-18 does not take"},
        {"MCP-Protocol-Version: 2025-11-25\r\n",
         "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "
         "\"ping\"}]",
         "MCP 2025-11-25 does not take"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = exchange(test_port, "POST", cases[i].header, cases[i].body);
        cr_expect_eq(raw_status(text), 400, "%s", text);
        cr_expect(has(body_of(text), "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                                     "\"message\":\"Invalid Request\""),
                  "%s", text);
        cr_expect(has(body_of(text), cases[i].needle), "%s", text);
        free(text);
    }
}

Test(mcp_http, initialize_in_a_batch_is_refused_and_the_rest_answered) {
    char *text = exchange(test_port, "POST", "",
                          "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", "
                          "\"params\": {\"protocolVersion\": \"2025-03-26\"}}, {\"jsonrpc\": "
                          "\"2.0\", \"id\": 2, \"method\": \"ping\"}]");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect_str_eq(body_of(text),
                     "[{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,\"message\":"
                     "\"Invalid Request: initialize may not be part of a JSON-RPC batch\"}},"
                     "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}]");
    free(text);
}

/* ---- other configurations ---- */

Test(mcp_http_config, switched_off_it_is_a_404_like_any_path) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.api.mcp.enabled = false;
    cbd_server *s = test_server_start(&cfg);
    char *text = exchange(cbd_server_port(s), "POST", "", ping);
    cr_expect_eq(raw_status(text), 404, "%s", text);
    cr_expect(has(body_of(text), "No resource at /mcp"), "%s", text);
    free(text);
    cbd_server_stop(s);
}

/* The one worker busy with a long simulation, a heavy tool call from the same client finds no
 * place: the answer is a tool error that says to retry, a 200 without Retry-After, while the
 * same refusal of /simulate is the 503. */
Test(mcp_http_config, a_call_refused_by_the_worker_pool_is_a_tool_error_saying_to_retry) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.workers = 1;
    cfg.server.worker_queue = 0;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    int busy = raw_connect(port);
    cr_assert(raw_send_request(busy, "POST", "/simulate", "application/json",
                               "{\"attackers\": 100, \"defenders\": 60, \"trials\": 10000000, "
                               "\"seed\": 1, \"settings\": {\"luck_modifier\": 0.16}}",
                               true));
    for (int i = 0; i < 1000 && cbd_server_worker_jobs(s) < 1; i++) {
        raw_sleep(0.01);
    }
    cr_assert_eq(cbd_server_worker_jobs(s), 1, "the long simulation was never admitted");
    char *text =
        exchange(port, "POST", "",
                 "{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"simulate\", \"arguments\": {\"attackers\": 10, "
                 "\"defenders\": 5, \"trials\": 1000000, \"seed\": 2}}}");
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect_not(has(text, "Retry-After"), "%s", text);
    cr_expect(has(body_of(text), "\"isError\":true"), "%s", text);
    cr_expect(has(body_of(text), "retry"), "%s", text);
    cr_expect(has(body_of(text), "\\\"status\\\":503"), "%s", text);
    free(text);
    int plain = raw_connect(port);
    cr_assert(raw_send_request(plain, "POST", "/simulate", "application/json",
                               "{\"attackers\": 10, \"defenders\": 5, \"trials\": 1000000, "
                               "\"seed\": 2}",
                               true));
    text = raw_answer_of(plain, 10.0);
    cr_expect_eq(raw_status(text), 503, "%s", text);
    cr_expect(has(text, "\r\nRetry-After: 1\r\n"), "%s", text);
    free(text);
    free(raw_answer_of(busy, 30.0));
    cbd_server_stop(s);
}

/* Every request estimated cheap (inline_cost_ns at its maximum): a tool call that spends the
 * HTTP thread's 1 ms is handed back and answered on a worker, whole, like any request. */
Test(mcp_http_config, a_call_past_the_inline_budget_is_handed_to_a_worker) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.api.limits.inline_cost_ns = UINT64_C(60000000000);
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    char *text =
        exchange(port, "POST", "",
                 "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": "
                 "{\"name\": \"analyze_attack\", \"arguments\": {\"attackers\": 100000, "
                 "\"defenders\": 100000, \"settings\": {\"luck_modifier\": 0.5}, "
                 "\"graph\": {\"from\": 99000, \"to\": 99100}}}}");
    cr_expect_eq(raw_status(text), 200, "%.300s", text);
    cr_expect(has(body_of(text), "\"isError\":false"), "%.300s", text);
    cr_expect(has(body_of(text), "\"structuredContent\":{\"attackers\":100000,"), "%.300s", text);
    free(text);
    static const char *const needles[] = {"combatd_requests_handed_to_workers_total 1\n", NULL};
    test_response r;
    cr_assert_eq(test_metrics_with(port, needles, 5.0, &r), 0);
    cr_expect(has(r.body, needles[0]), "%s", r.body);
    test_response_free(&r);
    cbd_server_stop(s);
}

/* n pings with ids 100, 101, ...: each response {"jsonrpc":"2.0","id":NNN,"result":{}} is 38
 * bytes, so the answer is 1 + 38 n + (n - 1) + 1 = 39 n + 1 bytes. */
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
    strcpy(body + used, "]");
    return body;
}

/* server.max_answer_bytes at its least, 4,096: 105 pings answer 39 x 105 + 1 = 4,096 bytes,
 * 106 would pass it, and the batch is refused naming the element where it would. */
Test(mcp_http_config, the_answer_cap_holds_for_a_whole_batch) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.api.limits.max_answer_bytes = 4096;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    for (size_t n = 105; n <= 106; n++) {
        char *body = pings(n);
        int fd = raw_connect(port);
        cr_assert_geq(fd, 0);
        cr_assert(raw_send_request(fd, "POST", "/mcp", "application/json", body, true));
        char *text = raw_answer_of(fd, 10.0);
        cr_assert_not_null(text);
        if (n == 105) {
            cr_expect_eq(raw_status(text), 200, "%.300s", text);
            cr_expect(has(text, "\r\nContent-Length: 4096\r\n"), "%.300s", text);
            cr_expect_eq(strlen(body_of(text)), 4096);
        } else {
            cr_expect_eq(raw_status(text), 400, "%.300s", text);
            cr_expect(has(body_of(text), "\"code\":-32600"), "%s", text);
            cr_expect(has(body_of(text), "{\"pointer\":\"/105\",\"detail\":\"the answer would "
                                         "pass the 4096 bytes of server.max_answer_bytes"),
                      "%s", text);
        }
        free(text);
        free(body);
    }
    cbd_server_stop(s);
}
