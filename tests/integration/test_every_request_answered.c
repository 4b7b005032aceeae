/*
 * Every request is answered, and every request leaves an access-log line: a connection is
 * never closed on a whole request without an answer, and one whose client never finished
 * sending its request is cut with a line that says why. Against the real binary (its access
 * log on stderr), over raw sockets:
 *
 * - a request line that never comes whole: idle past the inactivity timeout, trickled past
 *   the request deadline, given up by its client; headers trickled and a body stalled;
 * - a connection over the per-IP limit: its whole request is a 503 with Retry-After, its half
 *   request a logged timeout after a second;
 * - the worker pool's deadlines: a job that waited past server.answer_deadline is a 503 with
 *   Retry-After, one that computed past it a 504 problem, and the work stops there;
 * - a long request waiting in the queue longer than the inactivity timeout is still answered,
 *   and one past its client's share is a 503;
 * - stopping answers what the pool holds: the job computing finishes, the one waiting gets a
 *   503 with Retry-After, before the daemon closes their connections;
 * - the drain does not take a request line arriving in pieces for an idle connection.
 *
 * The heavy requests are /analyze-attack graphs at 10^9 armies (about 5 ms of one core a
 * point here), with warapp.max_graph_terms raised so that they are accepted: the one endpoint
 * whose core is metered on every branch of this work.
 *
 * The server's timers are wall-clock ones, and so is the client's pacing, so on a machine
 * shared with other work a client's 0.4 s pause can last a second. What is asserted does not
 * move with that: which timer cut a connection (the log's "ended", with the other timers set
 * far away), bytes sent before a cut, statuses and log lines, the workers' CPU time and state
 * from /proc; a wall-clock figure is asserted only as a lower bound (a loaded machine only makes
 * it larger) and otherwise printed. Every wait of the client has a generous limit that fails
 * with a message: a safety net, not the claim.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "child_server.h"
#include "proc_stats.h"
#include "raw_http.h"

/* How long the client waits for anything the server should do promptly (an answer, a close, a
 * log line): a safety net for a server that never does it, long enough for any load. */
#define PATIENCE_S 60.0

/* Starts the binary with `config` (a JSON config file's text) on a free loopback port and
 * reads its log as it comes. */
static child_log *start_with(child_server *c, const char *config) {
    char path[] = "/tmp/combatd-answered-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, config, strlen(config)), (ssize_t)strlen(config));
    close(fd);
    char *args[] = {"--config", path, "--port", "0", "--bind", "127.0.0.1", NULL};
    char *env[] = {"PATH=/usr/bin:/bin", NULL};
    child_start(c, args, env);
    unlink(path);
    cr_assert_gt(c->port, 0, "the child said where it listens");
    return child_log_start(c);
}

/* SIGTERM, and the child's exit status once its log has ended. */
static int stop(child_server *c, child_log *l) {
    kill(c->pid, SIGTERM);
    child_log_finish(l);
    return child_wait(c, PATIENCE_S);
}

/* Sends one request with Connection: close from `source` (NULL: 127.0.0.1); the connection,
 * its answer still to read. */
static int send_from(uint16_t port, const char *source, const char *method, const char *path,
                     const char *body) {
    int fd = raw_connect_from(port, source, 0);
    cr_assert_geq(fd, 0, "connect");
    cr_assert(raw_send_request(fd, method, path, body ? "application/json" : NULL, body, true));
    return fd;
}

/* The X-Request-Id of an answer, into id; false when it has none. */
static bool request_id_of(const char *answer, char id[80]) {
    const char *h = answer ? strcasestr(answer, "\r\nX-Request-Id: ") : NULL;
    return h && sscanf(h + 16, "%64[^\r\n]", id) == 1;
}

/* The access-log line of the request that got `answer`, waited for (malloc'd). */
static char *line_of(child_log *l, const char *answer) {
    char id[80], needle[120];
    cr_assert(request_id_of(answer, id), "an answer with a request id: %.300s", answer);
    snprintf(needle, sizeof needle, "\"request_id\":\"%s\"", id);
    cr_assert_eq(child_log_wait(l, needle, 1, PATIENCE_S), 1,
                 "the request %s was not logged in %.0f s", id, PATIENCE_S);
    return child_log_line_with(l, needle);
}

/* That the request that got `answer` was logged with `status` and `ended`. */
static void expect_logged(child_log *l, const char *answer, int status, const char *ended) {
    char *line = line_of(l, answer);
    char want_status[32], want_ended[48];
    snprintf(want_status, sizeof want_status, "\"status\":%d,", status);
    snprintf(want_ended, sizeof want_ended, "\"ended\":\"%s\"", ended);
    cr_expect_not_null(strstr(line, want_status), "%s", line);
    cr_expect_not_null(strstr(line, want_ended), "%s", line);
    free(line);
}

static void expect_retry_503(const char *answer, const char *detail) {
    cr_expect_eq(raw_status(answer), 503, "%.500s", answer);
    cr_expect_not_null(strstr(answer, "\r\nRetry-After: 1\r\n"), "%.500s", answer);
    cr_expect_not_null(strstr(answer, "Content-Type: application/problem+json"), "%.500s", answer);
    cr_expect_not_null(strstr(answer, detail), "%.700s", answer);
}

/* Counts the log lines of requests that never had a request line (method "-") ending so. */
static size_t unfinished(child_log *l, const char *ended) {
    char needle[96];
    snprintf(needle, sizeof needle, "\"method\":\"-\",\"path\":\"-\",\"status\":0,");
    if (!ended) {
        return child_log_count(l, needle);
    }
    char *text = child_log_text(l);
    size_t n = 0;
    for (char *p = text; (p = strstr(p, needle)) != NULL; p++) {
        char *eol = strchr(p, '\n');
        char want[48];
        snprintf(want, sizeof want, "\"ended\":\"%s\"", ended);
        char *hit = strstr(p, want);
        n += hit && (!eol || hit < eol);
    }
    free(text);
    return n;
}

/* Whether the server closes fd within `seconds` (reading and dropping what it sends). */
static bool closed_within(int fd, double seconds) {
    bool closed;
    free(raw_read_until_close(fd, seconds, &closed, NULL));
    return closed;
}

/* ---- requests whose clients never finish sending them ---- */

/* Every test of this file has the same .timeout: Criterion 2.4.1's runner loses 48 bytes
 * (LeakSanitizer fails the run) when tests with different timeouts run side by side. */

/*
 * The inactivity timeout (4 s) and the request deadline (7 s) for the trickles, which send a
 * byte every TRICKLE_S: a pause of the client nine times as long as it means is still not
 * inactivity, and the deadline comes 3 s after the timeout, so that each timer's cut is told
 * from the other's by the log alone.
 */
static const char slow_config[] =
    "{\"server\": {\"threads\": 2, \"connection_timeout\": 4, \"request_deadline\": 7}}";
#define TRICKLE_S 0.4
/* The request deadline passes after 7 / 0.4 = 17.5 bytes at the most (the client only ever
 * pauses longer than it means, so fewer bytes fit): a trickle still open after this many (over
 * 38 s) was never cut. The bound is a count far past the deadline, not a margin on its time, so
 * that a loaded machine's late timer still cuts within it. */
#define TRICKLE_MAX_BYTES 96

/* Sends `text` a byte every TRICKLE_S until the server closes the connection, at most
 * TRICKLE_MAX_BYTES of it; how many bytes went. Closes `give_up` (when not -1) after the
 * second byte: a client that gives up meanwhile. */
static size_t trickle(int fd, const char *text, int give_up) {
    size_t n = 0, len = strlen(text);
    while (n < len && n < TRICKLE_MAX_BYTES && !raw_peer_closed(fd) && raw_send(fd, &text[n], 1)) {
        n++;
        raw_sleep(TRICKLE_S);
        if (n == 2 && give_up >= 0) {
            close(give_up);
        }
    }
    return n;
}

/* A request line longer than TRICKLE_MAX_BYTES: trickled, it never comes whole. */
static const char long_line[] = "GET /livez?a-request-line-trickled-a-byte-at-a-time-"
                                "that-is-longer-than-the-trickle-ever-sends-of-it HTTP/1.1\r\n";

/*
 * Three request lines that never come whole: one idle past the inactivity timeout, one
 * trickled a byte every 0.4 s (never idle for the timeout) until the request deadline cuts it,
 * one given up by its client; beside them a connection that sends nothing, which is idleness
 * and no request: three lines, one of each, and none for the idle connection.
 */
Test(unfinished, request_lines_that_never_come_whole_are_logged, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, slow_config);
    int idle_half = raw_connect(c.port), given_up = raw_connect(c.port);
    int silent = raw_connect(c.port), trickled = raw_connect(c.port);
    cr_assert(idle_half >= 0 && given_up >= 0 && silent >= 0 && trickled >= 0);
    cr_assert(raw_send_str(idle_half, "POST /analy"));
    cr_assert(raw_send_str(given_up, "GET /li"));
    double t0 = raw_now();
    size_t sent = trickle(trickled, long_line, given_up);
    double cut_at = raw_now() - t0;
    fprintf(stderr, "unfinished | the trickle was cut after %zu bytes, %.2f s\n", sent, cut_at);
    cr_expect_lt(sent, TRICKLE_MAX_BYTES, "the trickle was not cut (%zu bytes in %.2f s)", sent,
                 cut_at);
    /* Not before the deadline: the server's clock starts at the first byte, after t0. */
    cr_expect_geq(cut_at, 7.0, "the trickle was cut after %.2f s", cut_at);
    cr_expect(closed_within(idle_half, PATIENCE_S), "the idle half request was closed");
    cr_expect(closed_within(silent, PATIENCE_S), "the silent connection was closed");
    close(idle_half);
    close(silent);
    close(trickled);
    cr_expect_eq(child_log_wait(l, "\"status\":0,", 3, PATIENCE_S), 3);
    cr_expect_eq(unfinished(l, "timeout"), 1);
    cr_expect_eq(unfinished(l, "deadline"), 1);
    cr_expect_eq(unfinished(l, "client_abort"), 1);
    cr_expect_eq(unfinished(l, NULL), 3, "no line for the connection that sent nothing");
    cr_expect_eq(stop(&c, l), 0);
    child_log_free(l);
}

/* A keep-alive client that closes after its answer has sent no request: the kernel counts its
 * FIN as a received byte, which must not read as a new request's first one. The pause lets the
 * watchdog (a look every 200 ms) see the idle connection before the FIN and again after it:
 * one line, the request's, and none with method "-". */
Test(unfinished, a_client_closing_an_idle_keep_alive_connection_sent_no_request, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, slow_config);
    int fd = raw_connect(c.port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_request(fd, "GET", "/livez", NULL, NULL, false));
    bool close_after = true;
    cr_expect_eq(raw_read_answer(fd, 5000, &close_after), 200);
    cr_expect_not(close_after);
    raw_sleep(0.5);
    cr_assert_eq(shutdown(fd, SHUT_WR), 0);
    raw_sleep(0.5);
    cr_expect(closed_within(fd, PATIENCE_S), "the server closed the connection");
    close(fd);
    cr_expect_eq(stop(&c, l), 0);
    cr_expect_eq(child_log_count(l, "\"request_id\":\""), 1, "one line, the request's");
    cr_expect_eq(unfinished(l, NULL), 0, "no line for a request never sent");
    child_log_free(l);
}

/* Past the request line the request has its path (and past the headers its method): headers
 * trickled past the deadline and a body stalled past the inactivity timeout are logged with
 * them. */
Test(unfinished, stalled_headers_and_bodies_are_logged_with_their_path, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, slow_config);
    int headers = raw_connect(c.port), body = raw_connect(c.port);
    cr_assert(headers >= 0 && body >= 0);
    cr_assert(raw_send_str(headers, "GET /livez HTTP/1.1\r\nHost: x\r\nX-Pad: "));
    cr_assert(raw_send_str(body, "POST /analyze-attack HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                 "application/json\r\nContent-Length: 100\r\n\r\n{\"attackers\""));
    size_t sent = trickle(headers, long_line + 4, -1);
    cr_expect_lt(sent, TRICKLE_MAX_BYTES, "the trickled headers were not cut (%zu bytes)", sent);
    cr_expect(closed_within(headers, PATIENCE_S), "the trickled headers were closed");
    cr_expect(closed_within(body, PATIENCE_S), "the stalled body was closed");
    close(headers);
    close(body);
    cr_assert_eq(child_log_wait(l, "\"status\":0,", 2, PATIENCE_S), 2);
    char *line = child_log_line_with(l, "\"path\":\"/livez\"");
    cr_assert_not_null(line);
    cr_expect_not_null(strstr(line, "\"ended\":\"deadline\""), "%s", line);
    free(line);
    line = child_log_line_with(l, "\"method\":\"POST\",\"path\":\"/analyze-attack\"");
    cr_assert_not_null(line);
    cr_expect_not_null(strstr(line, "\"ended\":\"timeout\""), "%s", line);
    cr_expect_not_null(strstr(line, "\"bytes_in\":12,"), "%s", line);
    free(line);
    cr_expect_eq(stop(&c, l), 0);
    child_log_free(l);
}

/*
 * per_ip_connection_limit 2: with two connections held, a third from the same address gets
 * its whole request answered 503 with Retry-After, and a fourth that sends half a request line
 * is closed by its own 1 s timeout, logged. The inactivity timeout and the request deadline are
 * an hour, so that nothing else can have closed it within the client's patience.
 */
Test(unfinished, over_the_per_ip_limit_every_request_is_answered_or_logged, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, "{\"server\": {\"threads\": 2, \"connection_timeout\": 3600, "
                                  "\"request_deadline\": 3600, \"per_ip_connection_limit\": 2}}");
    int held[2];
    for (int i = 0; i < 2; i++) {
        held[i] = raw_connect(c.port);
        cr_assert_geq(held[i], 0);
        cr_assert(raw_send_request(held[i], "GET", "/livez", NULL, NULL, false));
        cr_assert_eq(raw_read_answer(held[i], (int)(PATIENCE_S * 1000), NULL), 200);
    }
    int half = raw_connect(c.port);
    cr_assert_geq(half, 0);
    cr_assert(raw_send_str(half, "GET /liv"));
    char *text = raw_answer_of(
        send_from(c.port, NULL, "POST", "/analyze-attack", "{\"attackers\": 3, \"defenders\": 2}"),
        PATIENCE_S);
    expect_retry_503(text, "Too many connections from 127.0.0.1");
    expect_logged(l, text, 503, "ok");
    free(text);
    double t0 = raw_now();
    cr_expect(closed_within(half, PATIENCE_S), "the half request over the limit was closed");
    fprintf(stderr, "unfinished | the half request over the limit was closed after %.2f s\n",
            raw_now() - t0);
    close(half);
    cr_expect_eq(child_log_wait(l, "\"status\":0,", 1, PATIENCE_S), 1);
    char *logged = child_log_line_with(l, "\"status\":0,");
    cr_expect_eq(unfinished(l, "timeout"), 1, "%s", logged ? logged : "no line");
    free(logged);
    close(held[0]);
    close(held[1]);
    cr_expect_eq(stop(&c, l), 0);
    child_log_free(l);
}

/* ---- the worker pool's deadlines ---- */

/* An /analyze-attack graph of `points` points at 10^9 armies and 16 % luck: about 3.1·10^5
 * binomial terms a point, estimated at 10 ns a term. */
static void graph_body(char *buf, size_t size, unsigned points) {
    snprintf(buf, size,
             "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"settings\": "
             "{\"luck_modifier\": 0.16}, \"graph\": {\"from\": %u, \"to\": 1000000000}}",
             1000000001u - points);
}

/* The server's one worker, once it has lowered its priority. */
static pid_t the_worker(const child_server *c) {
    proc_server_threads t;
    cr_assert(proc_wait_server_threads(c->pid, 1, PATIENCE_S, &t), "no worker thread (nice > 0)");
    cr_assert_eq(t.n_workers, 1);
    return t.workers[0];
}

/* Waits until the worker computes (a job holds it): it is 'R' from then until the job ends. */
static void wait_computing(const child_server *c, pid_t worker) {
    double end = raw_now() + PATIENCE_S;
    while (proc_thread_state(c->pid, worker) != 'R' && raw_now() < end) {
        raw_sleep(0.002);
    }
    cr_assert_eq(proc_thread_state(c->pid, worker), 'R', "the worker never began to compute");
}

/* Whether any of the server's threads computes: 'R' at each of 10 looks 50 ms apart. A thread
 * that computes is 'R' at every look however loaded the machine is; an idle one that wakes for
 * a moment (the watchdog's tick) is not, even if it waits a while for a CPU. */
static bool something_computes(pid_t pid) {
    pid_t tids[64];
    int n = proc_threads(pid, tids, 64), times[64] = {0};
    for (int look = 0; look < 10; look++) {
        for (int i = 0; i < n; i++) {
            times[i] += proc_thread_state(pid, tids[i]) == 'R';
        }
        raw_sleep(0.05);
    }
    for (int i = 0; i < n; i++) {
        if (times[i] == 10) {
            return true;
        }
    }
    return false;
}

/*
 * One worker and answer_deadline 1 s. The quick-looking request Y (500 points, estimated
 * 1.6 s, under inline_cost_ns 10 s) comes first and computes on its HTTP thread until it has
 * spent inline_work_us (0.5 s of work units); X (5,000 points, estimated 16 s) comes 0.1 s
 * later on the other HTTP thread and goes to the worker at once. X computes until its own
 * deadline, 1.1 s after Y's arrival, and is a 504; Y, handed to the pool while X ran, finds
 * the worker only past its deadline and is refused with a 503 without computing. Whatever the
 * weights of the work units, Y is admitted after X or after its own deadline, so the outcome
 * does not depend on them. Then the server computes nothing more.
 *
 * That X was stopped at its deadline is read from the worker's CPU time: it computed from its
 * admission to its deadline at most, a second of wall-clock time, so at most a second of CPU
 * (less on a loaded machine, never more), plus one check's worth (about a millisecond of work).
 */
Test(deadlines, a_job_past_the_deadline_is_503_in_the_queue_and_504_computing, .timeout = 120) {
    child_server c;
    child_log *l = start_with(
        &c, "{\"server\": {\"threads\": 2, \"workers\": 1, \"answer_deadline\": 1, "
            "\"work_budget_ms\": 3600000, \"inline_cost_ns\": 10000000000, \"inline_work_us\": "
            "500000}, \"warapp\": {\"max_graph_terms\": 10000000000}}");
    pid_t worker = the_worker(&c);
    long long worker0 = proc_thread_cpu_ns(c.pid, worker);
    char y_body[256], x_body[256];
    graph_body(y_body, sizeof y_body, 500);
    graph_body(x_body, sizeof x_body, 5000);
    double t0 = raw_now();
    int y = send_from(c.port, NULL, "POST", "/analyze-attack", y_body);
    raw_sleep(0.1);
    int x = send_from(c.port, "127.0.0.2", "POST", "/analyze-attack", x_body);
    char *x_text = raw_answer_of(x, PATIENCE_S);
    double x_took = raw_now() - t0;
    char *y_text = raw_answer_of(y, PATIENCE_S);
    double worker_s = (double)(proc_thread_cpu_ns(c.pid, worker) - worker0) / 1e9;
    fprintf(stderr,
            "deadlines | the 504 came %.2f s after the first request; the worker "
            "computed %.3f s\n",
            x_took, worker_s);

    cr_expect_eq(raw_status(x_text), 504, "%.600s", x_text);
    cr_expect_not_null(strstr(x_text, "Content-Type: application/problem+json"), "%.400s", x_text);
    cr_expect_not_null(strstr(x_text, "server.answer_deadline (1 s)"), "%.600s", x_text);
    /* Not before the deadline (the server's clock starts after t0). */
    cr_expect_gt(x_took, 1.0, "the 504 came %.2f s after the first request", x_took);
    cr_expect_lt(worker_s, 1.2, "the worker computed %.3f s of CPU for a 1 s deadline", worker_s);
    expect_retry_503(y_text, "waited for a worker past server.answer_deadline");
    expect_logged(l, x_text, 504, "ok");
    expect_logged(l, y_text, 503, "ok");

    /* Neither goes on computing: no thread of the server computes once both are answered. */
    long long before = proc_cpu_ticks(c.pid);
    cr_expect(!something_computes(c.pid), "a thread still computes after the answers");
    fprintf(stderr, "deadlines | %lld ticks of CPU in the 0.5 s after the answers\n",
            proc_cpu_ticks(c.pid) - before);
    free(x_text);
    free(y_text);
    cr_expect_eq(stop(&c, l), 0);
    child_log_free(l);
}

/* The heavy requests' config: one worker, graphs allowed, time for a slow build (these tests
 * are not about the deadline), the given extra server keys. */
#define GRAPH_SERVER(extra)                                                                        \
    "{\"server\": {\"threads\": 2, \"workers\": 1, \"work_budget_ms\": 60000, "                    \
    "\"answer_deadline\": 600" extra "}, \"warapp\": {\"max_graph_terms\": 10000000000}}"

/*
 * connection_timeout 1 s: a long request (1,000 points, 3–5 s of one core) holds the one worker
 * and a second one waits behind it for longer than the timeout. libmicrohttpd times out no
 * suspended connection and restarts the timer when it resumes one, so both are answered; a
 * third long request from the same address, past its share of two, is a 503 at once. Each
 * request is sent once the one before holds its place (the worker computes; two requests in
 * flight), so that the order is the test's and not the scheduler's.
 */
Test(deadlines, a_request_queued_past_the_connection_timeout_is_answered, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, GRAPH_SERVER(", \"connection_timeout\": 1, \"worker_share\": 2"));
    pid_t worker = the_worker(&c);
    char long_body[256], short_body[256];
    graph_body(long_body, sizeof long_body, 1000);
    graph_body(short_body, sizeof short_body, 20);
    int first = send_from(c.port, NULL, "POST", "/analyze-attack", long_body);
    wait_computing(&c, worker);
    double t0 = raw_now();
    int queued = send_from(c.port, NULL, "POST", "/analyze-attack", short_body);
    cr_assert_geq(raw_wait_in_flight(c.port, 2, PATIENCE_S), 2, "two requests in flight");
    char *third =
        raw_answer_of(send_from(c.port, NULL, "POST", "/analyze-attack", short_body), PATIENCE_S);
    expect_retry_503(third, "its share (server.worker_share)");
    expect_logged(l, third, 503, "ok");
    char *first_text = raw_answer_of(first, PATIENCE_S);
    char *queued_text = raw_answer_of(queued, PATIENCE_S);
    double waited = raw_now() - t0;
    cr_expect_eq(raw_status(first_text), 200, "%.300s", first_text);
    cr_expect_eq(raw_status(queued_text), 200, "%.300s", queued_text);
    /* A lower bound: a loaded machine only makes the wait longer. */
    fprintf(stderr, "deadlines | the queued request waited %.2f s\n", waited);
    cr_expect_gt(waited, 1.2, "the queued request waited only %.2f s", waited);
    expect_logged(l, queued_text, 200, "ok");
    free(first_text);
    free(queued_text);
    free(third);
    cr_expect_eq(stop(&c, l), 0);
    child_log_free(l);
}

/*
 * SIGTERM with drain_deadline 0 while the worker computes one long request and another waits:
 * the stop ends the first's computation at its next progress check and refuses both with a 503
 * and Retry-After (nothing may run past a deadline of 0), and both answers reach their clients
 * before the daemon closes the connections. The SIGTERM goes once the worker computes the first
 * and the second is in flight.
 */
Test(stopping, answers_what_the_pool_holds, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, GRAPH_SERVER(", \"drain_deadline\": 0, \"worker_share\": 4"));
    pid_t worker = the_worker(&c);
    char long_body[256], short_body[256];
    graph_body(long_body, sizeof long_body, 300);
    graph_body(short_body, sizeof short_body, 20);
    int running = send_from(c.port, NULL, "POST", "/analyze-attack", long_body);
    wait_computing(&c, worker);
    int waiting = send_from(c.port, NULL, "POST", "/analyze-attack", short_body);
    cr_assert_geq(raw_wait_in_flight(c.port, 2, PATIENCE_S), 2, "two requests in flight");
    kill(c.pid, SIGTERM);
    char *running_text = raw_answer_of(running, PATIENCE_S);
    char *waiting_text = raw_answer_of(waiting, PATIENCE_S);
    expect_retry_503(running_text, "The service is stopping");
    expect_retry_503(waiting_text, "The service is stopping");
    child_log_finish(l);
    cr_expect_eq(child_wait(&c, PATIENCE_S), 0);
    expect_logged(l, running_text, 503, "ok");
    expect_logged(l, waiting_text, 503, "ok");
    free(running_text);
    free(waiting_text);
    child_log_free(l);
}

/*
 * A request line that arrives in two pieces 0.8 s apart, a SIGTERM between them: the drain
 * does not close the connection as idle, and the request is answered with Connection: close.
 * The drain's deadline (30 s) is far past the pieces' gap however the client is delayed: the
 * drain's idleness, not its deadline, is what this tests.
 */
Test(stopping, the_drain_waits_for_a_request_line_in_pieces, .timeout = 120) {
    child_server c;
    child_log *l = start_with(&c, "{\"server\": {\"threads\": 2, \"drain_deadline\": 30}}");
    int fd = raw_connect(c.port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, "GET /livez HTT"));
    raw_sleep(0.4); /* the watchdog has looked at it */
    kill(c.pid, SIGTERM);
    raw_sleep(0.4); /* the drain has looked at it, several times */
    cr_assert(raw_send_str(fd, "P/1.1\r\nHost: x\r\n\r\n"), "the connection is still open");
    bool closed;
    char *text = raw_read_until_close(fd, PATIENCE_S, &closed, NULL);
    close(fd);
    cr_expect_eq(raw_status(text), 200, "%s", text);
    cr_expect_not_null(strstr(text, "\r\nConnection: close\r\n"), "%s", text);
    child_log_finish(l);
    cr_expect_eq(child_wait(&c, PATIENCE_S), 0);
    expect_logged(l, text, 200, "ok");
    cr_expect_eq(child_log_count(l, "\"drained\":true"), 1);
    free(text);
    child_log_free(l);
}
