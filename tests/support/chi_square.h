#ifndef COMBATD_TEST_CHI_SQUARE_H
#define COMBATD_TEST_CHI_SQUARE_H

/*
 * Pearson's chi-square goodness-of-fit for the sampling tests, written independently of the
 * code under test. Cells whose expected count is below 5 are pooled into one cell (with the
 * mass the listed cells leave over, so the pooled cell also holds anything outside them).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    double statistic;
    int df;
    double critical; /* at alpha = 0.001 */
} chi_square_result;

/* The upper 0.1 % point of chi-square with df degrees of freedom, by Wilson–Hilferty
 * (z = 3.090232; within 1 % of the exact value for df >= 3, exact tables for smaller df). */
static inline double chi_square_critical_001(int df) {
    static const double table[] = {0, 10.828, 13.816, 16.266, 18.467, 20.515};
    if (df <= 5) {
        return table[df < 1 ? 1 : df];
    }
    double k = df, z = 3.090232;
    double t = 1.0 - 2.0 / (9.0 * k) + z * sqrt(2.0 / (9.0 * k));
    return k * t * t * t;
}

/* observed[i] against probability[i]·total; `total` counts every trial (also those outside the
 * listed cells, which fall in the pooled cell). */
static inline chi_square_result chi_square_test(const uint64_t *observed, const long double *prob,
                                                size_t cells, uint64_t total) {
    chi_square_result r = {0, 0, 0};
    long double pooled_p = 1.0L;
    uint64_t pooled_o = total;
    int used = 0;
    for (size_t i = 0; i < cells; i++) {
        long double e = prob[i] * (long double)total;
        if (e < 5.0L) {
            continue;
        }
        long double d = (long double)observed[i] - e;
        r.statistic += (double)(d * d / e);
        pooled_p -= prob[i];
        pooled_o -= observed[i];
        used++;
    }
    long double pe = pooled_p * (long double)total;
    if (pe >= 5.0L) {
        long double d = (long double)pooled_o - pe;
        r.statistic += (double)(d * d / pe);
        used++;
    } else if (pooled_o > 20) {
        /* Far more trials landed outside the likely cells than the tail allows: fail loudly. */
        r.statistic += 1e9;
    }
    r.df = used - 1;
    r.critical = chi_square_critical_001(r.df);
    return r;
}

/* Binomial(n, p) pmf at k in long double via lgammal (absolute error ~1e-12 of the log at
 * n = 10^9, far below what 10^6 samples can see). */
static inline long double binomial_pmf(uint64_t n, long double p, uint64_t k) {
    if (p <= 0.0L) {
        return k == 0 ? 1.0L : 0.0L;
    }
    if (p >= 1.0L) {
        return k == n ? 1.0L : 0.0L;
    }
    long double nl = (long double)n, kl = (long double)k;
    return expl(lgammal(nl + 1) - lgammal(kl + 1) - lgammal(nl - kl + 1) + kl * logl(p) +
                (nl - kl) * log1pl(-p));
}

#endif
