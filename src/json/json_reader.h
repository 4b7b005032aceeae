#ifndef COMBATD_API_JSON_READER_H
#define COMBATD_API_JSON_READER_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "combatd/decimal.h"
#include "problem.h"

/*
 * Strict, pointer-aware reading of request objects. Each getter checks one member, records a
 * field error naming its JSON pointer when it is wrong, and reports what it found:
 *   CBD_FIELD_OK      present and valid (*out written)
 *   CBD_FIELD_ABSENT  missing or null (*out untouched, so callers preload defaults)
 *   CBD_FIELD_BAD     present and wrong (an error was recorded)
 * so a request is read in one pass that lists every offending field.
 */
typedef enum { CBD_FIELD_OK = 0, CBD_FIELD_ABSENT = 1, CBD_FIELD_BAD = -1 } cbd_field;

/* A reader keeps its object's members when there are at most this many (most objects of a
 * request are that small): a look-up is then a scan of a few names, cheaper than jansson's hash
 * of the name, and most look-ups are of optional members that are absent. */
#define CBD_READER_INDEXED 8

typedef struct {
    const json_t *obj;
    /* "" for the document root. Room for a member of a turn's territory, whose id is a member
     * name of up to 64 characters (256 bytes): /territories/ID/units/12/health. */
    char pointer[320];
    cbd_problem *problem;
    /* Set by cbd_reader_open and the readers made from another; a reader built by hand has
     * indexed false and looks up through jansson. */
    bool indexed;
    unsigned char n_members;
    const char *keys[CBD_READER_INDEXED];
    const json_t *values[CBD_READER_INDEXED];
} cbd_reader;

/*
 * Opens `value` as an object at `pointer`. Reports an error and returns false when it is not an
 * object. `allowed` is a NULL-terminated list of member names; any other member is an error.
 */
bool cbd_reader_open(cbd_reader *r, const json_t *value, const char *pointer,
                     const char *const *allowed, cbd_problem *problem);

/*
 * JSON pointers are built one way: by these, from the reader's own pointer, into the
 * problem's storage (no buffer at the call site).
 *   cbd_reader_error       at pointer + "/" + key, or at the reader's own pointer (key NULL)
 *   cbd_reader_item_error  at pointer + "/" + key + "/" + index (an array item), or at
 *                          pointer + "/" + index (key NULL: the reader is at the array)
 * Keys are escaped as RFC 6901 requires.
 */
void cbd_reader_error(const cbd_reader *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cbd_reader_item_error(const cbd_reader *r, const char *key, size_t index, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Opens array item `index` of member `key` (an object) as by cbd_reader_open. */
bool cbd_reader_open_item(cbd_reader *item, const cbd_reader *r, const char *key, size_t index,
                          const char *const *allowed);

/* A reader at member `key` of r (an object, or NULL when absent), without checking its
 * members again: for errors about something inside a member already read
 * (`/attack/tile/units/plane`). */
void cbd_reader_at(cbd_reader *child, const cbd_reader *r, const char *key);
/* The same at array item `index` of member `key` (`/board/adjacent/3`). */
void cbd_reader_at_item(cbd_reader *child, const cbd_reader *r, const char *key, size_t index);

/* A whole number in [min, max]. Reals (even 3.0), strings and booleans are refused. */
cbd_field cbd_read_u64(const cbd_reader *r, const char *key, uint64_t min, uint64_t max,
                       uint64_t *out);

/* A whole number in [min, max], which may be negative. */
cbd_field cbd_read_i64(const cbd_reader *r, const char *key, int64_t min, int64_t max,
                       int64_t *out);

/* The largest seed any endpoint takes or returns: 2^53 − 1, so that every JSON client
 * (doubles) can echo it exactly. */
#define CBD_SEED_MAX ((UINT64_C(1) << 53) - 1)

/* A seed: a whole number in [0, CBD_SEED_MAX]. */
cbd_field cbd_read_seed(const cbd_reader *r, const char *key, uint64_t *out);

/* A decimal in [0, 1] with at most 6 places (W3). */
cbd_field cbd_read_micro(const cbd_reader *r, const char *key, cbd_micro *out);

/* A decimal from 0 to max millionths with at most 6 places (W3; W26's multipliers). */
cbd_field cbd_read_decimal(const cbd_reader *r, const char *key, cbd_micro max, cbd_micro *out);

cbd_field cbd_read_bool(const cbd_reader *r, const char *key, bool *out);

/* One of a NULL-terminated list of names; *out is the index. */
cbd_field cbd_read_enum(const cbd_reader *r, const char *key, const char *const *names, int *out);

/* A string of at most max_len bytes (not empty); *out points into the document. */
cbd_field cbd_read_string(const cbd_reader *r, const char *key, size_t max_len, const char **out);

/* A string of at most max_chars characters (code points, as JSON Schema's maxLength counts
 * them; not empty, without NUL); *out points into the document. */
cbd_field cbd_read_text(const cbd_reader *r, const char *key, size_t max_chars, const char **out);

/* Member `key` of r's object, or NULL (absent, or r's value is not an object); a JSON null is
 * returned as it is. */
const json_t *cbd_reader_member(const cbd_reader *r, const char *key);

/* A nested object, opened as by cbd_reader_open. */
cbd_field cbd_read_object(const cbd_reader *r, const char *key, const char *const *allowed,
                          cbd_reader *child);

/* A nested object whose member names are data (ids), not fields: any name is allowed. */
cbd_field cbd_read_map(const cbd_reader *r, const char *key, cbd_reader *child);

/* An array of at most max_items; *out is the array. */
cbd_field cbd_read_array(const cbd_reader *r, const char *key, size_t max_items,
                         const json_t **out);

/* The JSON type's name for messages: "a string", "an object", ... */
const char *cbd_json_type_name(const json_t *value);

/* What a member held, for a message that says why it was refused: a short scalar itself ("the
 * number 2", "the string \"abc\"", "true", "null"), else its type's name ("an array", "a
 * string" for a long or non-ASCII one). Returns buf, always terminated. */
const char *cbd_json_value_text(const json_t *value, char *buf, size_t size);

#endif
