/* The generator behind /simulate: xoshiro256** seeded by splitmix64 (include/combatd/rng.h). */
#include <criterion/criterion.h>

#include "combatd/rng.h"

/* splitmix64 from state 0: the reference implementation's first four outputs
 * (also checked against an independent Python transcription of splitmix64.c). */
Test(rng, splitmix64_reference_outputs) {
    uint64_t z = 0;
    cr_expect_eq(cbd_splitmix64_next(&z), UINT64_C(0xe220a8397b1dcdaf));
    cr_expect_eq(cbd_splitmix64_next(&z), UINT64_C(0x6e789e6aa1b965f4));
    cr_expect_eq(cbd_splitmix64_next(&z), UINT64_C(0x06c45d188009454f));
    cr_expect_eq(cbd_splitmix64_next(&z), UINT64_C(0xf88bb8a8724c81ec));
}

/* Seeding puts four successive splitmix64 outputs into the state. */
Test(rng, seed_is_four_splitmix64_outputs) {
    cbd_rng r;
    cbd_rng_seed(&r, 0);
    cr_expect_eq(r.s[0], UINT64_C(0xe220a8397b1dcdaf));
    cr_expect_eq(r.s[1], UINT64_C(0x6e789e6aa1b965f4));
    cr_expect_eq(r.s[2], UINT64_C(0x06c45d188009454f));
    cr_expect_eq(r.s[3], UINT64_C(0xf88bb8a8724c81ec));
}

/* xoshiro256** from the state {1, 2, 3, 4}: the published first outputs. By hand, the first is
 * rotl(2·5, 7)·9 = 1280·9 = 11520; the step sets s[2] = 3^1 = 2, s[3] = 4^2 = 6,
 * s[1] = 2^2 = 0, so the second is rotl(0·5, 7)·9 = 0. */
Test(rng, xoshiro256starstar_reference_outputs) {
    cbd_rng r = {{1, 2, 3, 4}};
    cr_expect_eq(cbd_rng_next(&r), UINT64_C(11520));
    cr_expect_eq(cbd_rng_next(&r), UINT64_C(0));
    cr_expect_eq(cbd_rng_next(&r), UINT64_C(1509978240));
    cr_expect_eq(cbd_rng_next(&r), UINT64_C(1215971899390074240));
}

/* jump() = 2^128 steps. Expected state computed independently in Python by raising the
 * 256×256 GF(2) transition matrix of xoshiro256 to the power 2^128 (128 squarings) and
 * applying it to {1, 2, 3, 4}. */
Test(rng, jump_is_two_to_the_128_steps) {
    cbd_rng r = {{1, 2, 3, 4}};
    cbd_rng_jump(&r);
    cr_expect_eq(r.s[0], UINT64_C(0x8c7a153956b5f3d1));
    cr_expect_eq(r.s[1], UINT64_C(0x701f1a713401d85e));
    cr_expect_eq(r.s[2], UINT64_C(0x6527f66a65469085));
    cr_expect_eq(r.s[3], UINT64_C(0x8386b786c4408050));
}

/* Doubles are (x >> 11)·2^-53: from {1, 2, 3, 4} the first output 11520 gives 11520 >> 11 = 5,
 * so 5·2^-53. */
Test(rng, double_uses_top_53_bits) {
    cbd_rng r = {{1, 2, 3, 4}};
    cr_expect_eq(cbd_rng_double(&r), 5.0 * 0x1.0p-53);
    cr_expect_eq(cbd_rng_double(&r), 0.0);
    cbd_rng_seed(&r, 99);
    for (int i = 0; i < 100000; i++) {
        double d = cbd_rng_double(&r);
        cr_assert(d >= 0.0 && d < 1.0);
    }
}

/* Lemire: the answer is the high word of next()·bound. From {1, 2, 3, 4} with bound 2^63 the
 * first output 11520 gives 11520·2^63 / 2^64 = 5760; the low word is 0, and the rejection
 * threshold (2^64 − 2^63) mod 2^63 is 0, so it is accepted. */
Test(rng, bounded_is_high_word_of_product) {
    cbd_rng r = {{1, 2, 3, 4}};
    cr_expect_eq(cbd_rng_bounded(&r, UINT64_C(1) << 63), UINT64_C(5760));
    cbd_rng_seed(&r, 5);
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(cbd_rng_bounded(&r, 1), 0u);
    }
}

/* Bounded draws are uniform: chi-square over 7 cells (df 6, 0.1 % critical value 22.46). */
Test(rng, bounded_is_uniform) {
    cbd_rng r;
    cbd_rng_seed(&r, 2024);
    uint64_t counts[7] = {0};
    const int n = 700000;
    for (int i = 0; i < n; i++) {
        uint64_t v = cbd_rng_bounded(&r, 7);
        cr_assert_lt(v, 7u);
        counts[v]++;
    }
    double chi2 = 0;
    for (int k = 0; k < 7; k++) {
        double d = (double)counts[k] - n / 7.0;
        chi2 += d * d / (n / 7.0);
    }
    cr_expect_lt(chi2, 22.46, "chi2 = %f", chi2);
}

/* A bound that is not a power of two and close to 2^64 rejects often; every result stays below
 * the bound. 10^12 is the bound used by weighted rounding (W2). */
Test(rng, bounded_large_bounds_stay_in_range) {
    cbd_rng r;
    cbd_rng_seed(&r, 77);
    const uint64_t big = (UINT64_C(1) << 63) + 12345;
    for (int i = 0; i < 10000; i++) {
        cr_assert_lt(cbd_rng_bounded(&r, big), big);
        cr_assert_lt(cbd_rng_bounded(&r, UINT64_C(1000000000000)), UINT64_C(1000000000000));
    }
}

/* Same seed, same stream; a jumped stream differs from its origin. */
Test(rng, same_seed_same_stream) {
    cbd_rng a, b;
    cbd_rng_seed(&a, 123456789);
    cbd_rng_seed(&b, 123456789);
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(cbd_rng_next(&a), cbd_rng_next(&b));
    }
    cbd_rng_jump(&b);
    cr_expect_neq(cbd_rng_next(&a), cbd_rng_next(&b));
}
