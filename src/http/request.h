#ifndef COMBATD_HTTP_REQUEST_H
#define COMBATD_HTTP_REQUEST_H

/* libmicrohttpd's callbacks for one request (request.c); `cls` is the cbd_server. */
#include <microhttpd.h>

#include "server_internal.h"

/* At the request line, before the headers: the earliest point to start the clock. Returns the
 * request's state (*con_cls), or NULL when it could not be allocated. */
void *cbdp_http_on_uri(void *cls, const char *uri, struct MHD_Connection *con);

/* The access handler: called with the headers, with each piece of the body, and once more when
 * the body is in (or when a worker resumed the connection). */
enum MHD_Result cbdp_http_on_request(void *cls, struct MHD_Connection *con, const char *url,
                                     const char *method, const char *version,
                                     const char *upload_data, size_t *upload_data_size,
                                     void **con_cls);

/* The request is done, answered or not: metrics, the access-log line, its state freed. */
void cbdp_http_on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
                            enum MHD_RequestTerminationCode toe);

#endif
