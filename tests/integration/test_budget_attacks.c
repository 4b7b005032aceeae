/*
 * The request budget as an attacker meets it: for each POST endpoint the most expensive legal
 * request we could construct, and the ones the budget's issue reported (one table,
 * tests/support/costly_requests.h), each sent to a server of its own with the built-in
 * defaults (but for the answer deadline, a minute), measured from outside through /proc:
 *
 * - CPU: utime + stime of the server across the request at most the work budget
 *   (server.work_budget_ms, 2 s) and half as much again: the work units are calibrated to
 *   about a nanosecond of this machine's core, and parsing, the inline attempt (1 ms) and
 *   writing the answer come on top;
 * - memory: the peak resident set (VmHWM, reset before the request) at most the memory budget
 *   (server.memory_budget, 128 MiB) and 32 MiB above the level before it (the answer being
 *   written, up to server.max_answer_bytes, and the request's document); the resident set
 *   back within 8 MiB of that level once the answer is out;
 * - the answer at most server.max_answer_bytes (8 MiB), a 200 or a 422 naming the member to
 *   reduce, as the row says.
 *
 * Every POST endpoint of the endpoint table has a row; /mcp, whose cost is its tool's, has one
 * tool call (its refusal a tool error, answered 200).
 *
 * The server runs under rlimits (4 GiB of address space, 20 s of CPU), so that a request the
 * budget does not bound fails its row instead of taking the machine with it. Each row prints
 * its figures on stderr.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "api/api.h"
#include "child_server.h"
#include "costly_requests.h"
#include "proc_stats.h"
#include "raw_http.h"

#define WORK_BUDGET_S     2.0
#define CPU_SLACK         1.5
#define MEMORY_BUDGET_MIB 128.0
#define PEAK_SLACK_MIB    32.0
#define RSS_RETURN_MIB    8.0
#define MAX_ANSWER_BYTES  8388608u

#include "sanitizer.h"

/* The server with the built-in defaults (an empty config file) but a minute of answer
 * deadline, under the rlimits. */
static child_log *start_default(child_server *c) {
    char path[] = "/tmp/combatd-attacks-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "{}", 2), 2);
    close(fd);
    char *args[] = {"--config", path, "--port", "0", "--bind", "127.0.0.1", NULL};
    /* The answer deadline (wall-clock time) is raised: these rows measure the work budget,
     * which a slow build or a loaded machine must not turn into a 504. */
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_ACCESS_LOG=false", "COMBATD_ANSWER_DEADLINE=60",
                   NULL};
    /* No address-space limit under ASan: its shadow memory needs terabytes of it. */
    child_limits limits = {.address_space_bytes = UNDER_ASAN ? 0 : UINT64_C(4) << 30,
                           .cpu_seconds = 20};
    child_start_limited(c, args, env, &limits);
    unlink(path);
    cr_assert_gt(c->port, 0, "the child said where it listens");
    return child_log_start(c);
}

typedef struct {
    int status;
    double cpu_s, wall_s;
    double peak_mib; /* VmHWM during the request above VmRSS before it */
    double rss_mib;  /* VmRSS after it above VmRSS before it */
    size_t answer_bytes;
    char *answer; /* the whole response */
} measured;

static double mib(long long kib) {
    return (double)kib / 1024.0;
}

/* One request on a connection of its own, measured from /proc around it. */
static measured measure(const child_server *c, const costly_request *row) {
    measured m = {0};
    long long rss_before = proc_status_kib(c->pid, "VmRSS");
    cr_assert(proc_reset_peak(c->pid), "cannot reset VmHWM through /proc/%d/clear_refs", c->pid);
    long long cpu_before = proc_cpu_ticks(c->pid);
    cr_assert(rss_before > 0 && cpu_before >= 0);
    double t0 = raw_now();
    int fd = raw_connect(c->port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_request(fd, "POST", row->path, "application/json", row->body, true));
    bool closed;
    m.answer = raw_read_until_close(fd, 100.0, &closed, NULL);
    cr_assert(closed, "%s: no whole answer in 100 s", row->label);
    close(fd);
    m.wall_s = raw_now() - t0;
    m.cpu_s = proc_ticks_seconds(proc_cpu_ticks(c->pid) - cpu_before);
    m.peak_mib = mib(proc_status_kib(c->pid, "VmHWM") - rss_before);
    /* The job's memory goes back when its request completes, a moment after the answer went
     * out (later on a loaded machine): looked at until it has, for 10 s at most. Under ASan it
     * is not asserted (quarantine), so looked at once, after 0.3 s. */
    double end = raw_now() + (UNDER_ASAN ? 0.3 : 10.0);
    do {
        raw_sleep(0.01);
        m.rss_mib = mib(proc_status_kib(c->pid, "VmRSS") - rss_before);
    } while ((UNDER_ASAN || m.rss_mib > RSS_RETURN_MIB) && raw_now() < end);
    m.status = raw_status(m.answer);
    const char *body = m.answer ? strstr(m.answer, "\r\n\r\n") : NULL;
    m.answer_bytes = body ? strlen(body + 4) : 0;
    return m;
}

/* The member the answer's first field error names ("" when none), for the printed row. */
static void first_pointer(const measured *m, char *buf, size_t size) {
    static const char key[] = "\"pointer\":\"";
    const char *at = m->answer ? strstr(m->answer, key) : NULL;
    size_t n = 0;
    if (at) {
        at += sizeof key - 1;
        while (at[n] && at[n] != '"' && n + 1 < size) {
            n++;
        }
        memcpy(buf, at, n);
    }
    buf[n] = '\0';
}

/* The 422's member is named: a field error with that pointer (any pointer when NULL). */
static void expect_member(const costly_request *row, const measured *m) {
    char want[160];
    if (row->member) {
        snprintf(want, sizeof want, "\"pointer\":\"%s\"", row->member);
    } else {
        snprintf(want, sizeof want, "\"pointer\":\"");
    }
    cr_expect_not_null(strstr(m->answer, want), "%s: a 422 naming %s: %.600s", row->label,
                       row->member ? row->member : "a member", m->answer);
}

static void expect_outcome(const costly_request *row, const measured *m) {
    switch (row->outcome) {
        case COSTLY_200:
            cr_expect_eq(m->status, 200, "%s: %.600s", row->label, m->answer);
            break;
        case COSTLY_422:
            cr_expect_eq(m->status, 422, "%s: %.600s", row->label, m->answer);
            expect_member(row, m);
            break;
        case COSTLY_200_OR_422:
            cr_expect(m->status == 200 || m->status == 422, "%s: %.600s", row->label, m->answer);
            if (m->status == 422) {
                expect_member(row, m);
            }
            break;
    }
}

static size_t n_rows(void) {
    size_t n = 0;
    costly_request *rows = costly_requests(&n);
    costly_requests_free(rows, n);
    return n;
}

ParameterizedTestParameters(attacks, costliest_requests_end_within_the_budget) {
    static int rows[64];
    size_t n = n_rows();
    cr_assert_leq(n, sizeof rows / sizeof rows[0]);
    for (size_t i = 0; i < n; i++) {
        rows[i] = (int)i;
    }
    return cr_make_param_array(int, rows, n);
}

ParameterizedTest(int *row_index, attacks, costliest_requests_end_within_the_budget,
                  .timeout = 120) {
    size_t n;
    costly_request *rows = costly_requests(&n);
    const costly_request *row = &rows[*row_index];
    child_server c;
    child_log *log = start_default(&c);
    /* Threads, pools and the allocator's arenas are made by the first requests: warm up. */
    for (int i = 0; i < 4; i++) {
        int fd = raw_connect(c.port);
        cr_assert_geq(fd, 0);
        cr_assert(raw_send_request(fd, "GET", "/livez", NULL, NULL, true));
        free(raw_answer_of(fd, 60.0));
    }
    measured m = measure(&c, row);
    char pointer[64];
    first_pointer(&m, pointer, sizeof pointer);
    fprintf(stderr,
            "budget attack | %-48s | %3d %-24s | CPU %6.3f s | peak +%7.1f MiB | RSS after "
            "%+6.1f MiB | answer %8zu B | %6.2f s\n",
            row->label, m.status, pointer, m.cpu_s, m.peak_mib, m.rss_mib, m.answer_bytes,
            m.wall_s);
    expect_outcome(row, &m);
    /* Under AddressSanitizer the server runs several times slower and keeps what it frees in
     * quarantine: its CPU and memory say nothing of the budget, its answers still do. */
    if (!UNDER_ASAN) {
        cr_expect_leq(m.cpu_s, WORK_BUDGET_S * CPU_SLACK, "%s: %.2f s of CPU", row->label, m.cpu_s);
        cr_expect_leq(m.peak_mib, MEMORY_BUDGET_MIB + PEAK_SLACK_MIB, "%s: peak %.1f MiB above",
                      row->label, m.peak_mib);
        cr_expect_leq(m.rss_mib, RSS_RETURN_MIB, "%s: %.1f MiB still held after the answer",
                      row->label, m.rss_mib);
    }
    cr_expect_leq(m.answer_bytes, MAX_ANSWER_BYTES, "%s: an answer of %zu bytes", row->label,
                  m.answer_bytes);
    free(m.answer);
    kill(c.pid, SIGKILL); /* a request the budget did not stop may still be computing */
    child_log_finish(log);
    (void)child_wait(&c, 10);
    child_log_free(log);
    costly_requests_free(rows, n);
}

/* The table covers every POST endpoint but those that wrap others (/mcp: a tool call costs its
 * tool's endpoint). */
Test(attacks, every_post_endpoint_has_a_row) {
    size_t n;
    costly_request *rows = costly_requests(&n);
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        size_t found = 0;
        for (size_t k = 0; k < n; k++) {
            found += strcmp(rows[k].path, ep->path) == 0;
        }
        cr_expect(found > 0 || !ep->handle || ep->envelope,
                  "%s has no row in tests/support/costly_requests.h", ep->path);
    }
    costly_requests_free(rows, n);
}
