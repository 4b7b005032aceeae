#include "json_alloc.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

/* One block of an arena; pieces are cut from data[] front to back. */
typedef struct arena_block {
    struct arena_block *next;
    size_t size, used;
    max_align_t data[];
} arena_block;

struct cbd_json_arena {
    arena_block *blocks; /* the newest first: it is the one with room */
};

/* The first block fits a turn or battle request of a few KB (a 1 KB body takes about 12 KB);
 * later blocks double up to a cap, so a 1 MB body needs a few dozen blocks, not thousands,
 * and wastes at most half of the last one. A piece over a quarter of a block gets a block of
 * its own. */
enum { FIRST_BLOCK = 16 * 1024, MAX_BLOCK = 1024 * 1024, ALIGN = _Alignof(max_align_t) };

static _Thread_local bool failed;
static _Thread_local cbd_json_arena *current;

static arena_block *block_new(size_t size) {
    arena_block *b = malloc(sizeof *b + size);
    if (b) {
        b->size = size;
        b->used = 0;
    }
    return b;
}

static void *arena_take(cbd_json_arena *a, size_t size) {
    if (size > SIZE_MAX / 2) {
        return NULL;
    }
    size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    arena_block *head = a->blocks;
    if (head->size - head->used >= size) {
        void *p = (char *)head->data + head->used;
        head->used += size;
        return p;
    }
    size_t grown = head->size < MAX_BLOCK ? head->size * 2 : MAX_BLOCK;
    bool own = size > grown / 4;
    arena_block *b = block_new(own ? size : grown);
    if (!b) {
        return NULL;
    }
    b->used = size;
    if (own) { /* behind the head, which keeps its room for the small pieces */
        b->next = head->next;
        head->next = b;
    } else {
        b->next = head;
        a->blocks = b;
    }
    return b->data;
}

static bool arena_owns(const cbd_json_arena *a, const void *p) {
    for (const arena_block *b = a->blocks; b; b = b->next) {
        /* Compared as integers: the pointer may belong to no block at all. */
        uintptr_t lo = (uintptr_t)b->data, q = (uintptr_t)p;
        if (q >= lo && q < lo + b->size) {
            return true;
        }
    }
    return false;
}

static void *noting_malloc(size_t size) {
    void *p = current ? arena_take(current, size) : malloc(size);
    if (!p) {
        failed = true;
    }
    return p;
}

static void arena_aware_free(void *p) {
    if (p && !(current && arena_owns(current, p))) {
        free(p);
    }
}

static void install(void) {
    /* Outside an arena, blocks are malloc'd and free'd, so objects made before this call
     * (there are none in the service, json_object_seed allocates nothing) free the same way. */
    json_set_alloc_funcs(noting_malloc, arena_aware_free);
}

void cbd_json_alloc_install(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    (void)pthread_once(&once, install);
}

void cbd_json_alloc_reset(void) {
    cbd_json_alloc_install();
    failed = false;
}

bool cbd_json_alloc_failed(void) {
    return failed;
}

cbd_json_arena *cbd_json_arena_new(void) {
    cbd_json_arena *a = malloc(sizeof *a);
    if (!a) {
        return NULL;
    }
    a->blocks = block_new(FIRST_BLOCK);
    if (!a->blocks) {
        free(a);
        return NULL;
    }
    a->blocks->next = NULL;
    return a;
}

size_t cbd_json_arena_bytes_in_blocks_from(const cbd_json_arena *a, size_t from) {
    size_t bytes = 0;
    for (const arena_block *b = a ? a->blocks : NULL; b; b = b->next) {
        if (sizeof *b + b->size >= from) {
            bytes += sizeof *b + b->used;
        }
    }
    return bytes;
}

cbd_json_arena *cbd_json_arena_use(cbd_json_arena *a) {
    cbd_json_arena *previous = current;
    current = a;
    return previous;
}

void cbd_json_arena_free(cbd_json_arena *a) {
    if (!a) {
        return;
    }
    for (arena_block *b = a->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}
