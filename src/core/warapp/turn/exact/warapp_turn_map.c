/* The distinct states of a group with their probabilities (see warapp_turn_internal.h). */
#include <string.h>

#include "core/hash_index.h"
#include "core/warapp/turn/warapp_turn_internal.h"

void cbdp_turn_map_free(cbd_turn_map *m) {
    cbd_budget *budget = m->budget;
    cbd_mem_free(m->keys);
    cbd_mem_free(m->prob);
    cbd_mem_free(m->hash);
    cbd_mem_free(m->slot);
    cbd_mem_free(m->table);
    memset(m, 0, sizeof *m);
    m->budget = budget;
}

/* Table slots cleared between two charges, at 4 a unit: 2^20 units (a whole table's memset
 * charged at once left tens of ms between two progress checks). */
#define CLEAR_CHUNK ((size_t)4 * CBD_BUDGET_PROGRESS_UNITS)

cbd_status cbdp_turn_map_clear(cbd_turn_map *m, size_t words) {
    if (m->words != words) {
        cbdp_turn_map_free(m);
        m->words = words;
    }
    /* The used slots one by one while they are few; the whole table once they are a quarter
     * of it (at most 4 slots a state then, and memset clears about 4 a unit), in chunks. */
    bool few = m->count * 4 < m->tcap;
    if (few || !m->table) {
        if (!cbd_charge(m->budget, few ? m->count : m->tcap / 4)) {
            return CBD_ERR_BUDGET;
        }
        for (size_t i = 0; m->table && i < m->count; i++) {
            m->table[m->slot[i]] = 0;
        }
    }
    for (size_t at = 0; !few && m->table && at < m->tcap; at += CLEAR_CHUNK) {
        size_t n = m->tcap - at < CLEAR_CHUNK ? m->tcap - at : CLEAR_CHUNK;
        if (!cbd_charge(m->budget, n / 4)) {
            return CBD_ERR_BUDGET;
        }
        memset(m->table + at, 0, n * sizeof *m->table);
    }
    m->count = 0;
    m->adds = 0;
    m->missed = 0;
    return CBD_OK;
}

/* A new table of tcap slots, its growth (tcap slots' bytes at CBD_WORK_TURN_GROWTH) charged as
 * the states are placed in it. */
static bool map_rehash(cbd_turn_map *m, size_t tcap) {
    uint64_t growth = (uint64_t)tcap * sizeof *m->table / CBD_WORK_TURN_GROWTH;
    uint32_t *t = cbd_hash_index_build(m->budget, m->hash, m->count, tcap, m->slot, growth);
    if (!t) {
        return false;
    }
    cbd_mem_free(m->table);
    m->table = t;
    m->tcap = tcap;
    return true;
}

/* One of the map's arrays grown from m->cap to `cap` entries of `size` bytes; on failure the
 * array is kept. */
static bool grow_array(cbd_turn_map *m, void **array, size_t size, size_t cap) {
    void *grown = cbd_mem_realloc(m->budget, *array, cap * size);
    if (!grown) {
        return false;
    }
    *array = grown;
    return true;
}

/*
 * The arrays doubled. Their growth (the bytes they add, at CBD_WORK_TURN_GROWTH) and their new
 * pages are charged as new states fill the room (cbdp_turn_map_add), not at once: the kernel
 * faults a page in when a state is first written there (a keys array grown by 40 MB charged
 * whole was 10 · 2^20 units between two progress checks). A growth the budget has not the units
 * for stops here, before its memory is asked for.
 */
static bool grow_arrays(cbd_turn_map *m) {
    size_t cap = m->cap ? m->cap * 2 : 32, more = cap - m->cap;
    size_t sizes[4] = {(m->words ? m->words : 1) * sizeof *m->keys, sizeof *m->prob,
                       sizeof *m->hash, sizeof *m->slot};
    uint64_t growth = 0;
    for (size_t a = 0; a < 4; a++) {
        growth += cbd_work_times(more, sizes[a]) / CBD_WORK_TURN_GROWTH;
    }
    if ((growth > cbd_budget_work_left(m->budget) && !cbd_charge(m->budget, growth)) ||
        !cbd_charge_share_end(&m->grown) || !cbd_charge_share_end(&m->grown_pages)) {
        return false;
    }
    uint64_t pages = 0;
    cbd_budget_defer_pages(m->budget, &pages);
    void *keys = m->keys, *prob = m->prob, *hash = m->hash, *slot = m->slot;
    bool grown = grow_array(m, &keys, sizes[0], cap);
    m->keys = keys;
    grown = grown && grow_array(m, &prob, sizes[1], cap);
    m->prob = prob;
    grown = grown && grow_array(m, &hash, sizes[2], cap);
    m->hash = hash;
    grown = grown && grow_array(m, &slot, sizes[3], cap);
    m->slot = slot;
    cbd_budget_defer_pages(m->budget, NULL);
    if (!grown) {
        return false; /* (the arrays grown are kept, their new pages untouched) */
    }
    cbd_charge_share_init(&m->grown, m->budget, growth, more);
    cbd_charge_share_pages_init(&m->grown_pages, m->budget, pages, more);
    m->cap = cap;
    return true;
}

static bool map_reserve(cbd_turn_map *m) {
    if ((m->count + 1) * 2 > m->tcap) {
        size_t tcap = m->tcap ? m->tcap * 2 : 64;
        if (!map_rehash(m, tcap)) {
            return false;
        }
    }
    return m->count < m->cap || grow_arrays(m);
}

/* The probe's test for cbdp_turn_map_add: an empty slot, or one holding the state looked for. */
typedef struct {
    const cbd_turn_map *m;
    const uint32_t *key;
    uint64_t hash;
} map_probe;

static bool map_slot_done(const void *ctx, size_t s) {
    const map_probe *q = ctx;
    const cbd_turn_map *m = q->m;
    if (!m->table[s]) {
        return true;
    }
    size_t i = m->table[s] - 1;
    return m->hash[i] == q->hash && memcmp(m->keys + i * m->words, q->key, m->words * 4) == 0;
}

bool cbdp_turn_map_past_cache(const cbd_turn_map *m) {
    return cbd_work_times(m->count, 4 * m->words + 28) > CBD_WORK_CACHE_BYTES;
}

/* States added between two charges of their cache misses: about 2^20 units of them. */
#define MISS_PIECE (CBD_BUDGET_PROGRESS_UNITS / CBD_WORK_TURN_MISS)

/* The cache misses of the states added so far, once the map is past the cache, charged every
 * MISS_PIECE adds (as cbdp_turn_charge_misses charges them after a step; charged only there,
 * a step of millions of states ran 10-50 ms of CPU between two progress checks). The adds before
 * the map passed the cache are charged in pieces of the same size, each with its check. */
static bool charge_misses_so_far(cbd_turn_map *m) {
    if (m->adds - m->missed < MISS_PIECE || !cbdp_turn_map_past_cache(m)) {
        return true;
    }
    while (m->missed < m->adds) {
        uint64_t n = m->adds - m->missed < MISS_PIECE ? m->adds - m->missed : MISS_PIECE;
        m->missed += n;
        if (!cbd_charge(m->budget, cbd_work_times(CBD_WORK_TURN_MISS, n))) {
            return false;
        }
    }
    return true;
}

/* Adds mass w to the state `key`, merging it with an equal state. */
cbd_status cbdp_turn_map_add(cbd_turn_map *m, const uint32_t *key, double w) {
    if (!map_reserve(m)) {
        return cbd_budget_nomem(m->budget);
    }
    m->adds++;
    if (!charge_misses_so_far(m)) {
        return CBD_ERR_BUDGET;
    }
    map_probe q = {m, key, cbd_hash_words(key, m->words)};
    size_t s = cbd_hash_probe(q.hash, m->tcap - 1, map_slot_done, &q);
    if (m->table[s]) {
        m->prob[m->table[s] - 1] += w;
        return CBD_OK;
    }
    if (!cbd_charge_share_step(&m->grown) || !cbd_charge_share_step(&m->grown_pages)) {
        return CBD_ERR_BUDGET;
    }
    size_t i = m->count++;
    memcpy(m->keys + i * m->words, key, m->words * 4);
    m->prob[i] = w;
    m->hash[i] = q.hash;
    m->slot[i] = (uint32_t)s;
    m->table[s] = (uint32_t)i + 1;
    return CBD_OK;
}
