#ifndef COMBATD_API_WARAPP_SIMULATE_RENDER_H
#define COMBATD_API_WARAPP_SIMULATE_RENDER_H

/* POST /simulate's request as read (warapp_simulate.c) and its answer (warapp_simulate_render.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include "combatd/warapp_simulate.h"
#include "json/json_write.h"
#include "warapp_request.h"

typedef struct {
    cbd_warapp_battle battle;
    uint64_t trials;
    uint64_t seed;
    bool seed_given;
    bool include_battles;
} cbd_sim_request;

/* The work writing what units and fog add to the answer costs (their summaries, and each unit
 * of each listed battle is in the listing's own charge), to charge before the battles run. */
uint64_t cbdp_sim_render_units(const cbd_sim_request *q);

/*
 * The answer to q after the battles of `plan` (the statistics `st`, the listed battles or NULL):
 * the seed, the battle as used, the counts and histograms (W4–W6), with fog the distribution and
 * the trials that drew each count (W23), with units each unit's survivals (W19, W20), and the
 * battles, each with its dead units and drawn defenders.
 */
void cbdp_sim_render(cbd_jw *w, const cbd_sim_request *q, const cbd_sim_plan *plan,
                     const cbd_sim_stats *st, const cbd_sim_record *battles);

#endif
