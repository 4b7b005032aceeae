#include "combatd/decimal.h"

#include <math.h>

bool cbd_micro_from_double(double value, cbd_micro *out) {
    return cbd_micro_from_double_in(value, CBD_MICRO_ONE, out);
}

bool cbd_micro_from_double_in(double value, cbd_micro max, cbd_micro *out) {
    uint64_t units = 0;
    if (!cbd_units_from_double(value, 6, max, &units)) {
        return false;
    }
    *out = (cbd_micro)units;
    return true;
}

bool cbd_units_from_double(double value, unsigned places, uint64_t max, uint64_t *out) {
    double scale = 1.0;
    for (unsigned i = 0; i < places; i++) {
        scale *= 10.0; /* exact up to 10^22 */
    }
    /* The comparisons are written so that NaN fails them all; the bound keeps value * scale
     * a whole number that fits, and max itself is checked on the units. */
    if (places > 9 || !(value >= 0.0 && value <= 2.0 * ((double)max / scale) + 1.0)) {
        return false;
    }
    /* W3, exactly: the only candidate decimal is the nearest whole number of units, m; m and
     * 10^places are exact doubles, so IEEE division gives the correctly rounded m / 10^places,
     * the double strtod gives for its text. W46: a value a few units in the last place from it
     * is that decimal too (0.16000000000000003 is the double after 0.16's, the noise of the
     * writer's arithmetic: up to 4 doubles on either side), while 1e-12 and 0.7000000000005 are far
     * from any and refused.
     * (-0.0 compares equal to 0 and is 0.) */
    double whole = nearbyint(value * scale);
    double d = whole / scale;
    double ulp = fabs(nextafter(d, value) - d); /* on value's side: at a power of 2 it halves */
    if (!(fabs(value - d) <= CBD_DECIMAL_NOISE_ULPS * ulp) || whole > (double)max) {
        return false;
    }
    *out = (uint64_t)whole;
    return true;
}

double cbd_micro_to_double(cbd_micro value) {
    return (double)value / (double)CBD_MICRO_ONE;
}
