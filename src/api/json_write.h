#ifndef COMBATD_API_JSON_WRITE_H
#define COMBATD_API_JSON_WRITE_H

#include <stddef.h>

#include <jansson.h>

/*
 * Compact JSON text for a jansson value, byte for byte what json_dumps(JSON_COMPACT |
 * JSON_REAL_PRECISION(15)) prints, at a fraction of its cost: json_dumps formats every number
 * through the locale-aware printf family and grows its buffer in small steps, which a profile
 * under load showed as the largest single cost of a small request.
 *
 * Reals print with 15 significant digits (0.1 as 0.1, not 0.10000000000000001), always with a
 * '.' or an exponent so that they read back as reals. Returns malloc'd text (free with free())
 * and its length, or NULL when out of memory.
 */
char *cbd_json_write(const json_t *value, size_t *len);

#endif
