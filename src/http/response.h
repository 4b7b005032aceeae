#ifndef COMBATD_HTTP_RESPONSE_H
#define COMBATD_HTTP_RESPONSE_H

/* Queuing answers: the headers every answer carries (request id, no-store, CORS) and the
 * few that some add (Allow, Connection: close, the preflight's, the page's CSP). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "server_config.h"
#include "api/reply.h"

/* The Retry-After of every 503 (a full pool, a client over the per-IP connection limit): a long
 * request takes well under a second, so a place is free again by then. */
#define CBD_RETRY_AFTER_SECONDS "1"

/* What the headers of every answer depend on beyond the request, owned by the server: the
 * origins CORS allows and whether it drains (every answer then closes its connection). */
typedef struct {
    const cbd_server_config *server; /* cors_origins */
    const atomic_bool *draining;
} cbd_answer_policy;

/* One request's side of its answer: the id it carries, and what queuing it records for the
 * access log and the metrics. */
typedef struct {
    char request_id[65];
    unsigned status;
    uint64_t bytes_out;
    /* The status a wrapped call answered (cbd_api_reply.call_status; 0: `status`). */
    int call_status;
    /* An operators' route (health, metrics: CBD_KIND_OPS): no CORS headers, whatever the
     * configured origins, so that no web page can read it. */
    bool no_cors;
} cbd_answer;

typedef struct {
    const char *allow;         /* for 405 */
    bool close;                /* ask MHD to close the connection after the response */
    bool preflight;            /* add the CORS preflight headers */
    const char *allow_headers; /* the preflight's Access-Control-Allow-Headers; NULL: the
                                  default, Content-Type and X-Request-Id */
    const char *csp;           /* Content-Security-Policy, for the page */
    const char
        *retry_after; /* Retry-After in seconds, for a 503 (busy, or over the per-IP limit) */
    bool no_cors;     /* no CORS headers: the Origin itself was refused (its page reads nothing) */
} cbd_extra_headers;

/*
 * Queues a response. `body` is taken over (freed by MHD) when `must_free`, else it must be
 * static. Returns MHD_NO only when MHD could not queue, which closes the connection.
 */
enum MHD_Result cbd_http_send(const cbd_answer_policy *policy, struct MHD_Connection *con,
                              cbd_answer *answer, unsigned status, const char *content_type,
                              void *body, size_t len, bool must_free,
                              const cbd_extra_headers *extra);

/* Queues an api reply, taking over its body. */
enum MHD_Result cbdp_http_send_reply(const cbd_answer_policy *policy, struct MHD_Connection *con,
                                     cbd_answer *answer, cbd_api_reply *reply,
                                     const cbd_extra_headers *extra);

/* Queues a problem+json answer with a printf-style detail. */
enum MHD_Result cbd_http_send_problem(const cbd_answer_policy *policy, struct MHD_Connection *con,
                                      cbd_answer *answer, int status,
                                      const cbd_extra_headers *extra, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
