#ifndef COMBATD_API_WARAPP_TURN_MAP_JSON_H
#define COMBATD_API_WARAPP_TURN_MAP_JSON_H

/* The board's map in a turn request (W24): each territory's `neighbors`, and the borders the
 * attack/transfer orders must cross (warapp_turn_map_json.c). */
#include "warapp_turn_json.h"

/*
 * Reads every territory's `neighbors` (an array of territory ids of this board; a border listed
 * on either side counts both ways, W24) into q->turn.neighbor_off / neighbors (left NULL when no
 * territory lists neighbors). `map` is the reader at /territories; the territories must be read
 * and indexed. An id not on the board, a repeat or a territory listing itself is an error at
 * /territories/X/neighbors/i. False with the errors recorded (or a 500: out of memory).
 */
bool cbdp_turn_read_map(const cbd_reader *map, cbd_turn_request *q);

/* W24: on a map, every attack/transfer order's `from` and `to` must border; an error at
 * /orders/i/to for each that does not. True when none is at fault (or the board is no map). */
bool cbdp_turn_check_borders(const cbd_reader *r, const cbd_turn_request *q);

#endif
