/*
 * Restarts lose nothing, against the real binary: keep-alive connections
 * kept busy with requests back to back through a SIGTERM. The client sends its next request
 * only after reading the whole previous answer, and none after an answer that carried
 * Connection: close; so every request it wrote must get a whole answer, and the only other
 * outcome allowed is a connection refused at connect (ECONNREFUSED) once the listener closes.
 *
 * What is asserted does not move with the machine's load: the client acts on the server's log
 * (its "draining" line is written once the drain has begun), not on a pause, and how the drain
 * ended is read from its "stopped" line; wall-clock figures are printed, or asserted as lower
 * bounds only (load only makes them larger). Waits have generous limits that fail with a
 * message: a safety net, not the claim.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "child_server.h"
#include "raw_http.h"

/* How long the client waits for what the server should do promptly: a safety net. */
#define PATIENCE_S  60.0
#define PATIENCE_MS ((int)(PATIENCE_S * 1000))

/* Starts the binary on a free loopback port with the given environment. */
static void start_child(child_server *c, char *const env[]) {
    char *args[] = {"--port", "0", "--bind", "127.0.0.1", "--threads", "2", NULL};
    child_start(c, args, env);
    cr_assert_gt(c->port, 0, "the listening line names the port");
}

typedef struct {
    uint16_t port;
    atomic_bool *sigterm_sent;
    unsigned sent, answered, refused, cut, closes_after_sigterm, answered_after_sigterm;
    int other_connect_error;
} client_stats;

static const char get_req[] = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";
static const char post_req[] = "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\nContent-Length: 30\r\n\r\n"
                               "{\"attackers\":10,\"defenders\":5}";

/* One client: requests back to back, reconnecting after Connection: close, until a connect is
 * refused. */
static void *client_main(void *arg) {
    client_stats *st = arg;
    for (;;) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(st->port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            if (errno == ECONNREFUSED) {
                st->refused++;
            } else {
                st->other_connect_error = errno;
            }
            close(fd);
            return NULL;
        }
        bool close_after = false;
        while (!close_after) {
            bool after = atomic_load(st->sigterm_sent);
            const char *req = (st->sent % 2) ? post_req : get_req;
            if (!raw_send_str(fd, req)) {
                /* Nothing was written: the server had closed between answers (not a loss). */
                break;
            }
            st->sent++;
            int status = raw_read_answer(fd, PATIENCE_MS, &close_after);
            if (status == 0) {
                st->cut++;
                break;
            }
            st->answered++;
            st->answered_after_sigterm += after;
            st->closes_after_sigterm += after && close_after;
        }
        close(fd);
    }
}

#define CLIENTS 6

Test(drain, busy_keep_alive_connections_lose_nothing_through_sigterm, .timeout = 180) {
    child_server c;
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_DRAIN_DELAY=1", "COMBATD_DRAIN_DEADLINE=10",
                   "COMBATD_ACCESS_LOG=false", NULL};
    start_child(&c, env);
    atomic_bool sigterm_sent;
    atomic_init(&sigterm_sent, false);
    client_stats st[CLIENTS];
    pthread_t threads[CLIENTS];
    for (int i = 0; i < CLIENTS; i++) {
        st[i] = (client_stats){.port = c.port, .sigterm_sent = &sigterm_sent};
        cr_assert_eq(pthread_create(&threads[i], NULL, client_main, &st[i]), 0);
    }
    /* Two idle keep-alive connections: answered once, then silent. */
    int idle[2];
    for (int i = 0; i < 2; i++) {
        idle[i] = raw_connect(c.port);
        cr_assert_geq(idle[i], 0);
        cr_assert(raw_send_str(idle[i], get_req));
        bool close_after = true;
        cr_assert_eq(raw_read_answer(idle[i], PATIENCE_MS, &close_after), 200);
        cr_assert(!close_after);
    }
    child_log *l = child_log_start(&c);
    raw_sleep(0.5);
    double t0 = raw_now();
    kill(c.pid, SIGTERM);
    /* From its log line on the drain has surely begun: every answer must say close. */
    cr_assert_eq(child_log_wait(l, "\"event\":\"draining\"", 1, PATIENCE_S), 1,
                 "no draining line in %.0f s", PATIENCE_S);
    atomic_store(&sigterm_sent, true);
    int status = child_wait(&c, PATIENCE_S);
    double took = raw_now() - t0;
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(threads[i], NULL);
    }
    /* The idle ones were closed by the server, without our sending anything. */
    for (int i = 0; i < 2; i++) {
        bool closed;
        char *rest = raw_read_until_close(idle[i], PATIENCE_S, &closed, NULL);
        cr_expect(closed && rest && rest[0] == '\0', "idle connection %d: %s", i, rest);
        free(rest);
        close(idle[i]);
    }
    child_log_finish(l);
    char *log = child_log_text(l);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit status %d", status);
    unsigned sent = 0, answered = 0, refused = 0, cut = 0, after = 0, closes = 0;
    for (int i = 0; i < CLIENTS; i++) {
        sent += st[i].sent;
        answered += st[i].answered;
        refused += st[i].refused;
        cut += st[i].cut;
        after += st[i].answered_after_sigterm;
        closes += st[i].closes_after_sigterm;
        cr_expect_eq(st[i].other_connect_error, 0, "client %d: connect failed with errno %d", i,
                     st[i].other_connect_error);
    }
    fprintf(stderr,
            "drain: %u requests sent, %u answered (%u after SIGTERM, %u of them with "
            "Connection: close), %u cut, %u connects refused; exit %.2f s after SIGTERM\n",
            sent, answered, after, closes, cut, refused, took);
    cr_expect_eq(cut, 0, "requests written and never answered");
    cr_expect_eq(answered, sent);
    cr_expect_eq(refused, CLIENTS, "each client ends on a refused connect");
    /* The lame duck (1 s) served: many answers after SIGTERM, each ending its connection. */
    cr_expect_gt(after, CLIENTS);
    cr_expect_eq(closes, after, "every answer while draining carries Connection: close");
    /* Out once every connection is closed, not at the 10 s deadline: "drained" says which. */
    cr_expect(strstr(log, "\"drained\":true,\"unanswered\":0") != NULL, "%s", log);
    cr_expect(strstr(log, "\"idle_closed\":2") != NULL, "%s", log);
    free(log);
    child_log_free(l);
}

/* A lame duck of a minute, so that however slow the client is its requests come within it; a
 * second SIGTERM ends it (the test above lets one of a second run out by itself). */
Test(drain, lame_duck_serves_new_connections_with_readyz_503, .timeout = 180) {
    child_server c;
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_DRAIN_DELAY=60", NULL};
    start_child(&c, env);
    child_log *l = child_log_start(&c);
    kill(c.pid, SIGTERM);
    cr_assert_eq(child_log_wait(l, "\"event\":\"draining\"", 1, PATIENCE_S), 1,
                 "no draining line in %.0f s", PATIENCE_S);
    /* Within the lame duck: a new connection is accepted, served, and told to close. */
    int fd = raw_connect(c.port);
    cr_assert_geq(fd, 0, "new connections are accepted during the lame duck");
    cr_assert(raw_send_str(fd, "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n"));
    bool close_after = false;
    cr_expect_eq(raw_read_answer(fd, PATIENCE_MS, &close_after), 503);
    cr_expect(close_after, "Connection: close while draining");
    close(fd);
    fd = raw_connect(c.port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, post_req));
    cr_expect_eq(raw_read_answer(fd, PATIENCE_MS, &close_after), 200, "work is still served");
    close(fd);
    /* After it, the listener is closed (the drain's first step, just after its log line). */
    kill(c.pid, SIGTERM);
    cr_assert_eq(child_log_wait(l, "\"cut_short\":true", 1, PATIENCE_S), 1,
                 "the second SIGTERM did not end the lame duck in %.0f s", PATIENCE_S);
    int refused = raw_connect(c.port);
    for (double end = raw_now() + PATIENCE_S; refused >= 0 && raw_now() < end;) {
        close(refused);
        raw_sleep(0.01);
        refused = raw_connect(c.port);
    }
    cr_expect_eq(refused, -1, "refused after the lame duck");
    int status = child_wait(&c, PATIENCE_S);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    child_log_finish(l);
    child_log_free(l);
}

/* Nothing but the drain's deadline (1 s) can end the half request here: the inactivity timeout
 * and the request deadline are an hour. That it did is in the "stopped" line. */
Test(drain, deadline_bounds_a_request_that_never_completes_and_says_so, .timeout = 180) {
    child_server c;
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_DRAIN_DEADLINE=1",
                   "COMBATD_CONNECTION_TIMEOUT=3600", "COMBATD_REQUEST_DEADLINE=3600", NULL};
    start_child(&c, env);
    int fd = raw_connect(c.port);
    cr_assert_geq(fd, 0);
    /* Half a body: a request is in this connection, and it never completes. */
    cr_assert(raw_send_str(fd, "POST /analyze-attack HTTP/1.1\r\nHost: x\r\nContent-Type: "
                               "application/json\r\nContent-Length: 4\r\n\r\n[1"));
    raw_sleep(0.2);
    double t0 = raw_now();
    kill(c.pid, SIGTERM);
    int status = child_wait(&c, PATIENCE_S);
    double took = raw_now() - t0;
    char log[16384];
    child_read_log(&c, log, sizeof log);
    fprintf(stderr, "drain: exit %.2f s after SIGTERM with a request unfinished\n", took);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* Not before the deadline (a lower bound: load only makes it later). */
    cr_expect_geq(took, 0.95, "exited %.2f s after SIGTERM", took);
    cr_expect(strstr(log, "\"drained\":false,\"unanswered\":1") != NULL, "%s", log);
    close(fd);
}
