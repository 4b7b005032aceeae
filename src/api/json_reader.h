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

typedef struct {
    const json_t *obj;
    char pointer[160]; /* "" for the document root */
    cbd_problem *problem;
} cbd_reader;

/*
 * Opens `value` as an object at `pointer`. Reports an error and returns false when it is not an
 * object. `allowed` is a NULL-terminated list of member names; any other member is an error.
 */
bool cbd_reader_open(cbd_reader *r, const json_t *value, const char *pointer,
                     const char *const *allowed, cbd_problem *problem);

/* `pointer` + "/" + key, escaped as RFC 6901 requires. */
void cbd_reader_child_pointer(const cbd_reader *r, const char *key, char *out, size_t size);

/* `pointer` + "/" + key + "/" + index: an array item's pointer, built without printf (readers
 * open one for every item of every request). */
void cbd_reader_item_pointer(const cbd_reader *r, const char *key, size_t index, char *out,
                             size_t size);

/* A whole number in [min, max]. Reals (even 3.0), strings and booleans are refused. */
cbd_field cbd_read_u64(const cbd_reader *r, const char *key, uint64_t min, uint64_t max,
                       uint64_t *out);

/* A decimal in [0, 1] with at most 6 places (W3). */
cbd_field cbd_read_micro(const cbd_reader *r, const char *key, cbd_micro *out);

cbd_field cbd_read_bool(const cbd_reader *r, const char *key, bool *out);

/* One of a NULL-terminated list of names; *out is the index. */
cbd_field cbd_read_enum(const cbd_reader *r, const char *key, const char *const *names, int *out);

/* A string of at most max_len bytes (not empty); *out points into the document. */
cbd_field cbd_read_string(const cbd_reader *r, const char *key, size_t max_len, const char **out);

/* A nested object, opened as by cbd_reader_open. */
cbd_field cbd_read_object(const cbd_reader *r, const char *key, const char *const *allowed,
                          cbd_reader *child);

/* An array of at most max_items; *out is the array. */
cbd_field cbd_read_array(const cbd_reader *r, const char *key, size_t max_items,
                         const json_t **out);

/* The JSON type's name for messages: "a string", "an object", ... */
const char *cbd_json_type_name(const json_t *value);

#endif
