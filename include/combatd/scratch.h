#ifndef COMBATD_SCRATCH_H
#define COMBATD_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A cache of large blocks whose pages stay mapped between uses, so that a computation that
 * frees a buffer and takes one of the same size again, within a request or in the next one,
 * finds pages the kernel has already faulted in and zeroed (SQLite's lookaside and page cache,
 * jemalloc's dirty pages kept before decay). Touching a fresh page costs about 0.2 µs on a bare
 * machine and up to 10 µs on a cloud VM; a warm page costs nothing but its use.
 *
 * Blocks below CBD_SCRATCH_MIN_BLOCK come from malloc's heap, which reuses them by itself; the
 * larger ones come from mmap under the server's malloc policy (M_MMAP_THRESHOLD) and would go
 * back to the kernel on every free. A scratch keeps at most `limit` bytes and
 * CBD_SCRATCH_SLOTS blocks; past either, the smallest blocks are freed first (the large ones
 * cost the most pages to fault in again).
 *
 * Plain C over malloc: no locks, no globals. One scratch is used by one thread at a time; the
 * server hands a shared one from request to request under its own lock (src/http/scratch_pool).
 */

/* The server's malloc policy (src/http/scratch_pool.c): a malloc'd block of this size or more is
 * a mapping of its own, whose pages are new to whoever takes it and go back to the kernel when
 * it is freed. */
#define CBD_MALLOC_MAPPED_FROM ((size_t)256 << 10)

/* The smallest block a scratch serves. */
#define CBD_SCRATCH_MIN_BLOCK ((size_t)64 << 10)
/* The most blocks one scratch keeps. */
#define CBD_SCRATCH_SLOTS 64
/* The page the kernel faults in at a time, and the unit of a block's capacity. */
#define CBD_SCRATCH_PAGE ((size_t)4096)

typedef struct cbd_scratch cbd_scratch;

/* Fills an empty scratch (called once, before its first take: the server's shared cache). */
typedef void (*cbd_scratch_refill_fn)(void *arg, cbd_scratch *s);

typedef struct {
    void *block;
    size_t capacity;
} cbd_scratch_slot;

struct cbd_scratch {
    cbd_scratch_slot slots[CBD_SCRATCH_SLOTS]; /* the kept blocks, by capacity, smallest first */
    unsigned count;
    size_t kept;  /* bytes of the kept blocks */
    size_t limit; /* the most bytes kept at once */
    /* What the scratch has done, in bytes of capacity: taken new from the system (pages that
     * fault when touched), served from kept blocks, freed. */
    uint64_t fresh_bytes, reused_bytes, freed_bytes;
    cbd_scratch_refill_fn refill; /* may be NULL */
    void *refill_arg;
    bool refilled;
};

/* An empty scratch that keeps up to `limit` bytes. */
void cbd_scratch_init(cbd_scratch *s, size_t limit);

/* Sets the refill callback (see cbd_scratch_refill_fn). */
void cbd_scratch_set_refill(cbd_scratch *s, cbd_scratch_refill_fn fn, void *arg);

/*
 * A block of at least `size` bytes: the smallest kept block that holds it, else the largest
 * kept one grown when it is a mapping of its own (realloc: its pages stay, only the growth is
 * new; one of malloc's heap is freed instead, cbd_scratch_mapped_alone), else a new one. Its
 * capacity in *capacity; the bytes new from the system, which fault when touched, in *fresh.
 * NULL when the system has no memory.
 */
void *cbd_scratch_take(cbd_scratch *s, size_t size, size_t *capacity, size_t *fresh);

/* The smallest kept block of at least `size` bytes, removed from the scratch; NULL if none. */
void *cbd_scratch_take_kept(cbd_scratch *s, size_t size, size_t *capacity);

/*
 * Whether malloc holds `block` (of `capacity` bytes, whole pages) in a mapping of its own, which
 * realloc moves without a copy (mremap). malloc also cuts large blocks from its heap's free room
 * (small blocks earlier requests freed, joined), and realloc copies those into new pages with
 * no progress check between: bench_budget's ring plan, after the /simulate-turn rows, grew a
 * 10 MB turn table so, 30 ms of CPU for its 2,562 new pages. Such a block is grown by a copy in
 * pieces with the check between (budget.c), or freed when its bytes are not needed (a kept
 * block, cbd_scratch_take).
 */
bool cbd_scratch_mapped_alone(void *block, size_t capacity);

/* Rounds a size up to the capacity a block of it gets (whole pages). */
size_t cbd_scratch_capacity(size_t size);

/* Gives a block taken from any scratch (or malloc'd with this capacity) back to keep. */
void cbd_scratch_give(cbd_scratch *s, void *block, size_t capacity);

/* Moves every kept block of `from` into `to`, whose limits apply; `from` is left empty. */
void cbd_scratch_merge(cbd_scratch *to, cbd_scratch *from);

/* Frees kept blocks, smallest first, until at most `keep` bytes are kept. */
void cbd_scratch_trim(cbd_scratch *s, size_t keep);

/* Frees every kept block. */
void cbd_scratch_release(cbd_scratch *s);

#endif
