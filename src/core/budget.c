/* A request's work and memory budget; see include/combatd/budget.h. */
#include "combatd/budget.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "block_cache.h"

void cbd_block_cache_release(cbd_block_cache *c) {
    for (unsigned cls = 0; cls < CBD_CACHE_CLASSES; cls++) {
        while (c->free[cls]) {
            void *h = c->free[cls];
            memcpy(&c->free[cls], h, sizeof c->free[cls]);
            free(h);
        }
    }
    c->kept = 0;
}

void cbd_budget_set_cache(cbd_budget *b, cbd_block_cache *c) {
    b->cache = c;
}

void cbd_budget_init(cbd_budget *b, uint64_t work_limit, size_t mem_limit) {
    memset(b, 0, sizeof *b);
    b->work_limit = work_limit;
    b->mem_limit = mem_limit;
    b->next_progress = UINT64_MAX;
    b->stopped = CBD_BUDGET_RUNNING;
}

void cbd_budget_init_child(cbd_budget *b, cbd_budget *parent, uint64_t work_limit) {
    cbd_budget_init(b, work_limit, parent ? parent->mem_limit - parent->mem_held : SIZE_MAX);
    if (parent) {
        b->scratch = parent->scratch;
        cbd_budget_set_progress(b, parent->progress, parent->progress_arg);
        b->fresh_to = parent;
    }
}

void cbd_budget_set_progress(cbd_budget *b, cbd_budget_progress_fn fn, void *arg) {
    b->progress = fn;
    b->progress_arg = arg;
    b->next_progress = fn ? b->work_spent + CBD_BUDGET_PROGRESS_UNITS : UINT64_MAX;
}

/* Records a stop: one that may be answered (the work limit, the deadline) moves the budget onto
 * its reserve when it has one not yet used; any other is final. */
static void stop_with(cbd_budget *b, cbd_budget_stop why) {
    bool answerable = why == CBD_BUDGET_WORK || why == CBD_BUDGET_DEADLINE;
    if (!answerable || b->reserve == 0 || b->ended != CBD_BUDGET_RUNNING) {
        b->stopped = why;
        return;
    }
    b->ended = why;
    uint64_t limit = b->work_spent + b->reserve;
    b->work_limit = limit < b->work_spent ? UINT64_MAX : limit;
}

bool cbd_budget_check(cbd_budget *b) {
    if (b->stopped != CBD_BUDGET_RUNNING) {
        return false;
    }
    if (b->work_spent > b->work_limit) {
        stop_with(b, CBD_BUDGET_WORK);
        return false;
    }
    if (b->work_spent >= b->next_progress) {
        /* Once per interval, however large the charge that crossed it. */
        uint64_t next = b->work_spent + CBD_BUDGET_PROGRESS_UNITS;
        b->next_progress = next < b->work_spent ? UINT64_MAX : next;
        cbd_budget_stop why = b->progress ? b->progress(b->progress_arg) : CBD_BUDGET_RUNNING;
        if (why == CBD_BUDGET_DEADLINE && cbd_budget_answering(b)) {
            why = CBD_BUDGET_RUNNING; /* past it already: the answer is being written */
        }
        if (why != CBD_BUDGET_RUNNING) {
            stop_with(b, why == CBD_BUDGET_DEADLINE ? CBD_BUDGET_DEADLINE : CBD_BUDGET_CANCELLED);
            return false;
        }
    }
    return true;
}

void cbd_budget_set_reserve(cbd_budget *b, uint64_t units) {
    if (b) {
        b->reserve = units;
    }
}

void cbd_budget_end_reserve(cbd_budget *b) {
    if (!b) {
        return;
    }
    if (cbd_budget_answering(b)) {
        b->stopped = b->ended;
    }
    b->reserve = 0;
}

void cbd_budget_halt(cbd_budget *b, cbd_budget_stop why) {
    if (b && b->stopped == CBD_BUDGET_RUNNING && b->ended == CBD_BUDGET_RUNNING &&
        (why == CBD_BUDGET_WORK || why == CBD_BUDGET_DEADLINE)) {
        stop_with(b, why);
    }
}

/* Whether `size` more bytes fit the budget; records the stop when not. */
static bool mem_fits(cbd_budget *b, size_t size) {
    if (!b) {
        return true;
    }
    if (b->stopped != CBD_BUDGET_RUNNING) {
        return false;
    }
    if (size > b->mem_limit || b->mem_held > b->mem_limit - size) {
        b->stopped = CBD_BUDGET_MEMORY;
        b->mem_refused = size;
        return false;
    }
    return true;
}

/* Charges `bytes` new to the request as the pages the kernel faults in for them (to
 * b->fresh_to when set). A charge past the work limit stops the budget; the block is the
 * caller's either way, and the computation's next charge returns it. */
static void charge_fresh(cbd_budget *b, size_t bytes) {
    size_t pages = bytes / CBD_SCRATCH_PAGE + (bytes % CBD_SCRATCH_PAGE != 0);
    uint64_t units = cbd_work_times(CBD_WORK_FRESH_PAGE, pages);
    b->fresh_bytes += bytes;
    if (b->pages_owed) {
        *b->pages_owed = units < UINT64_MAX - *b->pages_owed ? *b->pages_owed + units : UINT64_MAX;
        return;
    }
    (void)cbd_charge_pages(b, units);
}

bool cbd_charge_pages(cbd_budget *b, uint64_t units) {
    if (!b) {
        return true;
    }
    cbd_budget *to = b->fresh_to ? b->fresh_to : b;
    to->fresh_units = units < UINT64_MAX - to->fresh_units ? to->fresh_units + units : UINT64_MAX;
    (void)cbd_charge(to, units);
    return !cbd_budget_spent(b); /* (a parent's stop is its own: the child's caller sees it) */
}

void cbd_budget_defer_pages(cbd_budget *b, uint64_t *owed) {
    if (b) {
        b->pages_owed = owed;
    }
}

void cbd_budget_set_fresh_to(cbd_budget *b, cbd_budget *to) {
    b->fresh_to = to;
}

bool cbd_charge_fresh(cbd_budget *b, size_t bytes) {
    if (bytes > 0) {
        charge_fresh(b, bytes);
    }
    return !cbd_budget_spent(b);
}

/* Takes `size` bytes of a small block: a new peak of them past CBD_WORK_FRESH_FROM is new heap. */
static void take_small(cbd_budget *b, size_t size) {
    b->mem_held += size;
    b->mem_peak = b->mem_held > b->mem_peak ? b->mem_held : b->mem_peak;
    b->small_held += size;
    if (b->small_held <= b->small_peak) {
        return;
    }
    size_t from = b->small_peak > CBD_WORK_FRESH_FROM ? b->small_peak : CBD_WORK_FRESH_FROM;
    if (b->small_held > from) {
        charge_fresh(b, b->small_held - from);
    }
    b->small_peak = b->small_held;
}

/* Takes `size` bytes of a large block, `fresh` of them new pages. */
static void take_large(cbd_budget *b, size_t size, size_t fresh) {
    b->mem_held += size;
    b->mem_peak = b->mem_held > b->mem_peak ? b->mem_held : b->mem_peak;
    if (fresh > 0) {
        charge_fresh(b, fresh);
    }
}

/* Gives a block's bytes back to its budget's count. */
static void give_back(const block_header *h) {
    cbd_budget *b = h->owner;
    if (b) {
        b->mem_held -= h->size;
        if (h->capacity == 0) {
            b->small_held -= h->size;
        }
    }
}

bool cbd_budget_poll(cbd_budget *b) {
    if (!b) {
        return true;
    }
    if (b->progress && b->stopped == CBD_BUDGET_RUNNING) {
        b->next_progress = b->work_spent;
    }
    return cbd_budget_check(b);
}

/*
 * A large block the system moved to new addresses (realloc of a mapping: mremap) keeps its pages:
 * no fault is counted when they are next touched, and no page is new. But on the reference
 * machine (a microVM whose memory its host maps as well) the first touch of each at its new place
 * costs some 5-6 µs of CPU all the same (bench_budget's "11000x11000, 10 steps" on a cold pool: a
 * turn table's keys grown from 20 to 40 MB, then 30 ms to read their 5,120 moved pages once;
 * touched as the next states were added, 8-16 ms of CPU between two checks 2 · 2^20 units
 * apart). So they are read once right after the move, MOVED_CHUNK at a time with the progress
 * check between (cbd_budget_poll), no units charged: what the pages cost is the computation's use
 * of them, which it charges; this brings that cost before the checks. A spent budget stops the
 * walk; the caller's next charge sees the stop.
 */
#define MOVED_CHUNK ((size_t)256 << 10) /* 64 pages: about 0.4 ms at 6 µs a page */
static void touch_moved(cbd_budget *b, const void *p, size_t bytes) {
    const volatile unsigned char *q = p;
    for (size_t at = 0; at < bytes; at += CBD_SCRATCH_PAGE) {
        if (at > 0 && at % MOVED_CHUNK == 0 && !cbd_budget_poll(b)) {
            return;
        }
        (void)q[at];
    }
}

/* A block of malloc's heap grown: a new block of `capacity` bytes, the old one's bytes copied
 * into it MOVED_CHUNK at a time with the progress check between, the old one freed. NULL, with
 * the old block kept, when malloc refuses or the budget is spent during the copy. */
static block_header *copy_grown(cbd_budget *b, block_header *h, size_t capacity) {
    block_header *moved = malloc(capacity);
    if (!moved) {
        return NULL;
    }
    size_t bytes = sizeof *h + h->size;
    for (size_t at = 0; at < bytes; at += MOVED_CHUNK) {
        if (at > 0 && !cbd_budget_poll(b)) {
            free(moved);
            return NULL;
        }
        memcpy((char *)moved + at, (const char *)h + at,
               bytes - at < MOVED_CHUNK ? bytes - at : MOVED_CHUNK);
    }
    free(h);
    return moved;
}

void cbd_budget_set_scratch(cbd_budget *b, cbd_scratch *s) {
    b->scratch = s;
}

/* A large block of `total` bytes (header included), from the scratch when there is one. */
static block_header *alloc_large(cbd_budget *b, size_t total, size_t *capacity, size_t *fresh) {
    if (b->scratch) {
        block_header *h = cbd_scratch_take(b->scratch, total, capacity, fresh);
        if (h && *fresh > 0 && *fresh < *capacity) {
            touch_moved(b, h, *capacity - *fresh); /* a kept block grown: its kept pages moved */
        }
        return h;
    }
    *capacity = cbd_scratch_capacity(total);
    *fresh = *capacity; /* under the server's malloc policy, a block of its own pages */
    return malloc(*capacity);
}

void *cbd_mem_alloc(cbd_budget *b, size_t size) {
    if (size > SIZE_MAX - sizeof(block_header) || !mem_fits(b, size)) {
        return NULL;
    }
    size_t total = sizeof(block_header) + size, capacity = 0, fresh = 0;
    bool large = b && size >= CBD_SCRATCH_MIN_BLOCK;
    unsigned cls = 0;
    block_header *h = large           ? alloc_large(b, total, &capacity, &fresh)
                      : b && b->cache ? cbdp_cache_take(b, total, &cls)
                                      : malloc(total);
    if (!h) {
        return NULL;
    }
    if (b && !large && !b->cache) {
        b->heap_blocks++;
    }
    *h = (block_header){.owner = b, .size = size, .capacity = capacity, .cls = cls};
    if (large) {
        take_large(b, size, fresh);
    } else if (b) {
        take_small(b, size);
    }
    return h + 1;
}

void *cbd_mem_calloc(cbd_budget *b, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        return NULL;
    }
    void *p = cbd_mem_alloc(b, count * size);
    if (p) {
        memset(p, 0, count * size);
    }
    return p;
}

/* Grows or shrinks a large block: in place within its capacity, else into a kept block of the
 * scratch, else by realloc (its pages stay; only the growth is new). */
static void *realloc_large(block_header *h, size_t size) {
    cbd_budget *b = h->owner;
    size_t total = sizeof *h + size, old = h->size;
    if (total <= h->capacity) {
        give_back(h);
        h->size = size;
        take_large(b, size, 0);
        return h + 1;
    }
    size_t capacity = 0, fresh = 0;
    block_header *moved = b->scratch ? cbd_scratch_take_kept(b->scratch, total, &capacity) : NULL;
    if (moved) {
        memcpy(moved, h, sizeof *h + old);
        cbd_scratch_give(b->scratch, h, h->capacity);
    } else {
        capacity = cbd_scratch_capacity(total);
        bool mapped = cbd_scratch_mapped_alone(h, h->capacity);
        moved = mapped ? realloc(h, capacity) : copy_grown(b, h, capacity);
        if (!moved) {
            return NULL;
        }
        fresh = capacity - moved->capacity;
        if (mapped) {
            touch_moved(b, moved, moved->capacity);
        }
        if (b->scratch) {
            b->scratch->fresh_bytes += fresh;
        }
    }
    moved->capacity = capacity;
    give_back(moved);
    moved->size = size;
    take_large(b, size, fresh);
    return moved + 1;
}

void *cbd_mem_realloc(cbd_budget *b, void *p, size_t size) {
    if (!p) {
        return cbd_mem_alloc(b, size);
    }
    block_header *h = (block_header *)p - 1;
    cbd_budget *owner = h->owner;
    size_t old = h->size;
    if (size > SIZE_MAX - sizeof(block_header) || (size > old && !mem_fits(owner, size - old))) {
        return NULL;
    }
    if (h->capacity != 0) {
        return realloc_large(h, size);
    }
    if (owner && size >= CBD_SCRATCH_MIN_BLOCK) {
        /* A heap block grown large: moved into a large block, so that it is kept warm too. */
        void *grown = cbd_mem_alloc(owner, size);
        if (!grown) {
            return NULL;
        }
        memcpy(grown, p, old);
        cbd_mem_free(p);
        return grown;
    }
    block_header *grown = h->cls ? cbdp_cache_regrow(h, size) : realloc(h, sizeof *grown + size);
    if (!grown) {
        return NULL;
    }
    if (owner) {
        give_back(grown);
        grown->size = size;
        take_small(owner, size);
    } else {
        grown->size = size;
    }
    return grown + 1;
}

void cbd_mem_free(void *p) {
    if (!p) {
        return;
    }
    block_header *h = (block_header *)p - 1;
    give_back(h);
    if (h->capacity != 0 && h->owner->scratch) {
        cbd_scratch_give(h->owner->scratch, h, h->capacity);
    } else if (h->cls != 0) {
        cbdp_cache_give(h->owner ? h->owner->cache : NULL, h);
    } else {
        free(h);
    }
}

void cbd_budget_note_child(cbd_budget *parent, const cbd_budget *child, uint64_t fresh_bytes,
                           uint64_t heap_blocks) {
    if (!parent) {
        return;
    }
    size_t peak = parent->mem_held + child->mem_peak;
    if (peak < parent->mem_held) {
        peak = SIZE_MAX;
    }
    if (peak > parent->mem_peak) {
        parent->mem_peak = peak;
    }
    parent->fresh_bytes += fresh_bytes;
    parent->heap_blocks += heap_blocks;
}

void cbd_budget_mark_stopped(cbd_budget *b, cbd_budget_stop why, size_t mem_refused) {
    if (!b || b->stopped != CBD_BUDGET_RUNNING || why == CBD_BUDGET_RUNNING) {
        return;
    }
    b->stopped = why;
    if (why == CBD_BUDGET_MEMORY && mem_refused > 0) {
        b->mem_refused = mem_refused;
    }
}

void cbd_budget_resume_after_memory(cbd_budget *b) {
    if (b && b->stopped == CBD_BUDGET_MEMORY) {
        b->stopped = CBD_BUDGET_RUNNING;
    }
}

void cbd_budget_add_spent(cbd_budget *b, uint64_t units) {
    if (b) {
        b->work_spent = units < UINT64_MAX - b->work_spent ? b->work_spent + units : UINT64_MAX;
    }
}
