#include "combatd/decimal.h"

#include <math.h>

bool cbd_micro_from_double(double value, cbd_micro *out) {
    return cbd_micro_from_double_in(value, CBD_MICRO_ONE, out);
}

bool cbd_micro_from_double_in(double value, cbd_micro max, cbd_micro *out) {
    /* The comparisons are written so that NaN fails them all. */
    if (!(value >= 0.0 && value <= (double)max / (double)CBD_MICRO_ONE)) {
        return false;
    }
    /* W3, exactly: the value must be the double nearest to some decimal with at most 6 places,
     * m / 10^6. The only candidate is the nearest whole number of millionths, and since m and
     * 10^6 are exact doubles, IEEE division gives the correctly rounded m / 10^6, the same
     * double strtod gives for its 6-place text. So 1e-12 and 0.7000000000005 are refused, and
     * 0.70000000000000001 (parsed to the same double as 0.7) is 0.7. (-0.0 compares equal to
     * 0 and is 0.) */
    double whole = nearbyint(value * (double)CBD_MICRO_ONE);
    if (whole / (double)CBD_MICRO_ONE != value) {
        return false;
    }
    *out = (cbd_micro)whole;
    return true;
}

double cbd_micro_to_double(cbd_micro value) {
    return (double)value / (double)CBD_MICRO_ONE;
}
