#ifndef COMBATD_API_WARAPP_TURN_KINDS_H
#define COMBATD_API_WARAPP_TURN_KINDS_H

/*
 * The kinds of order on the api side, one row each (warapp_turn_kinds.c), indexed by the
 * core's cbd_turn_order_type as the core's own table is (src/core/warapp/turn/
 * warapp_turn_kinds.c: phase, checks, steps): the JSON name, the reader of the kind's members,
 * and what its entry in each answer's `orders` holds.
 */
#include <stdint.h>

#include "json/json_write.h"
#include "warapp_turn_json.h"

typedef struct {
    /* Its `type` in requests and answers, written only here; NULL: a kind the api does not
     * read (a request naming it is refused as an unknown type). */
    const char *name;
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
} cbd_turn_api_kind;

extern const cbd_turn_api_kind cbdp_turn_api_kinds[CBD_ORDER_KINDS];

/* The row of kind `type`. */
const cbd_turn_api_kind *cbdp_turn_api_kind_of(cbd_turn_order_type type);

/* The names the api reads, NULL-terminated, in enum order, for cbd_read_enum; kinds[i] is the
 * kind of names[i]. Returns how many. */
size_t cbdp_turn_api_kind_names(const char **names, cbd_turn_order_type *kinds);

/* The kind named `name`, or -1 when the api reads no kind of that name. */
int cbdp_turn_api_kind_named(const char *name);

/* W24: whether orders of kind `type` run in sequence (W13's movers: every phase but the
 * deploys, and not the cards that only reorder). */
bool cbdp_turn_api_kind_moves(cbd_turn_order_type type);

#endif
