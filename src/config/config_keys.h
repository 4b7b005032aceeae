#ifndef COMBATD_CONFIG_CONFIG_KEYS_H
#define COMBATD_CONFIG_CONFIG_KEYS_H

/*
 * One row per config key (name, type, where it is stored, its range), read by the file, the
 * environment and the flags alike: every key is written through its row's offset and size,
 * so a section's keys are described once and a new key is one row (config.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json_reader.h"
#include "json/problem.h"

typedef enum {
    CBD_KEY_UINT,    /* uint32_t or uint64_t (by size) in [min, max] */
    CBD_KEY_DECIMAL, /* cbd_micro: a decimal with at most 6 places (W3), millionths in [min, max] */
    CBD_KEY_BOOL,    /* bool */
    CBD_KEY_STRING,  /* char[size]: a non-empty string of at most size - 1 bytes */
    CBD_KEY_ORIGINS, /* cbd_server_config's CORS list and its count: the row's offset is the
                       cbd_server_config's (server_config.h) */
    CBD_KEY_NETS     /* cbd_server_config's trusted_proxies (addresses or CIDR ranges,
                        net_ranges.h) and their count: the row's offset as for ORIGINS */
} cbd_key_type;

typedef struct {
    const char *name;
    cbd_key_type type;
    size_t offset; /* in the section's struct */
    size_t size;   /* of the field */
    uint64_t min, max;
} cbd_config_key;

/* A row for member `field` of struct `st`. */
#define CBD_CONFIG_KEY(st, field, type, lo, hi)                                                    \
    { #field, type, offsetof(st, field), sizeof(((st *)0)->field), lo, hi }

/* Sets key `k` of the section at `base` from text (a flag or an environment variable);
 * `source` names it in the error. Returns false with a field error recorded. */
bool cbdp_config_key_set_text(const cbd_config_key *k, void *base, const char *value,
                              const char *source, cbd_problem *problem);

/* Reads every key of `keys` present in the open object `r` into the section at `base`; errors
 * name the member's pointer. Returns false when an error was recorded. */
bool cbdp_config_keys_read(const cbd_reader *r, const cbd_config_key *keys, size_t n, void *base);

#endif
