#ifndef COMBATD_HTTP_REQUEST_CHECKS_H
#define COMBATD_HTTP_REQUEST_CHECKS_H

/* What a request's headers must satisfy before its body is read, and its id. */
#include <stdbool.h>

#include "server_internal.h"

/* Sets req->request_id: the client's X-Request-Id when it is a safe token, else a new one. */
void cbd_http_set_request_id(struct MHD_Connection *con, cbd_http_request *req);

/*
 * RFC 9112 §6.3: two Content-Length headers, or Transfer-Encoding with Content-Length, make the
 * message's framing ambiguous (request smuggling); §6.1: a request whose transfer coding is
 * not (only) chunked cannot be framed at all. libmicrohttpd 0.9.75 accepts all of these.
 * We decode no other coding, so one Transfer-Encoding header saying "chunked" is the only
 * one accepted.
 */
bool cbd_http_ambiguous_framing(struct MHD_Connection *con);

/* application/json, optionally followed by parameters. */
bool cbd_http_is_json_content_type(const char *ct);

#endif
