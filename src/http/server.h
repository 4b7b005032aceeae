#ifndef COMBATD_HTTP_SERVER_H
#define COMBATD_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

/* The HTTP service: an opaque handle with a start/stop pair. */
typedef struct cbd_server cbd_server;

/*
 * Starts listening with the given configuration (copied). On failure returns NULL and writes
 * the reason into err.
 */
cbd_server *cbd_server_start(const cbd_config *cfg, char *err, size_t err_size);

/* The port actually bound (useful with port 0). */
uint16_t cbd_server_port(const cbd_server *server);

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

/* How many connections the request-deadline watchdog has cut (a slow client trickling its
 * request past server.request_deadline). */
uint64_t cbd_server_deadline_cuts(const cbd_server *server);

/* Long requests computing or waiting on the worker pool now (for tests and benches). */
unsigned cbd_server_worker_jobs(const cbd_server *server);

/* Stops the daemon (closing what is left) and frees the handle. NULL is a no-op. */
void cbd_server_stop(cbd_server *server);

#endif
