/*
 * docs/security.md "Headers": every answer carries `X-Content-Type-Options: nosniff` and
 * `Cache-Control: no-store`; the page adds a Content-Security-Policy and
 * `Referrer-Policy: no-referrer`. One request of each kind of answer: 200 JSON, each 4xx
 * problem (400 from the parser and from the framing checks, 404, 405, 411, 413 at once and
 * after a chunked body, 415, 422), the page, /metrics, /openapi.yaml, a 204 preflight, and the
 * three 503s (the per-address limit, a full worker pool, /readyz while draining).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <criterion/criterion.h>

#include "http_client.h"
#include "raw_http.h"

/* The header block (up to the blank line) of a raw answer has `name: value` exactly. */
static bool has_header(const char *head, const char *name, const char *value) {
    const char *end = strstr(head, "\r\n\r\n");
    size_t name_len = strlen(name), value_len = strlen(value);
    for (const char *line = strstr(head, "\r\n"); line && (!end || line < end);
         line = strstr(line + 2, "\r\n")) {
        const char *l = line + 2;
        if (strncasecmp(l, name, name_len) == 0 && l[name_len] == ':') {
            const char *v = l + name_len + 1;
            while (*v == ' ') {
                v++;
            }
            if (strncmp(v, value, value_len) == 0 && strncmp(v + value_len, "\r\n", 2) == 0) {
                return true;
            }
        }
    }
    return false;
}

/* The two headers of every answer, and the status expected. */
static void expect_common(const char *what, long status, long want, const char *head) {
    cr_expect_eq(status, want, "%s: status %ld, not %ld\n%s", what, status, want, head);
    cr_expect(has_header(head, "Cache-Control", "no-store"), "%s: no Cache-Control: no-store\n%s",
              what, head);
    cr_expect(has_header(head, "X-Content-Type-Options", "nosniff"),
              "%s: no X-Content-Type-Options: nosniff\n%s", what, head);
}

typedef struct {
    const char *method, *path, *content_type, *body, *origin;
    long status;
} curl_case;

static const char big_body[] = "{\"attackers\": 10, \"defenders\": 5, \"pad\": \"%0*d\"}";

Test(headers, every_kind_of_answer_carries_no_store_and_nosniff) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.body_limit = 1024;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    char big[2048];
    snprintf(big, sizeof big, big_body, 1500, 0);
    const curl_case cases[] = {
        {"POST", "/analyze-attack", "application/json", "{\"attackers\":10,\"defenders\":5}", NULL,
         200},
        {"GET", "/livez", NULL, NULL, NULL, 200},
        {"POST", "/analyze-attack", "application/json", "{\"attackers\":", NULL, 400},
        {"GET", "/no-such-path", NULL, NULL, NULL, 404},
        {"GET", "/analyze-attack", NULL, NULL, NULL, 405},
        {"POST", "/analyze-attack", "application/json", big, NULL, 413},
        {"POST", "/analyze-attack", "text/plain", "{}", NULL, 415},
        {"POST", "/analyze-attack", "application/json", "{\"attackers\":0,\"defenders\":5}", NULL,
         422},
        {"GET", "/metrics", NULL, NULL, NULL, 200},
        {"GET", "/openapi.yaml", NULL, NULL, NULL, 200},
        {"HEAD", "/openapi.yaml", NULL, NULL, NULL, 200},
        {"OPTIONS", "/analyze-attack", NULL, NULL, "Origin: https://play.example", 204},
        {"GET", "/", NULL, NULL, NULL, 200},
        {"HEAD", "/", NULL, NULL, NULL, 200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const curl_case *c = &cases[i];
        const char *extra[] = {c->origin, NULL};
        test_response r;
        test_request(port, c->method, c->path, c->content_type, c->body,
                     c->body ? strlen(c->body) : 0, extra, &r);
        char what[128];
        snprintf(what, sizeof what, "%s %s (case %zu)", c->method, c->path, i);
        expect_common(what, r.status, c->status, r.headers);
        if (strcmp(c->path, "/") == 0) {
            cr_expect(has_header(r.headers, "Referrer-Policy", "no-referrer"), "%s", r.headers);
            char csp[512];
            cr_expect(test_header(&r, "Content-Security-Policy", csp, sizeof csp) != NULL &&
                          strstr(csp, "default-src 'none'") != NULL,
                      "%s: %s", what, r.headers);
        }
        test_response_free(&r);
    }
    cbd_server_stop(s);
}

/* Sends `request` on a new connection and reads the answer until it closes (3 s at most). */
static char *raw_answer(uint16_t port, const char *request) {
    int fd = raw_connect(port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, request));
    bool closed;
    char *got = raw_read_until_close(fd, 3.0, &closed, NULL);
    close(fd);
    cr_assert_not_null(got);
    return got;
}

Test(headers, answers_written_by_the_framing_checks_and_the_early_413_carry_them_too) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.body_limit = 1024;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    char *a = raw_answer(port, "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\nContent-Length: 2\r\n"
                               "Content-Length: 2\r\n\r\n{}");
    expect_common("two Content-Length headers", raw_status(a), 400, a);
    free(a);
    a = raw_answer(port, "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                         "Content-Type: application/json\r\n\r\n");
    expect_common("a POST without a length", raw_status(a), 411, a);
    free(a);
    /* A chunked body more than 256 KiB past the limit: its 413 is written by hand. */
    int fd = raw_connect(port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\n"
                               "Transfer-Encoding: chunked\r\n\r\n"));
    static char chunk[16384 + 16];
    int head = snprintf(chunk, sizeof chunk, "4000\r\n");
    memset(chunk + head, ' ', 16384);
    memcpy(chunk + head + 16384, "\r\n", 2);
    size_t chunk_len = (size_t)head + 16384 + 2;
    for (int i = 0; i < 40 && raw_send(fd, chunk, chunk_len); i++) {
    }
    bool closed;
    a = raw_read_until_close(fd, 5.0, &closed, NULL);
    close(fd);
    cr_assert_not_null(a);
    expect_common("a chunked body past the limit", raw_status(a), 413, a);
    free(a);
    cbd_server_stop(s);
}

/* A connection from loopback address `from` that has sent `request`. */
static int send_from(uint16_t port, const char *from, const char *request) {
    int fd = raw_connect_from(port, from, 0);
    cr_assert_geq(fd, 0, "connect from %s", from);
    cr_assert(raw_send_str(fd, request));
    return fd;
}

static char *answer_of(int fd, double timeout) {
    char *got = raw_answer_of(fd, timeout);
    cr_assert_not_null(got);
    return got;
}

static const char livez_close[] = "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
/* About 0.9 s of one core (docs/performance.md: 10^7 trials of this battle in 0.87 s). */
static const char long_body[] =
    "{\"attackers\":100,\"defenders\":100,\"trials\":10000000,\"seed\":7,"
    "\"settings\":{\"luck_modifier\":0.16,\"rounding_mode\":\"weighted_random\"}}";

static const char *long_simulate(void) {
    static char request[512];
    snprintf(request, sizeof request,
             "POST /simulate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
             "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
             strlen(long_body), long_body);
    return request;
}

/* Waits until the pool holds `n` long requests; false after 20 s. */
static bool wait_jobs(cbd_server *s, unsigned n) {
    for (double end = raw_now() + 20; raw_now() < end; raw_sleep(0.002)) {
        if (cbd_server_worker_jobs(s) == n) {
            return true;
        }
    }
    return false;
}

Test(headers, the_busy_503s_carry_them_too, .timeout = 60) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.per_ip_connection_limit = 1;
    cfg.server.workers = 1;
    cfg.server.worker_queue = 0;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    /* Over the per-address limit: a second connection from 127.0.0.2 while the first is
     * open (idle, answered once so that it is surely counted first) is answered 503; the first
     * is still served. */
    int first = raw_connect_from(port, "127.0.0.2", 0);
    cr_assert_geq(first, 0);
    cr_assert(raw_send_request(first, "GET", "/livez", NULL, NULL, false));
    cr_assert_eq(raw_read_answer(first, 60000, NULL), 200);
    char *a = answer_of(send_from(port, "127.0.0.2", livez_close), 60.0);
    expect_common("over the per-address limit", raw_status(a), 503, a);
    cr_expect(has_header(a, "Retry-After", "1"), "%s", a);
    free(a);
    cr_assert(raw_send_str(first, livez_close));
    a = answer_of(first, 60.0);
    expect_common("under the per-address limit", raw_status(a), 200, a);
    free(a);
    /* The pool's one place taken (by 127.0.0.3): a long request from 127.0.0.4 is 503. */
    int running = send_from(port, "127.0.0.3", long_simulate());
    cr_assert(wait_jobs(s, 1), "the long request never reached the pool");
    a = answer_of(send_from(port, "127.0.0.4", long_simulate()), 60.0);
    expect_common("the worker pool full", raw_status(a), 503, a);
    cr_expect(has_header(a, "Retry-After", "1"), "%s", a);
    free(a);
    a = answer_of(running, 50.0);
    expect_common("the long request", raw_status(a), 200, a);
    free(a);
    /* Draining: /readyz is 503. */
    cbd_server_begin_drain(s);
    a = answer_of(send_from(port, "127.0.0.5", "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n"), 60.0);
    expect_common("/readyz while draining", raw_status(a), 503, a);
    free(a);
    cbd_server_stop(s);
}
