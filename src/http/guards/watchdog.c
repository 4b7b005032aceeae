#include "watchdog.h"

#include <pthread.h>
#include <stdatomic.h>
#include <linux/sockios.h>
#include <linux/tcp.h> /* struct tcp_info with tcpi_bytes_received (glibc's lacks it) */
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

typedef enum {
    PHASE_IDLE = 0,      /* waiting for a request's first byte: the inactivity timeout's */
    PHASE_RECEIVING = 1, /* reading a request: the request deadline runs */
    PHASE_ANSWERING = 2, /* computing or queued: not the client's fault */
    PHASE_SENDING = 3,   /* the answer is queued: the send deadline runs */
} watch_phase;

struct cbd_watch {
    struct cbd_watch *prev, *next; /* the watchdog's list, under its lock */
    struct cbd_watchdog *owner;    /* whose lock guards the fields the watchdog thread keeps */
    int fd;
    /* The current phase and when it began, in one word (since_us << 2 | phase), so that a
     * change is one atomic step and a compare-and-swap from a phase that has since ended and
     * come round again fails: every new phase starts later than the one before (enter()). */
    _Atomic uint64_t state;
    atomic_int cut;     /* a cbd_cut: the watchdog cut it */
    atomic_bool linger; /* close it gently (cbd_watch_set_linger) */
    /* The watchdog thread's own: the client's share of the phase so far, and its last look. */
    uint64_t waited_us;
    uint64_t looked_us;
    int looked_phase;
    /* The idle phase that began at idle_since had received idle_bytes when first looked at
     * (0 for a new connection, which has received nothing yet). */
    uint64_t idle_since;
    uint64_t idle_bytes;
};

struct cbd_watchdog {
    uint64_t deadline_us;
    uint64_t send_deadline_us;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    cbd_watch *watches; /* under lock */
    bool stop;          /* under lock */
    pthread_t thread;
    atomic_ullong cuts;
};

/* How often the watchdog looks: a cut lands at most this late after the deadline. */
#define WATCHDOG_TICK_US 200000u

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* A watch's state word: the phase in the low 2 bits, its start (µs) above them. */
static uint64_t make_state(uint64_t since_us, watch_phase phase) {
    return since_us << 2 | (uint64_t)phase;
}

static int state_phase(uint64_t state) {
    return (int)(state & 3u);
}

static uint64_t state_since(uint64_t state) {
    return state >> 2;
}

/*
 * TCP_INFO tells when the socket last received data only to the kernel's tick (4 ms at
 * HZ=250, 10 ms at HZ=100), so an arrival time read back can land a tick after the truth: a
 * connection accepted, or a request finished, a moment after its last byte then seems to
 * receive a new one. Arrival times within this margin of a phase's start prove nothing.
 */
#define ARRIVAL_GRAIN_US 25000u

typedef struct {
    uint64_t last_data_us; /* when data last arrived (to the tick), or 0 */
    uint64_t bytes;        /* every byte the socket has received */
    bool has_bytes;        /* the kernel reported the count */
} arrivals;

static bool read_arrivals(int fd, uint64_t now, arrivals *a) {
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_last_data_recv) + sizeof ti.tcpi_last_data_recv) {
        return false;
    }
    uint64_t ago = (uint64_t)ti.tcpi_last_data_recv * 1000u;
    a->last_data_us = ago < now ? now - ago : 0;
    a->has_bytes = len >= offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(uint64_t);
    a->bytes = a->has_bytes ? ti.tcpi_bytes_received : 0;
    return true;
}

/* Whether the socket's input is at its end with nothing before it (a peek that reads 0). */
static bool at_eof(int fd) {
    char byte;
    return recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/*
 * Whether a request's first byte has arrived in the idle phase that began at `since`, and
 * when (*at). Bytes are counted: the phase's count at its first look (exactly 0 on a new
 * connection), and any byte past it is a new request's. A byte that came between the phase's
 * start and that first look is seen by its arrival time, when that is clearly later than the
 * start; otherwise the request's clock starts at its request line or its next byte.
 */
static bool first_byte_arrived(cbd_watch *e, uint64_t since, uint64_t now, uint64_t *at) {
    arrivals a;
    if (!read_arrivals(e->fd, now, &a)) {
        return false;
    }
    bool arrived;
    if (e->idle_since != since) { /* the first look at this idle phase */
        e->idle_since = since;
        e->idle_bytes = a.bytes;
        arrived = a.last_data_us > since + ARRIVAL_GRAIN_US;
    } else if (a.has_bytes) {
        /* The kernel counts a FIN as a byte (it takes a sequence number): one byte more and
         * the end of input is a client that closed, not a request. */
        arrived = a.bytes > e->idle_bytes + 1 || (a.bytes == e->idle_bytes + 1 && !at_eof(e->fd));
    } else {
        arrived = a.last_data_us > since + ARRIVAL_GRAIN_US;
    }
    uint64_t t = a.last_data_us < since ? since : a.last_data_us;
    *at = t < now ? t : now;
    return arrived;
}

/* Whether the client is the one being waited for in `phase`: in RECEIVING, every byte it
 * sent has been read; in SENDING, bytes it has not taken sit in the send queue. */
static bool client_is_waited_for(int fd, int phase) {
    int n = 0;
    if (phase == PHASE_RECEIVING) {
        return ioctl(fd, FIONREAD, &n) != 0 || n == 0;
    }
    return ioctl(fd, SIOCOUTQ, &n) == 0 && n > 0;
}

/*
 * An idle connection whose next request's first byte has come enters RECEIVING (under the
 * lock): that request's clock starts at its first byte, before its request line is complete.
 * Sets *phase and *since to the phase and its start as they are after the look.
 */
static void notice_first_byte(cbd_watch *e, uint64_t now, int *phase, uint64_t *since) {
    uint64_t old = atomic_load(&e->state);
    *phase = state_phase(old);
    *since = state_since(old);
    uint64_t at;
    /* The swap fails when the HTTP thread has moved on meanwhile, even if it is idle again
     * (a request that came and went while the socket was read): that idle phase is a later
     * one, and what was read belongs to the one that ended. */
    if (*phase == PHASE_IDLE && first_byte_arrived(e, *since, now, &at)) {
        if (atomic_compare_exchange_strong(&e->state, &old, make_state(at, PHASE_RECEIVING))) {
            *phase = PHASE_RECEIVING;
            *since = at;
        } else {
            *phase = state_phase(old);
            *since = state_since(old);
        }
    }
}

/* One look at one connection (under the lock); true when it is to be cut. */
static cbd_cut look(const cbd_watchdog *w, cbd_watch *e, uint64_t now) {
    int phase;
    uint64_t since;
    notice_first_byte(e, now, &phase, &since);
    if (phase != e->looked_phase || since > e->looked_us) {
        /* A new phase since the last look: its clock starts at its own beginning. */
        e->waited_us = 0;
        e->looked_us = since < now ? since : now;
        e->looked_phase = phase;
    }
    uint64_t step = now - e->looked_us;
    e->looked_us = now;
    if (phase != PHASE_RECEIVING && phase != PHASE_SENDING) {
        return CBD_CUT_NONE;
    }
    if (client_is_waited_for(e->fd, phase)) {
        e->waited_us += step;
    }
    uint64_t limit = phase == PHASE_RECEIVING ? w->deadline_us : w->send_deadline_us;
    if (e->waited_us <= limit || atomic_load(&e->cut) != CBD_CUT_NONE) {
        return CBD_CUT_NONE;
    }
    return phase == PHASE_RECEIVING ? CBD_CUT_REQUEST : CBD_CUT_SEND;
}

static void *watchdog_main(void *arg) {
    cbd_watchdog *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        uint64_t now = now_us();
        for (cbd_watch *e = w->watches; e; e = e->next) {
            cbd_cut cut = look(w, e, now);
            if (cut != CBD_CUT_NONE) {
                /* Counted before the hang-up: whoever sees the connection end (a client, a
                 * test reading cbd_server_deadline_cuts) must also see the cut counted. */
                atomic_store(&e->cut, (int)cut);
                atomic_fetch_add(&w->cuts, 1);
                /* shutdown(), not close(): the descriptor stays MHD's, and its event loop
                 * sees the hang-up at once and closes the connection in its own thread. */
                (void)shutdown(e->fd, SHUT_RDWR);
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += (long)WATCHDOG_TICK_US * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        int rc;
        do {
            rc = pthread_cond_timedwait(&w->wake, &w->lock, &until);
        } while (rc == 0 && !w->stop);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

cbd_watchdog *cbd_watchdog_start(uint64_t deadline_us, uint64_t send_deadline_us) {
    cbd_watchdog *w = calloc(1, sizeof *w);
    if (!w) {
        return NULL;
    }
    w->deadline_us = deadline_us;
    w->send_deadline_us = send_deadline_us;
    atomic_init(&w->cuts, 0);
    pthread_condattr_t attr;
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        free(w);
        return NULL;
    }
    bool ok = pthread_condattr_init(&attr) == 0;
    if (ok) {
        (void)pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        ok = pthread_cond_init(&w->wake, &attr) == 0;
        pthread_condattr_destroy(&attr);
        if (ok && pthread_create(&w->thread, NULL, watchdog_main, w) != 0) {
            pthread_cond_destroy(&w->wake);
            ok = false;
        }
    }
    if (!ok) {
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    return w;
}

void cbd_watchdog_stop(cbd_watchdog *w) {
    if (!w) {
        return;
    }
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

cbd_watch *cbd_watch_add(cbd_watchdog *w, int fd) {
    cbd_watch *e = calloc(1, sizeof *e);
    if (!e) {
        return NULL;
    }
    e->fd = fd;
    e->owner = w;
    uint64_t t = now_us();
    atomic_init(&e->state, make_state(t, PHASE_IDLE));
    e->idle_since = t; /* a new connection's first idle phase: nothing received yet */
    e->idle_bytes = 0;
    atomic_init(&e->cut, CBD_CUT_NONE);
    atomic_init(&e->linger, false);
    e->looked_phase = -1;
    pthread_mutex_lock(&w->lock);
    e->next = w->watches;
    if (w->watches) {
        w->watches->prev = e;
    }
    w->watches = e;
    pthread_mutex_unlock(&w->lock);
    return e;
}

void cbd_watch_remove(cbd_watchdog *w, cbd_watch *e) {
    if (!e) {
        return;
    }
    /* Once the entry is off the list (under the lock) the watchdog can never shut down the
     * descriptor, even after it is closed and reused. */
    pthread_mutex_lock(&w->lock);
    if (e->prev) {
        e->prev->next = e->next;
    } else {
        w->watches = e->next;
    }
    if (e->next) {
        e->next->prev = e->prev;
    }
    pthread_mutex_unlock(&w->lock);
    free(e);
}

/* Enters `phase`, restarting its clock: at now, and always later than the phase it ends. */
static void enter(cbd_watch *e, watch_phase phase) {
    if (!e) {
        return;
    }
    uint64_t old = atomic_load(&e->state);
    uint64_t t;
    do {
        t = now_us();
        t = t > state_since(old) ? t : state_since(old) + 1;
    } while (!atomic_compare_exchange_weak(&e->state, &old, make_state(t, phase)));
}

void cbd_watch_receiving(cbd_watch *e) {
    if (!e) {
        return;
    }
    /* The watchdog may have seen the first byte already: its start stands. */
    uint64_t old = atomic_load(&e->state);
    while (state_phase(old) == PHASE_IDLE) {
        uint64_t t = now_us();
        t = t > state_since(old) ? t : state_since(old) + 1;
        if (atomic_compare_exchange_weak(&e->state, &old, make_state(t, PHASE_RECEIVING))) {
            return;
        }
    }
}

void cbd_watch_answering(cbd_watch *e) {
    enter(e, PHASE_ANSWERING);
}

void cbd_watch_sending(cbd_watch *e) {
    enter(e, PHASE_SENDING);
}

cbd_cut cbd_watch_cut(const cbd_watch *e) {
    return e ? (cbd_cut)atomic_load(&((cbd_watch *)e)->cut) : CBD_CUT_NONE;
}

void cbd_watch_set_linger(cbd_watch *e) {
    if (e) {
        atomic_store(&e->linger, true);
    }
}

bool cbd_watch_lingers(const cbd_watch *e) {
    return e && atomic_load(&((cbd_watch *)e)->linger);
}

bool cbd_watch_holds_partial_request(cbd_watch *e, uint64_t *since_us) {
    if (!e) {
        return false;
    }
    pthread_mutex_lock(&e->owner->lock);
    int phase;
    uint64_t since;
    notice_first_byte(e, now_us(), &phase, &since);
    pthread_mutex_unlock(&e->owner->lock);
    if (since_us) {
        *since_us = since;
    }
    return phase == PHASE_RECEIVING;
}

cbd_cut cbd_watch_request_done(cbd_watch *e) {
    if (!e) {
        return CBD_CUT_NONE;
    }
    cbd_cut cut = (cbd_cut)atomic_load(&e->cut);
    enter(e, PHASE_IDLE);
    return cut;
}

uint64_t cbd_watchdog_cuts(const cbd_watchdog *w) {
    return atomic_load(&((cbd_watchdog *)w)->cuts);
}
