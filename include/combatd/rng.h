#ifndef COMBATD_RNG_H
#define COMBATD_RNG_H

#include <stdint.h>

/*
 * The random number generator of combatd: xoshiro256** 1.0 (Blackman & Vigna, 2018), seeded
 * through splitmix64. Each request owns its state; nothing random is global.
 *
 * Seeding, precisely (so that anyone can reproduce a result):
 *   splitmix64 state z = seed; for i in 0..3: s[i] = splitmix64_next(&z), where
 *     z += 0x9E3779B97F4A7C15; x = z;
 *     x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9;
 *     x = (x ^ (x >> 27)) * 0x94D049BB133111EB;
 *     return x ^ (x >> 31);
 *   (the reference splitmix64.c). The all-zero state cannot arise: splitmix64 is a bijection
 *   of successive distinct counters, and four successive outputs are never all zero.
 * Outputs: xoshiro256**'s next() (the reference xoshiro256starstar.c).
 * Doubles in [0, 1): (next() >> 11) * 2^-53.
 * Integers in [0, bound): Lemire's nearly divisionless method (2019) on next().
 * Streams: cbd_rng_jump advances by 2^128 outputs (the reference jump()).
 */
typedef struct {
    uint64_t s[4];
} cbd_rng;

/* Seeds the state from a 64-bit seed through splitmix64 as described above. */
void cbd_rng_seed(cbd_rng *rng, uint64_t seed);

/* One step of splitmix64 on *state (exposed for tests and for derived seeds). */
uint64_t cbd_splitmix64_next(uint64_t *state);

/* Advances the state by 2^128 outputs: the start of the next non-overlapping stream. */
void cbd_rng_jump(cbd_rng *rng);

static inline uint64_t cbd_rng_rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

/* The next 64-bit output of xoshiro256**. */
static inline uint64_t cbd_rng_next(cbd_rng *rng) {
    uint64_t *s = rng->s;
    const uint64_t result = cbd_rng_rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = cbd_rng_rotl(s[3], 45);
    return result;
}

/* A double uniform on [0, 1) with 53 random bits: (next() >> 11) * 2^-53. */
static inline double cbd_rng_double(cbd_rng *rng) {
    return (double)(cbd_rng_next(rng) >> 11) * 0x1.0p-53;
}

/*
 * An integer uniform on [0, bound), bound >= 1, exactly (no modulo bias): Lemire's method.
 * The product next()·bound is taken in 128 bits; its high word is the answer unless the low
 * word falls below (2^64 − bound) mod bound, in which case another output is drawn.
 */
static inline uint64_t cbd_rng_bounded(cbd_rng *rng, uint64_t bound) {
    __extension__ typedef unsigned __int128 u128;
    u128 m = (u128)cbd_rng_next(rng) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        const uint64_t threshold = (0 - bound) % bound;
        while (low < threshold) {
            m = (u128)cbd_rng_next(rng) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

#endif
