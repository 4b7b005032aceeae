#ifndef COMBATD_API_WARAPP_TURN_CARDS_JSON_H
#define COMBATD_API_WARAPP_TURN_CARDS_JSON_H

/*
 * The cards of a turn request (W25–W30; warapp_turn_cards_json.c): the readers of the card
 * kinds' members and their entries in the answers (rows of warapp_turn_kinds.c), the board's
 * `diplomacy` (W29) and the settings' blockade multipliers (W26).
 */
#include "json/json_write.h"
#include "warapp_turn_json.h"

/* The card kinds' readers and renders (cbdp_turn_read_target_card, _airlift, _gift,
 * _reorder_card; cbdp_turn_card_analysis and _counts: a card's skipped chance or count, W24)
 * are declared by the list of kinds (warapp_turn_kinds_json.h). */
/* W29: `diplomacy`, pairs of distinct players of the turn, into q->turn.peace (read after the
 * orders, so that every player is known). False with every bad pair recorded, or a 500. */
bool cbdp_turn_read_diplomacy(const cbd_reader *r, cbd_turn_request *q);

/* W26: the settings' blockade_multiplier and emergency_blockade_multiplier (`s` the settings
 * object, or NULL when the request has none: the config's values). */
bool cbdp_turn_read_multipliers(const cbd_reader *s, const cbd_warapp_config *cfg,
                                cbd_turn_request *q);

/* The settings members the multipliers add, for the settings object's allowed keys. */
#define CBD_TURN_MULTIPLIER_KEYS "blockade_multiplier", "emergency_blockade_multiplier"

#endif
