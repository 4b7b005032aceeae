#ifndef COMBATD_API_WARAPP_FOG_JSON_H
#define COMBATD_API_WARAPP_FOG_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "combatd/warapp_odds.h"
#include "api/api_config.h"
#include "json/json_reader.h"
#include "json/json_write.h"

/*
 * Fog (W23): a count of armies the caller does not know, given as a distribution instead of a
 * whole number: [{"armies": 3, "probability": 0.25}, {"armies": 5, "probability": 0.75}].
 * Counts are distinct, each from 0 to the army cap, each probability in (0, 1], their sum 1
 * within 1e-9; at most warapp.max_fog_points of them. They are normalised (divided by their
 * sum) and kept in ascending order of armies.
 */
#define CBD_FOG_SUM_SLACK 1e-9

typedef struct {
    size_t n;                /* 0: not a distribution */
    cbd_warapp_count *items; /* malloc'd, n entries; free with cbd_fog_free */
    size_t *at;              /* at[i]: items[i]'s index in the request's array (same block) */
} cbd_fog;

/*
 * Whether member `key` of r is a distribution (an array). Reads it into *out when it is:
 * returns false with a field error for each problem (`/defenders/2/probability`).
 */
bool cbd_fog_read(const cbd_reader *r, const char *key, const cbd_warapp_config *cfg, cbd_fog *out);

void cbd_fog_free(cbd_fog *f);

/* The distribution as the answer echoes it: `key: [{"armies", "probability"}, ...]`. */
void cbd_fog_write(cbd_jw *w, const char *key, const cbd_fog *f);

/* The largest count of a distribution. */
uint64_t cbd_fog_max(const cbd_fog *f);

#endif
