/*
 * docs/operations.md "Behind a proxy", docs/security.md "Limits": the worker pool's per-client
 * share (server.worker_share) counts the client a trusted proxy forwards in X-Forwarded-For, not
 * the proxy, and never believes the header from an untrusted peer; and a connection over the
 * per-address limit that sends nothing is closed after about 1 s, while one within the limit
 * waits for server.connection_timeout (10 s).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <criterion/criterion.h>

#include "http_client.h"
#include "raw_http.h"

/* About 0.9 s of one core quiet (docs/performance.md: 10^7 trials of this battle in 0.87 s),
 * several on a loaded machine: long enough that a second request sent once the first is on the pool
 * finds it still there. */
static const char long_body[] =
    "{\"attackers\":100,\"defenders\":100,\"trials\":10000000,\"seed\":7,"
    "\"settings\":{\"luck_modifier\":0.16,\"rounding_mode\":\"weighted_random\"}}";

/* A connection from loopback address `from` that has sent the long request forwarded for
 * `xff` (no header when NULL). */
static int send_long(uint16_t port, const char *from, const char *xff) {
    char request[1024], forwarded[128] = "";
    if (xff) {
        snprintf(forwarded, sizeof forwarded, "X-Forwarded-For: %s\r\n", xff);
    }
    snprintf(request, sizeof request,
             "POST /simulate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%s"
             "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
             forwarded, strlen(long_body), long_body);
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

/* Waits until the pool holds `n` long requests (running or waiting); false after `s` s. */
static bool wait_jobs(cbd_server *srv, unsigned n, double s) {
    for (double end = raw_now() + s; raw_now() < end; raw_sleep(0.002)) {
        if (cbd_server_worker_jobs(srv) == n) {
            return true;
        }
    }
    return false;
}

/* Two workers, one place per client, 127.0.0.1 a trusted proxy. */
static cbd_server *start_share_server(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.workers = 2;
    cfg.server.worker_queue = 64;
    cfg.server.worker_share = 1;
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_config_set_server_key(&cfg, "trusted_proxies", "127.0.0.1", "test", &p), "%s",
              p.detail);
    return test_server_start(&cfg);
}

static void expect_status(const char *what, const char *answer, int status) {
    cr_expect_eq(raw_status(answer), status, "%s: %.400s", what, answer);
}

Test(client_limits, a_trusted_proxy_s_clients_each_have_their_own_worker_share, .timeout = 120) {
    cbd_server *s = start_share_server();
    uint16_t port = cbd_server_port(s);
    int first = send_long(port, "127.0.0.1", "203.0.113.1");
    cr_assert(wait_jobs(s, 1, 20), "the first long request never reached the pool");
    int second = send_long(port, "127.0.0.1", "203.0.113.2");
    /* Both on the pool at once: had the share counted the proxy, the second would have been
     * refused at once and the pool would never hold two. */
    cr_expect(wait_jobs(s, 2, 20), "the second client's request was not admitted beside the first");
    char *b = answer_of(second, 60), *a = answer_of(first, 60);
    expect_status("the second client", b, 200);
    expect_status("the first client", a, 200);
    free(a);
    free(b);
    cbd_server_stop(s);
}

Test(client_limits, one_forwarded_client_holds_only_its_share, .timeout = 120) {
    cbd_server *s = start_share_server();
    uint16_t port = cbd_server_port(s);
    int first = send_long(port, "127.0.0.1", "203.0.113.1");
    cr_assert(wait_jobs(s, 1, 20), "the first long request never reached the pool");
    char *b = answer_of(send_long(port, "127.0.0.1", "203.0.113.1"), 10);
    expect_status("the same client again", b, 503);
    cr_expect(strstr(b, "\r\nRetry-After: 1\r\n") != NULL, "%.400s", b);
    cr_expect(strstr(b, "worker_share") != NULL, "refused for its share: %.600s", b);
    char *a = answer_of(first, 60);
    expect_status("the first request", a, 200);
    free(a);
    free(b);
    cbd_server_stop(s);
}

Test(client_limits, an_untrusted_peer_s_forwarded_for_is_not_believed, .timeout = 120) {
    cbd_server *s = start_share_server();
    uint16_t port = cbd_server_port(s);
    /* 127.0.0.2 is not a trusted proxy: both requests are its own, whatever they claim. */
    int first = send_long(port, "127.0.0.2", "203.0.113.1");
    cr_assert(wait_jobs(s, 1, 20), "the first long request never reached the pool");
    char *b = answer_of(send_long(port, "127.0.0.2", "203.0.113.2"), 10);
    expect_status("the same peer, another forwarded client", b, 503);
    cr_expect(strstr(b, "\r\nRetry-After: 1\r\n") != NULL, "%.400s", b);
    char *a = answer_of(first, 60);
    expect_status("the first request", a, 200);
    free(a);
    free(b);
    cbd_server_stop(s);
}

/*
 * The inactivity timeout is an hour here, so that nothing but the limit's own second can close
 * the connection over it within the client's patience: which timer closed it does not depend
 * on how loaded the machine is. The first connection has been answered (so it is counted)
 * before the second is opened.
 */
Test(client_limits, an_idle_connection_over_the_per_address_limit_goes_after_a_second) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.per_ip_connection_limit = 1;
    cfg.server.connection_timeout = 3600;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    int within = raw_connect_from(port, "127.0.0.2", 0);
    cr_assert_geq(within, 0);
    cr_assert(raw_send_request(within, "GET", "/livez", NULL, NULL, false));
    cr_assert_eq(raw_read_answer(within, 60000, NULL), 200, "the first connection is served");
    int over = raw_connect_from(port, "127.0.0.2", 0);
    cr_assert_geq(over, 0);
    double t0 = raw_now();
    bool closed;
    size_t len;
    char *got = raw_read_until_close(over, 60.0, &closed, &len);
    double took = raw_now() - t0;
    cr_assert_not_null(got);
    cr_expect(closed, "the idle connection over the limit was still open after 60 s");
    cr_expect_eq(len, 0, "it sent nothing and got: %s", got);
    fprintf(stderr, "client_limits | the idle connection over the limit went after %.2f s\n", took);
    /* "after 1 s": at least most of a second (a lower bound: load only makes it later). */
    cr_expect_geq(took, 0.5, "closed after %.2f s", took);
    /* The one within the limit is kept: it still answers. */
    cr_expect_not(raw_peer_closed(within), "the connection within the limit was closed");
    cr_assert(raw_send_str(within, "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    char *a = answer_of(within, 60.0);
    expect_status("within the limit", a, 200);
    free(a);
    free(got);
    close(over);
    cbd_server_stop(s);
}
