/*
 * Slow and careless clients, over raw sockets.
 *
 * - A client that does not read its answer is cut at server.send_deadline.
 * - Memory is given back: 20 connections that leave 18 MB answers unread (more than the
 *   kernel's socket buffers take) hold all 20 answers in the process's resident memory; once
 *   they close it comes back to within 20 MB of where it started, flood after flood.
 * - Early answers arrive: a client still sending a 1 MB body can send all of it without a
 *   reset and then read its 413, 404 or 415, every time (a bounded lingering close), and a chunked
 * body past the limit is cut off after a bounded number of bytes, with a 413.
 * - Every answer says X-Content-Type-Options: nosniff; the page adds Referrer-Policy.
 * - SIGHUP does not stop the service.
 *
 * On a machine shared with other work the clock measures that work too, so what is asserted
 * does not move with it: which timer cut a connection (the others set far away), byte counts,
 * and memory against the answers' own size; a wall-clock figure only as a lower bound (load
 * only makes it larger), or measured from where the server's own clock starts with a margin
 * many times the deadline. Every wait has a generous limit that fails with a message: a safety
 * net, not the claim.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <criterion/criterion.h>

#include "http_client.h"
#include "proc_stats.h"
#include "raw_http.h"

/* How long the client waits for what the server should do promptly: a safety net. */
#define PATIENCE_S 120.0

static void send_post(int fd, const char *path, const char *content_type, const char *body) {
    cr_assert(raw_send_request(fd, "POST", path, content_type, body, true));
}

/* ---- the send deadline ---- */

/* An answer of about 28 MB (two survivor distributions of ~250,000 listed values each): far
 * more than the kernel's socket buffers hold, so most of it waits on the client. */
static const char huge_answer[] = "{\"attackers\": 1000000000, \"defenders\": 1000000000, "
                                  "\"settings\": {\"luck_modifier\": 0.5}, "
                                  "\"max_distribution_points\": 1000000}";

/* Bytes waiting to be read on fd (0 on error). */
static int unread(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 ? n : 0;
}

/*
 * send_deadline 1 s; the inactivity timeout is an hour, so the only thing that can cut the
 * connection within the client's patience is the send deadline (and the cut counter says it
 * was). Rendering the answer takes a fraction of a second idle and longer on a loaded machine,
 * so the time to the cut is asserted only from below; from above it is measured from the
 * answer's first byte at the client, where the server's clock has started already: the cut
 * comes then within the deadline and the watchdog's 200 ms tick, asserted with a margin of
 * ten deadlines for a loaded machine's delays.
 */
Test(send, a_client_that_does_not_read_is_cut_at_the_send_deadline) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.send_deadline = 1;
    cfg.server.connection_timeout = 3600; /* not MHD's inactivity timeout */
    cfg.api.limits.max_answer_bytes = UINT64_C(1) << 32;
    cfg.api.warapp.max_distribution_points = 1000000;
    cbd_server *s = test_server_start(&cfg);
    int fd = raw_connect_from(cbd_server_port(s), "127.0.0.1", 4096);
    cr_assert_geq(fd, 0);
    double t0 = raw_now();
    send_post(fd, "/analyze-attack", "application/json", huge_answer);
    double end = t0 + PATIENCE_S, first = 0;
    while (cbd_server_deadline_cuts(s) == 0 && raw_now() < end) {
        if (first == 0 && unread(fd) > 0) {
            first = raw_now();
        }
        raw_sleep(0.01);
    }
    double at = raw_now();
    first = first > 0 ? first : at;
    fprintf(stderr, "send | the answer's first byte after %.2f s, the cut %.2f s later\n",
            first - t0, at - first);
    cr_assert_eq(cbd_server_deadline_cuts(s), 1, "never cut in %.0f s", at - t0);
    cr_expect_geq(at - t0, 1.0, "cut after %.2f s, before the deadline", at - t0);
    cr_expect_lt(at - first, 10.0, "cut %.2f s after the answer's first byte", at - first);
    bool closed;
    size_t got = 0;
    free(raw_read_until_close(fd, PATIENCE_S, &closed, &got));
    cr_expect(closed);
    cr_expect_lt(got, 20u * 1024u * 1024u, "the answer was cut short (%zu bytes)", got);
    close(fd);
    cbd_server_stop(s);
}

/* ---- memory given back ---- */

static long rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) {
            break;
        }
    }
    if (f) {
        fclose(f);
    }
    return kb;
}

/* A gauge's value on /metrics (a line "name value"). */
static long long metric_value(uint16_t port, const char *metric) {
    int fd = raw_connect(port);
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_request(fd, "GET", "/metrics", NULL, NULL, true));
    char *text = raw_answer_of(fd, PATIENCE_S);
    close(fd);
    char name[128];
    snprintf(name, sizeof name, "\n%s ", metric);
    const char *at = text ? strstr(text, name) : NULL;
    cr_assert_not_null(at, "no %s in /metrics", metric);
    long long v = strtoll(at + strlen(name), NULL, 10);
    free(text);
    return v;
}

/* The bytes the server's warm memory keeps (combatd_scratch_kept_bytes on /metrics), in kB. */
static long scratch_kept_kb(uint16_t port) {
    return (long)(metric_value(port, "combatd_scratch_kept_bytes") / 1024);
}

/* 100,000 listed battles of 9-digit armies: about 18 MB, computed in milliseconds. */
static const char listing[] = "{\"attackers\": 999999999, \"defenders\": 999999998, \"trials\": "
                              "100000, \"seed\": 3, \"include_battles\": true}";

#define READERS 20

/* One flood: READERS connections ask for the listing and read nothing. An answer is rendered
 * whole into one buffer before its first byte goes out (src/http/response.c), and none of
 * these is read to its end (the kernel's buffers take a few MB of each at most), so once every
 * client has the start of its answer all READERS answers are in the server's memory at once:
 * the server counts them in flight (combatd_requests_in_flight, the /metrics request too), and
 * *held is the growth of resident memory then, printed. Then they close, and *left is the growth
 * once it is back within 20 MB, or after PATIENCE_S if it never comes back. */
static void flood(uint16_t port, long before, long *held, long *left) {
    int fds[READERS];
    for (int i = 0; i < READERS; i++) {
        fds[i] = raw_connect_from(port, "127.0.0.1", 4096);
        cr_assert_geq(fds[i], 0);
        send_post(fds[i], "/simulate", "application/json", listing);
    }
    double end = raw_now() + PATIENCE_S;
    int started = 0;
    while (started < READERS && raw_now() < end) {
        raw_sleep(0.01);
        started = 0;
        for (int i = 0; i < READERS; i++) {
            started += unread(fds[i]) > 0;
        }
    }
    cr_assert_eq(started, READERS, "%d of %d answers began in %.0f s", started, READERS,
                 PATIENCE_S);
    *held = rss_kb() - before;
    cr_assert_geq(metric_value(port, "combatd_requests_in_flight"), READERS + 1,
                  "every answer is held, unread, while its reader waits");
    for (int i = 0; i < READERS; i++) {
        close(fds[i]);
    }
    long after = rss_kb();
    end = raw_now() + PATIENCE_S;
    while (after - before - scratch_kept_kb(port) > 20 * 1024 && raw_now() < end) {
        raw_sleep(0.05);
        after = rss_kb();
    }
    *left = after - before - scratch_kept_kb(port);
}

/* glibc raises its mmap threshold after the first large free, so without a fixed one the
 * second flood's answers came from the heap and stayed (measured here: +135 MB, then
 * +390 MB that never went back). What the computations' warm memory keeps (at most
 * server.scratch_keep_bytes) is not the answers': it is left out of what must go back. */
Test(memory, resident_memory_returns_after_slow_reader_floods) {
#ifdef __SANITIZE_ADDRESS__
    /* ASan's allocator keeps freed memory in quarantine: this measures glibc's. */
    cr_skip_test("resident memory is ASan's under the sanitizers");
#endif
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.api.warapp.max_listed_battles = 100000;
    cfg.api.limits.max_answer_bytes = 32u * 1024u * 1024u;
    cfg.server.per_ip_connection_limit = 0;
    cfg.server.worker_share = READERS;
    cfg.server.worker_queue = READERS;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    int warm = raw_connect(port); /* the first answer's one-time allocations */
    send_post(warm, "/simulate", "application/json", listing);
    bool closed;
    size_t one = 0;
    free(raw_read_until_close(warm, PATIENCE_S, &closed, &one));
    close(warm);
    cr_assert_gt(one, 17000000u, "the answer is about 18 MB (%zu)", one);
    long before = rss_kb();
    for (int round = 0; round < 2; round++) {
        long held, left;
        flood(port, before, &held, &left);
        fprintf(stderr,
                "memory | round %d: +%ld kB with the answers held (%d x %zu bytes), +%ld kB "
                "after besides %ld kB of warm memory\n",
                round, held, READERS, one, left, scratch_kept_kb(port));
        cr_expect_leq(left, 20 * 1024, "round %d: +%ld kB held, +%ld kB after", round, held, left);
    }
    cbd_server_stop(s);
}

/* ---- early answers and bodies read and dropped ---- */

/* Sends the whole of a `size`-byte body after its headers (as a client that does not look at
 * the answer before it has sent everything), then reads what comes back. */
static int early_status(uint16_t port, const char *path, const char *content_type, size_t size) {
    int fd = raw_connect(port);
    cr_assert_geq(fd, 0);
    char head[512];
    snprintf(head, sizeof head,
             "POST %s HTTP/1.1\r\nHost: t\r\nContent-Type: %s\r\nContent-Length: %zu\r\n\r\n", path,
             content_type, size);
    bool sent = raw_send_str(fd, head);
    static char chunk[65536];
    memset(chunk, 'x', sizeof chunk);
    for (size_t done = 0; sent && done < size; done += sizeof chunk) {
        sent = raw_send(fd, chunk, size - done < sizeof chunk ? size - done : sizeof chunk);
    }
    bool closed;
    char *text = raw_read_until_close(fd, PATIENCE_S, &closed, NULL);
    int status = raw_status(text);
    free(text);
    close(fd);
    return sent ? status : -1; /* -1: reset while sending (curl gives up there) */
}

Test(early, a_client_still_sending_gets_its_early_answer) {
    cbd_server *s = test_server_start_default();
    uint16_t port = cbd_server_port(s);
    int got413 = 0, got404 = 0, got415 = 0;
    for (int i = 0; i < 20; i++) {
        got413 += early_status(port, "/analyze-attack", "application/json", 1000000) == 413;
        got404 += early_status(port, "/no-such-thing", "application/json", 1000000) == 404;
        got415 += early_status(port, "/simulate", "text/plain", 1000000) == 415;
    }
    cr_expect_eq(got413, 20);
    cr_expect_eq(got404, 20);
    cr_expect_eq(got415, 20);
    cbd_server_stop(s);
}

/* A chunked body has no size up front: past body_limit + 256 KiB it is answered 413 and the
 * connection is closed after at most 4 MiB more, not read for seconds. The client sends until
 * the connection ends, whatever the time, so the bytes it got in are the measure: under 16 MB
 * (the limit, the 4 MiB, and the sockets' buffers on both sides), of the 64 MB it has. */
Test(early, a_chunked_body_past_the_limit_is_cut_off) {
    cbd_server *s = test_server_start_default();
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, "POST /analyze-attack HTTP/1.1\r\nHost: t\r\nContent-Type: "
                               "application/json\r\nTransfer-Encoding: chunked\r\n\r\n"));
    static char chunk[65536 + 16];
    int n = snprintf(chunk, sizeof chunk, "%x\r\n", 65536);
    memset(chunk + n, 'x', 65536);
    memcpy(chunk + n + 65536, "\r\n", 2);
    /* A send blocked on a server that reads nothing more (and never closes) ends here. */
    struct timeval patience = {(time_t)PATIENCE_S, 0};
    cr_assert_eq(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof patience), 0);
    size_t sent = 0;
    double t0 = raw_now();
    while (sent < (64u << 20) && raw_send(fd, chunk, (size_t)n + 65536 + 2)) {
        sent += 65536;
    }
    fprintf(stderr, "early | the chunked body was cut off after %zu bytes, %.2f s\n", sent,
            raw_now() - t0);
    cr_expect_lt(sent, 16u << 20, "the server read %zu bytes of the body", sent);
    bool closed;
    char *text = raw_read_until_close(fd, PATIENCE_S, &closed, NULL);
    /* The 413 may be lost when the client keeps sending past the cap (the close resets). */
    if (text && text[0]) {
        cr_expect_eq(raw_status(text), 413, "%.300s", text);
        cr_expect_not_null(strstr(text, "\"status\":413"), "%.300s", text);
    }
    free(text);
    close(fd);
    cbd_server_stop(s);
}

/* ---- headers ---- */

Test(headers, nosniff_on_every_answer_and_referrer_policy_on_the_page) {
    cbd_server *s = test_server_start_default();
    uint16_t port = cbd_server_port(s);
    static const struct {
        const char *method, *path, *body;
    } cases[] = {
        {"GET", "/livez", NULL},
        {"GET", "/metrics", NULL},
        {"GET", "/openapi.yaml", NULL},
        {"GET", "/nowhere", NULL},
        {"POST", "/analyze-attack", "{"},
        {"POST", "/analyze-attack", "{\"attackers\": 2}"},
        {"POST", "/analyze-attack", "{\"attackers\": 2, \"defenders\": 1}"},
        {"GET", "/", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_response r;
        const char *b = cases[i].body;
        cr_assert_eq(test_request(port, cases[i].method, cases[i].path,
                                  b ? "application/json" : NULL, b, b ? strlen(b) : 0, NULL, &r),
                     0);
        char v[64];
        const char *got = test_header(&r, "X-Content-Type-Options", v, sizeof v);
        cr_expect_str_eq(got ? got : "(none)", "nosniff", "%s %s", cases[i].method, cases[i].path);
        const char *ref = test_header(&r, "Referrer-Policy", v, sizeof v);
        if (strcmp(cases[i].path, "/") == 0) {
            cr_expect_str_eq(ref ? ref : "(none)", "no-referrer");
        } else {
            cr_expect_null(ref, "%s", cases[i].path);
        }
        test_response_free(&r);
    }
    cbd_server_stop(s);
}

/* ---- SIGHUP ---- */

Test(signals, sighup_is_ignored) {
    const char *bin = getenv("COMBATD_BINARY");
    cr_assert_not_null(bin, "COMBATD_BINARY is set by CTest");
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        char *args[] = {(char *)bin, "--port", "0", "--bind", "127.0.0.1", NULL};
        char *env[] = {"PATH=/usr/bin:/bin", "COMBATD_ACCESS_LOG=false", NULL};
        execve(bin, args, env);
        _exit(127);
    }
    close(fds[1]);
    char line[4096] = {0};
    size_t used = 0;
    uint16_t port = 0;
    while (used + 1 < sizeof line && read(fds[0], line + used, 1) == 1) {
        char *p = strstr(line, "\"port\":");
        if (line[used++] == '\n' && p) {
            port = (uint16_t)atoi(p + 7);
            break;
        }
    }
    cr_assert_gt(port, 0, "the listening line names the port");
    kill(pid, SIGHUP);
    raw_sleep(0.3);
    int status;
    cr_expect_eq(waitpid(pid, &status, WNOHANG), 0, "still running after SIGHUP");
    test_response r;
    cr_expect_eq(test_request(port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    test_response_free(&r);
    kill(pid, SIGTERM);
    waitpid(pid, &status, 0);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "SIGTERM still drains and exits 0");
    close(fds[0]);
}
