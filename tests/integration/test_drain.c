/*
 * Restarts lose nothing (issue 15, item 1), against the real binary: keep-alive connections
 * kept busy with requests back to back through a SIGTERM. The client sends its next request
 * only after reading the whole previous answer, and none after an answer that carried
 * Connection: close; so every request it wrote must get a whole answer, and the only other
 * outcome allowed is a connection refused at connect (ECONNREFUSED) once the listener closes.
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

#include "raw_http.h"

static const char *binary(void) {
    const char *b = getenv("COMBATD_BINARY");
    cr_assert_not_null(b, "COMBATD_BINARY is set by CTest");
    return b;
}

typedef struct {
    pid_t pid;
    int err_fd;
    uint16_t port;
} child;

/* Starts the binary on a free loopback port with the given extra environment. */
static void start_child(child *c, char *const env[]) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    char *args[] = {(char *)binary(), "--port", "0", "--bind", "127.0.0.1", "--threads", "2", NULL};
    c->pid = fork();
    cr_assert_neq(c->pid, -1);
    if (c->pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        execve(binary(), args, env);
        _exit(127);
    }
    close(fds[1]);
    c->err_fd = fds[0];
    c->port = 0;
    char line[4096];
    size_t used = 0;
    while (used + 1 < sizeof line && read(c->err_fd, line + used, 1) == 1) {
        line[++used] = '\0';
        char *p = strstr(line, "\"port\":");
        if (line[used - 1] == '\n') {
            if (p) {
                c->port = (uint16_t)atoi(p + 7);
                break;
            }
            used = 0;
        }
    }
    cr_assert_gt(c->port, 0, "the listening line names the port");
}

/* Reads the rest of the child's log (after it exited) into buf. */
static void read_log(child *c, char *buf, size_t size) {
    size_t used = 0;
    ssize_t n;
    while (used + 1 < size && (n = read(c->err_fd, buf + used, size - 1 - used)) > 0) {
        used += (size_t)n;
    }
    buf[used] = '\0';
    close(c->err_fd);
}

/* Waits up to `seconds` for the child; its wait status, or -1 (killed) on timeout. */
static int wait_child(const child *c, double seconds) {
    double end = raw_now() + seconds;
    while (raw_now() < end) {
        int status;
        if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
            return status;
        }
        raw_sleep(0.01);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, NULL, 0);
    return -1;
}

/* Reads one whole answer (headers and Content-Length body). 0 when the connection ended
 * before a whole answer, else its status; *close set when it carried Connection: close. */
static int read_answer(int fd, bool *close_after) {
    char buf[16384];
    size_t len = 0;
    char *end = NULL;
    while (!end) {
        struct pollfd p = {fd, POLLIN, 0};
        if (len + 1 >= sizeof buf || poll(&p, 1, 5000) <= 0) {
            return 0;
        }
        ssize_t n = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        if (n <= 0) {
            return 0;
        }
        len += (size_t)n;
        buf[len] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    *end = '\0';
    const char *cl = strcasestr(buf, "\r\nContent-Length:");
    size_t want = cl ? strtoul(cl + 17, NULL, 10) : 0, have = len - (size_t)(end + 4 - buf);
    *close_after = strcasestr(buf, "\r\nConnection: close") != NULL;
    int status = raw_status(buf);
    while (have < want) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 5000) <= 0) {
            return 0;
        }
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
            return 0;
        }
        have += (size_t)n;
    }
    return status;
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
            int status = read_answer(fd, &close_after);
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

Test(drain, busy_keep_alive_connections_lose_nothing_through_sigterm, .timeout = 30) {
    child c;
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
        cr_assert_eq(read_answer(idle[i], &close_after), 200);
        cr_assert(!close_after);
    }
    raw_sleep(0.5);
    double t0 = raw_now();
    kill(c.pid, SIGTERM);
    /* From here on the signal has surely been taken: every answer must say close. */
    raw_sleep(0.1);
    atomic_store(&sigterm_sent, true);
    int status = wait_child(&c, 10);
    double took = raw_now() - t0;
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(threads[i], NULL);
    }
    /* The idle ones were closed by the server, without our sending anything. */
    for (int i = 0; i < 2; i++) {
        bool closed;
        char *rest = raw_read_until_close(idle[i], 5.0, &closed, NULL);
        cr_expect(closed && rest && rest[0] == '\0', "idle connection %d: %s", i, rest);
        free(rest);
        close(idle[i]);
    }
    char log[65536];
    read_log(&c, log, sizeof log);
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
    /* Out after the lame duck (1 s), the accept queue's and the idle connections' 50 ms,
     * far before the 10 s deadline. */
    cr_expect_lt(took, 2.0);
    cr_expect(strstr(log, "\"drained\":true,\"unanswered\":0") != NULL, "%s", log);
    cr_expect(strstr(log, "\"idle_closed\":2") != NULL, "%s", log);
}

Test(drain, lame_duck_serves_new_connections_with_readyz_503) {
    child c;
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_DRAIN_DELAY=2", NULL};
    start_child(&c, env);
    kill(c.pid, SIGTERM);
    raw_sleep(0.3);
    /* Within the lame duck: a new connection is accepted, served, and told to close. */
    int fd = raw_connect(c.port);
    cr_assert_geq(fd, 0, "new connections are accepted during the lame duck");
    cr_assert(raw_send_str(fd, "GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n"));
    bool close_after = false;
    cr_expect_eq(read_answer(fd, &close_after), 503);
    cr_expect(close_after, "Connection: close while draining");
    close(fd);
    fd = raw_connect(c.port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, post_req));
    cr_expect_eq(read_answer(fd, &close_after), 200, "work is still served");
    close(fd);
    /* After it, the listener is closed. */
    raw_sleep(2.2);
    cr_expect_eq(raw_connect(c.port), -1, "refused after the lame duck");
    int status = wait_child(&c, 5);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(c.err_fd);
}

Test(drain, deadline_bounds_a_request_that_never_completes_and_says_so) {
    child c;
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_DRAIN_DEADLINE=1", NULL};
    start_child(&c, env);
    int fd = raw_connect(c.port);
    cr_assert_geq(fd, 0);
    /* Half a body: a request is in this connection, and it never completes. */
    cr_assert(raw_send_str(fd, "POST /analyze-attack HTTP/1.1\r\nHost: x\r\nContent-Type: "
                               "application/json\r\nContent-Length: 4\r\n\r\n[1"));
    raw_sleep(0.2);
    double t0 = raw_now();
    kill(c.pid, SIGTERM);
    int status = wait_child(&c, 5);
    double took = raw_now() - t0;
    char log[16384];
    read_log(&c, log, sizeof log);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    cr_expect(took >= 0.95 && took < 2.0, "exited %.2f s after SIGTERM", took);
    cr_expect(strstr(log, "\"drained\":false,\"unanswered\":1") != NULL, "%s", log);
    close(fd);
}
