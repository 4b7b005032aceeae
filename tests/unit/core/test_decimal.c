/*
 * W3 and W46: cbd_units_from_double, the one reader of decimals for every endpoint, checked
 * against the decimals' texts read by strtod (the doubles a JSON parser gives) and stepped
 * with nextafter, an independent way to reach "a few units in the last place" away.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "combatd/decimal.h"

/* m / 10^places as the text a JSON writer gives, read as a JSON parser reads it. */
static double decimal(uint64_t m, unsigned places) {
    char text[40];
    uint64_t scale = 1;
    for (unsigned i = 0; i < places; i++) {
        scale *= 10;
    }
    snprintf(text, sizeof text, "%llu.%0*llu", (unsigned long long)(m / scale), (int)places,
             (unsigned long long)(m % scale));
    return strtod(text, NULL);
}

/* Millionths across (0, 1] (every 997th, and 1 itself): the double of each and the 4 doubles on
 * each side of it are that many millionths; the 5th on each side is refused (it is nearer to
 * no other millionth: a millionth is some 10^9 units in the last place wide). Just above 1 is
 * noise on 1, read as 1 like the rest. */
static void check_around(uint64_t m) {
    double d = decimal(m, 6), up = d, down = d;
    for (int k = 1; k <= CBD_DECIMAL_NOISE_ULPS + 1; k++) {
        up = nextafter(up, 2.0);
        down = nextafter(down, 0.0);
        bool in = k <= CBD_DECIMAL_NOISE_ULPS;
        uint64_t got_up = 0, got_down = 0;
        cr_assert_eq(cbd_units_from_double(down, 6, 1000000, &got_down), in, "m %llu, %d below",
                     (unsigned long long)m, k);
        cr_assert_eq(cbd_units_from_double(up, 6, 1000000, &got_up), in, "m %llu, %d above",
                     (unsigned long long)m, k);
        cr_assert(!in || (got_up == m && got_down == m), "m %llu, %d: %llu %llu",
                  (unsigned long long)m, k, (unsigned long long)got_down,
                  (unsigned long long)got_up);
    }
    uint64_t got = 0;
    cr_assert(cbd_units_from_double(d, 6, 1000000, &got) && got == m, "m %llu",
              (unsigned long long)m);
}

Test(decimal, w46_four_units_in_the_last_place_each_side) {
    for (uint64_t m = 1; m < 1000000; m += 997) {
        check_around(m);
    }
    check_around(1000000);
}

/* The examples of W3 and W46. */
Test(decimal, w46_examples) {
    uint64_t got = 0;
    cr_expect(cbd_units_from_double(0.16000000000000003, 6, 1000000, &got));
    cr_expect_eq(got, 160000);
    cr_expect(cbd_units_from_double(1.0 - 0.84, 6, 1000000, &got)); /* 0.16000000000000003 */
    cr_expect_eq(got, 160000);
    cr_expect(cbd_units_from_double(60.00000000000001, 4, 1000000, &got)); /* percents */
    cr_expect_eq(got, 600000);
    cr_expect(cbd_units_from_double(60.0, 4, 1000000, &got));
    cr_expect_eq(got, 600000);
    cr_expect(!cbd_units_from_double(0.1234567, 6, 1000000, &got));
    cr_expect(!cbd_units_from_double(0.7000000000005, 6, 1000000, &got));
    cr_expect(!cbd_units_from_double(1e-12, 6, 1000000, &got));
    cr_expect(!cbd_units_from_double(0.1600001, 6, 1000000, &got));
    cr_expect(!cbd_units_from_double(-0.1, 6, 1000000, &got));
    cr_expect(!cbd_units_from_double(NAN, 6, 1000000, &got));
    cr_expect(!cbd_units_from_double(1.000001, 6, 1000000, &got)); /* past max */
    cr_expect(cbd_units_from_double(-0.0, 6, 1000000, &got));
    cr_expect_eq(got, 0);
    cbd_micro micro = 0;
    cr_expect(cbd_micro_from_double(0.7000000000000001, &micro)); /* 0.7's next double */
    cr_expect_eq(micro, 700000);
    cr_expect(cbd_micro_from_double(0.70000000000000001, &micro)); /* 0.7's own double */
    cr_expect_eq(micro, 700000);
}
