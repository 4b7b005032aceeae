/*
 * The real binary: flags, configuration errors, the chosen port in the log, and SIGTERM
 * draining an in-flight request.
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
    int status = child_wait(&c, 5);
    cr_assert(WIFEXITED(status), "exited by itself");
    cr_expect_eq(WEXITSTATUS(status), 0);
    close(c.err_fd);
}

/* Starts the binary on a free loopback port with the given drain deadline (seconds). */
static void start_child_with_delay(child_server *c, const char *drain_deadline, const char *delay) {
    static char *args[] = {"--port", "0", "--bind", "127.0.0.1", NULL};
    char deadline[64], lame_duck[64];
    snprintf(deadline, sizeof deadline, "COMBATD_DRAIN_DEADLINE=%s", drain_deadline);
    snprintf(lame_duck, sizeof lame_duck, "COMBATD_DRAIN_DELAY=%s", delay);
    char *env[] = {"PATH=/usr/bin:/bin", deadline, lame_duck, NULL};
    child_start(c, args, env);
    cr_assert_gt(c->port, 0, "the listening line names the port");
}

static void start_draining_child(child_server *c, const char *drain_deadline) {
    start_child_with_delay(c, drain_deadline, "0");
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
    cr_assert_gt(recv(fd, resp, size - 1, 0), 0);
}

static void pause_200ms(void) {
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

/* Waits for the child to exit by itself and checks it exited 0. */
static void expect_clean_exit(child_server *c) {
    int status = child_wait(c, 5);
    cr_assert(WIFEXITED(status), "exited by itself");
    cr_expect_eq(WEXITSTATUS(status), 0);
    close(c->err_fd);
}

/* An /analyze-attack request with half of its 4-byte body ("[1" of "[1]\n"). */
static const char half_request[] = "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                                   "Content-Type: application/json\r\nContent-Length: 4\r\n\r\n[1";

Test(lifecycle, sigterm_drains_an_in_flight_request) {
    child_server c;
    start_draining_child(&c, "5");
    int fd = send_on_new_connection(c.port, half_request);
    pause_200ms();

    kill(c.pid, SIGTERM);
    pause_200ms();
    /* Draining: new connections are refused, the process is still there. */
    cr_expect_eq(test_connect(c.port), -1, "no new connections while draining");
    cr_expect_eq(waitpid(c.pid, NULL, WNOHANG), 0, "still running while a request is in flight");

    /* Finish the body: the request is answered (422: an array is not an object). */
    char resp[2048];
    exchange(fd, "]\n", resp, sizeof resp);
    cr_expect(strncmp(resp, "HTTP/1.1 422 ", 13) == 0, "%s", resp);
    close(fd);
    expect_clean_exit(&c);
}

Test(lifecycle, readyz_turns_503_while_draining) {
    child_server c;
    /* A lame duck of 2 s: the idle connection is closed by the drain only after it. */
    start_child_with_delay(&c, "5", "2");
    /* A keep-alive connection that has been answered once, and a request in flight. */
    static const char ready[] = "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n";
    char resp[2048];
    int idle = test_connect(c.port);
    cr_assert_geq(idle, 0);
    exchange(idle, ready, resp, sizeof resp);
    cr_expect(strncmp(resp, "HTTP/1.1 200 ", 13) == 0, "%s", resp);
    int busy = send_on_new_connection(c.port, half_request);
    pause_200ms();

    kill(c.pid, SIGTERM);
    pause_200ms();
    /* Draining: the open connection still gets answers, and readiness says no. */
    exchange(idle, ready, resp, sizeof resp);
    cr_expect(strncmp(resp, "HTTP/1.1 503 ", 13) == 0, "%s", resp);
    cr_expect(strstr(resp, "application/problem+json") != NULL, "%s", resp);
    cr_expect(strstr(resp, "Connection: close\r\n") != NULL, "%s", resp);
    close(idle);

    exchange(busy, "]\n", resp, sizeof resp);
    close(busy);
    expect_clean_exit(&c);
}

Test(lifecycle, drain_deadline_bounds_a_stuck_request) {
    child_server c;
    start_draining_child(&c, "1");
    int fd = send_on_new_connection(c.port, half_request);
    pause_200ms();
    kill(c.pid, SIGTERM);
    /* The body never completes; the process still exits 0 after the 1 s deadline. */
    expect_clean_exit(&c);
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
