#ifndef COMBATD_API_DUPER_BOARD_JSON_H
#define COMBATD_API_DUPER_BOARD_JSON_H

#include <stdbool.h>

#include "combatd/budget.h"
#include "combatd/duper_board.h"
#include "api/api_config.h"
#include "api/endpoint_support.h"
#include "json/json_reader.h"
#include "json/json_write.h"

/*
 * A Duper board on the way in and out (D13, D15), shared by POST /duper/board/battle and
 * /duper/board/options:
 *
 *   {"tiles": {id: {"owner": player | "npc", "level": 1..3, "units": {...}, "loaded": {...}}},
 *    "adjacent": [[id, id], ...], "keys": {holder: {colour: count}}}
 *
 * Every string stays the request document's, so a read board lives as long as the document.
 * Reading, building and writing a board charge the request's budget (CBD_WORK_BOARD_READ_TILE
 * and the like a tile or pair read or written, and the core's own steps) and take its memory
 * from it; a spent budget is the 422 naming the part of the board that costs it.
 */
typedef struct {
    cbd_reader board; /* at /board: every pointer of a fault is built from it */
    const cbd_config *cfg;
    cbd_budget *budget;
    cbd_duper_tile_spec *tiles; /* in the request's order */
    cbd_duper_pair_spec *pairs;
    cbd_duper_keys_spec *keys;
    cbd_duper_board_spec spec;
} cbd_board_read;

/*
 * Reads member "board" of root into *out and checks what the core does not see (types,
 * cfg->duper_board's limits, D12's shape per tile with its pointer). CBD_READ_OK when read
 * whole with nothing recorded in root's problem (an unknown member of the request recorded
 * before is a refusal too); CBD_READ_INVALID with a pointer per bad field or the 422 of a spent
 * budget; CBD_READ_NO_MEMORY with the 500 (cbd_api_read_status). Free with
 * cbdp_board_read_free whatever it returned.
 */
cbd_read_status cbdp_board_json_read(const cbd_reader *root, const cbd_config *cfg,
                                     cbd_budget *budget, cbd_board_read *out);
void cbdp_board_read_free(cbd_board_read *b);

/* Records what is wrong with an attack from `from` to `to` (either NULL when it was missing)
 * that the read board alone shows: an unknown tile, an NPC source, one's own target, each at
 * the attack's member. Adjacency is the core's (cbd_duper_board_run). */
void cbdp_board_check_attack(const cbd_board_read *b, const cbd_reader *attack, const char *from,
                             const char *to);

/* Builds the board (cbd_duper_board_create) with the read board's budget, naming a fault of
 * the spec by its pointer, and a spent budget by the part of the board that costs most. */
bool cbdp_board_build(const cbd_board_read *b, cbd_duper_board **out, cbd_problem *problem);

/* Records the field error of a core fault: tiles, pairs and keys under /board, attacks under
 * `attacks` (the reader of the request's root, for faults of its "attacks" member). */
void cbdp_board_fault(const cbd_board_read *b, const cbd_reader *attacks,
                      const cbd_duper_board_error *err);

/* Writes the board as it stands, in the request's shape and order: tiles that left the board
 * and the pairs with them are gone, and keys only between players that still hold a tile, so
 * the board can be sent again (D15). False with the problem recorded when the budget is spent
 * (a 422 naming /board) or memory ran out. */
bool cbdp_board_write(cbd_jw *w, const cbd_duper_board *board, const cbd_board_read *b,
                      cbd_problem *problem);

/* The rules of a request: cfg's, with its "rules" member over them. */
void cbdp_board_read_rules(const cbd_reader *root, const cbd_config *cfg, cbd_duper_rules *rules);

/* The id of a player (its colour), or CBD_DUPER_NPC_NAME. */
const char *cbdp_board_owner_name(const cbd_duper_board *board, int32_t owner);

#endif
