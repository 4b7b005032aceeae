/* The exact binomial sampler (W1's roll X ~ Binomial(n, p)): inversion and BTRS. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chi_square.h"
#include "combatd/binomial_sample.h"

#define DRAWS 1000000u

/*
 * Draws DRAWS variates from `b` and tests them against Binomial(n, p_true) over the cells
 * mode ± 12σ (everything else pooled). Returns the chi-square result.
 */
static chi_square_result sample_vs_pmf(const cbd_binomial *b, uint64_t n, long double p_true,
                                       uint64_t seed) {
    long double sd = sqrtl((long double)n * p_true * (1 - p_true));
    long double mean = (long double)n * p_true;
    uint64_t lo = mean - 12 * sd - 2 > 0 ? (uint64_t)(mean - 12 * sd - 2) : 0;
    uint64_t hi = (uint64_t)(mean + 12 * sd + 2);
    if (hi > n) {
        hi = n;
    }
    size_t cells = (size_t)(hi - lo + 1);
    uint64_t *obs = calloc(cells, sizeof *obs);
    long double *prob = calloc(cells, sizeof *prob);
    cr_assert(obs && prob);
    for (size_t i = 0; i < cells; i++) {
        prob[i] = binomial_pmf(n, p_true, lo + i);
    }
    cbd_rng rng;
    cbd_rng_seed(&rng, seed);
    for (unsigned i = 0; i < DRAWS; i++) {
        uint64_t x = cbd_binomial_draw(b, &rng);
        cr_assert_leq(x, n);
        if (x >= lo && x <= hi) {
            obs[x - lo]++;
        }
    }
    chi_square_result r = chi_square_test(obs, prob, cells, DRAWS);
    free(obs);
    free(prob);
    return r;
}

typedef struct {
    uint64_t n;
    cbd_micro p;
    cbd_binomial_method method;
} bin_case;

static void check_case(bin_case c) {
    cbd_binomial b;
    cbd_binomial_init(&b, c.n, c.p);
    cr_assert_eq(b.method, c.method, "n=%llu p=%u: method %d", (unsigned long long)c.n, c.p,
                 (int)b.method);
    chi_square_result r = sample_vs_pmf(&b, c.n, (long double)c.p / 1e6L, c.n * 31 + c.p);
    cr_expect_lt(r.statistic, r.critical, "n=%llu p=%u: chi2 %.1f >= %.1f (df %d)",
                 (unsigned long long)c.n, c.p, r.statistic, r.critical, r.df);
    cr_log_info("n=%llu p=%.6f chi2 %.1f critical %.1f df %d", (unsigned long long)c.n, c.p / 1e6,
                r.statistic, r.critical, r.df);
}

/* Inversion: n·min(p, 1 − p) < 10. 10 armies at 0.6 use p' = 0.4 (mean 4) and flip. */
Test(binomial_sample, inversion_small_n) {
    check_case((bin_case){10, 600000, CBD_BINOMIAL_INVERSION});
    check_case((bin_case){5, 700000, CBD_BINOMIAL_INVERSION});
    check_case((bin_case){30, 300000, CBD_BINOMIAL_INVERSION}); /* mean 9 */
}

/* Inversion with a huge n and a tiny p: 10^6 armies at 0.000005 (mean 5). */
Test(binomial_sample, inversion_large_n_small_p) {
    check_case((bin_case){1000000, 5, CBD_BINOMIAL_INVERSION});
}

/* BTRS: n·p' >= 10, from the boundary (40 at 0.25 = 10) to 10^9 armies. */
Test(binomial_sample, btrs_moderate_n) {
    check_case((bin_case){40, 250000, CBD_BINOMIAL_BTRS});
    check_case((bin_case){100, 600000, CBD_BINOMIAL_BTRS});
    check_case((bin_case){100, 700000, CBD_BINOMIAL_BTRS});
    check_case((bin_case){2000, 160000, CBD_BINOMIAL_BTRS});
}

Test(binomial_sample, btrs_large_n) {
    check_case((bin_case){1000000, 700000, CBD_BINOMIAL_BTRS});
    check_case((bin_case){1000000000, 600000, CBD_BINOMIAL_BTRS});
    check_case((bin_case){1000000000, 1, CBD_BINOMIAL_BTRS}); /* mean 1000 */
}

/* The test has power: a sampler off by 0.01 in p is rejected, in both regimes. */
Test(binomial_sample, chi_square_rejects_p_off_by_001) {
    cbd_binomial b;
    cbd_binomial_init_double(&b, 100, 0.61);
    chi_square_result r = sample_vs_pmf(&b, 100, 0.6L, 1);
    cr_expect_gt(r.statistic, r.critical, "BTRS: chi2 %.1f < %.1f", r.statistic, r.critical);
    cbd_binomial_init_double(&b, 10, 0.61);
    r = sample_vs_pmf(&b, 10, 0.6L, 2);
    cr_expect_gt(r.statistic, r.critical, "inversion: chi2 %.1f < %.1f", r.statistic, r.critical);
}

/* Fixed answers take no draw: n = 0, p = 0 and p = 1 (W1 with nothing to roll). */
Test(binomial_sample, constant_cases_draw_nothing) {
    cbd_rng rng, before;
    cbd_rng_seed(&rng, 3);
    before = rng;
    cbd_binomial b;
    cbd_binomial_init(&b, 0, 600000);
    cr_expect_eq(cbd_binomial_draw(&b, &rng), 0u);
    cbd_binomial_init(&b, 50, 0);
    cr_expect_eq(cbd_binomial_draw(&b, &rng), 0u);
    cbd_binomial_init(&b, 50, 1000000);
    cr_expect_eq(cbd_binomial_draw(&b, &rng), 50u);
    cr_expect_eq(b.method, CBD_BINOMIAL_CONSTANT);
    cr_expect_eq(memcmp(&rng, &before, sizeof rng), 0);
}

/* p = 1/2 exactly does not flip, and the mean of 10^6 draws of Binomial(10^9, 0.5) lies within
 * 5 standard errors of 5·10^8 (σ = sqrt(2.5·10^8) ≈ 15811, standard error ≈ 15.8). */
Test(binomial_sample, half_and_mean_at_huge_n) {
    cbd_binomial b;
    cbd_binomial_init(&b, 1000000000, 500000);
    cr_expect(!b.flip);
    cbd_rng rng;
    cbd_rng_seed(&rng, 11);
    long double sum = 0;
    for (unsigned i = 0; i < DRAWS; i++) {
        sum += (long double)cbd_binomial_draw(&b, &rng);
    }
    long double mean = sum / DRAWS;
    cr_expect_lt(fabsl(mean - 5e8L), 5 * 15.8114L, "mean %Lf", mean);
}
