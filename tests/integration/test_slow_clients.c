/*
 * Slow and idle clients. Timeouts are set to one or two seconds through the
 * config so that the whole file runs in a few seconds.
 *
 * - An idle connection is closed after server.connection_timeout (libmicrohttpd's own timer).
 * - A client that trickles its request (request line, headers or body), never idle long enough
 *   for that timeout, is cut at server.request_deadline: combatd's own watchdog.
 * - server.per_ip_connection_limit holds.
 * - 1,000 idle connections do not stop another client from being served.
 *
 * The timers are wall-clock ones, and so is the client's pacing: on a machine shared with other
 * work a 0.4 s pause can last seconds. So the timers a case is not about are set far from the
 * one it is about, which timer cut is read from the server (its count of deadline cuts), a
 * trickle is measured in bytes sent before the cut (a slow client sends fewer, never more), and
 * wall-clock times are asserted from below (load only makes them longer) or, for the inactivity
 * timeout, with a margin of several timeouts. Every wait has a generous limit: a safety net.
 */
#include <string.h>
#include <sys/resource.h>

#include <criterion/criterion.h>

#include "http_client.h"
#include "raw_http.h"

/* How long the client waits for what the server should do promptly: a safety net. */
#define PATIENCE_S 60.0

static cbd_server *start(uint32_t connection_timeout, uint32_t deadline, uint32_t per_ip) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.connection_timeout = connection_timeout;
    cfg.server.request_deadline = deadline;
    cfg.server.per_ip_connection_limit = per_ip;
    return test_server_start(&cfg);
}

Test(slow, idle_connection_is_closed_after_the_connection_timeout) {
    cbd_server *s = start(1, 30, 0);
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    double t0 = raw_now();
    bool closed;
    free(raw_read_until_close(fd, PATIENCE_S, &closed, NULL));
    double waited = raw_now() - t0;
    /* MHD counts whole seconds: "more than 1 s idle" closes between 1 and about 2 s; the 8 s
     * bound leaves a loaded machine 6 s and still tells it from the 10 s default. */
    cr_expect(closed, "an idle connection stayed open for %.1f s", waited);
    cr_expect(waited >= 0.9 && waited < 8.0, "closed after %.2f s, expected 1-2 s", waited);
    cr_expect_eq(cbd_server_deadline_cuts(s), 0, "the inactivity timeout, not the deadline");
    close(fd);
    cbd_server_stop(s);
}

/* The trickles' pause between bytes, and how many bytes may go before the cut: the 2 s
 * deadline passes after 2 / 0.4 = 5 of them at the most (a delayed client sends fewer). */
#define TRICKLE_S         0.4
#define TRICKLE_MAX_BYTES 20

/*
 * Sends `prefix` at once, then trickles `trickle` one byte every TRICKLE_S (the inactivity
 * timeout is 10 s: however the client is delayed, never idle that long) until the server cuts
 * the connection. Returns how many bytes were trickled before the cut (TRICKLE_MAX_BYTES: it
 * never came), and the seconds from connect to the cut in *at.
 */
static size_t trickle_until_cut(uint16_t port, const char *prefix, const char *trickle,
                                double *at) {
    int fd = raw_connect(port);
    cr_assert_geq(fd, 0);
    double t0 = raw_now();
    bool sent = raw_send_str(fd, prefix);
    size_t n = 0;
    while (sent && n < TRICKLE_MAX_BYTES && !raw_peer_closed(fd)) {
        raw_sleep(TRICKLE_S);
        sent = raw_send(fd, &trickle[n % strlen(trickle)], 1);
        n += sent;
    }
    *at = raw_now() - t0;
    close(fd);
    fprintf(stderr, "slow | cut after %zu trickled bytes, %.2f s\n", n, *at);
    return n;
}

/* connection_timeout 10 s, request_deadline 2 s: every case is cut by the deadline (the
 * watchdog counts the cut), after at least 2 s and a handful of bytes. */
static void expect_cut_at_the_deadline(const char *prefix, const char *trickle) {
    cbd_server *s = start(10, 2, 0);
    double at;
    size_t n = trickle_until_cut(cbd_server_port(s), prefix, trickle, &at);
    cr_expect_lt(n, TRICKLE_MAX_BYTES, "never cut (%zu bytes in %.2f s)", n, at);
    cr_expect_geq(at, 1.9, "cut after %.2f s, before the deadline", at);
    cr_expect_eq(cbd_server_deadline_cuts(s), 1, "cut by the request deadline");
    cbd_server_stop(s);
}

Test(slow, trickled_request_line_is_cut_at_the_deadline) {
    expect_cut_at_the_deadline("", "POST /analyze-attack HTTP/1.1\r\n");
}

Test(slow, trickled_headers_are_cut_at_the_deadline) {
    expect_cut_at_the_deadline("POST /analyze-attack HTTP/1.1\r\nHost: x\r\nX-Pad: ", "abcdef");
}

Test(slow, trickled_body_is_cut_at_the_deadline) {
    expect_cut_at_the_deadline("POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
                               "{\"a\":1}");
}

/* The deadline is per request: a keep-alive connection whose requests each finish in time
 * lives longer than the deadline. The inactivity timeout (30 s) is far past the pauses. */
Test(slow, keep_alive_connection_outlives_the_deadline_when_each_request_is_quick) {
    cbd_server *s = start(30, 1, 0);
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    for (int i = 0; i < 4; i++) {
        cr_assert(raw_send_str(fd, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n"), "request %d", i);
        char buf[1024];
        struct pollfd p = {fd, POLLIN, 0};
        cr_assert_eq(poll(&p, 1, (int)(PATIENCE_S * 1000)), 1, "request %d: no answer", i);
        ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
        cr_assert_gt(n, 0, "request %d: connection closed", i);
        buf[n] = '\0';
        cr_expect_eq(raw_status(buf), 200);
        raw_sleep(0.6); /* 4 × 0.6 s = 2.4 s > the 1 s deadline (a lower bound) */
    }
    cr_expect_eq(cbd_server_deadline_cuts(s), 0);
    close(fd);
    cbd_server_stop(s);
}

Test(slow, per_ip_connection_limit_holds) {
    cbd_server *s = start(3600, 3600, 3);
    uint16_t port = cbd_server_port(s);
    int fds[3];
    for (int i = 0; i < 3; i++) {
        fds[i] = raw_connect(port);
        cr_assert_geq(fds[i], 0);
        /* Answered, so surely accepted and counted before the fourth comes. */
        cr_assert(raw_send_request(fds[i], "GET", "/livez", NULL, NULL, false));
        cr_assert_eq(raw_read_answer(fds[i], (int)(PATIENCE_S * 1000), NULL), 200);
    }
    /* The fourth is over the limit: its request is answered 503 with Retry-After, and the
     * connection closes. */
    int extra = raw_connect(port);
    cr_assert_geq(extra, 0);
    (void)raw_send_str(extra, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n");
    bool closed;
    size_t len;
    char *got = raw_read_until_close(extra, PATIENCE_S, &closed, &len);
    cr_expect(closed, "the fourth connection from one address stayed open");
    cr_expect_eq(raw_status(got), 503, "the fourth connection was served: %s", got);
    cr_expect(strstr(got, "Retry-After: 1\r\n") && strstr(got, "Connection: close\r\n"), "%s", got);
    free(got);
    close(extra);
    /* The three within the limit are served. */
    for (int i = 0; i < 3; i++) {
        cr_assert(
            raw_send_str(fds[i], "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
        got = raw_read_until_close(fds[i], PATIENCE_S, &closed, &len);
        cr_expect_eq(raw_status(got), 200, "connection %d: %s", i, got);
        free(got);
        close(fds[i]);
    }
    cbd_server_stop(s);
}

#define IDLE_CONNECTIONS 1000

Test(slow, a_thousand_idle_connections_do_not_stop_others) {
    /* 1,000 sockets here plus 1,000 in the server: more than the usual 1,024 soft limit. */
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    if (rl.rlim_cur < 2 * IDLE_CONNECTIONS + 100 && rl.rlim_max >= 2 * IDLE_CONNECTIONS + 100) {
        rl.rlim_cur = 2 * IDLE_CONNECTIONS + 100;
        cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
    }
    cr_assert_geq(rl.rlim_cur, 2 * IDLE_CONNECTIONS + 100, "raise ulimit -n to run this test");
    /* All from 127.0.0.1, so no per-address limit here (per_ip 0); connection_limit is the
     * default 4096. The timers are an hour: none of the 1,000 goes however long opening them
     * takes, so the request below cannot be served by a place one of them freed. */
    cbd_server *s = start(3600, 3600, 0);
    uint16_t port = cbd_server_port(s);
    static int fds[IDLE_CONNECTIONS];
    for (int i = 0; i < IDLE_CONNECTIONS; i++) {
        fds[i] = raw_connect(port);
        cr_assert_geq(fds[i], 0, "connection %d", i);
        if (i % 2 == 0) {
            /* Half of them start a request and stop, the other half send nothing. */
            (void)raw_send_str(fds[i], "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n");
        }
    }
    double t0 = raw_now();
    test_response r;
    cr_assert_eq(test_request(port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    double took = raw_now() - t0;
    cr_expect_eq(r.status, 200);
    fprintf(stderr, "slow | served in %.3f s with %d idle connections\n", took, IDLE_CONNECTIONS);
    test_response_free(&r);
    cr_assert_eq(test_post_json(port, "/analyze-attack", "{", &r), 0);
    cr_expect_eq(r.status, 400);
    test_response_free(&r);
    /* The idle connections are still open (none was dropped to make room). */
    int still_open = 0;
    for (int i = 0; i < IDLE_CONNECTIONS; i++) {
        still_open += !raw_peer_closed(fds[i]);
        close(fds[i]);
    }
    cr_expect_eq(still_open, IDLE_CONNECTIONS);
    cbd_server_stop(s);
}
