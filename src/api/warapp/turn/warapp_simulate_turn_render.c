/* /simulate-turn's answer; see warapp_simulate_turn_render.h. */
#include "warapp_simulate_turn_render.h"

#include <stdlib.h>

#include "api/warapp/warapp_request.h"
#include "warapp_turn_bonus_json.h"
#include "warapp_turn_kinds_json.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* About log2(n) + 1: the depth of a sort of n values. */
static uint64_t log2_ceil(size_t n) {
    uint64_t d = 1;
    while (n > 1) {
        n >>= 1;
        d++;
    }
    return d;
}

/* {"mean": x, "histogram": [{"armies": k, "count": c}, ...]} ascending, as /simulate's. */
static bool hist_json(cbd_jw *w, cbd_budget *budget, const cbd_turn_hist *h, uint64_t trials) {
    /* The table scanned, the values sorted (qsort's comparisons), each looked up again. */
    uint64_t compares = cbd_work_times(h->n, log2_ceil(h->n) + 1);
    uint64_t units = cbd_work_times(CBD_WORK_SORT_STEP, compares) +
                     cbd_work_times(CBD_WORK_SCAN_TERM, h->cap + 2 * h->n);
    if (!cbd_charge(budget, units)) {
        return false;
    }
    /* A few distinct values (one for a single trial) sort on the stack. */
    uint64_t few[64];
    uint64_t *vals = h->n <= 64 ? few : cbd_mem_alloc(budget, h->n * sizeof *vals);
    if (!vals) {
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < h->cap; i++) {
        if (h->key[i]) {
            vals[n++] = h->key[i];
        }
    }
    qsort(vals, n, sizeof *vals, cmp_u64);
    cbd_jw_key(w, "armies");
    cbd_jw_object_open(w);
    cbd_jw_key_real(w, "mean", (double)h->sum / (double)trials);
    cbd_jw_key(w, "histogram");
    cbd_jw_array_open(w);
    for (size_t j = 0; j < n; j++) {
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "armies", vals[j] - 1);
        cbd_jw_key_uint(w, "count", cbdp_turn_hist_count(h, vals[j]));
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
    cbd_jw_object_close(w);
    if (vals != few) {
        cbd_mem_free(vals);
    }
    return true;
}

/* W21: the ids of the units in `mask` (bit u: unit u), as an array member. */
static void unit_list_json(cbd_jw *w, const cbd_turn_request *q, const char *key, uint64_t mask) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    for (size_t u = 0; u < q->turn.n_units; u++) {
        if (mask >> u & 1) {
            cbd_jw_string(w, q->unit_id[u]);
        }
    }
    cbd_jw_array_close(w);
}

/* What one order did in one turn (with units on the board, the units it sent and those that
 * died in its battle). A card that ran is "played"; of the cards only an airlift sends armies
 * and units (W27), so only its entry says what it sent. */
static void event_json(cbd_jw *w, const cbd_turn_request *q, const cbd_turn_event *e,
                       cbd_turn_order_type type) {
    /* A deploy's result is its kind's name; the others say what the order did. */
    const char *const names[] = {cbdp_turn_api_kinds[CBD_ORDER_DEPLOY].name, "skipped", "attack",
                                 "transfer", "played"};
    bool sends =
        e->kind != CBD_TURN_SKIPPED && (e->kind != CBD_TURN_PLAYED || type == CBD_ORDER_AIRLIFT);
    cbd_jw_object_open(w);
    cbd_jw_key_string(w, "result", names[e->kind]);
    if (sends) {
        cbd_jw_key_uint(w, e->kind == CBD_TURN_DEPLOYED ? "armies" : "sent", e->sent);
    }
    if (e->kind == CBD_TURN_ATTACKED) {
        cbd_jw_key_uint(w, "defenders", e->defenders);
        cbd_jw_key_uint(w, "attacker_kills", e->attacker_kills);
        cbd_jw_key_uint(w, "defender_kills", e->defender_kills);
        cbd_warapp_outcome_members(w, &e->outcome);
    }
    if (q->turn.n_units > 0 && sends && e->kind != CBD_TURN_DEPLOYED) {
        unit_list_json(w, q, "units_sent", e->units_sent);
        if (e->kind == CBD_TURN_ATTACKED) {
            unit_list_json(w, q, "units_died", e->units_died);
            /* whose the defending units among them were (W21: their territory's owner) */
            cbd_jw_key_string(w, "defender",
                              e->defender == CBD_TURN_NEUTRAL ? CBD_TURN_NEUTRAL_NAME
                                                              : q->player_id[e->defender]);
        }
    }
    cbd_jw_object_close(w);
}

/* W23: the armies this turn drew for each territory given as a distribution. */
static void drawn_json(cbd_jw *w, const cbd_turn_tally *s, const uint64_t *drawn) {
    cbd_jw_key(w, "drawn");
    cbd_jw_object_open(w);
    for (size_t i = 0; i < s->n_terr; i++) {
        if (s->q->turn.fog[i].n > 0) {
            cbd_jw_key_uint(w, s->q->territory_id[i], drawn[i]);
        }
    }
    cbd_jw_object_close(w);
}

/* W19, W21: a listed territory's living units, "units": [ids] in listed order, when it has
 * any; `listed` (sorted by territory) is advanced past them. */
static void territory_units_json(cbd_jw *w, const cbd_turn_tally *s, const uint32_t *at,
                                 const uint32_t **listed, const uint32_t *end, size_t territory) {
    if (*listed == end || **listed == CBD_TURN_UNIT_DEAD || at[**listed] != territory) {
        return;
    }
    cbd_jw_key(w, "units");
    cbd_jw_array_open(w);
    for (; *listed < end && **listed != CBD_TURN_UNIT_DEAD && at[**listed] == territory;
         (*listed)++) {
        cbd_jw_string(w, s->q->unit_id[**listed]);
    }
    cbd_jw_array_close(w);
}

static void turns_json(cbd_jw *w, const cbd_turn_tally *s, uint64_t trials) {
    cbd_jw_key(w, "turns");
    cbd_jw_array_open(w);
    for (uint64_t t = 0; t < trials; t++) {
        const cbd_turn_territory *board = s->boards + t * s->n_terr;
        const uint32_t *at = s->turn_unit_at ? s->turn_unit_at + t * s->n_units : NULL;
        const uint32_t *listed = s->turn_units ? s->turn_units + t * s->n_units : NULL;
        const uint32_t *end = listed ? listed + s->n_units : NULL;
        cbd_jw_object_open(w);
        cbd_jw_key(w, "territories");
        cbd_jw_object_open(w);
        for (size_t i = 0; i < s->n_terr; i++) {
            cbd_jw_key(w, s->q->territory_id[i]);
            cbd_jw_object_open(w);
            cbd_jw_key(w, "owner");
            cbd_jw_string(w, board[i].owner == CBD_TURN_NEUTRAL ? CBD_TURN_NEUTRAL_NAME
                                                                : s->q->player_id[board[i].owner]);
            cbd_jw_key_uint(w, "armies", board[i].armies);
            if (listed) {
                territory_units_json(w, s, at, &listed, end, i);
            }
            cbd_jw_object_close(w);
        }
        cbd_jw_object_close(w);
        cbd_jw_key(w, "orders");
        cbd_jw_array_open(w);
        for (size_t i = 0; i < s->n_orders; i++) {
            event_json(w, s->q, &s->events[t * s->n_orders + i], s->q->orders[i].type);
        }
        cbd_jw_array_close(w);
        if (s->drawn) {
            drawn_json(w, s, s->drawn + t * s->n_terr);
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

static void orders_json(cbd_jw *w, const cbd_turn_tally *s) {
    cbd_jw_key(w, "orders");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < s->n_orders; i++) {
        const cbd_turn_api_kind *k = cbdp_turn_api_kind_of(s->q->orders[i].type);
        cbd_jw_object_open(w);
        cbd_jw_key_string(w, "type", k->name);
        if (k->render_counts) {
            k->render_counts(w, s->order_counts[i]);
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

/* W21, W22 (only with units on the board): "units": id -> {"alive", "territories": {territory
 * -> trials it ended alive there, those above 0}}; "players": player -> {"eliminated"}. */
static void units_json(cbd_jw *w, const cbd_turn_tally *s) {
    const cbd_turn_request *q = s->q;
    cbd_jw_key(w, "units");
    cbd_jw_object_open(w);
    for (size_t u = 0; u < s->n_units; u++) {
        cbd_jw_key(w, q->unit_id[u]);
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "alive", s->unit_alive[u]);
        cbd_jw_key(w, "territories");
        cbd_jw_object_open(w);
        for (size_t t = 0; t < s->n_terr; t++) {
            if (s->unit_at[u * s->n_terr + t]) {
                cbd_jw_key_uint(w, q->territory_id[t], s->unit_at[u * s->n_terr + t]);
            }
        }
        cbd_jw_object_close(w);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    cbd_jw_key(w, "players");
    cbd_jw_object_open(w);
    for (size_t p = 0; p + 1 < s->n_owner; p++) {
        cbd_jw_key(w, q->player_id[p]);
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "eliminated", s->eliminated[p]);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
}

bool cbdp_turn_tally_render(cbd_jw *w, cbd_turn_tally *s, uint64_t seed, uint64_t trials) {
    const cbd_turn_request *q = s->q;
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "seed", seed);
    cbd_jw_key_uint(w, "trials", trials);
    cbdp_turn_echo_members(w, q);
    /* The histograms grow with the trials (more of them, more distinct army counts). */
    cbd_jw_blame(w, "/trials");
    cbd_jw_key(w, "territories");
    cbd_jw_object_open(w);
    bool ok = true;
    for (size_t i = 0; i < s->n_terr && ok; i++) {
        cbd_jw_key(w, q->territory_id[i]);
        cbd_jw_object_open(w);
        cbd_jw_key(w, "owner");
        cbd_jw_object_open(w); /* owners with a non-zero count, players in index order */
        for (size_t p = 0; p < s->n_owner; p++) {
            uint64_t c = s->owner_counts[i * s->n_owner + p];
            if (c) {
                cbdp_turn_owner_key(w, q,
                                    p + 1 == s->n_owner ? CBD_TURN_NEUTRAL : (cbd_turn_player)p);
                cbd_jw_uint(w, c);
            }
        }
        cbd_jw_object_close(w);
        ok = hist_json(w, s->budget, &s->armies[i], trials);
        cbdp_turn_hist_release(&s->armies[i]);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    orders_json(w, s);
    if (s->n_units > 0) {
        units_json(w, s);
    }
    if (q->turn.n_goals > 0) {
        cbd_jw_key_uint(w, "goals_met", s->goals_met);
    }
    if (q->turn.n_bonuses > 0) {
        cbdp_turn_bonus_counts_json(w, q, s->bonus_owner);
    }
    if (s->boards) {
        cbd_jw_blame(w, "/include_turns");
        turns_json(w, s, trials);
    }
    cbd_jw_object_close(w);
    return ok;
}
