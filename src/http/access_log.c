#include "access_log.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* Copies s as JSON string content: quotes, backslashes and control bytes are escaped and bytes
 * >= 0x80 are written as \u00XX so that a hostile path cannot break the line's JSON. */
static size_t put_escaped(char *out, size_t size, const char *s) {
    size_t n = 0;
    for (; *s && n + 7 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            n += (size_t)snprintf(out + n, size - n, "\\u%04x", c);
        } else {
            out[n++] = (char)c;
        }
    }
    out[n] = '\0';
    return n;
}

size_t cbd_access_log_format(const cbd_access_log_entry *e, char *buf, size_t size) {
    char method[64], path[512], id[160];
    put_escaped(method, sizeof method, e->method);
    put_escaped(path, sizeof path, e->path);
    put_escaped(id, sizeof id, e->request_id);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    int n = snprintf(buf, size,
                     "{\"ts\":\"%s.%03ldZ\",\"method\":\"%s\",\"path\":\"%s\",\"status\":%u,"
                     "\"duration_us\":%llu,\"bytes_in\":%llu,\"bytes_out\":%llu,"
                     "\"request_id\":\"%s\",\"ended\":\"%s\"}",
                     when, ts.tv_nsec / 1000000, method, path, e->status,
                     (unsigned long long)e->duration_us, (unsigned long long)e->bytes_in,
                     (unsigned long long)e->bytes_out, id, e->ended);
    if (n < 0) {
        return 0;
    }
    return (size_t)n < size ? (size_t)n : size - 1;
}

void cbd_access_log_write(const cbd_access_log_entry *e) {
    char line[1024];
    size_t n = cbd_access_log_format(e, line, sizeof line - 1);
    line[n++] = '\n';
    /* A log line that cannot be written is dropped: logging must never stop the service. */
    ssize_t written = write(STDERR_FILENO, line, n);
    (void)written;
}
