#include "json_write.h"

#include <assert.h>

#include "json_real.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first buffer holds a typical answer (a small analysis is about 700 bytes, a battle about
 * 930) in one go. 1000 bytes is also the most glibc serves from its per-thread cache: larger
 * requests first consolidate the fast bins that jansson's freed nodes fill, which showed in a
 * profile of /duper/battle. */
#define FIRST_CAPACITY 1000

/* The slow half of reserve: grows the buffer, or records that memory ran out. A failed writer
 * keeps cap at 0 so that every later reserve lands here and fails at once. */
static bool grow(cbd_jw *b, size_t more) {
    if (b->failed) {
        return false;
    }
    if (b->limit != 0 && b->len + more > b->limit + 1) { /* + 1: the closing NUL */
        b->failed = true;
        b->over = true;
        b->cap = 0;
        return false;
    }
    size_t cap = b->cap ? b->cap : FIRST_CAPACITY;
    while (cap < b->len + more) {
        cap *= 2;
    }
    if (b->limit != 0 && cap > b->limit + 1) {
        /* No room past the cap: reaching it must come back here to be refused (a doubling
         * past it let the text grow to twice the cap unchecked). */
        cap = b->limit + 1;
    }
    char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;
        b->cap = 0;
        return false;
    }
    b->data = grown;
    b->cap = cap;
    return true;
}

/* Room for `more` bytes; one comparison in the common case, as it runs for every piece. */
static inline bool reserve(cbd_jw *b, size_t more) {
    return b->len + more <= b->cap ? true : grow(b, more);
}

static void put(cbd_jw *b, const char *s, size_t n) {
    if (n > 0 && reserve(b, n)) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    }
}

static inline void put_char(cbd_jw *b, char c) {
    if (reserve(b, 1)) {
        b->data[b->len++] = c;
    }
}

/* "00" to "99": two digits a step halves the divisions, and most numbers of an answer (armies,
 * kills, counts) have one or two. */
static const char digit_pairs[201] = "0001020304050607080910111213141516171819"
                                     "2021222324252627282930313233343536373839"
                                     "4041424344454647484950515253545556575859"
                                     "6061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

/* How many decimal digits m has (1 to 20). */
static inline size_t decimal_length(uint64_t m) {
    size_t n = 1;
    for (uint64_t bound = 10; n < 20 && m >= bound; bound *= 10) {
        n++;
    }
    return n;
}

/* m's decimal digits, written backwards so that the last lands just before `end`. */
static inline void write_digits(char *end, uint64_t m) {
    while (m >= 100) {
        const char *pair = digit_pairs + 2 * (m % 100);
        m /= 100;
        *--end = pair[1];
        *--end = pair[0];
    }
    if (m >= 10) {
        *--end = digit_pairs[2 * m + 1];
        *--end = digit_pairs[2 * m];
    } else {
        *--end = (char)('0' + m);
    }
}

static void put_digits(cbd_jw *b, bool negative, uint64_t m) {
    size_t len = decimal_length(m);
    if (!reserve(b, len + 1)) {
        return;
    }
    if (negative) {
        b->data[b->len++] = '-';
    }
    b->len += len;
    write_digits(b->data + b->len, m);
}

static void put_integer(cbd_jw *b, int64_t v) {
    /* Work in unsigned so that the most negative value has a magnitude too. */
    put_digits(b, v < 0, v < 0 ? 0ULL - (uint64_t)v : (uint64_t)v);
}

/* As jansson's jsonp_dtostr with JSON_REAL_PRECISION(15); see json_real.h. */
static void put_real(cbd_jw *b, double v) {
    char text[CBD_JSON_REAL_MAX];
    put(b, text, cbd_json_real(v, text));
}

/* True when no byte of s needs an escape: the case of nearly every string value. */
static bool plain(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c == '\\') {
            return false;
        }
    }
    return true;
}

/* "s" followed by `tail` (":" after a key, nothing after a value) in one reservation. */
static bool put_plain_string(cbd_jw *b, const char *s, size_t n, const char *tail,
                             size_t tail_len) {
    if (!plain(s, n)) {
        return false;
    }
    if (reserve(b, n + 2 + tail_len)) {
        char *p = b->data + b->len;
        *p++ = '"';
        memcpy(p, s, n);
        p += n;
        *p++ = '"';
        memcpy(p, tail, tail_len);
        b->len += n + 2 + tail_len;
    }
    return true;
}

static void put_string(cbd_jw *b, const char *s, size_t n) {
    if (put_plain_string(b, s, n, "", 0)) {
        return;
    }
    put_char(b, '"');
    size_t run = 0; /* bytes that need no escaping, copied in one go */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            continue;
        }
        put(b, s + run, i - run);
        run = i + 1;
        char esc[6];
        put(b, esc, cbd_json_escape_byte(c, esc));
    }
    put(b, s + run, n - run);
    put_char(b, '"');
}

/* The nesting checks of debug builds (json_write.h); nothing in a build with NDEBUG. */
static inline bool in_object(const cbd_jw *w) {
    return w->depth > 0 && (w->objects & 1u);
}

static inline void check_value(const cbd_jw *w) {
    (void)w;
    assert(!in_object(w) || w->after_key); /* a member's value needs its key first */
}

static inline void check_key(const cbd_jw *w) {
    (void)w;
    assert(in_object(w) && !w->after_key); /* a key only inside an object, and one at a time */
}

static inline void push(cbd_jw *w, bool object) {
#ifndef NDEBUG
    assert(w->depth < 64);
    w->objects = (w->objects << 1) | (object ? 1u : 0u);
    w->depth++;
#else
    (void)w;
    (void)object;
#endif
}

static inline void pop(cbd_jw *w, bool object) {
#ifndef NDEBUG
    assert(w->depth > 0 && (w->objects & 1u) == (object ? 1u : 0u) && !w->after_key);
    w->objects >>= 1;
    w->depth--;
#else
    (void)w;
    (void)object;
#endif
}

/* Before a value or a key: a comma unless it is the first inside its object or array, or the
 * value of the key just written. */
static void separate(cbd_jw *w) {
    check_value(w);
    if (w->after_key) {
        w->after_key = false;
    } else if (!w->first) {
        put_char(w, ',');
    }
    w->first = false;
}

void cbd_jw_init(cbd_jw *w) {
    *w = (cbd_jw){.first = true};
}

void cbd_jw_object_open(cbd_jw *w) {
    separate(w);
    push(w, true);
    put_char(w, '{');
    w->first = true;
}

void cbd_jw_object_close(cbd_jw *w) {
    pop(w, true);
    put_char(w, '}');
    w->first = false;
}

void cbd_jw_array_open(cbd_jw *w) {
    separate(w);
    push(w, false);
    put_char(w, '[');
    w->first = true;
}

void cbd_jw_array_close(cbd_jw *w) {
    pop(w, false);
    put_char(w, ']');
    w->first = false;
}

/* A key from a jansson tree: anything may be in it, so it is escaped as a string. */
static void put_any_key(cbd_jw *w, const char *key) {
    check_key(w);
    if (!w->first) {
        put_char(w, ',');
    }
    w->first = false;
    size_t n = strlen(key);
    if (!put_plain_string(w, key, n, ":", 1)) {
        put_string(w, key, n);
        put_char(w, ':');
    }
    w->after_key = true;
}

/* Answers write about a hundred keys each, all names from combatd's own code (json_write.h):
 * comma, quotes, name and colon go out in one copy, with no escaping scan. */
void cbd_jw_key_n(cbd_jw *w, const char *key, size_t n) {
    check_key(w);
    bool comma = !w->after_key && !w->first;
    w->after_key = true;
    w->first = false;
    if (!reserve(w, n + 4)) {
        return;
    }
    char *p = w->data + w->len;
    if (comma) {
        *p++ = ',';
    }
    *p++ = '"';
    memcpy(p, key, n);
    p += n;
    *p++ = '"';
    *p++ = ':';
    w->len = (size_t)(p - w->data);
}

/* A member's name and its value's room in one reservation: writes the comma, "key": and
 * returns where the value_len bytes of its value go, or NULL when the writer has failed. */
static inline char *open_member(cbd_jw *w, const char *key, size_t n, size_t value_len) {
    check_key(w);
    bool comma = !w->after_key && !w->first;
    w->first = false;
    if (!reserve(w, n + 4 + value_len)) {
        w->after_key = true; /* as cbd_jw_key_n leaves it; the writer has failed anyway */
        return NULL;
    }
    char *p = w->data + w->len;
    if (comma) {
        *p++ = ',';
    }
    *p++ = '"';
    memcpy(p, key, n);
    p += n;
    *p++ = '"';
    *p++ = ':';
    return p;
}

/* The member written up to `end`: a value follows no more. */
static inline void close_member(cbd_jw *w, const char *end) {
    w->len = (size_t)(end - w->data);
    w->after_key = false;
}

void cbd_jw_key_n_uint(cbd_jw *w, const char *key, size_t n, uint64_t v) {
    size_t len = decimal_length(v);
    char *p = open_member(w, key, n, len);
    if (p) {
        write_digits(p + len, v);
        close_member(w, p + len);
    }
}

void cbd_jw_key_n_bool(cbd_jw *w, const char *key, size_t n, bool v) {
    size_t len = v ? 4 : 5;
    char *p = open_member(w, key, n, len);
    if (p) {
        memcpy(p, v ? "true" : "false", len);
        close_member(w, p + len);
    }
}

void cbd_jw_key_any(cbd_jw *w, const char *key) {
    put_any_key(w, key);
}

void cbd_jw_int(cbd_jw *w, int64_t v) {
    separate(w);
    put_integer(w, v);
}

void cbd_jw_uint(cbd_jw *w, uint64_t v) {
    separate(w);
    put_digits(w, false, v);
}

void cbd_jw_real(cbd_jw *w, double v) {
    separate(w);
    put_real(w, v);
}

void cbd_jw_real_exact(cbd_jw *w, double v) {
    char text[CBD_JSON_REAL_MAX];
    size_t n = cbd_json_real_exact(v, text);
    separate(w);
    put(w, text, n);
}

void cbd_jw_bool(cbd_jw *w, bool v) {
    separate(w);
    if (v) {
        put(w, "true", 4);
    } else {
        put(w, "false", 5);
    }
}

void cbd_jw_null(cbd_jw *w) {
    separate(w);
    put(w, "null", 4);
}

void cbd_jw_string_n(cbd_jw *w, const char *s, size_t n) {
    separate(w);
    put_string(w, s, n);
}

void cbd_jw_string(cbd_jw *w, const char *s) {
    cbd_jw_string_n(w, s, strlen(s));
}

void cbd_jw_raw(cbd_jw *w, const char *json, size_t n) {
    separate(w);
    put(w, json, n);
}

/* Depth is bounded by the parser (JSON_PARSER_MAX_DEPTH) for what came in, and by our own
 * code for what we build, so recursion is safe here. */
void cbd_jw_value(cbd_jw *w, const json_t *v) {
    switch (json_typeof(v)) {
        case JSON_OBJECT: {
            const char *key;
            json_t *member;
            cbd_jw_object_open(w);
            json_object_foreach((json_t *)v, key, member) {
                put_any_key(w, key);
                cbd_jw_value(w, member);
            }
            cbd_jw_object_close(w);
            break;
        }
        case JSON_ARRAY:
            cbd_jw_array_open(w);
            for (size_t i = 0; i < json_array_size(v); i++) {
                cbd_jw_value(w, json_array_get(v, i));
            }
            cbd_jw_array_close(w);
            break;
        case JSON_STRING:
            cbd_jw_string_n(w, json_string_value(v), json_string_length(v));
            break;
        case JSON_INTEGER:
            cbd_jw_int(w, json_integer_value(v));
            break;
        case JSON_REAL:
            cbd_jw_real(w, json_real_value(v));
            break;
        case JSON_TRUE:
        case JSON_FALSE:
            cbd_jw_bool(w, json_is_true(v));
            break;
        case JSON_NULL:
            cbd_jw_null(w);
            break;
    }
}

void cbd_jw_set_limit(cbd_jw *w, size_t limit) {
    w->limit = limit;
}

/* Empty again, keeping what the caller reads after finishing: the limit and whether (and for
 * which member) it was passed. */
static void reset_keeping_limit(cbd_jw *w) {
    cbd_jw kept = *w;
    cbd_jw_init(w);
    w->limit = kept.limit;
    w->over = kept.over;
    w->blame = kept.blame;
    memcpy(w->marks, kept.marks, sizeof w->marks);
    w->n_marks = kept.n_marks;
}

char *cbd_jw_finish(cbd_jw *w, size_t *len) {
    assert(w->failed || (w->depth == 0 && !w->after_key)); /* every container closed */
    put_char(w, '\0');
    char *text = w->failed ? NULL : w->data;
    if (text) {
        *len = w->len - 1;
    } else {
        free(w->data);
    }
    reset_keeping_limit(w);
    return text;
}

void cbd_jw_discard(cbd_jw *w) {
    free(w->data);
    reset_keeping_limit(w);
}

char *cbd_json_write(const json_t *value, size_t *len) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_value(&w, value);
    return cbd_jw_finish(&w, len);
}
