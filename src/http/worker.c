/*
 * The worker pool (worker.h). MHD's thread pool pins each connection to one thread, so a long
 * computation would stall that thread's other connections: the server hands such a request to
 * this pool as a job (offload.c), and a job waits in a bounded queue for one of a fixed set of
 * worker threads.
 *
 * Fairness: one client holds at most `share` places (running + waiting), so a client that
 * sends 64 of the most expensive requests at once gets `share` computed and the rest refused,
 * while other clients still find workers. The queue is bounded too: past `workers + queue`
 * places every client is refused.
 */
#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* A client's places in the pool, by key. */
typedef struct {
    unsigned char addr[CBD_CLIENT_KEY_SIZE];
    unsigned used; /* running + waiting; the entry is free at 0 */
} client_places;

struct cbd_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    cbd_job **queue; /* a ring of `capacity` places, under lock */
    unsigned capacity, head, waiting;
    unsigned workers, running, share; /* running under lock */
    client_places *clients;           /* `workers + capacity` entries: one per place at most */
    bool stop;                        /* under lock */
    pthread_t *threads;
    unsigned started; /* threads created */
    bool joined;      /* cbdp_pool_stop has joined them */
};

/* The entry of `key`, or a free one to take (under lock); NULL cannot happen while every
 * place has at most one entry, but is checked. */
static client_places *find_client(cbd_pool *p, const unsigned char key[CBD_CLIENT_KEY_SIZE]) {
    client_places *free_entry = NULL;
    for (unsigned i = 0; i < p->workers + p->capacity; i++) {
        client_places *c = &p->clients[i];
        if (c->used > 0 && memcmp(c->addr, key, CBD_CLIENT_KEY_SIZE) == 0) {
            return c;
        }
        if (c->used == 0 && !free_entry) {
            free_entry = c;
        }
    }
    if (free_entry) {
        memcpy(free_entry->addr, key, CBD_CLIENT_KEY_SIZE);
    }
    return free_entry;
}

static void release_place(cbd_pool *p, const unsigned char key[CBD_CLIENT_KEY_SIZE]) {
    client_places *c = find_client(p, key);
    if (c && c->used > 0) {
        c->used--;
    }
}

/*
 * A worker computes for up to server.work_budget_ms at a time, and while it does the HTTP
 * threads must still get a core at once for the requests that take microseconds (/livez, a
 * small analysis, a refusal): a worker runs at a lower priority (WORKER_NICE above the process's
 * nice, about a tenth of an HTTP thread's weight), so that an HTTP thread that wakes preempts it.
 * Workers still use every core nobody else wants. Raising one's own nice value needs no privilege;
 * if it fails, the worker runs as it would have.
 */
#define WORKER_NICE 10

static void lower_priority(void) {
    /* Relative to the process's own nice (a server started with `nice` keeps its workers below
     * its HTTP threads); the kernel caps the value at 19. getpriority's -1 may be a value, so
     * errno says whether it failed. */
    errno = 0;
    int base = getpriority(PRIO_PROCESS, (id_t)gettid());
    if (base == -1 && errno != 0) {
        base = 0;
    }
    (void)setpriority(PRIO_PROCESS, (id_t)gettid(), base + WORKER_NICE);
}

static void *worker_main(void *arg) {
    cbd_pool *p = arg;
    lower_priority();
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->waiting == 0 && !p->stop) {
            pthread_cond_wait(&p->wake, &p->lock);
        }
        if (p->waiting == 0) {
            break; /* stopping, and nothing is left to answer */
        }
        cbd_job *job = p->queue[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->waiting--;
        p->running++;
        bool stopping = p->stop;
        pthread_mutex_unlock(&p->lock);

        job->fns->run(job, stopping);
        pthread_mutex_lock(&p->lock);
        p->running--;
        release_place(p, job->client);
        pthread_mutex_unlock(&p->lock);
        job->fns->finished(job); /* the job may be gone from here on */
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

cbd_pool *cbdp_pool_start(unsigned workers, unsigned queue, unsigned share) {
    cbd_pool *p = calloc(1, sizeof *p);
    if (!p) {
        return NULL;
    }
    p->workers = workers > 0 ? workers : 1;
    p->capacity = p->workers + queue; /* the ring holds every admitted request */
    p->share = share > 0 ? share : (p->workers / 4 > 1 ? p->workers / 4 : 1);
    p->queue = calloc(p->capacity, sizeof *p->queue);
    p->clients = calloc(p->workers + p->capacity, sizeof *p->clients);
    p->threads = calloc(p->workers, sizeof *p->threads);
    bool ok = p->queue && p->clients && p->threads && pthread_mutex_init(&p->lock, NULL) == 0;
    if (ok && pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        ok = false;
    }
    while (ok && p->started < p->workers) {
        ok = pthread_create(&p->threads[p->started], NULL, worker_main, p) == 0;
        p->started += ok ? 1u : 0u;
    }
    if (!ok) {
        if (p->threads && p->started > 0) {
            cbdp_pool_free(p);
            return NULL;
        }
        free(p->queue);
        free(p->clients);
        free(p->threads);
        free(p);
        return NULL;
    }
    return p;
}

void cbdp_pool_stop(cbd_pool *p) {
    if (!p || p->joined) {
        return;
    }
    /* Every admitted job is still run (with `stopping`): its owner may be waiting on its end
     * (a suspended connection, which only the job's end resumes). */
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->started; i++) {
        pthread_join(p->threads[i], NULL);
    }
    p->joined = true;
}

void cbdp_pool_free(cbd_pool *p) {
    if (!p) {
        return;
    }
    cbdp_pool_stop(p);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->queue);
    free(p->clients);
    free(p->threads);
    free(p);
}

unsigned cbdp_pool_jobs(cbd_pool *p) {
    pthread_mutex_lock(&p->lock);
    unsigned n = p->running + p->waiting;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned cbdp_pool_share(const cbd_pool *p) {
    return p->share;
}

unsigned cbdp_pool_places(const cbd_pool *p) {
    return p->capacity;
}

/* Admits a job (under lock): CBD_POOL_ADMITTED, or why not. */
static cbd_pool_admission admit(cbd_pool *p, const unsigned char key[CBD_CLIENT_KEY_SIZE]) {
    if (p->stop) {
        return CBD_POOL_STOPPING;
    }
    if (p->running + p->waiting >= p->capacity) {
        return CBD_POOL_FULL;
    }
    client_places *c = find_client(p, key);
    if (!c) {
        return CBD_POOL_FULL;
    }
    if (c->used >= p->share) {
        return CBD_POOL_OVER_SHARE;
    }
    c->used++;
    return CBD_POOL_ADMITTED;
}

cbd_pool_admission cbdp_pool_submit(cbd_pool *p, cbd_job *job) {
    pthread_mutex_lock(&p->lock);
    cbd_pool_admission a = admit(p, job->client);
    if (a == CBD_POOL_ADMITTED) {
        job->fns->admitted(job);
        p->queue[(p->head + p->waiting) % p->capacity] = job;
        p->waiting++;
        pthread_cond_signal(&p->wake);
    }
    pthread_mutex_unlock(&p->lock);
    return a;
}
