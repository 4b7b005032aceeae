/* A request's work and memory budget; see include/combatd/budget.h. */
#include "combatd/budget.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each block is preceded by a header naming its budget and size, so that a block is given back
 * to the budget it came from whoever frees it. The header keeps malloc's alignment.
 */
typedef struct {
    alignas(max_align_t) cbd_budget *owner;
    size_t size;
} block_header;

void cbd_budget_init(cbd_budget *b, uint64_t work_limit, size_t mem_limit) {
    memset(b, 0, sizeof *b);
    b->work_limit = work_limit;
    b->mem_limit = mem_limit;
    b->next_progress = UINT64_MAX;
    b->stopped = CBD_BUDGET_RUNNING;
}

void cbd_budget_set_progress(cbd_budget *b, cbd_budget_progress_fn fn, void *arg) {
    b->progress = fn;
    b->progress_arg = arg;
    b->next_progress = fn ? b->work_spent + CBD_BUDGET_PROGRESS_UNITS : UINT64_MAX;
}

bool cbd_budget_check(cbd_budget *b) {
    if (b->stopped != CBD_BUDGET_RUNNING) {
        return false;
    }
    if (b->work_spent > b->work_limit) {
        b->stopped = CBD_BUDGET_WORK;
        return false;
    }
    if (b->work_spent >= b->next_progress) {
        /* Once per interval, however large the charge that crossed it. */
        uint64_t next = b->work_spent + CBD_BUDGET_PROGRESS_UNITS;
        b->next_progress = next < b->work_spent ? UINT64_MAX : next;
        if (b->progress && b->progress(b->progress_arg)) {
            b->stopped = CBD_BUDGET_CANCELLED;
            return false;
        }
    }
    return true;
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

/* Takes `size` bytes; a new peak past CBD_WORK_FRESH_FROM is charged as work. The block is
 * the caller's either way: a charge past the work limit stops the budget, and the
 * computation's next charge returns it. */
static void mem_take(cbd_budget *b, size_t size) {
    if (!b) {
        return;
    }
    b->mem_held += size;
    if (b->mem_held <= b->mem_peak) {
        return;
    }
    size_t from = b->mem_peak > CBD_WORK_FRESH_FROM ? b->mem_peak : CBD_WORK_FRESH_FROM;
    if (b->mem_held > from) {
        (void)cbd_charge(b, (b->mem_held - from) / CBD_WORK_FRESH_BYTES);
    }
    b->mem_peak = b->mem_held;
}

void *cbd_mem_alloc(cbd_budget *b, size_t size) {
    if (size > SIZE_MAX - sizeof(block_header) || !mem_fits(b, size)) {
        return NULL;
    }
    block_header *h = malloc(sizeof *h + size);
    if (!h) {
        return NULL;
    }
    h->owner = b;
    h->size = size;
    mem_take(b, size);
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
    block_header *grown = realloc(h, sizeof *grown + size);
    if (!grown) {
        return NULL;
    }
    grown->size = size;
    if (owner) {
        owner->mem_held -= old;
        mem_take(owner, size);
    }
    return grown + 1;
}

void cbd_mem_free(void *p) {
    if (!p) {
        return;
    }
    block_header *h = (block_header *)p - 1;
    if (h->owner) {
        h->owner->mem_held -= h->size;
    }
    free(h);
}
