/*
 * What MCP's envelope costs: a tools/call of analyze_attack beside POST /analyze-attack with
 * the same body (bench/wrk/bodies/analyze_small.json), so that the goal "a tool call costs at
 * most the endpoint's time plus the JSON-RPC envelope" can be read off. Prints, for each:
 *   api     microseconds per request through the api layer alone (cbd_api_run: parse,
 *           validate, compute, render), and the answer's size;
 *   http    the latency over one keep-alive loopback connection (median, p90, p99), with the
 *           loopback floor for an answer of each size beside it (http_latency.h).
 * The difference of the two rows is the envelope: a second, larger parse (the JSON-RPC
 * message around the arguments), the answer written twice (structured, and escaped as text)
 * and the bytes that adds on the wire.
 *
 *   build/bench/bench_mcp [requests]   (default 200000 api, a tenth of it over HTTP)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/api_config.h"
#include "http_latency.h"

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static char *read_body(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/bench/wrk/bodies/%s", COMBATD_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    static char text[64 * 1024];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) {
        len--;
    }
    text[len] = '\0';
    return text;
}

/* Microseconds per request through the api layer; *bytes the answer's size. */
static double api_us(const cbd_config *cfg, const char *path, const char *body, long n,
                     size_t *bytes) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    size_t len = strlen(body);
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        cbd_api_reply reply;
        cbd_api_run(ep, cfg, body, len, &reply);
        if (reply.status != 200 ||
            (ep->envelope && strstr(reply.body, "\"isError\":false") == NULL)) {
            fprintf(stderr, "%s: status %d: %.300s\n", path, reply.status, reply.body);
            exit(1);
        }
        *bytes = reply.body_len;
        cbd_api_reply_free(&reply);
    }
    return (now_ns() - t0) / (double)n / 1000.0;
}

static void row(const char *what, const char *path, const char *body, const cbd_config *cfg,
                long n) {
    size_t bytes = 0;
    double api = api_us(cfg, path, body, n, &bytes);
    long http_n = n / 10 > 0 ? n / 10 : 1;
    http_latency l = http_latency_measure(path, body, http_n);
    http_latency f = http_latency_floor(body, bytes, http_n);
    printf("%-28s %7zu %8.2f %10.1f %8.1f %8.1f %10.1f\n", what, bytes, api, l.median_us, l.p90_us,
           l.p99_us, f.median_us);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (n <= 0) {
        fprintf(stderr, "usage: %s [requests]\n", argv[0]);
        return 2;
    }
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const char *body = read_body("analyze_small.json");
    char call[70 * 1024];
    snprintf(call, sizeof call,
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
             "\"analyze_attack\",\"arguments\":%s}}",
             body);
    printf("%-28s %7s %8s %10s %8s %8s %10s\n", "request", "bytes", "api us", "http p50", "p90",
           "p99", "floor p50");
    row("POST /analyze-attack", "/analyze-attack", body, &cfg, n);
    row("POST /mcp analyze_attack", "/mcp", call, &cfg, n);
    return 0;
}
