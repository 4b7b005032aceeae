#ifndef COMBATD_HTTP_SERVER_H
#define COMBATD_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api_config.h"
#include "server_config.h"
#include "drain.h" /* the drain on SIGTERM, part of the service's face */

/* The HTTP service: an opaque handle with a start/stop pair (server.c; its drain is drain.h's). */
typedef struct cbd_server cbd_server;

/*
 * Starts listening with the daemon's configuration and the endpoints' (both copied; the loader,
 * src/config/, fills them together). On failure returns NULL and writes
 * the reason into err.
 */
cbd_server *cbd_server_start(const cbd_server_config *server, const cbd_config *api, char *err,
                             size_t err_size);

/* The port actually bound (useful with port 0). */
uint16_t cbd_server_port(const cbd_server *server);

/* How many connections the request-deadline watchdog has cut (a slow client trickling its
 * request past server.request_deadline). */
uint64_t cbd_server_deadline_cuts(const cbd_server *server);

/* Long requests computing or waiting on the worker pool now (for tests and benches). */
unsigned cbd_server_worker_jobs(const cbd_server *server);

/* The progress checks the worker pool's jobs have made since the server started (each looks at
 * the deadline, the job's client and the server stopping): for tests, which count the checks a
 * job makes after its client leaves rather than time it. */
uint64_t cbd_server_job_checks(const cbd_server *server);

/* Stops the daemon (closing what is left) and frees the handle. NULL is a no-op. */
void cbd_server_stop(cbd_server *server);

#endif
