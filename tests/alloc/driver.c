/*
 * Every allocation of a request, failed in turn. Runs under failshim.so
 * (LD_PRELOAD): for each endpoint of the endpoint table (src/api/endpoints.h), its sample
 * (tests/support/endpoint_samples.h; a GET resource as it is) and the cases below, it sends
 * the request once counting the allocations the server's threads make for it (C), then for
 * every N in 1..C+2 sends it again with the Nth allocation failed. A POST endpoint without a
 * sample, or a case of a path the table does not have, fails the sweep. Each answer must be the
 * correct one byte for byte (the Date header aside), or a 500 application/problem+json, or a
 * connection closed with nothing sent (when not even the 500 could be built or queued); never a
 * crash, a hang, another 4xx or another 200. The correct answers include a 422 and a 400, which
 * must stay what they are. Then the server must still answer correctly. A plain program, not
 * Criterion: the shim counts per process and Criterion forks.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endpoint_samples.h"
#include "raw_http.h"
#include "config/config.h"
#include "http/server.h"

static void (*shim_arm)(long);
static long (*shim_disarm)(void);
static long (*shim_failures)(void);

/* POSIX lets dlsym's object pointer hold a function; ISO C needs the copy to say so. */
#define LOOKUP(fn, name)                                                                           \
    do {                                                                                           \
        void *p_ = dlsym(RTLD_DEFAULT, name);                                                      \
        memcpy(&(fn), &p_, sizeof(fn));                                                            \
    } while (0)

static bool find_shim(void) {
    void (*exclude)(void);
    LOOKUP(exclude, "failshim_exclude_this_thread");
    LOOKUP(shim_arm, "failshim_arm");
    LOOKUP(shim_disarm, "failshim_disarm");
    LOOKUP(shim_failures, "failshim_failures");
    if (!exclude || !shim_arm || !shim_disarm || !shim_failures) {
        return false;
    }
    exclude(); /* the client side (this thread) is not under test */
    return true;
}

typedef struct {
    const char *name;
    const char *path;
    const char *body; /* NULL: a GET */
    bool metrics;     /* the body's numbers change from one request to the next */
    int status;       /* of the correct answer */
} endpoint_case;

/* Beside each endpoint's sample: refusals, fog, units, a worker, the envelope's own paths. The
 * seeds have 16 digits, so that a lexer that drops a digit renders a different number. */
static const endpoint_case cases[] = {
    /* A refusal must stay that refusal: a failure may make it a 500, never another 4xx. */
    {"/analyze-attack 422", "/analyze-attack",
     "{\"attackers\": 10, \"defenders\": 5, \"settings\": {\"rounding_mode\": \"up\"}}", false,
     422},
    {"/analyze-attack with units and fog", "/analyze-attack",
     "{\"attackers\": 6, \"defenders\": [{\"armies\": 3, \"probability\": 0.5},"
     " {\"armies\": 5, \"probability\": 0.5}], \"settings\": {\"luck_modifier\": 0.5},"
     " \"attacking_units\": [{\"type\": \"commander\", \"id\": \"mine\"}],"
     " \"defending_units\": [{\"type\": \"custom\", \"name\": \"Medic\","
     " \"attack_power\": 1, \"defense_power\": 1, \"combat_order\": 5, \"health\": 4}]}",
     false, 200},
    {"/analyze-attack 400", "/analyze-attack", "{\"attackers\": 10, \"defenders\": 5,", false, 400},
    {"/simulate with units and fog", "/simulate",
     "{\"attackers\": 6, \"defenders\": [{\"armies\": 3, \"probability\": 0.5},"
     " {\"armies\": 5, \"probability\": 0.5}], \"trials\": 30, \"seed\": 1000000000000001,"
     " \"attacking_units\": [{\"type\": \"commander\", \"id\": \"mine\"}],"
     " \"defending_units\": [{\"type\": \"commander\"}]}",
     false, 200},
    {"/simulate on a worker", "/simulate",
     "{\"attackers\": 2, \"defenders\": 1, \"trials\": 65537, \"seed\": 7}", false, 200},
    /* Fog (W23): the distributions are read into blocks of their own. */
    {"/analyze-turn fog", "/analyze-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 11}, \"B\": {\"owner\":"
     " \"bob\", \"armies\": [{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 10,"
     " \"probability\": 0.5}]}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\","
     " \"to\": \"B\", \"armies\": 10}], \"settings\": {\"luck_modifier\": 0.5}}",
     false, 200},
    {"/simulate-turn fog", "/simulate-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 11}, \"B\": {\"owner\":"
     " \"bob\", \"armies\": [{\"armies\": 5, \"probability\": 0.5}, {\"armies\": 10,"
     " \"probability\": 0.5}]}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\","
     " \"to\": \"B\", \"armies\": 10}], \"trials\": 20, \"seed\": 3}",
     false, 200},
    /* Units (W21, W22): the units' results, the players' eliminations, the units each listed
     * order sent and lost are blocks of their own. */
    {"/analyze-turn units", "/analyze-turn",
     "{\"territories\": {\"home\": {\"owner\": \"alice\", \"armies\": 17}, \"keep\":"
     " {\"owner\": \"bob\", \"armies\": 3, \"units\": [{\"id\": \"bob-cmdr\", \"type\":"
     " \"commander\"}]}, \"farm\": {\"owner\": \"bob\", \"armies\": 5}}, \"orders\":"
     " [{\"player\": \"alice\", \"from\": \"home\", \"to\": \"keep\", \"armies\": 16},"
     " {\"player\": \"bob\", \"from\": \"farm\", \"to\": \"home\", \"armies\": 4}],"
     " \"settings\": {\"luck_modifier\": 0.16}}",
     false, 200},
    {"/simulate-turn units listed", "/simulate-turn",
     "{\"territories\": {\"home\": {\"owner\": \"alice\", \"armies\": 17, \"units\":"
     " [{\"id\": \"alice-cmdr\", \"type\": \"commander\"}]}, \"keep\": {\"owner\":"
     " \"bob\", \"armies\": 3, \"units\": [{\"id\": \"bob-cmdr\", \"type\":"
     " \"commander\"}]}}, \"orders\": [{\"player\": \"alice\", \"from\": \"home\","
     " \"to\": \"keep\", \"armies\": 16, \"units\": [\"alice-cmdr\"]}], \"settings\":"
     " {\"luck_modifier\": 0.16}, \"trials\": 5, \"seed\": 11, \"include_turns\": true}",
     false, 200},
    /* Cards (W24–W30): diplomacy's pairs are a block of their own, and every card runs its
     * exact and sampled steps. */
    {"/analyze-turn cards", "/analyze-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10, \"neighbors\":"
     " [\"B\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 6, \"neighbors\": [\"C\"]},"
     " \"C\": {\"owner\": \"carol\", \"armies\": 4}}, \"orders\": [{\"player\":"
     " \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 9}, {\"type\": \"bomb\","
     " \"player\": \"alice\", \"target\": \"B\"}, {\"type\": \"gift\", \"player\":"
     " \"carol\", \"target\": \"C\", \"to_player\": \"bob\"}, {\"type\":"
     " \"order_priority\", \"player\": \"bob\"}, {\"type\": \"blockade\", \"player\":"
     " \"bob\", \"target\": \"C\"}], \"diplomacy\": [[\"alice\", \"carol\"]],"
     " \"settings\": {\"luck_modifier\": 0.16}, \"move_order\": \"random\"}",
     false, 200},
    {"/simulate-turn cards listed", "/simulate-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10}, \"B\":"
     " {\"owner\": \"bob\", \"armies\": 7}, \"C\": {\"owner\": \"alice\", \"armies\": 2}},"
     " \"orders\": [{\"type\": \"airlift\", \"player\": \"alice\", \"from\": \"A\","
     " \"to\": \"C\", \"armies\": 6}, {\"player\": \"alice\", \"from\": \"C\", \"to\":"
     " \"B\", \"armies\": 7}, {\"type\": \"emergency_blockade\", \"player\": \"bob\","
     " \"target\": \"B\"}, {\"type\": \"order_delay\", \"player\": \"alice\"}],"
     " \"diplomacy\": [[\"alice\", \"bob\"]], \"trials\": 5, \"seed\": 11,"
     " \"include_turns\": true}",
     false, 200},
    {"/duper/board/battle 422", "/duper/board/battle",
     "{\"board\": {\"tiles\": {\"a1\": {\"owner\": \"red\"}}, \"adjacent\": [[\"a1\","
     " \"zz\"]]}, \"attacks\": []}",
     false, 422},
    /* A tool call, a tool error and a body that is not JSON-RPC: the envelope around the
     * endpoint's answer must be whole or a 500 too. */
    {"/mcp tools/call", "/mcp",
     "{\"jsonrpc\": \"2.0\", \"id\": 1000000000000001, \"method\": \"tools/call\","
     " \"params\": {\"name\": \"analyze_attack\", \"arguments\": {\"attackers\": 10,"
     " \"defenders\": 5, \"source_armies\": 11, \"settings\": {\"luck_modifier\": 0.5}}}}",
     false, 200},
    {"/mcp tool error", "/mcp",
     "{\"jsonrpc\": \"2.0\", \"id\": \"x1000000000000001\", \"method\": \"tools/call\","
     " \"params\": {\"name\": \"analyze_attack\", \"arguments\": {\"attackers\": 10,"
     " \"defenders\": 5, \"settings\": {\"rounding_mode\": \"up\"}}}}",
     false, 200},
    {"/mcp 400", "/mcp", "{\"jsonrpc\": \"2.0\", \"method\": 1}", false, 400},
};

/* The request on the wire; Connection: close, so that reading to EOF reads one answer. */
static char *request_of(const endpoint_case *c) {
    static const char fmt[] = "%s %s HTTP/1.1\r\nHost: alloc\r\nX-Request-Id: alloc-test\r\n"
                              "Connection: close\r\n%s\r\n%s";
    char length[96] = "";
    if (c->body) {
        snprintf(length, sizeof length, "Content-Type: application/json\r\nContent-Length: %zu\r\n",
                 strlen(c->body));
    }
    const char *method = c->body ? "POST" : "GET";
    const char *body = c->body ? c->body : "";
    int n = snprintf(NULL, 0, fmt, method, c->path, length, body);
    char *out = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (out) {
        snprintf(out, (size_t)n + 1, fmt, method, c->path, length, body);
    }
    return out;
}

typedef struct {
    char *text; /* the whole answer, NUL-terminated */
    size_t len;
    bool closed;
    long allocations; /* counted while armed */
    long failed;      /* allocations failed (0 or 1) */
} answer;

static void pause_ms(double ms) {
    raw_sleep(ms / 1000.0);
}

static answer ask(uint16_t port, const char *request, long fail_at) {
    answer a = {NULL, 0, false, 0, 0};
    shim_arm(fail_at);
    int fd = raw_connect(port);
    if (fd >= 0) {
        (void)raw_send_str(fd, request);
        a.text = raw_read_until_close(fd, 5.0, &a.closed, &a.len);
        close(fd);
    }
    /* The server frees the connection after its last byte: let that finish inside the count,
     * so that the next request starts from the same state (libmicrohttpd's per-IP tree). */
    pause_ms(3);
    a.allocations = shim_disarm();
    a.failed = shim_failures();
    return a;
}

/* Drops the Date header line (its value is the clock). */
static char *without_date(const char *text) {
    char *copy = strdup(text ? text : "");
    char *date = copy ? strstr(copy, "\r\nDate: ") : NULL;
    if (date) {
        char *end = strstr(date + 2, "\r\n");
        if (end) {
            memmove(date, end, strlen(end) + 1);
        }
    }
    return copy;
}

/* For /metrics: every number masked and the per-status counter rows dropped (a failed
 * request adds a 500 row), so what remains is the shape of the exposition. */
static char *metrics_shape(const char *text) {
    const char *body = text ? strstr(text, "\r\n\r\n") : NULL;
    char *out = malloc(body ? strlen(body) + 1 : 1);
    size_t n = 0;
    if (!out) {
        return NULL;
    }
    for (const char *line = body ? body + 4 : ""; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, "combatd_requests_total{", 23) != 0) {
            for (size_t i = 0; i < len; i++) {
                bool digit = (line[i] >= '0' && line[i] <= '9') || line[i] == '.';
                if (!digit || n == 0 || out[n - 1] != '#') {
                    out[n++] = digit ? '#' : line[i];
                }
            }
        }
        line += len;
    }
    out[n] = '\0';
    return out;
}

/* Why `got` is not acceptable against the correct answer `want`, or NULL when it is. */
static const char *judge(const endpoint_case *c, const answer *want, const answer *got) {
    if (!got->closed) {
        return "no answer and no close within 5 s";
    }
    if (got->len == 0) {
        return NULL; /* nothing could be sent: the connection was closed */
    }
    int status = raw_status(got->text);
    if (status == 500) {
        bool problem = strstr(got->text, "Content-Type: application/problem+json\r\n") != NULL &&
                       strstr(got->text, "\"status\":500") != NULL;
        return problem ? NULL : "a 500 that is not a problem+json";
    }
    if (status != c->status) {
        return "neither the correct answer nor a 500";
    }
    bool same;
    if (c->metrics) {
        char *a = metrics_shape(want->text), *b = metrics_shape(got->text);
        same = a && b && strcmp(a, b) == 0 &&
               strstr(got->text, "Content-Type: text/plain; version=0.0.4") != NULL;
        free(a);
        free(b);
    } else {
        char *a = without_date(want->text), *b = without_date(got->text);
        same = a && b && strcmp(a, b) == 0;
        free(a);
        free(b);
    }
    return same ? NULL : "a 200 different from the correct answer";
}

typedef struct {
    long correct, errors, closed;
} tally;

static bool verbose; /* ALLOC_SWEEP_VERBOSE=1: each closed connection, and libmicrohttpd's log */

/* Returns the number of unacceptable answers. */
static int sweep(uint16_t port, const endpoint_case *c, const char *request) {
    /* A first request makes the one-time allocations (thread-local buffers, lazy tables);
     * the sweep is over the allocations every request makes. */
    answer warm = ask(port, request, 0);
    free(warm.text);
    answer want = ask(port, request, 0);
    answer again = ask(port, request, 0);
    if (raw_status(want.text) != c->status) {
        printf("FAIL %s: the request itself is not answered %d:\n%s\n", c->name, c->status,
               want.text);
        return 1;
    }
    long count = want.allocations > again.allocations ? want.allocations : again.allocations;
    if (want.allocations != again.allocations) {
        printf("note %s: %ld then %ld allocations for the same request\n", c->name,
               want.allocations, again.allocations);
    }
    free(again.text);
    int bad = 0;
    tally t = {0, 0, 0};
    for (long n = 1; n <= count + 2; n++) {
        answer got = ask(port, request, n);
        const char *why = judge(c, &want, &got);
        if (why) {
            bad++;
            printf("FAIL %s, allocation %ld of %ld failed (%ld failed): %s\n%.600s\n\n", c->name, n,
                   count, got.failed, why, got.text ? got.text : "");
        } else if (got.len == 0) {
            t.closed++;
            if (verbose) {
                printf("  %s: allocation %ld failed: connection closed\n", c->name, n);
            }
        } else if (raw_status(got.text) == 500) {
            t.errors++;
        } else {
            t.correct++;
        }
        free(got.text);
    }
    /* Whatever failed, the server still answers the next request correctly. */
    answer after = ask(port, request, 0);
    const char *why = judge(c, &want, &after);
    if (why || after.len == 0) {
        bad++;
        printf("FAIL %s: after the sweep: %s\n%.600s\n", c->name, why ? why : "closed", after.text);
    }
    printf("%-22s %4ld allocations: %4ld correct, %4ld 500, %4ld closed, %d wrong\n", c->name,
           count, t.correct, t.errors, t.closed, bad);
    free(after.text);
    free(want.text);
    return bad;
}

static int sweep_case(uint16_t port, const endpoint_case *c) {
    char *request = request_of(c);
    int bad = request ? sweep(port, c, request) : 1;
    free(request);
    return bad;
}

/* An endpoint's sample, or the GET of a resource, then its cases. */
static int sweep_endpoint(uint16_t port, const endpoint_row *row) {
    const char *body = endpoint_is_post(row) ? endpoint_sample_of(row->path) : NULL;
    if (endpoint_is_post(row) && !body) {
        printf("FAIL POST %s has no sample in tests/support/endpoint_samples.h\n", row->path);
        return 1;
    }
    /* /metrics's numbers change from one request to the next: its shape is compared. */
    endpoint_case sample = {row->path, row->path, body, strcmp(row->path, "/metrics") == 0, 200};
    int bad = sweep_case(port, &sample);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].path, row->path) == 0) {
            bad += sweep_case(port, &cases[i]);
        }
    }
    return bad;
}

/* The cases of a path that is not an endpoint (so they would not be swept). */
static size_t cases_outside_the_table(void) {
    size_t bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool found = false;
        for (size_t k = 0; k < ENDPOINT_ROWS; k++) {
            found |= strcmp(cases[i].path, endpoint_rows[k].path) == 0;
        }
        if (!found) {
            printf("FAIL case %s: %s is not an endpoint of the table\n", cases[i].name,
                   cases[i].path);
            bad++;
        }
    }
    return bad;
}

int main(void) {
    if (!find_shim()) {
        fprintf(stderr, "run under LD_PRELOAD=failshim.so (tests/alloc/failshim.c)\n");
        return 2;
    }
    verbose = getenv("ALLOC_SWEEP_VERBOSE") != NULL;
    if (!verbose) {
        /* libmicrohttpd logs each failed allocation to stderr: thousands of lines. */
        (void)freopen("/dev/null", "w", stderr);
    }
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.port = 0;
    snprintf(cfg.server.bind, sizeof cfg.server.bind, "127.0.0.1");
    cfg.server.access_log = false;
    cfg.server.threads = 1; /* one HTTP thread: one order of allocations */
    char err[256];
    cbd_server *s = cbd_server_start(&cfg.server, &cfg.api, err, sizeof err);
    if (!s) {
        fprintf(stderr, "server failed to start: %s\n", err);
        return 2;
    }
    int bad = 0;
    for (size_t i = 0; i < ENDPOINT_ROWS; i++) {
        bad += sweep_endpoint(cbd_server_port(s), &endpoint_rows[i]);
    }
    bad += (int)cases_outside_the_table();
    cbd_server_stop(s);
    printf("%s: %d wrong answers\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
