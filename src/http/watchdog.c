#include "watchdog.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

typedef enum {
    PHASE_RECEIVING = 0, /* reading a request (or waiting for the next one on keep-alive) */
    PHASE_ANSWERING = 1, /* a response is queued or being computed: not the client's fault */
} watch_phase;

struct cbd_watch {
    struct cbd_watch *prev, *next; /* the watchdog's list, under its lock */
    int fd;
    _Atomic uint64_t since_us; /* when the current request began (connection open or the
                                  previous request's completion) */
    atomic_int phase;          /* a watch_phase */
    atomic_bool cut;           /* the watchdog cut it */
};

struct cbd_watchdog {
    uint64_t deadline_us;
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

static void *watchdog_main(void *arg) {
    cbd_watchdog *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        uint64_t now = now_us();
        for (cbd_watch *e = w->watches; e; e = e->next) {
            /* A request thread may have restarted the clock after `now` was read: since > now
             * then, and the unsigned difference must not wrap into a huge age. */
            uint64_t since = atomic_load(&e->since_us);
            if (atomic_load(&e->phase) == PHASE_RECEIVING && !atomic_load(&e->cut) && since < now &&
                now - since > w->deadline_us) {
                /* Counted before the hang-up: whoever sees the connection end (a client, a
                 * test reading cbd_server_deadline_cuts) must also see the cut counted. */
                atomic_store(&e->cut, true);
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

cbd_watchdog *cbd_watchdog_start(uint64_t deadline_us) {
    cbd_watchdog *w = calloc(1, sizeof *w);
    if (!w) {
        return NULL;
    }
    w->deadline_us = deadline_us;
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
    atomic_init(&e->since_us, now_us());
    atomic_init(&e->phase, PHASE_RECEIVING);
    atomic_init(&e->cut, false);
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

void cbd_watch_answering(cbd_watch *e) {
    if (e) {
        atomic_store(&e->phase, PHASE_ANSWERING);
    }
}

bool cbd_watch_request_done(cbd_watch *e) {
    if (!e) {
        return false;
    }
    bool cut = atomic_load(&e->cut);
    atomic_store(&e->since_us, now_us());
    atomic_store(&e->phase, PHASE_RECEIVING);
    return cut;
}

uint64_t cbd_watchdog_cuts(const cbd_watchdog *w) {
    return atomic_load(&((cbd_watchdog *)w)->cuts);
}
