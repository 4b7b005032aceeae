#ifndef COMBATD_TEST_HTTP_CLIENT_H
#define COMBATD_TEST_HTTP_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "config/config.h"
#include "http/server.h"

/*
 * Integration-test helpers: a real server on 127.0.0.1 and an ephemeral port, and a libcurl
 * client that records status, headers and body.
 */
typedef struct {
    long status;
    char *body; /* NUL-terminated; free with test_response_free */
    size_t body_len;
    char *headers; /* the raw response header block, NUL-terminated */
    json_t *json;  /* the body parsed, or NULL when it is not JSON */
} test_response;

/* Starts the server with cfg (port and bind are overridden to 0 and 127.0.0.1; access log
 * off). Aborts the test on failure. */
cbd_server *test_server_start(cbd_settings *cfg);

/* The same with the built-in defaults. */
cbd_server *test_server_start_default(void);

/*
 * A suite's server: `TestSuite(name, .init = test_suite_start, .fini = test_suite_stop)`.
 * Criterion runs each test in a process of its own, so each test gets a fresh server, with
 * the built-in defaults, on test_port. A suite that needs other settings calls
 * test_suite_start_with(&cfg) from its own .init.
 */
extern cbd_server *test_server;
extern uint16_t test_port;
void test_suite_start(void);
void test_suite_start_with(cbd_settings *cfg);
void test_suite_stop(void);

/*
 * Sends one request. `content_type` may be NULL (no header); `extra_headers` is a
 * NULL-terminated list of "Name: value" lines, or NULL. Returns 0 on a transport success.
 */
int test_request(uint16_t port, const char *method, const char *path, const char *content_type,
                 const char *body, size_t body_len, const char *const *extra_headers,
                 test_response *out);

/* POST with Content-Type: application/json. */
int test_post_json(uint16_t port, const char *path, const char *body, test_response *out);

/* The value of a response header (case-insensitive name), copied into buf; NULL if absent. */
const char *test_header(const test_response *r, const char *name, char *buf, size_t size);

void test_response_free(test_response *r);

/*
 * GET /metrics until every string of `needles` (NULL-terminated) is in the body, or `timeout`
 * seconds pass; *out holds the last answer. A request is counted in its completion callback,
 * which libmicrohttpd may run just after the client has read the answer, so a test that asks
 * for /metrics right after another request must allow for that. 0, or -1 when a request fails.
 */
int test_metrics_with(uint16_t port, const char *const *needles, double timeout,
                      test_response *out);

/* Connects to 127.0.0.1:port; returns the socket or -1. Receives time out after 5 s. */
int test_connect(uint16_t port);

/*
 * Sends `request` as it is and reads until the server closes or `out_size - 1` bytes arrive
 * or a full response with Content-Length has been read. Returns the bytes read (NUL-terminated
 * in out), or -1.
 */
long test_raw(uint16_t port, const char *request, size_t len, char *out, size_t out_size);

#endif
