/* xoshiro256** seeded through splitmix64: see include/combatd/rng.h for the exact recipe. */
#include "combatd/rng.h"

uint64_t cbd_splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void cbd_rng_seed(cbd_rng *rng, uint64_t seed) {
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        rng->s[i] = cbd_splitmix64_next(&z);
    }
}

void cbd_rng_jump(cbd_rng *rng) {
    /* The reference jump polynomial of xoshiro256 (equivalent to 2^128 calls of next()). */
    static const uint64_t jump[] = {UINT64_C(0x180ec6d33cfd0aba), UINT64_C(0xd5a61266f0c9392c),
                                    UINT64_C(0xa9582618e03fc9aa), UINT64_C(0x39abdc4529b1661c)};
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int i = 0; i < 4; i++) {
        for (int b = 0; b < 64; b++) {
            if (jump[i] & (UINT64_C(1) << b)) {
                s0 ^= rng->s[0];
                s1 ^= rng->s[1];
                s2 ^= rng->s[2];
                s3 ^= rng->s[3];
            }
            (void)cbd_rng_next(rng);
        }
    }
    rng->s[0] = s0;
    rng->s[1] = s1;
    rng->s[2] = s2;
    rng->s[3] = s3;
}
