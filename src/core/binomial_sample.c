/* Exact binomial variates: inversion for small means, BTRS above (see binomial_sample.h). */
#include "combatd/binomial_sample.h"

#include <math.h>

/* Below this mean n·p' inversion is used; BTRS needs n·p' >= 10 for its constants. */
#define INVERSION_MAX_MEAN 10.0
/* Inversion restarts past this many steps: P(X > 110 | mean < 10) < 1e-60. */
#define INVERSION_MAX_STEPS 110

static void init_common(cbd_binomial *b, uint64_t n, double p, double q) {
    b->n = n;
    b->p = p;
    if (n == 0 || p <= 0.0) {
        b->method = CBD_BINOMIAL_CONSTANT;
        return;
    }
    double nd = (double)n;
    if (nd * p < INVERSION_MAX_MEAN) {
        b->method = CBD_BINOMIAL_INVERSION;
        b->q_pow_n = exp(nd * log1p(-p));
        b->s = p / q;
        b->a = (nd + 1.0) * b->s;
        return;
    }
    b->method = CBD_BINOMIAL_BTRS;
    double spq = sqrt(nd * p * q);
    b->bt_b = 1.15 + 2.53 * spq;
    b->bt_a = -0.0873 + 0.0248 * b->bt_b + 0.01 * p;
    b->bt_c = nd * p + 0.5;
    b->bt_vr = 0.92 - 4.2 / b->bt_b;
    b->bt_alpha = (2.83 + 5.1 / b->bt_b) * spq;
    b->bt_r = p / q;
    b->bt_logr = log(b->bt_r);
    b->bt_m = floor((nd + 1.0) * p);
}

/*
 * δ(k) = log k! − [(k + ½)·log(k + 1) − (k + 1) + ½·log 2π], the Stirling remainder used by
 * BTRS: a table for k <= 9, the asymptotic series in (k + 1) above (error < 1e-12 at k = 10).
 */
static double stirling_tail(double k) {
    static const double table[10] = {
        0.08106146679532733, 0.04134069595540946,  0.027677925684997717, 0.02079067210376584,
        0.01664469118982126, 0.013876128823072875, 0.011896709945893313, 0.010411265261973668,
        0.00925546218270945, 0.008330563433359472};
    if (k <= 9.0) {
        return table[(int)k];
    }
    double x = k + 1.0;
    double x2 = x * x;
    return (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - 1.0 / (1680.0 * x2)) / x2) / x2) / x;
}

void cbd_binomial_init(cbd_binomial *b, uint64_t n, cbd_micro p_micro) {
    /* p' and 1 − p' come straight from the exact millionths, so 1 − p' is not rounded twice. */
    uint32_t lo = p_micro <= CBD_MICRO_ONE / 2 ? p_micro : CBD_MICRO_ONE - p_micro;
    b->flip = p_micro > CBD_MICRO_ONE / 2;
    init_common(b, n, (double)lo / CBD_MICRO_ONE, (double)(CBD_MICRO_ONE - lo) / CBD_MICRO_ONE);
    if (b->method == CBD_BINOMIAL_BTRS) {
        double nd = (double)n, m = b->bt_m;
        b->bt_const = (m + 0.5) * log((m + 1.0) / (b->bt_r * (nd - m + 1.0))) + stirling_tail(m) +
                      stirling_tail(nd - m);
    }
}

void cbd_binomial_init_double(cbd_binomial *b, uint64_t n, double p) {
    b->flip = p > 0.5;
    double lo = b->flip ? 1.0 - p : p;
    init_common(b, n, lo, 1.0 - lo);
    if (b->method == CBD_BINOMIAL_BTRS) {
        double nd = (double)n, m = b->bt_m;
        b->bt_const = (m + 0.5) * log((m + 1.0) / (b->bt_r * (nd - m + 1.0))) + stirling_tail(m) +
                      stirling_tail(nd - m);
    }
}

static uint64_t draw_inversion(const cbd_binomial *b, cbd_rng *rng) {
    for (;;) {
        double u = cbd_rng_double(rng);
        double f = b->q_pow_n;
        uint64_t x = 0;
        /* Walk the pmf f(x) = f(x − 1)·((n + 1)/x − 1)·p/q until the uniform is used up. */
        while (u > f) {
            u -= f;
            x++;
            if (x > INVERSION_MAX_STEPS || x > b->n) {
                goto restart;
            }
            f *= b->a / (double)x - b->s;
        }
        return x;
    restart:;
    }
}

static uint64_t draw_btrs(const cbd_binomial *b, cbd_rng *rng) {
    const double nd = (double)b->n;
    for (;;) {
        double u = cbd_rng_double(rng) - 0.5;
        double v = cbd_rng_double(rng);
        double us = 0.5 - fabs(u);
        double k = floor((2.0 * b->bt_a / us + b->bt_b) * u + b->bt_c);
        if (k < 0.0 || k > nd) {
            continue;
        }
        /* The squeeze: inside this box the hat lies under the density (about 86 % of tries). */
        if (us >= 0.07 && v <= b->bt_vr) {
            return (uint64_t)k;
        }
        /* Otherwise the exact test log(v·hat) <= log(f(k)/f(m)), with the factorial ratios
         * written through the Stirling remainders so that nothing cancels catastrophically. */
        double lv = log(v * b->bt_alpha / (b->bt_a / (us * us) + b->bt_b));
        double bound = b->bt_const + (nd + 1.0) * log1p((k - b->bt_m) / (nd - k + 1.0)) +
                       (k + 0.5) * (b->bt_logr + log((nd - k + 1.0) / (k + 1.0))) -
                       stirling_tail(k) - stirling_tail(nd - k);
        if (lv <= bound) {
            return (uint64_t)k;
        }
    }
}

uint64_t cbd_binomial_draw(const cbd_binomial *b, cbd_rng *rng) {
    uint64_t x;
    switch (b->method) {
        case CBD_BINOMIAL_INVERSION:
            x = draw_inversion(b, rng);
            break;
        case CBD_BINOMIAL_BTRS:
            x = draw_btrs(b, rng);
            break;
        default:
            x = 0;
            break;
    }
    return b->flip ? b->n - x : x;
}
