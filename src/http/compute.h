#ifndef COMBATD_HTTP_COMPUTE_H
#define COMBATD_HTTP_COMPUTE_H

/*
 * One computation of a request's answer (cbd_api_answer_within), on an HTTP thread or a worker:
 * its large blocks come from the server's warm memory (scratch_pool.h), and what it cost is
 * added to the request's account for the access log: work units, its memory's peak, and the
 * minor page faults of the thread that ran it (getrusage(RUSAGE_THREAD)), which count the pages
 * the computation touched for the first time.
 */
#include "server_internal.h"

/* As cbd_api_answer_within, with the server's scratch and the request's account. */
bool cbdp_http_compute(cbd_server *s, cbd_http_request *req, cbd_api_request *api_req,
                       cbd_api_limits *limits, cbd_api_reply *reply);

#endif
