/* One access-log line per request, answered or not (request_log.h). */
#include "request_log.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <sys/socket.h>

#include "access_log.h"

static const char *ended_by(cbd_cut cut, enum MHD_RequestTerminationCode toe) {
    return cut == CBD_CUT_REQUEST                          ? "deadline"
           : cut == CBD_CUT_SEND                           ? "send_deadline"
           : toe == MHD_REQUEST_TERMINATED_COMPLETED_OK    ? "ok"
           : toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED ? "timeout"
           : toe == MHD_REQUEST_TERMINATED_CLIENT_ABORT    ? "client_abort"
           : toe == MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN ? "shutdown"
           : toe == MHD_REQUEST_TERMINATED_READ_ERROR      ? "read_error"
                                                           : "error";
}

void cbd_http_log_completed(const cbd_server *s, const cbd_http_request *req, uint64_t duration_us,
                            cbd_cut cut, enum MHD_RequestTerminationCode toe) {
    if (!s->server.access_log) {
        return;
    }
    cbd_access_log_entry e = {
        .method = req->method[0] ? req->method : "-",
        .path = req->path[0] ? req->path : "-",
        .status = req->answer.status,
        .duration_us = duration_us,
        .bytes_in = req->body.seen,
        .bytes_out = req->answer.bytes_out,
        .request_id = req->answer.request_id[0] ? req->answer.request_id : "-",
        .client = req->client[0] ? req->client : "-",
        /* A job that stopped for its client's close ends the connection itself. */
        .ended = req->job_end == CBD_JOB_ABANDONED ? "client_abort" : ended_by(cut, toe),
        .computed = req->cost.computed,
        .work_units = req->cost.work,
        .mem_peak = req->cost.mem_peak,
        .faults = req->cost.faults,
    };
    cbdp_access_log_write(&e);
}

/* Whether the client has closed its side, or reset the connection: a peek that sees the end
 * of input or an error (the socket is still open, only its sending side shut by MHD). */
static bool peer_gone(int fd) {
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Whether nothing has arrived for the connection's inactivity timeout (less a tick of the
 * kernel's clock, to which TCP_INFO keeps the time of the last arrival). */
static bool inactive_for_timeout(struct MHD_Connection *con, int fd) {
    const union MHD_ConnectionInfo *t =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_TIMEOUT);
    struct tcp_info info;
    socklen_t len = sizeof info;
    if (!t || t->connection_timeout == 0 ||
        getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_last_data_recv) + sizeof info.tcpi_last_data_recv) {
        return false;
    }
    return (uint64_t)info.tcpi_last_data_recv + 50u >= (uint64_t)t->connection_timeout * 1000u;
}

/*
 * Why a connection closed with part of a request line in it: the request deadline, the server
 * stopping, the inactivity timeout, the client (gone), or else libmicrohttpd, which refuses a
 * request line it cannot parse or hold (it answers those itself, before any callback of ours).
 * The timeout is told before the client: by the time the close is noticed here, a client that
 * saw libmicrohttpd's end of the connection may have closed its own.
 */
static const char *unfinished_ended(const cbd_server *s, struct MHD_Connection *con,
                                    const cbd_conn *c) {
    if (cbd_watch_cut(c->watch) == CBD_CUT_REQUEST) {
        return "deadline";
    }
    if (atomic_load(&s->stopping)) {
        return "shutdown";
    }
    if (inactive_for_timeout(con, c->fd)) {
        return "timeout";
    }
    return peer_gone(c->fd) ? "client_abort" : "error";
}

void cbd_http_log_unfinished(const cbd_server *s, struct MHD_Connection *con, cbd_conn *c) {
    uint64_t since;
    if (!s->server.access_log || atomic_load(&c->busy) ||
        !cbd_watch_holds_partial_request(c->watch, &since)) {
        return;
    }
    uint64_t now = cbd_now_us();
    cbd_access_log_entry e = {
        .method = "-",
        .path = "-",
        .status = 0,
        .duration_us = now > since ? now - since : 0,
        .request_id = "-",
        .client = c->peer,
        .ended = unfinished_ended(s, con, c),
    };
    cbdp_access_log_write(&e);
}
