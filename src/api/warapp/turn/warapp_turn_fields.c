/*
 * The members that several kinds of order share (W12, W14, W21): a territory by id, how many
 * armies an order moves (armies or percent), the units it lists. Read by the kinds' readers
 * (warapp_turn_kinds.c) and the goals (warapp_turn_orders.c).
 */
#include <string.h>

#include "warapp_turn_fields.h"

#include "warapp_turn_ids.h"

/* A territory id member: its index, or -1 with an error recorded (or quietly when absent and
 * not required). */
int64_t cbdp_turn_read_territory_ref(const cbd_reader *r, const cbd_turn_request *q,
                                     const char *key, bool required) {
    const char *id;
    if (!cbd_turn_read_id(r, key, required, &id)) {
        return -1;
    }
    int64_t t = cbd_turn_find_territory(q, id);
    if (t < 0) {
        cbd_reader_error(r, key, "is not a territory of this board: \"%s\"", id);
    }
    return t;
}

/* percent: an exact decimal in (0, 1] with at most 6 places (W3, W14). */
static bool read_percent(const cbd_reader *o, cbd_micro *out) {
    const json_t *v = json_object_get(o->obj, "percent");
    cbd_micro m = 0;
    if (!json_is_number(v) || !cbd_micro_from_double(json_number_value(v), &m) || m == 0) {
        cbd_reader_error(o, "percent",
                         "must be a number greater than 0 and at most 1 with at most 6 decimal "
                         "places (W3, W14)");
        return false;
    }
    *out = m;
    return true;
}

/* How much the order moves: exactly one of armies (whole, >= 0) and percent. */
bool cbdp_turn_read_amount(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_order *ord) {
    bool has_armies = json_object_get(o->obj, "armies") != NULL;
    bool has_percent = json_object_get(o->obj, "percent") != NULL;
    if (has_armies == has_percent) {
        cbd_reader_error(o, NULL, "%s",
                         has_armies ? "has both armies and percent; give exactly one"
                                    : "needs armies or percent (exactly one)");
        return false;
    }
    if (has_armies) {
        return cbd_read_u64(o, "armies", 0, cfg->army_cap, &ord->armies) == CBD_FIELD_OK;
    }
    if (ord->type == CBD_ORDER_DEPLOY) {
        cbd_reader_error(o, "percent", "a deploy adds a number of armies: give armies (W12)");
        return false;
    }
    ord->by_percent = true;
    return read_percent(o, &ord->percent);
}

/* W21: one unit id of the order's list: a unit of the board, of the order's player (on a
 * territory the player owns at the start), listed once. */
static bool read_order_unit(const cbd_reader *o, cbd_turn_request *q, cbd_turn_order *ord,
                            const json_t *v, size_t k) {
    const char *id = json_string_value(v);
    if (!json_is_string(v) || strlen(id) != json_string_length(v)) {
        cbd_reader_item_error(o, "units", k, "must be a unit id (a string)");
        return false;
    }
    int u = cbdp_turn_find_unit(q, id);
    if (u < 0) {
        cbd_reader_item_error(o, "units", k, "is not a unit of this board: \"%s\"", id);
        return false;
    }
    cbd_turn_player owner = q->territories[q->units[u].territory].owner;
    if (owner != ord->player) {
        cbd_reader_item_error(o, "units", k,
                              "is a unit of %s (on %s at the start), not of the order's player %s "
                              "(W21)",
                              owner == CBD_TURN_NEUTRAL ? CBD_TURN_NEUTRAL_NAME
                                                        : q->player_id[owner],
                              q->territory_id[q->units[u].territory], q->player_id[ord->player]);
        return false;
    }
    for (size_t j = 0; j < ord->n_units; j++) {
        if (ord->units[j] == (uint32_t)u) {
            cbd_reader_item_error(o, "units", k, "lists \"%s\" again: list a unit once", id);
            return false;
        }
    }
    q->order_units[q->order_units_used++] = (uint32_t)u;
    ord->n_units++;
    return true;
}

/* W21: the units an attack/transfer order moves, by id (a deploy moves none). */
bool cbdp_turn_read_order_units(const cbd_reader *o, cbd_turn_request *q, cbd_turn_order *ord) {
    const json_t *arr;
    cbd_field f = cbd_read_array(o, "units", CBD_TURN_MAX_UNITS, &arr);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    if (ord->type == CBD_ORDER_DEPLOY) {
        cbd_reader_error(o, "units",
                         "a deploy adds armies only: units move with attack/transfer "
                         "orders (W21)");
        return false;
    }
    ord->units = q->order_units + q->order_units_used;
    ord->n_units = 0;
    bool ok = true;
    for (size_t k = 0; k < json_array_size(arr) && q->order_units_used < q->order_units_cap; k++) {
        ok &= read_order_unit(o, q, ord, json_array_get(arr, k), k);
    }
    return ok;
}
