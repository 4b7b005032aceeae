/* The counts of /simulate-turn's trials; see warapp_simulate_turn_tally.h. */
#include "warapp_simulate_turn_tally.h"

#include <string.h>

static size_t hash_slot(uint64_t v, size_t cap) {
    return (size_t)((v * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/*
 * A table of a page or more grows after a progress check. The heap's first CBD_WORK_FRESH_FROM
 * bytes are not charged as new pages (budget.h), yet on a server's first requests they are new,
 * at some 12 µs a page here: the histograms of a wide board grow together (they see as many
 * distinct values), and 128 of them doubling at once touched 1.9 MB of new pages, 7.2 ms of CPU
 * with no check (bench_budget's cold 128 wide battles). A check before each such growth keeps
 * one table's pages between two, and those of the tables under a page (128 of 2 KiB at most).
 */
#define HIST_POLL_BYTES CBD_SCRATCH_PAGE

static bool hist_grow(cbd_turn_hist *h, cbd_budget *budget, uint64_t *bytes) {
    size_t cap = h->cap ? h->cap * 2 : 8;
    if (2 * cap * sizeof *h->key >= HIST_POLL_BYTES && !cbd_budget_poll(budget)) {
        return false; /* spent: the caller's status says so (cbd_budget_nomem) */
    }
    uint64_t *key = cbd_mem_calloc(budget, 2 * cap, sizeof *key);
    if (!key) {
        return false;
    }
    *bytes += (cap - h->cap) * 2 * sizeof *key;
    uint64_t *count = key + cap;
    for (size_t i = 0; i < h->cap; i++) {
        if (h->key[i]) {
            size_t s = hash_slot(h->key[i], cap);
            while (key[s]) {
                s = (s + 1) & (cap - 1);
            }
            key[s] = h->key[i];
            count[s] = h->count[i];
        }
    }
    cbd_mem_free(h->key);
    h->key = key;
    h->count = count;
    h->cap = cap;
    return true;
}

static bool hist_add(cbd_turn_hist *h, cbd_budget *budget, uint64_t *bytes, uint64_t armies) {
    if (2 * (h->n + 1) > h->cap && !hist_grow(h, budget, bytes)) {
        return false;
    }
    uint64_t k = armies + 1;
    size_t s = hash_slot(k, h->cap);
    while (h->key[s] && h->key[s] != k) {
        s = (s + 1) & (h->cap - 1);
    }
    h->n += h->key[s] == 0;
    h->key[s] = k;
    h->count[s]++;
    h->sum += armies;
    return true;
}

uint64_t cbdp_turn_hist_count(const cbd_turn_hist *h, uint64_t key) {
    size_t s = hash_slot(key, h->cap);
    while (h->key[s] != key) {
        s = (s + 1) & (h->cap - 1);
    }
    return h->count[s];
}

void cbdp_turn_hist_release(cbd_turn_hist *h) {
    cbd_mem_free(h->key); /* the counts with it */
    h->key = NULL;
    h->count = NULL;
}

void cbdp_turn_tally_free(cbd_turn_tally *s) {
    for (size_t i = 0; s->armies && i < s->n_terr; i++) {
        cbdp_turn_hist_release(&s->armies[i]);
    }
    cbd_mem_free(s->armies);
    cbd_mem_free(s->owner_counts);
    cbd_mem_free(s->order_counts);
    cbd_mem_free(s->boards);
    cbd_mem_free(s->events);
    cbd_mem_free(s->drawn);
    cbd_mem_free(s->unit_at);
    cbd_mem_free(s->unit_alive);
    cbd_mem_free(s->eliminated);
    cbd_mem_free(s->turn_unit_at); /* turn_units with it */
    cbd_mem_free(s->bonus_owner);
}

bool cbdp_turn_tally_init(cbd_turn_tally *s, cbd_budget *budget, const cbd_turn_request *q,
                          uint64_t trials, bool include_turns) {
    memset(s, 0, sizeof *s);
    s->q = q;
    s->budget = budget;
    s->n_terr = q->turn.n_territories;
    s->n_orders = q->turn.n_orders;
    s->n_owner = q->turn.n_players + 1;
    s->owner_counts = cbd_mem_calloc(budget, s->n_terr * s->n_owner, sizeof *s->owner_counts);
    s->armies = cbd_mem_calloc(budget, s->n_terr, sizeof *s->armies);
    s->order_counts = cbd_mem_calloc(budget, s->n_orders + 1, sizeof *s->order_counts);
    bool ok = s->owner_counts && s->armies && s->order_counts;
    s->n_units = q->turn.n_units;
    if (ok && s->n_units > 0) {
        s->unit_at = cbd_mem_calloc(budget, s->n_units * s->n_terr, sizeof *s->unit_at);
        s->unit_alive = cbd_mem_calloc(budget, s->n_units, sizeof *s->unit_alive);
        s->eliminated = cbd_mem_calloc(budget, s->n_owner, sizeof *s->eliminated);
        ok = s->unit_at && s->unit_alive && s->eliminated;
    }
    if (ok && q->turn.n_bonuses > 0) {
        s->bonus_owner =
            cbd_mem_calloc(budget, q->turn.n_bonuses * q->turn.n_players, sizeof *s->bonus_owner);
        ok = s->bonus_owner != NULL;
        for (size_t b = 0; b < q->turn.n_bonuses; b++) {
            s->n_bonus_terr += q->turn.bonuses[b].n_territories;
        }
    }
    if (ok && include_turns) {
        /* trials <= warapp.max_listed_turns here, so the products cannot overflow. */
        s->boards = cbd_mem_alloc(budget, trials * s->n_terr * sizeof *s->boards);
        s->events = cbd_mem_alloc(budget, (trials * s->n_orders + 1) * sizeof *s->events);
        ok = s->boards && s->events;
        if (ok && q->turn.fog) {
            s->drawn = cbd_mem_alloc(budget, trials * s->n_terr * sizeof *s->drawn);
            ok = s->drawn != NULL;
        }
        if (ok && s->n_units > 0) {
            s->turn_unit_at = cbd_mem_alloc(budget, 2 * trials * s->n_units * sizeof(uint32_t));
            s->turn_units = s->turn_unit_at ? s->turn_unit_at + trials * s->n_units : NULL;
            ok = s->turn_unit_at != NULL;
        }
    }
    return ok;
}

void cbdp_turn_tally_add_units(cbd_turn_tally *s, const cbd_turn_sim *sim, uint64_t trial) {
    const uint32_t *at = cbd_turn_sim_unit_at(sim);
    const bool *gone = cbd_turn_sim_eliminated(sim);
    if (s->turn_units) {
        uint32_t *listed = s->turn_units + trial * s->n_units;
        size_t n = cbd_turn_sim_units_listed(sim, listed);
        for (size_t k = n; k < s->n_units; k++) {
            listed[k] = CBD_TURN_UNIT_DEAD;
        }
        memcpy(s->turn_unit_at + trial * s->n_units, at, s->n_units * sizeof *at);
    }
    for (size_t u = 0; u < s->n_units; u++) {
        if (at[u] != CBD_TURN_UNIT_DEAD) {
            s->unit_at[u * s->n_terr + at[u]]++;
            s->unit_alive[u]++;
        }
    }
    for (size_t p = 0; p + 1 < s->n_owner; p++) {
        s->eliminated[p] += gone[p];
    }
}

bool cbdp_turn_tally_add(cbd_turn_tally *s, const cbd_turn_territory *board,
                         const cbd_turn_event *ev) {
    for (size_t i = 0; i < s->n_terr; i++) {
        cbd_turn_player owner = board[i].owner;
        size_t o = owner == CBD_TURN_NEUTRAL ? s->n_owner - 1 : owner;
        s->owner_counts[i * s->n_owner + o]++;
        if (!hist_add(&s->armies[i], s->budget, &s->hist_bytes, board[i].armies)) {
            return false;
        }
    }
    for (size_t i = 0; i < s->n_orders; i++) {
        uint64_t *c = s->order_counts[i];
        c[0] += ev[i].kind == CBD_TURN_SKIPPED;
        c[1] += ev[i].kind == CBD_TURN_ATTACKED;
        c[2] += ev[i].kind == CBD_TURN_TRANSFERRED;
        c[3] += ev[i].kind == CBD_TURN_ATTACKED && ev[i].outcome.captured;
    }
    s->goals_met += cbd_turn_goals_met(&s->q->turn, board);
    for (size_t b = 0; b < s->q->turn.n_bonuses; b++) {
        cbd_turn_player p;
        if (cbd_turn_bonus_owner(&s->q->turn.bonuses[b], board, &p)) {
            s->bonus_owner[b * s->q->turn.n_players + p]++; /* W32 */
        }
    }
    return true;
}
