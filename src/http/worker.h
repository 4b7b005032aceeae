#ifndef COMBATD_HTTP_WORKER_H
#define COMBATD_HTTP_WORKER_H

#include "server_internal.h"

/* At most this many requests run on worker threads at once; more get 503 + Retry-After. */
#define CBD_MAX_WORKER_JOBS 16u

/*
 * Takes over `api_req`: it is answered on a worker thread while the connection is suspended
 * (the next access-handler call sends req->job_reply), or released with a 503 when
 * CBD_MAX_WORKER_JOBS are already running.
 */
enum MHD_Result cbd_http_run_on_worker(cbd_server *s, struct MHD_Connection *con,
                                       cbd_http_request *req, cbd_api_request *api_req);

/* Waits until no worker thread touches the daemon any more (before MHD_stop_daemon). */
void cbd_http_wait_for_workers(cbd_server *s);

#endif
