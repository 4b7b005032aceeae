/* The distinct states of a group with their probabilities (see warapp_turn_internal.h). */
#include <string.h>

#include "warapp_turn_internal.h"

static uint64_t hash_words(const uint32_t *k, size_t n) {
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ n;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ k[i]) * UINT64_C(0x100000001b3);
        h ^= h >> 29;
    }
    return h; /* the index table mixes it once more (cbd_turn_mix64) */
}

uint32_t *cbd_turn_index_build(cbd_budget *budget, const uint64_t *keys, size_t count, size_t tcap,
                               uint32_t *slot_of) {
    uint32_t *t = cbd_mem_calloc(budget, tcap, sizeof *t);
    if (!t) {
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        size_t s = (size_t)cbd_turn_mix64(keys[i]) & (tcap - 1);
        while (t[s]) {
            s = (s + 1) & (tcap - 1);
        }
        t[s] = (uint32_t)i + 1;
        if (slot_of) {
            slot_of[i] = (uint32_t)s;
        }
    }
    return t;
}

void cbd_turn_map_free(cbd_turn_map *m) {
    cbd_budget *budget = m->budget;
    cbd_mem_free(m->keys);
    cbd_mem_free(m->prob);
    cbd_mem_free(m->hash);
    cbd_mem_free(m->slot);
    cbd_mem_free(m->table);
    memset(m, 0, sizeof *m);
    m->budget = budget;
}

cbd_status cbd_turn_map_clear(cbd_turn_map *m, size_t words) {
    if (m->words != words) {
        cbd_turn_map_free(m);
        m->words = words;
    }
    /* The used slots one by one while they are few; the whole table once they are a quarter
     * of it (at most 4 slots a state then, and memset clears about 4 a unit). */
    bool few = m->count * 4 < m->tcap;
    if (!cbd_charge(m->budget, few ? m->count : m->tcap / 4)) {
        return CBD_ERR_BUDGET;
    }
    if (m->table && few) {
        for (size_t i = 0; i < m->count; i++) {
            m->table[m->slot[i]] = 0;
        }
    } else if (m->table) {
        memset(m->table, 0, m->tcap * sizeof *m->table);
    }
    m->count = 0;
    return CBD_OK;
}

static bool map_rehash(cbd_turn_map *m, size_t tcap) {
    uint32_t *t = cbd_turn_index_build(m->budget, m->hash, m->count, tcap, m->slot);
    if (!t) {
        return false;
    }
    cbd_mem_free(m->table);
    m->table = t;
    m->tcap = tcap;
    return true;
}

/* A map's growth is charged by the bytes it adds: first touched, they fault their pages in
 * (and a realloc may copy the old ones), which the per-state weights do not count. */
static bool charge_growth(cbd_turn_map *m, uint64_t bytes) {
    return cbd_charge(m->budget, bytes / CBD_WORK_TURN_GROWTH);
}

static bool map_reserve(cbd_turn_map *m) {
    if ((m->count + 1) * 2 > m->tcap) {
        size_t tcap = m->tcap ? m->tcap * 2 : 64;
        if (!charge_growth(m, (uint64_t)tcap * sizeof *m->table) || !map_rehash(m, tcap)) {
            return false;
        }
    }
    if (m->count < m->cap) {
        return true;
    }
    size_t cap = m->cap ? m->cap * 2 : 32;
    uint64_t per_state = (m->words ? m->words : 1) * sizeof *m->keys + sizeof *m->prob +
                         sizeof *m->hash + sizeof *m->slot;
    if (!charge_growth(m, (uint64_t)(cap - m->cap) * per_state)) {
        return false;
    }
    uint32_t *k = cbd_mem_realloc(m->budget, m->keys, cap * (m->words ? m->words : 1) * sizeof *k);
    if (k) {
        m->keys = k;
    }
    double *p = k ? cbd_mem_realloc(m->budget, m->prob, cap * sizeof *p) : NULL;
    if (p) {
        m->prob = p;
    }
    uint64_t *h = p ? cbd_mem_realloc(m->budget, m->hash, cap * sizeof *h) : NULL;
    if (h) {
        m->hash = h;
    }
    uint32_t *s = h ? cbd_mem_realloc(m->budget, m->slot, cap * sizeof *s) : NULL;
    if (s) {
        m->slot = s;
    }
    if (!s) {
        return false;
    }
    m->cap = cap;
    return true;
}

/* Adds mass w to the state `key`, merging it with an equal state. */
cbd_status cbd_turn_map_add(cbd_turn_map *m, const uint32_t *key, double w) {
    if (!map_reserve(m)) {
        return cbd_budget_nomem(m->budget);
    }
    uint64_t h = hash_words(key, m->words);
    size_t s = (size_t)cbd_turn_mix64(h) & (m->tcap - 1);
    while (m->table[s]) {
        size_t i = m->table[s] - 1;
        if (m->hash[i] == h && memcmp(m->keys + i * m->words, key, m->words * 4) == 0) {
            m->prob[i] += w;
            return CBD_OK;
        }
        s = (s + 1) & (m->tcap - 1);
    }
    size_t i = m->count++;
    memcpy(m->keys + i * m->words, key, m->words * 4);
    m->prob[i] = w;
    m->hash[i] = h;
    m->slot[i] = (uint32_t)s;
    m->table[s] = (uint32_t)i + 1;
    return CBD_OK;
}
