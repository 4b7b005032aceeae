#ifndef COMBATD_API_JSON_REAL_H
#define COMBATD_API_JSON_REAL_H

#include <stddef.h>

#define CBD_JSON_REAL_MAX 32 /* buffer size that always suffices, including the NUL */

/*
 * Writes v (finite) as jansson's json_dumps(JSON_REAL_PRECISION(15)) would, NUL-terminated, and
 * returns the length: snprintf("%.15g") in the C locale, then ".0" appended when there is
 * neither a '.' nor an exponent, and the exponent without its '+' or leading zeros ("1e20",
 * "1e-5", "-0.0").
 *
 * The same bytes as that snprintf path for every finite double, at a fraction of its cost for
 * magnitudes in about [1e-18, 1e15): those are converted exactly in integer arithmetic, the
 * rest (and any rounding mode other than to-nearest) go through snprintf itself. Reentrant.
 */
size_t cbd_json_real(double v, char out[CBD_JSON_REAL_MAX]);

/*
 * Writes v (finite) in the fewest significant digits, 15 to 17, that read back as v exactly,
 * with ".0" on a whole number: for a number that must survive being read and written again
 * (/plan-turn's `value`, a sum of written numbers, needs more than 15 digits at times).
 * Returns the length. Reentrant.
 */
size_t cbd_json_real_exact(double v, char out[CBD_JSON_REAL_MAX]);

#endif
