#ifndef COMBATD_HTTP_DRAIN_H
#define COMBATD_HTTP_DRAIN_H

/* The drain on SIGTERM (drain.c): a lame duck, then no new connections, then an exit. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cbd_server cbd_server;

/*
 * The lame duck: /readyz answers 503 and every answer carries Connection: close,
 * while new connections are still accepted and served. cbd_server_drain calls it too.
 */
void cbd_server_begin_drain(cbd_server *server);

/*
 * Drains: as cbd_server_begin_drain, then no new connections (the listening socket is closed),
 * idle keep-alive connections are closed between requests, and the call returns once no
 * connection is open, or after drain_deadline seconds. Returns true when no connection held an
 * unanswered request at the end (drain.c says how idle ones are told apart).
 */
bool cbd_server_drain(cbd_server *server);

typedef struct {
    size_t idle_closed; /* idle keep-alive connections the drain closed */
    size_t unanswered;  /* connections holding a request when the drain ended (0: drained) */
    size_t open_left;   /* connections still open when it ended */
    uint64_t took_ms;
} cbd_drain_stats;

/* What the last cbd_server_drain did. */
void cbd_server_drain_stats(const cbd_server *server, cbd_drain_stats *out);

#endif
