#ifndef COMBATD_API_WARAPP_TURN_IDS_H
#define COMBATD_API_WARAPP_TURN_IDS_H

/* The id registry of a turn request (warapp_turn_ids.c): territories, players and units. */
#include "warapp_turn_json.h"

#define CBD_TURN_ID_RULE "1 to 64 characters without control characters, quotes or backslashes"

/* Ids become JSON member names of the answers, written as they are (cbd_jw_key): so 1 to
 * CBD_TURN_ID_MAX characters (code points, as the contract's maxLength counts them) and no
 * byte that JSON would have to escape. */
bool cbdp_turn_id_ok(const char *id);

/* An id member (territory, player, team): true with *out set; false when absent (an error
 * only if required) or not an id (an error). */
bool cbd_turn_read_id(const cbd_reader *r, const char *key, bool required, const char **out);

/* A player's index, or -1. */
int cbd_turn_find_player(const cbd_turn_request *q, const char *id);

/* The player's index, registered at its first appearance; -1 with an error at r/key when the
 * turn already has the most players the core takes, or when id is the game's "Neutral" (W44). */
int cbdp_turn_add_player(cbd_turn_request *q, const cbd_reader *r, const char *key, const char *id);

/* Sorts the territory ids once they are all read, for cbd_turn_find_territory. */
void cbdp_turn_index_territories(cbd_turn_request *q);

/* A territory's index, or -1. */
int64_t cbd_turn_find_territory(const cbd_turn_request *q, const char *id);

/* W21: a unit's index on the board, or -1. */
int cbdp_turn_find_unit(const cbd_turn_request *q, const char *id);

/* W21: registers unit `unit` standing on territory `territory`, with its id (unique on the
 * board) read from r/index/id; false with the error recorded when the id is taken, is not an
 * id, or the board holds CBD_TURN_MAX_UNITS already. */
bool cbdp_turn_add_unit(cbd_turn_request *q, const cbd_reader *r, const char *key, size_t index,
                        const char *id, const cbd_turn_unit *unit);

#endif
