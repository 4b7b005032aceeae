/*
 * A fast "%.15g" for JSON reals (see json_real.h). A profile put glibc's printf_fp at about
 * 100-150 ns per real; the integer path below takes a small fraction of that.
 *
 * Why the fast path is exact. A finite nonzero double is v = m * 2^e with m a 53-bit integer.
 * Its 15 significant digits, for decimal exponent E = floor(log10 v), are v * 10^k rounded to an
 * integer, with k = 14 - E; and v * 10^k = m * 5^k * 2^(e + k). We only take 0 <= k <= 32
 * (about 1e-18 <= v < 1e15), where P = m * 5^k < 2^53 * 2^75 = 2^128 is computed exactly in
 * unsigned __int128, and where e + k < 0, so v * 10^k = P / 2^s with s = -(e + k) between 3 and
 * 80. Then P >> s is the exact integer part and P mod 2^s the exact remainder, compared with
 * 2^(s-1) exactly: the rounding (to nearest, ties to even, as glibc's printf does in the default
 * rounding mode) is decided with no error at all, so neither near-ties (0.15 and friends) nor
 * exact ties (x.5 at the 16th digit) need a fallback. Everything outside that range, and any
 * rounding mode other than to-nearest (glibc's printf honours it), goes through snprintf.
 */
#include "json_real.h"

#include <fenv.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128; /* __extension__: -Wpedantic knows no __int128 */

enum {
    SIG_DIGITS = 15,  /* the precision of "%.15g" */
    MAX_K = 32,       /* 5^32 < 2^75, so m * 5^k fits in 128 bits */
    POW5_U64_MAX = 27 /* 5^27 is the largest power of five below 2^64 */
};

static const uint64_t POW10_15 = 1000000000000000u;

static const uint64_t POW5[POW5_U64_MAX + 1] = {1u,
                                                5u,
                                                25u,
                                                125u,
                                                625u,
                                                3125u,
                                                15625u,
                                                78125u,
                                                390625u,
                                                1953125u,
                                                9765625u,
                                                48828125u,
                                                244140625u,
                                                1220703125u,
                                                6103515625u,
                                                30517578125u,
                                                152587890625u,
                                                762939453125u,
                                                3814697265625u,
                                                19073486328125u,
                                                95367431640625u,
                                                476837158203125u,
                                                2384185791015625u,
                                                11920928955078125u,
                                                59604644775390625u,
                                                298023223876953125u,
                                                1490116119384765625u,
                                                7450580596923828125u};

/* v rounded to 15 significant digits: digits * 10^(exp10 - 14), 10^14 <= digits < 10^15. */
typedef struct {
    uint64_t digits;
    int exp10;
} decimal15;

/* The slow path, and the reference: snprintf, then jansson's touches (see json_real.h). */
static size_t format_slow(double v, char *out) {
    int n = snprintf(out, CBD_JSON_REAL_MAX, "%.15g", v);
    if (n < 0 || n + 3 > CBD_JSON_REAL_MAX) { /* cannot happen: a finite double takes <= 23 */
        out[0] = '\0';
        return 0;
    }
    char *e = strchr(out, 'e');
    if (!e) {
        if (!strchr(out, '.')) {
            memcpy(out + n, ".0", 3);
            n += 2;
        }
        return (size_t)n;
    }
    char *dst = e + 1;
    const char *src = e + 1;
    if (*src == '-') {
        dst++;
    }
    src += (*src == '-' || *src == '+');
    while (*src == '0' && src[1] != '\0') { /* keep at least one digit */
        src++;
    }
    memmove(dst, src, strlen(src) + 1);
    return strlen(out);
}

/* m * 5^k, exact: m < 2^53 and 5^k < 2^75 for k <= MAX_K. */
static u128 times_pow5(uint64_t m, int k) {
    if (k <= POW5_U64_MAX) {
        return (u128)m * POW5[k];
    }
    return (u128)m * POW5[POW5_U64_MAX] * POW5[k - POW5_U64_MAX];
}

/* floor(log10(2^e2)) for |e2| < 1650: 78913 / 2^18 is log10(2) to enough places. gcc's >> of
 * a negative int is an arithmetic shift, so this is a floor for negative e2 too. */
static int floor_log10_pow2(int e2) {
    return (e2 * 78913) >> 18;
}

/* Rounds m * 2^e * 10^k to the nearest integer, ties to even; false when the shift is outside
 * the range the exactness argument covers (never, for the k the caller passes). */
static bool round_scaled(uint64_t m, int e, int k, uint64_t *out) {
    int s = -(e + k);
    if (k < 0 || k > MAX_K || s < 1 || s > 120) {
        return false;
    }
    u128 p = times_pow5(m, k);
    u128 q = p >> s;
    u128 rem = p - (q << s);
    u128 half = (u128)1 << (s - 1);
    if (rem > half || (rem == half && (q & 1u))) {
        q++;
    }
    *out = (uint64_t)q; /* q <= 10^16: see to_decimal15 */
    return true;
}

/* The 15 significant digits of m * 2^e (2^52 <= m < 2^53), or false outside the fast range. */
static bool to_decimal15(uint64_t m, int e, decimal15 *d) {
    /* floor(log10 v) is guess or guess + 1, since v lies in [2^(e+52), 2^(e+53)). */
    int guess = floor_log10_pow2(e + 52);
    int k = SIG_DIGITS - 1 - guess;
    uint64_t n = 0;
    if (!round_scaled(m, e, k, &n)) {
        return false;
    }
    /* Reaching 10^15 means either v * 10^k >= 10^15 (the guess was one low) or v * 10^k rounds
     * up to 10^15 (999999999999999.5 at some scale): either way the exponent is one more, and v
     * itself, rounded once at k - 1, gives the digits (rounding n again would round twice). That
     * cannot carry again: a low guess means v < 2^(e+53) <= 2 * 10^(guess+1), far below the next
     * power of ten, and 10^15 - 1/2 <= v * 10^k < 10^15 rounds at k - 1 to 10^14. */
    if (n >= POW10_15) {
        k--;
        if (!round_scaled(m, e, k, &n) || n >= POW10_15) { /* the second never happens */
            return false;
        }
    }
    d->digits = n;
    d->exp10 = SIG_DIGITS - 1 - k;
    return true;
}

/*
 * The layout works on the 15 digits as one 128-bit value whose byte i is digit i (x86-64 is
 * little-endian, so storing it writes the digits in reading order). Building the digits with
 * a few independent multiplications, and placing them with fixed-size stores, keeps this free
 * of division chains and of byte-by-byte loops.
 */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "json_real.c lays digits out as little-endian words"
#endif

static const uint64_t ASCII_ZEROS = 0x3030303030303030u; /* '0' in every byte */

/* The eight decimal digits of x < 10^8, one per byte as a value 0..9, the first digit in the
 * lowest byte. x is split into 4-digit halves (32-bit lanes), then 2-digit quarters (16-bit
 * lanes), then digits (bytes), each step dividing all lanes at once: x * 10486 >> 20 is x / 100
 * for x < 10^4 and x * 103 >> 10 is x / 10 for x < 100 (both checked exhaustively), and no lane's
 * product reaches into the next lane's bits. */
static uint64_t digits8(uint32_t x) {
    uint64_t v = x / 10000u | (uint64_t)(x % 10000u) << 32;
    uint64_t q = ((v * 10486u) >> 20) & 0x0000007f0000007fu;
    v = q | (v - q * 100u) << 16;
    q = ((v * 103u) >> 10) & 0x000f000f000f000fu;
    return q | (v - q * 10u) << 8;
}

/* The 15 digits of 10^14 <= n < 10^15 as bytes 0..14 (values 0..9); byte 15 is zero. */
static u128 digits15(uint64_t n) {
    uint64_t head = digits8((uint32_t)(n / 10000000u));      /* 8 digits, the first nonzero */
    uint64_t tail = digits8((uint32_t)(n % 10000000u)) >> 8; /* 7 digits: drop a leading 0 */
    return (u128)tail << 64 | head;
}

/* How many digits remain once trailing zeros go: up to the last nonzero byte. */
static int significant_digits(u128 digits) {
    uint64_t tail = (uint64_t)(digits >> 64);
    if (tail != 0) {
        return 8 + (64 - __builtin_clzll(tail) + 7) / 8;
    }
    return (64 - __builtin_clzll((uint64_t)digits) + 7) / 8; /* the first digit is nonzero */
}

/* Writes text (16 characters) with a '.' after its first `whole` (1..15): 17 bytes. */
static void put_with_point(char *p, u128 text, int whole) {
    u128 low = ((u128)1 << (8 * whole)) - 1;
    u128 spliced = (text & low) | (u128)'.' << (8 * whole) | (text & ~low) << 8;
    memcpy(p, &spliced, sizeof spliced);
    p[16] = (char)(text >> 120); /* the last character, shifted out of the 16 */
}

/* "%.15g" fixed notation (-4 <= exp10 < 15) with jansson's ".0": "0.00123", "12.5", "7.0".
 * text is the 15 digits and a '0'; nd of the digits are significant. */
static char *put_fixed(char *p, u128 text, int nd, int exp10) {
    if (exp10 < 0) {
        int zeros = -exp10 - 1; /* 0..3 */
        memcpy(p, "0.000", 5);
        memcpy(p + 2 + zeros, &text, sizeof text);
        return p + 2 + zeros + nd;
    }
    int whole = exp10 + 1;
    put_with_point(p, text, whole);
    /* With no fraction left, the character after the point is a '0' (a trailing zero digit,
     * or the 16th character), which is jansson's ".0". */
    return p + whole + 1 + (nd > whole ? nd - whole : 1);
}

/* "%.15g" exponent notation with jansson's exponent: "1e-5", "1.5e100", "2.5e-7". */
static char *put_exponent(char *p, u128 text, int nd, int exp10) {
    put_with_point(p, text, 1);
    p += nd > 1 ? nd + 1 : 1; /* no point for a single digit */
    *p++ = 'e';
    if (exp10 < 0) {
        *p++ = '-';
    }
    unsigned mag = (unsigned)(exp10 < 0 ? -exp10 : exp10);
    if (mag >= 100) {
        *p++ = (char)('0' + mag / 100u);
    }
    if (mag >= 10) {
        *p++ = (char)('0' + mag / 10u % 10u);
    }
    *p++ = (char)('0' + mag % 10u);
    return p;
}

/* Lays out d as "%.15g" does: trailing zeros go, and the style follows the decimal exponent
 * after rounding (999999999999999.5 is 1e15). Writes at most 23 bytes. */
static size_t format_decimal(bool negative, const decimal15 *d, char *out) {
    u128 digits = digits15(d->digits);
    int nd = significant_digits(digits);
    u128 text = digits + ((u128)ASCII_ZEROS << 64 | ASCII_ZEROS); /* byte 15 becomes '0' */
    char *p = out;
    if (negative) {
        *p++ = '-';
    }
    if (d->exp10 >= -4 && d->exp10 < SIG_DIGITS) {
        p = put_fixed(p, text, nd, d->exp10);
    } else {
        p = put_exponent(p, text, nd, d->exp10);
    }
    *p = '\0';
    return (size_t)(p - out);
}

size_t cbd_json_real(double v, char out[CBD_JSON_REAL_MAX]) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bool negative = bits >> 63;
    uint64_t biased = (bits >> 52) & 0x7ffu;
    uint64_t fraction = bits & ((UINT64_C(1) << 52) - 1);
    if (biased == 0 && fraction == 0) { /* "%.15g" gives "0" or "-0" */
        const char *zero = negative ? "-0.0" : "0.0";
        memcpy(out, zero, strlen(zero) + 1);
        return strlen(zero);
    }
    /* Subnormals, infinities and NaNs are all far outside the fast range. */
    if (biased == 0 || biased == 0x7ffu || fegetround() != FE_TONEAREST) {
        return format_slow(v, out);
    }
    decimal15 d;
    if (!to_decimal15(fraction | (UINT64_C(1) << 52), (int)biased - 1075, &d)) {
        return format_slow(v, out);
    }
    return format_decimal(negative, &d, out);
}

size_t cbd_json_real_exact(double v, char out[CBD_JSON_REAL_MAX]) {
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(out, CBD_JSON_REAL_MAX, "%.*g", digits, v);
        if (strtod(out, NULL) == v) {
            break;
        }
    }
    if (!strpbrk(out, ".e")) {
        strcat(out, ".0");
    }
    return strlen(out);
}
