/*
 * The ids of a turn request (W11, W21): territories, players and units, registered as the
 * request is read and looked up by the orders, teams and goals. Nothing here reads a turn's
 * members: the board (warapp_turn_json.c) and the orders (warapp_turn_orders.c) both use it.
 */
#include "warapp_turn_ids.h"

#include "json/json_escape.h"

#include <stdlib.h>
#include <string.h>

/* Ids become JSON member names of the answers, written as they are (cbd_jw_key): so no byte
 * that JSON would have to escape. jansson has checked that the text is UTF-8, so its length
 * in characters is its code points. */
bool cbdp_turn_id_ok(const char *id) {
    size_t n = strlen(id);
    if (n == 0 || cbd_utf8_code_points(id, n) > CBD_TURN_ID_MAX) {
        return false;
    }
    for (const unsigned char *c = (const unsigned char *)id; *c; c++) {
        if (*c < 0x20 || *c == '"' || *c == '\\' || *c == 0x7f) {
            return false;
        }
    }
    return true;
}

bool cbd_turn_read_id(const cbd_reader *r, const char *key, bool required, const char **out) {
    const json_t *v = json_object_get(r->obj, key);
    if (!v || json_is_null(v)) {
        if (required) {
            cbd_reader_error(r, key, "is required");
        }
        return false;
    }
    if (!json_is_string(v)) { /* a number, say: the game's JSON (ids as numbers) given here */
        char was[64];
        cbd_reader_error(r, key, "must be an id: a string of " CBD_TURN_ID_RULE ", not %s",
                         cbd_json_value_text(v, was, sizeof was));
        return false;
    }
    if (strlen(json_string_value(v)) != json_string_length(v) ||
        !cbdp_turn_id_ok(json_string_value(v))) {
        cbd_reader_error(r, key, "must be an id: a string of " CBD_TURN_ID_RULE);
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

int cbdp_turn_add_player(cbd_turn_request *q, const cbd_reader *r, const char *key,
                         const char *id) {
    int p = cbd_turn_find_player(q, id);
    if (p >= 0) {
        return p;
    }
    /* W44: the game's name of neutral is a mistake here, not a player of that name: taken as
     * one, its territories would attack and be attacked as a player's. */
    if (strcmp(id, CBD_TURN_GAME_NEUTRAL_NAME) == 0) {
        cbd_reader_error(r, key,
                         "is \"" CBD_TURN_GAME_NEUTRAL_NAME "\", the game's name of neutral "
                         "territories: combatd's is \"" CBD_TURN_NEUTRAL_NAME "\" (the /warzone/ "
                         "endpoints take the game's JSON as it is, W44)");
        return -1;
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
void cbdp_turn_index_territories(cbd_turn_request *q) {
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

int cbdp_turn_find_unit(const cbd_turn_request *q, const char *id) {
    for (size_t u = 0; u < q->turn.n_units; u++) {
        if (strcmp(q->unit_id[u], id) == 0) {
            return (int)u;
        }
    }
    return -1;
}

bool cbdp_turn_add_unit(cbd_turn_request *q, const cbd_reader *r, const char *key, size_t index,
                        const char *id, const cbd_turn_unit *unit) {
    cbd_reader item;
    cbd_reader_at_item(&item, r, key, index);
    if (!id) {
        cbd_reader_error(&item, "id", "is required in a turn: orders move units by id (W21)");
        return false;
    }
    if (!cbdp_turn_id_ok(id)) {
        cbd_reader_error(&item, "id", "must be an id: a string of " CBD_TURN_ID_RULE);
        return false;
    }
    int other = cbdp_turn_find_unit(q, id);
    if (other >= 0) {
        cbd_reader_error(&item, "id",
                         "\"%s\" is already the id of a unit on %s: unit ids are unique on the "
                         "board (W21)",
                         id, q->territory_id[q->units[other].territory]);
        return false;
    }
    if (q->turn.n_units >= CBD_TURN_MAX_UNITS) {
        cbd_reader_item_error(r, key, index, "is unit %zu of the board; a turn holds at most %d",
                              q->turn.n_units + 1, CBD_TURN_MAX_UNITS);
        return false;
    }
    q->unit_id[q->turn.n_units] = id;
    q->units[q->turn.n_units++] = *unit;
    return true;
}
