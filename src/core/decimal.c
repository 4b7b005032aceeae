#include "combatd/decimal.h"

#include <math.h>

bool cbd_micro_from_double(double value, cbd_micro *out) {
    /* The comparisons are written so that NaN fails them all. */
    if (!(value >= 0.0 && value <= 1.0)) {
        return false;
    }
    double scaled = value * (double)CBD_MICRO_ONE;
    double whole = nearbyint(scaled);
    /* Decimal text with at most 6 places lands within ~1e-10 of a whole number of millionths
     * once parsed to a double; a 7th place moves it by at least 0.1. */
    if (fabs(scaled - whole) > 1e-6) {
        return false;
    }
    *out = (cbd_micro)whole;
    return true;
}

double cbd_micro_to_double(cbd_micro value) {
    return (double)value / (double)CBD_MICRO_ONE;
}
