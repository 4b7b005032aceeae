#ifndef COMBATD_HTTP_WORKER_H
#define COMBATD_HTTP_WORKER_H

#include "server_internal.h"

/* The Retry-After of every 503 (a full pool, a client over the per-IP connection limit): a long
 * request takes well under a second, so a place is free again by then. */
#define CBD_RETRY_AFTER_SECONDS "1"

/*
 * A fixed set of worker threads and a bounded queue, with at most `share` places (running +
 * waiting) per client address (0: max(1, workers / 4)). NULL when the threads cannot start.
 */
cbd_pool *cbd_pool_start(unsigned workers, unsigned queue, unsigned share);

/* Answers every admitted request (computing what runs, refusing what waits with a 503), then
 * joins the threads (before MHD_stop_daemon). From then on every request is refused with a
 * 503; the pool stays until cbd_pool_free, so that requests still arriving find it. */
void cbd_pool_stop(cbd_pool *p);

/* Stops the pool if it runs, and frees it (after MHD_stop_daemon). */
void cbd_pool_free(cbd_pool *p);

/*
 * Takes over `api_req`: it waits for a worker while the connection is suspended (the next
 * access-handler call sends req->job_reply), or is released with a 503 + Retry-After when
 * the client's share or the pool is full.
 */
enum MHD_Result cbd_http_run_on_worker(cbd_server *s, struct MHD_Connection *con,
                                       cbd_http_request *req, cbd_api_request *api_req);

#endif
