#ifndef COMBATD_HTTP_SERVER_INTERNAL_H
#define COMBATD_HTTP_SERVER_INTERNAL_H

/*
 * The shared header of src/http/: what the files of the HTTP service share (server.c,
 * request.c, connection.c, offload.c, drain.c, the guards and the operations): the server
 * handle and the state of one request. Nothing outside src/http includes this.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <microhttpd.h>

#include "api/api.h"
#include "http/guards/body.h"
#include "http/guards/framing.h"
#include "server_config.h"
#include "http/guards/conns.h"
#include "http/ops/metrics.h"
#include "response.h"
#include "router.h"
#include "server.h"
#include "http/guards/watchdog.h"
#include "scratch_pool.h"
#include "worker.h"

/* Copies at most `len` bytes of `src`, cut to fit `size` with its NUL: the request path's copies
 * of a method, a path or an address into a request's fixed fields (snprintf's "%s" parses its
 * format on every call, and these run several times a request). */
static inline void cbdp_copy_text(char *dst, size_t size, const char *src, size_t len) {
    if (len >= size) {
        len = size - 1;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* cbdp_copy_text of a NUL-terminated `src`; only the first size - 1 bytes are looked at. */
static inline void cbdp_copy_str(char *dst, size_t size, const char *src) {
    cbdp_copy_text(dst, size, src, strnlen(src, size - 1));
}

struct cbd_server {
    struct MHD_Daemon *daemon;
    cbd_server_config server;  /* the daemon's configuration (server_config.h) */
    cbd_config api;            /* the endpoints' (api_config.h) */
    cbd_answer_policy answers; /* server's CORS origins and `draining`, for every answer */
    cbd_metrics metrics;
    atomic_bool draining;
    atomic_bool stopping; /* cbd_server_stop has begun: what closes now closes for it */
    cbd_pool *pool;       /* long requests' worker threads (worker.h) */
    /* Requests admitted to the pool whose completion has not come: each is answered before
     * the daemon stops (cbd_server_stop), not closed with its answer unsent. */
    atomic_uint jobs_unsent;
    /* Running jobs stop at their next progress check and are refused with a 503: set when the
     * drain's deadline is near and when stopping begins (drain.c, server.c). */
    atomic_bool jobs_cancelled;
    atomic_uint_fast64_t job_checks; /* the jobs' progress checks (cbd_server_job_checks) */
    uint16_t port;

    cbd_watchdog *watchdog;    /* the request and send deadlines (watchdog.h) */
    struct cbd_linger *linger; /* gentle closes after early answers (linger.h) */
    /* Restarts and proxies: open connections (conns.h), what the drain did. */
    cbd_conns *conns;
    cbd_drain_stats drain;
    cbd_scratch_pool scratch; /* warm memory kept between requests (scratch_pool.h) */
};

/* What computing a request's answer cost, over its tries (compute.h), for the access log. */
typedef struct {
    bool computed;     /* a computation ran: the fields below mean something */
    uint64_t work;     /* work units spent (budget.h) */
    uint64_t mem_peak; /* bytes the core held at once, the most of any try */
    uint64_t faults;   /* minor page faults of the threads that computed it */
} cbd_http_cost;

/* How a job's computation ended, as its progress check saw it (offload.c). */
typedef enum {
    CBD_JOB_RAN,       /* to its end, or to the answer deadline */
    CBD_JOB_ABANDONED, /* its client closed the connection: nothing is sent */
    CBD_JOB_STOPPED,   /* the server is stopping: refused with a 503 */
} cbd_job_end;

/* Everything a request owns, from its request line to its completion callback. */
struct cbd_http_request {
    uint64_t start_us;
    bool started;        /* the access handler has seen this request */
    cbd_framing_uri uri; /* the raw target, as the URI log callback saw it (framing.h) */
    const cbd_route *route;
    char method[16];
    char path[256];
    cbd_answer answer; /* its id, and what its answer's queuing recorded (response.h) */
    cbd_body body;
    /* A long request computed on a worker thread while the connection is suspended. */
    uint64_t in_us; /* when the whole request was in: server.answer_deadline counts from it */
    bool job_started;
    cbd_api_reply job_reply;
    cbd_api_request job_req;
    cbd_job job; /* its pool job: the address whose share it counts against (offload.c) */
    cbd_job_end job_end;
    int job_fd; /* the connection's socket, peeked at by the job (-1: not known) */
    struct MHD_Connection *con;
    cbd_server *server;
    char client[CBD_NET_ADDR_TEXT]; /* the peer, or who a trusted proxy forwarded for */
    bool refused;                   /* over the per-IP limit: answered 503 (conns.h) */
    /* The route whose handler the request ran inside its own (a /mcp tools/call's tool), or
     * NULL; the status it answered is answer.call_status. */
    const cbd_route *called;
    cbd_http_cost cost;
};

static inline uint64_t cbd_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

#endif
