#ifndef COMBATD_DECIMAL_H
#define COMBATD_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Exact decimal settings (docs/rules.md W3).
 *
 * Kill rates and the luck modifier are decimals in [0, 1] with at most 6 places. They are
 * held as whole millionths so that blending and rounding are exact: 45 armies at 0.7 kill
 * exactly 31.5, which straight-rounds to 32, where binary doubles would give 31.4999... .
 */
#define CBD_MICRO_ONE UINT32_C(1000000)

/* A decimal in [0, 1] as millionths: 0.7 is 700000. */
typedef uint32_t cbd_micro;

/*
 * Converts a double that came from decimal text (a JSON number) to millionths: the units of
 * cbd_units_from_double with 6 places, in [0, 1]. 1e-12 and 0.7000000000005 fail;
 * 0.70000000000000001 (the same double as 0.7) and 0.7000000000000001 (W46's noise) are 0.7.
 */
bool cbd_micro_from_double(double value, cbd_micro *out);

/* The same for a decimal from 0 to max millionths (W26's multipliers go up to 100). */
bool cbd_micro_from_double_in(double value, cbd_micro max, cbd_micro *out);

/* How far, in units in the last place of the decimal's double, a value may lie from it and
 * still be read as that decimal (W46: binary noise of the arithmetic that wrote it). */
#define CBD_DECIMAL_NOISE_ULPS 4

/*
 * The one reader of W3 and W46 for every endpoint: a double as a whole number of 10^-places
 * units (places at most 9) from 0 to max. True when the value is the double nearest to such a
 * decimal, or one of the CBD_DECIMAL_NOISE_ULPS doubles on either side of that double: 0.16 and
 * 0.16000000000000003 are 160000 millionths (places 6), 60 and 60.00000000000001 are 600000
 * ten-thousandths of a percent (places 4, a kill rate given in percents); 0.1234567 and 1e-12
 * fail with places 6.
 */
bool cbd_units_from_double(double value, unsigned places, uint64_t max, uint64_t *out);

/* The decimal as a double, for output only (never for arithmetic that must be exact). */
double cbd_micro_to_double(cbd_micro value);

#endif
