/*
 * The readers and renders of the kinds that move armies without a card (rows of the list of
 * kinds, CBD_ORDER_KIND_LIST): deploys (W12) and attack/transfer orders (W14, W21, W33), and
 * the empty render of the kinds whose entries hold their type only.
 */
#include "warapp_turn_kinds_json.h"

#include "warapp_turn_fields.h"

/* W12: `to` (the player's at the start of the turn) and armies; no from, no units. */
bool cbdp_turn_read_deploy(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
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

/* W33: `only` (attack or transfer; absent: either) and `attack_teammates`. */
static bool read_only(const cbd_reader *o, cbd_turn_order *ord) {
    static const char *const only_names[] = {"attack", "transfer", NULL};
    int only = -1;
    bool ok = cbd_read_enum(o, "only", only_names, &only) != CBD_FIELD_BAD;
    ord->only = only == 0 ? CBD_ONLY_ATTACK : only == 1 ? CBD_ONLY_TRANSFER : CBD_ONLY_EITHER;
    bool mates = false;
    ok &= cbd_read_bool(o, "attack_teammates", &mates) != CBD_FIELD_BAD;
    ord->attack_teammates = mates;
    return ok;
}

/* W14, W21, W33: from, to, armies or percent, units, only, attack_teammates. */
bool cbdp_turn_read_attack(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_request *q,
                           cbd_turn_order *ord, int player) {
    int64_t to = cbdp_turn_read_territory_ref(o, q, "to", true);
    bool ok = cbdp_turn_read_amount(o, cfg, ord);
    ok &= read_only(o, ord);
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
void cbdp_turn_attack_analysis(cbd_jw *w, const cbd_turn_order_result *r) {
    cbd_jw_key_real(w, "skipped_probability", r->skipped);
    cbd_jw_key_real(w, "attack_probability", r->attack);
    cbd_jw_key_real(w, "transfer_probability", r->transfer);
    cbd_jw_key_real(w, "capture_probability", r->capture);
}

void cbdp_turn_attack_counts(cbd_jw *w, const uint64_t *c) {
    cbd_jw_key_uint(w, "skipped", c[0]);
    cbd_jw_key_uint(w, "attacks", c[1]);
    cbd_jw_key_uint(w, "transfers", c[2]);
    cbd_jw_key_uint(w, "captures", c[3]);
}

/* A deploy's entries (it always runs, W12) and W30's cards' (they only reorder) hold their type
 * only. */
void cbdp_turn_none_analysis(cbd_jw *w, const cbd_turn_order_result *r) {
    (void)w;
    (void)r;
}

void cbdp_turn_none_counts(cbd_jw *w, const uint64_t *counts) {
    (void)w;
    (void)counts;
}
