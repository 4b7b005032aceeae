#ifndef COMBATD_HTTP_METRICS_H
#define COMBATD_HTTP_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Prometheus counters, kept as C11 atomics so the request threads never take a lock.
 * Requests are counted by route and status; latency goes into a fixed-bucket histogram.
 */
#define CBD_METRIC_ROUTES   9  /* CBD_ROUTE_COUNT in router.h */
#define CBD_METRIC_STATUSES 16 /* the statuses the service answers with, plus "other" */
#define CBD_METRIC_BUCKETS  15

typedef struct {
    atomic_uint_fast64_t requests[CBD_METRIC_ROUTES][CBD_METRIC_STATUSES];
    atomic_uint_fast64_t latency_buckets[CBD_METRIC_BUCKETS]; /* cumulative at render time */
    atomic_uint_fast64_t latency_count;
    atomic_uint_fast64_t latency_sum_us;
    atomic_int_fast64_t in_flight;
    atomic_uint_fast64_t bytes_in;
    atomic_uint_fast64_t bytes_out;
} cbd_metrics;

void cbd_metrics_init(cbd_metrics *m);

/* Records a finished request. */
void cbd_metrics_observe(cbd_metrics *m, unsigned route, unsigned status, uint64_t duration_us,
                         uint64_t bytes_in, uint64_t bytes_out);

/* The exposition text (text/plain; version=0.0.4), malloc'd; NULL when out of memory. */
char *cbd_metrics_render(cbd_metrics *m, const char *const *route_names, size_t *len);

#endif
