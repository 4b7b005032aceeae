/*
 * The exact odds core against an independent brute-force enumeration.
 *
 * For every attacker count A and defender count D up to 40, the test enumerates every roll
 * combination: each side's number of successful rolls X with its exact probability
 * C(n, x)·a^x·b^(n−x) / den^n (the rate a/den in lowest terms, b = den − a), as big integers,
 * and each weighted-random rounding branch with its exact weight frac / 10^12 (W2). Only the
 * final quotient is rounded (to long double). It then plays every pair of outcomes through W4–W6
 * as written here (not through the core) and compares capture, mutual destruction, both survivor
 * distributions and `deterministic` with cbd_warapp_analyze, to 1e-12.
 *
 * It shares no code with the core: no binomial window, no blend function, no resolve.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "combatd/warapp_odds.h"

__extension__ typedef unsigned __int128 u128;

#define MAXN     40
#define NLIMBS   32 /* 1024 bits; the largest number is 10^(6·40)·10^12 < 2^840 */
#define FRAC_ONE UINT64_C(1000000000000)

typedef struct {
    uint32_t l[NLIMBS];
} big;

static void big_set(big *b, uint64_t v) {
    memset(b, 0, sizeof *b);
    b->l[0] = (uint32_t)v;
    b->l[1] = (uint32_t)(v >> 32);
}

static void big_mul(big *b, uint64_t m) {
    u128 carry = 0;
    for (int i = 0; i < NLIMBS; i++) {
        carry += (u128)b->l[i] * m;
        b->l[i] = (uint32_t)carry;
        carry >>= 32;
    }
    cr_assert(carry == 0, "bignum overflow");
}

static void big_add(big *a, const big *b) {
    uint64_t c = 0;
    for (int i = 0; i < NLIMBS; i++) {
        c += (uint64_t)a->l[i] + b->l[i];
        a->l[i] = (uint32_t)c;
        c >>= 32;
    }
    cr_assert(c == 0, "bignum overflow");
}

static long double big_ld(const big *b) {
    long double r = 0.0L;
    for (int i = NLIMBS - 1; i >= 0; i--) {
        r = r * 4294967296.0L + (long double)b->l[i];
    }
    return r;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* One side's kills for n armies: exact probabilities per kill value, as long doubles. */
typedef struct {
    long double p[2 * MAXN + 2]; /* p[k] = P(kills = k) */
} side;

static void brute_side(uint64_t n, uint64_t rate, uint64_t luck, bool weighted, side *out) {
    memset(out, 0, sizeof *out);
    uint64_t g = gcd(rate, 1000000);
    uint64_t a = rate / g, den = 1000000 / g, b = den - a;
    big num[2 * MAXN + 2];
    for (size_t k = 0; k < 2 * MAXN + 2; k++) {
        big_set(&num[k], 0);
    }
    uint64_t choose = 1; /* C(n, x), exact in 64 bits for n <= 40 */
    for (uint64_t x = 0; x <= n; x++) {
        if (x > 0) {
            choose = choose * (n - x + 1) / x;
        }
        big w;
        big_set(&w, choose);
        for (uint64_t i = 0; i < x; i++) {
            big_mul(&w, a);
        }
        for (uint64_t i = 0; i < n - x; i++) {
            big_mul(&w, b);
        }
        /* W1: v = L·x + (1 − L)·n·p, exactly, in units of 10^-12 (L, p in millionths). */
        u128 v12 = (u128)luck * x * 1000000 + (u128)(1000000 - luck) * n * rate;
        uint64_t whole = (uint64_t)(v12 / FRAC_ONE), frac = (uint64_t)(v12 % FRAC_ONE);
        if (!weighted) {
            /* W2 straight round: .5 goes up. */
            uint64_t k = whole + (2 * frac >= FRAC_ONE ? 1 : 0);
            big t = w;
            big_mul(&t, FRAC_ONE);
            big_add(&num[k], &t);
        } else {
            big down = w, up = w;
            big_mul(&down, FRAC_ONE - frac);
            big_mul(&up, frac);
            big_add(&num[whole], &down);
            big_add(&num[whole + 1], &up);
        }
    }
    big total;
    big_set(&total, FRAC_ONE);
    for (uint64_t i = 0; i < n; i++) {
        big_mul(&total, den);
    }
    long double t = big_ld(&total);
    for (size_t k = 0; k < 2 * MAXN + 2; k++) {
        out->p[k] = big_ld(&num[k]) / t;
    }
}

typedef struct {
    uint32_t offense, defense, luck;
    bool weighted;
} config;

static double core_p(const cbd_windows *d, uint64_t v) {
    return cbd_windows_p(d, v);
}

static void check_all(const config *c) {
    static side att[MAXN + 1], def[MAXN + 1];
    for (uint64_t n = 0; n <= MAXN; n++) {
        brute_side(n, c->offense, c->luck, c->weighted, &att[n]);
        brute_side(n, c->defense, c->luck, c->weighted, &def[n]);
    }
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.offense_kill_rate = c->offense;
    s.defense_kill_rate = c->defense;
    s.luck_modifier = c->luck;
    s.rounding = c->weighted ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;

    for (uint64_t A = 1; A <= MAXN; A++) {
        for (uint64_t D = 0; D <= MAXN; D++) {
            long double capture = 0, mutual = 0, aleft[MAXN + 1] = {0}, dleft[MAXN + 1] = {0};
            for (uint64_t ka = 0; ka < 2 * MAXN + 2; ka++) {
                if (att[A].p[ka] == 0) {
                    continue;
                }
                for (uint64_t kd = 0; kd < 2 * MAXN + 2; kd++) {
                    long double p = att[A].p[ka] * def[D].p[kd];
                    if (p == 0) {
                        continue;
                    }
                    /* W4: kills capped at the other side's armies. */
                    uint64_t dl = D - (ka < D ? ka : D);
                    uint64_t al = A - (kd < A ? kd : A);
                    /* W5: captured iff no defender and some attacker is left; if neither
                     * side is left, one defender is resurrected. */
                    if (dl == 0 && al > 0) {
                        capture += p;
                    }
                    if (dl == 0 && al == 0) {
                        mutual += p;
                        dl = 1;
                    }
                    aleft[al] += p;
                    dleft[dl] += p;
                }
            }
            cbd_warapp_analysis an;
            cr_assert_eq(cbd_warapp_analyze(A, D, &s, NULL, &an), CBD_OK);
            cr_assert_float_eq(an.capture_probability, (double)capture, 1e-12, "A=%lu D=%lu",
                               (unsigned long)A, (unsigned long)D);
            cr_assert_float_eq(an.mutual_destruction_probability, (double)mutual, 1e-12,
                               "A=%lu D=%lu", (unsigned long)A, (unsigned long)D);
            int a_points = 0, d_points = 0;
            uint64_t a_only = 0, d_only = 0;
            double a_sum = 0, d_sum = 0;
            for (uint64_t v = 0; v <= MAXN; v++) {
                cr_assert_float_eq(core_p(&an.attackers_left, v), (double)aleft[v], 1e-12,
                                   "attackers_left=%lu A=%lu D=%lu", (unsigned long)v,
                                   (unsigned long)A, (unsigned long)D);
                cr_assert_float_eq(core_p(&an.defenders_left, v), (double)dleft[v], 1e-12,
                                   "defenders_left=%lu A=%lu D=%lu", (unsigned long)v,
                                   (unsigned long)A, (unsigned long)D);
                a_sum += core_p(&an.attackers_left, v);
                d_sum += core_p(&an.defenders_left, v);
                if (aleft[v] > 0) {
                    a_points++;
                    a_only = v;
                }
                if (dleft[v] > 0) {
                    d_points++;
                    d_only = v;
                }
            }
            cr_assert_float_eq(a_sum, 1.0, 1e-12);
            cr_assert_float_eq(d_sum, 1.0, 1e-12);
            bool det = a_points == 1 && d_points == 1;
            cr_assert_eq(an.deterministic, det, "A=%lu D=%lu", (unsigned long)A, (unsigned long)D);
            if (det) {
                cr_assert_eq(an.outcome.captured, d_only == 0);
                cr_assert_eq(an.outcome.attackers_left, a_only);
                cr_assert_eq(an.outcome.defenders_left, d_only);
                cr_assert_eq(an.outcome.attackers_lost, A - a_only);
                cr_assert_eq(an.outcome.defenders_lost, D - d_only);
            }
            cbd_warapp_analysis_free(&an);
        }
    }
}

/* 0 %, 16 %, 50 %, 75 %, 100 % luck, both rounding modes, the default and other kill rates. */
ParameterizedTestParameters(bruteforce, all_battles_up_to_40) {
    static config params[4 * 5 * 2];
    static const uint32_t rates[4][2] = {
        {600000, 700000}, /* W9 defaults */
        {550000, 850000},
        {123457, 999999}, /* 6-place decimals, a near-certain defense */
        {1000000, 0},     /* certain rolls: X is fixed, only rounding can vary */
    };
    static const uint32_t lucks[5] = {0, 160000, 500000, 750000, 1000000};
    size_t n = 0;
    for (int r = 0; r < 4; r++) {
        for (int l = 0; l < 5; l++) {
            for (int w = 0; w < 2; w++) {
                params[n++] = (config){rates[r][0], rates[r][1], lucks[l], w == 1};
            }
        }
    }
    return cr_make_param_array(config, params, n);
}

ParameterizedTest(config *c, bruteforce, all_battles_up_to_40) {
    check_all(c);
}
