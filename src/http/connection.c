/*
 * A connection's life (connection.h): its entries in the table of open connections (conns.h)
 * and the watchdog (watchdog.h) when it opens, its gentle close (linger.h) and its access-log
 * line, if its request never came whole, when it closes.
 */
#include "connection.h"

#include <fcntl.h>

#include "http/guards/linger.h"
#include "http/ops/request_log.h"

void cbdp_http_on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
                             enum MHD_ConnectionNotificationCode code) {
    cbd_server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd =
            MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *peer =
            MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        cbd_watch *watch = fd ? cbd_watch_add(s->watchdog, fd->connect_fd) : NULL;
        cbd_conn *c = fd ? cbd_conns_open(s->conns, fd->connect_fd, peer ? peer->client_addr : NULL,
                                          watch, cbd_now_us())
                         : NULL;
        if (!c) {
            cbd_watch_remove(s->watchdog, watch);
        } else if (c->over_limit) {
            /* It gets one answer; one that sends nothing goes after a second, not 10. */
            (void)MHD_set_connection_option(con, MHD_CONNECTION_OPTION_TIMEOUT, 1u);
        }
        *socket_context = c;
        return;
    }
    /* MHD_CONNECTION_NOTIFY_CLOSED comes before MHD closes the socket: an early answer's
     * socket lives on in a descriptor of the lingerer's own (linger.h). */
    cbd_conn *c = *socket_context;
    if (c) {
        cbd_http_log_unfinished(s, con, c);
        if (cbd_watch_lingers(c->watch) && cbd_watch_cut(c->watch) == CBD_CUT_NONE) {
            const union MHD_ConnectionInfo *info =
                MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
            int fd = info ? fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;
            if (fd >= 0) {
                cbd_linger_add(s->linger, fd);
            }
        }
        cbd_watch_remove(s->watchdog, c->watch);
        cbd_conns_close(s->conns, c);
    }
    *socket_context = NULL;
}

/* Past twice the per-IP limit a connection is closed at accept (conns.h). */
enum MHD_Result cbdp_http_on_accept(void *cls, const struct sockaddr *addr, socklen_t len) {
    (void)len;
    cbd_server *s = cls;
    return cbd_conns_may_accept(s->conns, addr) ? MHD_YES : MHD_NO;
}
