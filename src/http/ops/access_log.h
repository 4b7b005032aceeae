#ifndef COMBATD_HTTP_ACCESS_LOG_H
#define COMBATD_HTTP_ACCESS_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Every string must be non-NULL: the server passes "-" for a part it never saw. */
typedef struct {
    const char *method;
    const char *path;
    unsigned status; /* 0 when the request ended before an answer */
    uint64_t duration_us;
    uint64_t bytes_in;
    uint64_t bytes_out;
    const char *request_id;
    const char *ended;  /* "ok", "timeout", "client_abort", ... */
    const char *client; /* the client address; NULL leaves the field out */
    /* What computing the answer cost, when one was computed (else the fields are left out):
     * work units (budget.h), the bytes the computation held at once, and the minor page
     * faults of the threads that computed it. */
    bool computed;
    uint64_t work_units, mem_peak, faults;
} cbd_access_log_entry;

/* Formats one compact JSON line (no trailing newline) into buf; returns its length. A line that
 * does not fit is cut to size - 1 bytes; buf is always NUL-terminated when size > 0. */
size_t cbd_access_log_format(const cbd_access_log_entry *e, char *buf, size_t size);

/* The same, stamped with the given wall-clock time (a normalised timespec: 0 <= tv_nsec < 1e9)
 * instead of the current one, so that tests can check whole lines. */
size_t cbd_access_log_format_at(const cbd_access_log_entry *e, const struct timespec *now,
                                char *buf, size_t size);

/* Writes the line to stderr with a single write(2), so lines from threads never interleave. */
void cbdp_access_log_write(const cbd_access_log_entry *e);

/* libmicrohttpd's messages (MHD_OPTION_EXTERNAL_LOGGER): each one JSON line on stderr,
 * {"event":"libmicrohttpd","message":"..."}, so the log stays one JSON object a line. */
void cbd_log_mhd_message(void *cls, const char *fmt, va_list ap);

#endif
