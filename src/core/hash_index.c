/* Building a hash index (see hash_index.h). */
#include "hash_index.h"

/*
 * Entries placed between two progress checks at most, whatever their units: the caller's units
 * for the growth (CBD_WORK_TURN_GROWTH, 4 bytes of table a unit: some 4 units an entry) pay an
 * entry placed in a table held in the cache, a few ns, but in a table past it each entry's slot
 * is a miss: bench_budget's "7 players in 5000x5000's" placed 2^18 entries, 2^20 units, in 11-13
 * ms of CPU between two checks on the shared machine (about 50 ns an entry). Charging those
 * misses (CBD_WORK_TURN_MISS an entry) would add some 70 units to each of the millions of entries
 * a large turn's rehashes place, to rows already charged 1.1-1.4 units a ns of CPU on the whole
 * (its state misses, CBD_WORK_TURN_MISS a state, are weighed for a table's every array and cover
 * its rehash on the whole); so the check comes every INDEX_POLL entries as well
 * (cbd_budget_poll), less than 1 ms of CPU at 50 ns an entry, and the units stay those measured
 * for the whole turn.
 */
#define INDEX_POLL ((size_t)1 << 14)

static bool slot_free(const void *ctx, size_t slot) {
    const uint32_t *t = ctx;
    return t[slot] == 0;
}

uint32_t *cbd_hash_index_build(cbd_budget *budget, const uint64_t *keys, size_t count, size_t tcap,
                               uint32_t *slot_of, uint64_t units) {
    uint32_t *t = cbd_mem_calloc_paced(budget, tcap, sizeof *t);
    if (!t) {
        return NULL;
    }
    cbd_charge_share paid;
    cbd_charge_share_init(&paid, budget, units, count);
    for (size_t i = 0; i < count; i++) {
        if (!cbd_charge_share_step(&paid) ||
            (i % INDEX_POLL == INDEX_POLL - 1 && !cbd_budget_poll(budget))) {
            cbd_mem_free(t);
            return NULL;
        }
        size_t s = cbd_hash_probe(keys[i], tcap - 1, slot_free, t);
        t[s] = (uint32_t)i + 1;
        if (slot_of) {
            slot_of[i] = (uint32_t)s;
        }
    }
    if (!cbd_charge_share_end(&paid)) {
        cbd_mem_free(t);
        return NULL;
    }
    return t;
}
