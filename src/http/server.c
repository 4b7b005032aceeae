/*
 * The HTTP service's life cycle (server.h) on libmicrohttpd 0.9.75: starting the daemon with
 * every limit set and the threads of our own beside it (the watchdog, the lingerer, the worker
 * pool), and stopping them in the order that lets every admitted request be answered. The
 * request path is request.c's, a connection's connection.c's; per-request state lives only in
 * *con_cls.
 */
#include "server.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "http/ops/access_log.h"
#include "connection.h"
#include "json/json_alloc.h"
#include "http/guards/linger.h"
#include "request.h"
#include "http/ops/request_log.h"
#include "server_internal.h"
#include "http/ops/sysres.h"
#include "worker.h"

/* After an early answer, what the client still sends is read and dropped up to this much and
 * this long before the close (linger.h), for at most LINGER_SOCKETS connections at once. */
#define LINGER_BYTES   (4u * 1024u * 1024u)
#define LINGER_US      (3u * 1000000u)
#define LINGER_SOCKETS 256u

uint64_t cbd_server_deadline_cuts(const cbd_server *s) {
    return cbd_watchdog_cuts(s->watchdog);
}

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
    cbdp_pool_free(s->pool);
    cbdp_scratch_pool_destroy(&s->scratch); /* after the workers: no request holds a block */
    cbd_linger_stop(s->linger);
    cbd_watchdog_stop(s->watchdog);
    cbd_conns_destroy(s->conns); /* after the daemon: every connection has closed */
}

static bool start_helpers(cbd_server *s, const cbd_server_config *cfg, char *err, size_t err_size) {
    uint64_t second = 1000000u;
    s->watchdog = cbd_watchdog_start((uint64_t)cfg->request_deadline * second,
                                     (uint64_t)cfg->send_deadline * second);
    s->linger = cbd_linger_start(LINGER_BYTES, LINGER_US, LINGER_SOCKETS);
    unsigned cpus = cbd_sys_cpu_count(NULL); /* the CPUs this process may use (sysres.h) */
    unsigned workers = cfg->workers ? cfg->workers : cpus > 2 ? cpus : 2u;
    s->pool = cbdp_pool_start(workers, cfg->worker_queue, cfg->worker_share);
    s->conns = cbd_conns_create(cfg->per_ip_connection_limit, cfg->trusted_proxies,
                                cfg->n_trusted_proxies);
    bool scratch = cbdp_scratch_pool_init(&s->scratch, (size_t)cfg->scratch_keep_bytes);
    if (!s->watchdog || !s->linger || !s->pool || !s->conns || !scratch) {
        snprintf(err, err_size, "cannot start the watchdog, lingering or worker threads");
        stop_helpers(s);
        return false;
    }
    return true;
}

/* The daemon, with every limit set: an internal thread pool polling with epoll, and the
 * callbacks of request.h and connection.h. NULL when MHD cannot start it (err says why). */
static struct MHD_Daemon *start_daemon(cbd_server *s, const cbd_server_config *cfg, char *err,
                                       size_t err_size) {
    struct sockaddr_storage addr;
    bool ipv6 = false;
    if (!parse_bind(cfg->bind, (uint16_t)cfg->port, &addr, &ipv6)) {
        snprintf(err, err_size, "bind address \"%s\" is not an IPv4 or IPv6 address", cfg->bind);
        return NULL;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0u);
    unsigned threads = pool_size(cfg);
    /* The per-IP limit is conns.c's (MHD's cannot exempt trusted proxies): MHD's is 0, none. */
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)cfg->port, cbdp_http_on_accept, s, cbdp_http_on_request, s,
        /* First, so that MHD's messages about the options below go through it too. */
        MHD_OPTION_EXTERNAL_LOGGER, cbd_log_mhd_message, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT,
        cfg->connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, 0u,
        MHD_OPTION_CONNECTION_TIMEOUT, cfg->connection_timeout, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)cfg->connection_memory_limit, MHD_OPTION_URI_LOG_CALLBACK, cbdp_http_on_uri, s,
        MHD_OPTION_NOTIFY_COMPLETED, cbdp_http_on_completed, s, MHD_OPTION_NOTIFY_CONNECTION,
        cbdp_http_on_connection, s, MHD_OPTION_END);
    if (!d) {
        snprintf(err, err_size, "cannot listen on %s port %u (in use, or not permitted?)",
                 cfg->bind, cfg->port);
    }
    return d;
}

cbd_server *cbd_server_start(const cbd_server_config *cfg, const cbd_config *api, char *err,
                             size_t err_size) {
    cbd_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "%s", cbd_status_str(CBD_ERR_NOMEM));
        return NULL;
    }
    s->server = *cfg;
    s->api = *api;
    s->answers = (cbd_answer_policy){.server = &s->server, .draining = &s->draining};
    cbd_json_alloc_install();
    /* Answers of megabytes come from mmap and go back to the OS when sent; a computation's
     * large blocks are kept warm in the scratch pool instead (scratch_pool.h). */
    cbdp_malloc_policy_apply();
    cbd_metrics_init(&s->metrics, cbdp_routes);
    atomic_init(&s->draining, false);
    atomic_init(&s->stopping, false);
    atomic_init(&s->jobs_unsent, 0u);
    atomic_init(&s->jobs_cancelled, false);
    atomic_init(&s->job_checks, 0u);
    if (!start_helpers(s, cfg, err, err_size)) {
        free(s);
        return NULL;
    }
    s->daemon = start_daemon(s, cfg, err, err_size);
    if (!s->daemon) {
        stop_helpers(s);
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : (uint16_t)cfg->port;
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
    /* Running jobs stop at their next progress check (within a few ms of CPU) and are refused
     * with a 503 like those still waiting, so that stopping does not wait for a computation;
     * workers resume their connections and then touch the daemon no more; the pool refuses new
     * jobs from here. */
    atomic_store(&s->jobs_cancelled, true);
    cbdp_pool_stop(s->pool);
    wait_for_job_answers(s);
    /* Then the daemon: its connections' CLOSED notifications empty the watchdog's list. */
    MHD_stop_daemon(s->daemon);
    stop_helpers(s);
    free(s);
}

unsigned cbd_server_worker_jobs(const cbd_server *s) {
    return cbdp_pool_jobs(s->pool);
}

uint64_t cbd_server_job_checks(const cbd_server *s) {
    return atomic_load_explicit(&s->job_checks, memory_order_relaxed);
}
