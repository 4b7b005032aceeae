#ifndef COMBATD_HTTP_WATCHDOG_H
#define COMBATD_HTTP_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The request-deadline watchdog. libmicrohttpd's timeout counts inactivity only, so a client
 * that trickles its request line, headers or body (one byte every few seconds) is never cut
 * by it. A thread of ours looks at every open connection a few times a second and shuts down
 * any that has been receiving one request for longer than the deadline.
 */
typedef struct cbd_watchdog cbd_watchdog;

/* One watched connection. */
typedef struct cbd_watch cbd_watch;

/* Starts the watchdog thread; NULL when a lock or the thread cannot be created. */
cbd_watchdog *cbd_watchdog_start(uint64_t deadline_us);

/* Stops the thread and frees the watchdog. Every watch must have been removed. */
void cbd_watchdog_stop(cbd_watchdog *w);

/* Starts watching a connection on socket fd, receiving its first request. NULL when out of
 * memory (the connection then has only the inactivity timeout). */
cbd_watch *cbd_watch_add(cbd_watchdog *w, int fd);

/* Stops watching; after it returns the watchdog never touches fd again, so it must be called
 * before the socket is closed (MHD's CLOSED notification comes before the close). */
void cbd_watch_remove(cbd_watchdog *w, cbd_watch *watch);

/* The request is in: computing and sending the answer is ours, not a slow client's. */
void cbd_watch_answering(cbd_watch *watch);

/* The request is done; the next one on a keep-alive connection starts its clock now.
 * Returns true when the watchdog cut this connection (for the access log). */
bool cbd_watch_request_done(cbd_watch *watch);

/* How many connections the watchdog has cut. */
uint64_t cbd_watchdog_cuts(const cbd_watchdog *w);

#endif
