#ifndef COMBATD_CORE_WARAPP_BATTLE_INTERNAL_H
#define COMBATD_CORE_WARAPP_BATTLE_INTERNAL_H

/*
 * What the one-battle analysis (warapp_battle.c) shares with the graph and the fewest-armies
 * search (warapp_search.c): a side prepared for taking damage many times (W19).
 */
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/warapp_odds.h"
#include "combatd/warapp_units.h"

typedef struct {
    const cbd_warapp_side *side;
    size_t order[CBD_WARAPP_MAX_UNITS]; /* cbd_warapp_damage_order */
    size_t n_before;                    /* units before the armies */
    uint64_t toughness;                 /* the least damage that leaves it nothing */
} cbd_side_prep;

void cbdp_side_prep_init(cbd_side_prep *p, const cbd_warapp_side *side);

/* The side's armies left after `damage` (W19: the units before them shield them). */
uint64_t cbdp_side_prep_armies_left(const cbd_side_prep *p, uint64_t damage);

/*
 * The analysis (all but its army counts) once both sides' damage exists: ka the attackers'
 * (on the defense), kd the defenders'. out was zeroed; on failure it may hold parts to free.
 */
cbd_status cbdp_warapp_analysis_fill(const cbd_side_prep *att, const cbd_side_prep *def,
                                     const cbd_kills *ka, const cbd_kills *kd, cbd_budget *budget,
                                     cbd_warapp_analysis *out);

#endif
