/*
 * The HTTP service on libmicrohttpd 0.9.75: an internal thread pool with epoll, every limit
 * set, per-request state only in *con_cls, and every answer either JSON from the api layer or
 * an RFC 9457 problem.
 */
#include "server.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "access_log.h"
#include "api.h"
#include "combatd/rng.h"
#include "assets.h"
#include "body.h"
#include "framing.h"
#include "json_alloc.h"
#include "metrics.h"
#include "router.h"
#include "watchdog.h"

_Static_assert(CBD_ROUTE_COUNT == CBD_METRIC_ROUTES, "one metrics row per route");

struct cbd_server {
    struct MHD_Daemon *daemon;
    cbd_config cfg;
    cbd_metrics metrics;
    atomic_bool draining;
    atomic_uint jobs; /* requests running on worker threads (see run_on_worker) */
    uint16_t port;

    cbd_watchdog *watchdog; /* the absolute request deadline (watchdog.h) */
};

/* An oversized body up to this much past the limit is read and dropped before the 413, as Go's
 * net/http reads up to 256 KiB of an unread body before closing. */
#define DISCARD_MAX (256u * 1024u)

/* At most this many requests run on worker threads at once; more get 503 + Retry-After. */
#define CBD_MAX_WORKER_JOBS 16u

/* Everything a request owns, from its request line to its completion callback. */
typedef struct {
    uint64_t start_us;
    bool started;        /* the access handler has seen this request */
    cbd_framing_uri uri; /* the raw target, as the URI log callback saw it (framing.h) */
    cbd_route route;
    char method[16];
    char path[256];
    char request_id[65];
    cbd_body body;
    unsigned status;
    uint64_t bytes_out;
    /* A long request computed on a worker thread while the connection is suspended. */
    bool job_started;
    cbd_api_reply job_reply;
    cbd_api_request job_req;
    struct MHD_Connection *con;
    cbd_server *server;
} request_ctx;

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The watchdog's entry for a connection (NULL if its allocation failed). */
static cbd_watch *watch_of(struct MHD_Connection *con) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* ---- request ids ---- */

static bool valid_request_id(const char *id) {
    size_t n = 0;
    for (; id[n]; n++) {
        char c = id[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || c == '.' || c == ':';
        if (!ok || n >= 64) {
            return false;
        }
    }
    return n > 0;
}

static void set_request_id(struct MHD_Connection *con, request_ctx *ctx) {
    const char *given = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "X-Request-Id");
    if (given && valid_request_id(given)) {
        snprintf(ctx->request_id, sizeof ctx->request_id, "%s", given);
        return;
    }
    /* Ids must be unique, not secret: a per-thread splitmix64 stream seeded once from the OS
     * saves a getrandom(2) call on every request. */
    static _Thread_local uint64_t id_state;
    static _Thread_local bool id_seeded;
    if (!id_seeded) {
        if (getrandom(&id_state, sizeof id_state, GRND_NONBLOCK) != (ssize_t)sizeof id_state) {
            id_state = now_us() ^ (uint64_t)(uintptr_t)&id_state;
        }
        id_seeded = true;
    }
    uint64_t r = cbd_splitmix64_next(&id_state);
    snprintf(ctx->request_id, sizeof ctx->request_id, "%016llx", (unsigned long long)r);
}

/* ---- responses ---- */

static const char *allowed_origin(const cbd_server *s, struct MHD_Connection *con) {
    const char *origin = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Origin");
    if (!origin) {
        return NULL;
    }
    for (size_t i = 0; i < s->cfg.server.n_cors_origins; i++) {
        const char *allowed = s->cfg.server.cors_origins[i];
        if (strcmp(allowed, "*") == 0) {
            return "*";
        }
        if (strcmp(allowed, origin) == 0) {
            return origin;
        }
    }
    return NULL;
}

typedef struct {
    const char *allow; /* for 405 */
    bool close;        /* ask MHD to close the connection after the response */
    bool preflight;    /* add the CORS preflight headers */
    const char *csp;   /* Content-Security-Policy, for the page */
} extra_headers;

/*
 * Queues a response. `body` is taken over (freed by MHD) when `must_free`, else it must be
 * static. Returns MHD_NO only when MHD could not queue, which closes the connection.
 */
static enum MHD_Result send_response(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx,
                                     unsigned status, const char *content_type, void *body,
                                     size_t len, bool must_free, const extra_headers *extra) {
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        len, body, must_free ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        if (must_free) {
            free(body);
        }
        return MHD_NO;
    }
    bool ok = true;
    if (content_type) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type) == MHD_YES;
    }
    ok &= MHD_add_response_header(resp, "X-Request-Id", ctx->request_id) == MHD_YES;
    ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store") == MHD_YES;
    const char *origin = allowed_origin(s, con);
    if (origin) {
        ok &= MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin) == MHD_YES;
        ok &= MHD_add_response_header(resp, "Access-Control-Expose-Headers", "X-Request-Id") ==
              MHD_YES;
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Origin") == MHD_YES;
        if (extra && extra->preflight) {
            ok &= MHD_add_response_header(resp, "Access-Control-Allow-Methods",
                                          "GET, HEAD, POST, OPTIONS") == MHD_YES;
            ok &= MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                                          "Content-Type, X-Request-Id") == MHD_YES;
            ok &= MHD_add_response_header(resp, "Access-Control-Max-Age", "600") == MHD_YES;
        }
    }
    if (extra && extra->csp) {
        ok &= MHD_add_response_header(resp, "Content-Security-Policy", extra->csp) == MHD_YES;
    }
    if (extra && extra->allow) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, extra->allow) == MHD_YES;
    }
    if (extra && extra->close) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close") == MHD_YES;
    }
    enum MHD_Result rc = ok ? MHD_queue_response(con, status, resp) : MHD_NO;
    MHD_destroy_response(resp);
    if (rc == MHD_YES) {
        ctx->status = status;
        ctx->bytes_out = len;
        /* Sending the answer is not the client trickling its request: the deadline stops
         * here (a client that reads slowly meets MHD's inactivity timeout instead). */
        cbd_watch_answering(watch_of(con));
    }
    return rc;
}

static enum MHD_Result send_reply(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx,
                                  cbd_api_reply *reply, const extra_headers *extra) {
    if (!reply->body) {
        return MHD_NO; /* not even the out-of-memory body could be made */
    }
    enum MHD_Result rc = send_response(s, con, ctx, (unsigned)reply->status, reply->content_type,
                                       reply->body, reply->body_len, true, extra);
    reply->body = NULL; /* MHD owns it now, or send_response freed it */
    return rc;
}

static enum MHD_Result send_problem(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx,
                                    int status, const extra_headers *extra, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static enum MHD_Result send_problem(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx,
                                    int status, const extra_headers *extra, const char *fmt, ...) {
    cbd_problem p;
    cbd_problem_init(&p);
    p.status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p.detail, sizeof p.detail, fmt, ap);
    va_end(ap);
    cbd_api_reply reply;
    cbd_api_problem_reply(&p, &reply);
    return send_reply(s, con, ctx, &reply, extra);
}

/* ---- request checks ---- */

static bool is_json_content_type(const char *ct) {
    static const char json[] = "application/json";
    if (!ct || strncasecmp(ct, json, sizeof json - 1) != 0) {
        return false;
    }
    char next = ct[sizeof json - 1];
    return next == '\0' || next == ';' || next == ' ' || next == '\t';
}

/* ---- GET routes ---- */

static enum MHD_Result serve_get(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx) {
    static const char livez[] = "{\"status\":\"ok\"}";
    static const char ready[] = "{\"status\":\"ready\"}";
    switch (ctx->route) {
        case CBD_ROUTE_LIVEZ:
            return send_response(s, con, ctx, 200, "application/json", (void *)livez,
                                 sizeof livez - 1, false, NULL);
        case CBD_ROUTE_READYZ:
            if (atomic_load(&s->draining)) {
                return send_problem(s, con, ctx, 503, NULL,
                                    "The service is draining and takes no new work.");
            }
            return send_response(s, con, ctx, 200, "application/json", (void *)ready,
                                 sizeof ready - 1, false, NULL);
        case CBD_ROUTE_METRICS: {
            size_t len = 0;
            char *text = cbd_metrics_render(&s->metrics, cbd_route_names, &len);
            if (!text) {
                return send_problem(s, con, ctx, 500, NULL, "Out of memory rendering metrics.");
            }
            return send_response(s, con, ctx, 200, "text/plain; version=0.0.4; charset=utf-8", text,
                                 len, true, NULL);
        }
        case CBD_ROUTE_OPENAPI:
            return send_response(s, con, ctx, 200, "application/yaml; charset=utf-8",
                                 (void *)cbd_asset_openapi_yaml, cbd_asset_openapi_yaml_len, false,
                                 NULL);
        case CBD_ROUTE_PAGE: {
            /* The page is self-contained: the browser itself refuses anything from elsewhere. */
            extra_headers page = {
                .csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                       "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                       "form-action 'none'; frame-ancestors 'none'"};
            return send_response(s, con, ctx, 200, "text/html; charset=utf-8",
                                 (void *)cbd_asset_index_html, cbd_asset_index_html_len, false,
                                 &page);
        }
        default:
            return send_problem(s, con, ctx, 404, NULL, "No resource at %s.", ctx->path);
    }
}

/* ---- the access handler ---- */

static enum MHD_Result first_call(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx,
                                  const char *url, const char *method, const char *version) {
    ctx->started = true;
    snprintf(ctx->method, sizeof ctx->method, "%s", method);
    snprintf(ctx->path, sizeof ctx->path, "%s", url);
    ctx->route = cbd_route_find(url);
    set_request_id(con, ctx);

    char why[320];
    unsigned bad = cbd_framing_check(con, &ctx->uri, method, version, why, sizeof why);
    if (bad != 0) {
        extra_headers close = {.close = true};
        return send_problem(s, con, ctx, (int)bad, &close, "%s", why);
    }
    if (ctx->route == CBD_ROUTE_NOT_FOUND) {
        return send_problem(s, con, ctx, 404, NULL,
                            "No resource at %s; see /openapi.yaml for the endpoints.", ctx->path);
    }
    const cbd_route_info *info = cbd_route_info_of(ctx->route);
    const char *allow = info->kind == CBD_ROUTE_GET ? "GET, HEAD, OPTIONS" : "POST, OPTIONS";
    if (strcmp(method, MHD_HTTP_METHOD_OPTIONS) == 0) {
        extra_headers pre = {.allow = allow, .preflight = true};
        return send_response(s, con, ctx, 204, NULL, (void *)"", 0, false, &pre);
    }
    bool method_ok = info->kind == CBD_ROUTE_GET ? strcmp(method, MHD_HTTP_METHOD_GET) == 0 ||
                                                       strcmp(method, MHD_HTTP_METHOD_HEAD) == 0
                                                 : strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    if (!method_ok) {
        extra_headers e = {.allow = allow};
        return send_problem(s, con, ctx, 405, &e, "%s is not allowed on %s; use %s.", method,
                            ctx->path, allow);
    }
    if (info->kind == CBD_ROUTE_GET) {
        /* Answered on the next call: a response queued before MHD has finished reading the
         * request makes it close the connection, which would defeat keep-alive. */
        return MHD_YES;
    }
    const char *ct =
        MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (!is_json_content_type(ct)) {
        return send_problem(s, con, ctx, 415, NULL,
                            "Send the body as Content-Type: application/json (got %s).",
                            ct ? ct : "no Content-Type");
    }
    /* A body a little over the limit is read and dropped, and the 413 comes after it (the
     * too_large path in on_request): answering at once and closing with the client's bytes
     * still unread makes the kernel reset the connection, and the client may lose the 413
     * (the soak saw it once in 1,375). Past DISCARD_MAX, reading is not worth it: answer now. */
    const char *cl =
        MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl && strtoull(cl, NULL, 10) > s->cfg.server.body_limit + DISCARD_MAX) {
        extra_headers close = {.close = true};
        return send_problem(s, con, ctx, 413, &close, "The body may be at most %llu bytes.",
                            (unsigned long long)s->cfg.server.body_limit);
    }
    cbd_body_init(&ctx->body, (size_t)s->cfg.server.body_limit);
    return MHD_YES;
}

/* ---- long requests on worker threads (issue 4) ---- */

/*
 * MHD's thread pool pins each connection to one thread, so a 1-second computation would stall
 * that thread's other connections. Such requests (cbd_api_is_heavy) are computed on a
 * thread of their own while MHD_suspend_connection parks the connection; the worker resumes it
 * and the next access-handler call sends the reply.
 */
static void *worker_main(void *arg) {
    request_ctx *ctx = arg;
    cbd_server *s = ctx->server;
    struct MHD_Connection *con = ctx->con;
    cbd_api_answer(&ctx->job_req, &s->cfg, &ctx->job_reply);
    /* ctx may be freed as soon as the connection is resumed: touch only s and con after. */
    MHD_resume_connection(con);
    atomic_fetch_sub(&s->jobs, 1);
    return NULL;
}

/* Takes over `req`: it is answered on a worker, or released with a 503. */
static enum MHD_Result run_on_worker(cbd_server *s, struct MHD_Connection *con, request_ctx *ctx,
                                     cbd_api_request *req) {
    unsigned jobs = atomic_fetch_add(&s->jobs, 1);
    if (jobs >= CBD_MAX_WORKER_JOBS) {
        atomic_fetch_sub(&s->jobs, 1);
        cbd_api_request_release(req);
        return send_problem(s, con, ctx, 503, NULL,
                            "Too many long simulations are running (%u); retry shortly.",
                            CBD_MAX_WORKER_JOBS);
    }
    ctx->job_started = true;
    ctx->job_req = *req;
    ctx->con = con;
    ctx->server = s;
    pthread_attr_t attr;
    pthread_t thread;
    MHD_suspend_connection(con);
    bool started = pthread_attr_init(&attr) == 0;
    if (started) {
        (void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        started = pthread_create(&thread, &attr, worker_main, ctx) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) {
        /* No thread: compute here, then resume so that the next call sends the reply. */
        cbd_api_answer(&ctx->job_req, &s->cfg, &ctx->job_reply);
        MHD_resume_connection(con);
        atomic_fetch_sub(&s->jobs, 1);
    }
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
    cbd_server *s = cls;
    request_ctx *ctx = *con_cls;
    if (!ctx) {
        return MHD_NO; /* the URI logger could not allocate: close */
    }
    if (!ctx->started) {
        return first_call(s, con, ctx, url, method, version);
    }
    if (*upload_data_size > 0) {
        /* MHD's timeout counts inactivity only; a trickling client meets this deadline. */
        if (now_us() - ctx->start_us > (uint64_t)s->cfg.server.request_deadline * 1000000u) {
            return MHD_NO;
        }
        (void)cbd_body_append(&ctx->body, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (ctx->status != 0) {
        return MHD_YES; /* already answered (e.g. early 413): nothing more to do */
    }
    if (cbd_route_info_of(ctx->route)->kind == CBD_ROUTE_GET) {
        return serve_get(s, con, ctx);
    }
    if (ctx->body.too_large) {
        extra_headers close = {.close = true};
        return send_problem(s, con, ctx, 413, &close, "The body may be at most %llu bytes.",
                            (unsigned long long)s->cfg.server.body_limit);
    }
    if (ctx->body.out_of_memory) {
        return send_problem(s, con, ctx, 500, NULL, "Out of memory reading the body.");
    }
    if (ctx->job_started) {
        /* Resumed by the worker: its reply is ready. */
        return send_reply(s, con, ctx, &ctx->job_reply, NULL);
    }
    /* The whole request is in: computing the answer is ours, not a slow client's. */
    cbd_watch_answering(watch_of(con));
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(cbd_route_info_of(ctx->route)->path);
    if (!ep) {
        return send_problem(s, con, ctx, 404, NULL, "No resource at %s.", ctx->path);
    }
    cbd_api_reply reply;
    cbd_api_request req;
    if (!cbd_api_parse(ep, ctx->body.data ? ctx->body.data : "", ctx->body.len, &req, &reply)) {
        return send_reply(s, con, ctx, &reply, NULL);
    }
    if (cbd_api_is_heavy(&req)) {
        return run_on_worker(s, con, ctx, &req);
    }
    cbd_api_answer(&req, &s->cfg, &reply);
    return send_reply(s, con, ctx, &reply, NULL);
}

/* Called at the request line, before headers: the earliest point to start the clock. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *con) {
    (void)con;
    cbd_server *s = cls;
    request_ctx *ctx = calloc(1, sizeof *ctx);
    if (ctx) {
        ctx->start_us = now_us();
        ctx->route = CBD_ROUTE_NOT_FOUND;
        cbd_framing_note_uri(&ctx->uri, uri); /* raw: %00 is still visible here */
        atomic_fetch_add(&s->metrics.in_flight, 1);
    }
    return ctx;
}

static void on_completed(void *cls, struct MHD_Connection *con, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    cbd_server *s = cls;
    /* On keep-alive the next request starts now; its clock starts with it. */
    bool cut = cbd_watch_request_done(watch_of(con));
    request_ctx *ctx = *con_cls;
    if (!ctx) {
        return;
    }
    *con_cls = NULL;
    uint64_t duration = now_us() - ctx->start_us;
    cbd_metrics_observe(&s->metrics, ctx->route, ctx->status, duration, ctx->body.seen,
                        ctx->bytes_out);
    if (s->cfg.server.access_log) {
        cbd_access_log_entry e = {
            .method = ctx->method[0] ? ctx->method : "-",
            .path = ctx->path[0] ? ctx->path : "-",
            .status = ctx->status,
            .duration_us = duration,
            .bytes_in = ctx->body.seen,
            .bytes_out = ctx->bytes_out,
            .request_id = ctx->request_id[0] ? ctx->request_id : "-",
            .ended = cut                                             ? "deadline"
                     : toe == MHD_REQUEST_TERMINATED_COMPLETED_OK    ? "ok"
                     : toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED ? "timeout"
                     : toe == MHD_REQUEST_TERMINATED_CLIENT_ABORT    ? "client_abort"
                     : toe == MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN ? "shutdown"
                     : toe == MHD_REQUEST_TERMINATED_READ_ERROR      ? "read_error"
                                                                     : "error",
        };
        cbd_access_log_write(&e);
    }
    cbd_api_reply_free(&ctx->job_reply); /* only set if a worker's reply was never sent */
    cbd_body_free(&ctx->body);
    free(ctx);
    atomic_fetch_sub(&s->metrics.in_flight, 1);
}

/* ---- the request-deadline watchdog (watchdog.h) ---- */

static void on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
    cbd_server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = info ? cbd_watch_add(s->watchdog, info->connect_fd) : NULL;
        return;
    }
    /* MHD_CONNECTION_NOTIFY_CLOSED comes before MHD closes the socket. */
    cbd_watch_remove(s->watchdog, *socket_context);
    *socket_context = NULL;
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
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

cbd_server *cbd_server_start(const cbd_config *cfg, char *err, size_t err_size) {
    cbd_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    cbd_json_alloc_install(); /* before any thread uses jansson (json_alloc.h) */
    cbd_metrics_init(&s->metrics);
    atomic_init(&s->draining, false);
    atomic_init(&s->jobs, 0u);
    s->watchdog = cbd_watchdog_start((uint64_t)cfg->server.request_deadline * 1000000u);
    if (!s->watchdog) {
        snprintf(err, err_size, "cannot start the request-deadline watchdog thread");
        free(s);
        return NULL;
    }

    struct sockaddr_storage addr;
    bool ipv6 = false;
    if (!parse_bind(cfg->server.bind, (uint16_t)cfg->server.port, &addr, &ipv6)) {
        snprintf(err, err_size, "bind address \"%s\" is not an IPv4 or IPv6 address",
                 cfg->server.bind);
        cbd_watchdog_stop(s->watchdog);
        free(s);
        return NULL;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0u);
    unsigned threads = pool_size(&cfg->server);
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)cfg->server.port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT,
        cfg->server.connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        cfg->server.per_ip_connection_limit, MHD_OPTION_CONNECTION_TIMEOUT,
        cfg->server.connection_timeout, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)cfg->server.connection_memory_limit, MHD_OPTION_URI_LOG_CALLBACK, on_uri, s,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_NOTIFY_CONNECTION, on_connection,
        s, MHD_OPTION_END);
    if (!s->daemon) {
        snprintf(err, err_size, "cannot listen on %s port %u (in use, or not permitted?)",
                 cfg->server.bind, cfg->server.port);
        cbd_watchdog_stop(s->watchdog);
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

bool cbd_server_drain(cbd_server *s) {
    atomic_store(&s->draining, true);
    MHD_socket listen_fd = MHD_quiesce_daemon(s->daemon);
    if (listen_fd != MHD_INVALID_SOCKET) {
        close(listen_fd);
    }
    uint64_t deadline = now_us() + (uint64_t)s->cfg.server.drain_deadline * 1000000u;
    while (atomic_load(&s->metrics.in_flight) > 0) {
        if (now_us() >= deadline) {
            return false;
        }
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return true;
}

void cbd_server_stop(cbd_server *s) {
    if (!s) {
        return;
    }
    /* Workers resume their connections and then touch the daemon no more: wait for them. */
    while (atomic_load(&s->jobs) > 0) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    /* Then the daemon: its connections' CLOSED notifications empty the watchdog's list. */
    MHD_stop_daemon(s->daemon);
    cbd_watchdog_stop(s->watchdog);
    free(s);
}
