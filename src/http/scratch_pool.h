#ifndef COMBATD_HTTP_SCRATCH_POOL_H
#define COMBATD_HTTP_SCRATCH_POOL_H

/*
 * The server's warm memory: one scratch (combatd/scratch.h) of up to server.scratch_keep_bytes
 * kept between requests. A request lends an empty scratch of its own that takes every kept
 * block at its first large allocation, keeps what it frees while it runs (up to its memory
 * budget) and gives it all back when it ends; what passes the keep size then goes back to the
 * kernel. Two requests running at once: the first to need a large block gets the kept ones,
 * the other starts cold. Requests that allocate no large block never take the lock.
 *
 * Answers are not scratch: they come from malloc, and under the server's malloc policy those
 * of 256 KiB or more go back to the kernel when sent (a slow-reader flood's memory with them).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "combatd/scratch.h"

typedef struct {
    pthread_mutex_t lock;
    cbd_scratch kept; /* under lock */
    size_t keep;      /* server.scratch_keep_bytes */
} cbd_scratch_pool;

/* The malloc policy of the server (and of the benchmarks that measure it): a fixed mmap
 * threshold, so that glibc does not raise it after the first large free (which kept a
 * slow-reader flood's answers in the heap after the readers had gone), and a trim threshold. */
void cbdp_malloc_policy_apply(void);

/* False when the lock cannot be made. */
bool cbdp_scratch_pool_init(cbd_scratch_pool *p, size_t keep);
void cbdp_scratch_pool_destroy(cbd_scratch_pool *p);

/* An empty scratch `s` for one request that may keep up to `limit` bytes while it runs; it
 * takes the pool's blocks at its first large allocation. */
void cbdp_scratch_pool_lend(cbd_scratch_pool *p, cbd_scratch *s, size_t limit);

/* Gives back what `s` kept: the pool keeps up to its keep size and frees the rest (outside its
 * lock). `s` is empty after. Returns the bytes the pool keeps now. */
size_t cbdp_scratch_pool_return(cbd_scratch_pool *p, cbd_scratch *s);

#endif
