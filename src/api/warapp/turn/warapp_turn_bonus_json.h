#ifndef COMBATD_API_WARAPP_TURN_BONUS_JSON_H
#define COMBATD_API_WARAPP_TURN_BONUS_JSON_H

/* W32 bonuses in a turn request and in the turn endpoints' answers (warapp_turn_bonus_json.c). */
#include "warapp_turn_json.h"

/*
 * `bonuses`: {"<id>": {"value": whole number, "territories": [ids]}} into q->bonuses (in the
 * request's order; absent: none). Every bad member is named (/bonuses/<id>/territories/0, ...).
 * False on a refusal (recorded) or out of memory (a 500).
 */
bool cbdp_turn_read_bonuses(const cbd_reader *r, cbd_turn_request *q);

/* /analyze-turn's "bonuses": id -> {value, owner: {player: chance}}, each player whose chance
 * to own the bonus whole at the end is above 0 (a->bonus_owner, cbd_turn_analyze_bonuses). */
void cbdp_turn_bonuses_json(cbd_jw *w, const cbd_turn_request *q, const cbd_turn_analysis *a);

/* /simulate-turn's "bonuses": id -> {value, owner: {player: trials}}, counts[b * n_players + p]
 * the trials that ended with player p owning bonus b whole; players with none left out. */
void cbdp_turn_bonus_counts_json(cbd_jw *w, const cbd_turn_request *q, const uint64_t *counts);

#endif
