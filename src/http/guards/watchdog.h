#ifndef COMBATD_HTTP_WATCHDOG_H
#define COMBATD_HTTP_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The request and send deadlines. libmicrohttpd's timeout counts inactivity only, so a client
 * that trickles its request line, headers or body (one byte every few seconds), or reads its
 * answer a byte at a time, is never cut by it. A thread of ours looks at every open
 * connection a few times a second and shuts down any whose client has made the server wait
 * longer than a deadline:
 *
 * - The request deadline starts at the request's first byte (seen in the socket's TCP_INFO
 *   byte count, or at the request line, whichever comes first), not at accept or the previous
 *   answer: the wait for a first byte is idleness, for the inactivity timeout. It counts only
 *   time in which the server has read everything the client sent: a tick in which bytes wait
 *   unread in the socket (FIONREAD) is the server's stall, not the client's.
 * - Once the request is in, computing or queueing its answer counts for nothing.
 * - The send deadline counts the time an answer waits on the client: ticks in which the
 *   socket's send queue holds bytes the client has not taken (SIOCOUTQ).
 */
typedef struct cbd_watchdog cbd_watchdog;

/* One watched connection. */
typedef struct cbd_watch cbd_watch;

/* Starts the watchdog thread; NULL when a lock or the thread cannot be created. */
cbd_watchdog *cbd_watchdog_start(uint64_t deadline_us, uint64_t send_deadline_us);

/* Why the watchdog cut a connection. */
typedef enum {
    CBD_CUT_NONE = 0,
    CBD_CUT_REQUEST = 1, /* the client took too long to send its request */
    CBD_CUT_SEND = 2,    /* the client took too long to read its answer */
} cbd_cut;

/* Stops the thread and frees the watchdog. Every watch must have been removed. */
void cbd_watchdog_stop(cbd_watchdog *w);

/* Starts watching a connection on socket fd, receiving its first request. NULL when out of
 * memory (the connection then has only the inactivity timeout). */
cbd_watch *cbd_watch_add(cbd_watchdog *w, int fd);

/* Stops watching; after it returns the watchdog never touches fd again, so it must be called
 * before the socket is closed (MHD's CLOSED notification comes before the close). */
void cbd_watch_remove(cbd_watchdog *w, cbd_watch *watch);

/* A request line has arrived: its clock runs, if its first byte had not already started it. */
void cbd_watch_receiving(cbd_watch *watch);

/* The request is in: computing (or queueing) the answer is ours, not a slow client's. */
void cbd_watch_answering(cbd_watch *watch);

/* The answer is queued: the send deadline runs. */
void cbd_watch_sending(cbd_watch *watch);

/* Whether the watchdog has cut this connection (CBD_CUT_NONE for NULL). */
cbd_cut cbd_watch_cut(const cbd_watch *watch);

/* The answer should linger: the client may still be sending when the connection closes
 * (an early answer), so its close reads and drops a little first (linger.h). */
void cbd_watch_set_linger(cbd_watch *watch);
bool cbd_watch_lingers(const cbd_watch *watch);

/*
 * Whether bytes of a request have come that no completed request accounts for: its first byte
 * is in (told as the watchdog tells it, above) and the request has not completed. Between a
 * request line and its completion the connection's table says so by itself (conns.h); this is
 * for the moment before: a request line still arriving, which the drain must not take for an
 * idle connection and whose close must still be logged. *since_us (when not NULL) is when its
 * first byte came. Takes the watchdog's lock; false for NULL.
 */
bool cbd_watch_holds_partial_request(cbd_watch *watch, uint64_t *since_us);

/* The request is done; the connection waits for the next one's first byte.
 * Returns why the watchdog cut this connection, if it did (for the access log). */
cbd_cut cbd_watch_request_done(cbd_watch *watch);

/* How many connections the watchdog has cut. */
uint64_t cbd_watchdog_cuts(const cbd_watchdog *w);

#endif
