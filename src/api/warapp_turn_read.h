#ifndef COMBATD_API_WARAPP_TURN_READ_H
#define COMBATD_API_WARAPP_TURN_READ_H

/*
 * What reading a turn request takes, in two headers with one implementation each: the id
 * registry (warapp_turn_ids.h) and the orders (warapp_turn_orders.h). Include those; this one
 * only gathers them.
 */
#include "warapp_turn_ids.h"
#include "warapp_turn_orders.h"

#endif
