/*
 * Duper battle benchmark. Prints three figures:
 *   1. the core: ns per cbd_duper_resolve on the rule file's worked example and on a
 *      supercapital double elimination with supporting forts (goal ≤ 2 µs);
 *   2. the JSON layer without a socket: µs per request through cbd_api_run;
 *   3. the endpoint on loopback: median and p99 latency of POST /duper/battle over one
 *      keep-alive connection to an in-process server (goal: median ≤ 200 µs).
 * Usage: build/bench/bench_duper [core_iterations] [http_requests]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "combatd/duper.h"
#include "api/api_config.h"
#include "http/server.h"

#include "http_latency.h"

static const char body[] =
    "{\"attack\": {\"player\": \"red\", \"kind\": \"normal\", \"tile\": {\"units\":"
    " {\"soldier\": 8, \"plane\": 2, \"fort\": 1}, \"loaded\": {\"tank\": 2}},"
    " \"support\": [{\"tanks\": 3, \"fort\": false}]},"
    " \"defense\": {\"player\": \"blue\", \"npc\": false, \"keys\": 2, \"tile\": {\"level\": 3,"
    " \"units\": {\"tank\": 5, \"center\": 1}}, \"support\": [{\"tanks\": 4}]},"
    " \"rules\": {\"key_buff_per_key\": 1}, \"seed\": 7}";

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench_core(const char *label, const cbd_duper_battle *b, long n) {
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_result r;
    uint64_t sink = 0;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        /* A different seed each time so that the call cannot be hoisted. */
        if (cbd_duper_resolve(&rules, b, (uint64_t)i, &r) != CBD_OK) {
            fprintf(stderr, "resolve failed\n");
            exit(1);
        }
        sink += r.damage + r.card_stolen;
    }
    double t1 = now_ns();
    printf("core %-34s %8.1f ns/battle  (%ld battles, checksum %llu)\n", label,
           (t1 - t0) / (double)n, n, (unsigned long long)sink);
}

static void bench_api(long n) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/duper/battle");
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        cbd_api_reply reply;
        cbd_api_run(ep, &cfg, body, sizeof body - 1, &reply);
        if (reply.status != 200) {
            fprintf(stderr, "status %d: %s\n", reply.status, reply.body);
            exit(1);
        }
        cbd_api_reply_free(&reply);
    }
    double t1 = now_ns();
    printf("api  parse+resolve+render (no socket)  %8.2f us/request (%ld requests)\n",
           (t1 - t0) / (double)n / 1000.0, n);
}

static void bench_http(long n) {
    http_latency l = http_latency_measure("/duper/battle", body, n);
    printf("http POST /duper/battle on loopback     median %6.1f us, p90 %6.1f us, p99 %6.1f us "
           "(%ld requests, 1 keep-alive connection)\n",
           l.median_us, l.p90_us, l.p99_us, n);
}

int main(int argc, char **argv) {
    long core_n = argc > 1 ? atol(argv[1]) : 2000000;
    long http_n = argc > 2 ? atol(argv[2]) : 20000;
    if (core_n < 1 || http_n < 1) {
        fprintf(stderr, "usage: %s [core_iterations] [http_requests]\n", argv[0]);
        return 2;
    }
    cbd_duper_battle b;
    memset(&b, 0, sizeof b);
    b.kind = CBD_DUPER_NORMAL;
    b.level = 3;
    b.keys = 2;
    b.attack.units[CBD_DUPER_SOLDIER] = 8;
    b.attack.units[CBD_DUPER_PLANE] = 2;
    b.attack.units[CBD_DUPER_FORT] = 1;
    b.attack.loaded[CBD_DUPER_TANK] = 2;
    b.attack.n_support = 1;
    b.attack.support_tanks[0] = 3;
    b.defense.units[CBD_DUPER_TANK] = 5;
    b.defense.units[CBD_DUPER_CENTER] = 1;
    b.defense.n_support = 1;
    b.defense.support_tanks[0] = 4;
    bench_core("worked example (fails)", &b, core_n);

    cbd_duper_battle c;
    memset(&c, 0, sizeof c);
    c.kind = CBD_DUPER_NORMAL;
    c.level = 3;
    c.attack.units[CBD_DUPER_SUPERCAPITAL] = 1;
    c.attack.units[CBD_DUPER_PLANE] = 5;
    c.attack.n_support = CBD_DUPER_MAX_SUPPORT;
    for (size_t i = 0; i < CBD_DUPER_MAX_SUPPORT; i++) {
        c.attack.support_tanks[i] = 2;
        c.attack.support_fort[i] = 1;
    }
    c.defense.units[CBD_DUPER_CAPITAL_LV3] = 1;
    c.defense.units[CBD_DUPER_TANK] = 30;
    bench_core("8 supporting forts, capital (captures)", &c, core_n);

    bench_api(http_n);
    bench_http(http_n);
    return 0;
}
