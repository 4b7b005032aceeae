/* Building a hash index (see hash_index.h). */
#include "hash_index.h"

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
        if (!cbd_charge_share_step(&paid)) {
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
