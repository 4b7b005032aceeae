#include "metrics.h"

#include "api/mcp/mcp.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned statuses[CBD_METRIC_STATUSES - 1] = {
    200, 204, 400, 403, 404, 405, 408, 413, 415, 422, 429, 500, 501, 503, 504, 304, 202};

/* Upper bounds in microseconds: a game client wants well under a millisecond, so the low end
 * is fine-grained. */
static const uint64_t bucket_bounds_us[CBD_METRIC_BUCKETS] = {
    50,    100,   200,    500,    1000,   2000,    5000,      10000,
    20000, 50000, 100000, 200000, 500000, 1000000, UINT64_MAX};

void cbd_metrics_init(cbd_metrics *m, const cbd_route *routes) {
    memset(m, 0, sizeof *m);
    m->routes = routes;
}

static unsigned status_slot(unsigned status) {
    for (unsigned i = 0; i < CBD_METRIC_STATUSES - 1; i++) {
        if (statuses[i] == status) {
            return i;
        }
    }
    return CBD_METRIC_STATUSES - 1;
}

void cbd_metrics_observe(cbd_metrics *m, unsigned route, unsigned status, uint64_t duration_us,
                         uint64_t bytes_in, uint64_t bytes_out) {
    if (route >= CBD_METRIC_ROUTES) {
        route = CBD_METRIC_ROUTES - 1;
    }
    atomic_fetch_add_explicit(&m->requests[route][status_slot(status)], 1, memory_order_relaxed);
    unsigned b = 0;
    while (duration_us > bucket_bounds_us[b]) {
        b++;
    }
    atomic_fetch_add_explicit(&m->latency_buckets[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->latency_count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->latency_sum_us, duration_us, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->bytes_in, bytes_in, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->bytes_out, bytes_out, memory_order_relaxed);
}

void cbd_metrics_observe_call(cbd_metrics *m, unsigned route, unsigned status) {
    if (route < CBD_METRIC_ROUTES) {
        atomic_fetch_add_explicit(&m->calls[route][status_slot(status)], 1, memory_order_relaxed);
    }
}

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} text_buf;

static void put(text_buf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_buf *t, const char *fmt, ...) {
    if (t->failed) {
        return;
    }
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap * 2 + (size_t)n;
        char *grown = realloc(t->buf, cap);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->buf = grown;
        t->cap = cap;
    }
}

/* The status label of a slot: the status, or "other". */
static void status_label(unsigned slot, char *buf, size_t size) {
    if (slot == CBD_METRIC_STATUSES - 1) {
        snprintf(buf, size, "other");
    } else {
        snprintf(buf, size, "%u", statuses[slot]);
    }
}

/* combatd_mcp_tool_calls_total, labelled by the tool's name (mcp.h) and its endpoint's status. */
static void put_tool_calls(text_buf *t, cbd_metrics *m) {
    put(t, "# HELP combatd_mcp_tool_calls_total MCP tool calls, by tool and the status its "
           "endpoint answered.\n"
           "# TYPE combatd_mcp_tool_calls_total counter\n");
    for (unsigned r = 0; r < CBD_METRIC_ROUTES; r++) {
        char tool[64];
        if (!m->routes[r].api.tool.title ||
            !cbd_mcp_tool_name(m->routes[r].api.path, tool, sizeof tool)) {
            continue;
        }
        for (unsigned slot = 0; slot < CBD_METRIC_STATUSES; slot++) {
            uint64_t v = atomic_load_explicit(&m->calls[r][slot], memory_order_relaxed);
            char status[16];
            status_label(slot, status, sizeof status);
            if (v > 0) {
                put(t, "combatd_mcp_tool_calls_total{tool=\"%s\",status=\"%s\"} %" PRIu64 "\n",
                    tool, status, v);
            }
        }
    }
}

char *cbdp_metrics_render(cbd_metrics *m, size_t *len) {
    text_buf t = {malloc(8192), 0, 8192, false};
    if (!t.buf) {
        return NULL;
    }
    put(&t, "# HELP combatd_requests_total Requests answered, by route and status.\n"
            "# TYPE combatd_requests_total counter\n");
    for (unsigned r = 0; r < CBD_METRIC_ROUTES; r++) {
        for (unsigned s = 0; s < CBD_METRIC_STATUSES; s++) {
            uint64_t v = atomic_load_explicit(&m->requests[r][s], memory_order_relaxed);
            if (v == 0) {
                continue;
            }
            if (s == CBD_METRIC_STATUSES - 1) {
                put(&t, "combatd_requests_total{route=\"%s\",status=\"other\"} %" PRIu64 "\n",
                    m->routes[r].label, (uint64_t)v);
            } else {
                put(&t, "combatd_requests_total{route=\"%s\",status=\"%u\"} %" PRIu64 "\n",
                    m->routes[r].label, statuses[s], (uint64_t)v);
            }
        }
    }
    put(&t, "# HELP combatd_request_duration_seconds Time from request line to response queued.\n"
            "# TYPE combatd_request_duration_seconds histogram\n");
    uint64_t cumulative = 0;
    for (unsigned b = 0; b < CBD_METRIC_BUCKETS; b++) {
        cumulative += atomic_load_explicit(&m->latency_buckets[b], memory_order_relaxed);
        if (bucket_bounds_us[b] == UINT64_MAX) {
            put(&t, "combatd_request_duration_seconds_bucket{le=\"+Inf\"} %" PRIu64 "\n",
                (uint64_t)cumulative);
        } else {
            put(&t, "combatd_request_duration_seconds_bucket{le=\"%g\"} %" PRIu64 "\n",
                (double)bucket_bounds_us[b] / 1e6, (uint64_t)cumulative);
        }
    }
    put(&t, "combatd_request_duration_seconds_sum %.6f\n",
        (double)atomic_load_explicit(&m->latency_sum_us, memory_order_relaxed) / 1e6);
    put(&t, "combatd_request_duration_seconds_count %" PRIu64 "\n",
        (uint64_t)atomic_load_explicit(&m->latency_count, memory_order_relaxed));
    put(&t,
        "# HELP combatd_requests_in_flight Requests being received or answered now.\n"
        "# TYPE combatd_requests_in_flight gauge\n"
        "combatd_requests_in_flight %" PRId64 "\n",
        (int64_t)atomic_load_explicit(&m->in_flight, memory_order_relaxed));
    put(&t,
        "# HELP combatd_request_bytes_total Request body bytes received.\n"
        "# TYPE combatd_request_bytes_total counter\n"
        "combatd_request_bytes_total %" PRIu64 "\n",
        (uint64_t)atomic_load_explicit(&m->bytes_in, memory_order_relaxed));
    put(&t,
        "# HELP combatd_response_bytes_total Response body bytes sent.\n"
        "# TYPE combatd_response_bytes_total counter\n"
        "combatd_response_bytes_total %" PRIu64 "\n",
        (uint64_t)atomic_load_explicit(&m->bytes_out, memory_order_relaxed));
    put(&t,
        "# HELP combatd_requests_handed_to_workers_total Requests that spent the inline work "
        "budget on an HTTP thread and started over on a worker.\n"
        "# TYPE combatd_requests_handed_to_workers_total counter\n"
        "combatd_requests_handed_to_workers_total %" PRIu64 "\n",
        (uint64_t)atomic_load_explicit(&m->handed_to_workers, memory_order_relaxed));
    put(&t,
        "# HELP combatd_requests_abandoned_total Requests whose computation stopped because "
        "their client closed its connection; nothing was sent.\n"
        "# TYPE combatd_requests_abandoned_total counter\n"
        "combatd_requests_abandoned_total %" PRIu64 "\n",
        (uint64_t)atomic_load_explicit(&m->abandoned, memory_order_relaxed));
    put(&t,
        "# HELP combatd_scratch_kept_bytes Computation memory kept warm between requests "
        "(server.scratch_keep_bytes at most).\n"
        "# TYPE combatd_scratch_kept_bytes gauge\n"
        "combatd_scratch_kept_bytes %" PRIu64 "\n"
        "# HELP combatd_scratch_fresh_bytes_total Bytes of large computation blocks taken new "
        "from the system (their pages fault in when first touched).\n"
        "# TYPE combatd_scratch_fresh_bytes_total counter\n"
        "combatd_scratch_fresh_bytes_total %" PRIu64 "\n"
        "# HELP combatd_scratch_reused_bytes_total Bytes of large computation blocks served "
        "warm from kept memory.\n"
        "# TYPE combatd_scratch_reused_bytes_total counter\n"
        "combatd_scratch_reused_bytes_total %" PRIu64 "\n",
        (uint64_t)atomic_load_explicit(&m->scratch_kept, memory_order_relaxed),
        (uint64_t)atomic_load_explicit(&m->scratch_fresh, memory_order_relaxed),
        (uint64_t)atomic_load_explicit(&m->scratch_reused, memory_order_relaxed));
    put_tool_calls(&t, m);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    *len = t.len;
    return t.buf;
}
