#ifndef COMBATD_API_DIST_JSON_H
#define COMBATD_API_DIST_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "combatd/warapp_odds.h"
#include "combatd/warapp_turn.h"
#include "json/json_write.h"

/*
 * One writer for the distributions the analyses answer with (/analyze-attack's
 * attackers_left and defenders_left, /analyze-turn's armies of each territory), so that both
 * summarise, list and cut a distribution by the same rules. The core keeps them in two forms
 * (dense windows, cbd_windows; a sparse ascending list, cbd_turn_point); the writer reads either
 * through a view.
 */

/* Values below this probability are not listed (their mass is in omitted_probability). */
#define CBD_LISTED_MIN_PROBABILITY 1e-15

typedef struct {
    const void *data;
    size_t n; /* values, ascending */
    uint64_t (*value)(const void *data, size_t i);
    double (*probability)(const void *data, size_t i);
    double mean;
    const char *value_key; /* the listed entries' name for the value: "armies", "health" */
} cbd_dist_view;

/* Where a view of windows is in them: the writer reads values in ascending runs. */
typedef struct {
    const cbd_windows *ws;
    size_t k;    /* the window of the value read last */
    size_t base; /* the index of its first value among all */
} cbd_windows_cursor;

/* Views of the two forms, of armies; they borrow the distribution (and the cursor), which must
 * outlive them. Set value_key to list another quantity. */
cbd_dist_view cbdp_dist_view_windows(const cbd_windows *ws, cbd_windows_cursor *cursor);
cbd_dist_view cbd_dist_view_points(const cbd_turn_point *points, size_t n, double mean);

/*
 * Writes `key: {"mean", "percentiles": {p1 .. p99}, "distribution": [{"armies" (value_key),
 * "probability"}], "omitted_probability"}`. A percentile is the smallest value whose
 * cumulative probability reaches q, less a slack of 1e-12 (as cbd_windows_quantile). Listed are
 * the values of probability >= 1e-15, and when there are more than max_points of them, the run
 * of max_points consecutive listed values that holds the most mass. `idx` is scratch of d->n
 * entries.
 */
void cbd_dist_json(cbd_jw *w, const char *key, const cbd_dist_view *d, uint32_t max_points,
                   size_t *idx);

#endif
