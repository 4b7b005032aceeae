/*
 * The board of a War.app turn request (W11): territories, players, teams and settings, the
 * lookups the orders use, and the core's errors as 422s. The orders, player_order and goals
 * are read in warapp_turn_orders.c.
 */
#include "warapp_turn_json.h"

#include "endpoint_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "warapp_settings.h"
#include "warapp_turn_read.h"

static const char *const territory_keys[] = {"owner", "armies", NULL};

/* Ids become JSON member names of the answers, written as they are (cbd_jw_key): so no byte
 * that JSON would have to escape. jansson has checked that the text is UTF-8. */
static bool id_ok(const char *id) {
    size_t n = strlen(id);
    if (n == 0 || n > CBD_TURN_ID_MAX) {
        return false;
    }
    for (const unsigned char *c = (const unsigned char *)id; *c; c++) {
        if (*c < 0x20 || *c == '"' || *c == '\\' || *c == 0x7f) {
            return false;
        }
    }
    return true;
}

#define ID_RULE "1 to 64 bytes without control characters, quotes or backslashes"

bool cbd_turn_read_id(const cbd_reader *r, const char *key, bool required, const char **out) {
    const json_t *v = json_object_get(r->obj, key);
    if (!v || json_is_null(v)) {
        if (required) {
            cbd_reader_error(r, key, "is required");
        }
        return false;
    }
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v) ||
        !id_ok(json_string_value(v))) {
        cbd_reader_error(r, key, "must be an id: a string of " ID_RULE);
        return false;
    }
    *out = json_string_value(v);
    return true;
}

int cbd_turn_find_player(const cbd_turn_request *q, const char *id) {
    for (size_t p = 0; p < q->turn.n_players; p++) {
        if (strcmp(q->player_id[p], id) == 0) {
            return (int)p;
        }
    }
    return -1;
}

int cbd_turn_add_player(cbd_turn_request *q, const cbd_reader *r, const char *key, const char *id) {
    int p = cbd_turn_find_player(q, id);
    if (p >= 0) {
        return p;
    }
    if (q->turn.n_players >= q->limits.max_players) {
        cbd_reader_error(r, key, "names player %zu; a turn has at most %zu players",
                         q->turn.n_players + 1, q->limits.max_players);
        return -1;
    }
    q->player_id[q->turn.n_players] = id;
    return (int)q->turn.n_players++;
}

static int cmp_territory(const void *a, const void *b, void *ids) {
    const char *const *id = ids;
    return strcmp(id[*(const uint32_t *)a], id[*(const uint32_t *)b]);
}

/* Territory ids are looked up once per order member; a sorted index keeps a 256-territory
 * board with 256 orders from costing 10^5 string compares. (qsort_r: _GNU_SOURCE.) */
static void sort_territories(cbd_turn_request *q) {
    size_t n = q->turn.n_territories;
    for (size_t i = 0; i < n; i++) {
        q->sorted[i] = (uint32_t)i;
    }
    qsort_r(q->sorted, n, sizeof *q->sorted, cmp_territory, q->territory_id);
}

int64_t cbd_turn_find_territory(const cbd_turn_request *q, const char *id) {
    size_t lo = 0, hi = q->turn.n_territories;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(q->territory_id[q->sorted[mid]], id);
        if (c == 0) {
            return q->sorted[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return -1;
}

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

/* One territory: {"owner": player or "neutral", "armies": 0..army_cap or a distribution}
 * (W10, W11, W23). */
static bool read_territory(cbd_turn_request *q, const cbd_reader *map, const char *id,
                           const cbd_warapp_config *cfg, size_t i) {
    q->territory_id[i] = id;
    if (!id_ok(id)) {
        cbd_reader_error(map, id, "is not a valid territory id: ids are " ID_RULE);
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
        int p = cbd_turn_add_player(q, &t, "owner", owner);
        ok = p >= 0;
        q->territories[i].owner = (cbd_turn_player)(p >= 0 ? p : 0);
    }
    if (json_is_array(json_object_get(t.obj, "armies"))) {
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
static bool alloc_request(cbd_turn_request *q, size_t n_terr, size_t n_orders) {
    size_t np = q->limits.max_players + 1, nt = n_terr + 1, no = n_orders + 1;
    const size_t bytes[] = {
        nt * sizeof *q->territory_id, np * sizeof *q->player_id, nt * sizeof *q->territories,
        no * sizeof *q->orders,       np * sizeof *q->team,      np * sizeof *q->player_order,
        nt * sizeof *q->goals,        nt * sizeof *q->sorted,    nt * sizeof *q->fog,
        nt * sizeof *q->fogs,
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
    sort_territories(q);
    return ok;
}

/* settings: /analyze-attack's (W1–W10), plus multi_attack (W15). */
static bool read_settings(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q) {
    /* Sized by the settings table, so that no settings key can be left out. */
    const char *keys[CBD_WARAPP_SETTINGS_N_KEYS + 2];
    size_t n = 0;
    for (const char *const *k = cbd_warapp_settings_keys; *k; k++) {
        keys[n++] = *k;
    }
    keys[n++] = "multi_attack";
    keys[n] = NULL;
    q->turn.battle = cfg->defaults;
    q->turn.multi_attack = false;
    cbd_reader s;
    cbd_field f = cbd_read_object(r, "settings", keys, &s);
    if (f != CBD_FIELD_OK) {
        return f != CBD_FIELD_BAD;
    }
    bool ok = cbd_warapp_settings_read(&s, &q->turn.battle);
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
    if (total > CBD_WARAPP_MAX_ARMIES) {
        cbd_reader_error(r, "territories",
                         "with the deploys holds %" PRIu64 " armies; a board holds at most "
                         "10^9 (W10)",
                         total);
        return false;
    }
    return true;
}

bool cbd_turn_request_read(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q) {
    memset(q, 0, sizeof *q);
    q->limits = cbd_turn_default_limits();
    q->limits.max_territories = cfg->max_turn_territories;
    q->limits.max_orders = cfg->max_turn_orders;
    q->limits.max_states = cfg->max_turn_states;
    const json_t *orders = json_object_get(r->obj, "orders");
    size_t n_orders = json_is_array(orders) ? json_array_size(orders) : 0;
    const json_t *terr = json_object_get(r->obj, "territories");
    size_t n_terr = json_is_object(terr) ? json_object_size(terr) : 0;
    if (n_terr > cfg->max_turn_territories) {
        n_terr = 0; /* refused below without reading */
    }
    if (!alloc_request(q, n_terr, n_orders > cfg->max_turn_orders ? 0 : n_orders)) {
        return oom(r->problem);
    }
    q->turn.territories = q->territories;
    q->turn.orders = q->orders;
    q->turn.player_order = q->player_order;
    q->turn.goals = q->goals;

    bool ok = read_settings(r, cfg, q);
    bool board = read_territories(r, cfg, q);
    ok &= board;
    if (board) {
        /* The rest names territories and players: read it only on a board that parsed. */
        ok &= cbd_turn_read_orders(r, cfg, q);
        ok &= read_teams(r, q);
        ok &= cbd_turn_read_schedule(r, q);
        ok &= cbd_turn_read_goals(r, q);
        ok = ok && check_total(r, q);
    }
    if (ok && r->problem->status == 0) {
        cbd_turn_error err;
        cbd_status st = cbd_turn_validate(&q->turn, &q->limits, &err);
        if (st != CBD_OK) {
            cbd_turn_error_problem(q, st, &err, r->problem);
            return false;
        }
    }
    /* Unknown members were recorded by cbd_reader_open without failing it. */
    return ok && r->problem->status == 0;
}

void cbd_turn_request_free(cbd_turn_request *q) {
    for (size_t i = 0; q->fogs && i < q->n_fogs; i++) {
        cbd_fog_free(&q->fogs[i]);
    }
    free(q->block);
    memset(q, 0, sizeof *q);
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
        case CBD_TURN_ERR_STATES:
            if (err->index == CBD_TURN_NO_ORDER) {
                cbd_reader_error(&root, "territories",
                                 "start from %" PRIu64 " board states in one group of "
                                 "territories (every combination of the counts their armies "
                                 "may be, W23); at most %" PRIu64
                                 " are allowed (warapp.max_turn_states): give fewer counts, or "
                                 "resolve sampled turns with POST /simulate-turn instead",
                                 err->needed, err->limit);
                return;
            }
            cbd_reader_error(&root, "orders",
                             "needs at least %" PRIu64 " board states in one group of "
                             "territories (at order %zu); at most %" PRIu64
                             " are allowed (warapp.max_turn_states): resolve sampled turns "
                             "with POST /simulate-turn instead",
                             err->needed, err->index, err->limit);
            return;
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

void cbd_turn_echo_members(cbd_jw *w, const cbd_turn_request *q) {
    cbd_jw_key(w, "settings");
    cbd_jw_object_open(w);
    cbd_warapp_settings_members(w, &q->turn.battle);
    cbd_jw_key_bool(w, "multi_attack", q->turn.multi_attack);
    cbd_jw_object_close(w);
    cbd_jw_key_string(w, "move_order", cbd_turn_move_order_name(q->turn.move_order));
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

uint64_t cbd_turn_fog_points(const cbd_turn_request *q) {
    uint64_t n = 0;
    for (size_t i = 0; q->turn.fog && i < q->turn.n_territories; i++) {
        n += q->fogs[i].n;
    }
    return n;
}

void cbd_turn_owner_key(cbd_jw *w, const cbd_turn_request *q, cbd_turn_player owner) {
    cbd_jw_key(w, owner == CBD_TURN_NEUTRAL ? CBD_TURN_NEUTRAL_NAME : q->player_id[owner]);
}
