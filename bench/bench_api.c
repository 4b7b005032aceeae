/*
 * Where a request's CPU goes inside combatd, without a socket. For each body that
 * bench/load.sh sends, prints microseconds per request for:
 *   parse   cbd_api_parse + release of the body alone (jansson's share, a floor for the API);
 *   api     the whole API layer: parse, validate, compute, render (cbd_api_run);
 * so that the load figures can be read against them: the HTTP stack's own cost per request is
 * the bare server's (bench/load.sh), and combatd adds `api` plus its HTTP bookkeeping.
 *
 *   build/bench/bench_api [requests [path]]   (default 200000, every path; run on a quiet
 *                                             machine; one path for perf record)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/api_config.h"

typedef struct {
    const char *file;
    const char *path;
} load_body;

static const load_body bodies[] = {
    {"analyze_small.json", "/analyze-attack"},
    {"duper_small.json", "/duper/battle"},
    {"simulate_small.json", "/simulate"},
    {"simulate_turn_bench.json", "/simulate-turn"}, /* bench_turn's one-trial turn */
};

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The body file's text, or NULL. */
static char *read_body(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/bench/wrk/bodies/%s", COMBATD_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    static char text[64 * 1024];
    *len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[*len] = '\0';
    return text;
}

static double parse_us(const char *path, const char *body, size_t len, long n) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        cbd_api_request req;
        cbd_api_reply reply;
        if (!cbd_api_parse(ep, body, len, &req, &reply)) {
            fprintf(stderr, "%s: status %d: %s\n", path, reply.status, reply.body);
            exit(1);
        }
        cbd_api_request_release(&req);
    }
    return (now_ns() - t0) / (double)n / 1000.0;
}

static double api_us(const cbd_config *cfg, const char *path, const char *body, size_t len,
                     long n) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        cbd_api_reply reply;
        cbd_api_run(ep, cfg, body, len, &reply);
        if (reply.status != 200) {
            fprintf(stderr, "%s: status %d: %s\n", path, reply.status, reply.body);
            exit(1);
        }
        cbd_api_reply_free(&reply);
    }
    return (now_ns() - t0) / (double)n / 1000.0;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (n <= 0) {
        fprintf(stderr, "usage: %s [requests]\n", argv[0]);
        return 2;
    }
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    printf("%-16s %7s %9s %9s %8s\n", "endpoint", "bytes", "parse us", "api us", "parse %");
    const char *only = argc > 2 ? argv[2] : NULL;
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        if (only && strcmp(only, bodies[i].path) != 0) {
            continue;
        }
        size_t len = 0;
        const char *body = read_body(bodies[i].file, &len);
        if (!body) {
            fprintf(stderr, "cannot read bench/wrk/bodies/%s\n", bodies[i].file);
            return 1;
        }
        double parse = parse_us(bodies[i].path, body, len, n);
        double api = api_us(&cfg, bodies[i].path, body, len, n);
        printf("%-16s %7zu %9.2f %9.2f %7.0f%%\n", bodies[i].path, len, parse, api,
               100.0 * parse / api);
    }
    return 0;
}
