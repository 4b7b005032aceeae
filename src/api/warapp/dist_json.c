#include "dist_json.h"

/* The window holding the i-th value of all, found from the cursor's window onwards (the
 * writer's passes read ascending), or from the first when i lies before it. */
static const cbd_window *cursor_window(const cbd_windows_cursor *c, size_t i) {
    cbd_windows_cursor *m = (cbd_windows_cursor *)c; /* the caller's own, mutable cursor */
    if (i < m->base) {
        m->k = 0;
        m->base = 0;
    }
    while (i - m->base >= m->ws->w[m->k].len) {
        m->base += m->ws->w[m->k].len;
        m->k++;
    }
    return &m->ws->w[m->k];
}

static uint64_t windows_value(const void *data, size_t i) {
    const cbd_windows_cursor *c = data;
    return cursor_window(c, i)->lo + (i - c->base);
}

static double windows_probability(const void *data, size_t i) {
    const cbd_windows_cursor *c = data;
    return cursor_window(c, i)->s[i - c->base].p;
}

cbd_dist_view cbdp_dist_view_windows(const cbd_windows *ws, cbd_windows_cursor *cursor) {
    cursor->ws = ws;
    cursor->k = 0;
    cursor->base = 0;
    return (cbd_dist_view){
        cursor,  cbd_windows_slots(ws), windows_value, windows_probability, cbd_windows_mean(ws),
        "armies"};
}

static uint64_t point_value(const void *data, size_t i) {
    const cbd_turn_point *p = data;
    return p[i].armies;
}

static double point_probability(const void *data, size_t i) {
    const cbd_turn_point *p = data;
    return p[i].probability;
}

cbd_dist_view cbd_dist_view_points(const cbd_turn_point *points, size_t n, double mean) {
    return (cbd_dist_view){points, n, point_value, point_probability, mean, "armies"};
}

/* The percentiles' levels, ascending, so that one pass over the distribution finds them all. */
static const struct {
    const char *name;
    double q;
} percentile_levels[] = {{"p1", 0.01},  {"p5", 0.05},  {"p10", 0.10}, {"p25", 0.25}, {"p50", 0.50},
                         {"p75", 0.75}, {"p90", 0.90}, {"p95", 0.95}, {"p99", 0.99}};

#define PERCENTILES (sizeof percentile_levels / sizeof percentile_levels[0])

/*
 * Each percentile as cbd_windows_quantile finds it: the first value whose running sum reaches
 * q − 1e-12, else the last value. The running sums are the same for every level, so one pass
 * serves all of them in ascending order (a pass per level cost nine scans of a window of
 * hundreds of thousands of values).
 */
static void percentiles_json(cbd_jw *w, const cbd_dist_view *d) {
    uint64_t at[PERCENTILES];
    size_t k = 0;
    double cum = 0.0;
    for (size_t i = 0; i < d->n && k < PERCENTILES; i++) {
        cum += d->probability(d->data, i);
        while (k < PERCENTILES && cum >= percentile_levels[k].q - 1e-12) {
            at[k++] = d->value(d->data, i);
        }
    }
    while (k < PERCENTILES) {
        at[k++] = d->value(d->data, d->n - 1);
    }
    cbd_jw_key(w, "percentiles");
    cbd_jw_object_open(w);
    for (size_t j = 0; j < PERCENTILES; j++) {
        cbd_jw_key_uint(w, percentile_levels[j].name, at[j]);
    }
    cbd_jw_object_close(w);
}

/* Of the n listed values (indices idx), the first of the run of max_points consecutive ones
 * holding the most mass; 0 when all fit. */
static size_t heaviest_run(const cbd_dist_view *d, const size_t *idx, size_t n,
                           uint32_t max_points) {
    size_t first = 0;
    if (n > max_points) {
        double run = 0.0, best = -1.0;
        for (size_t i = 0; i < n; i++) {
            run += d->probability(d->data, idx[i]);
            if (i >= max_points) {
                run -= d->probability(d->data, idx[i - max_points]);
            }
            if (i + 1 >= max_points && run > best) {
                best = run;
                first = i + 1 - max_points;
            }
        }
    }
    return first;
}

void cbd_dist_json(cbd_jw *w, const char *key, const cbd_dist_view *d, uint32_t max_points,
                   size_t *idx) {
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->probability(d->data, i) >= CBD_LISTED_MIN_PROBABILITY) {
            idx[n++] = i;
        }
    }
    size_t first = heaviest_run(d, idx, n, max_points);
    size_t count = n > max_points ? max_points : n;
    /* The mass not listed, summed directly (1 − listed would report rounding noise). */
    double omitted = 0.0;
    for (size_t i = 0; i < d->n; i++) {
        double p = d->probability(d->data, i);
        omitted += p < CBD_LISTED_MIN_PROBABILITY ? p : 0.0;
    }
    for (size_t j = 0; j < n; j++) {
        omitted += j < first || j >= first + count ? d->probability(d->data, idx[j]) : 0.0;
    }
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    cbd_jw_key_real(w, "mean", d->mean);
    percentiles_json(w, d);
    cbd_jw_key(w, "distribution");
    cbd_jw_array_open(w);
    for (size_t j = first; j < first + count; j++) {
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, d->value_key, d->value(d->data, idx[j]));
        cbd_jw_key_real(w, "probability", d->probability(d->data, idx[j]));
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
    cbd_jw_key_real(w, "omitted_probability", omitted);
    cbd_jw_object_close(w);
}
