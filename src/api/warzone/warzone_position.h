#ifndef COMBATD_API_WARZONE_POSITION_H
#define COMBATD_API_WARZONE_POSITION_H

/* /warzone/plan-turn's `objective: "position"` (W48, W49; warzone_position.c). */
#include "warzone_internal.h"

/*
 * /plan-turn's position members from the game's JSON, into doc: `base_income` the game's
 * MinimumArmyBonus, `incomes` gameInfo.incomes' freeArmies of the other players standing on the
 * board (the planning player's is `income`). False when memory ran out.
 */
bool cbdp_wz_position_members(const cbdp_wz_turn *t, const char *player, json_t *doc);

#endif
