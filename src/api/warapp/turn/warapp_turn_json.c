/*
 * The board of a War.app turn request (W11): territories, players, teams and settings, the
 * lookups the orders use, and the core's errors as 422s. The orders, player_order and goals
 * are read in warapp_turn_orders.c.
 */
#include "warapp_turn_json.h"

#include "api/endpoint_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/warapp/warapp_settings.h"
#include "warapp_turn_bonus_json.h"
#include "warapp_turn_cards_json.h"
#include "warapp_turn_ids.h"
#include "warapp_turn_map_json.h"
#include "warapp_turn_orders.h"
#include "api/warapp/warapp_units_json.h"

static const char *const territory_keys[] = {"owner", "armies", "units", "neighbors", NULL};

/* W23: armies given as a distribution (errors by pointer, /territories/A/armies/1/probability).
 * The core takes the largest count as the territory's armies, so W10's total is checked on it. */
static bool read_territory_fog(cbd_turn_request *q, const cbd_reader *t,
                               const cbd_warapp_config *cfg, size_t i) {
    cbd_fog *f = &q->fogs[i];
    if (!cbd_fog_read(t, "armies", cfg, f)) {
        return false;
    }
    q->fog[i] = (cbd_turn_fog){f->n, f->items};
    q->territories[i].armies = cbd_fog_max(f);
    q->turn.fog = q->fog;
    return true;
}

/* W21: the territory's units, each with an id unique on the board, in their listed order. */
static bool read_territory_units(cbd_turn_request *q, const cbd_reader *t,
                                 const cbd_warapp_config *cfg, size_t i) {
    cbd_warapp_units read;
    if (!cbd_warapp_units_read(t, "units", cfg, &read)) {
        return false;
    }
    bool ok = true;
    for (size_t k = 0; k < read.n; k++) {
        cbd_turn_unit u = {read.units[k], read.names[k] == NULL, (uint32_t)i};
        if (cbdp_turn_add_unit(q, t, "units", k, read.ids[k], &u)) {
            q->unit_name[q->turn.n_units - 1] = read.names[k];
        } else {
            ok = false;
        }
    }
    return ok;
}

/* One territory: {"owner": player or "neutral", "armies": 0..army_cap or a distribution,
 * "units": [...] (optional), "neighbors": [...] (optional, W24: warapp_turn_map_json.c)}
 * (W10, W11, W21, W23). */
static bool read_territory(cbd_turn_request *q, const cbd_reader *map, const char *id,
                           const cbd_warapp_config *cfg, size_t i) {
    q->territory_id[i] = id;
    if (!cbdp_turn_id_ok(id)) {
        cbd_reader_error(map, id, "is not a valid territory id: ids are " CBD_TURN_ID_RULE);
        return false;
    }
    cbd_reader t;
    cbd_field f = cbd_read_object(map, id, territory_keys, &t);
    if (f != CBD_FIELD_OK) {
        if (f == CBD_FIELD_ABSENT) {
            cbd_reader_error(map, id, "must be an object {\"owner\": ..., \"armies\": ...}");
        }
        return false;
    }
    const char *owner;
    bool ok = cbd_turn_read_id(&t, "owner", true, &owner);
    if (ok && strcmp(owner, CBD_TURN_NEUTRAL_NAME) == 0) {
        q->territories[i].owner = CBD_TURN_NEUTRAL;
    } else if (ok) {
        int p = cbdp_turn_add_player(q, &t, "owner", owner);
        ok = p >= 0;
        q->territories[i].owner = (cbd_turn_player)(p >= 0 ? p : 0);
    }
    ok &= read_territory_units(q, &t, cfg, i);
    if (json_is_array(cbd_reader_member(&t, "armies"))) {
        return read_territory_fog(q, &t, cfg, i) && ok;
    }
    cbd_field a = cbd_read_u64(&t, "armies", 0, cfg->army_cap, &q->territories[i].armies);
    if (a == CBD_FIELD_ABSENT) {
        cbd_reader_error(&t, "armies", "is required");
    }
    return ok && a == CBD_FIELD_OK;
}

static bool oom(cbd_problem *problem) {
    return cbd_api_oom_problem(problem);
}

/* The next `bytes` of the block, kept aligned for any member type. */
static void *carve(char **at, size_t bytes) {
    void *p = *at;
    *at += (bytes + 15) & ~(size_t)15;
    return p;
}

/* Every array of the request in one zeroed block: a turn request is read on every call, and
 * eight allocations (and eight frees) were a visible share of a one-trial /simulate-turn. */
static bool alloc_request(cbd_turn_request *q, size_t n_terr, size_t n_orders, size_t n_listed) {
    size_t np = q->limits.max_players + 1, nt = n_terr + 1, no = n_orders + 1;
    const size_t bytes[] = {
        nt * sizeof *q->territory_id,
        np * sizeof *q->player_id,
        nt * sizeof *q->territories,
        no * sizeof *q->orders,
        np * sizeof *q->team,
        np * sizeof *q->player_order,
        nt * sizeof *q->goals,
        nt * sizeof *q->sorted,
        nt * sizeof *q->fog,
        nt * sizeof *q->fogs,
        (n_listed + 1) * sizeof *q->order_units,
    };
    size_t total = 0;
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++) {
        total += (bytes[i] + 15) & ~(size_t)15;
    }
    char *at = calloc(1, total);
    if (!at) {
        return false;
    }
    q->block = at;
    q->territory_id = carve(&at, bytes[0]);
    q->player_id = carve(&at, bytes[1]);
    q->territories = carve(&at, bytes[2]);
    q->orders = carve(&at, bytes[3]);
    q->team = carve(&at, bytes[4]);
    q->player_order = carve(&at, bytes[5]);
    q->goals = carve(&at, bytes[6]);
    q->sorted = carve(&at, bytes[7]);
    q->fog = carve(&at, bytes[8]);
    q->fogs = carve(&at, bytes[9]);
    q->order_units = carve(&at, bytes[10]);
    q->order_units_cap = n_listed;
    q->n_fogs = n_terr;
    return true;
}

/* The territories object: its size against warapp.max_turn_territories, then each one. */
static bool read_territories(const cbd_reader *r, const cbd_warapp_config *cfg,
                             cbd_turn_request *q) {
    cbd_reader map;
    cbd_field f = cbd_read_map(r, "territories", &map);
    if (f != CBD_FIELD_OK) {
        if (f == CBD_FIELD_ABSENT) {
            cbd_reader_error(r, "territories",
                             "is required: an object of territory id -> "
                             "{\"owner\", \"armies\"}");
        }
        return false;
    }
    size_t n = json_object_size(map.obj);
    if (n == 0 || n > cfg->max_turn_territories) {
        cbd_reader_error(r, "territories",
                         "holds %zu territories; a board has 1 to %" PRIu32
                         " (warapp.max_turn_territories)",
                         n, cfg->max_turn_territories);
        return false;
    }
    q->turn.n_territories = n;
    bool ok = true;
    size_t i = 0;
    const char *id;
    json_t *v;
    json_object_foreach((json_t *)map.obj, id, v) {
        ok &= read_territory(q, &map, id, cfg, i++);
    }
    cbdp_turn_index_territories(q);
    return ok && cbdp_turn_read_map(&map, q);
}

/* settings: /analyze-attack's (W1–W10), plus multi_attack (W15) and the blockade multipliers
 * (W26). */
static bool read_settings(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q) {
    /* Sized by the settings table, so that no settings key can be left out. */
    static const char *const turn_keys[] = {"multi_attack", CBD_TURN_MULTIPLIER_KEYS};
    const char *keys[CBD_WARAPP_SETTINGS_N_KEYS + sizeof turn_keys / sizeof *turn_keys + 1];
    size_t n = 0;
    for (const char *const *k = cbd_warapp_settings_keys; *k; k++) {
        keys[n++] = *k;
    }
    for (size_t k = 0; k < sizeof turn_keys / sizeof *turn_keys; k++) {
        keys[n++] = turn_keys[k];
    }
    keys[n] = NULL;
    q->turn.battle = cfg->defaults;
    q->turn.multi_attack = false;
    cbd_reader s;
    cbd_field f = cbd_read_object(r, "settings", keys, &s);
    if (f != CBD_FIELD_OK) {
        return cbdp_turn_read_multipliers(NULL, cfg, q) && f != CBD_FIELD_BAD;
    }
    bool ok = cbd_warapp_settings_read(&s, &q->turn.battle);
    ok &= cbdp_turn_read_multipliers(&s, cfg, q);
    ok &= cbd_read_bool(&s, "multi_attack", &q->turn.multi_attack) != CBD_FIELD_BAD;
    return ok;
}

/* teams: player -> team name (W8, W11). Named teams get indices 0..k−1 in first-appearance
 * order; a player on no team is a team of its own (k + its index), so none collide. */
static bool read_teams(const cbd_reader *r, cbd_turn_request *q) {
    cbd_reader map;
    cbd_field f = cbd_read_map(r, "teams", &map);
    if (f != CBD_FIELD_OK) {
        return f != CBD_FIELD_BAD;
    }
    const char *names[CBD_TURN_NEUTRAL];
    int team_of[CBD_TURN_NEUTRAL];
    size_t n_names = 0, n_p = q->turn.n_players;
    for (size_t p = 0; p < n_p; p++) {
        team_of[p] = -1;
    }
    bool ok = true;
    const char *player;
    json_t *v;
    json_object_foreach((json_t *)map.obj, player, v) {
        int p = cbd_turn_find_player(q, player);
        if (p < 0) {
            cbd_reader_error(&map, player,
                             "is not a player of this turn (none of the "
                             "territories or orders names it)");
            ok = false;
            continue;
        }
        const char *team;
        if (!cbd_turn_read_id(&map, player, true, &team)) {
            ok = false;
            continue;
        }
        size_t k = 0;
        while (k < n_names && strcmp(names[k], team) != 0) {
            k++;
        }
        if (k == n_names) {
            names[n_names++] = team;
        }
        team_of[p] = (int)k;
    }
    for (size_t p = 0; p < n_p; p++) {
        q->team[p] = (uint16_t)(team_of[p] >= 0 ? (size_t)team_of[p] : n_names + p);
    }
    q->turn.team = q->team;
    return ok;
}

/* W10: armies only move or die during a turn, so the board's total after deploys bounds every
 * battle; more than 10^9 is named where the total passes it. */
static bool check_total(const cbd_reader *r, cbd_turn_request *q) {
    uint64_t total = 0;
    for (size_t i = 0; i < q->turn.n_territories; i++) {
        total += q->territories[i].armies;
    }
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        if (q->orders[i].type == CBD_ORDER_DEPLOY) {
            total += q->orders[i].armies;
        }
    }
    for (size_t u = 0; u < q->turn.n_units; u++) {
        const cbd_warapp_unit *w = &q->units[u].unit;
        total += w->attack_power > w->defense_power ? w->attack_power : w->defense_power;
    }
    if (total > CBD_WARAPP_MAX_ARMIES) {
        cbd_reader_error(r, "territories",
                         "with the deploys holds %" PRIu64 " armies%s; a board holds at most "
                         "10^9 (W10)",
                         total, q->turn.n_units ? " with its units' power (W18)" : "");
        return false;
    }
    return true;
}

/* W21: room for the units the orders list (each list past CBD_TURN_MAX_UNITS is refused). */
static size_t listed_units(const json_t *orders, size_t n_orders) {
    size_t n = 0;
    for (size_t i = 0; i < n_orders; i++) {
        const json_t *u = json_object_get(json_array_get(orders, i), "units");
        size_t k = json_is_array(u) ? json_array_size(u) : 0;
        n += k < CBD_TURN_MAX_UNITS ? k : CBD_TURN_MAX_UNITS;
    }
    return n;
}

cbd_read_status cbd_turn_read_request(const cbd_reader *r, const cbd_warapp_config *cfg,
                                      cbd_turn_request *q) {
    memset(q, 0, sizeof *q);
    q->limits = cbd_turn_default_limits();
    q->limits.max_territories = cfg->max_turn_territories;
    q->limits.max_orders = cfg->max_turn_orders;
    q->limits.max_states = cfg->max_turn_states;
    const json_t *orders = cbd_reader_member(r, "orders");
    size_t n_orders = json_is_array(orders) ? json_array_size(orders) : 0;
    const json_t *terr = cbd_reader_member(r, "territories");
    size_t n_terr = json_is_object(terr) ? json_object_size(terr) : 0;
    if (n_terr > cfg->max_turn_territories) {
        n_terr = 0; /* refused below without reading */
    }
    if (n_orders > cfg->max_turn_orders) {
        n_orders = 0; /* refused when the orders are read */
    }
    if (!alloc_request(q, n_terr, n_orders, listed_units(orders, n_orders))) {
        return cbd_api_read_status(oom(r->problem), r->problem);
    }
    q->turn.territories = q->territories;
    q->turn.orders = q->orders;
    q->turn.player_order = q->player_order;
    q->turn.goals = q->goals;
    q->turn.units = q->units;

    bool ok = read_settings(r, cfg, q);
    bool board = read_territories(r, cfg, q);
    ok &= board;
    if (board) {
        /* The rest names territories and players: read it only on a board that parsed. */
        ok &= cbdp_turn_read_orders(r, cfg, q);
        ok &= read_teams(r, q);
        ok &= cbdp_turn_read_schedule(r, q);
        ok &= cbdp_turn_read_goals(r, q);
        ok &= cbdp_turn_read_diplomacy(r, q);
        ok &= cbdp_turn_read_bonuses(r, q);
        ok = ok && cbdp_turn_check_borders(r, q);
        ok = ok && check_total(r, q);
    }
    /* Unknown members were recorded by cbd_reader_open without failing it: the status sees
     * them, and the core's checks run on a turn read whole only. */
    cbd_read_status read = cbd_api_read_status(ok, r->problem);
    if (read == CBD_READ_OK) {
        cbd_turn_error err;
        cbd_status st = cbd_turn_validate(&q->turn, &q->limits, &err);
        if (st != CBD_OK) {
            cbd_turn_error_problem(q, st, &err, r->problem);
            return cbd_api_read_status(false, r->problem);
        }
    }
    return read;
}

void cbd_turn_request_free(cbd_turn_request *q) {
    for (size_t i = 0; q->fogs && i < q->n_fogs; i++) {
        cbd_fog_free(&q->fogs[i]);
    }
    free(q->block);
    free(q->map);
    free(q->peace);
    free(q->bonuses);
    free(q->bonus_id);
    free(q->bonus_terr);
    memset(q, 0, sizeof *q);
}

/* What a group may hold: warapp.max_turn_states, or fewer where its states are large (the
 * engine keeps at most max_state_words words of them, four a territory of the group). */
static void states_allowed(char *buf, size_t size, const cbd_turn_request *q, uint64_t limit) {
    if (limit < q->limits.max_states) {
        snprintf(buf, size,
                 "at most %" PRIu64 " fit for states this large (warapp.max_turn_states: %" PRIu64
                 ")",
                 limit, q->limits.max_states);
    } else {
        snprintf(buf, size, "at most %" PRIu64 " are allowed (warapp.max_turn_states)", limit);
    }
}

void cbd_turn_error_problem(const cbd_turn_request *q, cbd_status st, const cbd_turn_error *err,
                            cbd_problem *problem) {
    if (st == CBD_ERR_NOMEM) {
        (void)oom(problem);
        return;
    }
    cbd_reader root = {.obj = NULL, .pointer = "", .problem = problem};
    cbd_reader terr = {.obj = NULL, .pointer = "/territories", .problem = problem};
    switch (err->kind) {
        case CBD_TURN_ERR_STATES: {
            char allowed[200];
            states_allowed(allowed, sizeof allowed, q, err->limit);
            if (err->index == CBD_TURN_NO_ORDER) {
                cbd_reader_error(&root, "territories",
                                 "start from %" PRIu64 " board states in one group of "
                                 "territories (every combination of the counts their armies "
                                 "may be, W23); %s: give fewer counts, or resolve sampled turns "
                                 "with POST /simulate-turn instead",
                                 err->needed, allowed);
                return;
            }
            cbd_reader_error(&root, "orders",
                             "needs at least %" PRIu64 " board states in one group of "
                             "territories (at order %zu); %s: resolve sampled turns with POST "
                             "/simulate-turn instead",
                             err->needed, err->index, allowed);
            return;
        }
        case CBD_TURN_ERR_WORK:
            if (err->index == CBD_TURN_NO_ORDER) {
                cbd_reader_error(&root, "territories",
                                 "start from %" PRIu64 " terms with the board's distributions "
                                 "(W23); at most %" PRIu64
                                 " are computed per request: give fewer counts, or resolve "
                                 "sampled turns with POST /simulate-turn instead",
                                 err->needed, err->limit);
                return;
            }
            cbd_reader_error(&root, "orders",
                             "needs at least %" PRIu64 " terms (kill distribution terms and "
                             "battle outcomes, at order %zu); at most %" PRIu64
                             " are computed per request: resolve sampled turns with POST "
                             "/simulate-turn instead",
                             err->needed, err->index, err->limit);
            return;
        case CBD_TURN_ERR_SCHEDULES:
            cbd_reader_error(&root, "move_order",
                             "random weighs %" PRIu64 " orders of the players; at most %" PRIu64
                             " are weighed: resolve sampled turns with POST /simulate-turn",
                             err->needed, err->limit);
            return;
        case CBD_TURN_ERR_TERRITORY:
            cbd_reader_error(&terr, q->territory_id[err->index], "is not a valid territory");
            return;
        case CBD_TURN_ERR_ORDER:
            cbd_reader_item_error(&root, "orders", err->index, "is not a valid order");
            return;
        case CBD_TURN_ERR_UNIT:
            cbd_reader_error(&root, "territories",
                             "hold units the turn cannot take (W17, W21: at most %d on the "
                             "board, armies and unit powers at most 10^9 in all)",
                             CBD_TURN_MAX_UNITS);
            return;
        case CBD_TURN_ERR_PLAYER_ORDER:
            cbd_reader_error(&root, "player_order", "must list every player with orders once");
            return;
        case CBD_TURN_ERR_GOAL:
            cbd_reader_item_error(&root, "goals", err->index, "is not a valid goal");
            return;
        case CBD_TURN_ERR_SIZE:
        case CBD_TURN_ERR_NONE:
        case CBD_TURN_ERR_BUDGET:
            break;
    }
    cbd_reader_error(&root, NULL, "the turn is larger than this service takes");
}

bool cbd_turn_core_problem(const cbd_config *cfg, const cbd_budget *budget,
                           const cbd_turn_request *q, cbd_status st, const cbd_turn_error *err,
                           const char *member, cbd_problem *problem) {
    if (st != CBD_ERR_BUDGET && st != CBD_ERR_NOMEM) {
        cbd_turn_error_problem(q, st, err, problem);
        return false;
    }
    char order[40];
    if (err->kind == CBD_TURN_ERR_BUDGET && err->index < q->turn.n_orders) {
        snprintf(order, sizeof order, "/orders/%zu", err->index);
        member = order;
    } else if (err->kind == CBD_TURN_ERR_BUDGET && err->index == CBD_TURN_FOG_START) {
        member = "/territories"; /* the product of the distributions (W23) */
    } else if (err->kind == CBD_TURN_ERR_SCHEDULES) {
        member = "/move_order";
    } else if (err->kind == CBD_TURN_ERR_GOAL) {
        member = "/goals";
    }
    return cbd_api_core_problem(cfg, budget, st, member, problem);
}

void cbdp_turn_echo_members(cbd_jw *w, const cbd_turn_request *q) {
    cbd_jw_key(w, "settings");
    cbd_jw_object_open(w);
    cbd_warapp_settings_members(w, &q->turn.battle);
    cbd_jw_key_bool(w, "multi_attack", q->turn.multi_attack);
    cbd_jw_object_close(w);
    cbd_jw_key_string(w, "move_order", cbdp_turn_move_order_name(q->turn.move_order));
    if (!q->turn.fog) {
        return;
    }
    cbd_jw_blame(w, "/territories"); /* the echo is as long as the distributions given */
    cbd_jw_key(w, "fog");
    cbd_jw_object_open(w);
    for (size_t i = 0; i < q->turn.n_territories; i++) {
        if (q->fogs[i].n > 0) {
            cbd_fog_write(w, q->territory_id[i], &q->fogs[i]);
        }
    }
    cbd_jw_object_close(w);
}

uint64_t cbdp_turn_fog_points(const cbd_turn_request *q) {
    uint64_t n = 0;
    for (size_t i = 0; q->turn.fog && i < q->turn.n_territories; i++) {
        n += q->fogs[i].n;
    }
    return n;
}

void cbdp_turn_owner_key(cbd_jw *w, const cbd_turn_request *q, cbd_turn_player owner) {
    cbd_jw_key(w, owner == CBD_TURN_NEUTRAL ? CBD_TURN_NEUTRAL_NAME : q->player_id[owner]);
}
