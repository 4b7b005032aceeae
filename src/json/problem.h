#ifndef COMBATD_API_PROBLEM_H
#define COMBATD_API_PROBLEM_H

#include <stddef.h>

#include <jansson.h>

/*
 * RFC 9457 problem details. Validation collects one entry per offending field, each named by
 * a JSON pointer (`/settings/luck_modifier`) with a sentence that says what is allowed.
 */
#define CBD_PROBLEM_MAX_ERRORS 32

typedef struct {
    char pointer[320]; /* as cbd_reader's; a longer one is cut between two characters */
    char detail[256];
} cbd_field_error;

typedef struct {
    int status; /* 0 while no problem has been recorded */
    char detail[512];
    size_t n_errors;
    size_t n_dropped; /* field errors past CBD_PROBLEM_MAX_ERRORS, counted but not listed */
    cbd_field_error errors[CBD_PROBLEM_MAX_ERRORS];
} cbd_problem;

void cbd_problem_init(cbd_problem *p);

/* Sets the status and the top-level detail (printf-style). */
void cbd_problem_set(cbd_problem *p, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records a field error; the problem becomes a 422 unless a status was already set. */
void cbd_problem_field(cbd_problem *p, const char *pointer, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * The slot of a new field error, for callers that write its pointer themselves (json_reader.c
 * builds every pointer there, so no caller needs a buffer of its own); the problem becomes a
 * 422 as with cbd_problem_field. NULL when the list is full: the error is counted as dropped.
 */
cbd_field_error *cbdp_problem_new_field(cbd_problem *p);

/* The reason phrase used as `title` (RFC 9457 with type about:blank). */
const char *cbd_http_reason(int status);

/* The problem as a JSON object, or NULL when out of memory. */
json_t *cbd_problem_to_json(const cbd_problem *p);

/* One line for logs and start-up errors: "detail: /a/b: msg; /c: msg". Always terminated. */
void cbd_problem_to_text(const cbd_problem *p, char *buf, size_t size);

#endif
