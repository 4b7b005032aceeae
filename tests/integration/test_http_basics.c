/* The HTTP contract every endpoint shares: statuses, headers and problem bodies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"

static void setup(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.body_limit = 1000;
    cfg.server.board_body_limit = 3000;
    cfg.server.n_cors_origins = 1;
    snprintf(cfg.server.cors_origins[0], sizeof cfg.server.cors_origins[0], "https://play.example");
    test_suite_start_with(&cfg);
}

TestSuite(http, .init = setup, .fini = test_suite_stop);

static void expect_header(const test_response *r, const char *name, const char *want) {
    char buf[256];
    const char *got = test_header(r, name, buf, sizeof buf);
    cr_expect_not_null(got, "missing header %s", name);
    if (got) {
        cr_expect_str_eq(got, want, "header %s", name);
    }
}

Test(http, livez_answers_ok_json) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    cr_expect_str_eq(r.body, "{\"status\":\"ok\"}");
    expect_header(&r, "Content-Type", "application/json");
    expect_header(&r, "Cache-Control", "no-store");
    test_response_free(&r);
}

Test(http, readyz_answers_ready) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/readyz", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    cr_expect_str_eq(r.body, "{\"status\":\"ready\"}");
    test_response_free(&r);
}

Test(http, head_answers_without_a_body) {
    test_response r;
    cr_assert_eq(test_request(test_port, "HEAD", "/livez", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    cr_expect_eq(r.body_len, 0);
    test_response_free(&r);
}

Test(http, unknown_path_is_404_problem) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/nope", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 404);
    expect_header(&r, "Content-Type", "application/problem+json");
    cr_expect_str_eq(r.body, "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,"
                             "\"detail\":\"No resource at /nope; see /openapi.yaml for the "
                             "endpoints.\",\"errors\":[]}");
    test_response_free(&r);
}

Test(http, wrong_method_is_405_with_allow) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/analyze-attack", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 405);
    expect_header(&r, "Allow", "POST, OPTIONS");
    expect_header(&r, "Content-Type", "application/problem+json");
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "detail")),
                     "GET is not allowed on /analyze-attack; use POST, OPTIONS.");
    test_response_free(&r);

    cr_assert_eq(test_request(test_port, "POST", "/metrics", "application/json", "{}", 2, NULL, &r),
                 0);
    cr_expect_eq(r.status, 405);
    expect_header(&r, "Allow", "GET, HEAD, OPTIONS");
    test_response_free(&r);
}

Test(http, other_content_types_are_415) {
    const char *types[] = {"text/plain", "application/jsonx", "application/x-www-form-urlencoded",
                           NULL};
    for (size_t i = 0; i < 4; i++) {
        test_response r;
        cr_assert_eq(test_request(test_port, "POST", "/duper/battle", types[i], "{}", 2, NULL, &r),
                     0);
        cr_expect_eq(r.status, 415, "Content-Type %s", types[i] ? types[i] : "(none)");
        cr_expect_eq(json_integer_value(json_object_get(r.json, "status")), 415);
        cr_expect_str_eq(json_string_value(json_object_get(r.json, "title")),
                         "Unsupported Media Type");
        test_response_free(&r);
    }
}

Test(http, json_with_parameters_is_accepted) {
    test_response r;
    cr_assert_eq(test_request(test_port, "POST", "/analyze-attack",
                              "application/json; charset=utf-8", "[]", 2, NULL, &r),
                 0);
    cr_expect_neq(r.status, 415);
    test_response_free(&r);
}

Test(http, body_over_the_limit_by_content_length_is_413) {
    char *big = malloc(1001);
    memset(big, ' ', 1001);
    test_response r;
    cr_assert_eq(
        test_request(test_port, "POST", "/analyze-attack", "application/json", big, 1001, NULL, &r),
        0);
    cr_expect_eq(r.status, 413);
    expect_header(&r, "Connection", "close");
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "detail")),
                     "The body may be at most 1000 bytes (server.body_limit).");
    test_response_free(&r);
    free(big);
}

/* A map endpoint's body is held to server.board_body_limit (endpoints.h's `body` column), a
 * battle's to server.body_limit: 2,000 bytes are read on /analyze-turn (a 422: not an object)
 * and refused on /analyze-attack; 3,001 are refused on /analyze-turn, naming the key. */
Test(http, a_map_endpoint_takes_bodies_up_to_board_body_limit) {
    char *big = malloc(3001);
    memset(big, ' ', 3001);
    big[0] = '[';
    big[1] = ']';
    const char *maps[] = {"/analyze-turn", "/plan-turn", "/warzone/plan-turn",
                          "/duper/board/options", "/mcp"};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        test_response r;
        cr_assert_eq(
            test_request(test_port, "POST", maps[i], "application/json", big, 2000, NULL, &r), 0);
        cr_expect_neq(r.status, 413, "%s: %s", maps[i], r.body);
        test_response_free(&r);
        cr_assert_eq(
            test_request(test_port, "POST", maps[i], "application/json", big, 3001, NULL, &r), 0);
        cr_expect_eq(r.status, 413, "%s", maps[i]);
        if (r.status == 413) {
            cr_expect_str_eq(json_string_value(json_object_get(r.json, "detail")),
                             "The body may be at most 3000 bytes (server.board_body_limit).");
        }
        test_response_free(&r);
    }
    const char *battles[] = {"/analyze-attack", "/simulate", "/duper/battle"};
    for (size_t i = 0; i < sizeof battles / sizeof battles[0]; i++) {
        test_response r;
        cr_assert_eq(
            test_request(test_port, "POST", battles[i], "application/json", big, 2000, NULL, &r),
            0);
        cr_expect_eq(r.status, 413, "%s", battles[i]);
        test_response_free(&r);
    }
    free(big);
}

Test(http, body_at_the_limit_is_read) {
    /* 1000 bytes: "[]" padded with spaces is valid JSON, so the answer is 422 (not an object). */
    char body[1000];
    memset(body, ' ', sizeof body);
    body[0] = '[';
    body[1] = ']';
    test_response r;
    cr_assert_eq(test_request(test_port, "POST", "/analyze-attack", "application/json", body,
                              sizeof body, NULL, &r),
                 0);
    cr_expect_eq(r.status, 422);
    test_response_free(&r);
}

Test(http, chunked_body_over_the_limit_is_413_after_reading) {
    /* Two chunks of 600 bytes: no Content-Length, so the cap is met while reading. */
    char req[2048];
    int n =
        snprintf(req, sizeof req,
                 "POST /analyze-attack HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n258\r\n");
    memset(req + n, ' ', 600);
    n += 600;
    n += snprintf(req + n, sizeof req - (size_t)n, "\r\n258\r\n");
    memset(req + n, ' ', 600);
    n += 600;
    n += snprintf(req + n, sizeof req - (size_t)n, "\r\n0\r\n\r\n");
    char resp[4096];
    cr_assert_gt(test_raw(test_port, req, (size_t)n, resp, sizeof resp), 0);
    cr_expect(strncmp(resp, "HTTP/1.1 413 ", 13) == 0, "%s", resp);
    cr_expect(strstr(resp, "application/problem+json") != NULL);
}

Test(http, malformed_json_is_400_naming_line_and_column) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-attack", "{\n \"attackers\": 10,\n}", &r), 0);
    cr_expect_eq(r.status, 400);
    expect_header(&r, "Content-Type", "application/problem+json");
    const char *detail = json_string_value(json_object_get(r.json, "detail"));
    cr_assert_not_null(detail);
    cr_expect(strstr(detail, "line 3, column 1") != NULL, "detail: %s", detail);
    test_response_free(&r);
}

Test(http, duplicate_keys_and_trailing_garbage_are_400) {
    const char *bodies[] = {"{\"attackers\": 1, \"attackers\": 2}", "{} {}", "{}x", ""};
    for (size_t i = 0; i < 4; i++) {
        test_response r;
        cr_assert_eq(test_post_json(test_port, "/simulate", bodies[i], &r), 0);
        cr_expect_eq(r.status, 400, "body %s", bodies[i]);
        test_response_free(&r);
    }
}

Test(http, a_non_object_document_is_422) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/duper/battle", "[1, 2]", &r), 0);
    cr_expect_eq(r.status, 422);
    json_t *e = json_array_get(json_object_get(r.json, "errors"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(e, "pointer")), "");
    cr_expect_str_eq(json_string_value(json_object_get(e, "detail")),
                     "the request must be a JSON object");
    test_response_free(&r);
}

Test(http, request_id_is_echoed_or_generated) {
    const char *mine[] = {"X-Request-Id: trace-42.a", NULL};
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/livez", NULL, NULL, 0, mine, &r), 0);
    expect_header(&r, "X-Request-Id", "trace-42.a");
    test_response_free(&r);

    /* An id with characters that could break the log line is replaced, not echoed. */
    const char *hostile[] = {"X-Request-Id: a\"b", NULL};
    cr_assert_eq(test_request(test_port, "GET", "/livez", NULL, NULL, 0, hostile, &r), 0);
    char buf[128];
    const char *id = test_header(&r, "X-Request-Id", buf, sizeof buf);
    cr_assert_not_null(id);
    cr_expect_eq(strlen(id), 16);
    cr_expect_eq(strspn(id, "0123456789abcdef"), 16, "generated ids are 16 hex digits: %s", id);
    test_response_free(&r);
}

Test(http, cors_preflight_for_an_allowed_origin) {
    const char *h[] = {"Origin: https://play.example", "Access-Control-Request-Method: POST", NULL};
    test_response r;
    cr_assert_eq(test_request(test_port, "OPTIONS", "/analyze-attack", NULL, NULL, 0, h, &r), 0);
    cr_expect_eq(r.status, 204);
    expect_header(&r, "Access-Control-Allow-Origin", "https://play.example");
    expect_header(&r, "Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS");
    expect_header(&r, "Access-Control-Allow-Headers", "Content-Type, X-Request-Id");
    expect_header(&r, "Vary", "Origin");
    test_response_free(&r);
}

Test(http, cors_headers_are_absent_for_other_origins) {
    const char *h[] = {"Origin: https://evil.example", NULL};
    test_response r;
    char buf[128];
    cr_assert_eq(test_request(test_port, "GET", "/livez", NULL, NULL, 0, h, &r), 0);
    cr_expect_eq(r.status, 200);
    cr_expect_null(test_header(&r, "Access-Control-Allow-Origin", buf, sizeof buf));
    test_response_free(&r);
}

Test(http, openapi_is_served_as_yaml) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/openapi.yaml", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    expect_header(&r, "Content-Type", "application/yaml; charset=utf-8");
    cr_expect(strncmp(r.body, "openapi: 3.1.0\n", 15) == 0);
    test_response_free(&r);
}

/* The script-src of a CSP: the text from "script-src" to the next ';' (or the end). */
static void script_src_of(const char *csp, char *out, size_t size) {
    const char *s = strstr(csp, "script-src");
    cr_assert_not_null(s, "no script-src in %s", csp);
    size_t n = strcspn(s, ";");
    snprintf(out, size, "%.*s", (int)n, s);
}

/* A page that runs no inline script: its CSP allows scripts from the service only, its HTML has
 * no <script> without a src and names `script` (relative to the page), which is served as
 * JavaScript holding `needle`. */
static void expect_no_inline_script(const char *page, const char *script, const char *needle) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", page, NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200, "%s", page);
    char csp[512], src[128], tag_text[128], path[128];
    cr_assert_not_null(test_header(&r, "Content-Security-Policy", csp, sizeof csp));
    script_src_of(csp, src, sizeof src);
    cr_expect_str_eq(src, "script-src 'self'", "%s", page);
    for (const char *p = r.body; (p = strstr(p, "<script")) != NULL; p++) {
        size_t tag = strcspn(p, ">");
        cr_expect(memmem(p, tag, "src=", 4) != NULL, "%s: an inline script: %.80s", page, p);
    }
    snprintf(tag_text, sizeof tag_text, "<script src=\"%s\"></script>", script);
    cr_expect(strstr(r.body, tag_text) != NULL, "%s does not load %s", page, script);
    test_response_free(&r);
    snprintf(path, sizeof path, "/%s", script);
    cr_assert_eq(test_request(test_port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200, "%s", path);
    expect_header(&r, "Content-Type", "text/javascript; charset=utf-8");
    cr_expect(strstr(r.body, needle) != NULL, "%s", path);
    test_response_free(&r);
}

Test(http, page_is_served_as_html) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    expect_header(&r, "Content-Type", "text/html; charset=utf-8");
    char csp[512];
    cr_assert_not_null(test_header(&r, "Content-Security-Policy", csp, sizeof csp));
    cr_expect(strncmp(csp, "default-src 'none';", 19) == 0, "%s", csp);
    cr_expect(strstr(csp, "connect-src 'self'") != NULL, "%s", csp);
    cr_expect(strstr(r.body, "<title>") != NULL);
    test_response_free(&r);
    expect_no_inline_script("/", "page.js", "const UNIT_CLASSES = [");
}

/* The API reference runs no inline script either. */
Test(http, docs_run_no_inline_script) {
    expect_no_inline_script("/docs", "docs/docs.js", "Redoc.init('openapi.yaml'");
}

Test(http, metrics_count_requests_by_route_and_status) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/nope", NULL, NULL, 0, NULL, &r), 0);
    test_response_free(&r);
    cr_assert_eq(test_request(test_port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    test_response_free(&r);
    static const char *const counted[] = {
        "combatd_requests_total{route=\"other\",status=\"404\"} 1\n",
        "combatd_requests_total{route=\"/livez\",status=\"200\"} 1\n", NULL};
    cr_assert_eq(test_metrics_with(test_port, counted, 5.0, &r), 0);
    cr_expect_eq(r.status, 200);
    expect_header(&r, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    /* Each test has its own server (the suite's init runs per test), so the counts are 1. */
    cr_expect(strstr(r.body, counted[0]) != NULL, "%s", r.body);
    cr_expect(strstr(r.body, counted[1]) != NULL, "%s", r.body);
    /* The latency histogram counts those two and any /metrics asked for before this one. */
    unsigned long metrics_asked = 0, observed = 0;
    const char *m = strstr(r.body, "combatd_requests_total{route=\"/metrics\",status=\"200\"} ");
    if (m) {
        sscanf(strchr(m, '}') + 2, "%lu", &metrics_asked);
    }
    const char *c = strstr(r.body, "combatd_request_duration_seconds_count ");
    cr_assert_not_null(c);
    sscanf(c + strlen("combatd_request_duration_seconds_count "), "%lu", &observed);
    cr_expect_eq(observed, 2 + metrics_asked, "%s", r.body);
    /* The /metrics request itself is in flight while it renders. */
    cr_expect(strstr(r.body, "combatd_requests_in_flight 1\n") != NULL);
    test_response_free(&r);
}

/* With `*` in server.cors_origins the API and the pages answer any origin, but the operators'
 * routes (endpoints.h's CBD_KIND_OPS: /livez, /readyz, /metrics) never carry CORS headers,
 * answers or preflights, so that no web page can read a replica's metrics. */
static void setup_star(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.n_cors_origins = 1;
    snprintf(cfg.server.cors_origins[0], sizeof cfg.server.cors_origins[0], "*");
    test_suite_start_with(&cfg);
}

TestSuite(cors_star, .init = setup_star, .fini = test_suite_stop);

Test(cors_star, operators_routes_never_carry_cors_headers) {
    const char *h[] = {"Origin: https://any.example", NULL};
    const char *pre[] = {"Origin: https://any.example", "Access-Control-Request-Method: GET", NULL};
    char buf[128];
    const char *ops[] = {"/livez", "/readyz", "/metrics"};
    for (size_t i = 0; i < 3; i++) {
        test_response r;
        cr_assert_eq(test_request(test_port, "GET", ops[i], NULL, NULL, 0, h, &r), 0);
        cr_expect_eq(r.status, 200, "%s", ops[i]);
        cr_expect_null(test_header(&r, "Access-Control-Allow-Origin", buf, sizeof buf), "%s",
                       ops[i]);
        test_response_free(&r);
        cr_assert_eq(test_request(test_port, "OPTIONS", ops[i], NULL, NULL, 0, pre, &r), 0);
        cr_expect_null(test_header(&r, "Access-Control-Allow-Origin", buf, sizeof buf),
                       "OPTIONS %s", ops[i]);
        test_response_free(&r);
    }
    const char *open[] = {"/openapi.yaml", "/"};
    for (size_t i = 0; i < 2; i++) {
        test_response r;
        cr_assert_eq(test_request(test_port, "GET", open[i], NULL, NULL, 0, h, &r), 0);
        cr_expect_str_eq(test_header(&r, "Access-Control-Allow-Origin", buf, sizeof buf), "*", "%s",
                         open[i]);
        test_response_free(&r);
    }
    test_response r;
    cr_assert_eq(test_request(test_port, "POST", "/analyze-attack", "application/json",
                              "{\"attackers\": 2, \"defenders\": 1}", 32, h, &r),
                 0);
    cr_expect_eq(r.status, 200, "%s", r.body);
    cr_expect_str_eq(test_header(&r, "Access-Control-Allow-Origin", buf, sizeof buf), "*");
    test_response_free(&r);
}
