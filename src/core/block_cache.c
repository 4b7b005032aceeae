/* The small blocks' cache by size class; see block_cache.h. */
#include "block_cache.h"

#include <stdlib.h>
#include <string.h>

/* The smallest class: 2^CACHE_SHIFT bytes, header included. */
#define CACHE_SHIFT 6

static size_t class_bytes(unsigned cls) {
    return (size_t)1 << (cls + CACHE_SHIFT);
}

/* The class of a block of `total` bytes (header included; below CBD_SCRATCH_MIN_BLOCK plus the
 * header, so within CBD_CACHE_CLASSES). */
static unsigned class_of(size_t total) {
    if (total <= class_bytes(0)) {
        return 0;
    }
    /* the bits of total - 1 are the class's power of two (a count of leading zeros, not a loop:
     * this runs for every small block of a plan search) */
    return (unsigned)(64 - __builtin_clzll((unsigned long long)total - 1)) - CACHE_SHIFT;
}

block_header *cbdp_cache_take(cbd_budget *b, size_t total, unsigned *tag) {
    cbd_block_cache *c = b->cache;
    unsigned cls = class_of(total);
    block_header *h = c->free[cls];
    if (h) {
        memcpy(&c->free[cls], h, sizeof c->free[cls]);
        c->kept -= class_bytes(cls);
        c->reused++;
    } else {
        h = malloc(class_bytes(cls));
        if (!h) {
            return NULL;
        }
        c->heap_blocks++;
        b->heap_blocks++;
    }
    *tag = cls + 1;
    return h;
}

void cbdp_cache_give(cbd_block_cache *c, block_header *h) {
    unsigned cls = h->cls - 1;
    if (!c || c->kept > CBD_CACHE_KEEP - class_bytes(cls)) {
        free(h);
        return;
    }
    memcpy(h, &c->free[cls], sizeof c->free[cls]);
    c->free[cls] = h;
    c->kept += class_bytes(cls);
}

block_header *cbdp_cache_regrow(block_header *h, size_t size) {
    size_t total = sizeof *h + size;
    if (total <= class_bytes(h->cls - 1)) {
        return h;
    }
    cbd_budget *b = h->owner;
    cbd_block_cache *c = b ? b->cache : NULL;
    unsigned cls = 0;
    block_header *moved = c ? cbdp_cache_take(b, total, &cls) : malloc(total);
    if (!moved) {
        return NULL;
    }
    if (!c && b) {
        b->heap_blocks++;
    }
    memcpy(moved, h, sizeof *h + h->size);
    moved->cls = cls;
    cbdp_cache_give(c, h);
    return moved;
}
