/* Config keys written through their rows (config_keys.h). */
#include "config_keys.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static void *field_of(const cbd_config_key *k, void *base) {
    return (char *)base + k->offset;
}

static void store_uint(const cbd_config_key *k, void *base, uint64_t v) {
    if (k->size == sizeof(uint32_t)) {
        *(uint32_t *)field_of(k, base) = (uint32_t)v;
    } else {
        *(uint64_t *)field_of(k, base) = v;
    }
}

static void store_string(const cbd_config_key *k, void *base, const char *value, size_t len) {
    char *field = field_of(k, base);
    memcpy(field, value, len);
    field[len] = '\0';
}

/* The CORS list: see CBD_KEY_ORIGINS. */
static bool add_origin(cbd_server_config *s, const char *origin, size_t len) {
    if (len == 0 || len >= sizeof s->cors_origins[0] || s->n_cors_origins == CBD_MAX_CORS_ORIGINS) {
        return false;
    }
    memcpy(s->cors_origins[s->n_cors_origins], origin, len);
    s->cors_origins[s->n_cors_origins][len] = '\0';
    s->n_cors_origins++;
    return true;
}

static bool set_origins_text(cbd_server_config *s, const char *value, const char *source,
                             cbd_problem *problem) {
    s->n_cors_origins = 0;
    const char *start = value;
    while (*start) {
        const char *end = strchr(start, ',');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        if (!add_origin(s, start, len)) {
            cbd_problem_field(problem, source,
                              "must be a comma-separated list of at most %d origins",
                              CBD_MAX_CORS_ORIGINS);
            return false;
        }
        start += len + (end ? 1 : 0);
    }
    return true;
}

/* ---- trusted_proxies: see CBD_KEY_NETS ---- */

#define NETS_RULE                                                                                  \
    "must be addresses or CIDR ranges such as \"10.0.0.0/8\", \"192.0.2.7\" or \"fd00::/8\" "      \
    "(no bits set past the prefix), at most 32"

static bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

/* Adds the comma-separated ranges of `text` (len bytes); false on a bad one or too many. */
static bool add_nets(cbd_server_config *s, const char *text, size_t len) {
    size_t start = 0;
    while (start <= len) {
        const char *comma = memchr(text + start, ',', len - start);
        size_t end = comma ? (size_t)(comma - text) : len, a = start, b = end;
        while (a < b && is_blank(text[a])) {
            a++;
        }
        while (b > a && is_blank(text[b - 1])) {
            b--;
        }
        if (s->n_trusted_proxies == CBD_MAX_TRUSTED_PROXIES ||
            !cbd_net_range_parse(text + a, b - a, &s->trusted_proxies[s->n_trusted_proxies])) {
            return false;
        }
        s->n_trusted_proxies++;
        start = end + 1;
    }
    return true;
}

static bool set_nets_text(cbd_server_config *s, const char *value, const char *source,
                          cbd_problem *problem) {
    s->n_trusted_proxies = 0;
    if (value[0] != '\0' && !add_nets(s, value, strlen(value))) {
        cbd_problem_field(problem, source, NETS_RULE ", not \"%s\"", value);
        return false;
    }
    return true;
}

/* A JSON array of strings, or one string with commas as in the environment. */
static void read_nets(const cbd_reader *r, const cbd_config_key *k, cbd_server_config *s) {
    const json_t *v = json_object_get(r->obj, k->name);
    if (!v) {
        return;
    }
    s->n_trusted_proxies = 0;
    if (json_is_string(v)) {
        if (json_string_length(v) > 0 &&
            !add_nets(s, json_string_value(v), json_string_length(v))) {
            cbd_reader_error(r, k->name, NETS_RULE);
        }
        return;
    }
    const json_t *arr;
    if (cbd_read_array(r, k->name, CBD_MAX_TRUSTED_PROXIES, &arr) != CBD_FIELD_OK) {
        return;
    }
    for (size_t j = 0; j < json_array_size(arr); j++) {
        const json_t *o = json_array_get(arr, j);
        if (!json_is_string(o) || strchr(json_string_value(o), ',') ||
            !add_nets(s, json_string_value(o), json_string_length(o))) {
            cbd_reader_item_error(r, k->name, j,
                                  "must be an address or CIDR range such as \"10.0.0.0/8\" or "
                                  "\"fd00::/8\", with no bits set past the prefix");
        }
    }
}

static bool set_uint_text(const cbd_config_key *k, void *base, const char *value,
                          const char *source, cbd_problem *problem) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (!isdigit((unsigned char)value[0]) || *end != '\0' || errno != 0 || v < k->min ||
        v > k->max) {
        cbd_problem_field(problem, source,
                          "must be a whole number from %" PRIu64 " to %" PRIu64 ", not \"%s\"",
                          k->min, k->max, value);
        return false;
    }
    store_uint(k, base, (uint64_t)v);
    return true;
}

/* A decimal with at most 6 places (W3): "2.5" is 2500000 millionths. */
static bool set_decimal_text(const cbd_config_key *k, void *base, const char *value,
                             const char *source, cbd_problem *problem) {
    char *end;
    errno = 0;
    double d = strtod(value, &end);
    cbd_micro m = 0;
    if (!isdigit((unsigned char)value[0]) || *end != '\0' || errno != 0 ||
        !cbd_micro_from_double_in(d, (cbd_micro)k->max, &m) || m < k->min) {
        cbd_problem_field(problem, source,
                          "must be a number from %g to %g with at most 6 decimal places (W3), "
                          "not \"%s\"",
                          cbd_micro_to_double((cbd_micro)k->min),
                          cbd_micro_to_double((cbd_micro)k->max), value);
        return false;
    }
    *(cbd_micro *)field_of(k, base) = m;
    return true;
}

bool cbdp_config_key_set_text(const cbd_config_key *k, void *base, const char *value,
                              const char *source, cbd_problem *problem) {
    switch (k->type) {
        case CBD_KEY_DECIMAL:
            return set_decimal_text(k, base, value, source, problem);
        case CBD_KEY_STRING:
            if (value[0] == '\0' || strlen(value) >= k->size) {
                cbd_problem_field(problem, source,
                                  "must be a non-empty string of at most %zu bytes", k->size - 1);
                return false;
            }
            store_string(k, base, value, strlen(value));
            return true;
        case CBD_KEY_BOOL: {
            bool *field = field_of(k, base);
            if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0) {
                *field = true;
            } else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0) {
                *field = false;
            } else {
                cbd_problem_field(problem, source, "must be true or false, not \"%s\"", value);
                return false;
            }
            return true;
        }
        case CBD_KEY_ORIGINS:
            return set_origins_text(field_of(k, base), value, source, problem);
        case CBD_KEY_NETS:
            return set_nets_text(field_of(k, base), value, source, problem);
        case CBD_KEY_UINT:
            return set_uint_text(k, base, value, source, problem);
    }
    return false;
}

static void read_origins(const cbd_reader *r, const cbd_config_key *k, cbd_server_config *s) {
    const json_t *arr;
    if (cbd_read_array(r, k->name, CBD_MAX_CORS_ORIGINS, &arr) != CBD_FIELD_OK) {
        return;
    }
    s->n_cors_origins = 0;
    for (size_t j = 0; j < json_array_size(arr); j++) {
        const json_t *o = json_array_get(arr, j);
        if (!json_is_string(o) || !add_origin(s, json_string_value(o), json_string_length(o))) {
            cbd_reader_item_error(r, k->name, j,
                                  "must be an origin such as \"https://example.org\" or \"*\", of "
                                  "at most 127 bytes");
        }
    }
}

static void read_key(const cbd_reader *r, const cbd_config_key *k, void *base) {
    uint64_t v;
    const char *str;
    cbd_micro m;
    switch (k->type) {
        case CBD_KEY_DECIMAL:
            if (cbd_read_decimal(r, k->name, (cbd_micro)k->max, &m) == CBD_FIELD_OK) {
                if (m < k->min) {
                    cbd_reader_error(r, k->name, "must be at least %g",
                                     cbd_micro_to_double((cbd_micro)k->min));
                } else {
                    *(cbd_micro *)field_of(k, base) = m;
                }
            }
            break;
        case CBD_KEY_UINT:
            if (cbd_read_u64(r, k->name, k->min, k->max, &v) == CBD_FIELD_OK) {
                store_uint(k, base, v);
            }
            break;
        case CBD_KEY_BOOL:
            (void)cbd_read_bool(r, k->name, (bool *)field_of(k, base));
            break;
        case CBD_KEY_STRING:
            if (cbd_read_string(r, k->name, k->size - 1, &str) == CBD_FIELD_OK) {
                store_string(k, base, str, strlen(str));
            }
            break;
        case CBD_KEY_ORIGINS:
            read_origins(r, k, field_of(k, base));
            break;
        case CBD_KEY_NETS:
            read_nets(r, k, field_of(k, base));
            break;
    }
}

bool cbdp_config_keys_read(const cbd_reader *r, const cbd_config_key *keys, size_t n, void *base) {
    size_t before = r->problem->n_errors + r->problem->n_dropped;
    for (size_t i = 0; i < n; i++) {
        read_key(r, &keys[i], base);
    }
    return r->problem->n_errors + r->problem->n_dropped == before;
}
