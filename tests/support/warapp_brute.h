#ifndef COMBATD_TEST_WARAPP_BRUTE_H
#define COMBATD_TEST_WARAPP_BRUTE_H

/*
 * A brute force of one War.app battle written from the rules' text, sharing no code with the
 * core: every roll X with its binomial probability (the product formula, in long double), the
 * blend and both roundings (W1, W2) in exact integers, and W19's damage order walked unit by
 * unit. Header-only, for the core tests that check the exact analyses against it
 * (test_warapp_units.c, test_warapp_fog.c).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "combatd/warapp_units.h"

#define BF_MAX_DAMAGE 256

typedef struct {
    long double p[BF_MAX_DAMAGE + 1]; /* P(damage = k) */
} bf_dist;

/* W1, W2: the damage of `power` rolls at rate/luck (millionths), by enumerating every roll X
 * with its binomial probability, built by the product formula in long double. */
static inline void bf_damage(uint64_t power, cbd_micro rate, cbd_micro luck, cbd_rounding r,
                             bf_dist *out) {
    memset(out, 0, sizeof *out);
    long double p = rate / 1e6L, q = 1.0L - p;
    for (uint64_t x = 0; x <= power; x++) {
        long double c = 1.0L;
        for (uint64_t i = 0; i < x; i++) {
            c = c * (long double)(power - i) / (long double)(i + 1);
        }
        long double px = c * powl(p, (long double)x) * powl(q, (long double)(power - x));
        if (px == 0.0L) {
            continue;
        }
        /* v·10^12 = L·X·10^6 + (10^6 − L)·n·p, exact in 128 bits. */
        __extension__ unsigned __int128 v = (unsigned __int128)luck * x * 1000000u +
                                            (unsigned __int128)(1000000u - luck) * power * rate;
        uint64_t whole = (uint64_t)(v / 1000000000000u), frac = (uint64_t)(v % 1000000000000u);
        if (r == CBD_ROUND_STRAIGHT) {
            out->p[whole + (frac >= 500000000000u ? 1 : 0)] += px;
        } else {
            long double up = frac / 1e12L;
            out->p[whole] += px * (1.0L - up);
            if (frac) {
                out->p[whole + 1] += px * up;
            }
        }
    }
}

/* W19, written again from the text: who takes the damage, in which order. */
static inline uint64_t bf_take(const cbd_warapp_side *s, uint64_t damage, uint64_t *left) {
    bool done[CBD_WARAPP_MAX_UNITS] = {false};
    for (size_t i = 0; i < s->n_units; i++) {
        left[i] = s->units[i].has_health ? s->units[i].toughness : 1;
    }
    uint64_t armies = s->armies;
    bool armies_done = false;
    for (;;) {
        /* The next to take damage: the unit of lowest order not yet done (negative ones before
         * the armies), ties by listed position. */
        size_t next = SIZE_MAX;
        for (size_t i = 0; i < s->n_units; i++) {
            if (!done[i] &&
                (next == SIZE_MAX || s->units[i].combat_order < s->units[next].combat_order)) {
                next = i;
            }
        }
        if (!armies_done && (next == SIZE_MAX || s->units[next].combat_order >= 0)) {
            uint64_t k = damage < armies ? damage : armies;
            armies -= k;
            damage -= k;
            armies_done = true;
            continue;
        }
        if (next == SIZE_MAX) {
            return armies;
        }
        done[next] = true;
        const cbd_warapp_unit *u = &s->units[next];
        if (u->has_health) {
            uint64_t k = damage < left[next] ? damage : left[next];
            left[next] -= k;
            damage -= k;
        } else if (damage >= u->toughness) {
            left[next] = 0;
            damage -= u->toughness;
        } else {
            damage = 0;
        }
    }
}

static inline bool bf_empty(const cbd_warapp_side *s, uint64_t armies, const uint64_t *left) {
    for (size_t i = 0; i < s->n_units; i++) {
        if (left[i]) {
            return false;
        }
    }
    return armies == 0;
}

#endif
