#ifndef COMBATD_API_WARAPP_TURN_FIELDS_H
#define COMBATD_API_WARAPP_TURN_FIELDS_H

/* The members several kinds of order share (warapp_turn_fields.c). */
#include "warapp_turn_json.h"

/* A territory id member: its index, or -1 with an error recorded (or quietly when absent and
 * not required). */
int64_t cbdp_turn_read_territory_ref(const cbd_reader *r, const cbd_turn_request *q,
                                     const char *key, bool required);
/* How much the order moves: exactly one of armies (whole, >= 0) and percent (W3, W14). */
bool cbdp_turn_read_amount(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_order *ord);
/* W21: the units the order moves, by id (ord->player set; a deploy moves none). */
bool cbdp_turn_read_order_units(const cbd_reader *o, cbd_turn_request *q, cbd_turn_order *ord);

#endif
