#ifndef COMBATD_HTTP_RESPONSE_H
#define COMBATD_HTTP_RESPONSE_H

/* Queuing answers: the headers every answer carries (request id, no-store, CORS) and the
 * few that some add (Allow, Connection: close, the preflight's, the page's CSP). */
#include <stdbool.h>
#include <stddef.h>

#include "server_internal.h"

typedef struct {
    const char *allow;         /* for 405 */
    bool close;                /* ask MHD to close the connection after the response */
    bool preflight;            /* add the CORS preflight headers */
    const char *allow_headers; /* the preflight's Access-Control-Allow-Headers; NULL: the
                                  default, Content-Type and X-Request-Id */
    const char *csp;           /* Content-Security-Policy, for the page */
    const char
        *retry_after; /* Retry-After in seconds, for a 503 (busy, or over the per-IP limit) */
} cbd_extra_headers;

/*
 * Queues a response. `body` is taken over (freed by MHD) when `must_free`, else it must be
 * static. Returns MHD_NO only when MHD could not queue, which closes the connection.
 */
enum MHD_Result cbd_http_send(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req,
                              unsigned status, const char *content_type, void *body, size_t len,
                              bool must_free, const cbd_extra_headers *extra);

/* Queues an api reply, taking over its body. */
enum MHD_Result cbd_http_send_reply(cbd_server *s, struct MHD_Connection *con,
                                    cbd_http_request *req, cbd_api_reply *reply,
                                    const cbd_extra_headers *extra);

/* Queues a problem+json answer with a printf-style detail. */
enum MHD_Result cbd_http_send_problem(cbd_server *s, struct MHD_Connection *con,
                                      cbd_http_request *req, int status,
                                      const cbd_extra_headers *extra, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
