#ifndef COMBATD_HTTP_WORKER_H
#define COMBATD_HTTP_WORKER_H

/*
 * The worker pool: a fixed set of threads and a bounded queue of jobs, with at most `share`
 * places (running + waiting) per client. It knows nothing of HTTP or of the api: a job is a
 * function to run and a client key to count it against; the server (offload.c) makes its jobs
 * of requests and suspends and resumes their connections around them.
 */
#include <stdbool.h>

typedef struct cbd_pool cbd_pool;
typedef struct cbd_job cbd_job;

/* The client a job counts against: an IPv6 address, or IPv4 as ::ffff:a.b.c.d. */
#define CBD_CLIENT_KEY_SIZE 16

typedef struct {
    /* Called under the pool's lock once the job is admitted, before any worker can take it, so
     * that whatever its end undoes (a suspended connection) is done first. */
    void (*admitted)(cbd_job *job);
    /* Computes the job on a worker; `stopping`: the pool is stopping, refuse rather than
     * compute (stopping takes one job's time, not the whole queue's). */
    void (*run)(cbd_job *job, bool stopping);
    /* On the worker once the job's place is free again; the job may be freed from then on. */
    void (*finished)(cbd_job *job);
} cbd_job_fns;

struct cbd_job {
    const cbd_job_fns *fns;
    unsigned char client[CBD_CLIENT_KEY_SIZE];
};

/* `workers` threads (at least 1), `queue` places beyond them; `share` places per client (0:
 * max(1, workers / 4)). NULL when the threads cannot start. */
cbd_pool *cbdp_pool_start(unsigned workers, unsigned queue, unsigned share);

/* Answers every admitted job (running what runs, the rest with `stopping`), then joins the
 * threads. From then on every job is refused (CBD_POOL_STOPPING); the pool stays until
 * cbdp_pool_free, so that jobs still arriving find it. */
void cbdp_pool_stop(cbd_pool *p);

/* Stops the pool if it runs, and frees it. */
void cbdp_pool_free(cbd_pool *p);

typedef enum {
    CBD_POOL_ADMITTED,
    CBD_POOL_OVER_SHARE, /* the job's client holds its share of places */
    CBD_POOL_FULL,       /* every place is taken */
    CBD_POOL_STOPPING,
} cbd_pool_admission;

/* Queues `job` for a worker (fns->admitted is called first, under the lock), or says why not;
 * a job that is not admitted is the caller's still. */
cbd_pool_admission cbdp_pool_submit(cbd_pool *p, cbd_job *job);

/* Jobs running or waiting now. */
unsigned cbdp_pool_jobs(cbd_pool *p);

/* A client's share of places, and the places in all (for the refusals' words). */
unsigned cbdp_pool_share(const cbd_pool *p);
unsigned cbdp_pool_places(const cbd_pool *p);

#endif
