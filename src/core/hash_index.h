#ifndef COMBATD_CORE_HASH_INDEX_H
#define COMBATD_CORE_HASH_INDEX_H

/*
 * The core's one family of small hash tables (implemented by hash_index.c): open addressing
 * with linear probing over a power-of-2 table, each slot holding an entry's index + 1 (0:
 * empty). A key is hashed by cbd_hash_words (uint32 words) or cbd_hash_string (bytes), both
 * FNV-1a's multiply a word or byte; the probe mixes that once more (cbd_hash_mix64, murmur3's
 * finalizer) so that keys differing only in their last bytes ("t5_3", "t5_4") spread over the
 * table's low bits.
 * The turn state map, the turn kill cache, the turn schedules' dedup and the Duper board's
 * tile ids all index this way. Every user keeps its entries in the order they were added and
 * iterates over that, never over the table, so no answer depends on these hash values.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"

/* murmur3's 64-bit finalizer, first half: the high bits mixed down before a mask. */
static inline uint64_t cbd_hash_mix64(uint64_t h) {
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h;
}

/* One word folded into h: FNV-1a's multiply, then its high bits folded down. */
static inline uint64_t cbd_hash_step(uint64_t h, uint64_t word) {
    h = (h ^ word) * UINT64_C(0x100000001b3);
    return h ^ (h >> 29);
}

/* The hash of n uint32 words (the length in the seed, so a prefix hashes apart). */
static inline uint64_t cbd_hash_words(const uint32_t *k, size_t n) {
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ n;
    for (size_t i = 0; i < n; i++) {
        h = cbd_hash_step(h, k[i]);
    }
    return h;
}

/* FNV-1a over a NUL-terminated string's bytes: for short keys (tile ids, colours), one
 * multiply a byte; the probe's mixer spreads the bits that FNV leaves in the high half. */
static inline uint64_t cbd_hash_string(const char *s) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    }
    return h;
}

/*
 * The probe: from cbd_hash_mix64(hash) & mask on, the first slot for which done(ctx, slot)
 * holds (the caller's test: the slot is empty, or holds an entry equal to the key). The table
 * is never full (each user keeps it at most half full), so the loop ends. Inline, so that
 * `done` is inlined into each user's loop.
 */
static inline size_t cbd_hash_probe(uint64_t hash, size_t mask,
                                    bool (*done)(const void *ctx, size_t slot), const void *ctx) {
    size_t s = (size_t)cbd_hash_mix64(hash) & mask;
    while (!done(ctx, s)) {
        s = (s + 1) & mask;
    }
    return s;
}

/*
 * A new table of tcap slots (a power of 2, more than count) taken from `budget`, indexing
 * entries 0 .. count) by their hashes keys[i], each in the first free slot of its probe;
 * writes each entry's slot to slot_of[i] when slot_of is not NULL. `units` (its caller's
 * charge for the table's growth, or 0 when it counts the growth in the entries it charges) is
 * charged in pieces as the entries are placed, so that the progress check comes between them
 * (a rehash of millions of states charged whole ran tens of ms between two checks). NULL when
 * the budget or the system refused the memory, or the budget was spent.
 */
uint32_t *cbd_hash_index_build(cbd_budget *budget, const uint64_t *keys, size_t count, size_t tcap,
                               uint32_t *slot_of, uint64_t units);

#endif
