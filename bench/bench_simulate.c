/*
 * Battles per second of the /simulate core on one thread (the goals: >= 10^7 battles/s
 * for 100 vs 100 at 16 % luck, weighted random; within a factor of 2 from 10 to 10^6 armies).
 * Run: ./build/bench/bench_simulate [trials]   (default 2·10^7 per case)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "combatd/binomial_sample.h"
#include "combatd/warapp_simulate.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_case(const char *label, uint64_t a, uint64_t d, cbd_micro luck,
                     cbd_rounding rounding, uint64_t trials) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = luck;
    s.rounding = rounding;
    cbd_warapp_side attack = {a, 0, NULL}, defense = {d, 0, NULL};
    cbd_sim_plan plan;
    if (cbd_sim_plan_init(&plan, &attack, &defense, NULL, 0, &s, NULL) != CBD_OK) {
        return;
    }
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    double t0 = now_s();
    bool ok = cbd_warapp_sim_blocks(&plan, 12345, trials, 0, cbd_sim_block_count(trials), NULL, &st,
                                    NULL) == CBD_OK;
    double dt = now_s() - t0;
    printf("%-44s %12.0f battles/s  (%.1f ns/battle, capture rate %.4f)%s\n", label,
           (double)trials / dt, dt * 1e9 / (double)trials, (double)st.captures / (double)st.trials,
           ok ? "" : " OUT OF MEMORY");
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
}

/* The same with special units (W17–W20) and fog (W23): n_units Commanders a side, and the
 * defenders drawn from n_counts counts spread evenly around d (none: d itself). */
static void run_units_fog(const char *label, uint64_t a, uint64_t d, size_t n_units,
                          size_t n_counts, uint64_t trials) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.luck_modifier = 160000;
    s.rounding = CBD_ROUND_WEIGHTED;
    cbd_warapp_unit units[CBD_WARAPP_MAX_UNITS];
    for (size_t i = 0; i < n_units; i++) {
        units[i] = cbd_warapp_commander();
    }
    cbd_warapp_side attack = {a, n_units, units}, defense = {d, n_units, units};
    cbd_warapp_count *counts = n_counts ? calloc(n_counts, sizeof *counts) : NULL;
    for (size_t k = 0; k < n_counts; k++) {
        counts[k].armies = d - n_counts / 2 + k;
        counts[k].weight = 1.0 / (double)n_counts;
    }
    cbd_sim_plan plan;
    double t0 = now_s();
    if (cbd_sim_plan_init(&plan, &attack, &defense, counts, n_counts, &s, NULL) != CBD_OK) {
        free(counts);
        return;
    }
    double setup = now_s() - t0;
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    t0 = now_s();
    bool ok = cbd_warapp_sim_blocks(&plan, 12345, trials, 0, cbd_sim_block_count(trials), NULL, &st,
                                    NULL) == CBD_OK;
    double dt = now_s() - t0;
    printf("%-44s %12.0f battles/s  (%.1f ns/battle, %llu units charged; set-up %.0f ns a "
           "count)%s\n",
           label, (double)trials / dt, dt * 1e9 / (double)trials,
           (unsigned long long)cbd_sim_plan_battle_units(&plan),
           n_counts ? setup * 1e9 / (double)n_counts : 0.0, ok ? "" : " OUT OF MEMORY");
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(counts);
}

static void run_binomial(uint64_t n, cbd_micro p, uint64_t draws) {
    cbd_binomial b;
    cbd_binomial_init(&b, n, p);
    cbd_rng rng;
    cbd_rng_seed(&rng, 7);
    uint64_t sum = 0;
    double t0 = now_s();
    for (uint64_t i = 0; i < draws; i++) {
        sum += cbd_binomial_draw(&b, &rng);
    }
    double dt = now_s() - t0;
    printf("binomial n=%-10llu p=%.2f %-9s %8.1f ns/draw (mean %.3f, expected %.3f)\n",
           (unsigned long long)n, p / 1e6,
           b.method == CBD_BINOMIAL_BTRS        ? "BTRS"
           : b.method == CBD_BINOMIAL_INVERSION ? "inversion"
                                                : "constant",
           dt * 1e9 / (double)draws, (double)sum / (double)draws, (double)n * p / 1e6);
}

int main(int argc, char **argv) {
    uint64_t trials = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000u;
    printf("simulate core, one thread, %llu trials per case, 60/70 kill rates\n",
           (unsigned long long)trials);
    run_case("100 vs 100, 16% luck, weighted random", 100, 100, 160000, CBD_ROUND_WEIGHTED, trials);
    run_case("10 vs 10, 16% luck, weighted random", 10, 10, 160000, CBD_ROUND_WEIGHTED, trials);
    run_case("1000 vs 1000, 16% luck, weighted random", 1000, 1000, 160000, CBD_ROUND_WEIGHTED,
             trials);
    run_case("10^6 vs 10^6, 16% luck, weighted random", 1000000, 1000000, 160000,
             CBD_ROUND_WEIGHTED, trials);
    run_case("10^9 vs 10^9, 16% luck, weighted random", 1000000000, 1000000000, 160000,
             CBD_ROUND_WEIGHTED, trials);
    run_case("100 vs 100, 100% luck, straight round", 100, 100, 1000000, CBD_ROUND_STRAIGHT,
             trials);
    run_case("100 vs 100, 0% luck, weighted random", 100, 100, 0, CBD_ROUND_WEIGHTED, trials);
    run_units_fog("100 vs 100, 16% luck, weighted (plan)", 100, 100, 0, 0, trials);
    run_units_fog("100 vs 100 + a Commander each side", 100, 100, 1, 0, trials);
    run_units_fog("100 vs 100 + 32 Commanders each side", 100, 100, 32, 0, trials);
    run_units_fog("100 vs fog of 2 counts around 100", 100, 100, 0, 2, trials);
    run_units_fog("100 vs fog of 1000 counts around 1000", 100, 1000, 0, 1000, trials);
    run_units_fog("10^6 vs fog of 100000 counts around 10^6", 1000000, 1000000, 0, 100000, trials);
    run_binomial(10, 600000, trials / 4);
    run_binomial(100, 600000, trials / 4);
    run_binomial(1000000, 700000, trials / 4);
    run_binomial(1000000000, 600000, trials / 4);
    run_binomial(1000000000, 1, trials / 4);
    return 0;
}
