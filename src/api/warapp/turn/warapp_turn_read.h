#ifndef COMBATD_API_WARAPP_TURN_READ_H
#define COMBATD_API_WARAPP_TURN_READ_H

/* Between the two files that read a turn request (warapp_turn_json.c, warapp_turn_orders.c). */
#include "warapp_turn_json.h"

/* An id member (territory, player, team): true with *out set; false when absent (an error
 * only if required) or not an id (an error). */
bool cbd_turn_read_id(const cbd_reader *r, const char *key, bool required, const char **out);

/* A player's index, or -1. */
int cbd_turn_find_player(const cbd_turn_request *q, const char *id);

/* The player's index, registered at its first appearance; -1 with an error at r/key when the
 * turn already has the most players the core takes. */
int cbd_turn_add_player(cbd_turn_request *q, const cbd_reader *r, const char *key, const char *id);

/* A territory's index, or -1. */
int64_t cbd_turn_find_territory(const cbd_turn_request *q, const char *id);

/* orders (W12, W14); then move_order and player_order (W13); then goals (W16). */
bool cbd_turn_read_orders(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q);
bool cbd_turn_read_schedule(const cbd_reader *r, cbd_turn_request *q);
bool cbd_turn_read_goals(const cbd_reader *r, cbd_turn_request *q);

#endif
