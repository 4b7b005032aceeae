#ifndef COMBATD_API_WARAPP_TURN_KINDS_JSON_H
#define COMBATD_API_WARAPP_TURN_KINDS_JSON_H

/*
 * The kinds of order on the api side, one row each (warapp_turn_kinds_json.c), made from the one
 * list of kinds (CBD_ORDER_KIND_LIST, include/combatd/warapp_turn.h) and indexed by the core's
 * cbd_turn_order_type as the core's own table is (src/core/warapp/turn/board/warapp_turn_kinds.c:
 * phase, checks, steps): the JSON names, the reader of the kind's members, and what its entry in
 * each answer's `orders` holds. The readers and renders the list names are implemented in
 * warapp_turn_moves_json.c (deploys, attacks/transfers, W12, W14, W33) and
 * warapp_turn_cards_json.c (the cards, W25–W30).
 */
#include <stdint.h>

#include "json/json_write.h"
#include "warapp_turn_json.h"

typedef struct {
    /* Its `type` in requests and answers, written only here; NULL: a kind the api does not
     * read (a request naming it is refused as an unknown type). */
    const char *name;
    /* Its `type` in the game's own JSON (GameOrderPlayCardBomb, ...: src/api/warzone/). */
    const char *game;
    /* Reads the kind's own members of order `o` into *ord (its type and player read already:
     * player is its index, or < 0 when it was bad); false with every error recorded. */
    bool (*read)(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                 cbd_turn_order *ord, int player);
    /* /analyze-turn: the members of its entry after `type`, from its chances (W16). */
    void (*render_analysis)(cbd_jw *w, const cbd_turn_order_result *r);
    /* /simulate-turn: the members of its entry after `type`, from its counts (skipped, attacks,
     * transfers, captures: cbd_turn_tally's order_counts). */
    void (*render_counts)(cbd_jw *w, const uint64_t *counts);
    /* The fewest bytes its entry takes in one listed turn, with its comma (the listing's
     * floor, warapp_simulate_turn.c). */
    unsigned listed_floor;
    /* The members an order of the kind may hold, NULL-terminated: type, player and its row's
     * `members` (any other is a 422 at it). */
    const char *const *members;
} cbd_turn_api_kind;

extern const cbd_turn_api_kind cbdp_turn_api_kinds[CBD_ORDER_KINDS];

/* Each kind's reader and renders, by the names its row of CBD_ORDER_KIND_LIST gives. */
#define CBDP_TURN_API_PROTOTYPES(ID, json, game, phase, units, check, touches, step, reader,       \
                                 render, ...)                                                      \
    bool cbdp_turn_read_##reader(const cbd_reader *o, const cbd_warapp_config *cfg,                \
                                 cbd_turn_request *q, cbd_turn_order *ord, int player);            \
    void cbdp_turn_##render##_analysis(cbd_jw *w, const cbd_turn_order_result *r);                 \
    void cbdp_turn_##render##_counts(cbd_jw *w, const uint64_t *counts);
CBD_ORDER_KIND_LIST(CBDP_TURN_API_PROTOTYPES)
#undef CBDP_TURN_API_PROTOTYPES

/* The row of kind `type`. */
const cbd_turn_api_kind *cbdp_turn_api_kind_of(cbd_turn_order_type type);

/* The names the api reads, NULL-terminated, in enum order, for cbd_read_enum; kinds[i] is the
 * kind of names[i]. Returns how many. */
size_t cbdp_turn_api_kind_names(const char **names, cbd_turn_order_type *kinds);

/* Every member an order of any kind may hold, NULL-terminated, each once (for an order whose
 * type is not known). */
extern const char *const cbdp_turn_order_members[];

/* The kind named `name`, or -1 when the api reads no kind of that name. */
int cbdp_turn_api_kind_named(const char *name);

/* The kind whose `type` in the game's JSON is `game` (its row's game column), or -1: for the
 * translation of the game's orders (src/api/warzone/, W40). */
int cbd_turn_api_kind_of_game(const char *game);

/* Kind `type`'s `type` in combatd's requests and answers. */
const char *cbd_turn_api_kind_name(cbd_turn_order_type type);

/* Kind `type`'s `type` in the game's JSON (its row's game column): for the orders the
 * /warzone/ endpoints write (src/api/warzone/, W40). */
const char *cbd_turn_api_kind_game(cbd_turn_order_type type);

/* W24: whether orders of kind `type` run in sequence (W13's movers: every phase but the
 * deploys, and not the cards that only reorder). */
bool cbdp_turn_api_kind_moves(cbd_turn_order_type type);

#endif
