/*
 * The request budget as an attacker meets it: for each POST endpoint the most expensive legal
 * request we could construct, and the ones the budget's issue reported (one table,
 * tests/support/costly_requests.h), each sent to a server of its own with the built-in
 * defaults (but for the answer deadline, a minute), measured from its access-log line (the
 * work units it was charged, the bytes it held at once and the minor page faults of the
 * threads that computed it) and from outside through /proc:
 *
 * - faults: at most 1.5 a page of its peak and of its answer, plus FAULT_SLACK_PAGES: no step
 *   maps and unmaps its buffers over and over (the warm memory, scratch.h). A count of the
 *   kernel's, the same on every machine;
 * - CPU: utime + stime of the server across the request at most the work budget
 *   (server.work_budget_ms, 2 s) and half as much again, and at most twice the units it was
 *   charged and 50 ms (parsing, the inline attempt and writing the answer), both scaled by
 *   this machine's speed: a reference workload run at the start (binomial windows and a first
 *   touch of fresh pages, as the budget charges them) gives the CPU nanoseconds a unit costs
 *   here, taken as 1 when it is less. A charge that is wrong fails here on any machine; a
 *   slow core or a slow first touch of memory does not;
 * - memory: the peak resident set (VmHWM, reset before the request) at most the memory budget
 *   (server.memory_budget, 128 MiB) and 32 MiB above the level before it (the answer being
 *   written, up to server.max_answer_bytes, and the request's document); the resident set
 *   back within 8 MiB of that level once the answer is out, besides what the warm memory
 *   keeps (server.scratch_keep_bytes, 128 MiB, at most);
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
#include <sys/mman.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "api/api.h"
#include "combatd/binomial.h"
#include "combatd/budget.h"
#include "http/scratch_pool.h"
#include "child_server.h"
#include "costly_requests.h"
#include "proc_stats.h"
#include "raw_http.h"

#define WORK_BUDGET_S     2.0
#define CPU_SLACK         1.5
#define MEMORY_BUDGET_MIB 128.0
#define PEAK_SLACK_MIB    32.0
#define RSS_RETURN_MIB    8.0
#define SCRATCH_KEEP_MIB  128.0
#define MAX_ANSWER_BYTES  8388608u
#define FAULT_SLACK_PAGES 2048 /* the body's document, the answer writer's growth, stacks */
/* The documented charge of a fresh page (docs/security.md), written here rather than read
 * from budget.h, so that the header's figure cannot lower what the test asks. */
#define FRESH_PAGE_UNITS 10000ULL
#define UNIT_CPU_SLACK   2.0  /* CPU at most twice the units charged ... */
#define UNCHARGED_S      0.05 /* ... and what is not the endpoint's: parse, inline try, write */

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
    char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_ACCESS_LOG=true", "COMBATD_ANSWER_DEADLINE=60",
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
    /* From its access-log line. */
    unsigned long long work_units, mem_peak, faults;
} measured;

/* The unsigned number after `"key":` in a log line, or 0. */
static unsigned long long log_field(const char *line, const char *key) {
    char needle[64];
    snprintf(needle, sizeof needle, "\"%s\":", key);
    const char *at = line ? strstr(line, needle) : NULL;
    return at ? strtoull(at + strlen(needle), NULL, 10) : 0;
}

/* Reads the request's cost from its access-log line (the line of `path` that has them). */
static void read_cost(child_log *log, const costly_request *row, measured *m) {
    char needle[160];
    snprintf(needle, sizeof needle, "\"path\":\"%s\",\"status\"", row->path);
    cr_assert_eq(child_log_wait(log, needle, 1, 30.0), 1, "%s: no access-log line", row->label);
    char *line = child_log_line_with(log, needle);
    cr_assert_not_null(strstr(line, "\"faults\":"), "%s: %s", row->label, line);
    m->work_units = log_field(line, "work_units");
    m->mem_peak = log_field(line, "mem_peak");
    m->faults = log_field(line, "faults");
    free(line);
}

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * The CPU nanoseconds a work unit costs on this machine, at least 1: binomial windows of 10^9
 * trials (CBD_WORK_BINOM_TERM a term), each from a scratch of its own under the server's malloc
 * policy, so that their pages are new each time (CBD_WORK_FRESH_PAGE a page), then 64 MiB of
 * fresh pages touched once. The budget's units are about a nanosecond of the reference
 * machine's core for both; a machine whose core is slower, or whose first touch of a page costs
 * more than the budget charges, gets a larger factor.
 */
static double machine_scale(void) {
    cbdp_malloc_policy_apply();
    cbd_budget b;
    cbd_budget_init(&b, UINT64_MAX, SIZE_MAX);
    double t0 = cpu_ns();
    for (int i = 0; i < 20; i++) {
        cbd_scratch s;
        cbd_scratch_init(&s, SIZE_MAX);
        cbd_budget_set_scratch(&b, &s);
        cbd_binom_window w;
        cr_assert_eq(cbd_binom_window_compute(1000000000u + (uint64_t)i, 600000, &b, &w), CBD_OK);
        cbd_binom_window_free(&w);
        cbd_scratch_release(&s);
    }
    size_t bytes = (size_t)64 << 20;
    char *fresh = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(fresh, MAP_FAILED);
    for (size_t i = 0; i < bytes; i += 4096) {
        fresh[i] = 1;
    }
    munmap(fresh, bytes);
    double ns = cpu_ns() - t0;
    double units = (double)b.work_spent + (double)(bytes / 4096) * CBD_WORK_FRESH_PAGE;
    fprintf(stderr, "budget attack | this machine: %.3f CPU ns a unit (%.0f ns for %.0f units)\n",
            ns / units, ns, units);
    return ns / units > 1.0 ? ns / units : 1.0;
}

static double mib(long long kib) {
    return (double)kib / 1024.0;
}

/* One request on a connection of its own, measured from /proc around it. */
static measured measure(const child_server *c, child_log *log, const costly_request *row) {
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
    } while ((UNDER_ASAN || m.rss_mib > RSS_RETURN_MIB + SCRATCH_KEEP_MIB) && raw_now() < end);
    read_cost(log, row, &m);
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
    double scale = UNDER_ASAN ? 1.0 : machine_scale();
    measured m = measure(&c, log, row);
    char pointer[64];
    first_pointer(&m, pointer, sizeof pointer);
    unsigned long long pages = (m.mem_peak + m.answer_bytes + 4095) / 4096;
    fprintf(stderr,
            "budget attack | %-48s | %3d %-24s | CPU %6.3f s | units %11llu | faults %7llu of "
            "%6llu pages | peak +%7.1f MiB | RSS after %+6.1f MiB | answer %8zu B | %6.2f s\n",
            row->label, m.status, pointer, m.cpu_s, m.work_units, m.faults, pages, m.peak_mib,
            m.rss_mib, m.answer_bytes, m.wall_s);
    expect_outcome(row, &m);
    /* Under AddressSanitizer the server runs several times slower and keeps what it frees in
     * quarantine: its CPU, memory and faults say nothing of the budget, its answers still do. */
    if (!UNDER_ASAN) {
        cr_expect_leq(m.faults, pages * 3 / 2 + FAULT_SLACK_PAGES,
                      "%s: %llu faults for a peak and answer of %llu pages", row->label, m.faults,
                      pages);
        /* Faults past the answer's pages and the slack are the computation's fresh pages:
         * each was charged FRESH_PAGE_UNITS (half of it, for the small blocks below the
         * 4 MiB the budget lets go uncharged). A count on both sides, so a missing charge
         * fails here on every machine, however cheap its first touch. */
        unsigned long long answer_pages = (m.answer_bytes + 4095) / 4096;
        unsigned long long fresh = m.faults > answer_pages + FAULT_SLACK_PAGES
                                       ? m.faults - answer_pages - FAULT_SLACK_PAGES
                                       : 0;
        cr_expect_geq(m.work_units, fresh * (FRESH_PAGE_UNITS / 2),
                      "%s: %llu units for %llu fresh pages: a charge is missing", row->label,
                      m.work_units, fresh);
        cr_expect_leq(m.cpu_s, WORK_BUDGET_S * CPU_SLACK * scale, "%s: %.2f s of CPU", row->label,
                      m.cpu_s);
        cr_expect_leq(m.cpu_s, (UNIT_CPU_SLACK * (double)m.work_units * 1e-9 + UNCHARGED_S) * scale,
                      "%s: %.3f s of CPU for %llu units: a charge is missing", row->label, m.cpu_s,
                      m.work_units);
        cr_expect_leq(m.peak_mib, MEMORY_BUDGET_MIB + PEAK_SLACK_MIB, "%s: peak %.1f MiB above",
                      row->label, m.peak_mib);
        cr_expect_leq(m.rss_mib, RSS_RETURN_MIB + SCRATCH_KEEP_MIB,
                      "%s: %.1f MiB still held after the answer", row->label, m.rss_mib);
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

/* The `n`th (from 0) access-log line of `path` that has its cost, or NULL. */
static char *nth_cost_line(child_log *log, const char *path, size_t n) {
    char needle[160];
    snprintf(needle, sizeof needle, "\"path\":\"%s\",\"status\"", path);
    cr_assert_eq(child_log_wait(log, needle, n + 1, 30.0), n + 1, "no access-log line %zu", n);
    char *text = child_log_text(log);
    const char *at = text;
    for (size_t i = 0; at && (at = strstr(at, needle)) != NULL && i < n; i++) {
        at += strlen(needle);
    }
    char *line = NULL;
    if (at) {
        const char *end = strchr(at, '\n');
        line = strndup(at, end ? (size_t)(end - at) : strlen(at));
    }
    free(text);
    return line;
}

/*
 * The warm memory across requests (server.scratch_keep_bytes, 128 MiB by default): the fog row
 * sent twice to one server faults at most a fifth as much the second time, its scratch served
 * from what the first left warm; and the resident set after both is within the keep size of
 * what it was before the first (plus RSS_RETURN_MIB for the allocator's own).
 */
Test(warm, the_same_fog_request_twice_faults_a_fifth_the_second_time, .timeout = 120) {
    if (UNDER_ASAN) {
        cr_skip_test("the quarantine holds what is freed: faults and RSS say nothing here");
    }
    child_server c;
    child_log *log = start_default(&c);
    char *body = costly_fog_far_attack(500);
    long long rss_idle = proc_status_kib(c.pid, "VmRSS");
    unsigned long long faults[2], peak[2];
    int status[2];
    for (size_t k = 0; k < 2; k++) {
        int fd = raw_connect(c.port);
        cr_assert_geq(fd, 0);
        cr_assert(raw_send_request(fd, "POST", "/analyze-attack", "application/json", body, true));
        char *answer = raw_answer_of(fd, 100.0);
        /* Refused for its memory or answered: the same work is done either way. */
        status[k] = raw_status(answer);
        cr_assert(status[k] == 200 || status[k] == 422, "%.400s", answer);
        free(answer);
        char *line = nth_cost_line(log, "/analyze-attack", k);
        cr_assert_not_null(line);
        faults[k] = log_field(line, "faults");
        peak[k] = log_field(line, "mem_peak");
        free(line);
    }
    raw_sleep(0.3); /* the job's memory goes back a moment after its answer */
    double rss_after = mib(proc_status_kib(c.pid, "VmRSS") - rss_idle);
    fprintf(stderr,
            "warm | fog of 500 twice | peak %llu B | faults %llu then %llu | RSS %+.1f MiB\n",
            peak[0], faults[0], faults[1], rss_after);
    cr_expect_eq(status[0], status[1]);
    cr_expect_gt(peak[0], 64u << 20, "the row no longer needs scratch memory: %llu B", peak[0]);
    cr_expect_leq(faults[1] * 5, faults[0], "%llu faults the second time, %llu the first",
                  faults[1], faults[0]);
    cr_expect_leq(rss_after, SCRATCH_KEEP_MIB + RSS_RETURN_MIB, "%.1f MiB held after", rss_after);
    free(body);
    kill(c.pid, SIGKILL);
    child_log_finish(log);
    (void)child_wait(&c, 10);
    child_log_free(log);
}
