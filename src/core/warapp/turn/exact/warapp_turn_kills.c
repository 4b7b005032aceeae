/*
 * The turn engine's kill distributions by army count (see warapp_turn_internal.h): computed
 * once each while the cache has room, each computation charged to the request's budget; and
 * the engine's windows of them, capped at what the other side holds (W4).
 */
#include <string.h>

#include "core/hash_index.h"
#include "core/warapp/turn/warapp_turn_internal.h"

/*
 * What a side's cache keeps. Each state of a step may send a different number of armies (a
 * percent order after a battle of thousands of outcomes), so an unbounded cache would keep one
 * window per state: thousands of windows of up to 10^5 values. Past these bounds a
 * distribution goes to the side's spare slot instead, kept until the next miss: computed again
 * when asked again (and counted again), never held all at once.
 */
#define KILLS_CACHE_BYTES   (UINT64_C(8) << 20) /* per side */
#define KILLS_CACHE_ENTRIES 65536               /* per side */

void cbdp_turn_kills_cache_free(cbd_turn_kills_cache *c) {
    for (size_t i = 0; i < c->count; i++) {
        cbd_kills_free(&c->kills[i]);
    }
    cbd_kills_free(&c->spare);
    cbd_mem_free(c->n);
    cbd_mem_free(c->kills);
    cbd_mem_free(c->table);
    memset(c, 0, sizeof *c);
}

static bool cache_grow(cbd_turn_kills_cache *c, cbd_budget *budget) {
    size_t cap = c->cap ? c->cap * 2 : 16, tcap = cap * 2;
    uint64_t *n = cbd_mem_realloc(budget, c->n, cap * sizeof *n);
    if (n) {
        c->n = n;
    }
    cbd_kills *k = n ? cbd_mem_realloc(budget, c->kills, cap * sizeof *k) : NULL;
    if (k) {
        c->kills = k;
    }
    uint32_t *t = k ? cbd_hash_index_build(budget, c->n, c->count, tcap, NULL, 0) : NULL;
    if (!t) {
        return false;
    }
    cbd_mem_free(c->table);
    c->table = t;
    c->tcap = tcap;
    c->cap = cap;
    return true;
}

/* The probe's test for cache_find: an empty slot, or one holding n armies' distribution. */
typedef struct {
    const cbd_turn_kills_cache *c;
    uint64_t n;
} kills_probe;

static bool kills_slot_done(const void *ctx, size_t s) {
    const kills_probe *q = ctx;
    return !q->c->table[s] || q->c->n[q->c->table[s] - 1] == q->n;
}

/* The cached distribution of n armies, or NULL; *slot is where n would go. */
static const cbd_kills *cache_find(const cbd_turn_kills_cache *c, uint64_t n, size_t *slot) {
    kills_probe q = {c, n};
    size_t s = cbd_hash_probe(n, c->tcap - 1, kills_slot_done, &q);
    if (c->table[s]) {
        return &c->kills[c->table[s] - 1];
    }
    *slot = s;
    return NULL;
}

/* What keeping k costs the cache: its window and its slots. */
static uint64_t entry_bytes(const cbd_kills *k) {
    return (uint64_t)k->dist.len * sizeof(double) + sizeof *k + sizeof(uint64_t) +
           2 * sizeof(uint32_t);
}

/* Keeps k (computed for n armies, to go in `slot`) in the cache when it fits, else in the
 * spare slot. Takes k either way. */
static const cbd_kills *cache_keep(cbd_turn_kills_cache *c, uint64_t n, size_t slot, cbd_kills *k) {
    uint64_t bytes = entry_bytes(k);
    if (c->count >= KILLS_CACHE_ENTRIES || c->count >= c->cap ||
        c->bytes + bytes > KILLS_CACHE_BYTES) {
        cbd_kills_free(&c->spare);
        c->spare = *k;
        c->spare_n = n;
        return &c->spare;
    }
    c->kills[c->count] = *k;
    c->n[c->count] = n;
    c->bytes += bytes;
    c->table[slot] = (uint32_t)++c->count;
    return &c->kills[c->count - 1];
}

/*
 * The kills of n armies of side `which` (0: the offense rate, 1: the defense rate) under `set`,
 * from the cache or computed (charged to `budget`, its terms added to *terms). *out stays
 * valid until the next call on the same cache.
 */
static cbd_status kills_get(cbd_turn_kills_cache *c, cbd_budget *budget,
                            const cbd_warapp_settings *set, int which, uint64_t n, uint64_t *terms,
                            const cbd_kills **out) {
    if (c->count == c->cap && c->count < KILLS_CACHE_ENTRIES && !cache_grow(c, budget)) {
        return cbd_budget_nomem(budget);
    }
    size_t slot = 0;
    if ((*out = cache_find(c, n, &slot)) != NULL) {
        return CBD_OK;
    }
    if (c->spare.dist.p && c->spare_n == n) {
        *out = &c->spare;
        return CBD_OK;
    }
    cbd_kills k;
    cbd_status st =
        cbd_warapp_kills(n, which == 0 ? set->offense_kill_rate : set->defense_kill_rate,
                         set->luck_modifier, set->rounding, budget, &k);
    if (st != CBD_OK) {
        return st;
    }
    *terms += k.terms;
    *out = cache_keep(c, n, slot, &k);
    return CBD_OK;
}

/* ---- the engine's kill windows, capped (W4) ---- */

/* The kill distribution of n armies of side `which` (0: offense rate, 1: defense rate). Its
 * terms count in e->work, which its callers check against max_work. */
cbd_status cbdp_turn_kills_of(cbd_turn_engine *e, int which, uint64_t n, const cbd_kills **out) {
    cbd_status st =
        kills_get(&e->cache[which], e->budget, &e->plan->turn->battle, which, n, &e->work, out);
    return cbdp_turn_stopped(e, st);
}

static uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

/* The range [lo, lo + len) of min(K, cap) over K's window (W4). */
size_t cbdp_turn_capped_len(const cbd_kills *k, uint64_t cap, uint64_t *lo) {
    *lo = min_u64(k->dist.lo, cap);
    return (size_t)(min_u64(k->dist.lo + k->dist.len - 1, cap) - *lo + 1);
}

/* Writes P(min(K, cap) = lo + i) into e->buf[which]; notes a window short of the support. */
cbd_status cbdp_turn_capped(cbd_turn_engine *e, int which, const cbd_kills *k, uint64_t cap,
                            uint64_t *lo, size_t *len) {
    *len = cbdp_turn_capped_len(k, cap, lo);
    if (*len > e->buf_cap[which]) {
        double *b = cbd_mem_realloc(e->budget, e->buf[which], *len * sizeof *b);
        if (!b) {
            return cbdp_turn_stopped(e, cbd_budget_nomem(e->budget));
        }
        e->buf[which] = b;
        e->buf_cap[which] = *len;
    }
    double *b = e->buf[which];
    memset(b, 0, *len * sizeof *b);
    for (size_t i = 0; i < k->dist.len; i++) {
        b[min_u64(k->dist.lo + i, cap) - *lo] += k->dist.p[i];
    }
    if (min_u64(k->min, cap) != *lo || min_u64(k->max, cap) != *lo + *len - 1) {
        e->truncated = true;
    }
    return CBD_OK;
}
