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
 * Converts a double that came from decimal text (a JSON number) to millionths.
 * Fails when the value is outside [0, 1] or is not exactly the double nearest to a decimal with
 * at most 6 places (W3): 1e-12 and 0.7000000000005 fail; 0.70000000000000001, which parses to
 * the same double as 0.7, is 0.7.
 */
bool cbd_micro_from_double(double value, cbd_micro *out);

/* The same for a decimal from 0 to max millionths (W26's multipliers go up to 100). */
bool cbd_micro_from_double_in(double value, cbd_micro max, cbd_micro *out);

/* The decimal as a double, for output only (never for arithmetic that must be exact). */
double cbd_micro_to_double(cbd_micro value);

#endif
