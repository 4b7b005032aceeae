#include "json_reader.h"
#include "json_escape.h"
#include "json_real.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *cbd_json_type_name(const json_t *value) {
    switch (json_typeof(value)) {
        case JSON_OBJECT:
            return "an object";
        case JSON_ARRAY:
            return "an array";
        case JSON_STRING:
            return "a string";
        case JSON_INTEGER:
            return "an integer";
        case JSON_REAL:
            return "a number with a fraction or exponent";
        case JSON_TRUE:
        case JSON_FALSE:
            return "a boolean";
        case JSON_NULL:
            return "null";
    }
    return "a value";
}

const char *cbd_json_value_text(const json_t *value, char *buf, size_t size) {
    const char *s = json_string_value(value);
    size_t n = s ? strlen(s) : 0;
    bool plain = s && n <= 24 && n == json_string_length(value);
    for (size_t i = 0; plain && i < n; i++) {
        plain = s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\';
    }
    if (plain) {
        snprintf(buf, size, "the string \"%s\"", s);
    } else if (json_is_integer(value)) {
        snprintf(buf, size, "the number %" JSON_INTEGER_FORMAT, json_integer_value(value));
    } else if (json_is_real(value)) {
        char text[CBD_JSON_REAL_MAX];
        cbd_json_real_exact(json_real_value(value), text);
        snprintf(buf, size, "the number %s", text);
    } else if (json_is_boolean(value) || json_is_null(value)) {
        snprintf(buf, size, "%s",
                 json_is_null(value)   ? "null"
                 : json_is_true(value) ? "true"
                                       : "false");
    } else {
        snprintf(buf, size, "%s", value ? cbd_json_type_name(value) : "nothing");
    }
    return buf;
}

/* Appends `key` escaped as RFC 6901 says; a key too long for `size` is cut between two of its
 * characters, never inside one (the problem would show a broken one). */
static void append_escaped(char *out, size_t size, const char *key) {
    size_t used = strlen(out);
    const char *c = key;
    for (; *c && used + 3 < size; c++) {
        /* RFC 6901: '~' is written ~0 and '/' is written ~1. */
        if (*c == '~' || *c == '/') {
            out[used++] = '~';
            out[used++] = *c == '~' ? '0' : '1';
        } else {
            out[used++] = *c;
        }
    }
    if (((unsigned char)*c & 0xC0u) == 0x80u) { /* cut inside a character: its start goes too */
        while (used > 0 && ((unsigned char)out[used - 1] & 0xC0u) == 0x80u) {
            used--;
        }
        used -= used > 0; /* its first byte */
    }
    out[used] = '\0';
}

/* Copies without snprintf: readers build pointers for every nested object of every request.
 * A cut falls between two characters. */
static void copy_str(char *out, size_t size, const char *src) {
    size_t n = strlen(src);
    n = cbdp_utf8_cut(src, n, size - 1);
    memcpy(out, src, n);
    out[n] = '\0';
}

/* `pointer` + "/" + key, escaped as RFC 6901 requires. */
static void child_pointer(const cbd_reader *r, const char *key, char *out, size_t size) {
    copy_str(out, size - 1, r->pointer);
    size_t n = strlen(out);
    out[n] = '/';
    out[n + 1] = '\0';
    append_escaped(out, size, key);
}

/* The longest pointer built before it is cut to the problem's storage. */
#define POINTER_MAX 352

static void item_pointer(const cbd_reader *r, const char *key, const size_t *index, char *out) {
    if (key) {
        child_pointer(r, key, out, POINTER_MAX);
    } else {
        copy_str(out, POINTER_MAX, r->pointer);
    }
    if (index) {
        char digits[24];
        size_t n = 0, i = *index;
        do {
            digits[n++] = (char)('0' + i % 10);
            i /= 10;
        } while (i > 0);
        size_t used = strlen(out);
        if (used + 1 + n < POINTER_MAX) {
            out[used++] = '/';
            while (n > 0) {
                out[used++] = digits[--n];
            }
            out[used] = '\0';
        }
    }
}

/* Errors name the member's pointer, built only when something is wrong: most members are
 * valid, and building every pointer up front was a large share of a small request's cost. */
static void vreader_error(const cbd_reader *r, const char *key, const size_t *index,
                          const char *fmt, va_list ap) {
    cbd_field_error *e = cbdp_problem_new_field(r->problem);
    if (!e) {
        return;
    }
    char ptr[POINTER_MAX];
    item_pointer(r, key, index, ptr);
    copy_str(e->pointer, sizeof e->pointer, ptr);
    vsnprintf(e->detail, sizeof e->detail, fmt, ap);
}

void cbd_reader_error(const cbd_reader *r, const char *key, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vreader_error(r, key, NULL, fmt, ap);
    va_end(ap);
}

void cbd_reader_item_error(const cbd_reader *r, const char *key, size_t index, const char *fmt,
                           ...) {
    va_list ap;
    va_start(ap, fmt);
    vreader_error(r, key, &index, fmt, ap);
    va_end(ap);
}

static bool name_allowed(const char *key, const char *const *allowed) {
    for (size_t i = 0; allowed[i]; i++) {
        /* The first byte sorts out most names without a call: members are checked on every
         * object of every request. */
        if (key[0] == allowed[i][0] && strcmp(key, allowed[i]) == 0) {
            return true;
        }
    }
    return false;
}

static void list_names(const char *const *names, char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; names[i] && used < size; i++) {
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
    }
}

bool cbd_reader_open(cbd_reader *r, const json_t *value, const char *pointer,
                     const char *const *allowed, cbd_problem *problem) {
    r->obj = value;
    r->problem = problem;
    r->indexed = false;
    copy_str(r->pointer, sizeof r->pointer, pointer);
    if (!json_is_object(value)) {
        cbd_problem_field(problem, pointer[0] ? pointer : "", "must be an object, not %s",
                          cbd_json_type_name(value));
        return false;
    }
    const char *key;
    json_t *item;
    r->indexed = json_object_size(value) <= CBD_READER_INDEXED;
    r->n_members = 0;
    json_object_foreach((json_t *)value, key, item) {
        if (r->indexed) {
            r->keys[r->n_members] = key;
            r->values[r->n_members++] = item;
        }
        if (!name_allowed(key, allowed)) {
            char names[256];
            list_names(allowed, names, sizeof names);
            cbd_reader_error(r, key, "is not a known field; allowed here: %s", names);
        }
    }
    return true;
}

/* Keeps the members of r's object, when it is one and small enough (CBD_READER_INDEXED). */
static void index_members(cbd_reader *r) {
    r->indexed = json_is_object(r->obj) && json_object_size(r->obj) <= CBD_READER_INDEXED;
    r->n_members = 0;
    if (!r->indexed) {
        return;
    }
    const char *key;
    json_t *item;
    json_object_foreach((json_t *)r->obj, key, item) {
        r->keys[r->n_members] = key;
        r->values[r->n_members++] = item;
    }
}

const json_t *cbd_reader_member(const cbd_reader *r, const char *key) {
    if (!r->indexed) {
        return json_object_get(r->obj, key);
    }
    for (unsigned i = 0; i < r->n_members; i++) {
        if (r->keys[i][0] == key[0] && strcmp(r->keys[i], key) == 0) {
            return r->values[i];
        }
    }
    return NULL;
}

/* Looks up a member; null counts as absent so clients may send explicit nulls. */
static const json_t *member(const cbd_reader *r, const char *key) {
    const json_t *v = cbd_reader_member(r, key);
    return json_is_null(v) ? NULL : v;
}

cbd_field cbd_read_u64(const cbd_reader *r, const char *key, uint64_t min, uint64_t max,
                       uint64_t *out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    if (!json_is_integer(v)) {
        cbd_reader_error(r, key, "must be a whole number from %" PRIu64 " to %" PRIu64 ", not %s",
                         min, max, cbd_json_type_name(v));
        return CBD_FIELD_BAD;
    }
    json_int_t i = json_integer_value(v);
    if (i < 0 || (uint64_t)i < min || (uint64_t)i > max) {
        cbd_reader_error(r, key,
                         "must be a whole number from %" PRIu64 " to %" PRIu64
                         ", not %" JSON_INTEGER_FORMAT,
                         min, max, i);
        return CBD_FIELD_BAD;
    }
    *out = (uint64_t)i;
    return CBD_FIELD_OK;
}

cbd_field cbd_read_i64(const cbd_reader *r, const char *key, int64_t min, int64_t max,
                       int64_t *out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    json_int_t i = json_is_integer(v) ? json_integer_value(v) : 0;
    if (!json_is_integer(v) || i < min || i > max) {
        cbd_reader_error(r, key, "must be a whole number from %" PRId64 " to %" PRId64 ", not %s",
                         min, max,
                         json_is_integer(v) ? "out of that range" : cbd_json_type_name(v));
        return CBD_FIELD_BAD;
    }
    *out = (int64_t)i;
    return CBD_FIELD_OK;
}

cbd_field cbd_read_seed(const cbd_reader *r, const char *key, uint64_t *out) {
    return cbd_read_u64(r, key, 0, CBD_SEED_MAX, out);
}

cbd_field cbd_read_micro(const cbd_reader *r, const char *key, cbd_micro *out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    if (!json_is_number(v)) {
        cbd_reader_error(r, key,
                         "must be a number from 0 to 1 with at most 6 decimal places, not %s",
                         cbd_json_type_name(v));
        return CBD_FIELD_BAD;
    }
    double d = json_number_value(v);
    if (!cbd_micro_from_double(d, out)) {
        cbd_reader_error(
            r, key, "must be a number from 0 to 1 with at most 6 decimal places (W3), not %.17g",
            d);
        return CBD_FIELD_BAD;
    }
    return CBD_FIELD_OK;
}

cbd_field cbd_read_decimal(const cbd_reader *r, const char *key, cbd_micro max, cbd_micro *out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    double top = cbd_micro_to_double(max);
    if (!json_is_number(v) || !cbd_micro_from_double_in(json_number_value(v), max, out)) {
        cbd_reader_error(r, key, "must be a number from 0 to %g with at most 6 decimal places (W3)",
                         top);
        return CBD_FIELD_BAD;
    }
    return CBD_FIELD_OK;
}

cbd_field cbd_read_bool(const cbd_reader *r, const char *key, bool *out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    if (!json_is_boolean(v)) {
        cbd_reader_error(r, key, "must be true or false, not %s", cbd_json_type_name(v));
        return CBD_FIELD_BAD;
    }
    *out = json_is_true(v);
    return CBD_FIELD_OK;
}

cbd_field cbd_read_enum(const cbd_reader *r, const char *key, const char *const *names, int *out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    if (json_is_string(v)) {
        for (int i = 0; names[i]; i++) {
            if (strcmp(json_string_value(v), names[i]) == 0) {
                *out = i;
                return CBD_FIELD_OK;
            }
        }
    }
    char list[256]; /* only for the error: most enums read are valid */
    list_names(names, list, sizeof list);
    cbd_reader_error(r, key, "must be one of: %s", list);
    return CBD_FIELD_BAD;
}

cbd_field cbd_read_string(const cbd_reader *r, const char *key, size_t max_len, const char **out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > max_len ||
        strlen(json_string_value(v)) != json_string_length(v)) {
        cbd_reader_error(r, key, "must be a non-empty string of at most %zu bytes, without NUL",
                         max_len);
        return CBD_FIELD_BAD;
    }
    *out = json_string_value(v);
    return CBD_FIELD_OK;
}

cbd_field cbd_read_text(const cbd_reader *r, const char *key, size_t max_chars, const char **out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    size_t len = json_is_string(v) ? json_string_length(v) : 0;
    if (len == 0 || cbd_utf8_code_points(json_string_value(v), len) > max_chars ||
        strlen(json_string_value(v)) != len) {
        cbd_reader_error(
            r, key, "must be a non-empty string of at most %zu characters, without NUL", max_chars);
        return CBD_FIELD_BAD;
    }
    *out = json_string_value(v);
    return CBD_FIELD_OK;
}

cbd_field cbd_read_object(const cbd_reader *r, const char *key, const char *const *allowed,
                          cbd_reader *child) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    char ptr[POINTER_MAX];
    item_pointer(r, key, NULL, ptr);
    return cbd_reader_open(child, v, ptr, allowed, r->problem) ? CBD_FIELD_OK : CBD_FIELD_BAD;
}

cbd_field cbd_read_map(const cbd_reader *r, const char *key, cbd_reader *child) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    char ptr[POINTER_MAX];
    item_pointer(r, key, NULL, ptr);
    child->obj = v;
    child->problem = r->problem;
    copy_str(child->pointer, sizeof child->pointer, ptr);
    index_members(child);
    if (!json_is_object(v)) {
        cbd_reader_error(r, key, "must be an object, not %s", cbd_json_type_name(v));
        return CBD_FIELD_BAD;
    }
    return CBD_FIELD_OK;
}

void cbd_reader_at(cbd_reader *child, const cbd_reader *r, const char *key) {
    char ptr[POINTER_MAX];
    item_pointer(r, key, NULL, ptr);
    child->obj = cbd_reader_member(r, key);
    child->problem = r->problem;
    copy_str(child->pointer, sizeof child->pointer, ptr);
    index_members(child);
}

void cbd_reader_at_item(cbd_reader *child, const cbd_reader *r, const char *key, size_t index) {
    char ptr[POINTER_MAX];
    item_pointer(r, key, &index, ptr);
    child->obj = json_array_get(cbd_reader_member(r, key), index);
    child->problem = r->problem;
    copy_str(child->pointer, sizeof child->pointer, ptr);
    index_members(child);
}

bool cbd_reader_open_item(cbd_reader *item, const cbd_reader *r, const char *key, size_t index,
                          const char *const *allowed) {
    const json_t *arr = cbd_reader_member(r, key);
    char ptr[POINTER_MAX];
    item_pointer(r, key, &index, ptr);
    return cbd_reader_open(item, json_array_get(arr, index), ptr, allowed, r->problem);
}

cbd_field cbd_read_array(const cbd_reader *r, const char *key, size_t max_items,
                         const json_t **out) {
    const json_t *v = member(r, key);
    if (!v) {
        return CBD_FIELD_ABSENT;
    }
    if (!json_is_array(v) || json_array_size(v) > max_items) {
        cbd_reader_error(r, key, "must be an array of at most %zu items", max_items);
        return CBD_FIELD_BAD;
    }
    *out = v;
    return CBD_FIELD_OK;
}
