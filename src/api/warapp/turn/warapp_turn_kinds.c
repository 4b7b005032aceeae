/*
 * The kinds of order on the api side, one row each (see warapp_turn_kinds.h): each kind's JSON
 * name (written nowhere else in src/), the reader of its members and its entries in the
 * answers. The core's rows of the same kinds (phase, checks, steps) are in
 * src/core/warapp/turn/warapp_turn_kinds.c.
 */
#include <string.h>

#include "warapp_turn_kinds.h"

#include "warapp_turn_cards_json.h"
#include "warapp_turn_fields.h"

/* W12: `to` (the player's at the start of the turn) and armies; no from, no units. */
static bool read_deploy(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                        cbd_turn_order *ord, int player) {
    int64_t to = cbdp_turn_read_territory_ref(o, q, "to", true);
    bool ok = cbdp_turn_read_amount(o, cfg, ord);
    ok = ok && player >= 0 && to >= 0;
    ord->to = (uint32_t)(to >= 0 ? to : 0);
    if (player >= 0 && json_object_get(o->obj, "units")) {
        ok &= cbdp_turn_read_order_units(o, q, ord);
    }
    if (json_object_get(o->obj, "from")) {
        cbd_reader_error(o, "from", "a deploy has no from: it adds armies to `to` (W12)");
        ok = false;
    }
    if (player >= 0 && to >= 0 && q->territories[to].owner != ord->player) {
        cbd_reader_error(o, "to",
                         "is not %s's at the start of the turn; a deploy goes to a territory its "
                         "player owns then (W12)",
                         q->player_id[player]);
        ok = false;
    }
    return ok;
}

/* W14, W21: from, to, armies or percent, units. */
static bool read_attack(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                        cbd_turn_order *ord, int player) {
    int64_t to = cbdp_turn_read_territory_ref(o, q, "to", true);
    bool ok = cbdp_turn_read_amount(o, cfg, ord);
    ok = ok && player >= 0 && to >= 0;
    ord->to = (uint32_t)(to >= 0 ? to : 0);
    if (player >= 0 && json_object_get(o->obj, "units")) {
        ok &= cbdp_turn_read_order_units(o, q, ord);
    }
    int64_t from = cbdp_turn_read_territory_ref(o, q, "from", true);
    if (from >= 0 && from == to) {
        cbd_reader_error(o, "to", "must be another territory than from");
        return false;
    }
    ord->from = (uint32_t)(from >= 0 ? from : 0);
    return ok && from >= 0;
}

/* W16: an attack/transfer order's chances. */
static void attack_analysis(cbd_jw *w, const cbd_turn_order_result *r) {
    cbd_jw_key_real(w, "skipped_probability", r->skipped);
    cbd_jw_key_real(w, "attack_probability", r->attack);
    cbd_jw_key_real(w, "transfer_probability", r->transfer);
    cbd_jw_key_real(w, "capture_probability", r->capture);
}

static void attack_counts(cbd_jw *w, const uint64_t *c) {
    cbd_jw_key_uint(w, "skipped", c[0]);
    cbd_jw_key_uint(w, "attacks", c[1]);
    cbd_jw_key_uint(w, "transfers", c[2]);
    cbd_jw_key_uint(w, "captures", c[3]);
}

/* A deploy's entries hold its type only: it always runs (W12). Floors: {"result":"deploy",
 * "armies":N}, and {"result":"skipped"}, each with its comma. */
const cbd_turn_api_kind cbdp_turn_api_kinds[CBD_ORDER_KINDS] = {
    [CBD_ORDER_DEPLOY] = {"deploy", read_deploy, NULL, NULL, 31},
    [CBD_ORDER_ATTACK_TRANSFER] = {"attack_transfer", read_attack, attack_analysis, attack_counts,
                                   21},
    /* The cards (W25–W30, warapp_turn_cards_json.c): their entries hold skipped_probability
     * (or their skipped count); order priority and delay their type only. A listed card that ran is
     * {"result":"played"} (20 bytes with its comma), or skipped (21); an airlift's adds its
     * sent armies. */
    [CBD_ORDER_BOMB] = {"bomb", cbdp_turn_read_target_card, cbdp_turn_card_analysis,
                        cbdp_turn_card_counts, 20},
    [CBD_ORDER_BLOCKADE] = {"blockade", cbdp_turn_read_target_card, cbdp_turn_card_analysis,
                            cbdp_turn_card_counts, 20},
    [CBD_ORDER_EMERGENCY_BLOCKADE] = {"emergency_blockade", cbdp_turn_read_target_card,
                                      cbdp_turn_card_analysis, cbdp_turn_card_counts, 20},
    [CBD_ORDER_AIRLIFT] = {"airlift", cbdp_turn_read_airlift, cbdp_turn_card_analysis,
                           cbdp_turn_card_counts, 21},
    [CBD_ORDER_GIFT] = {"gift", cbdp_turn_read_gift, cbdp_turn_card_analysis, cbdp_turn_card_counts,
                        20},
    [CBD_ORDER_PRIORITY] = {"order_priority", cbdp_turn_read_reorder_card, NULL, NULL, 20},
    [CBD_ORDER_DELAY] = {"order_delay", cbdp_turn_read_reorder_card, NULL, NULL, 20},
};

const cbd_turn_api_kind *cbdp_turn_api_kind_of(cbd_turn_order_type type) {
    return &cbdp_turn_api_kinds[(unsigned)type < CBD_ORDER_KINDS ? type : CBD_ORDER_DEPLOY];
}

size_t cbdp_turn_api_kind_names(const char **names, cbd_turn_order_type *kinds) {
    size_t n = 0;
    for (size_t k = 0; k < CBD_ORDER_KINDS; k++) {
        if (cbdp_turn_api_kinds[k].name) {
            kinds[n] = (cbd_turn_order_type)k;
            names[n++] = cbdp_turn_api_kinds[k].name;
        }
    }
    names[n] = NULL;
    return n;
}

int cbdp_turn_api_kind_named(const char *name) {
    for (size_t k = 0; name && k < CBD_ORDER_KINDS; k++) {
        if (cbdp_turn_api_kinds[k].name && strcmp(cbdp_turn_api_kinds[k].name, name) == 0) {
            return (int)k;
        }
    }
    return -1;
}

bool cbdp_turn_api_kind_moves(cbd_turn_order_type type) {
    cbd_turn_phase ph = cbd_turn_kind_phase(type);
    return ph != CBD_PHASE_DEPLOY && ph != CBD_PHASE_NONE;
}
