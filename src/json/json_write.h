#ifndef COMBATD_API_JSON_WRITE_H
#define COMBATD_API_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "json_escape.h"

/*
 * Compact JSON text, byte for byte what json_dumps(JSON_COMPACT | JSON_REAL_PRECISION(15))
 * prints for the same values in the same order, at a fraction of its cost.
 *
 * Answers are written straight into one growing buffer (cbd_jw): building a jansson tree first
 * and dumping it allocated, hashed and freed every value of every answer, which a profile under
 * load showed as most of a small request's cost. Reals print with 15 significant digits (0.1 as
 * 0.1, not 0.10000000000000001), always with a '.' or an exponent so that they read back as
 * reals.
 *
 * The writer places the commas itself; callers only say what comes next. Out of memory is
 * sticky: every later call does nothing, and cbd_jw_finish reports it.
 */
#define CBD_JW_MARKS 16

typedef struct {
    char *data;
    size_t len, cap;
    bool failed;
    /* The answer cap (server.max_answer_bytes): 0 for none. Past it the writer fails as when
     * memory runs out (sticky), with `over` set, and `blame` names the request member that
     * made the answer large (cbd_jw_blame), for the 422. */
    size_t limit;
    bool over;
    const char *blame;
    /* Where each member named by cbd_jw_blame took over (the first CBD_JW_MARKS), for a caller
     * that copies the text into a larger one and must say which member made that too large
     * (MCP's tool result holds an answer twice): kept by cbd_jw_finish, as blame is. */
    struct {
        size_t at;
        const char *member;
    } marks[CBD_JW_MARKS];
    size_t n_marks;
    bool first;     /* nothing written yet inside the innermost object or array */
    bool after_key; /* a key was written; its value comes next, with no comma */
    /* Debug builds (NDEBUG not set) assert that objects and arrays nest, that keys come only
     * inside objects and that every key gets a value: the open containers, innermost in bit
     * 0 of `objects` (1 = object), at most 64 deep. */
    unsigned depth;
    uint64_t objects;
} cbd_jw;

void cbd_jw_init(cbd_jw *w);
/* Caps the text at `limit` bytes (0: none); kept by cbd_jw_finish and cbd_jw_discard. */
void cbd_jw_set_limit(cbd_jw *w, size_t limit);
/* Names the member (a JSON pointer, a static string) that decides the size of what comes
 * next, for the 422 of an answer past the cap: "/include_turns", "/trials". Once the text is
 * past the cap the blame stays with the part that passed it, whatever is named after. */
static inline void cbd_jw_blame(cbd_jw *w, const char *member) {
    if (!w->over) {
        w->blame = member;
        if (w->n_marks < CBD_JW_MARKS) {
            w->marks[w->n_marks].at = w->len;
            w->marks[w->n_marks++].member = member;
        }
    }
}
void cbd_jw_object_open(cbd_jw *w);
void cbd_jw_object_close(cbd_jw *w);
void cbd_jw_array_open(cbd_jw *w);
void cbd_jw_array_close(cbd_jw *w);
/*
 * A member name inside an object; the member's value is the next thing written. The name is
 * combatd's own (a literal or a name table's entry), so it is written as is: it must hold no
 * '"', '\\' or control byte. Names that come from elsewhere go through cbd_jw_value.
 */
void cbd_jw_key_n(cbd_jw *w, const char *key, size_t n);
/* Inline so that the length of a literal name is known when compiling: answers write a few
 * hundred names each. */
static inline void cbd_jw_key(cbd_jw *w, const char *key) {
    cbd_jw_key_n(w, key, strlen(key));
}
/* A member name from a request (a tile id): escaped as a string. */
void cbd_jw_key_any(cbd_jw *w, const char *key);
void cbd_jw_int(cbd_jw *w, int64_t v);
void cbd_jw_uint(cbd_jw *w, uint64_t v);
void cbd_jw_real(cbd_jw *w, double v); /* v must be finite, as in jansson */
/* v in the fewest digits (15 to 17) that read back as v exactly, with ".0" on a whole number:
 * for a number that is a sum a client compares across answers (/plan-turn's `value`, which
 * /warzone/plan-turn passes on), where cbd_jw_real's 15 digits may round it. */
void cbd_jw_real_exact(cbd_jw *w, double v);
void cbd_jw_bool(cbd_jw *w, bool v);
void cbd_jw_null(cbd_jw *w);
void cbd_jw_string(cbd_jw *w, const char *s);
void cbd_jw_string_n(cbd_jw *w, const char *s, size_t n);
/* Any jansson value, for the parts of an answer that exist as a tree (problems, echoes). */
void cbd_jw_value(cbd_jw *w, const json_t *v);
/* One value that is already compact JSON text (another writer's finished answer, an embedded
 * schema), copied as it is: the caller vouches that it is one whole, valid JSON value. */
void cbd_jw_raw(cbd_jw *w, const char *json, size_t n);

/* Convenience: a member in one call. */
static inline void cbd_jw_key_int(cbd_jw *w, const char *key, int64_t v) {
    cbd_jw_key(w, key);
    cbd_jw_int(w, v);
}
/* cbd_jw_key_n then cbd_jw_uint in one step (the most common member of the answers). */
void cbd_jw_key_n_uint(cbd_jw *w, const char *key, size_t n, uint64_t v);
static inline void cbd_jw_key_uint(cbd_jw *w, const char *key, uint64_t v) {
    cbd_jw_key_n_uint(w, key, strlen(key), v);
}
static inline void cbd_jw_key_real(cbd_jw *w, const char *key, double v) {
    cbd_jw_key(w, key);
    cbd_jw_real(w, v);
}
/* cbd_jw_key_n then cbd_jw_bool in one step. */
void cbd_jw_key_n_bool(cbd_jw *w, const char *key, size_t n, bool v);
static inline void cbd_jw_key_bool(cbd_jw *w, const char *key, bool v) {
    cbd_jw_key_n_bool(w, key, strlen(key), v);
}
static inline void cbd_jw_key_string(cbd_jw *w, const char *key, const char *s) {
    cbd_jw_key(w, key);
    cbd_jw_string(w, s);
}

/*
 * The NUL-terminated text (malloc'd; free with free()) and its length, or NULL when memory ran
 * out or the text passed the limit (`over`; the buffer is then freed). The writer is empty
 * afterwards either way, with its limit, `over` and `blame` kept for the caller to read.
 */
char *cbd_jw_finish(cbd_jw *w, size_t *len);
/* Drops what was written (e.g. when an answer turns into a problem half-way). */
void cbd_jw_discard(cbd_jw *w);

/* A whole jansson value as text: cbd_jw_value + cbd_jw_finish. NULL when out of memory. */
char *cbd_json_write(const json_t *value, size_t *len);

#endif
