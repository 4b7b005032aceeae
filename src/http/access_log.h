#ifndef COMBATD_HTTP_ACCESS_LOG_H
#define COMBATD_HTTP_ACCESS_LOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *method;
    const char *path;
    unsigned status; /* 0 when the request ended before an answer */
    uint64_t duration_us;
    uint64_t bytes_in;
    uint64_t bytes_out;
    const char *request_id;
    const char *ended; /* "ok", "timeout", "client_abort", ... */
} cbd_access_log_entry;

/* Formats one compact JSON line (no trailing newline) into buf; returns its length. */
size_t cbd_access_log_format(const cbd_access_log_entry *e, char *buf, size_t size);

/* Writes the line to stderr with a single write(2), so lines from threads never interleave. */
void cbd_access_log_write(const cbd_access_log_entry *e);

#endif
