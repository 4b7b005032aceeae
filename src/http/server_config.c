/* The HTTP server's built-in defaults (server_config.h). */
#include "server_config.h"

#include <stdio.h>
#include <string.h>

void cbd_server_config_defaults(cbd_server_config *s) {
    memset(s, 0, sizeof *s);
    snprintf(s->bind, sizeof s->bind, "0.0.0.0");
    s->port = 8080;
    s->threads = 0; /* one per online CPU */
    s->body_limit = 64 * 1024;
    /* The game's largest maps (4,000 territories, 820 bonuses) with 6 players' 1,000 orders are
     * about 1 MB of the game's JSON: twice that fits the maps with long names too, while a
     * battle's body stays held to body_limit. */
    s->board_body_limit = 2 * 1024 * 1024;
    s->connection_timeout = 10;
    s->request_deadline = 15;
    s->connection_limit = 4096;
    /* 256 per address: one client (or bot) can hold at most 1/16 of connection_limit, while a
     * reverse proxy's pool or a load test from one host (wrk -c 64..256) still fits. Behind a
     * proxy that funnels many more clients through one address, raise it or set 0 (none). */
    s->per_ip_connection_limit = 256;
    s->connection_memory_limit = 16 * 1024; /* docs/architecture.md, "Cost of one request" */
    s->drain_deadline = 10;
    s->access_log = true;
    s->n_cors_origins = 0;
    s->drain_delay = 0; /* no lame duck unless asked: a plain SIGTERM drains at once */
    s->n_trusted_proxies = 0;
    /* The worker pool and slow clients: docs/security.md, "Long requests and fairness" and
     * "Deadlines and slow clients". */
    s->workers = 0;
    s->worker_queue = 64;
    s->worker_share = 0;
    s->send_deadline = 30;
    s->scratch_keep_bytes = UINT64_C(128) << 20;
}
