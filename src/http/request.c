/*
 * The request path (request.h): the access handler that libmicrohttpd calls for each request,
 * from its request line to its completion. Each request is routed once (router.h), refused
 * early where its head or its body is wrong, and answered by the api layer, on this thread or
 * on the worker pool (offload.h); answers are queued by response.c.
 */
#include "request.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "http/guards/framing.h"
#include "http/guards/head_room.h"
#include "compute.h"
#include "offload.h"
#include "http/guards/request_checks.h"
#include "http/ops/request_log.h"
#include "response.h"

/* An oversized body up to this much past the limit is read and dropped before the 413, as Go's
 * net/http reads up to 256 KiB of an unread body before closing. */
#define DISCARD_MAX (256u * 1024u)

/* Whether the client sends a body: an answer queued before it is read is an early one. */
static bool has_body(struct MHD_Connection *con) {
    const char *cl =
        MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    return (cl && strtoull(cl, NULL, 10) > 0) ||
           MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

/* An answer before the body: the connection closes after it, gently (linger.h). */
static enum MHD_Result early_problem(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req, int status, const char *detail) {
    cbd_extra_headers close = {.close = true};
    cbd_watch_set_linger(cbd_watch_of(con));
    return cbd_http_send_problem(&s->answers, con, &req->answer, status, &close, "%s", detail);
}

/* The body limit of a request's route (endpoints.h's `kind` column): a battle's, or a map's. */
static uint64_t body_limit_of(const cbd_server *s, const cbd_http_request *req) {
    return req->route->kind == CBD_KIND_MAP ? s->server.board_body_limit : s->server.body_limit;
}

/* The 413's detail: the limit and the key that sets it, so an operator knows what to raise. */
static const char *body_limit_key(const cbd_http_request *req) {
    return req->route->kind == CBD_KIND_MAP ? "server.board_body_limit" : "server.body_limit";
}

/*
 * A problem written straight to the socket, then the connection closed (the access handler's
 * MHD_NO), gently, so that the client can read it (linger.h caps what is read after it): for
 * the answers libmicrohttpd cannot queue, a 413 while the body is still coming, or a 431 for a
 * head that leaves its pool no room to build the answer's head (head_room.h).
 */
static enum MHD_Result send_raw_problem(struct MHD_Connection *con, cbd_http_request *req,
                                        unsigned status, const char *title, const char *detail) {
    char body[400], head[800];
    int nb = snprintf(body, sizeof body,
                      "{\"type\":\"about:blank\",\"title\":\"%s\",\"status\":%u,"
                      "\"detail\":\"%s\",\"errors\":[]}",
                      title, status, detail);
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %u %s\r\nConnection: close\r\n"
                     "Content-Type: application/problem+json\r\n"
                     "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
                     "X-Request-Id: %s\r\nContent-Length: %d\r\n\r\n%s",
                     status, title, req->answer.request_id, nb, body);
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info && nb > 0 && (size_t)nb < sizeof body && n > 0 && (size_t)n < sizeof head &&
        send(info->connect_fd, head, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) == n) {
        req->answer.status = status;
        req->answer.bytes_out = (uint64_t)nb;
        cbd_watch_set_linger(cbd_watch_of(con));
    }
    return MHD_NO;
}

/* A body past the limit by more than DISCARD_MAX (a chunked one, whose size was not known at
 * the start): MHD cannot queue an answer while the body is coming. */
static enum MHD_Result refuse_rest_of_body(cbd_server *s, struct MHD_Connection *con,
                                           cbd_http_request *req) {
    char detail[128];
    snprintf(detail, sizeof detail, "The body may be at most %" PRIu64 " bytes (%s).",
             body_limit_of(s, req), body_limit_key(req));
    return send_raw_problem(con, req, 413, "Content Too Large", detail);
}

/* A head too large for the connection's memory to hold it and build the answer (head_room.h):
 * its size against server.connection_memory_limit. */
static enum MHD_Result refuse_large_head(cbd_server *s, struct MHD_Connection *con,
                                         cbd_http_request *req, cbd_head_size h) {
    char detail[200];
    snprintf(detail, sizeof detail,
             "The request line and header fields take %zu bytes; at most %" PRIu64
             " (server.connection_memory_limit less %u).",
             h.bytes, s->server.connection_memory_limit - CBD_HEAD_RESERVE, CBD_HEAD_RESERVE);
    return send_raw_problem(con, req, 431, "Request Header Fields Too Large", detail);
}

/* The client address: the socket peer, or from a trusted proxy the one its
 * X-Forwarded-For names (net_ranges.h). */
static void set_client(const cbd_server *s, struct MHD_Connection *con, const cbd_conn *conn,
                       cbd_http_request *req) {
    if (conn && conn->trusted) {
        const char *xff = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "X-Forwarded-For");
        (void)cbd_net_forwarded_client(xff, s->server.trusted_proxies, s->server.n_trusted_proxies,
                                       req->client);
    }
}

/* A connection over the per-IP limit (conns.h): one answer, then the connection closes. */
static enum MHD_Result refuse(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req) {
    cbd_extra_headers e = {.close = true, .retry_after = CBD_RETRY_AFTER_SECONDS};
    return cbd_http_send_problem(&s->answers, con, &req->answer, 503, &e,
                                 "Too many connections from %s (at most %u); retry shortly.",
                                 req->client, s->server.per_ip_connection_limit);
}

/* The checks of a request's route before its body is read: the row's guard, 404, OPTIONS,
 * 405, and a GET resource (answered on the next call: a response queued before MHD has
 * finished reading the request makes it close the connection, which would defeat keep-alive).
 * MHD_YES with nothing queued when the request goes on to its body. */
static enum MHD_Result route_checks(cbd_server *s, struct MHD_Connection *con,
                                    cbd_http_request *req, const char *method, bool body) {
    if (req->route->guard) {
        char text[320];
        int refused = req->route->guard->check(s, con, text, sizeof text);
        if (refused == 404) {
            req->route = CBD_ROUTE_OTHER; /* switched off: as if the service had no such path */
        } else if (refused != 0) {
            /* A refused Origin is told nothing a page of it could read (no CORS headers). */
            cbd_extra_headers close = {.close = body, .no_cors = refused == 403};
            if (body) {
                cbd_watch_set_linger(cbd_watch_of(con));
            }
            return cbd_http_send_problem(&s->answers, con, &req->answer, refused, &close, "%s",
                                         text);
        }
    }
    if (req->route == CBD_ROUTE_OTHER) {
        cbd_extra_headers close = {.close = body};
        if (body) {
            cbd_watch_set_linger(cbd_watch_of(con));
        }
        return cbd_http_send_problem(&s->answers, con, &req->answer, 404, &close,
                                     "No resource at %s; see /openapi.yaml for the endpoints.",
                                     req->path);
    }
    const char *allow = req->route->allow;
    if (strcmp(method, MHD_HTTP_METHOD_OPTIONS) == 0) {
        cbd_extra_headers pre = {.allow = allow,
                                 .preflight = true,
                                 .allow_headers =
                                     req->route->guard ? req->route->guard->allow_headers : NULL};
        return cbd_http_send(&s->answers, con, &req->answer, 204, NULL, (void *)"", 0, false, &pre);
    }
    if (!cbdp_route_allows(req->route, method)) {
        cbd_extra_headers e = {.allow = allow, .close = body};
        if (body) {
            cbd_watch_set_linger(cbd_watch_of(con));
        }
        return cbd_http_send_problem(&s->answers, con, &req->answer, 405, &e,
                                     "%s is not allowed on %s; use %s.", method, req->path, allow);
    }
    return MHD_YES;
}

/* The checks of a POST's body before it is read: its Content-Type, and a Content-Length far
 * past the limit; then the body is collected. */
static enum MHD_Result body_checks(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req,
                                   bool body) {
    const char *ct =
        MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (!cbd_http_is_json_content_type(ct)) {
        char text[200];
        snprintf(text, sizeof text, "Send the body as Content-Type: application/json (got %.120s).",
                 ct ? ct : "no Content-Type");
        if (body) {
            return early_problem(s, con, req, 415, text);
        }
        return cbd_http_send_problem(&s->answers, con, &req->answer, 415, NULL, "%s", text);
    }
    /* A body a little over the limit is read and dropped, and the 413 comes after it (the
     * too_large path in on_request): answering at once and closing with the client's bytes
     * still unread makes the kernel reset the connection, and the client may lose the 413
     * (the soak saw it once in 1,375). Past DISCARD_MAX, reading is not worth it: answer now. */
    const char *cl =
        MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl && strtoull(cl, NULL, 10) > body_limit_of(s, req) + DISCARD_MAX) {
        char text[128];
        snprintf(text, sizeof text, "The body may be at most %" PRIu64 " bytes (%s).",
                 body_limit_of(s, req), body_limit_key(req));
        return early_problem(s, con, req, 413, text);
    }
    cbd_body_init(&req->body, (size_t)body_limit_of(s, req));
    return MHD_YES;
}

/* The access handler's first call for a request: its headers are in. */
static enum MHD_Result first_call(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req,
                                  const char *url, const char *method, const char *version) {
    req->started = true;
    cbdp_copy_str(req->method, sizeof req->method, method);
    cbdp_copy_str(req->path, sizeof req->path, url);
    req->route = cbdp_route_find(url);
    req->answer.no_cors = req->route->kind == CBD_KIND_OPS;
    cbd_http_set_request_id(con, &req->answer);
    cbd_conn *conn = cbd_conn_of(con);
    set_client(s, con, conn, req);
    if (conn && conn->over_limit) {
        /* Answered once the request is in (a body is read and dropped, as for a 413 below). */
        req->refused = true;
        cbd_body_init(&req->body, (size_t)body_limit_of(s, req));
        return MHD_YES;
    }
    cbd_head_size head = cbd_head_size_of(con, &req->uri, method, version);
    if (!cbd_head_fits(head, (size_t)s->server.connection_memory_limit)) {
        return refuse_large_head(s, con, req, head);
    }
    char why[320];
    unsigned bad = cbd_framing_check(con, &req->uri, method, version, why, sizeof why);
    if (bad != 0) {
        cbd_extra_headers close = {.close = true};
        return cbd_http_send_problem(&s->answers, con, &req->answer, (int)bad, &close, "%s", why);
    }
    bool body = has_body(con);
    enum MHD_Result rc = route_checks(s, con, req, method, body);
    if (rc != MHD_YES || req->answer.status != 0 || req->route->get) {
        return rc;
    }
    return body_checks(s, con, req, body);
}

/* The whole request is in: parsed once, then answered on this thread or on a worker. */
static enum MHD_Result answer(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req) {
    /* The whole request is in: computing the answer is ours, not a slow client's. */
    cbd_watch_answering(cbd_watch_of(con));
    req->in_us = cbd_now_us();
    cbd_api_reply reply;
    cbd_api_request api_req;
    const char *body = req->body.data ? req->body.data : "";
    if (!cbd_api_parse(&req->route->api, body, req->body.len, &api_req, &reply)) {
        return cbdp_http_send_reply(&s->answers, con, &req->answer, &reply, NULL);
    }
    const cbd_guard *guard = req->route->guard;
    api_req.protocol = guard && guard->protocol ? guard->protocol(con) : NULL;
    const cbd_api_endpoint *called = cbd_api_called(&api_req);
    req->called = called ? cbdp_route_find(called->path) : NULL;
    /* The estimate routes: past a small one, off the HTTP thread at once. The meter protects:
     * on this thread a request may spend server.inline_work_us, and one that spends it starts
     * over on a worker, so no request holds an HTTP thread longer, whatever its estimate. */
    if (cbd_api_cost(&api_req, &s->api) > s->api.limits.inline_cost_ns) {
        return cbdp_http_run_on_worker(s, con, req, &api_req);
    }
    cbd_api_limits limits = cbd_api_inline_limits(&s->api);
    if (!cbdp_http_compute(s, req, &api_req, &limits, &reply)) {
        atomic_fetch_add(&s->metrics.handed_to_workers, 1);
        return cbdp_http_run_on_worker(s, con, req, &api_req);
    }
    return cbdp_http_send_reply(&s->answers, con, &req->answer, &reply, NULL);
}

enum MHD_Result cbdp_http_on_request(void *cls, struct MHD_Connection *con, const char *url,
                                     const char *method, const char *version,
                                     const char *upload_data, size_t *upload_data_size,
                                     void **con_cls) {
    cbd_server *s = cls;
    cbd_http_request *req = *con_cls;
    if (!req) {
        return MHD_NO; /* the URI logger could not allocate: close */
    }
    if (!req->started) {
        return first_call(s, con, req, url, method, version);
    }
    if (*upload_data_size > 0) {
        /* MHD's timeout counts inactivity only; a trickling client meets the watchdog. */
        if (cbd_watch_cut(cbd_watch_of(con)) != CBD_CUT_NONE) {
            return MHD_NO;
        }
        (void)cbd_body_append(&req->body, upload_data, *upload_data_size);
        *upload_data_size = 0;
        if (req->body.too_large && req->body.seen > body_limit_of(s, req) + DISCARD_MAX) {
            return refuse_rest_of_body(s, con, req);
        }
        return MHD_YES;
    }
    if (req->answer.status != 0) {
        return MHD_YES; /* already answered (e.g. early 413): nothing more to do */
    }
    if (req->refused) {
        return refuse(s, con, req);
    }
    if (req->route->get) {
        return req->route->get(s, con, req);
    }
    if (req->body.too_large) {
        cbd_extra_headers close = {.close = true};
        return cbd_http_send_problem(&s->answers, con, &req->answer, 413, &close,
                                     "The body may be at most %" PRIu64 " bytes (%s).",
                                     body_limit_of(s, req), body_limit_key(req));
    }
    if (req->body.out_of_memory) {
        return cbd_http_send(&s->answers, con, &req->answer, 500, "application/problem+json",
                             (void *)cbd_api_oom_body, cbd_api_oom_body_len, false, NULL);
    }
    if (req->job_started && req->job_end == CBD_JOB_ABANDONED) {
        return MHD_NO; /* its client has gone: nothing is sent, the connection closes */
    }
    if (req->job_started) {
        /* Resumed by the worker: its reply is ready (a 503 if the server began to stop). */
        cbd_extra_headers retry = {
            .retry_after = req->job_reply.status == 503 ? CBD_RETRY_AFTER_SECONDS : NULL};
        return cbdp_http_send_reply(&s->answers, con, &req->answer, &req->job_reply, &retry);
    }
    return answer(s, con, req);
}

/* Called at the request line, before headers: the earliest point to start the clock. */
void *cbdp_http_on_uri(void *cls, const char *uri, struct MHD_Connection *con) {
    cbd_server *s = cls;
    cbd_conn *conn = cbd_conn_of(con);
    cbd_conn_request_begins(conn);          /* the drain leaves this connection alone */
    cbd_watch_receiving(cbd_watch_of(con)); /* if its first byte did not start it already */
    cbd_http_request *req = calloc(1, sizeof *req);
    if (req) {
        cbdp_copy_str(req->client, sizeof req->client, conn ? conn->peer : "-");
        req->start_us = cbd_now_us();
        req->route = CBD_ROUTE_OTHER;
        cbd_framing_note_uri(&req->uri, uri);
        /* Logged as it is should the request end before its headers do (the access handler
         * replaces it with the decoded path). */
        cbdp_copy_text(req->path, sizeof req->path, uri ? uri : "", uri ? strcspn(uri, "?") : 0);
        atomic_fetch_add(&s->metrics.in_flight, 1);
    }
    return req;
}

void cbdp_http_on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
                            enum MHD_RequestTerminationCode toe) {
    cbd_server *s = cls;
    /* On keep-alive the next request starts now; its clock starts with it. */
    cbd_cut cut = cbd_watch_request_done(cbd_watch_of(con));
    cbd_conn_request_ends(cbd_conn_of(con), cbd_now_us());
    cbd_http_request *req = *con_cls;
    if (!req) {
        return;
    }
    *con_cls = NULL;
    uint64_t duration = cbd_now_us() - req->start_us;
    cbd_metrics_observe(&s->metrics, (unsigned)(req->route - cbdp_routes), req->answer.status,
                        duration, req->body.seen, req->answer.bytes_out);
    if (req->called && req->answer.status != 0) {
        cbd_metrics_observe_call(&s->metrics, (unsigned)(req->called - cbdp_routes),
                                 req->answer.call_status ? (unsigned)req->answer.call_status
                                                         : req->answer.status);
    }
    cbd_http_log_completed(s, req, duration, cut, toe);
    if (req->job_started) {
        atomic_fetch_sub(&s->jobs_unsent, 1); /* its answer is out, or never will be */
    }
    cbd_api_reply_free(&req->job_reply); /* only set if a worker's reply was never sent */
    cbd_body_free(&req->body);
    free(req);
    atomic_fetch_sub(&s->metrics.in_flight, 1);
}
