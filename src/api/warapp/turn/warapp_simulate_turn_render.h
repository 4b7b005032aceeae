#ifndef COMBATD_API_WARAPP_SIMULATE_TURN_RENDER_H
#define COMBATD_API_WARAPP_SIMULATE_TURN_RENDER_H

/* /simulate-turn's answer from its counts (warapp_simulate_turn_render.c). */
#include "json/json_write.h"
#include "warapp_simulate_turn_tally.h"

/* The answer: the seed and trials, the echoed members, each territory's owners and armies,
 * the orders' results, the units and players (with units), the goals met and the listed
 * turns. The writer names the member to blame past the answer cap; false when the budget
 * refused the histograms' sort. Each territory's histogram is freed once written, between
 * the sorts' charges: a system's pages go back at some 0.6 µs each, and 128 histograms of
 * half a MiB freed together ran 9.5 ms with no progress check. */
bool cbdp_turn_tally_render(cbd_jw *w, cbd_turn_tally *s, uint64_t seed, uint64_t trials);

#endif
