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
    cbd_reader_error(
        r, key, "must be a whole number from 0 to %" PRIu64 " (or its digits as a string)", max);
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

/* Decimal text "12.345" as units of 10^-places, exactly; false past `places` decimals. */
static bool decimal_text(const char *s, unsigned places, uint64_t *out) {
    const char *dot = strchr(s, '.');
    size_t whole = dot ? (size_t)(dot - s) : strlen(s);
    size_t frac = dot ? strlen(dot + 1) : 0;
    uint64_t w = 0, f = 0;
    if ((whole == 0 && frac == 0) || (whole > 0 && !digits_value(s, whole, 1000000, &w)) ||
        (dot && !digits_value(dot + 1, frac, UINT64_MAX / 10, &f))) {
        return false;
    }
    while (frac > places && f % 10 == 0) { /* trailing zeros: "0.600000000" */
        f /= 10;
        frac--;
    }
    if (frac > places) {
        return false;
    }
    for (size_t i = frac; i < places; i++) {
        f *= 10;
    }
    uint64_t scale = 1;
    for (unsigned i = 0; i < places; i++) {
        scale *= 10;
    }
    *out = w * scale + f;
    return true;
}

cbd_field cbdp_wz_decimal(const cbd_reader *r, const char *key, int shift, cbd_micro max,
                          cbd_micro *out) {
    const json_t *v = cbd_reader_member(r, key);
    if (cbdp_wz_absent(v)) {
        return CBD_FIELD_ABSENT;
    }
    char text[40];
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        snprintf(text, sizeof text, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v) && json_real_value(v) >= 0) {
        snprintf(text, sizeof text, "%.15g", json_real_value(v)); /* 0.16 prints as 0.16 */
    } else {
        snprintf(text, sizeof text, "%s", json_is_string(v) ? json_string_value(v) : "?");
    }
    /* millionths = value * 10^(6 + shift): read the text with 6 + shift places. */
    uint64_t m = 0;
    unsigned places = (unsigned)(6 + shift);
    if (!strchr(text, 'e') && decimal_text(text, places, &m) && m <= max) {
        *out = (cbd_micro)m;
        return CBD_FIELD_OK;
    }
    cbd_reader_error(r, key, "must be a number from 0 to %g with at most %u decimal places (W3)",
                     (double)max / 1e6 * (shift == -2 ? 100.0 : 1.0), places);
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
    cbd_reader_error(r, key, "is required: an id (a whole number, or a string of 1 to %d bytes)",
                     CBDP_WZ_ID_MAX - 1);
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
