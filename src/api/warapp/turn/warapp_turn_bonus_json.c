/*
 * W32 bonuses: the board's `bonuses` member as the turn endpoints read it, and the owners'
 * chances (/analyze-turn) or counts (/simulate-turn) as they answer them.
 */
#include "warapp_turn_bonus_json.h"

#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"

#include "warapp_turn_ids.h"

static const char *const bonus_keys[] = {"value", "territories", NULL};

/* One bonus's territories: ids of the board, none twice, one at least; into `out`. */
static bool read_bonus_territories(const cbd_reader *b, const cbd_turn_request *q, uint32_t *out,
                                   size_t *n) {
    const json_t *list;
    *n = 0;
    /* up to the board's size, so that a repeated or unknown id is named rather than the length */
    cbd_field f = cbd_read_array(b, "territories", q->limits.max_territories, &list);
    if (f == CBD_FIELD_ABSENT) {
        cbd_reader_error(b, "territories", "is required: the ids of the bonus's territories");
    }
    if (f != CBD_FIELD_OK) {
        return false;
    }
    if (json_array_size(list) == 0) {
        cbd_reader_error(b, "territories", "lists no territory: a bonus has one at least (W32)");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(list); i++) {
        const json_t *v = json_array_get(list, i);
        int64_t t = json_is_string(v) ? cbd_turn_find_territory(q, json_string_value(v)) : -1;
        bool again = false;
        for (size_t j = 0; t >= 0 && j < *n; j++) {
            again |= out[j] == (uint32_t)t;
        }
        if (t < 0) {
            cbd_reader_item_error(b, "territories", i,
                                  "must be the id of a territory of this board");
            ok = false;
        } else if (again) {
            cbd_reader_item_error(b, "territories", i, "is in this bonus already");
            ok = false;
        } else {
            out[(*n)++] = (uint32_t)t;
        }
    }
    return ok;
}

/* One bonus `id` of the map m: its value and territories, its territories from *used on. */
static bool read_bonus(const cbd_reader *m, const char *id, cbd_turn_request *q, size_t *used) {
    if (!cbdp_turn_id_ok(id)) {
        cbd_reader_error(m, id,
                         "is not a valid bonus id: 1 to %d characters, no control "
                         "character",
                         CBD_TURN_ID_MAX);
        return false;
    }
    cbd_reader b;
    if (cbd_read_object(m, id, bonus_keys, &b) != CBD_FIELD_OK) {
        return false;
    }
    int64_t value = 0;
    cbd_field f = cbd_read_i64(&b, "value", -(int64_t)CBD_WARAPP_MAX_ARMIES,
                               (int64_t)CBD_WARAPP_MAX_ARMIES, &value);
    if (f == CBD_FIELD_ABSENT) {
        cbd_reader_error(&b, "value", "is required: the bonus's value, a whole number (W32)");
    }
    size_t n;
    bool ok = read_bonus_territories(&b, q, q->bonus_terr + *used, &n) && f == CBD_FIELD_OK;
    if (ok) {
        cbd_turn_bonus *bonus = &q->bonuses[q->turn.n_bonuses];
        *bonus = (cbd_turn_bonus){value, n, q->bonus_terr + *used};
        q->bonus_id[q->turn.n_bonuses++] = id;
        *used += n;
    }
    return ok;
}

bool cbdp_turn_read_bonuses(const cbd_reader *r, cbd_turn_request *q) {
    cbd_reader m;
    cbd_field f = cbd_read_map(r, "bonuses", &m);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    size_t n = json_object_size(m.obj), terr = 0;
    if (n > q->limits.max_territories) {
        cbd_reader_error(r, "bonuses", "has %zu bonuses; at most %zu (warapp.max_turn_territories)",
                         n, q->limits.max_territories);
        return false;
    }
    const char *id;
    const json_t *v;
    json_object_foreach((json_t *)m.obj, id, v) {
        const json_t *t = json_object_get(v, "territories");
        terr += json_is_array(t) ? json_array_size(t) : 0;
    }
    q->bonuses = calloc(n + 1, sizeof *q->bonuses);
    q->bonus_id = calloc(n + 1, sizeof *q->bonus_id);
    q->bonus_terr = calloc(terr + 1, sizeof *q->bonus_terr);
    if (!q->bonuses || !q->bonus_id || !q->bonus_terr) {
        return cbd_api_oom_problem(r->problem);
    }
    q->turn.bonuses = q->bonuses;
    bool ok = true;
    size_t used = 0;
    json_object_foreach((json_t *)m.obj, id, v) {
        ok &= read_bonus(&m, id, q, &used);
    }
    return ok;
}

/* The bonus's id and value, then its "owner" object opened (the caller fills and closes it). */
static void bonus_open(cbd_jw *w, const cbd_turn_request *q, size_t b) {
    cbd_jw_key(w, q->bonus_id[b]);
    cbd_jw_object_open(w);
    cbd_jw_key_int(w, "value", q->bonuses[b].value);
    cbd_jw_key(w, "owner");
    cbd_jw_object_open(w);
}

void cbdp_turn_bonuses_json(cbd_jw *w, const cbd_turn_request *q, const cbd_turn_analysis *a) {
    size_t np = q->turn.n_players;
    cbd_jw_key(w, "bonuses");
    cbd_jw_object_open(w);
    for (size_t b = 0; b < q->turn.n_bonuses; b++) {
        bonus_open(w, q, b);
        for (size_t p = 0; a->bonus_owner && p < np; p++) {
            if (a->bonus_owner[b * np + p] > 0) {
                cbd_jw_key_real(w, q->player_id[p], a->bonus_owner[b * np + p]);
            }
        }
        cbd_jw_object_close(w);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
}

void cbdp_turn_bonus_counts_json(cbd_jw *w, const cbd_turn_request *q, const uint64_t *counts) {
    size_t np = q->turn.n_players;
    cbd_jw_key(w, "bonuses");
    cbd_jw_object_open(w);
    for (size_t b = 0; b < q->turn.n_bonuses; b++) {
        bonus_open(w, q, b);
        for (size_t p = 0; p < np; p++) {
            if (counts[b * np + p] > 0) {
                cbd_jw_key_uint(w, q->player_id[p], counts[b * np + p]);
            }
        }
        cbd_jw_object_close(w);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
}
