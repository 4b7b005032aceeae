/*
 * Behind a proxy and in a container, against the real binary: the
 * per-IP limit spares trusted_proxies, a trusted proxy's X-Forwarded-For names the client in
 * the access log, and --healthcheck reads the same flags and environment as the service and
 * probes the family it binds, exiting 0 or 1 only.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "child_server.h"
#include "raw_http.h"

/* A connection to 127.0.0.1:port from the loopback address `from`. */
static int connect_from(const char *from, uint16_t port) {
    int fd = raw_connect_from(port, from, 0);
    cr_assert_geq(fd, 0, "connect from %s", from);
    return fd;
}

static int status_of(int fd, const char *request, char *resp, size_t size) {
    cr_assert(raw_send_str(fd, request));
    memset(resp, 0, size);
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 3000) <= 0 || recv(fd, resp, size - 1, 0) <= 0) {
        return 0;
    }
    return raw_status(resp);
}

static char *env_proxy[] = {"PATH=/usr/bin:/bin", "COMBATD_PER_IP_CONNECTION_LIMIT=2",
                            "COMBATD_TRUSTED_PROXIES=127.0.0.1", NULL};
static char *args_loopback[] = {"--port", "0", "--bind", "127.0.0.1", NULL};

Test(behind_proxy, trusted_proxies_are_exempt_from_the_per_ip_limit) {
    child_server c;
    child_start(&c, args_loopback, env_proxy);
    cr_assert_gt(c.port, 0);
    static const char get[] = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
    char resp[4096];
    /* Five from the trusted 127.0.0.1, all held open at once: every one is served. */
    int trusted[5];
    for (int i = 0; i < 5; i++) {
        trusted[i] = connect_from("127.0.0.1", c.port);
    }
    raw_sleep(0.2);
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(status_of(trusted[i], get, resp, sizeof resp), 200, "trusted %d: %s", i, resp);
    }
    /* From 127.0.0.2 the limit is 2: one of three is answered 503 with Retry-After (once), and
     * closed. Which one depends on the order the server's threads accepted them in. */
    int other[3], ok = 0, refused = 0;
    for (int i = 0; i < 3; i++) {
        other[i] = connect_from("127.0.0.2", c.port);
    }
    raw_sleep(0.2);
    for (int i = 0; i < 3; i++) {
        int status = status_of(other[i], get, resp, sizeof resp);
        ok += status == 200;
        if (status == 503) {
            refused++;
            const char *retry = strstr(resp, "Retry-After: 1\r\n");
            cr_expect(retry && !strstr(retry + 1, "Retry-After") &&
                          strstr(resp, "Connection: close\r\n") &&
                          strstr(resp, "application/problem+json"),
                      "%s", resp);
        }
    }
    cr_expect_eq(ok, 2);
    cr_expect_eq(refused, 1);
    for (int i = 0; i < 5; i++) {
        close(trusted[i]);
    }
    for (int i = 0; i < 3; i++) {
        close(other[i]);
    }
    char log[65536];
    child_stop(&c, log, sizeof log);
}

/* Reads until the peer closes (0) or 2 s pass (-1); what came is left in resp. */
static int read_to_close(int fd, char *resp, size_t size) {
    size_t got = 0;
    memset(resp, 0, size);
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 2000) <= 0) {
            return -1;
        }
        ssize_t n = recv(fd, resp + got, size - 1 - got, 0);
        if (n <= 0) {
            return 0;
        }
        got += (size_t)n;
        if (got == size - 1) {
            return -1;
        }
    }
}

/* Past twice the per-IP limit (2 here) a connection is closed at accept, before any answer:
 * the fifth from one address reads EOF with nothing in it, whatever it sends. The third and
 * fourth are still answered 503 (the test above). */
Test(behind_proxy, past_twice_the_limit_a_connection_is_closed_at_accept) {
    child_server c;
    child_start(&c, args_loopback, env_proxy);
    cr_assert_gt(c.port, 0);
    int held[4];
    for (int i = 0; i < 4; i++) {
        held[i] = connect_from("127.0.0.2", c.port);
    }
    raw_sleep(0.2);
    int fifth = connect_from("127.0.0.2", c.port);
    char resp[4096];
    (void)raw_send_str(fifth, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_expect_eq(read_to_close(fifth, resp, sizeof resp), 0, "not closed: %s", resp);
    cr_expect_eq(resp[0], '\0', "answered: %s", resp);
    close(fifth);
    for (int i = 0; i < 4; i++) {
        close(held[i]);
    }
    char log[65536];
    child_stop(&c, log, sizeof log);
}

Test(behind_proxy, the_access_log_names_the_client_forwarded_by_a_trusted_proxy) {
    child_server c;
    child_start(&c, args_loopback, env_proxy);
    cr_assert_gt(c.port, 0);
    char resp[4096];
    static const char fwd[] = "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                              "X-Forwarded-For: 6.6.6.6, 203.0.113.9\r\n\r\n";
    int fd = connect_from("127.0.0.1", c.port);
    cr_expect_eq(status_of(fd, fwd, resp, sizeof resp), 200);
    close(fd);
    /* The same header from an untrusted peer is not believed. */
    fd = connect_from("127.0.0.2", c.port);
    cr_expect_eq(status_of(fd, fwd, resp, sizeof resp), 200);
    close(fd);
    raw_sleep(0.1);
    char log[65536];
    child_stop(&c, log, sizeof log);
    cr_expect(strstr(log, "\"client\":\"203.0.113.9\",\"method\":\"GET\"") != NULL, "%s", log);
    cr_expect(strstr(log, "\"client\":\"127.0.0.2\",\"method\":\"GET\"") != NULL, "%s", log);
    cr_expect(strstr(log, "6.6.6.6") == NULL, "a spoofed entry left of the proxy's: %s", log);
}

/* Runs `combatd --healthcheck ARGS` with env; its exit status (-1 when killed). */
static int healthcheck(char *const args[], char *const env[]) {
    char *argv[15] = {"--healthcheck"};
    for (int i = 0; args[i] && i < 13; i++) {
        argv[i + 1] = args[i];
    }
    return child_run(argv, env, NULL, 0);
}

Test(behind_proxy, healthcheck_reads_the_port_flag_and_the_environment) {
    child_server c;
    child_start(&c, args_loopback, env_proxy);
    cr_assert_gt(c.port, 0);
    char port[16], env_port[48], wrong[16];
    snprintf(port, sizeof port, "%u", c.port);
    snprintf(env_port, sizeof env_port, "COMBATD_PORT=%u", c.port);
    snprintf(wrong, sizeof wrong, "%u", c.port == 65535 ? 65534 : c.port + 1);
    char *env_plain[] = {"PATH=/usr/bin:/bin", NULL};
    char *env_with_port[] = {"PATH=/usr/bin:/bin", env_port, "COMBATD_BIND=127.0.0.1", NULL};
    char *flag[] = {"--port", port, "--bind", "127.0.0.1", NULL};
    char *wildcard[] = {"--port", port, NULL}; /* bind 0.0.0.0: probes 127.0.0.1 */
    char *none[] = {NULL};
    char *elsewhere[] = {"--port", wrong, NULL};
    char *bad_flag[] = {"--no-such-flag", NULL};
    cr_expect_eq(healthcheck(flag, env_plain), 0);
    cr_expect_eq(healthcheck(wildcard, env_plain), 0);
    cr_expect_eq(healthcheck(none, env_with_port), 0, "COMBATD_PORT moves the probe too");
    cr_expect_eq(healthcheck(elsewhere, env_plain), 1);
    /* Errors are 1, never 2 (Docker reserves it). */
    cr_expect_eq(healthcheck(bad_flag, env_plain), 1);
    char *env_bad[] = {"PATH=/usr/bin:/bin", "COMBATD_NO_SUCH_SETTING=1", NULL};
    cr_expect_eq(healthcheck(flag, env_bad), 1);
    char log[65536];
    child_stop(&c, log, sizeof log);
    cr_expect_eq(healthcheck(flag, env_plain), 1, "nothing listens any more");
}

Test(behind_proxy, healthcheck_probes_ipv6_when_the_service_binds_it) {
    int probe = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    bool v6 = probe >= 0 && bind(probe, (struct sockaddr *)&a, sizeof a) == 0;
    if (probe >= 0) {
        close(probe);
    }
    if (!v6) {
        cr_skip_test("IPv6 loopback (::1) is not available here: cannot test --bind ::1");
    }
    child_server c;
    char *args[] = {"--port", "0", "--bind", "::1", NULL};
    char *env[] = {"PATH=/usr/bin:/bin", NULL};
    child_start(&c, args, env);
    cr_assert_gt(c.port, 0, "listens on ::1");
    char port[16];
    snprintf(port, sizeof port, "%u", c.port);
    char *on_v6[] = {"--port", port, "--bind", "::1", NULL};
    char *on_any6[] = {"--port", port, "--bind", "::", NULL};
    char *on_v4[] = {"--port", port, "--bind", "127.0.0.1", NULL};
    cr_expect_eq(healthcheck(on_v6, env), 0);
    cr_expect_eq(healthcheck(on_any6, env), 0, ":: probes ::1");
    cr_expect_eq(healthcheck(on_v4, env), 1, "the service is not on IPv4");
    char log[16384];
    child_stop(&c, log, sizeof log);
}
