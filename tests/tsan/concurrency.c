/*
 * ThreadSanitizer concurrency test: one shared in-process server (4 HTTP
 * threads, access log on), 16 client threads each sending 400 keep-alive requests across every
 * route (valid, malformed and schema-breaking bodies, GET routes, /metrics while it is being
 * updated), then a drain and a stop. Criterion forks and does not run under TSan, so this is a
 * plain program: it exits 0 when every answer had the expected status class and TSan (built
 * with -fsanitize=thread, halt_on_error) reported nothing. tests/tsan/run.sh builds and runs it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config/config.h"
#include "raw_http.h"
#include "http/server.h"

#define CLIENTS  16
#define REQUESTS 400

typedef struct {
    const char *method, *path, *body;
    int lo, hi; /* accepted status range */
} req;

static const req mix[] = {
    {"POST", "/analyze-attack", "{\"attackers\":10,\"defenders\":6}", 200, 299},
    {"POST", "/simulate", "{\"attackers\":10,\"defenders\":6,\"trials\":50,\"seed\":1}", 200, 299},
    {"POST", "/duper/battle", "{\"seed\":7}", 200, 499},
    {"GET", "/livez", NULL, 200, 200},
    {"GET", "/metrics", NULL, 200, 200},
    {"POST", "/analyze-attack", "{", 400, 400},
    {"POST", "/simulate", "{\"attackers\":1e999}", 400, 400},
    {"POST", "/analyze-attack", "[]", 422, 422},
    {"POST", "/duper/battle", "{\"a\":1,\"a\":2}", 400, 400},
    {"GET", "/readyz", NULL, 200, 200},
    {"POST", "/nowhere", "{}", 404, 404},
};
#define N_MIX (sizeof mix / sizeof mix[0])

static uint16_t port;
static atomic_int failures;
static atomic_long answered;
static atomic_int not_implemented; /* 501s: every endpoint exists, so any is a failure */

/* Reads one response on a keep-alive connection; returns its status or 0. */
static int read_response(int fd, char *buf, size_t size) {
    size_t len = 0;
    char *end = NULL;
    while (!(end = strstr(buf, "\r\n\r\n"))) {
        if (len + 1 >= size) {
            return 0;
        }
        ssize_t n = recv(fd, buf + len, size - len - 1, 0);
        if (n <= 0) {
            return 0;
        }
        len += (size_t)n;
        buf[len] = '\0';
    }
    size_t header = (size_t)(end - buf) + 4;
    const char *cl = strcasestr(buf, "\r\nContent-Length:");
    size_t body = cl ? strtoul(cl + 17, NULL, 10) : 0;
    while (len < header + body) {
        if (len + 1 >= size) {
            return 0;
        }
        ssize_t n = recv(fd, buf + len, size - len - 1, 0);
        if (n <= 0) {
            return 0;
        }
        len += (size_t)n;
    }
    buf[len] = '\0';
    if (len != header + body) {
        return 0; /* no pipelining here: exactly one response */
    }
    return raw_status(buf);
}

static void *client(void *arg) {
    unsigned id = (unsigned)(uintptr_t)arg;
    char *buf = malloc(1 << 20);
    int fd = -1;
    for (unsigned i = 0; buf && i < REQUESTS; i++) {
        const req *r = &mix[(id + i) % N_MIX];
        if (fd < 0 && (fd = raw_connect(port)) < 0) {
            atomic_fetch_add(&failures, 1);
            break;
        }
        buf[0] = '\0';
        int status = 0;
        if (raw_send_request(fd, r->method, r->path, r->body ? "application/json" : NULL, r->body,
                             false)) {
            status = read_response(fd, buf, 1 << 20);
        }
        if (status == 501) {
            atomic_fetch_add(&not_implemented, 1); /* counted, and a failure: all endpoints exist */
        }
        if (status < r->lo || status > r->hi) {
            fprintf(stderr, "client %u: %s %s: status %d\n", id, r->method, r->path, status);
            atomic_fetch_add(&failures, 1);
        }
        atomic_fetch_add(&answered, 1);
        /* Every 50 requests a new connection, so connections open and close concurrently. */
        if (status == 0 || i % 50 == 49 || strstr(buf, "Connection: close")) {
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    free(buf);
    return NULL;
}

int main(void) {
    json_object_seed(0);
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.port = 0;
    snprintf(cfg.server.bind, sizeof cfg.server.bind, "127.0.0.1");
    cfg.server.threads = 4;
    cfg.server.access_log = true; /* concurrent writers of the log too */
    char err[256];
    cbd_server *s = cbd_server_start(&cfg.server, &cfg.api, err, sizeof err);
    if (!s) {
        fprintf(stderr, "tsan: server failed: %s\n", err);
        return 1;
    }
    port = cbd_server_port(s);
    pthread_t threads[CLIENTS];
    for (unsigned i = 0; i < CLIENTS; i++) {
        pthread_create(&threads[i], NULL, client, (void *)(uintptr_t)i);
    }
    for (unsigned i = 0; i < CLIENTS; i++) {
        pthread_join(threads[i], NULL);
    }
    uint64_t cuts = cbd_server_deadline_cuts(s);
    bool drained = cbd_server_drain(s);
    cbd_server_stop(s);
    int failed = atomic_load(&failures);
    printf("tsan: %ld requests from %d threads on 4 server threads: %d unexpected, %d answered "
           "501, %llu deadline cuts, drained %s\n",
           atomic_load(&answered), CLIENTS, failed, atomic_load(&not_implemented),
           (unsigned long long)cuts, drained ? "yes" : "no");
    return failed == 0 && cuts == 0 && drained ? 0 : 1;
}
