#ifndef COMBATD_CORE_BLOCK_CACHE_H
#define COMBATD_CORE_BLOCK_CACHE_H

/*
 * The header every block of a budget carries (budget.c) and the small blocks' cache by size
 * class (implemented by block_cache.c; the cache itself is cbd_block_cache, budget.h).
 */
#include <stdalign.h>
#include <stddef.h>

#include "combatd/budget.h"

/*
 * Each block is preceded by a header naming its budget, its size and, for a block from the
 * budget's scratch, its capacity, so that a block is given back to the budget (and scratch) it
 * came from whoever frees it. The header keeps malloc's alignment.
 */
typedef struct {
    alignas(max_align_t) cbd_budget *owner;
    size_t size;
    size_t capacity; /* of the whole block, header included; 0 for a block of malloc's heap */
    unsigned cls;    /* a cache's block: its size class + 1 (cbd_block_cache); else 0 */
} block_header;

/* A block of `total` bytes (header included, below CBD_SCRATCH_MIN_BLOCK plus the header) from
 * b's cache: the class's last freed block, else the heap's (counted in both); *tag its header's
 * cls. NULL when malloc refuses. */
block_header *cbdp_cache_take(cbd_budget *b, size_t total, unsigned *tag);

/* A cache's block back to `c` (NULL, or past CBD_CACHE_KEEP: to the heap). */
void cbdp_cache_give(cbd_block_cache *c, block_header *h);

/* A cache's block grown or shrunk: in place within its class, else into a block of the class
 * that fits (from the owner's cache, or the heap's when it has none now), the old one freed.
 * The caller counts the new size. NULL, with the old block kept, when malloc refuses. */
block_header *cbdp_cache_regrow(block_header *h, size_t size);

#endif
