/*
 * Figures for issue 3 (POST /analyze-attack). Prints medians; run on an otherwise quiet machine:
 *   ./build/bench/bench_analyze
 * Goals (one core): full analysis 10^6 vs 10^6 (16 % luck, weighted random) <= 2 ms, 10^9 vs
 * 10^9 <= 100 ms; a 1,000-point graph at 1,000 defenders <= 50 ms; armies_needed for 3 targets
 * at 10^6 defenders <= 50 ms; a small analysis over HTTP on loopback: median <= 200 µs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "combatd/warapp_odds.h"
#include "server.h"

#include "http_latency.h"

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

static cbd_warapp_settings lucky(void) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = 160000;
    s.rounding = CBD_ROUND_WEIGHTED;
    return s;
}

static void bench_full(uint64_t n, int runs, double goal_ms) {
    cbd_warapp_settings s = lucky();
    double t[64];
    double sink = 0;
    for (int i = 0; i < runs; i++) {
        double t0 = now_us();
        cbd_warapp_analysis a;
        if (cbd_warapp_analyze(n, n, &s, NULL, &a) != CBD_OK) {
            fprintf(stderr, "analysis failed\n");
            exit(1);
        }
        /* What the endpoint reports beyond the analysis: means and percentiles. */
        sink += cbd_dist_mean(&a.attackers_left) + cbd_dist_mean(&a.defenders_left) +
                (double)cbd_dist_quantile(&a.attackers_left, 0.99);
        cbd_warapp_analysis_free(&a);
        t[i] = now_us() - t0;
    }
    printf("full analysis %lu vs %lu, 16%% luck, weighted random: median %.3f ms (goal <= %.0f "
           "ms, %d runs) [%g]\n",
           (unsigned long)n, (unsigned long)n, median(t, (size_t)runs) / 1e3, goal_ms, runs,
           sink > 0 ? 1.0 : 0.0);
}

static void bench_graph(void) {
    cbd_warapp_settings s = lucky();
    static cbd_warapp_graph_point pts[1000];
    double t[21];
    for (int i = 0; i < 21; i++) {
        double t0 = now_us();
        if (cbd_warapp_graph(1000, 1001, 2000, &s, NULL, pts) != CBD_OK) {
            exit(1);
        }
        t[i] = now_us() - t0;
    }
    printf("graph of 1,000 points (attackers 1001..2000) at 1,000 defenders, 16%% luck weighted: "
           "median %.3f ms (goal <= 50 ms)\n",
           median(t, 21) / 1e3);
}

static void bench_needed(void) {
    cbd_warapp_settings s = lucky();
    double q[3] = {0.5, 0.9, 0.99};
    uint64_t got[3];
    double t[21];
    for (int i = 0; i < 21; i++) {
        double t0 = now_us();
        if (cbd_warapp_armies_needed(1000000, &s, q, 3, 1000000000, NULL, got) != CBD_OK) {
            exit(1);
        }
        t[i] = now_us() - t0;
    }
    printf("armies_needed for 0.5/0.9/0.99 at 10^6 defenders, 16%% luck weighted: median %.3f ms "
           "(goal <= 50 ms) -> %lu %lu %lu\n",
           median(t, 21) / 1e3, (unsigned long)got[0], (unsigned long)got[1],
           (unsigned long)got[2]);
}

/* One keep-alive connection, one request at a time: the latency a client sees. */
static void bench_http(void) {
    const char *body = "{\"attackers\": 10, \"defenders\": 5, \"settings\": {\"luck_modifier\": "
                       "0.16, \"rounding_mode\": \"weighted_random\"}}";
    enum { N = 2000 };
    http_latency l = http_latency_measure("/analyze-attack", body, N);
    printf("HTTP loopback, small analysis (10 vs 5, 16%% luck), one connection: median %.1f µs, "
           "p99 %.1f µs (goal: median <= 200 µs, %d requests)\n",
           l.median_us, l.p99_us, N);
    /* The answer is about 700 bytes. */
    http_latency f = http_latency_floor(body, 700, N);
    printf("  loopback floor today, the same round trip to a server that only answers: median "
           "%.1f µs\n",
           f.median_us);
}

int main(void) {
    bench_full(1000000, 51, 2);
    bench_full(1000000000, 7, 100);
    bench_graph();
    bench_needed();
    bench_http();
    return 0;
}
