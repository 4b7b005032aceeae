/*
 * Starvation: another client stays fast while one address floods the service with its most
 * expensive requests. Against the binary with the built-in defaults (2 workers, a share of one
 * place per address; only the answer deadline raised to a minute), over loopback:
 *
 * - from 127.0.0.1, for each row of tests/support/costly_requests.h in turn (every POST
 *   endpoint's costliest request, and the requests that broke the promises before the budget), 16
 * copies sent at once on 16 connections, and the next row once all 16 are answered;
 * - from 127.0.0.2 meanwhile, on one keep-alive connection, GET /livez and a small
 *   /analyze-attack in turn, one every 10 ms by the clock.
 *
 * The second client's latency is printed from when each request was due, not from when it
 * went out, so that a stall is counted for every request it delayed (coordinated omission).
 * On a machine shared with other work that clock measures the other work too, so what is
 * asserted is what the server decides, from /proc: while each request of the second client
 * waited, the server's HTTP side (every thread but the workers) ran little CPU (p99 under 5 ms:
 * it was not held by the flood), and the flood's computing ran on the workers, at a lower
 * priority than the HTTP threads. None of the second client's requests fails. Every costly
 * request is answered: a 200 or a 422 (the budget), or a 503 with Retry-After (the pool), never
 * a closed connection; and the per-client share applies to the flood (some of its answers are
 * the share's 503). Every request, the second client's included, leaves exactly one
 * access-log line.
 *
 * The server runs under rlimits, as in test_budget_attacks.c, so that a request the budget
 * does not bound fails the test without taking the machine with it.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "child_server.h"
#include "costly_requests.h"
#include "proc_stats.h"
#include "raw_http.h"

#define COPIES       16
#define PROBE_STEP_S 0.010
#define MAX_PROBES   8192

#include "sanitizer.h"

/* The p99 of the server's HTTP side's CPU time while a request of the second client waited:
 * what the service made it wait for. The flood's costliest work on an HTTP thread is a parse of
 * a 64 KiB body (about 2 ms) and a 1 ms inline start, so a p99 past this means requests held
 * an HTTP thread. Under AddressSanitizer everything takes three to four times as long. */
#define WORK_P99_LIMIT_MS (UNDER_ASAN ? 15.0 : 5.0)

static const char small_body[] = "{\"attackers\": 12, \"defenders\": 8, \"settings\": "
                                 "{\"luck_modifier\": 0.5}}";

typedef struct {
    uint16_t port;
    const proc_server_threads *threads;
    atomic_bool stop;
    double ms[MAX_PROBES];   /* latency from the due time */
    double due[MAX_PROBES];  /* the due time (raw_now's clock) */
    double work[MAX_PROBES]; /* ms of CPU the HTTP side ran from the send to the answer */
    size_t n, failed;
    int first_failure; /* the status of the first failure (0: the connection ended) */
} probe;

/* The second client: a request due every PROBE_STEP_S, /livez and the small analysis in turn,
 * until told to stop. Each wait is measured twice: on the clock from its due time, which this
 * machine's other load stretches as much as the server's work, and as the CPU time the
 * server's HTTP side ran meanwhile, which is the server's work alone. */
static void *probe_main(void *arg) {
    probe *p = arg;
    const proc_server_threads *t = p->threads;
    int fd = raw_connect_from(p->port, "127.0.0.2", 0);
    double t0 = raw_now();
    for (size_t k = 0; fd >= 0 && !atomic_load(&p->stop) && p->n < MAX_PROBES; k++) {
        double due = t0 + (double)k * PROBE_STEP_S;
        if (due > raw_now()) {
            raw_sleep(due - raw_now());
        }
        long long before = proc_threads_cpu_ns(t->pid, t->http, t->n_http);
        bool sent = k % 2 ? raw_send_request(fd, "POST", "/analyze-attack", "application/json",
                                             small_body, false)
                          : raw_send_request(fd, "GET", "/livez", NULL, NULL, false);
        bool close_after = false;
        /* A minute: a safety net (a request that never comes back), not a latency limit. */
        int status = sent ? raw_read_answer(fd, 60000, &close_after) : 0;
        p->work[p->n] = (double)(proc_threads_cpu_ns(t->pid, t->http, t->n_http) - before) / 1e6;
        p->due[p->n] = due;
        p->ms[p->n++] = (raw_now() - due) * 1e3;
        if (status != 200 || close_after) {
            p->failed++;
            p->first_failure = p->failed == 1 ? status : p->first_failure;
            close(fd);
            fd = raw_connect_from(p->port, "127.0.0.2", 0);
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    return NULL;
}

typedef struct {
    unsigned ok, refused, share, other;
    char first_other[400];
} flood_counts;

/* One answer of the flood, counted: a 200 or 422, a 503 with Retry-After (the share's when it
 * says so), or anything else (a closed connection reads as status 0). */
static void count_answer(const costly_request *row, const char *text, flood_counts *fc) {
    int status = raw_status(text);
    if (status == 200 || status == 422) {
        fc->ok++;
    } else if (status == 503 && strstr(text, "\r\nRetry-After: ")) {
        fc->refused++;
        fc->share += strstr(text, "server.worker_share") != NULL;
    } else {
        if (fc->other++ == 0) {
            snprintf(fc->first_other, sizeof fc->first_other, "%s: %d %.300s", row->label, status,
                     text ? text : "");
        }
    }
}

/* How long the COPIES answers of one row may take in all: each is at most one work budget
 * (2 s of CPU) of one of two workers, and all but a share's are refused at once, so a few
 * seconds idle. A safety net, generous for a loaded machine: that the work is bounded is
 * asserted in CPU time by test_budget_attacks.c; here a row that never ends fails the test
 * instead of hanging it. */
#define ROW_DEADLINE_S 120.0

/* COPIES of one row at once from 127.0.0.1, every answer read (by ROW_DEADLINE_S: a server
 * that does not bound the work fails here rather than after minutes). */
static void flood_row(uint16_t port, const costly_request *row, flood_counts *fc) {
    int fds[COPIES];
    for (int i = 0; i < COPIES; i++) {
        fds[i] = raw_connect_from(port, "127.0.0.1", 0);
        cr_assert_geq(fds[i], 0);
    }
    for (int i = 0; i < COPIES; i++) {
        cr_assert(raw_send_request(fds[i], "POST", row->path, "application/json", row->body, true));
    }
    double deadline = raw_now() + ROW_DEADLINE_S;
    for (int i = 0; i < COPIES; i++) {
        double left = deadline - raw_now();
        char *text = raw_answer_of(fds[i], left > 0 ? left : 0.001);
        count_answer(row, text, fc);
        free(text);
    }
    cr_assert_lt(raw_now(), deadline, "%s: %d copies not all answered in %.0f s", row->label,
                 COPIES, ROW_DEADLINE_S);
}

/* The log's lines that are not a request answered and ended "ok": what a wrong count of
 * access-log lines is made of. */
static void print_odd_lines(child_log *log) {
    char *text = child_log_text(log);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strstr(line, "\"request_id\":\"-\"") || !strstr(line, "\"ended\":\"ok\"")) {
            fprintf(stderr, "starvation | log line: %s\n", line);
        }
    }
    free(text);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static child_log *start_default(child_server *c) {
    char path[] = "/tmp/combatd-starvation-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "{}", 2), 2);
    close(fd);
    char *args[] = {"--config", path, "--port", "0", "--bind", "127.0.0.1", NULL};
    /* The answer deadline (wall-clock time) is raised: a loaded machine or a slow build must
     * not turn the flood's admitted requests into 504s; this test is about the share. */
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_ANSWER_DEADLINE=60", NULL};
    child_limits limits = {.address_space_bytes = UNDER_ASAN ? 0 : UINT64_C(4) << 30,
                           .cpu_seconds = 120};
    child_start_limited(c, args, env, &limits);
    unlink(path);
    cr_assert_gt(c->port, 0, "the child said where it listens");
    return child_log_start(c);
}

Test(starvation, another_address_stays_fast_while_one_floods, .timeout = 540) {
    child_server c;
    child_log *log = start_default(&c);
    size_t n_rows = 0;
    costly_request *rows = costly_requests(&n_rows);
    static proc_server_threads threads;
    /* The built-in defaults start two workers at least; each lowers its priority as it starts. */
    cr_assert(proc_wait_server_threads(c.pid, 2, 30.0, &threads),
              "%d workers at a positive nice after 30 s", threads.n_workers);
    static probe p;
    p.port = c.port;
    p.threads = &threads;
    atomic_init(&p.stop, false);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, probe_main, &p), 0);
    raw_sleep(0.3); /* the second client alone for a moment */
    double t0 = raw_now();
    long long http0 = proc_threads_cpu_ns(c.pid, threads.http, threads.n_http);
    long long workers0 = proc_threads_cpu_ns(c.pid, threads.workers, threads.n_workers);
    flood_counts fc = {0};
    double row_start[64], row_end[64];
    for (size_t r = 0; r < n_rows && r < 64; r++) {
        row_start[r] = raw_now();
        flood_row(c.port, &rows[r], &fc);
        row_end[r] = raw_now();
    }
    double flood_s = raw_now() - t0;
    double http_s =
        (double)(proc_threads_cpu_ns(c.pid, threads.http, threads.n_http) - http0) / 1e9;
    double workers_s =
        (double)(proc_threads_cpu_ns(c.pid, threads.workers, threads.n_workers) - workers0) / 1e9;
    atomic_store(&p.stop, true);
    pthread_join(th, NULL);

    /* Where the second client waited longest: the row flooding at the time. */
    for (size_t r = 0; r < n_rows && r < 64; r++) {
        double worst = 0;
        for (size_t k = 0; k < p.n; k++) {
            if (p.due[k] >= row_start[r] && p.due[k] < row_end[r] && p.ms[k] > worst) {
                worst = p.ms[k];
            }
        }
        fprintf(stderr, "starvation | %-48s %6.2f s, the second client's worst %7.2f ms\n",
                rows[r].label, row_end[r] - row_start[r], worst);
    }
    qsort(p.ms, p.n, sizeof p.ms[0], by_value);
    qsort(p.work, p.n, sizeof p.work[0], by_value);
    double p50 = p.ms[p.n / 2], p99 = p.ms[p.n * 99 / 100], max = p.ms[p.n - 1];
    double w50 = p.work[p.n / 2], w99 = p.work[p.n * 99 / 100], wmax = p.work[p.n - 1];
    fprintf(stderr,
            "starvation | flood of %zu rows x %d for %.1f s: %u answered, %u refused (503, %u of "
            "them the share), %u other | second client: n=%zu p50 %.2f ms p99 %.2f ms max "
            "%.2f ms, %zu failed | HTTP side's CPU while it waited: p50 %.2f ms p99 %.2f ms max "
            "%.2f ms | CPU over the flood: HTTP side %.3f s (%d threads, nice <= %d), workers "
            "%.3f s (%d threads, nice >= %d)\n",
            n_rows, COPIES, flood_s, fc.ok, fc.refused, fc.share, fc.other, p.n, p50, p99, max,
            p.failed, w50, w99, wmax, http_s, threads.n_http, threads.http_nice, workers_s,
            threads.n_workers, threads.worker_nice);
    cr_expect_eq(fc.other, 0, "every costly request answered 200, 422 or 503; first: %s",
                 fc.first_other);
    cr_expect_gt(fc.share, 0, "the per-client share applied to the flood");
    cr_expect_eq(p.failed, 0, "the second client's requests failed (first status %d)",
                 p.first_failure);
    cr_expect_gt(p.n, 100, "the second client sent %zu requests", p.n);
    /* The wall-clock figures above are printed, not asserted: on a machine shared with other
     * work they measure that work as much as the server. What the server decides is asserted:
     * its HTTP side was not held while the second client waited, and the flood's computing ran
     * on the workers, below the HTTP threads' priority. */
    cr_expect_lt(w99, WORK_P99_LIMIT_MS,
                 "the HTTP side's CPU while the second client waited, p99: %.2f ms", w99);
    cr_expect_gt(threads.n_workers, 0, "the workers run below the HTTP threads' priority");
    cr_expect_gt(threads.worker_nice, threads.http_nice, "workers at nice %d, HTTP side at %d",
                 threads.worker_nice, threads.http_nice);
    cr_expect_lt(http_s * 4, workers_s,
                 "the flood computed on the workers: %.3f s of CPU there, %.3f s on the HTTP side",
                 workers_s, http_s);

    kill(c.pid, SIGTERM);
    child_log_finish(log);
    cr_expect_eq(child_wait(&c, 60), 0);
    size_t sent = n_rows * COPIES + p.n;
    size_t logged = child_log_count(log, "\"request_id\":\"");
    if (logged != sent) {
        print_odd_lines(log);
    }
    cr_expect_eq(logged, sent, "one access-log line for each of the %zu requests, not %zu", sent,
                 logged);
    child_log_free(log);
    costly_requests_free(rows, n_rows);
}
