#ifndef COMBATD_HTTP_REQUEST_CHECKS_H
#define COMBATD_HTTP_REQUEST_CHECKS_H

/* What a request's headers must satisfy before its body is read, and its id. */
#include <stdbool.h>

#include <microhttpd.h>

#include "http/response.h"

/* Sets answer->request_id: the client's X-Request-Id when it is a safe token, else a new one. */
void cbd_http_set_request_id(struct MHD_Connection *con, cbd_answer *answer);

/* application/json, optionally followed by parameters. */
bool cbd_http_is_json_content_type(const char *ct);

#endif
