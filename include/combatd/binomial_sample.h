#ifndef COMBATD_BINOMIAL_SAMPLE_H
#define COMBATD_BINOMIAL_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "combatd/decimal.h"
#include "combatd/rng.h"

/*
 * Exact Binomial(n, p) variates (W1: one independent roll per army, summed), never a normal
 * approximation. The sampler works on p' = min(p, 1 − p) and returns n − X' when it flipped.
 *   - n·p' < 10: inversion (sequential search from 0, Kachitvichyanukul & Schmeiser's BINV),
 *     one uniform double per try; at most ~11 steps on average, whatever n is.
 *   - n·p' >= 10: BTRS, transformed rejection with squeeze (Hörmann 1993, "The generation of
 *     binomial random variates", as in TensorFlow and JAX), two uniform doubles per try,
 *     about 1.15 tries on average, whatever n is.
 * Both are exact algorithms: the only departures from Binomial(n, p) are floating-point
 * rounding (p is the double nearest the exact millionths; uniforms have 53 bits) and, for
 * inversion, a restart past 110 that truncates a tail below 1e-60.
 * The set-up (logs, square roots) is done once per (n, p) in cbd_binomial_init, so a battle
 * pays only for the draws.
 */
typedef enum {
    CBD_BINOMIAL_CONSTANT = 0, /* n = 0, or p' = 0: the answer is fixed */
    CBD_BINOMIAL_INVERSION = 1,
    CBD_BINOMIAL_BTRS = 2,
} cbd_binomial_method;

typedef struct {
    uint64_t n;
    bool flip; /* p > 1/2: the draw is n − X' */
    cbd_binomial_method method;
    double p; /* p' = min(p, 1 − p) */
    /* inversion */
    double q_pow_n; /* (1 − p')^n */
    double s;       /* p' / (1 − p') */
    double a;       /* (n + 1)·s */
    /* BTRS */
    double bt_a, bt_b, bt_c, bt_vr, bt_alpha, bt_r, bt_m, bt_logr, bt_const;
} cbd_binomial;

/* Prepares draws from Binomial(n, p_micro / 10^6), p_micro in [0, 10^6]. */
void cbd_binomial_init(cbd_binomial *b, uint64_t n, cbd_micro p_micro);

/* Prepares draws from Binomial(n, p) for a double p in [0, 1] (tests use it to skew p). */
void cbd_binomial_init_double(cbd_binomial *b, uint64_t n, double p);

/* One draw; consumes outputs of rng as described above (none for CONSTANT). */
uint64_t cbd_binomial_draw(const cbd_binomial *b, cbd_rng *rng);

#endif
