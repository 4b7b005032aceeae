/* Army counts given as distributions (W23); see warapp_fog_json.h. */
#include "warapp_fog_json.h"

#include "api/endpoint_support.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

static const char *const point_keys[] = {"armies", "probability", NULL};

/* A point as read, with its place in the request's array, for sorting. */
typedef struct {
    cbd_warapp_count count;
    size_t at;
} placed_point;

static int by_armies(const void *a, const void *b) {
    uint64_t x = ((const placed_point *)a)->count.armies;
    uint64_t y = ((const placed_point *)b)->count.armies;
    return x < y ? -1 : x > y;
}

/* One point: a count in range and a probability in (0, 1]. */
static bool read_point(const cbd_reader *r, const char *key, size_t i, const cbd_warapp_config *cfg,
                       cbd_warapp_count *out) {
    cbd_reader p;
    if (!cbd_reader_open_item(&p, r, key, i, point_keys)) {
        return false;
    }
    bool ok = true;
    cbd_field armies = cbd_read_u64(&p, "armies", 0, cfg->army_cap, &out->armies);
    if (armies == CBD_FIELD_ABSENT) {
        cbd_reader_error(&p, "armies", "is required");
    }
    ok &= armies == CBD_FIELD_OK;
    const json_t *v = json_object_get(p.obj, "probability");
    double q = json_is_number(v) ? json_number_value(v) : 0.0;
    if (!v) {
        cbd_reader_error(&p, "probability", "is required");
        ok = false;
    } else if (!json_is_number(v) || !(q > 0.0 && q <= 1.0)) {
        cbd_reader_error(&p, "probability", "must be a number greater than 0 and at most 1");
        ok = false;
    }
    out->weight = q;
    return ok;
}

/* The points in ascending order of armies, each with its place in the request's array. */
static bool sort_points(const cbd_reader *r, cbd_fog *out) {
    placed_point *tmp = malloc(out->n * sizeof *tmp);
    if (!tmp) {
        return cbd_api_oom_problem(r->problem);
    }
    for (size_t i = 0; i < out->n; i++) {
        tmp[i] = (placed_point){out->items[i], i};
    }
    qsort(tmp, out->n, sizeof *tmp, by_armies);
    for (size_t i = 0; i < out->n; i++) {
        out->items[i] = tmp[i].count;
        out->at[i] = tmp[i].at;
    }
    free(tmp);
    return true;
}

/* Distinct counts, and weights that sum to 1 within the slack; then normalised. A count given
 * twice is the error of its second place in the request's array (/defenders/3). */
static bool check_points(const cbd_reader *r, const char *key, cbd_fog *out) {
    if (!sort_points(r, out)) {
        return false;
    }
    double sum = 0.0;
    for (size_t i = 0; i < out->n; i++) {
        if (i > 0 && out->items[i].armies == out->items[i - 1].armies) {
            size_t second = out->at[i] > out->at[i - 1] ? out->at[i] : out->at[i - 1];
            size_t first = out->at[i] > out->at[i - 1] ? out->at[i - 1] : out->at[i];
            cbd_reader_item_error(r, key, second,
                                  "lists %" PRIu64
                                  " armies twice (item %zu has them): each count once (W23)",
                                  out->items[i].armies, first);
            return false;
        }
        sum += out->items[i].weight;
    }
    if (fabs(sum - 1.0) > CBD_FOG_SUM_SLACK) {
        cbd_reader_error(r, key,
                         "has probabilities summing to %.15g; they must sum to 1 within 1e-9 (W23)",
                         sum);
        return false;
    }
    for (size_t i = 0; i < out->n; i++) {
        out->items[i].weight /= sum;
    }
    return true;
}

bool cbd_fog_read(const cbd_reader *r, const char *key, const cbd_warapp_config *cfg,
                  cbd_fog *out) {
    out->n = 0;
    out->items = NULL;
    out->at = NULL;
    const json_t *arr;
    if (cbd_read_array(r, key, cfg->max_fog_points, &arr) != CBD_FIELD_OK) {
        return false; /* too many points: the error names the limit */
    }
    size_t n = json_array_size(arr);
    if (n == 0) {
        cbd_reader_error(r, key, "must list at least one count (W23)");
        return false;
    }
    /* The counts, then their places, in one block (cbd_fog_free). */
    out->items = malloc(n * (sizeof *out->items + sizeof *out->at));
    if (!out->items) {
        /* The service's failure, not the request's: a 500 like every other out-of-memory. */
        return cbd_api_oom_problem(r->problem);
    }
    out->at = (size_t *)(void *)(out->items + n);
    out->n = n;
    bool ok = true;
    for (size_t i = 0; i < out->n; i++) {
        ok &= read_point(r, key, i, cfg, &out->items[i]);
    }
    return ok && check_points(r, key, out);
}

void cbd_fog_free(cbd_fog *f) {
    free(f->items);
    f->items = NULL;
    f->at = NULL;
    f->n = 0;
}

void cbd_fog_write(cbd_jw *w, const char *key, const cbd_fog *f) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    for (size_t i = 0; i < f->n; i++) {
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "armies", f->items[i].armies);
        cbd_jw_key_real(w, "probability", f->items[i].weight);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

uint64_t cbd_fog_max(const cbd_fog *f) {
    return f->n ? f->items[f->n - 1].armies : 0;
}
