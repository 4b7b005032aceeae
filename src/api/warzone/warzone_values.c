/*
 * The game's scalars, as its two JSON dialects write them (W41): numbers as JSON numbers or as
 * numeric strings ("7"), absent parts as the string "null", booleans as "True"/"False" (the
 * bot API's .NET serialiser), and armies as a string that may carry special units
 * ("5|cmdr,<guid>,<owner id>": a Commander, W21).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warzone_internal.h"

bool cbdp_wz_absent(const json_t *v) {
    return !v || json_is_null(v) ||
           (json_is_string(v) && strcmp(json_string_value(v), "null") == 0);
}

/* The digits of s[0..n) as a number at most max; false on anything else or past max. */
static bool digits_value(const char *s, size_t n, uint64_t max, uint64_t *out) {
    uint64_t v = 0;
    if (n == 0 || n > 19) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > max) {
        return false;
    }
    *out = v;
    return true;
}

cbd_field cbdp_wz_uint(const cbd_reader *r, const char *key, uint64_t max, uint64_t *out) {
    const json_t *v = cbd_reader_member(r, key);
    if (cbdp_wz_absent(v)) {
        return CBD_FIELD_ABSENT;
    }
    if (json_is_integer(v) && json_integer_value(v) >= 0 &&
        (uint64_t)json_integer_value(v) <= max) {
        *out = (uint64_t)json_integer_value(v);
        return CBD_FIELD_OK;
    }
    const char *s = json_string_value(v);
    if (s && digits_value(s, strlen(s), max, out)) {
        return CBD_FIELD_OK;
    }
    char was[64];
    cbd_reader_error(
        r, key, "must be a whole number from 0 to %" PRIu64 " (or its digits as a string), not %s",
        max, cbd_json_value_text(v, was, sizeof was));
    return CBD_FIELD_BAD;
}

cbd_field cbdp_wz_int(const cbd_reader *r, const char *key, int64_t min, int64_t max,
                      int64_t *out) {
    const json_t *v = cbd_reader_member(r, key);
    if (cbdp_wz_absent(v)) {
        return CBD_FIELD_ABSENT;
    }
    const char *s = json_string_value(v);
    size_t sign = s && (s[0] == '-' || s[0] == '+');
    uint64_t m = 0;
    bool read = json_is_integer(v);
    int64_t n = read ? json_integer_value(v) : 0;
    if (!read && s && digits_value(s + sign, strlen(s + sign), (uint64_t)INT64_MAX, &m)) {
        n = s[0] == '-' ? -(int64_t)m : (int64_t)m;
        read = true;
    }
    if (read && n >= min && n <= max) {
        *out = n;
        return CBD_FIELD_OK;
    }
    char was[64];
    cbd_reader_error(r, key,
                     "must be a whole number from %" PRId64 " to %" PRId64
                     " (or its digits as a string), not %s",
                     min, max, cbd_json_value_text(v, was, sizeof was));
    return CBD_FIELD_BAD;
}

cbd_field cbdp_wz_bool(const cbd_reader *r, const char *key, bool *out) {
    const json_t *v = cbd_reader_member(r, key);
    if (cbdp_wz_absent(v)) {
        return CBD_FIELD_ABSENT;
    }
    const char *s = json_string_value(v);
    if (json_is_boolean(v) || (s && (strcasecmp(s, "true") == 0 || strcasecmp(s, "false") == 0))) {
        *out = json_is_boolean(v) ? json_is_true(v) : strcasecmp(s, "true") == 0;
        return CBD_FIELD_OK;
    }
    cbd_reader_error(r, key, "must be true or false (or \"True\"/\"False\")");
    return CBD_FIELD_BAD;
}

/* The game's decimal text: digits, then a '.' and digits or nothing ("0.16", "60"), read as the
 * double the same number in JSON would be, so that a number and its text get one answer. */
static bool decimal_text(const char *s, double *out) {
    size_t whole = strspn(s, "0123456789");
    size_t frac = s[whole] == '.' ? strspn(s + whole + 1, "0123456789") : 0;
    size_t n = whole + (s[whole] == '.' ? 1 + frac : 0);
    if (whole == 0 || (s[whole] == '.' && frac == 0) || s[n] != '\0' || n > 40) {
        return false;
    }
    *out = strtod(s, NULL);
    return true;
}

cbd_field cbdp_wz_decimal(const cbd_reader *r, const char *key, int shift, cbd_micro max,
                          cbd_micro *out) {
    const json_t *v = cbd_reader_member(r, key);
    if (cbdp_wz_absent(v)) {
        return CBD_FIELD_ABSENT;
    }
    /* millionths = value * 10^(6 + shift): the value read with 6 + shift places, by the one
     * reader of W3 and W46 that every endpoint uses (a kill rate in percents has 4). */
    unsigned places = (unsigned)(6 + shift);
    double d = -1.0;
    uint64_t m = 0;
    bool number =
        json_is_number(v) || (json_is_string(v) && decimal_text(json_string_value(v), &d));
    if (json_is_number(v)) {
        d = json_number_value(v);
    }
    if (number && cbd_units_from_double(d, places, max, &m)) {
        *out = (cbd_micro)m;
        return CBD_FIELD_OK;
    }
    char was[64];
    cbd_reader_error(r, key,
                     "must be a number from 0 to %g with at most %u decimal places (W3), not %s",
                     (double)max / 1e6 * (shift == -2 ? 100.0 : 1.0), places,
                     cbd_json_value_text(v, was, sizeof was));
    return CBD_FIELD_BAD;
}

bool cbdp_wz_id_text(const json_t *v, char out[CBDP_WZ_ID_MAX]) {
    if (json_is_integer(v)) {
        snprintf(out, CBDP_WZ_ID_MAX, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return true;
    }
    const char *s = json_string_value(v);
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n >= CBDP_WZ_ID_MAX || strcmp(s, "null") == 0) {
        return false;
    }
    for (size_t i = 0; i < n; i++) { /* combatd's ids must be safe member names */
        if ((unsigned char)s[i] < 0x20 || s[i] == '"' || s[i] == '\\') {
            return false;
        }
    }
    memcpy(out, s, n + 1);
    return true;
}

bool cbdp_wz_read_id(const cbd_reader *r, const char *key, char out[CBDP_WZ_ID_MAX]) {
    if (cbdp_wz_id_text(cbd_reader_member(r, key), out)) {
        return true;
    }
    const json_t *v = cbd_reader_member(r, key);
    char was[64];
    if (cbdp_wz_absent(v)) {
        cbd_reader_error(r, key,
                         "is required: an id (a whole number, or a string of 1 to %d bytes)",
                         CBDP_WZ_ID_MAX - 1);
    } else {
        cbd_reader_error(r, key,
                         "must be an id (a whole number, or a string of 1 to %d bytes), not %s",
                         CBDP_WZ_ID_MAX - 1, cbd_json_value_text(v, was, sizeof was));
    }
    return false;
}

/* One special unit "cmdr,<guid>,<owner>" of s[0..n) appended to *list (W21). */
static bool read_unit(const char *s, size_t n, json_t **list) {
    const char *c1 = memchr(s, ',', n);
    const char *c2 = c1 ? memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - s)) : NULL;
    if (!c2 || (size_t)(c1 - s) != 4 || memcmp(s, "cmdr", 4) != 0 || c2 == c1 + 1 ||
        c2 + 1 == s + n || (size_t)(c2 - c1 - 1) > CBDP_WZ_GUID_MAX) {
        return false;
    }
    if (!*list && !(*list = json_array())) {
        return false;
    }
    json_t *u = json_pack("{s:s%,s:s%}", "id", c1 + 1, (size_t)(c2 - c1 - 1), "owner", c2 + 1,
                          (size_t)(s + n - c2 - 1));
    return u && json_array_append_new(*list, u) == 0;
}

/* The army string s: digits, then "|unit" parts. */
static bool armies_text(const char *s, uint64_t cap, cbdp_wz_armies *out) {
    const char *bar = strchr(s, '|');
    size_t n = bar ? (size_t)(bar - s) : strlen(s);
    if (!digits_value(s, n, cap, &out->armies)) {
        return false;
    }
    while (bar) {
        const char *next = strchr(bar + 1, '|');
        size_t len = next ? (size_t)(next - bar - 1) : strlen(bar + 1);
        if (!read_unit(bar + 1, len, &out->commanders)) {
            return false;
        }
        bar = next;
    }
    return true;
}

bool cbdp_wz_read_armies(const cbd_reader *r, const char *key, uint64_t cap, cbdp_wz_armies *out) {
    const json_t *v = cbd_reader_member(r, key);
    const char *s = json_string_value(v);
    memset(out, 0, sizeof *out);
    if (json_is_integer(v) && json_integer_value(v) >= 0 &&
        (uint64_t)json_integer_value(v) <= cap) {
        out->armies = (uint64_t)json_integer_value(v);
        return true;
    }
    if (s && strcmp(s, "Fogged") == 0) {
        out->fogged = true;
        return true;
    }
    if (s && armies_text(s, cap, out)) {
        return true;
    }
    json_decref(out->commanders);
    out->commanders = NULL;
    cbd_reader_error(r, key,
                     "must be the game's armies: a whole number up to %" PRIu64 ", its digits, "
                     "\"Fogged\", or digits followed by Commanders (\"5|cmdr,<id>,<owner>\"; "
                     "other special units are not modelled)",
                     cap);
    return false;
}

bool cbdp_wz_warn(cbdp_wz_turn *t, const char *fmt, ...) {
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return json_array_append_new(t->warnings, json_string(text)) == 0;
}

bool cbdp_wz_note_player(cbdp_wz_turn *t, const char *id) {
    for (size_t i = 0; i < json_array_size(t->players); i++) {
        if (strcmp(json_string_value(json_array_get(t->players, i)), id) == 0) {
            return true;
        }
    }
    return json_array_append_new(t->players, json_string(id)) == 0;
}
