/* The orders (W12, W14), the move order (W13) and the goals (W16) of a turn request. */
#include <inttypes.h>
#include <string.h>

#include "warapp_turn_orders.h"

#include "warapp_turn_ids.h"

static const char *const order_keys[] = {"type",   "player",  "from",  "to",
                                         "armies", "percent", "units", NULL};
static const char *const type_names[] = {"deploy", "attack_transfer", NULL};
static const char *const goal_keys[] = {"territory", "owner", NULL};
static const char *const move_order_names[] = {"listed", "cycle", "random", NULL};

const char *cbd_turn_move_order_name(cbd_move_order m) {
    return move_order_names[m <= CBD_MOVE_RANDOM ? m : 0];
}

/* A territory id member: its index, or -1 with an error recorded (or quietly when absent and
 * not required). */
static int64_t read_territory_ref(const cbd_reader *r, const cbd_turn_request *q, const char *key,
                                  bool required) {
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

/* The order's player: any player id but neutral, which gives no orders (W11). */
static int read_order_player(const cbd_reader *o, cbd_turn_request *q) {
    const char *id;
    if (!cbd_turn_read_id(o, "player", true, &id)) {
        return -1;
    }
    if (strcmp(id, CBD_TURN_NEUTRAL_NAME) == 0) {
        cbd_reader_error(o, "player", "must be a player: neutral territories give no orders (W11)");
        return -1;
    }
    return cbd_turn_add_player(q, o, "player", id);
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
static bool read_amount(const cbd_reader *o, const cbd_warapp_config *cfg, cbd_turn_order *ord) {
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
    int u = cbd_turn_find_unit(q, id);
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
static bool read_order_units(const cbd_reader *o, cbd_turn_request *q, cbd_turn_order *ord) {
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

static bool read_order(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q,
                       size_t i) {
    cbd_reader o;
    if (!cbd_reader_open_item(&o, r, "orders", i, order_keys)) {
        return false;
    }
    cbd_turn_order *ord = &q->orders[i];
    int type = CBD_ORDER_ATTACK_TRANSFER;
    bool ok = cbd_read_enum(&o, "type", type_names, &type) != CBD_FIELD_BAD;
    ord->type = type == 0 ? CBD_ORDER_DEPLOY : CBD_ORDER_ATTACK_TRANSFER;
    int player = read_order_player(&o, q);
    int64_t to = read_territory_ref(&o, q, "to", true);
    ok &= read_amount(&o, cfg, ord);
    ok = ok && player >= 0 && to >= 0;
    ord->player = (cbd_turn_player)(player >= 0 ? player : 0);
    ord->to = (uint32_t)(to >= 0 ? to : 0);
    if (player >= 0 && json_object_get(o.obj, "units")) {
        ok &= read_order_units(&o, q, ord);
    }
    if (ord->type == CBD_ORDER_DEPLOY) {
        if (json_object_get(o.obj, "from")) {
            cbd_reader_error(&o, "from", "a deploy has no from: it adds armies to `to` (W12)");
            ok = false;
        }
        if (player >= 0 && to >= 0 && q->territories[to].owner != ord->player) {
            cbd_reader_error(&o, "to",
                             "is not %s's at the start of the turn; a deploy goes to a territory "
                             "its player owns then (W12)",
                             q->player_id[player]);
            ok = false;
        }
        return ok;
    }
    int64_t from = read_territory_ref(&o, q, "from", true);
    if (from >= 0 && from == to) {
        cbd_reader_error(&o, "to", "must be another territory than from");
        return false;
    }
    ord->from = (uint32_t)(from >= 0 ? from : 0);
    return ok && from >= 0;
}

bool cbd_turn_read_orders(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q) {
    const json_t *arr = json_object_get(r->obj, "orders");
    if (!arr || json_is_null(arr)) {
        cbd_reader_error(r, "orders", "is required: an array of orders (it may be empty)");
        return false;
    }
    if (!json_is_array(arr) || json_array_size(arr) > cfg->max_turn_orders) {
        cbd_reader_error(r, "orders",
                         "must be an array of at most %" PRIu32
                         " orders (warapp.max_turn_orders)%s",
                         cfg->max_turn_orders, json_is_array(arr) ? "" : ", not that");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        ok &= read_order(r, cfg, q, i);
    }
    q->turn.n_orders = json_array_size(arr);
    return ok;
}

/* A player named in player_order: one of the turn's players. Errors at item `index` of `key`. */
static bool known_player(const cbd_reader *r, const char *key, size_t index, const json_t *v,
                         const cbd_turn_request *q, cbd_turn_player *out) {
    const char *id = json_is_string(v) ? json_string_value(v) : NULL;
    int p = id ? cbd_turn_find_player(q, id) : -1;
    if (p < 0) {
        cbd_reader_item_error(r, key, index,
                              "must be a player of this turn: one that owns a territory or gives "
                              "an order (not neutral)");
        return false;
    }
    *out = (cbd_turn_player)p;
    return true;
}

/* Whether player p gives an attack/transfer order (W13 schedules only those). */
static bool moves(const cbd_turn_request *q, size_t p) {
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        if (q->orders[i].type == CBD_ORDER_ATTACK_TRANSFER && q->orders[i].player == p) {
            return true;
        }
    }
    return false;
}

/* player_order must name every player with attack/transfer orders under cycle (W13). */
static bool check_cycle(const cbd_reader *r, const cbd_turn_request *q, bool given) {
    if (!given) {
        cbd_reader_error(r, "player_order",
                         "is required when move_order is cycle: round 1's order of the players "
                         "(W13)");
        return false;
    }
    for (size_t p = 0; p < q->turn.n_players; p++) {
        bool listed = false;
        for (size_t k = 0; k < q->turn.n_player_order; k++) {
            listed = listed || q->player_order[k] == p;
        }
        if (!listed && moves(q, p)) {
            cbd_reader_error(r, "player_order",
                             "must list every player with orders (W13); \"%s\" is missing",
                             q->player_id[p]);
            return false;
        }
    }
    return true;
}

bool cbd_turn_read_schedule(const cbd_reader *r, cbd_turn_request *q) {
    int m = CBD_MOVE_LISTED;
    bool ok = cbd_read_enum(r, "move_order", move_order_names, &m) != CBD_FIELD_BAD;
    q->turn.move_order = (cbd_move_order)m;
    const json_t *arr;
    cbd_field f = cbd_read_array(r, "player_order", q->limits.max_players, &arr);
    if (f == CBD_FIELD_BAD) {
        return false;
    }
    if (f == CBD_FIELD_OK) {
        for (size_t i = 0; i < json_array_size(arr); i++) {
            cbd_turn_player p;
            if (!known_player(r, "player_order", i, json_array_get(arr, i), q, &p)) {
                ok = false;
                continue;
            }
            for (size_t k = 0; k < q->turn.n_player_order; k++) {
                if (q->player_order[k] == p) {
                    cbd_reader_item_error(r, "player_order", i, "names \"%s\" a second time",
                                          q->player_id[p]);
                    ok = false;
                }
            }
            q->player_order[q->turn.n_player_order++] = p;
        }
    }
    if (ok && q->turn.move_order == CBD_MOVE_CYCLE) {
        ok = check_cycle(r, q, f == CBD_FIELD_OK);
    }
    return ok;
}

bool cbd_turn_read_goals(const cbd_reader *r, cbd_turn_request *q) {
    const json_t *arr;
    cbd_field f = cbd_read_array(r, "goals", q->turn.n_territories, &arr);
    if (f != CBD_FIELD_OK) {
        return f != CBD_FIELD_BAD;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        cbd_reader g;
        if (!cbd_reader_open_item(&g, r, "goals", i, goal_keys)) {
            ok = false;
            continue;
        }
        int64_t t = read_territory_ref(&g, q, "territory", true);
        cbd_turn_player owner = 0;
        const json_t *o = json_object_get(g.obj, "owner");
        bool owner_ok;
        if (!o) {
            cbd_reader_error(&g, "owner", "is required");
            owner_ok = false;
        } else {
            const char *id = json_is_string(o) ? json_string_value(o) : "";
            int p = cbd_turn_find_player(q, id);
            owner_ok = strcmp(id, CBD_TURN_NEUTRAL_NAME) == 0 || p >= 0;
            owner = strcmp(id, CBD_TURN_NEUTRAL_NAME) == 0 ? CBD_TURN_NEUTRAL
                                                           : (cbd_turn_player)(p < 0 ? 0 : p);
            if (!owner_ok) {
                cbd_reader_error(&g, "owner",
                                 "must be a player of this turn (one that owns a territory or "
                                 "gives an order) or \"neutral\"");
            }
        }
        if (t < 0 || !owner_ok) {
            ok = false;
            continue;
        }
        q->goals[q->turn.n_goals].territory = (uint32_t)t;
        q->goals[q->turn.n_goals].owner = owner;
        q->turn.n_goals++;
    }
    return ok;
}
