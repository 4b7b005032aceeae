/* The distinct states of a group with their probabilities (see warapp_turn_internal.h). */
#include <stdlib.h>
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

uint32_t *cbd_turn_index_build(const uint64_t *keys, size_t count, size_t tcap) {
    uint32_t *t = calloc(tcap, sizeof *t);
    if (!t) {
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        size_t s = (size_t)cbd_turn_mix64(keys[i]) & (tcap - 1);
        while (t[s]) {
            s = (s + 1) & (tcap - 1);
        }
        t[s] = (uint32_t)i + 1;
    }
    return t;
}

void cbd_turn_map_free(cbd_turn_map *m) {
    free(m->keys);
    free(m->prob);
    free(m->hash);
    free(m->table);
    memset(m, 0, sizeof *m);
}

void cbd_turn_map_clear(cbd_turn_map *m, size_t words) {
    if (m->words != words) {
        cbd_turn_map_free(m);
        m->words = words;
    }
    m->count = 0;
    if (m->table) {
        memset(m->table, 0, m->tcap * sizeof *m->table);
    }
}

static bool map_rehash(cbd_turn_map *m, size_t tcap) {
    uint32_t *t = cbd_turn_index_build(m->hash, m->count, tcap);
    if (!t) {
        return false;
    }
    free(m->table);
    m->table = t;
    m->tcap = tcap;
    return true;
}

static bool map_reserve(cbd_turn_map *m) {
    if ((m->count + 1) * 2 > m->tcap && !map_rehash(m, m->tcap ? m->tcap * 2 : 64)) {
        return false;
    }
    if (m->count < m->cap) {
        return true;
    }
    size_t cap = m->cap ? m->cap * 2 : 32;
    uint32_t *k = realloc(m->keys, cap * (m->words ? m->words : 1) * sizeof *k);
    if (k) {
        m->keys = k;
    }
    double *p = realloc(m->prob, cap * sizeof *p);
    if (p) {
        m->prob = p;
    }
    uint64_t *h = realloc(m->hash, cap * sizeof *h);
    if (h) {
        m->hash = h;
    }
    if (!k || !p || !h) {
        return false;
    }
    m->cap = cap;
    return true;
}

/* Adds mass w to the state `key`, merging it with an equal state. */
cbd_status cbd_turn_map_add(cbd_turn_map *m, const uint32_t *key, double w) {
    if (!map_reserve(m)) {
        return CBD_ERR_NOMEM;
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
    m->table[s] = (uint32_t)i + 1;
    return CBD_OK;
}
