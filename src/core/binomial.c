/* The binomial pmf window (W1's X ~ Binomial(n, p)); see include/combatd/binomial.h. */
#include "combatd/binomial.h"

#include <math.h>
#include <stdlib.h>

__extension__ typedef unsigned __int128 cbd_u128;

#define LN_2PI 1.837877066409345483560659472811 /* log(2π) */

/*
 * stirlerr(n) = log(n!) − log(sqrt(2πn)·(n/e)^n), the error of Stirling's formula (Loader).
 * Above 15 the asymptotic series is accurate to double precision; at and below 15 log(n!) is
 * taken from the exact factorial (n! <= 15! < 2^53 is an exact double).
 */
static double stirlerr(double n) {
    const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
    if (n <= 15.0) {
        double fact = 1.0;
        for (double i = 2.0; i <= n; i += 1.0) {
            fact *= i;
        }
        return log(fact) - (n + 0.5) * log(n) + n - 0.5 * LN_2PI;
    }
    double nn = n * n;
    if (n > 500) {
        return (s0 - s1 / nn) / n;
    }
    if (n > 80) {
        return (s0 - (s1 - s2 / nn) / nn) / n;
    }
    if (n > 35) {
        return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
    }
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/* bd0(x, np) = x·log(x/np) + np − x, computed without cancellation when x is near np. */
static double bd0(double x, double np) {
    if (fabs(x - np) < 0.1 * (x + np)) {
        double v = (x - np) / (x + np);
        double s = (x - np) * v;
        double ej = 2 * x * v;
        v = v * v;
        for (int j = 1; j < 1000; j++) {
            ej *= v;
            double s1 = s + ej / (2 * j + 1);
            if (s1 == s) {
                return s1;
            }
            s = s1;
        }
    }
    return x * log(x / np) + np - x;
}

double cbd_binom_pmf(uint64_t k, uint64_t n, double p, double q) {
    if (p == 0.0) {
        return k == 0 ? 1.0 : 0.0;
    }
    if (q == 0.0) {
        return k == n ? 1.0 : 0.0;
    }
    double dn = (double)n;
    if (k == 0) {
        return n == 0 ? 1.0 : exp(p < 0.1 ? -bd0(dn, dn * q) - dn * p : dn * log(q));
    }
    if (k == n) {
        return exp(q < 0.1 ? -bd0(dn, dn * p) - dn * q : dn * log(p));
    }
    double x = (double)k;
    double lc =
        stirlerr(dn) - stirlerr(x) - stirlerr(dn - x) - bd0(x, dn * p) - bd0(dn - x, dn * q);
    /* log(2π·x·(n−x)/n), with n − x taken exactly: log1p(−x/n) (R's form) loses ~1e-10
     * relative when x/n is within 1e-6 of 1, as for a kill rate of 0.999999. */
    double lf = LN_2PI + log(x) + log(dn - x) - log(dn);
    return exp(lc - 0.5 * lf);
}

void cbd_binom_window_free(cbd_binom_window *w) {
    cbd_mem_free(w->pmf);
    w->pmf = NULL;
    w->len = 0;
}

/* The window buf[lo..hi] normalised, moved to the front and its unused room given back. */
static void keep_window(double *buf, size_t lo, size_t hi, cbd_budget *budget,
                        cbd_binom_window *out) {
    size_t len = hi - lo + 1;
    double sum = 0.0;
    for (size_t i = lo; i <= hi; i++) {
        sum += buf[i];
    }
    for (size_t i = 0; i < len; i++) {
        buf[i] = buf[lo + i] / sum;
    }
    double *shrunk = cbd_mem_realloc(budget, buf, len * sizeof *buf);
    out->pmf = shrunk ? shrunk : buf;
    out->len = len;
    out->raw_mass = sum;
}

/*
 * What a walk pays, as it writes its terms rather than before: every term there is room for
 * (CBD_WORK_BINOM_TERM each: each retry computes them again) and the buffer's new pages
 * (cbd_budget_defer_pages), shared over the terms written (cbd_charge_share), what the walk left
 * unwritten charged at its end: the same units in all as charged at once when the buffer was
 * taken. At once, a walk of 1e9 at luck 0.2 on a cold pool was 5.78 · 2^20 units between two
 * checks (606 pages), then its terms computed and its pages faulted (8-10 ms of CPU here) with
 * no check between.
 */
typedef struct {
    cbd_charge_share terms, pages;
} walk_pay;

static bool walk_step(walk_pay *w) {
    return cbd_charge_share_step(&w->terms) && cbd_charge_share_step(&w->pages);
}

/* The walk's end: the rest paid, the buffer given back unless `st` is CBD_OK. */
static cbd_status walk_end(walk_pay *w, double *buf, cbd_status st) {
    bool paid = cbd_charge_share_end(&w->terms) && cbd_charge_share_end(&w->pages);
    if (st != CBD_OK || !paid) {
        cbd_mem_free(buf);
    }
    return paid ? st : CBD_ERR_BUDGET;
}

/* The walk stopped before its end (the budget spent): its buffer given back. */
static cbd_status walk_stopped(double *buf) {
    cbd_mem_free(buf);
    return CBD_ERR_BUDGET;
}

/*
 * One attempt with room for `below` values under the mode and `above` over it. Returns
 * CBD_ERR_TOO_LARGE when a side ran out of room before the cut-off (the caller retries wider).
 */
static cbd_status walk(uint64_t n, uint64_t mode, double p, double q, uint64_t below,
                       uint64_t above, cbd_budget *budget, cbd_binom_window *out) {
    size_t cap = (size_t)(below + above + 1);
    uint64_t terms = cbd_work_times(CBD_WORK_BINOM_TERM, cap), pages = 0;
    if (terms > cbd_budget_work_left(budget) && !cbd_charge(budget, terms)) {
        return CBD_ERR_BUDGET; /* a walk the budget has not the units for stops before its memory */
    }
    cbd_budget_defer_pages(budget, &pages);
    double *buf = cbd_mem_alloc(budget, cap * sizeof *buf);
    cbd_budget_defer_pages(budget, NULL);
    if (!buf) {
        return cbd_budget_nomem(budget);
    }
    walk_pay pay;
    cbd_charge_share_init(&pay.terms, budget, terms, cap);
    cbd_charge_share_pages_init(&pay.pages, budget, pages, cap);
    if (!walk_step(&pay)) {
        return walk_stopped(buf);
    }
    double peak = cbd_binom_pmf(mode, n, p, q);
    double floor_mass = peak * CBD_BINOM_CUTOFF;
    double pq = p / q, qp = q / p;
    size_t centre = (size_t)below;
    buf[centre] = peak;

    /* Upwards: f(k+1) = f(k)·(n−k)/(k+1)·p/q. */
    size_t hi = centre;
    double f = peak;
    for (uint64_t k = mode; k < n; k++) {
        f *= (double)(n - k) / (double)(k + 1) * pq;
        if (f < floor_mass) {
            break;
        }
        if (hi + 1 >= cap) {
            return walk_end(&pay, buf, CBD_ERR_TOO_LARGE);
        }
        if (!walk_step(&pay)) {
            return walk_stopped(buf);
        }
        buf[++hi] = f;
    }
    /* Downwards: f(k−1) = f(k)·k/(n−k+1)·q/p. */
    size_t lo = centre;
    f = peak;
    for (uint64_t k = mode; k > 0; k--) {
        f *= (double)k / (double)(n - k + 1) * qp;
        if (f < floor_mass) {
            break;
        }
        if (lo == 0) {
            return walk_end(&pay, buf, CBD_ERR_TOO_LARGE);
        }
        if (!walk_step(&pay)) {
            return walk_stopped(buf);
        }
        buf[--lo] = f;
    }
    cbd_status st = walk_end(&pay, buf, CBD_OK);
    if (st != CBD_OK) {
        return st;
    }
    keep_window(buf, lo, hi, budget, out);
    out->lo = mode - (uint64_t)(centre - lo);
    return CBD_OK;
}

cbd_status cbd_binom_window_compute(uint64_t n, cbd_micro p, cbd_budget *budget,
                                    cbd_binom_window *out) {
    out->pmf = NULL;
    out->len = 0;
    if (p > CBD_MICRO_ONE) {
        return CBD_ERR_INVALID;
    }
    if (n == 0 || p == 0 || p == CBD_MICRO_ONE) {
        /* A certain outcome: no successes, or all of them. */
        out->pmf = cbd_mem_alloc(budget, sizeof *out->pmf);
        if (!out->pmf) {
            return cbd_budget_nomem(budget);
        }
        out->pmf[0] = 1.0;
        out->lo = p == CBD_MICRO_ONE ? n : 0;
        out->len = 1;
        out->raw_mass = 1.0;
        return CBD_OK;
    }
    double pd = (double)p / CBD_MICRO_ONE;
    double qd = (double)(CBD_MICRO_ONE - p) / CBD_MICRO_ONE;
    /* The mode floor((n+1)·p), exactly. */
    uint64_t mode = (uint64_t)((cbd_u128)(n + 1) * p / CBD_MICRO_ONE);
    if (mode > n) {
        mode = n;
    }
    /* A terms-to-cut-off estimate: ~9.1σ for a normal shape, plus room for the skewed
     * small-mean cases; it is doubled and retried in the rare case it falls short. */
    double sigma = sqrt((double)n * pd * qd);
    uint64_t reach = (uint64_t)(10.0 * sigma) + 64;
    for (;;) {
        uint64_t below = reach < mode ? reach : mode;
        uint64_t above = reach < n - mode ? reach : n - mode;
        cbd_status st = walk(n, mode, pd, qd, below, above, budget, out);
        if (st != CBD_ERR_TOO_LARGE) {
            return st;
        }
        reach *= 2;
    }
}
