#ifndef COMBATD_BINOMIAL_H
#define COMBATD_BINOMIAL_H

#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/decimal.h"
#include "combatd/status.h"

/*
 * The binomial pmf over the window of outcomes that carry mass: X ~ Binomial(n, p) with p an
 * exact decimal in millionths (W3). Only the window is allocated, never n + 1 doubles, so n may
 * be as large as 10^9 (the window is then about 3·10^5 values wide).
 *
 * Method (CONVENTIONS.md): Catherine Loader's saddle-point formula ("Fast and accurate
 * computation of binomial probabilities", 2000; R's dbinom) gives the pmf at the mode without
 * overflow or cancellation; the ratio recurrence f(k+1) = f(k)·(n−k)/(k+1)·p/q then walks
 * outwards in both directions and stops once a term falls below CBD_BINOM_CUTOFF of the peak.
 * Nothing underflows: the smallest term kept is ~1e-18 of a peak that is at least ~1/(3σ).
 *
 * The window is renormalised to sum to 1. The mass left outside it is below ~1e-17 (the tail
 * terms fall geometrically beyond the cut-off), so renormalising changes every kept value by a
 * relative ~1e-17 and makes sums over the window exact to rounding (~1e-15 even at n = 10^9).
 * `raw_mass` keeps the sum before renormalising: it is within ~1e-12 of 1 and is a check of
 * the saddle-point peak and the recurrence.
 */
#define CBD_BINOM_CUTOFF 1e-18

typedef struct {
    uint64_t lo;     /* the first value held: pmf[i] = P(X = lo + i) */
    size_t len;      /* at least 1 */
    double *pmf;     /* from the budget (cbd_mem_*), len values; free with cbd_binom_window_free */
    double raw_mass; /* the window's sum before renormalising */
} cbd_binom_window;

/* The window for n trials at success probability p (millionths). Charges `budget` for every
 * term it has room for (CBD_WORK_BINOM_TERM each) before computing them. */
cbd_status cbd_binom_window_compute(uint64_t n, cbd_micro p, cbd_budget *budget,
                                    cbd_binom_window *out);

void cbd_binom_window_free(cbd_binom_window *w);

/* Loader's saddle-point pmf P(X = k) for k <= n, with p + q = 1 given as doubles. */
double cbd_binom_pmf(uint64_t k, uint64_t n, double p, double q);

#endif
