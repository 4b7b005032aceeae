#ifndef COMBATD_HTTP_SERVER_CONFIG_H
#define COMBATD_HTTP_SERVER_CONFIG_H

/*
 * The HTTP server's configuration: the keys of the config file's "server" section that the
 * daemon reads (listening, threads, connections, the worker pool, deadlines of slow clients,
 * proxies). The limits one request is held to, keys of the same section, are the api's
 * (cbd_request_limits, api_config.h). The loader (src/config/) fills both.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http/guards/net_ranges.h"

#define CBD_MAX_CORS_ORIGINS    16
#define CBD_MAX_TRUSTED_PROXIES 32

typedef struct {
    char bind[64];                    /* "0.0.0.0", "127.0.0.1", "::" ... */
    uint32_t port;                    /* 0 = any free port */
    uint32_t threads;                 /* MHD thread pool size */
    uint64_t body_limit;              /* bytes: a battle endpoint's body */
    uint64_t board_body_limit;        /* bytes: a map endpoint's body (endpoints.h) */
    uint32_t connection_timeout;      /* seconds of inactivity */
    uint32_t request_deadline;        /* seconds, absolute, per request */
    uint32_t connection_limit;        /* open connections in all */
    uint32_t per_ip_connection_limit; /* open connections per client address */
    uint64_t connection_memory_limit; /* bytes of MHD memory per connection */
    uint32_t drain_deadline;          /* seconds to finish in-flight requests on SIGTERM */
    bool access_log;                  /* one JSON line per request on stderr */
    /* The worker pool and slow clients (the limits of one request are the api's). */
    uint32_t workers;            /* worker threads; 0 = one per online CPU, at least 2 */
    uint32_t worker_queue;       /* requests that may wait for a worker, beyond those running */
    uint32_t worker_share;       /* running + waiting per client address; 0 = max(1, workers/4) */
    uint32_t send_deadline;      /* seconds a client may take to read one answer */
    uint64_t scratch_keep_bytes; /* computation memory kept warm between requests (bytes) */
    size_t n_cors_origins;
    char cors_origins[CBD_MAX_CORS_ORIGINS][128]; /* "*" allows any origin */
    /* Restarts and proxies. */
    uint32_t drain_delay; /* seconds of lame duck on SIGTERM: /readyz 503, still serving */
    size_t n_trusted_proxies;
    cbd_net_range trusted_proxies[CBD_MAX_TRUSTED_PROXIES]; /* no per-IP limit; XFF believed */
} cbd_server_config;

/* The built-in defaults. */
void cbd_server_config_defaults(cbd_server_config *s);

#endif
