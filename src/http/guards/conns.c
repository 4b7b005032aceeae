/* Open connections: the per-IP limit with exemptions, and the drain's view (conns.h). */
#include "conns.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#define BUCKETS 256u

typedef struct cbd_ip_count {
    struct cbd_ip_count *next;
    uint8_t addr[16];
    uint32_t n;
} cbd_ip_count;

struct cbd_conns {
    pthread_mutex_t lock;
    cbd_conn *head;        /* under lock */
    size_t open;           /* under lock */
    size_t shut_total;     /* under lock */
    uint32_t per_ip_limit; /* 0: none */
    size_t n_trusted;
    cbd_net_range trusted[CBD_MAX_TRUSTED_PROXIES];
    cbd_ip_count *buckets[BUCKETS]; /* under lock */
};

cbd_conns *cbd_conns_create(uint32_t per_ip_limit, const cbd_net_range *trusted, size_t n) {
    cbd_conns *t = calloc(1, sizeof *t);
    if (!t || n > CBD_MAX_TRUSTED_PROXIES || pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return NULL;
    }
    t->per_ip_limit = per_ip_limit;
    t->n_trusted = n;
    memcpy(t->trusted, trusted, n * sizeof *trusted);
    return t;
}

void cbd_conns_destroy(cbd_conns *t) {
    if (!t) {
        return;
    }
    for (unsigned i = 0; i < BUCKETS; i++) {
        while (t->buckets[i]) {
            cbd_ip_count *next = t->buckets[i]->next;
            free(t->buckets[i]);
            t->buckets[i] = next;
        }
    }
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static unsigned bucket_of(const uint8_t addr[16]) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (unsigned i = 0; i < 16; i++) {
        h = (h ^ addr[i]) * 16777619u;
    }
    return h % BUCKETS;
}

/* The counter of addr, under the lock; created when `create` (NULL when out of memory). */
static cbd_ip_count *find_count(cbd_conns *t, const uint8_t addr[16], bool create) {
    cbd_ip_count **slot = &t->buckets[bucket_of(addr)];
    for (cbd_ip_count *e = *slot; e; e = e->next) {
        if (memcmp(e->addr, addr, 16) == 0) {
            return e;
        }
    }
    cbd_ip_count *e = create ? calloc(1, sizeof *e) : NULL;
    if (e) {
        memcpy(e->addr, addr, 16);
        e->next = *slot;
        *slot = e;
    }
    return e;
}

static void drop_count(cbd_conns *t, cbd_ip_count *e) {
    if (--e->n > 0) {
        return;
    }
    cbd_ip_count **slot = &t->buckets[bucket_of(e->addr)];
    while (*slot != e) {
        slot = &(*slot)->next;
    }
    *slot = e->next;
    free(e);
}

bool cbd_conns_may_accept(cbd_conns *t, const struct sockaddr *addr) {
    uint8_t a[16];
    if (t->per_ip_limit == 0 || !cbdp_net_addr_from_sockaddr(addr, a) ||
        cbdp_net_ranges_contain(t->trusted, t->n_trusted, a)) {
        return true;
    }
    pthread_mutex_lock(&t->lock);
    cbd_ip_count *e = find_count(t, a, false);
    bool ok = !e || (uint64_t)e->n < 2u * (uint64_t)t->per_ip_limit;
    pthread_mutex_unlock(&t->lock);
    return ok;
}

cbd_conn *cbd_conns_open(cbd_conns *t, int fd, const struct sockaddr *addr, cbd_watch *watch,
                         uint64_t now_us) {
    cbd_conn *c = calloc(1, sizeof *c);
    if (!c) {
        return NULL;
    }
    c->fd = fd;
    c->watch = watch;
    atomic_init(&c->busy, false);
    atomic_init(&c->idle_since_us, now_us); /* a new connection's request may be on its way */
    uint8_t a[16];
    bool known = cbdp_net_addr_from_sockaddr(addr, a);
    if (known) {
        cbdp_net_addr_format(a, c->peer);
        c->trusted = cbdp_net_ranges_contain(t->trusted, t->n_trusted, a);
    } else {
        memcpy(c->peer, "-", 2);
    }
    pthread_mutex_lock(&t->lock);
    if (known && !c->trusted && t->per_ip_limit > 0) {
        c->count = find_count(t, a, true);
        if (c->count) {
            c->over_limit = ++c->count->n > t->per_ip_limit;
        }
    }
    c->next = t->head;
    if (t->head) {
        t->head->prev = c;
    }
    t->head = c;
    t->open++;
    pthread_mutex_unlock(&t->lock);
    return c;
}

void cbd_conns_close(cbd_conns *t, cbd_conn *c) {
    if (!c) {
        return;
    }
    /* Off the list under the lock: the drain can never shut down the descriptor after MHD
     * closes it and the number is reused. */
    pthread_mutex_lock(&t->lock);
    if (c->prev) {
        c->prev->next = c->next;
    } else {
        t->head = c->next;
    }
    if (c->next) {
        c->next->prev = c->prev;
    }
    if (c->count) {
        drop_count(t, c->count);
    }
    t->open--;
    pthread_mutex_unlock(&t->lock);
    free(c);
}

void cbd_conn_request_begins(cbd_conn *c) {
    if (c) {
        atomic_store(&c->busy, true);
    }
}

void cbd_conn_request_ends(cbd_conn *c, uint64_t now_us) {
    if (c) {
        atomic_store(&c->idle_since_us, now_us);
        atomic_store(&c->busy, false);
    }
}

/* What the drain sees in a connection that holds no request between request line and
 * completion. */
typedef enum {
    CONN_NOT_YET, /* quiet for less than idle_us, or bytes of a next request may be coming */
    CONN_QUIET,   /* idle for idle_us: to be shut */
    CONN_PARTIAL, /* a request line still arriving: a request, not idleness */
} conn_look;

/*
 * Idle for idle_us with nothing of a next request anywhere we can see. The request line is
 * what marks a connection busy, and MHD reads the bytes a moment before it parses that line:
 * in that moment the kernel's buffer is empty and busy still false, but TCP_INFO says bytes
 * came in just now, so the connection is left alone. A request line that arrives in pieces
 * further apart than idle_us (a slow link, or a slow client, whom the request deadline cuts)
 * is told by the watchdog's count of the bytes received (watchdog.h).
 */
static conn_look look_at(const cbd_conn *c, uint64_t now_us, uint64_t idle_us) {
    uint64_t since = atomic_load(&c->idle_since_us);
    if (since > now_us || now_us - since < idle_us) {
        return CONN_NOT_YET;
    }
    int waiting = 0;
    if (ioctl(c->fd, FIONREAD, &waiting) != 0 || waiting != 0) {
        return CONN_NOT_YET;
    }
    struct tcp_info info;
    socklen_t len = sizeof info;
    if (getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_last_data_recv) + sizeof info.tcpi_last_data_recv ||
        (uint64_t)info.tcpi_last_data_recv * 1000u < idle_us) {
        return CONN_NOT_YET;
    }
    return cbd_watch_holds_partial_request(c->watch, NULL) ? CONN_PARTIAL : CONN_QUIET;
}

void cbd_conns_drain_step(cbd_conns *t, uint64_t now_us, uint64_t idle_us, cbd_conns_state *state) {
    size_t busy = 0;
    pthread_mutex_lock(&t->lock);
    for (cbd_conn *c = t->head; c; c = c->next) {
        if (atomic_load(&c->busy)) {
            busy++;
            continue;
        }
        conn_look seen = c->shut ? CONN_NOT_YET : look_at(c, now_us, idle_us);
        if (seen == CONN_PARTIAL) {
            busy++; /* answered when it is in, or cut by the request deadline */
        } else if (seen == CONN_QUIET) {
            /* SHUT_RD, not close(): the descriptor stays MHD's, whose event loop sees the end
             * of input and closes the connection in its own thread. Should a whole request
             * still arrive in the instant after the checks, Linux hands MHD the bytes already
             * queued before the end of input, and the write side is still open to answer
             * it (with Connection: close). */
            (void)shutdown(c->fd, SHUT_RD);
            c->shut = true;
            t->shut_total++;
        }
    }
    state->open = t->open;
    state->busy = busy;
    state->shut_total = t->shut_total;
    pthread_mutex_unlock(&t->lock);
}
