#ifndef COMBATD_API_DIST_JSON_H
#define COMBATD_API_DIST_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "combatd/warapp_odds.h"
#include "combatd/warapp_turn.h"
#include "json_write.h"

/*
 * One writer for the distributions the analyses answer with (/analyze-attack's
 * attackers_left and defenders_left, /analyze-turn's armies of each territory), so that both
 * summarise, list and cut a distribution by the same rules. The core keeps them in two forms
 * (a dense window, cbd_dist; a sparse ascending list, cbd_turn_point); the writer reads either
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

/* Views of the two forms, of armies; they borrow the distribution, which must outlive them.
 * Set value_key to list another quantity. */
cbd_dist_view cbd_dist_view_window(const cbd_dist *d);
cbd_dist_view cbd_dist_view_points(const cbd_turn_point *points, size_t n, double mean);

/*
 * Writes `key: {"mean", "percentiles": {p1 .. p99}, "distribution": [{"armies" (value_key),
 * "probability"}], "omitted_probability"}`. A percentile is the smallest value whose
 * cumulative probability reaches q, less a slack of 1e-12 (as cbd_dist_quantile). Listed are
 * the values of probability >= 1e-15, and when there are more than max_points of them, the run
 * of max_points consecutive listed values that holds the most mass. `idx` is scratch of d->n
 * entries.
 */
void cbd_dist_json(cbd_jw *w, const char *key, const cbd_dist_view *d, uint32_t max_points,
                   size_t *idx);

#endif
