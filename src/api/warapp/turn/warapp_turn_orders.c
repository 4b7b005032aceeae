/* The orders (W12, W14), the move order (W13) and the goals (W16) of a turn request. */
#include <inttypes.h>
#include <string.h>

#include "warapp_turn_orders.h"

#include "warapp_turn_fields.h"
#include "warapp_turn_ids.h"
#include "warapp_turn_kinds_json.h"

static const char *const goal_keys[] = {"territory", "owner", NULL};
static const char *const move_order_names[] = {"listed", "cycle", "random", NULL};

const char *cbdp_turn_move_order_name(cbd_move_order m) {
    return move_order_names[m <= CBD_MOVE_RANDOM ? m : 0];
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
    return cbdp_turn_add_player(q, o, "player", id);
}

/* An order: its type (attack_transfer when absent, W14) and player, then its kind's members
 * by the kind's reader (warapp_turn_kinds.c). */
static bool read_order(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q,
                       size_t i) {
    /* Each kind takes its own members (its row's, CBD_ORDER_KIND_LIST) and no other; an
     * unknown type is refused below, its members then checked against every kind's. */
    const json_t *item = json_array_get(cbd_reader_member(r, "orders"), i);
    const json_t *tv = json_is_object(item) ? json_object_get(item, "type") : NULL;
    int named = json_is_string(tv) ? cbdp_turn_api_kind_named(json_string_value(tv)) : -1;
    const char *const *members = named >= 0 ? cbdp_turn_api_kinds[named].members
                                 : tv       ? cbdp_turn_order_members
                                      : cbdp_turn_api_kinds[CBD_ORDER_ATTACK_TRANSFER].members;
    cbd_reader o;
    if (!cbd_reader_open_item(&o, r, "orders", i, members)) {
        return false;
    }
    const char *names[CBD_ORDER_KINDS + 1];
    cbd_turn_order_type kinds[CBD_ORDER_KINDS];
    size_t n = cbdp_turn_api_kind_names(names, kinds);
    cbd_turn_order *ord = &q->orders[i];
    int type = -1;
    bool ok = cbd_read_enum(&o, "type", names, &type) != CBD_FIELD_BAD;
    ord->type = type >= 0 && (size_t)type < n ? kinds[type] : CBD_ORDER_ATTACK_TRANSFER;
    int player = read_order_player(&o, q);
    ord->player = (cbd_turn_player)(player >= 0 ? player : 0);
    return cbdp_turn_api_kind_of(ord->type)->read(&o, cfg, q, ord, player) && ok;
}

bool cbdp_turn_read_orders(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q) {
    const json_t *arr = cbd_reader_member(r, "orders");
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

/* Whether player p gives an order that runs in sequence (W13 schedules only those, W24). */
static bool moves(const cbd_turn_request *q, size_t p) {
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        if (cbdp_turn_api_kind_moves(q->orders[i].type) && q->orders[i].player == p) {
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

bool cbdp_turn_read_schedule(const cbd_reader *r, cbd_turn_request *q) {
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

bool cbdp_turn_read_goals(const cbd_reader *r, cbd_turn_request *q) {
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
        int64_t t = cbdp_turn_read_territory_ref(&g, q, "territory", true);
        cbd_turn_player owner = 0;
        const json_t *o = cbd_reader_member(&g, "owner");
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
