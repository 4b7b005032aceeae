#ifndef COMBATD_HTTP_REQUEST_LOG_H
#define COMBATD_HTTP_REQUEST_LOG_H

/*
 * What each request leaves in the access log (access_log.h writes the line): every request
 * gets one line, whether it was answered or not. libmicrohttpd calls the completion callback
 * only for a request whose request line it parsed, so a connection that closes while its
 * request line is still arriving (a slow client cut by the request deadline, an inactivity
 * timeout, the client giving up, the server stopping) gets its line when it closes.
 */
#include <stdint.h>

#include <microhttpd.h>

#include "http/server_internal.h"

/* The line of a request at its completion: `cut` is why the watchdog cut it (if it did),
 * `toe` how libmicrohttpd ended it. */
void cbd_http_log_completed(const cbd_server *s, const cbd_http_request *req, uint64_t duration_us,
                            cbd_cut cut, enum MHD_RequestTerminationCode toe);

/* At a connection's close (MHD_CONNECTION_NOTIFY_CLOSED, before its socket closes): the line
 * of a request whose request line never came whole, when bytes of one had come. */
void cbd_http_log_unfinished(const cbd_server *s, struct MHD_Connection *con, cbd_conn *c);

#endif
