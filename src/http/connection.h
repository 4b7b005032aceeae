#ifndef COMBATD_HTTP_CONNECTION_H
#define COMBATD_HTTP_CONNECTION_H

/* libmicrohttpd's callbacks for a connection (connection.c); `cls` is the cbd_server. */
#include <microhttpd.h>

#include "server_internal.h"

/* A connection opens (its entries are made) or closes (they go, and it may linger). */
void cbdp_http_on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
                             enum MHD_ConnectionNotificationCode code);

/* Past twice the per-IP limit a connection is closed at accept (conns.h). */
enum MHD_Result cbdp_http_on_accept(void *cls, const struct sockaddr *addr, socklen_t len);

#endif
