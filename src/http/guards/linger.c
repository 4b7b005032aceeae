#include "linger.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fd;
    size_t bytes;      /* read and dropped so far */
    uint64_t until_us; /* closed at this time whatever comes */
} lingering;

struct cbd_linger {
    size_t max_bytes;
    uint64_t max_us;
    unsigned max_sockets;
    pthread_mutex_t lock;
    lingering *socks; /* max_sockets entries, `n` in use, under lock */
    unsigned n;
    bool stop; /* under lock */
    int wake;  /* an eventfd: a socket was added, or stop */
    pthread_t thread;
    atomic_ullong lingered, client_eof, capped; /* what max_sockets is counted from */
};

/* How often a lingering socket is looked at even when nothing arrives. */
#define LINGER_POLL_MS 50

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Reads and drops what has arrived; true when the socket is done with (closed here). */
static bool drain_one(cbd_linger *l, lingering *s, uint64_t now) {
    static char sink[16384]; /* only this thread reads into it, and nobody reads it */
    for (;;) {
        ssize_t n = recv(s->fd, sink, sizeof sink, MSG_DONTWAIT);
        if (n > 0) {
            s->bytes += (size_t)n;
            if (s->bytes > l->max_bytes) {
                break;
            }
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (now < s->until_us) {
                return false; /* still sending: come back when more arrives */
            }
            break;
        }
        /* 0: the client closed its side after reading the answer, or an error: either way
         * nothing more can be lost by closing. */
        atomic_fetch_add(&l->client_eof, 1);
        close(s->fd);
        return true;
    }
    atomic_fetch_add(&l->capped, 1);
    close(s->fd);
    return true;
}

static void *linger_main(void *arg) {
    cbd_linger *l = arg;
    struct pollfd *fds = calloc(l->max_sockets + 1, sizeof *fds);
    lingering *mine = calloc(l->max_sockets, sizeof *mine);
    unsigned n = 0;
    bool stop = fds == NULL || mine == NULL;
    while (!stop || n > 0) {
        /* Take over what was added: the list under the lock is only a hand-over. */
        pthread_mutex_lock(&l->lock);
        stop = stop || l->stop;
        for (unsigned i = 0; i < l->n; i++) {
            mine[n++] = l->socks[i];
        }
        l->n = 0;
        pthread_mutex_unlock(&l->lock);
        if (stop) {
            for (unsigned i = 0; i < n; i++) {
                close(mine[i].fd);
            }
            break;
        }
        fds[0] = (struct pollfd){.fd = l->wake, .events = POLLIN};
        for (unsigned i = 0; i < n; i++) {
            fds[i + 1] = (struct pollfd){.fd = mine[i].fd, .events = POLLIN};
        }
        (void)poll(fds, n + 1, LINGER_POLL_MS);
        if (fds[0].revents & POLLIN) {
            uint64_t v;
            (void)!read(l->wake, &v, sizeof v);
        }
        uint64_t now = now_us();
        for (unsigned i = 0; i < n;) {
            if (drain_one(l, &mine[i], now)) {
                mine[i] = mine[--n];
            } else {
                i++;
            }
        }
    }
    free(fds);
    free(mine);
    return NULL;
}

cbd_linger *cbd_linger_start(size_t max_bytes, uint64_t max_us, unsigned max_sockets) {
    cbd_linger *l = calloc(1, sizeof *l);
    if (!l) {
        return NULL;
    }
    l->max_bytes = max_bytes;
    l->max_us = max_us;
    l->max_sockets = max_sockets > 0 ? max_sockets : 1;
    l->socks = calloc(l->max_sockets, sizeof *l->socks);
    l->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    bool ok = l->socks && l->wake >= 0 && pthread_mutex_init(&l->lock, NULL) == 0;
    if (ok && pthread_create(&l->thread, NULL, linger_main, l) != 0) {
        pthread_mutex_destroy(&l->lock);
        ok = false;
    }
    if (!ok) {
        if (l->wake >= 0) {
            close(l->wake);
        }
        free(l->socks);
        free(l);
        return NULL;
    }
    return l;
}

void cbd_linger_add(cbd_linger *l, int fd) {
    /* The answer is in the send queue: a FIN after it tells the client it is complete. */
    (void)shutdown(fd, SHUT_WR);
    pthread_mutex_lock(&l->lock);
    /* Every socket taken over and not yet closed counts against max_sockets. */
    bool room = !l->stop &&
                atomic_load(&l->lingered) - atomic_load(&l->client_eof) - atomic_load(&l->capped) <
                    l->max_sockets;
    if (room) {
        l->socks[l->n++] = (lingering){.fd = fd, .bytes = 0, .until_us = now_us() + l->max_us};
        atomic_fetch_add(&l->lingered, 1);
    }
    pthread_mutex_unlock(&l->lock);
    if (!room) {
        close(fd);
        return;
    }
    uint64_t one = 1;
    (void)!write(l->wake, &one, sizeof one);
}

void cbd_linger_stop(cbd_linger *l) {
    if (!l) {
        return;
    }
    pthread_mutex_lock(&l->lock);
    l->stop = true;
    pthread_mutex_unlock(&l->lock);
    uint64_t one = 1;
    (void)!write(l->wake, &one, sizeof one);
    pthread_join(l->thread, NULL);
    pthread_mutex_destroy(&l->lock);
    close(l->wake);
    free(l->socks);
    free(l);
}
