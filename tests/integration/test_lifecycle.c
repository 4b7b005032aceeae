/*
 * The real binary: flags, configuration errors, the chosen port in the log, and SIGTERM
 * draining an in-flight request.
 *
 * The client acts on what the server says, not on pauses that a loaded machine stretches: a
 * request is in flight once /metrics counts it, the drain has begun once its "draining" line is
 * in the log. The timers a case is not about are an hour, so that only the one it is about can
 * end it within the client's patience.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "child_server.h"
#include "http_client.h"
#include "raw_http.h"

/* How long the client waits for what the server should do promptly: a safety net. */
#define PATIENCE_S 60.0

static char *env_empty[] = {"PATH=/usr/bin:/bin", NULL};

Test(lifecycle, port_zero_logs_the_chosen_port_and_sigterm_exits_0) {
    /* No --config: the test runs in the build tree, where config/ does not exist. */
    char *args2[] = {"--port", "0", "--bind", "127.0.0.1", "--threads", "2", NULL};
    child_server c;
    child_start(&c, args2, env_empty);
    cr_assert_gt(c.port, 0, "the listening line names the port");
    test_response r;
    cr_assert_eq(test_request(c.port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    test_response_free(&r);
    kill(c.pid, SIGTERM);
    int status = child_wait(&c, PATIENCE_S);
    cr_assert(WIFEXITED(status), "exited by itself");
    cr_expect_eq(WEXITSTATUS(status), 0);
    close(c.err_fd);
}

/* Starts the binary on a free loopback port with the given drain deadline and lame duck
 * (seconds), an hour of inactivity timeout and request deadline; its log read as it comes. */
static child_log *start_child_with_delay(child_server *c, const char *drain_deadline,
                                         const char *delay) {
    static char *args[] = {"--port", "0", "--bind", "127.0.0.1", NULL};
    char deadline[64], lame_duck[64];
    snprintf(deadline, sizeof deadline, "COMBATD_DRAIN_DEADLINE=%s", drain_deadline);
    snprintf(lame_duck, sizeof lame_duck, "COMBATD_DRAIN_DELAY=%s", delay);
    char *env[] = {"PATH=/usr/bin:/bin",
                   deadline,
                   lame_duck,
                   "COMBATD_CONNECTION_TIMEOUT=3600",
                   "COMBATD_REQUEST_DEADLINE=3600",
                   NULL};
    child_start(c, args, env);
    cr_assert_gt(c->port, 0, "the listening line names the port");
    return child_log_start(c);
}

static child_log *start_draining_child(child_server *c, const char *drain_deadline) {
    return start_child_with_delay(c, drain_deadline, "0");
}

/* SIGTERM, and the wait for the log line that says the drain has begun. */
static void begin_drain(child_server *c, child_log *l) {
    kill(c->pid, SIGTERM);
    cr_assert_eq(child_log_wait(l, "\"event\":\"draining\"", 1, PATIENCE_S), 1,
                 "no draining line %.0f s after SIGTERM", PATIENCE_S);
}

/* Sends `text` on a new connection and leaves it open: with a half-sent body the request is
 * in flight. */
static int send_on_new_connection(uint16_t port, const char *text) {
    int fd = test_connect(port);
    cr_assert_geq(fd, 0);
    cr_assert_eq(send(fd, text, strlen(text), MSG_NOSIGNAL), (ssize_t)strlen(text));
    return fd;
}

/* Sends `text` on fd and reads the start of the answer into resp. */
static void exchange(int fd, const char *text, char *resp, size_t size) {
    memset(resp, 0, size);
    cr_assert_eq(send(fd, text, strlen(text), MSG_NOSIGNAL), (ssize_t)strlen(text));
    struct pollfd p = {fd, POLLIN, 0};
    cr_assert_eq(poll(&p, 1, (int)(PATIENCE_S * 1000)), 1, "no answer in %.0f s", PATIENCE_S);
    cr_assert_gt(recv(fd, resp, size - 1, 0), 0);
}

/* The half request on a connection of its own is in flight: the server has read its head. */
static void wait_in_flight(uint16_t port) {
    cr_assert_geq(raw_wait_in_flight(port, 1, PATIENCE_S), 1, "the request never came in");
}

/* Waits until the listener is closed: a connect is refused. */
static bool listener_closed(uint16_t port) {
    int fd = test_connect(port);
    for (double end = raw_now() + PATIENCE_S; fd >= 0 && raw_now() < end;) {
        close(fd);
        raw_sleep(0.01);
        fd = test_connect(port);
    }
    return fd < 0;
}

/* Waits for the child to exit by itself and checks it exited 0. */
static void expect_clean_exit(child_server *c, child_log *l) {
    int status = child_wait(c, PATIENCE_S);
    child_log_finish(l);
    child_log_free(l);
    cr_assert(WIFEXITED(status), "exited by itself");
    cr_expect_eq(WEXITSTATUS(status), 0);
}

/* An /analyze-attack request with half of its 4-byte body ("[1" of "[1]\n"). */
static const char half_request[] = "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                                   "Content-Type: application/json\r\nContent-Length: 4\r\n\r\n[1";

/* A drain deadline of a minute: the client finishes the body long before it, however slow. */
Test(lifecycle, sigterm_drains_an_in_flight_request) {
    child_server c;
    child_log *l = start_draining_child(&c, "60");
    int fd = send_on_new_connection(c.port, half_request);
    wait_in_flight(c.port);

    begin_drain(&c, l);
    /* Draining: new connections are refused, the process is still there. */
    cr_expect(listener_closed(c.port), "no new connections while draining");
    cr_expect_eq(waitpid(c.pid, NULL, WNOHANG), 0, "still running while a request is in flight");

    /* Finish the body: the request is answered (422: an array is not an object). */
    char resp[2048];
    exchange(fd, "]\n", resp, sizeof resp);
    cr_expect(strncmp(resp, "HTTP/1.1 422 ", 13) == 0, "%s", resp);
    close(fd);
    expect_clean_exit(&c, l);
}

/* A lame duck of a minute, ended by a second SIGTERM once the idle connection has been
 * answered in it: however slow the client, its request comes within the lame duck. */
Test(lifecycle, readyz_turns_503_while_draining) {
    child_server c;
    child_log *l = start_child_with_delay(&c, "60", "60");
    /* A keep-alive connection that has been answered once, and a request in flight. */
    static const char ready[] = "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n";
    char resp[2048];
    int idle = test_connect(c.port);
    cr_assert_geq(idle, 0);
    exchange(idle, ready, resp, sizeof resp);
    cr_expect(strncmp(resp, "HTTP/1.1 200 ", 13) == 0, "%s", resp);
    int busy = send_on_new_connection(c.port, half_request);
    wait_in_flight(c.port);

    begin_drain(&c, l);
    /* Draining: the open connection still gets answers, and readiness says no. */
    exchange(idle, ready, resp, sizeof resp);
    cr_expect(strncmp(resp, "HTTP/1.1 503 ", 13) == 0, "%s", resp);
    cr_expect(strstr(resp, "application/problem+json") != NULL, "%s", resp);
    cr_expect(strstr(resp, "Connection: close\r\n") != NULL, "%s", resp);
    close(idle);

    kill(c.pid, SIGTERM); /* the lame duck ends */
    exchange(busy, "]\n", resp, sizeof resp);
    close(busy);
    expect_clean_exit(&c, l);
}

/* Only the drain's deadline (1 s) can end the stuck request within the client's patience: the
 * inactivity timeout and the request deadline are an hour. */
Test(lifecycle, drain_deadline_bounds_a_stuck_request) {
    child_server c;
    child_log *l = start_draining_child(&c, "1");
    int fd = send_on_new_connection(c.port, half_request);
    wait_in_flight(c.port);
    begin_drain(&c, l);
    /* The body never completes; the process still exits 0 after the 1 s deadline. */
    expect_clean_exit(&c, l);
    close(fd);
}

Test(lifecycle, help_and_version) {
    char out[4096];
    char *help[] = {"--help", NULL};
    cr_expect_eq(child_run(help, env_empty, out, sizeof out), 0);
    cr_expect(strstr(out, "--port N") != NULL && strstr(out, "--config FILE") != NULL, "%s", out);
    char *version[] = {"--version", NULL};
    cr_expect_eq(child_run(version, env_empty, out, sizeof out), 0);
    cr_expect(strncmp(out, "combatd 0.1.0", 13) == 0, "%s", out);
}

Test(lifecycle, bad_configuration_stops_start_up_naming_it) {
    char out[4096];
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_BODY_LIMT=5", NULL};
    char *args[] = {"--check-config", NULL};
    cr_expect_eq(child_run(args, env, out, sizeof out), 2);
    cr_expect(strstr(out, "COMBATD_BODY_LIMT: is not a known setting") != NULL, "%s", out);

    char *port[] = {"--port", "99999", "--check-config", NULL};
    cr_expect_eq(child_run(port, env_empty, out, sizeof out), 2);
    cr_expect(strstr(out, "--port: must be a whole number from 0 to 65535") != NULL, "%s", out);

    char path[] = "/tmp/combatd-test-config-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    static const char text[] = "{\"warapp\": {\"defaults\": {\"rounding_mode\": \"up\"}}}";
    cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    char *file[] = {"--config", path, "--check-config", NULL};
    cr_expect_eq(child_run(file, env_empty, out, sizeof out), 2);
    cr_expect(strstr(out, "/warapp/defaults/rounding_mode: must be one of") != NULL, "%s", out);
    unlink(path);

    char *missing[] = {"--config", "/nonexistent.json", "--check-config", NULL};
    cr_expect_eq(child_run(missing, env_empty, out, sizeof out), 2);
    cr_expect(strstr(out, "/nonexistent.json") != NULL, "%s", out);
}
