#ifndef COMBATD_CORE_DUPER_BOARD_INTERNAL_H
#define COMBATD_CORE_DUPER_BOARD_INTERNAL_H

/* The board's layout, shared by the core's board files (never by other layers): the board is
 * built in duper_board.c (cbdp_duper_board_can_attack), a battle's support found in
 * duper_board_battle.c (cbdp_duper_board_support). */
#include "combatd/budget.h"
#include "combatd/duper_board.h"

/* One count of keys (D2, D13): `holder` holds `count` keys of `colour`'s colour. */
typedef struct {
    int32_t holder, colour;
    uint64_t count;
} cbd_duper_board_key;

/*
 * The board's blocks all come from the budget of the request that built it (cbd_mem_*), so
 * that a board is counted in the memory the request holds and freed with cbd_mem_free.
 */
struct cbd_duper_board {
    size_t n_tiles;
    cbd_duper_board_tile *tiles;
    /* Tile ids hashed (open addressing, linear probing): slot holds index + 1, 0 when empty. */
    size_t *id_slots;
    size_t id_mask;
    /* Adjacency lists: tile i's neighbours are adj[adj_start[i] .. adj_start[i + 1]), each once,
     * in index order (D14's byte order is applied to the few supporting tiles of a battle). */
    size_t *adj_start;
    size_t *adj;
    size_t n_pairs;
    size_t (*pairs)[2]; /* the spec's pairs as tile indices */
    size_t n_players;
    const char **players; /* colours in byte order */
    bool *eliminated;
    /* Keys sorted by holder, then colour, each pair once: a list as long as the spec's, not a
     * players × players table (a board of 2,000 one-tile players would need 32 MB). */
    cbd_duper_board_key *keys;
    size_t n_keys;
};

/* D14: the tiles of `owner` other than `skip` adjacent to `center` holding tanks, into
 * list[0..*n) in the byte order of ids, and their tanks and forts into side's support.
 * CBD_ERR_INVALID when there are more than CBD_DUPER_MAX_SUPPORT; CBD_ERR_BUDGET when the
 * walk over center's neighbours (charged before it runs) is past the budget. */
cbd_status cbdp_duper_board_support(const cbd_duper_board *b, size_t center, int32_t owner,
                                    size_t skip, cbd_budget *budget, size_t *list, size_t *n,
                                    cbd_duper_side *side);

/* The number of tiles adjacent to tile `t`: the steps of a walk over its neighbours. */
static inline size_t cbdp_duper_board_degree(const cbd_duper_board *b, size_t t) {
    return b->adj_start[t + 1] - b->adj_start[t];
}

/* Does anything on this tile take part in an attack of this kind (D6, D11)? */
bool cbdp_duper_board_can_attack(const cbd_duper_board_tile *t, cbd_duper_kind kind);

#endif
