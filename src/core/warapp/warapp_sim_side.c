/* One side's constants for random battles (W1); see cbd_sim_side_init in warapp_simulate.h.
 * Apart from warapp_simulate.c because the plans (warapp_sim_plan.c) prepare sides too, while
 * warapp_simulate.c runs the plans: each file then depends on the other one way only. */
#include <string.h>

#include "combatd/warapp_simulate.h"
#include "warapp_sim_internal.h"

__extension__ typedef unsigned __int128 cbd_u128;

void cbd_sim_side_init(cbd_sim_side *side, uint64_t n, cbd_micro rate, cbd_micro luck) {
    memset(side, 0, sizeof *side);
    side->n = n;
    side->rate = rate;
    side->luck = luck;
    /* X is random only when luck weighs it in and a roll can go either way. */
    side->rolls = luck > 0 && n > 0 && rate > 0 && rate < CBD_MICRO_ONE;
    side->fixed_x = rate == CBD_MICRO_ONE ? n : 0;
    cbd_binomial_init(&side->roll, side->rolls ? n : 0, rate);
    /* W1: (1 − L)·n·p in units of 10^-12, at most 10^6·10^9·10^6 = 10^21: 128 bits. */
    cbd_u128 base = (cbd_u128)(CBD_MICRO_ONE - luck) * n * rate;
    side->base_whole = (uint64_t)(base / CBD_KILL_FRAC_ONE);
    side->base_frac = (uint64_t)(base % CBD_KILL_FRAC_ONE);
}
