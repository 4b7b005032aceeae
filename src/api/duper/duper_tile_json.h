#ifndef COMBATD_API_DUPER_TILE_JSON_H
#define COMBATD_API_DUPER_TILE_JSON_H

/*
 * A Duper tile on the way in, as every Duper endpoint reads it (/duper/battle and the board
 * endpoints alike): its counts and its D12 shape.
 */
#include <stdbool.h>
#include <stdint.h>

#include "combatd/duper.h"
#include "json/json_reader.h"

/* The NPCs as the API spells them (D9, D13): the member of /duper/battle's defense that says the
 * tile is theirs ("npc": true), and the owner of their tiles on a board, on the way in and out
 * (the core calls that owner CBD_DUPER_BOARD_NPC). */
#define CBD_DUPER_NPC_NAME "npc"

/* The longest player name (a colour: a tile's owner, a battle's player), in characters (code
 * points, as the contract's maxLength counts them; cbd_read_text). */
#define CBD_DUPER_NAME_MAX 64

/* Reads tile member `key` ("units": every class; "loaded": the classes planes carry, D5) into
 * counts, by class. Errors name the member's pointer. */
void cbdp_duper_read_counts(const cbd_reader *tile, const char *key, bool loaded, uint64_t *counts);

/*
 * Records an error for each way the tile breaks D12's shape, D5, D8 or D9 (npc: the tile is
 * held by NPCs), naming the member of `tile` at fault. Loaded troops need at least `min_planes`
 * planes on the tile: CBD_DUPER_LOADING_PLANES where a request loads a stack for a battle (the
 * unit table: a stack of 2+ loads), CBD_DUPER_CARRYING_PLANES on a board, whose tiles may be
 * what a battle left (D5: troops stay loaded while one plane of their stack survives, D15), so
 * that a board combatd answered can be sent back.
 */
#define CBD_DUPER_LOADING_PLANES  UINT64_C(2)
#define CBD_DUPER_CARRYING_PLANES UINT64_C(1)
void cbdp_duper_check_tile(const cbd_reader *tile, const cbd_duper_side *s, bool npc,
                           uint64_t min_planes);

#endif
