/*
 * cbd_json_real must print exactly what jansson's json_dumps(JSON_REAL_PRECISION(15)) prints:
 * "%.15g", ".0" when there is neither a '.' nor an exponent, and the exponent without '+' or
 * leading zeros. The reference below is written from that description, independently of both
 * json_real.c and json_write.c, and is compared over millions of doubles from generators aimed
 * at the fast path's edges: near-ties (k / 10^n), exact ties (dyadic values with a 5 as 16th
 * digit), powers of ten, integers, and all bit patterns including subnormals.
 *
 * COMBATD_JSON_REAL_SCALE (a positive number, default 1) scales the random counts, e.g. 0.2 for
 * a quick run; the seeds are fixed, so a failure reproduces.
 */
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "json/json_real.h"

/* The reference: the exponent is read back as an int and printed with %d, which is exactly
 * "no '+', no leading zeros, keep the '-'". */
static void reference(double v, char *out, size_t cap) {
    char raw[40]; /* "%.15g" of a double takes at most 23 */
    int n = snprintf(raw, sizeof raw, "%.15g", v);
    cr_assert(n > 0 && (size_t)n < sizeof raw);
    const char *e = strchr(raw, 'e');
    if (e != NULL) {
        int exponent = atoi(e + 1);
        snprintf(out, cap, "%.*se%d", (int)(e - raw), raw, exponent);
    } else if (strchr(raw, '.') != NULL) {
        snprintf(out, cap, "%s", raw);
    } else {
        snprintf(out, cap, "%s.0", raw);
    }
}

typedef struct {
    const char *name;
    size_t checked;
    size_t failed;
} checker;

static void check(checker *c, double v) {
    char want[64];
    reference(v, want, sizeof want);
    char got[CBD_JSON_REAL_MAX];
    size_t len = cbd_json_real(v, got);
    c->checked++;
    if (len < CBD_JSON_REAL_MAX && strcmp(got, want) == 0 && len == strlen(want)) {
        return;
    }
    if (++c->failed <= 20) { /* enough to see the pattern, not a flood */
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        cr_log_error("%s: bits 0x%016" PRIx64 " (%a): got \"%.*s\" (len %zu), want \"%s\"", c->name,
                     bits, v, CBD_JSON_REAL_MAX, got, len, want);
    }
}

static void expect_no_failures(const checker *c) {
    cr_assert_eq(c->failed, 0, "%s: %zu of %zu doubles differ from the reference", c->name,
                 c->failed, c->checked);
    cr_log_info("%s: %zu doubles match", c->name, c->checked);
}

/* splitmix64: tiny, fixed seed, good enough spread for test inputs. */
static uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *state, uint64_t bound) {
    return next_u64(state) % bound; /* the bias is irrelevant for test inputs */
}

static double from_bits(uint64_t bits) {
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static size_t scaled(size_t count) {
    const char *env = getenv("COMBATD_JSON_REAL_SCALE");
    double scale = env ? atof(env) : 1.0;
    if (!(scale > 0)) {
        scale = 1.0;
    }
    size_t n = (size_t)((double)count * scale);
    return n > 0 ? n : 1;
}

static const uint64_t POW10[] = {1u,
                                 10u,
                                 100u,
                                 1000u,
                                 10000u,
                                 100000u,
                                 1000000u,
                                 10000000u,
                                 100000000u,
                                 1000000000u,
                                 10000000000u,
                                 100000000000u,
                                 1000000000000u,
                                 10000000000000u,
                                 100000000000000u,
                                 1000000000000000u,
                                 10000000000000000u,
                                 100000000000000000u};

Test(json_real, hand_written_cases) {
    const struct {
        double v;
        const char *text;
    } cases[] = {
        {0.0, "0.0"},
        {-0.0, "-0.0"},
        {0.1, "0.1"},
        {0.5, "0.5"},
        {1.0, "1.0"},
        {-1.5, "-1.5"},
        {2.5, "2.5"},
        {6.0, "6.0"},
        {100.0, "100.0"},
        {0.6, "0.6"},
        {0.7, "0.7"},
        {0.15, "0.15"},
        {0.1 + 0.2, "0.3"},
        {1.0 / 3, "0.333333333333333"},
        {2.0 / 3, "0.666666666666667"},
        {0.9877054464, "0.9877054464"},
        {0.0122945536, "0.0122945536"},
        {12345.678, "12345.678"},
        {123.456, "123.456"},
        {0.0001, "0.0001"},
        {0.000123, "0.000123"},
        {0.00001234, "1.234e-5"},
        {1e-5, "1e-5"},
        {1e-7, "1e-7"},
        {-2.5e-7, "-2.5e-7"},
        {1e-12, "1e-12"},
        {1e12, "1000000000000.0"},
        {1e14, "100000000000000.0"},
        {123456789012345.0, "123456789012345.0"},
        {999999999999999.0, "999999999999999.0"},
        {999999999999999.5, "1e15"}, /* = 9.999999999999995e14, a tie that rounds up */
        {1e15, "1e15"},
        {1234567890123456.0, "1.23456789012346e15"},
        {9007199254740992.0, "9.00719925474099e15"},
        {123456789012345678.0, "1.23456789012346e17"},
        {1e16, "1e16"},
        {1e20, "1e20"},
        {6.02e23, "6.02e23"},
        {1e100, "1e100"},
        {1.5e100, "1.5e100"},
        {1e-100, "1e-100"},
        {-1e-300, "-1e-300"},
        {1.7976931348623157e308, "1.79769313486232e308"},
        {2.2250738585072014e-308, "2.2250738585072e-308"},
        {5e-324, "4.94065645841247e-324"},
        /* Exact ties at the 16th digit go to the even neighbour, as glibc does. */
        {0.5000152587890625, "0.500015258789062"},
        {12345678901234.25, "12345678901234.2"},
        {12345678901234.75, "12345678901234.8"},
        /* One ulp below a power of ten rounds up to it, and the style follows the rounded
         * exponent. */
        {nextafter(1e15, 0), "1e15"},
        {nextafter(1e-5, 0), "1e-5"},
        {nextafter(1e-4, 0), "0.0001"},
        {nextafter(0.001, 0), "0.001"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[CBD_JSON_REAL_MAX];
        size_t len = cbd_json_real(cases[i].v, got);
        cr_expect_str_eq(got, cases[i].text, "%a: got \"%s\", want \"%s\"", cases[i].v, got,
                         cases[i].text);
        cr_expect_eq(len, strlen(cases[i].text), "%a: length %zu", cases[i].v, len);
        /* The reference must agree with the literal text too, or it proves nothing. */
        char want[64];
        reference(cases[i].v, want, sizeof want);
        cr_expect_str_eq(want, cases[i].text, "reference for %a: \"%s\"", cases[i].v, want);
    }
}

/* Any finite bit pattern, both signs: almost all of them are far outside the fast range. */
Test(json_real, random_bit_patterns) {
    checker c = {"random bit patterns", 0, 0};
    uint64_t state = 1;
    for (size_t i = scaled(500000); i > 0; i--) {
        uint64_t bits = next_u64(&state);
        if (((bits >> 52) & 0x7ffu) == 0x7ffu) {
            continue; /* infinity or NaN */
        }
        check(&c, from_bits(bits));
    }
    for (size_t i = scaled(100000); i > 0; i--) { /* subnormals: biased exponent 0 */
        check(&c, from_bits(next_u64(&state) & 0x800fffffffffffffu));
    }
    expect_no_failures(&c);
}

/* Probabilities: uniform in [0, 1), and the same scaled down to small exponents. */
Test(json_real, uniform_unit_interval) {
    checker c = {"uniform [0,1)", 0, 0};
    uint64_t state = 2;
    for (size_t i = scaled(500000); i > 0; i--) {
        check(&c, (double)(next_u64(&state) >> 11) * 0x1p-53);
    }
    for (size_t i = scaled(100000); i > 0; i--) {
        double u = (double)(next_u64(&state) >> 11) * 0x1p-53;
        check(&c, -ldexp(u, -(int)below(&state, 70)));
    }
    expect_no_failures(&c);
}

/* k / 10^n is the nearest double to a short decimal, which sits next to a rounding boundary
 * whenever the decimal has 16 or more digits; strtod of a 16-digit decimal ending in 5 lands
 * within an ulp of a tie. */
Test(json_real, decimal_near_ties) {
    checker c = {"decimal near-ties", 0, 0};
    uint64_t state = 3;
    for (size_t i = scaled(400000); i > 0; i--) {
        uint64_t k = 1 + below(&state, POW10[1 + below(&state, 17)]);
        int n = (int)below(&state, 23);
        double v = (double)k / (double)POW10[n > 17 ? 17 : n];
        if (n > 17) {
            v /= (double)POW10[n - 17];
        }
        check(&c, v);
    }
    for (size_t i = scaled(150000); i > 0; i--) {
        char text[48];
        uint64_t digits = POW10[14] + below(&state, 9 * POW10[14]); /* 15 digits, then a 5 */
        snprintf(text, sizeof text, "%" PRIu64 "5e%d", digits, (int)below(&state, 56) - 40);
        check(&c, strtod(text, NULL));
    }
    expect_no_failures(&c);
}

/* Integers up to 2^53 of every size, and integers plus a half (ties once they have 15
 * digits). */
Test(json_real, integers) {
    checker c = {"integers", 0, 0};
    uint64_t state = 4;
    for (size_t i = scaled(300000); i > 0; i--) {
        uint64_t k = next_u64(&state) >> (11 + below(&state, 53));
        check(&c, (double)k);
        check(&c, (double)(k >> 2) + 0.5);
    }
    expect_no_failures(&c);
}

/* Dyadic values whose decimal expansion has exactly 16 significant digits end in 5, so each
 * is an exact tie at 15 digits: whole part of 16 - t digits plus an odd multiple of 2^-t, and
 * odd multiples of 2^-t below one with t - 16 leading zeros. */
Test(json_real, exact_ties) {
    checker c = {"exact ties", 0, 0};
    uint64_t state = 5;
    for (size_t i = scaled(100000); i > 0; i--) {
        int t = 1 + (int)below(&state, 15);
        uint64_t whole = POW10[15 - t] + below(&state, 9 * POW10[15 - t]);
        uint64_t odd = below(&state, UINT64_C(1) << (t - 1)) * 2 + 1;
        check(&c, ldexp((double)((whole << t) + odd), -t));
    }
    for (size_t i = scaled(100000); i > 0; i--) {
        int zeros = (int)below(&state, 8);
        int t = 16 + zeros;
        /* f / 2^t in [10^-(zeros+1), 10^-zeros): f from ceil(2^t / 10^(zeros+1)). */
        uint64_t lo = ((UINT64_C(1) << t) + POW10[zeros + 1] - 1) / POW10[zeros + 1];
        uint64_t hi = (UINT64_C(1) << t) / POW10[zeros];
        uint64_t f = (lo + below(&state, hi - lo)) | 1u;
        check(&c, ldexp((double)f, -t));
    }
    expect_no_failures(&c);
}

/* Around every power of ten, and around the 15-digit carry points 9.99999999999999(5)e p, a
 * few dozen ulps either way, both signs. */
Test(json_real, near_powers_of_ten) {
    checker c = {"near powers of ten", 0, 0};
    static const char *const mantissas[] = {"1", "9.999999999999995", "9.99999999999999", "5",
                                            "9.9999999999999949"};
    for (int p = -324; p <= 308; p++) {
        for (size_t m = 0; m < sizeof mantissas / sizeof mantissas[0]; m++) {
            char text[48];
            snprintf(text, sizeof text, "%se%d", mantissas[m], p);
            double center = strtod(text, NULL);
            if (center == 0 || isinf(center)) {
                continue;
            }
            double up = center, down = center;
            check(&c, center);
            check(&c, -center);
            for (int step = 0; step < 40; step++) {
                up = nextafter(up, INFINITY);
                down = nextafter(down, 0);
                check(&c, up);
                check(&c, down);
                check(&c, -up);
                check(&c, -down);
            }
        }
    }
    const double named[] = {1e15, 1e-5, 1e-4, 0.0001, 9.999999999999995e14, 1e-18, 1e-19};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        check(&c, named[i]);
        check(&c, nextafter(named[i], 0));
        check(&c, nextafter(named[i], INFINITY));
    }
    expect_no_failures(&c);
}

/* glibc's printf honours the rounding mode; the fast path assumes to-nearest, so it must step
 * aside under any other mode. */
Test(json_real, other_rounding_modes) {
    checker c = {"other rounding modes", 0, 0};
    const int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        uint64_t state = 6;
        cr_assert_eq(fesetround(modes[m]), 0);
        for (size_t i = scaled(20000); i > 0; i--) {
            double u = (double)(next_u64(&state) >> 11) * 0x1p-53;
            check(&c, u);
            check(&c, -u * 1e6);
        }
        check(&c, 0.1);
        check(&c, -2.0 / 3);
        fesetround(FE_TONEAREST);
    }
    expect_no_failures(&c);
}
