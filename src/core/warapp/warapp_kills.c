/* W1, W2, W3: exact blending and rounding of kills. */
#include "combatd/warapp.h"

/* 128-bit integers hold n·p·(1−L) scaled by 10^12 for n up to 10^9 (about 10^21 < 2^127). */
__extension__ typedef unsigned __int128 cbd_u128;

cbd_warapp_settings cbd_warapp_default_settings(void) {
    cbd_warapp_settings s = {
        .offense_kill_rate = 600000,
        .defense_kill_rate = 700000,
        .luck_modifier = 0,
        .rounding = CBD_ROUND_STRAIGHT,
        .one_army_must_stand_guard = true,
    };
    return s;
}

cbd_kill_value cbd_warapp_blend(uint64_t n, cbd_micro p, cbd_micro luck, uint64_t roll) {
    /* v · 10^12 = L·10^6 · X · 10^6 + (10^6 − L·10^6) · n · p·10^6: every term an integer. */
    cbd_u128 scaled =
        (cbd_u128)luck * roll * CBD_MICRO_ONE + (cbd_u128)(CBD_MICRO_ONE - luck) * n * p;
    cbd_kill_value v = {
        .whole = (uint64_t)(scaled / CBD_KILL_FRAC_ONE),
        .frac = (uint64_t)(scaled % CBD_KILL_FRAC_ONE),
    };
    return v;
}

uint64_t cbd_round_straight(cbd_kill_value v) {
    /* W2: an exact .5 rounds up. */
    return v.whole + (v.frac * 2 >= CBD_KILL_FRAC_ONE ? 1 : 0);
}

uint64_t cbd_round_weighted(cbd_kill_value v, uint64_t u) {
    return v.whole + (u < v.frac ? 1 : 0);
}
