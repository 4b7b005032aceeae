/*
 * The cards of a turn request (W25–W30): each card kind's members, read for its row of
 * warapp_turn_kinds.c, its entries in the answers, the board's diplomacy (W29) and the
 * settings' blockade multipliers (W26).
 */
#include <stdlib.h>
#include <string.h>

#include "warapp_turn_cards_json.h"

#include "api/endpoint_support.h"
#include "warapp_turn_fields.h"
#include "warapp_turn_ids.h"
#include "warapp_turn_kinds_json.h"

/* A card reads only its own members: the order reader refuses any other at it, from the card's
 * row of the list of kinds (CBD_ORDER_KIND_LIST, its `members` column; W24). */

bool cbdp_turn_read_target_card(const cbd_reader *o, const cbd_warapp_config *cfg,
                                cbd_turn_request *q, cbd_turn_order *ord, int player) {
    (void)cfg;
    int64_t target = cbdp_turn_read_territory_ref(o, q, "target", true);
    ord->to = (uint32_t)(target >= 0 ? target : 0);
    return player >= 0 && target >= 0;
}

bool cbdp_turn_read_airlift(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                            cbd_turn_order *ord, int player) {
    bool ok = cbdp_turn_read_amount(o, cfg, ord);
    if (player >= 0 && json_object_get(o->obj, "units")) {
        ok &= cbdp_turn_read_order_units(o, q, ord);
    }
    int64_t from = cbdp_turn_read_territory_ref(o, q, "from", true);
    int64_t to = cbdp_turn_read_territory_ref(o, q, "to", true);
    if (from >= 0 && from == to) {
        cbd_reader_error(o, "to", "must be another territory than from (W27)");
        ok = false;
    }
    ord->from = (uint32_t)(from >= 0 ? from : 0);
    ord->to = (uint32_t)(to >= 0 ? to : 0);
    return ok && player >= 0 && from >= 0 && to >= 0;
}

/* Whether player p owns a territory at the start of the turn. */
static bool owns_any(const cbd_turn_request *q, int p) {
    for (size_t t = 0; t < q->turn.n_territories; t++) {
        if (q->territories[t].owner == (cbd_turn_player)p) {
            return true;
        }
    }
    return false;
}

/* W28: the receiver, a player still in the game (one owning a territory at the start: the game
 * gifts only to players who have not been eliminated), other than the giver. */
static bool read_receiver(const cbd_reader *o, const cbd_turn_request *q, cbd_turn_order *ord,
                          int player) {
    const char *id;
    if (!cbd_turn_read_id(o, "to_player", true, &id)) {
        return false;
    }
    int p = cbd_turn_find_player(q, id);
    if (strcmp(id, CBD_TURN_NEUTRAL_NAME) == 0) {
        cbd_reader_error(o, "to_player",
                         "must be a player: a gift goes to a player, not to "
                         "neutral (W28)");
        return false;
    }
    if (p < 0 || !owns_any(q, p)) {
        cbd_reader_error(o, "to_player",
                         "must be a player who owns a territory at the start of the turn (W28): "
                         "\"%s\" owns none",
                         id);
        return false;
    }
    if (p == player) {
        cbd_reader_error(o, "to_player", "must be another player than the giver (W28)");
        return false;
    }
    ord->to_player = (cbd_turn_player)p;
    return true;
}

bool cbdp_turn_read_gift(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                         cbd_turn_order *ord, int player) {
    (void)cfg;
    int64_t target = cbdp_turn_read_territory_ref(o, q, "target", true);
    ord->to = (uint32_t)(target >= 0 ? target : 0);
    bool ok = read_receiver(o, q, ord, player);
    return ok && player >= 0 && target >= 0;
}

bool cbdp_turn_read_reorder_card(const cbd_reader *o, const cbd_warapp_config *cfg,
                                 cbd_turn_request *q, cbd_turn_order *ord, int player) {
    (void)o;
    (void)cfg;
    (void)q;
    (void)ord;
    return player >= 0;
}

void cbdp_turn_card_analysis(cbd_jw *w, const cbd_turn_order_result *r) {
    cbd_jw_key_real(w, "skipped_probability", r->skipped);
}

void cbdp_turn_card_counts(cbd_jw *w, const uint64_t *counts) {
    cbd_jw_key_uint(w, "skipped", counts[0]);
}

/* One pair of `diplomacy`: two distinct players of the turn. */
static bool read_pair(const cbd_reader *r, const cbd_turn_request *q, size_t i,
                      cbd_turn_peace *out) {
    const json_t *pair = json_array_get(cbd_reader_member(r, "diplomacy"), i);
    int p[2] = {-1, -1};
    for (size_t k = 0; json_is_array(pair) && json_array_size(pair) == 2 && k < 2; k++) {
        const json_t *v = json_array_get(pair, k);
        p[k] = json_is_string(v) ? cbd_turn_find_player(q, json_string_value(v)) : -1;
    }
    if (p[0] < 0 || p[1] < 0 || p[0] == p[1]) {
        cbd_reader_item_error(r, "diplomacy", i,
                              "must be a pair of two distinct players of this turn (W29): ones "
                              "that own a territory or give an order, not neutral");
        return false;
    }
    *out = (cbd_turn_peace){(cbd_turn_player)p[0], (cbd_turn_player)p[1]};
    return true;
}

bool cbdp_turn_read_diplomacy(const cbd_reader *r, cbd_turn_request *q) {
    size_t np = q->limits.max_players;
    const json_t *arr;
    cbd_field f = cbd_read_array(r, "diplomacy", np * (np > 1 ? np - 1 : 1) / 2, &arr);
    if (f != CBD_FIELD_OK) {
        return f != CBD_FIELD_BAD;
    }
    size_t n = json_array_size(arr);
    q->peace = calloc(n > 0 ? n : 1, sizeof *q->peace);
    if (!q->peace) {
        return cbd_api_oom_problem(r->problem);
    }
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        ok &= read_pair(r, q, i, &q->peace[i]);
    }
    q->turn.peace = q->peace;
    q->turn.n_peace = n;
    return ok;
}

bool cbdp_turn_read_multipliers(const cbd_reader *s, const cbd_warapp_config *cfg,
                                cbd_turn_request *q) {
    q->turn.blockade_multiplier = cfg->blockade_multiplier;
    q->turn.emergency_blockade_multiplier = cfg->emergency_blockade_multiplier;
    if (!s) {
        return true;
    }
    const cbd_micro top = CBD_TURN_MAX_BLOCKADE_MULTIPLIER;
    bool ok = cbd_read_decimal(s, "blockade_multiplier", top, &q->turn.blockade_multiplier) !=
              CBD_FIELD_BAD;
    ok &= cbd_read_decimal(s, "emergency_blockade_multiplier", top,
                           &q->turn.emergency_blockade_multiplier) != CBD_FIELD_BAD;
    return ok;
}
