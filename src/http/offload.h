#ifndef COMBATD_HTTP_OFFLOAD_H
#define COMBATD_HTTP_OFFLOAD_H

/*
 * A long request answered on the worker pool (worker.h) rather than on its HTTP thread: the
 * request becomes a job counted against its client's address, its connection is suspended
 * while the job waits and runs, and the worker resumes it so that the next access-handler call
 * sends the reply. What the pool knows of MHD and of the api is here, not in the pool.
 */
#include "server_internal.h"

/*
 * Takes over `api_req`: it waits for a worker while the connection is suspended (the next
 * access-handler call sends req->job_reply), or is released with a 503 + Retry-After when
 * the client's share or the pool is full.
 */
enum MHD_Result cbdp_http_run_on_worker(cbd_server *s, struct MHD_Connection *con,
                                        cbd_http_request *req, cbd_api_request *api_req);

#endif
