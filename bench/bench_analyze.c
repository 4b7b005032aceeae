/*
 * Figures for POST /analyze-attack. Prints medians; run on an otherwise quiet machine:
 *   ./build/bench/bench_analyze
 * Goals (one core): full analysis 10^6 vs 10^6 (16 % luck, weighted random) <= 2 ms, 10^9 vs
 * 10^9 <= 100 ms; a 1,000-point graph at 1,000 defenders <= 50 ms; armies_needed for 3 targets
 * at 10^6 defenders <= 50 ms; a small analysis over HTTP on loopback: median <= 200 µs.
 * With special units (W17–W20): 10^6 vs 10^6 with a Commander on each side within 1.5× of the
 * same without. With fog (W23): a 1,000-count distribution of defenders up to 10^6 in the same
 * class as 1,000 single battles of the same sizes (the ratio is printed; goal <= 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "combatd/warapp_odds.h"
#include "http/server.h"

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
        sink += cbd_windows_mean(&a.attackers_left) + cbd_windows_mean(&a.defenders_left) +
                (double)cbd_windows_quantile(&a.attackers_left, 0.99);
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

/* The median of `runs` analyses of 10^6 vs 10^6, with a Commander on each side or without. */
static double full_with_units(bool units, int runs) {
    cbd_warapp_settings s = lucky();
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {1000000, units ? 1u : 0u, &c},
                    defense = {1000000, units ? 1u : 0u, &c};
    double t[64];
    for (int i = 0; i < runs; i++) {
        double t0 = now_us();
        cbd_warapp_analysis a;
        if (cbd_warapp_analyze_sides(&attack, &defense, &s, NULL, &a) != CBD_OK) {
            exit(1);
        }
        cbd_warapp_analysis_free(&a);
        t[i] = now_us() - t0;
    }
    return median(t, (size_t)runs);
}

static void bench_units(void) {
    double plain = full_with_units(false, 51), units = full_with_units(true, 51);
    printf("10^6 vs 10^6, 16%% luck weighted, a Commander on each side: median %.3f ms, without "
           "%.3f ms: %.2fx (goal <= 1.5x)\n",
           units / 1e3, plain / 1e3, units / plain);
}

/* 1,000 counts spread over [10^6 − 999·97, 10^6], against the same counts one battle each. */
static void bench_fog(void) {
    enum { K = 1000 };
    static cbd_warapp_count counts[K];
    for (size_t k = 0; k < K; k++) {
        counts[k].armies = 1000000 - (K - 1 - k) * 97;
        counts[k].weight = 1.0 / K;
    }
    cbd_warapp_settings s = lucky();
    cbd_warapp_side attack = {1000000, 0, NULL}, defense = {0, 0, NULL};
    double t0 = now_us();
    cbd_warapp_analysis a;
    if (cbd_warapp_analyze_fog(&attack, &defense, counts, K, &s, NULL, &a) != CBD_OK) {
        exit(1);
    }
    cbd_warapp_analysis_free(&a);
    double mixture = now_us() - t0;
    t0 = now_us();
    for (size_t k = 0; k < K; k++) {
        if (cbd_warapp_analyze(1000000, counts[k].armies, &s, NULL, &a) != CBD_OK) {
            exit(1);
        }
        cbd_warapp_analysis_free(&a);
    }
    double singles = now_us() - t0;
    printf("fog: 10^6 attackers against 1,000 counts up to 10^6: %.1f ms; 1,000 single battles of "
           "the same sizes: %.1f ms: ratio %.2f (goal <= 1)\n",
           mixture / 1e3, singles / 1e3, mixture / singles);
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
    bench_units();
    bench_fog();
    bench_http();
    return 0;
}
