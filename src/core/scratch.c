/* A cache of large blocks kept warm between uses; see include/combatd/scratch.h. */
#include "combatd/scratch.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

/* glibc gives a mapping whole pages, its own header among them, so a block asked in whole pages
 * has most of a page to spare there, and 8 bytes in a chunk of the heap. (ASan's allocator
 * answers the size asked: there no block counts as mapped.) */
bool cbd_scratch_mapped_alone(void *block, size_t capacity) {
    return malloc_usable_size(block) >= capacity + CBD_SCRATCH_PAGE / 2;
}

void cbd_scratch_init(cbd_scratch *s, size_t limit) {
    memset(s, 0, sizeof *s);
    s->limit = limit;
}

void cbd_scratch_set_refill(cbd_scratch *s, cbd_scratch_refill_fn fn, void *arg) {
    s->refill = fn;
    s->refill_arg = arg;
}

size_t cbd_scratch_capacity(size_t size) {
    size_t pages = size / CBD_SCRATCH_PAGE + (size % CBD_SCRATCH_PAGE != 0);
    return pages > SIZE_MAX / CBD_SCRATCH_PAGE ? size : pages * CBD_SCRATCH_PAGE;
}

static void remove_slot(cbd_scratch *s, unsigned i) {
    s->kept -= s->slots[i].capacity;
    memmove(&s->slots[i], &s->slots[i + 1], (s->count - i - 1) * sizeof s->slots[0]);
    s->count--;
}

static void free_slot(cbd_scratch *s, unsigned i) {
    s->freed_bytes += s->slots[i].capacity;
    free(s->slots[i].block);
    remove_slot(s, i);
}

/* The refill, once, before the first look at the kept blocks. */
static void refill_once(cbd_scratch *s) {
    if (!s->refilled) {
        s->refilled = true;
        if (s->refill) {
            s->refill(s->refill_arg, s);
        }
    }
}

void *cbd_scratch_take_kept(cbd_scratch *s, size_t size, size_t *capacity) {
    refill_once(s);
    for (unsigned i = 0; i < s->count; i++) {
        if (s->slots[i].capacity >= size) {
            void *block = s->slots[i].block;
            *capacity = s->slots[i].capacity;
            s->reused_bytes += *capacity;
            remove_slot(s, i);
            return block;
        }
    }
    return NULL;
}

void *cbd_scratch_take(cbd_scratch *s, size_t size, size_t *capacity, size_t *fresh) {
    void *block = cbd_scratch_take_kept(s, size, capacity);
    if (block) {
        *fresh = 0;
        return block;
    }
    size_t cap = cbd_scratch_capacity(size);
    if (s->count > 0) {
        /*
         * Every kept block is smaller: grow the largest, whose pages are warm already. A mapping
         * of its own realloc moves (mremap). A block of malloc's heap realloc would copy whole
         * into new pages with no progress check during the copy (10 MB in 30 ms), for bytes
         * nobody needs: it goes back to the heap, and the new block, which malloc may cut from
         * the room it left, is counted as a block grown, the growth alone new.
         */
        cbd_scratch_slot *largest = &s->slots[s->count - 1];
        if (!cbd_scratch_mapped_alone(largest->block, largest->capacity)) {
            free(largest->block);
            largest->block = NULL;
        }
        block = largest->block ? realloc(largest->block, cap) : malloc(cap);
        if (!block) {
            if (!largest->block) {
                free_slot(s, s->count - 1); /* already freed: only its slot goes */
            }
            return NULL; /* a mapping stays kept */
        }
        *fresh = cap - largest->capacity;
        s->reused_bytes += largest->capacity;
        s->count--;
        s->kept -= largest->capacity;
    } else {
        block = malloc(cap);
        if (!block) {
            return NULL;
        }
        *fresh = cap;
    }
    s->fresh_bytes += *fresh;
    *capacity = cap;
    return block;
}

/* Frees the kept blocks that do not fit: past the slots the smallest; past `keep` bytes, the
 * largest blocks are kept first and smaller ones fill what room is left. */
static void fit(cbd_scratch *s, size_t keep) {
    while (s->count > CBD_SCRATCH_SLOTS) {
        free_slot(s, 0);
    }
    if (s->kept <= keep) {
        return;
    }
    size_t room = keep;
    for (unsigned i = s->count; i-- > 0;) {
        if (s->slots[i].capacity <= room) {
            room -= s->slots[i].capacity;
        } else {
            free_slot(s, i);
        }
    }
}

/* Inserts a block in capacity order; the array has a spare place (count < SLOTS + 1). */
static void insert(cbd_scratch_slot *slots, unsigned *count, void *block, size_t capacity) {
    unsigned i = *count;
    while (i > 0 && slots[i - 1].capacity > capacity) {
        slots[i] = slots[i - 1];
        i--;
    }
    slots[i] = (cbd_scratch_slot){block, capacity};
    (*count)++;
}

void cbd_scratch_give(cbd_scratch *s, void *block, size_t capacity) {
    if (!block) {
        return;
    }
    if (capacity > s->limit) {
        s->freed_bytes += capacity;
        free(block);
        return;
    }
    if (s->count == CBD_SCRATCH_SLOTS) {
        if (capacity <= s->slots[0].capacity) {
            s->freed_bytes += capacity;
            free(block); /* no smaller block to make room for it */
            return;
        }
        free_slot(s, 0);
    }
    insert(s->slots, &s->count, block, capacity);
    s->kept += capacity;
    fit(s, s->limit);
}

void cbd_scratch_merge(cbd_scratch *to, cbd_scratch *from) {
    for (unsigned i = from->count; i-- > 0;) { /* the largest first: they are kept first */
        cbd_scratch_give(to, from->slots[i].block, from->slots[i].capacity);
    }
    from->count = 0;
    from->kept = 0;
}

void cbd_scratch_trim(cbd_scratch *s, size_t keep) {
    fit(s, keep);
}

void cbd_scratch_release(cbd_scratch *s) {
    while (s->count > 0) {
        free_slot(s, s->count - 1);
    }
}
