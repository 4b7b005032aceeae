#ifndef COMBATD_DUPER_BOARD_H
#define COMBATD_DUPER_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/duper.h"
#include "combatd/status.h"

/*
 * Duper on a board (docs/rules.md D13–D17): tiles, adjacency and keys; the support each battle
 * gets (D14); the board after a battle (D15); several attacks in order (D16); and every legal
 * attack of a player (D17). Each battle is resolved by cbd_duper_resolve.
 *
 * The caller (the API layer) fills plain specs; every string stays the caller's and must
 * outlive the board. Tiles are addressed by their index in the spec, so answers can be
 * written in the request's order; D14's byte order of ids is the core's business.
 *
 * Every function whose work grows with the board takes the request's budget (budget.h): it
 * charges its walks (CBD_WORK_BOARD_STEP a tile or adjacency step), the board's building
 * (CBD_WORK_BOARD_TILE, CBD_WORK_BOARD_PAIR) and its battles (CBD_WORK_DUPER_BATTLE) before
 * doing them, takes its memory through cbd_mem_*, and returns CBD_ERR_BUDGET once the budget
 * is spent (a NULL budget is unlimited).
 *
 * Implemented by duper_board.c (the board: building it, its tiles, keys and players),
 * duper_board_battle.c (preparing, applying and running battles on it: D14-D16) and
 * duper_board_options.c (a player's attacks, D17), in src/core/duper/.
 */

/* A tile's owner when the NPCs hold it (D9). */
#define CBD_DUPER_BOARD_NPC (-1)
/* No tile (an index that is not one). */
#define CBD_DUPER_BOARD_NONE SIZE_MAX

typedef struct {
    const char *id;    /* non-empty, unique */
    const char *owner; /* the player's colour, or NULL for an NPC tile */
    uint32_t level;    /* 1..3 (D13) */
    uint64_t units[CBD_DUPER_CLASS_COUNT];
    uint64_t loaded[CBD_DUPER_CLASS_COUNT]; /* carried by the tile's planes (D5) */
} cbd_duper_tile_spec;

typedef struct {
    const char *tile[2]; /* an undirected pair of tile ids; listing it twice is harmless */
} cbd_duper_pair_spec;

typedef struct {
    const char *holder; /* the player holding the keys */
    const char *colour; /* the colour of the keys: another player */
    uint64_t count;     /* 0..CBD_DUPER_MAX_KEYS */
} cbd_duper_keys_spec;

typedef struct {
    const cbd_duper_tile_spec *tiles;
    size_t n_tiles;
    const cbd_duper_pair_spec *pairs;
    size_t n_pairs;
    const cbd_duper_keys_spec *keys;
    size_t n_keys;
} cbd_duper_board_spec;

typedef struct {
    const char *from, *to; /* tile ids */
    cbd_duper_kind kind;
} cbd_duper_attack_spec;

/* What is wrong with a spec, and where: the API turns `where` and `index` (and `member`,
 * `cls`) into a JSON pointer. */
typedef enum {
    CBD_BOARD_FINE = 0,
    CBD_BOARD_TILE_ID,             /* tiles[index]: empty or repeated id */
    CBD_BOARD_TILE_SHAPE,          /* tiles[index].units/loaded[cls] breaks D5, D8, D9 or D12 */
    CBD_BOARD_TILE_COUNT,          /* tiles[index].units/loaded[cls] over the limits */
    CBD_BOARD_TILE_LEVEL,          /* tiles[index].level outside 1..3 */
    CBD_BOARD_PAIR_UNKNOWN_TILE,   /* pairs[index].tile[member] is no tile */
    CBD_BOARD_PAIR_SELF,           /* pairs[index] pairs a tile with itself */
    CBD_BOARD_KEYS_UNKNOWN_PLAYER, /* keys[index]: holder (member 0) or colour (1) owns no tile */
    CBD_BOARD_KEYS_COUNT,          /* keys[index].count over CBD_DUPER_MAX_KEYS */
    CBD_BOARD_ATTACK_UNKNOWN_TILE, /* attacks[index]: from (member 0) or to (1) is no tile */
    CBD_BOARD_ATTACK_NPC_SOURCE,   /* attacks[index].from is an NPC tile: NPCs never attack */
    CBD_BOARD_ATTACK_OWN_TARGET,   /* attacks[index].to is the attacker's at the start */
    CBD_BOARD_ATTACK_NOT_ADJACENT, /* a normal attacks[index] between tiles that are not */
    CBD_BOARD_ATTACK_SUPPORT,      /* attacks[index]: a side would have over 8 supporting tiles */
} cbd_duper_board_fault;

typedef struct {
    cbd_duper_board_fault fault;
    size_t index;
    int member;         /* 0/1 as above, else 0 */
    int cls;            /* the class at fault (TILE_SHAPE, TILE_COUNT), else -1 */
    bool loaded;        /* TILE_SHAPE, TILE_COUNT: the class is in `loaded`, not `units` */
    const char *detail; /* a static sentence that says what is allowed, citing the ruling */
} cbd_duper_board_error;

typedef struct cbd_duper_board cbd_duper_board;

/*
 * Builds a board from spec (D13). CBD_ERR_INVALID with *err filled (the first fault found:
 * tiles, then pairs, then keys) when the spec breaks a rule; CBD_ERR_NOMEM when out of
 * memory; CBD_ERR_BUDGET when the budget is spent. The board holds memory of `budget` until
 * cbd_duper_board_destroy.
 */
cbd_status cbd_duper_board_create(const cbd_duper_board_spec *spec, cbd_budget *budget,
                                  cbd_duper_board **out, cbd_duper_board_error *err);
void cbd_duper_board_destroy(cbd_duper_board *board);

/* The current state of tile `index` (its spec index). */
typedef struct {
    const char *id;
    int32_t owner; /* a player index, or CBD_DUPER_BOARD_NPC */
    uint32_t level;
    uint64_t units[CBD_DUPER_CLASS_COUNT];
    uint64_t loaded[CBD_DUPER_CLASS_COUNT];
    bool present; /* false once its player was eliminated (D8, D15) */
} cbd_duper_board_tile;

size_t cbd_duper_board_tile_count(const cbd_duper_board *board);
const cbd_duper_board_tile *cbd_duper_board_tile_at(const cbd_duper_board *board, size_t index);
/* The index of the tile with this id, or CBD_DUPER_BOARD_NONE. */
size_t cbd_duper_board_find(const cbd_duper_board *board, const char *id);
/* False once either tile of spec pair `index` left the board (D15). */
bool cbd_duper_board_pair_present(const cbd_duper_board *board, size_t index);
/* Players: every distinct owner of the spec, indexed in the byte order of their colours. */
size_t cbd_duper_board_player_count(const cbd_duper_board *board);
const char *cbd_duper_board_player_name(const cbd_duper_board *board, int32_t player);
/* The player with this colour, or CBD_DUPER_BOARD_NPC when none. */
int32_t cbd_duper_board_player_find(const cbd_duper_board *board, const char *colour);
bool cbd_duper_board_player_eliminated(const cbd_duper_board *board, int32_t player);
/* Keys of `colour`'s colour held by `holder` (D2, D13). */
uint64_t cbd_duper_board_keys(const cbd_duper_board *board, int32_t holder, int32_t colour);

/* Why an attack was skipped (D16), checked in this order. */
typedef enum {
    CBD_DUPER_RAN = 0,
    CBD_DUPER_SKIP_SOURCE_LOST, /* from is no longer the attacker's (captured or gone) */
    CBD_DUPER_SKIP_NOTHING,     /* nothing on from can attack (D6, D11) */
    CBD_DUPER_SKIP_TARGET_GONE, /* to has left the board (D8, D15) */
    CBD_DUPER_SKIP_TARGET_OWN,  /* to has become the attacker's */
} cbd_duper_skip;

/* One attack of a run. When it ran, `battle` is exactly what went to cbd_duper_resolve (its
 * support lists in the order of support[]) and `result` what came back. */
typedef struct {
    cbd_duper_skip skipped;
    size_t from, to;                          /* tile indices */
    int32_t attacker, defender;               /* defender CBD_DUPER_BOARD_NPC on an NPC tile */
    size_t n_support[2];                      /* [CBD_DUPER_ATTACK], [CBD_DUPER_DEFENSE] */
    size_t support[2][CBD_DUPER_MAX_SUPPORT]; /* tile indices, D14's byte order of ids */
    uint64_t seed;                            /* the card-steal seed of this battle (D10) */
    cbd_duper_battle battle;
    cbd_duper_result result;
} cbd_duper_board_battle;

/*
 * Finds the support of the attack (D14) and builds the battle cbd_duper_resolve takes, on the
 * board as it stands. CBD_ERR_INVALID when a side would have more than CBD_DUPER_MAX_SUPPORT
 * supporting tiles; CBD_ERR_BUDGET when the walks around the two tiles are past the budget.
 * Fills out's from, to, attacker, defender, support and battle.
 */
cbd_status cbd_duper_board_prepare(const cbd_duper_board *board, size_t from, size_t to,
                                   cbd_duper_kind kind, cbd_budget *budget,
                                   cbd_duper_board_battle *out);

/* D15: applies a resolved battle (prepared on this board as it stands) to the board. An
 * elimination walks every tile; CBD_ERR_BUDGET, with the board unchanged, when that is past
 * the budget. */
cbd_status cbd_duper_board_apply(cbd_duper_board *board, const cbd_duper_board_battle *battle,
                                 cbd_budget *budget);

/*
 * D16: checks every attack against the board as given (unknown tiles, an NPC source, an own
 * target, a normal attack between tiles that are not adjacent; CBD_ERR_INVALID and *err), then
 * runs them in order, each on the board the one before left, into out[0..n_attacks). Battle i
 * draws its card steal with seed (seed + i) mod 2^53, so that /duper/battle replays it.
 * CBD_ERR_INVALID with fault CBD_BOARD_ATTACK_SUPPORT stops a run at that attack (the board
 * then holds the battles before it), and so does CBD_ERR_BUDGET.
 */
cbd_status cbd_duper_board_run(cbd_duper_board *board, const cbd_duper_rules *rules,
                               const cbd_duper_attack_spec *attacks, size_t n_attacks,
                               uint64_t seed, cbd_budget *budget, cbd_duper_board_battle *out,
                               cbd_duper_board_error *err);

/* One legal attack of a player (D17) and its result, without the card draw. */
typedef struct {
    size_t from, to;
    cbd_duper_kind kind;
    uint64_t attack_power, defense_power;
    int64_t margin; /* attack_power − defense_power */
    bool captured;
    bool eliminated[2];       /* the attacker / the defender would be eliminated (D8) */
    int32_t defender;         /* CBD_DUPER_BOARD_NPC on an NPC tile */
    bool card_steal_possible; /* D10: the target holds a capital or supercapital */
} cbd_duper_option;

typedef struct {
    cbd_duper_option *items; /* the best n of them (cbd_mem_*); free with cbd_duper_options_free */
    size_t n;
    size_t n_found;    /* every legal attack listed, the n kept among them */
    size_t n_unlisted; /* legal attacks left out: a side with over 8 supporting tiles */
} cbd_duper_options;

/*
 * D17: every legal attack of `player`: a normal attack from each of its tiles with troops
 * (buildings alone do not attack) on each adjacent tile of another player or the NPCs, and a
 * long-distance one from each of its tiles with planes on every such tile within `range`
 * steps of adjacency (0: anywhere on the board). Sorted by margin, best first; ties by the
 * byte order of from's id, then to's, normal before long-distance. Only the best `keep` are
 * kept (SIZE_MAX: all of them), so the memory is that of `keep` options however many there
 * are (a board of 2,000 tiles has up to a million long-distance ones); n_found counts them all.
 * Every option found is resolved (CBD_WORK_DUPER_BATTLE) and ranked (CBD_WORK_COMPARE a step).
 */
cbd_status cbd_duper_board_options(const cbd_duper_board *board, const cbd_duper_rules *rules,
                                   int32_t player, uint32_t range, size_t keep, cbd_budget *budget,
                                   cbd_duper_options *out);
void cbd_duper_options_free(cbd_duper_options *options);

/* The most units cbd_duper_board_options charges for one option it finds when it keeps
 * `keep`: its battle resolved and its walk down the kept ones, when it is kept (for estimates
 * made before it runs). */
uint64_t cbd_duper_board_option_work(size_t keep);

#endif
