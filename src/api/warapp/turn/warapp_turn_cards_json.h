#ifndef COMBATD_API_WARAPP_TURN_CARDS_JSON_H
#define COMBATD_API_WARAPP_TURN_CARDS_JSON_H

/*
 * The cards of a turn request (W25–W30; warapp_turn_cards_json.c): the readers of the card
 * kinds' members and their entries in the answers (rows of warapp_turn_kinds.c), the board's
 * `diplomacy` (W29) and the settings' blockade multipliers (W26).
 */
#include "json/json_write.h"
#include "warapp_turn_json.h"

/* W25, W26: bomb, blockade and emergency_blockade take `target` (a territory of the board). */
bool cbdp_turn_read_target_card(const cbd_reader *o, const cbd_warapp_config *cfg,
                                cbd_turn_request *q, cbd_turn_order *ord, int player);
/* W27: from, to (another territory), armies or percent, units. */
bool cbdp_turn_read_airlift(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                            cbd_turn_order *ord, int player);
/* W28: target and to_player (a player owning a territory at the start, not the giver). */
bool cbdp_turn_read_gift(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                         cbd_turn_order *ord, int player);
/* W30: order_priority and order_delay take the player only. */
bool cbdp_turn_read_reorder_card(const cbd_reader *o, const cbd_warapp_config *cfg,
                                 cbd_turn_request *q, cbd_turn_order *ord, int player);

/* A card's entry in /analyze-turn's orders: its skipped_probability (W24). */
void cbdp_turn_card_analysis(cbd_jw *w, const cbd_turn_order_result *r);
/* ... in /simulate-turn's: how many trials skipped it. */
void cbdp_turn_card_counts(cbd_jw *w, const uint64_t *counts);

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
