/*
 * The worker pool. MHD's thread pool pins each connection to one thread,
 * so a long computation would stall that thread's other connections. A request whose
 * estimated cost (cbd_api_cost) exceeds server.inline_cost_ns is answered here instead: its
 * connection is suspended, the request waits in a bounded queue for one of a fixed set of
 * worker threads, and the worker resumes the connection so that the next access-handler call
 * sends the reply.
 *
 * Fairness: one client address holds at most `share` places (running + waiting), so a
 * client that opens 64 connections of the most expensive requests gets `share` computed and
 * the rest refused at once with 503 + Retry-After, while other clients still find workers.
 * The queue is bounded too: past `workers + queue` places every client gets the 503.
 */
#include "worker.h"

#include <arpa/inet.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include "response.h"

/* A client's places in the pool, by address. */
typedef struct {
    unsigned char addr[16]; /* IPv6, or IPv4 as ::ffff:a.b.c.d */
    unsigned used;          /* running + waiting; the entry is free at 0 */
} client_places;

struct cbd_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    cbd_http_request **queue; /* a ring of `capacity` places, under lock */
    unsigned capacity, head, waiting;
    unsigned workers, running, share; /* running under lock */
    client_places *clients;           /* `workers + capacity` entries: one per place at most */
    bool stop;                        /* under lock */
    pthread_t *threads;
    unsigned started; /* threads created */
    bool joined;      /* cbd_pool_stop has joined them */
};

/* The client address a request counts against: the one the access log names (the socket
 * peer, or the client a trusted proxy forwarded for, net_ranges.h), so that behind a proxy
 * each client has its own share. The peer when that text is not an address. */
static void client_key(const cbd_http_request *req, struct MHD_Connection *con,
                       unsigned char key[16]) {
    memset(key, 0, 16);
    struct in6_addr v6;
    struct in_addr v4;
    if (inet_pton(AF_INET6, req->client, &v6) == 1) {
        memcpy(key, &v6, 16);
        return;
    }
    if (inet_pton(AF_INET, req->client, &v4) == 1) {
        key[10] = key[11] = 0xff;
        memcpy(key + 12, &v4, 4);
        return;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = info ? info->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
    } else if (sa && sa->sa_family == AF_INET) {
        key[10] = key[11] = 0xff;
        memcpy(key + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    }
}

/* The entry of `key`, or a free one to take (under lock); NULL cannot happen while every
 * place has at most one entry, but is checked. */
static client_places *find_client(cbd_pool *p, const unsigned char key[16]) {
    client_places *free_entry = NULL;
    for (unsigned i = 0; i < p->workers + p->capacity; i++) {
        client_places *c = &p->clients[i];
        if (c->used > 0 && memcmp(c->addr, key, 16) == 0) {
            return c;
        }
        if (c->used == 0 && !free_entry) {
            free_entry = c;
        }
    }
    if (free_entry) {
        memcpy(free_entry->addr, key, 16);
    }
    return free_entry;
}

static void release_place(cbd_pool *p, const unsigned char key[16]) {
    client_places *c = find_client(p, key);
    if (c && c->used > 0) {
        c->used--;
    }
}

/* A job's progress callback: true once server.answer_deadline has passed since the request was
 * in, so that the core stops it and the client gets a 504 rather than a late answer. */
static bool past_deadline(void *arg) {
    const cbd_http_request *req = arg;
    return cbd_now_us() - req->in_us > (uint64_t)req->server->cfg.server.answer_deadline * 1000000u;
}

/* The 503 of a request that is not computed, in its endpoint's words (cbd_api_refuse: a
 * problem, or for /mcp a tool error that says to retry). */
static void refuse_job(cbd_http_request *req, const char *detail) {
    cbd_problem problem;
    cbd_problem_init(&problem);
    cbd_problem_set(&problem, 503, "%s", detail);
    cbd_api_refuse(&req->job_req, &problem, &req->job_reply);
}

/* Computes a job's reply, or refuses it: the server is stopping (what still waits is refused,
 * not computed, so that stopping takes one request's time and not the whole queue's), or it
 * waited past its deadline (its client has likely given up; a 503 says to retry). */
static void answer_job(cbd_http_request *req, bool stopping) {
    if (stopping) {
        refuse_job(req, "The service is stopping; retry on another replica.");
    } else if (past_deadline(req)) {
        refuse_job(req, "The request waited for a worker past server.answer_deadline; retry.");
    } else {
        cbd_api_limits limits = cbd_api_full_limits(&req->server->cfg);
        limits.progress = past_deadline;
        limits.progress_arg = req;
        (void)cbd_api_answer_within(&req->job_req, &req->server->cfg, &limits, &req->job_reply);
    }
}

/*
 * A worker computes for up to server.work_budget_ms at a time, and while it does the HTTP
 * threads must still get a core at once for the requests that take microseconds (/livez, a
 * small analysis, a refusal): a worker runs at a lower priority (nice WORKER_NICE, about a
 * tenth of an HTTP thread's weight), so that an HTTP thread that wakes preempts it. Workers
 * still use every core nobody else wants. Raising one's own nice value needs no privilege; if
 * it fails, the worker runs as it would have.
 */
#define WORKER_NICE 10

static void lower_priority(void) {
    (void)setpriority(PRIO_PROCESS, (id_t)gettid(), WORKER_NICE);
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
        cbd_http_request *req = p->queue[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->waiting--;
        p->running++;
        bool stopping = p->stop;
        pthread_mutex_unlock(&p->lock);

        answer_job(req, stopping);
        struct MHD_Connection *con = req->con;
        unsigned char key[16];
        memcpy(key, req->job_client, sizeof key);

        pthread_mutex_lock(&p->lock);
        p->running--;
        release_place(p, key);
        pthread_mutex_unlock(&p->lock);
        /* req may be freed as soon as the connection is resumed: only con from here on. */
        MHD_resume_connection(con);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

cbd_pool *cbd_pool_start(unsigned workers, unsigned queue, unsigned share) {
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
            cbd_pool_free(p);
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

void cbd_pool_stop(cbd_pool *p) {
    if (!p || p->joined) {
        return;
    }
    /* Every admitted request is still answered: its connection is suspended and only the
     * worker's resume lets MHD finish it. */
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->started; i++) {
        pthread_join(p->threads[i], NULL);
    }
    p->joined = true;
}

void cbd_pool_free(cbd_pool *p) {
    if (!p) {
        return;
    }
    cbd_pool_stop(p);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->queue);
    free(p->clients);
    free(p->threads);
    free(p);
}

unsigned cbd_server_worker_jobs(const cbd_server *s) {
    cbd_pool *p = s->pool;
    pthread_mutex_lock(&p->lock);
    unsigned n = p->running + p->waiting;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* Why a request was not admitted. */
enum { ADMITTED = 0, OVER_SHARE = 1, POOL_FULL = 2, STOPPING = 3 };

/* Admits a request (under lock): ADMITTED, or why not. */
static int admit(cbd_pool *p, const unsigned char key[16]) {
    if (p->stop) {
        return STOPPING;
    }
    if (p->running + p->waiting >= p->capacity) {
        return POOL_FULL;
    }
    client_places *c = find_client(p, key);
    if (!c) {
        return POOL_FULL;
    }
    if (c->used >= p->share) {
        return OVER_SHARE;
    }
    c->used++;
    return ADMITTED;
}

enum MHD_Result cbd_http_run_on_worker(cbd_server *s, struct MHD_Connection *con,
                                       cbd_http_request *req, cbd_api_request *api_req) {
    cbd_pool *p = s->pool;
    client_key(req, con, req->job_client);
    pthread_mutex_lock(&p->lock);
    int refused = admit(p, req->job_client);
    if (refused == ADMITTED) {
        req->job_started = true;
        req->job_req = *api_req;
        req->con = con;
        req->server = s;
        atomic_fetch_add(&s->jobs_unsent, 1); /* until its completion (server.c) */
        /* Suspended before a worker can see it, so that its resume always follows. */
        MHD_suspend_connection(con);
        p->queue[(p->head + p->waiting) % p->capacity] = req;
        p->waiting++;
        pthread_cond_signal(&p->wake);
    }
    unsigned share = p->share, places = p->capacity;
    pthread_mutex_unlock(&p->lock);
    if (refused == ADMITTED) {
        return MHD_YES;
    }
    cbd_problem problem;
    cbd_problem_init(&problem);
    if (refused == OVER_SHARE) {
        cbd_problem_set(&problem, 503,
                        "This client address already has %u long request(s) computing or "
                        "waiting, its share (server.worker_share); retry when an answer has come.",
                        share);
    } else if (refused == STOPPING) {
        cbd_problem_set(&problem, 503, "The service is stopping; retry on another replica.");
    } else {
        cbd_problem_set(&problem, 503, "All %u places for long requests are taken; retry shortly.",
                        places);
    }
    /* In the endpoint's words: a problem, or for /mcp a tool error that says to retry (a 200,
     * which a Retry-After would not fit). */
    cbd_api_reply reply;
    cbd_api_refuse(api_req, &problem, &reply);
    cbd_extra_headers retry = {.retry_after = reply.status == 503 ? CBD_RETRY_AFTER_SECONDS : NULL};
    return cbd_http_send_reply(s, con, req, &reply, &retry);
}
