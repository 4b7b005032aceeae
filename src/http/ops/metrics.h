#ifndef COMBATD_HTTP_METRICS_H
#define COMBATD_HTTP_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "http/router.h"

/*
 * Prometheus counters, kept as C11 atomics so the request threads never take a lock.
 * Requests are counted by route and status; latency goes into a fixed-bucket histogram.
 */
#define CBD_METRIC_ROUTES   CBD_ROUTE_COUNT /* one row per route of router.h, with "other" */
#define CBD_METRIC_STATUSES 18 /* the statuses the service answers with, plus "other" */
#define CBD_METRIC_BUCKETS  15

typedef struct {
    atomic_uint_fast64_t requests[CBD_METRIC_ROUTES][CBD_METRIC_STATUSES];
    atomic_uint_fast64_t latency_buckets[CBD_METRIC_BUCKETS]; /* cumulative at render time */
    atomic_uint_fast64_t latency_count;
    atomic_uint_fast64_t latency_sum_us;
    atomic_int_fast64_t in_flight;
    atomic_uint_fast64_t bytes_in;
    atomic_uint_fast64_t bytes_out;
    atomic_uint_fast64_t handed_to_workers; /* spent server.inline_work_us; started over */
    atomic_uint_fast64_t abandoned;         /* a worker's job stopped: its client had gone */
    /* Warm memory (scratch_pool.h): bytes kept between requests now, and the bytes of large
     * blocks requests took new from the system or from what was kept. */
    atomic_uint_fast64_t scratch_kept, scratch_fresh, scratch_reused;
    /* Calls of a route's handler from inside another's (a /mcp tools/call of a tool), by the
     * route called and the status it answered (a tool error's 422 too, though it travels in a
     * 200): combatd_mcp_tool_calls_total{tool,status}. */
    atomic_uint_fast64_t calls[CBD_METRIC_ROUTES][CBD_METRIC_STATUSES];
    /* The CBD_ROUTE_COUNT routes whose labels and tool names the rows carry (cbdp_routes),
     * given by the server so that the counters do not depend on the route table's file. */
    const cbd_route *routes;
} cbd_metrics;

/* Zeroes the counters of the rows of `routes` (CBD_ROUTE_COUNT of them, cbdp_routes). */
void cbd_metrics_init(cbd_metrics *m, const cbd_route *routes);

/* Records a finished request. */
void cbd_metrics_observe(cbd_metrics *m, unsigned route, unsigned status, uint64_t duration_us,
                         uint64_t bytes_in, uint64_t bytes_out);

/* Records a call of `route`'s handler from inside another request, and the status it
 * answered. */
void cbd_metrics_observe_call(cbd_metrics *m, unsigned route, unsigned status);

/* The exposition text (text/plain; version=0.0.4), malloc'd; NULL when out of memory. Routes
 * are labelled by their row's label (m->routes). */
char *cbdp_metrics_render(cbd_metrics *m, size_t *len);

#endif
