/* The server's warm memory (scratch_pool.h). */
#include "scratch_pool.h"

#include <malloc.h>

void cbdp_malloc_policy_apply(void) {
    (void)mallopt(M_MMAP_THRESHOLD, (int)CBD_MALLOC_MAPPED_FROM);
    (void)mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
}

bool cbdp_scratch_pool_init(cbd_scratch_pool *p, size_t keep) {
    cbd_scratch_init(&p->kept, keep);
    p->keep = keep;
    return pthread_mutex_init(&p->lock, NULL) == 0;
}

void cbdp_scratch_pool_destroy(cbd_scratch_pool *p) {
    cbd_scratch_release(&p->kept);
    pthread_mutex_destroy(&p->lock);
}

/* The refill of a lent scratch: every kept block moves to it (a copy of the slots; nothing is
 * freed: the pool keeps no more than a request may). */
static void take_all(void *arg, cbd_scratch *s) {
    cbd_scratch_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    cbd_scratch_merge(s, &p->kept);
    pthread_mutex_unlock(&p->lock);
}

void cbdp_scratch_pool_lend(cbd_scratch_pool *p, cbd_scratch *s, size_t limit) {
    cbd_scratch_init(s, limit);
    cbd_scratch_set_refill(s, take_all, p);
}

size_t cbdp_scratch_pool_return(cbd_scratch_pool *p, cbd_scratch *s) {
    if (s->count == 0) {
        pthread_mutex_lock(&p->lock);
        size_t kept = p->kept.kept;
        pthread_mutex_unlock(&p->lock);
        return kept;
    }
    /* The pool's own blocks (another request's, returned meanwhile) join these first, and the
     * keep size is applied out of the lock: freeing a large block unmaps it, which takes a
     * while. */
    cbd_scratch mine;
    cbd_scratch_init(&mine, p->keep);
    pthread_mutex_lock(&p->lock);
    cbd_scratch_merge(&mine, &p->kept);
    pthread_mutex_unlock(&p->lock);
    cbd_scratch_merge(&mine, s);
    pthread_mutex_lock(&p->lock);
    cbd_scratch_merge(&p->kept, &mine);
    size_t kept = p->kept.kept;
    pthread_mutex_unlock(&p->lock);
    return kept;
}
