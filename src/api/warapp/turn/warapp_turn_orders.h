#ifndef COMBATD_API_WARAPP_TURN_ORDERS_H
#define COMBATD_API_WARAPP_TURN_ORDERS_H

/* The orders of a turn request, its move order and its goals (warapp_turn_orders.c). */
#include "warapp_turn_json.h"

/* orders (W12, W14, W21); then move_order and player_order (W13); then goals (W16). */
bool cbdp_turn_read_orders(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q);
bool cbdp_turn_read_schedule(const cbd_reader *r, cbd_turn_request *q);
bool cbdp_turn_read_goals(const cbd_reader *r, cbd_turn_request *q);

/* "listed", "cycle" or "random". */
const char *cbdp_turn_move_order_name(cbd_move_order m);

#endif
