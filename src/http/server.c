/*
 * The HTTP service on libmicrohttpd 0.9.75: an internal thread pool with epoll, every limit
 * set, per-request state only in *con_cls, and every answer either JSON from the api layer or
 * an RFC 9457 problem. The access handler routes each request once (router.h); answers are
 * queued by response.c, long ones computed by worker.c.
 */
#include "server.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "access_log.h"
#include "request_log.h"
#include "framing.h"
#include "json_alloc.h"
#include "linger.h"
#include "request_checks.h"
#include "response.h"
#include "sysres.h"
#include "server_internal.h"
#include "offload.h"
#include "worker.h"

/* An oversized body up to this much past the limit is read and dropped before the 413, as Go's
 * net/http reads up to 256 KiB of an unread body before closing. */
#define DISCARD_MAX (256u * 1024u)

/* After an early answer, what the client still sends is read and dropped up to this much and
 * this long before the close (linger.h), for at most LINGER_SOCKETS connections at once. */
#define LINGER_BYTES   (4u * 1024u * 1024u)
#define LINGER_US      (3u * 1000000u)
#define LINGER_SOCKETS 256u

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

/*
 * A body past the limit by more than DISCARD_MAX (a chunked one, whose size was not known at
 * the start): MHD cannot queue an answer while the body is coming, so the 413 is written to
 * the socket here, and the access handler's MHD_NO closes the connection, gently, so that
 * the client can read it (linger.h caps what is read after it).
 */
static enum MHD_Result refuse_rest_of_body(cbd_server *s, struct MHD_Connection *con,
                                           cbd_http_request *req) {
    char body[192], head[512];
    int nb = snprintf(body, sizeof body,
                      "{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
                      "\"detail\":\"The body may be at most %" PRIu64 " bytes.\",\"errors\":[]}",
                      s->cfg.server.body_limit);
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 413 Content Too Large\r\nConnection: close\r\n"
                     "Content-Type: application/problem+json\r\n"
                     "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
                     "X-Request-Id: %s\r\nContent-Length: %d\r\n\r\n%s",
                     req->answer.request_id, nb, body);
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info && nb > 0 && n > 0 && (size_t)n < sizeof head &&
        send(info->connect_fd, head, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) == n) {
        req->answer.status = 413;
        req->answer.bytes_out = (uint64_t)nb;
        cbd_watch_set_linger(cbd_watch_of(con));
    }
    return MHD_NO;
}

/* ---- the access handler ---- */

/* The client address: the socket peer, or from a trusted proxy the one its
 * X-Forwarded-For names (net_ranges.h). */
static void set_client(const cbd_server *s, struct MHD_Connection *con, const cbd_conn *conn,
                       cbd_http_request *req) {
    if (conn && conn->trusted) {
        const char *xff = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "X-Forwarded-For");
        (void)cbd_net_forwarded_client(xff, s->cfg.server.trusted_proxies,
                                       s->cfg.server.n_trusted_proxies, req->client);
    }
}

/* A connection over the per-IP limit (conns.h): one answer, then the connection closes. */
static enum MHD_Result refuse(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req) {
    cbd_extra_headers e = {.close = true, .retry_after = CBD_RETRY_AFTER_SECONDS};
    return cbd_http_send_problem(&s->answers, con, &req->answer, 503, &e,
                                 "Too many connections from %s (at most %u); retry shortly.",
                                 req->client, s->cfg.server.per_ip_connection_limit);
}

static enum MHD_Result first_call(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req,
                                  const char *url, const char *method, const char *version) {
    req->started = true;
    snprintf(req->method, sizeof req->method, "%s", method);
    snprintf(req->path, sizeof req->path, "%s", url);
    req->route = cbd_route_find(url);
    cbd_http_set_request_id(con, req);
    cbd_conn *conn = cbd_conn_of(con);
    set_client(s, con, conn, req);
    if (conn && conn->over_limit) {
        /* Answered once the request is in (a body is read and dropped, as for a 413 below). */
        req->refused = true;
        cbd_body_init(&req->body, (size_t)s->cfg.server.body_limit);
        return MHD_YES;
    }

    char why[320];
    unsigned bad = cbd_framing_check(con, &req->uri, method, version, why, sizeof why);
    if (bad != 0) {
        cbd_extra_headers close = {.close = true};
        return cbd_http_send_problem(&s->answers, con, &req->answer, (int)bad, &close, "%s", why);
    }
    bool body = has_body(con);
    if (req->route->guard) {
        char text[320];
        int refused = req->route->guard->check(s, con, text, sizeof text);
        if (refused == 404) {
            req->route = CBD_ROUTE_OTHER; /* switched off: as if the service had no such path */
        } else if (refused != 0) {
            cbd_extra_headers close = {.close = body};
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
    bool method_ok = cbd_route_allows(req->route, method);
    if (!method_ok) {
        cbd_extra_headers e = {.allow = allow, .close = body};
        if (body) {
            cbd_watch_set_linger(cbd_watch_of(con));
        }
        return cbd_http_send_problem(&s->answers, con, &req->answer, 405, &e,
                                     "%s is not allowed on %s; use %s.", method, req->path, allow);
    }
    if (req->route->get) {
        /* Answered on the next call: a response queued before MHD has finished reading the
         * request makes it close the connection, which would defeat keep-alive. */
        return MHD_YES;
    }
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
    if (cl && strtoull(cl, NULL, 10) > s->cfg.server.body_limit + DISCARD_MAX) {
        char text[96];
        snprintf(text, sizeof text, "The body may be at most %" PRIu64 " bytes.",
                 s->cfg.server.body_limit);
        return early_problem(s, con, req, 413, text);
    }
    cbd_body_init(&req->body, (size_t)s->cfg.server.body_limit);
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
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
        if (req->body.too_large && req->body.seen > s->cfg.server.body_limit + DISCARD_MAX) {
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
                                     "The body may be at most %" PRIu64 " bytes.",
                                     s->cfg.server.body_limit);
    }
    if (req->body.out_of_memory) {
        return cbd_http_send_problem(&s->answers, con, &req->answer, 500, NULL,
                                     "Out of memory reading the body.");
    }
    if (req->job_started) {
        /* Resumed by the worker: its reply is ready (a 503 if the server began to stop). */
        cbd_extra_headers retry = {
            .retry_after = req->job_reply.status == 503 ? CBD_RETRY_AFTER_SECONDS : NULL};
        return cbd_http_send_reply(&s->answers, con, &req->answer, &req->job_reply, &retry);
    }
    /* The whole request is in: computing the answer is ours, not a slow client's. */
    cbd_watch_answering(cbd_watch_of(con));
    req->in_us = cbd_now_us();
    cbd_api_reply reply;
    cbd_api_request api_req;
    const char *body = req->body.data ? req->body.data : "";
    if (!cbd_api_parse(&req->route->api, body, req->body.len, &api_req, &reply)) {
        return cbd_http_send_reply(&s->answers, con, &req->answer, &reply, NULL);
    }
    const cbd_api_endpoint *called = cbd_api_called(&api_req);
    req->called = called ? cbd_route_find(called->path) : NULL;
    /* The estimate routes: past a small one, off the HTTP thread at once. The meter protects:
     * on this thread a request may spend server.inline_work_us, and one that spends it starts
     * over on a worker, so no request holds an HTTP thread longer, whatever its estimate. */
    if (cbd_api_cost(&api_req, &s->cfg) > s->cfg.server.inline_cost_ns) {
        return cbd_http_run_on_worker(s, con, req, &api_req);
    }
    cbd_api_limits limits = cbd_api_inline_limits(&s->cfg);
    if (!cbd_api_answer_within(&api_req, &s->cfg, &limits, &reply)) {
        atomic_fetch_add(&s->metrics.handed_to_workers, 1);
        return cbd_http_run_on_worker(s, con, req, &api_req);
    }
    return cbd_http_send_reply(&s->answers, con, &req->answer, &reply, NULL);
}

/* Called at the request line, before headers: the earliest point to start the clock. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *con) {
    cbd_server *s = cls;
    cbd_conn *conn = cbd_conn_of(con);
    cbd_conn_request_begins(conn);          /* the drain leaves this connection alone */
    cbd_watch_receiving(cbd_watch_of(con)); /* if its first byte did not start it already */
    cbd_http_request *req = calloc(1, sizeof *req);
    if (req) {
        snprintf(req->client, sizeof req->client, "%s", conn ? conn->peer : "-");
        req->start_us = cbd_now_us();
        req->route = CBD_ROUTE_OTHER;
        cbd_framing_note_uri(&req->uri, uri);
        /* Logged as it is should the request end before its headers do (the access handler
         * replaces it with the decoded path). */
        int path_len = uri ? (int)strcspn(uri, "?") : 0;
        snprintf(req->path, sizeof req->path, "%.*s", path_len, uri ? uri : "");
        atomic_fetch_add(&s->metrics.in_flight, 1);
    }
    return req;
}

static void on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
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
    cbd_metrics_observe(&s->metrics, (unsigned)(req->route - cbd_routes), req->answer.status,
                        duration, req->body.seen, req->answer.bytes_out);
    if (req->called && req->answer.status != 0) {
        cbd_metrics_observe_call(&s->metrics, (unsigned)(req->called - cbd_routes),
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

/* ---- the request-deadline watchdog (watchdog.h) ---- */

static void on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
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
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len) {
    (void)len;
    cbd_server *s = cls;
    return cbd_conns_may_accept(s->conns, addr) ? MHD_YES : MHD_NO;
}

uint64_t cbd_server_deadline_cuts(const cbd_server *s) {
    return cbd_watchdog_cuts(s->watchdog);
}

/* ---- life cycle ---- */

static bool parse_bind(const char *bind, uint16_t port, struct sockaddr_storage *out, bool *ipv6) {
    memset(out, 0, sizeof *out);
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET, bind, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        *ipv6 = false;
        return true;
    }
    if (inet_pton(AF_INET6, bind, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        *ipv6 = true;
        return true;
    }
    return false;
}

static unsigned pool_size(const cbd_server_config *c) {
    if (c->threads > 0) {
        return c->threads;
    }
    return cbd_sys_cpu_count(NULL); /* the CPUs this process may use (sysres.h) */
}

/* The threads of our own beside MHD's: the watchdog, the lingerer and the worker pool. */
static void stop_helpers(cbd_server *s) {
    cbd_pool_free(s->pool);
    cbd_linger_stop(s->linger);
    cbd_watchdog_stop(s->watchdog);
    cbd_conns_destroy(s->conns); /* after the daemon: every connection has closed */
}

static bool start_helpers(cbd_server *s, const cbd_config *cfg, char *err, size_t err_size) {
    uint64_t second = 1000000u;
    s->watchdog = cbd_watchdog_start((uint64_t)cfg->server.request_deadline * second,
                                     (uint64_t)cfg->server.send_deadline * second);
    s->linger = cbd_linger_start(LINGER_BYTES, LINGER_US, LINGER_SOCKETS);
    unsigned cpus = cbd_sys_cpu_count(NULL); /* the CPUs this process may use (sysres.h) */
    unsigned workers = cfg->server.workers ? cfg->server.workers : cpus > 2 ? cpus : 2u;
    s->pool = cbd_pool_start(workers, cfg->server.worker_queue, cfg->server.worker_share);
    s->conns = cbd_conns_create(cfg->server.per_ip_connection_limit, cfg->server.trusted_proxies,
                                cfg->server.n_trusted_proxies);
    if (!s->watchdog || !s->linger || !s->pool || !s->conns) {
        snprintf(err, err_size, "cannot start the watchdog, lingering or worker threads");
        stop_helpers(s);
        return false;
    }
    return true;
}

cbd_server *cbd_server_start(const cbd_config *cfg, char *err, size_t err_size) {
    cbd_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->answers = (cbd_answer_policy){.server = &s->cfg.server, .draining = &s->draining};
    cbd_json_alloc_install();
    /* Answers of megabytes come from mmap and go back to the OS when freed: a fixed threshold
     * stops glibc from raising it after the first large free, which kept a slow-reader flood's
     * memory in the heap after the readers had gone. */
    (void)mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    (void)mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
    cbd_metrics_init(&s->metrics, cbd_routes);
    atomic_init(&s->draining, false);
    atomic_init(&s->stopping, false);
    atomic_init(&s->jobs_unsent, 0u);
    if (!start_helpers(s, cfg, err, err_size)) {
        free(s);
        return NULL;
    }

    struct sockaddr_storage addr;
    bool ipv6 = false;
    if (!parse_bind(cfg->server.bind, (uint16_t)cfg->server.port, &addr, &ipv6)) {
        snprintf(err, err_size, "bind address \"%s\" is not an IPv4 or IPv6 address",
                 cfg->server.bind);
        stop_helpers(s);
        free(s);
        return NULL;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0u);
    unsigned threads = pool_size(&cfg->server);
    /* The per-IP limit is conns.c's (MHD's cannot exempt trusted proxies): MHD's is 0, none. */
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)cfg->server.port, on_accept, s, on_request, s,
        /* First, so that MHD's messages about the options below go through it too. */
        MHD_OPTION_EXTERNAL_LOGGER, cbd_log_mhd_message, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT,
        cfg->server.connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, 0u,
        MHD_OPTION_CONNECTION_TIMEOUT, cfg->server.connection_timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)cfg->server.connection_memory_limit,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, s, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, s, MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(err, err_size, "cannot listen on %s port %u (in use, or not permitted?)",
                 cfg->server.bind, cfg->server.port);
        stop_helpers(s);
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : (uint16_t)cfg->server.port;
    return s;
}

uint16_t cbd_server_port(const cbd_server *s) {
    return s->port;
}

/* How long stopping waits for the answers of the pool's last jobs to go out. */
#define STOP_FLUSH_US (2u * 1000000u)

/*
 * MHD_stop_daemon closes every connection at once, and one whose worker has just resumed it
 * would go without the answer waiting in it (a 503 for a job refused because the server is
 * stopping, or a finished computation). So the daemon runs on until every admitted job's
 * request has completed, for at most STOP_FLUSH_US (a client that does not read its answer
 * does not hold the stop longer; it is logged "shutdown").
 */
static void wait_for_job_answers(cbd_server *s) {
    uint64_t start = cbd_now_us();
    while (atomic_load(&s->jobs_unsent) > 0 && cbd_now_us() - start < STOP_FLUSH_US) {
        struct timespec pause = {0, 2000000L};
        nanosleep(&pause, NULL);
    }
}

void cbd_server_stop(cbd_server *s) {
    if (!s) {
        return;
    }
    atomic_store(&s->stopping, true);
    /* Workers answer what they hold (what still waits is refused with a 503), resume its
     * connections and then touch the daemon no more; the pool refuses new jobs from here. */
    cbd_pool_stop(s->pool);
    wait_for_job_answers(s);
    /* Then the daemon: its connections' CLOSED notifications empty the watchdog's list. */
    MHD_stop_daemon(s->daemon);
    stop_helpers(s);
    free(s);
}

unsigned cbd_server_worker_jobs(const cbd_server *s) {
    return cbd_pool_jobs(s->pool);
}
