#include "access_log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json/json_write.h"

/* The line is built with plain appends rather than snprintf: this runs once per request, and
 * format parsing, gmtime_r and strftime would be most of its cost. */

/* Longest text each escaped field may take (with room for a NUL): these caps decide where a
 * long method, path or request id is cut. */
enum { METHOD_CAP = 64, PATH_CAP = 512, REQUEST_ID_CAP = 160, CLIENT_CAP = 64 };

/* An output buffer that silently drops what does not fit: text stops at cap. */
typedef struct {
    char *buf;
    size_t cap; /* bytes of text the buffer can take (its size less the NUL) */
    size_t len;
} line_buf;

static void put(line_buf *b, const char *s, size_t n) {
    size_t room = b->cap - b->len;
    if (n > room) {
        n = room;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
}

#define PUT_LIT(b, lit) put((b), (lit), sizeof(lit) - 1)

static void put_str(line_buf *b, const char *s) {
    put(b, s, strlen(s));
}

static void put_u64(line_buf *b, uint64_t v) {
    char digits[20]; /* UINT64_MAX has 20 digits */
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(b, digits + i, sizeof digits - i);
}

/*
 * Escapes s as JSON string content into out with the writer's escaper (json_write.h): quotes,
 * backslashes and control bytes are escaped as in every answer, valid UTF-8 is copied as it is
 * (a path /café is logged as /café), and a byte that is not part of valid UTF-8 is written
 * as \u00XX (the code point of the same number), so a hostile path can neither break the line's
 * JSON nor hide its bytes. It stops while fewer than 8 bytes of cap remain, so the text never
 * exceeds cap - 2 bytes and is never cut inside an escape or a character. Returns the length
 * written (no NUL).
 */
static size_t escape_into(char *out, size_t cap, const char *s) {
    const unsigned char *u = (const unsigned char *)s;
    size_t left = strlen(s), n = 0;
    while (left > 0 && n + 7 < cap) {
        size_t len = cbd_json_escape_byte(*u, out + n);
        size_t used = 1;
        if (len == 0 && *u >= 0x80) {
            used = cbd_utf8_sequence(u, left);
            if (used == 0) {
                cbd_json_escape_u00(*u, out + n);
                len = 6;
                used = 1;
            } else {
                memcpy(out + n, u, used);
                len = used;
            }
        } else if (len == 0) {
            out[n] = (char)*u;
            len = 1;
        }
        n += len;
        u += used;
        left -= used;
    }
    return n;
}

/* Escapes straight into the line when the whole field fits; only near the end of a short buffer
 * does it go through a scratch copy, so that the line is cut at the buffer's end. */
static void put_escaped(line_buf *b, const char *s, size_t cap) {
    if (b->cap - b->len >= cap) {
        b->len += escape_into(b->buf + b->len, cap, s);
        return;
    }
    char scratch[PATH_CAP];
    put(b, scratch, escape_into(scratch, cap < sizeof scratch ? cap : sizeof scratch, s));
}

/* "YYYY-MM-DDTHH:MM:SS" changes once a second, but gmtime_r and strftime cost more than the rest
 * of the line: each thread keeps the text of the last second it saw. Thread-local, so the MHD
 * threads share nothing and need no lock. */
typedef struct {
    int valid;
    time_t sec;
    size_t len;
    char text[32];
} second_text;

static _Thread_local second_text tls_second;

static void refresh_second(second_text *c, time_t sec) {
    struct tm tm;
    c->len = gmtime_r(&sec, &tm) ? strftime(c->text, sizeof c->text, "%Y-%m-%dT%H:%M:%S", &tm) : 0;
    if (c->len == 0) {
        /* Only a clock past year 2^31 gets here: keep the line well-formed, plainly not a time. */
        static const char unknown[] = "0000-00-00T00:00:00";
        memcpy(c->text, unknown, sizeof unknown);
        c->len = sizeof unknown - 1;
    }
    c->sec = sec;
    c->valid = 1;
}

static void put_timestamp(line_buf *b, const struct timespec *now) {
    second_text *c = &tls_second;
    if (!c->valid || c->sec != now->tv_sec) {
        refresh_second(c, now->tv_sec);
    }
    put(b, c->text, c->len);
    long ms = now->tv_nsec / 1000000; /* 0..999 for a normalised timespec */
    char frac[5] = {'.', (char)('0' + ms / 100), (char)('0' + ms / 10 % 10), (char)('0' + ms % 10),
                    'Z'};
    put(b, frac, sizeof frac);
}

size_t cbd_access_log_format_at(const cbd_access_log_entry *e, const struct timespec *now,
                                char *buf, size_t size) {
    if (size == 0) {
        return 0;
    }
    line_buf b = {.buf = buf, .cap = size - 1, .len = 0};
    PUT_LIT(&b, "{\"ts\":\"");
    put_timestamp(&b, now);
    if (e->client) {
        PUT_LIT(&b, "\",\"client\":\"");
        put_escaped(&b, e->client, CLIENT_CAP);
    }
    PUT_LIT(&b, "\",\"method\":\"");
    put_escaped(&b, e->method, METHOD_CAP);
    PUT_LIT(&b, "\",\"path\":\"");
    put_escaped(&b, e->path, PATH_CAP);
    PUT_LIT(&b, "\",\"status\":");
    put_u64(&b, e->status);
    PUT_LIT(&b, ",\"duration_us\":");
    put_u64(&b, e->duration_us);
    PUT_LIT(&b, ",\"bytes_in\":");
    put_u64(&b, e->bytes_in);
    PUT_LIT(&b, ",\"bytes_out\":");
    put_u64(&b, e->bytes_out);
    PUT_LIT(&b, ",\"request_id\":\"");
    put_escaped(&b, e->request_id, REQUEST_ID_CAP);
    /* ended is one of the server's own literals, so it is copied as is. */
    PUT_LIT(&b, "\",\"ended\":\"");
    put_str(&b, e->ended);
    if (e->computed) {
        PUT_LIT(&b, "\",\"work_units\":");
        put_u64(&b, e->work_units);
        PUT_LIT(&b, ",\"mem_peak\":");
        put_u64(&b, e->mem_peak);
        PUT_LIT(&b, ",\"faults\":");
        put_u64(&b, e->faults);
        PUT_LIT(&b, "}");
    } else {
        PUT_LIT(&b, "\"}");
    }
    buf[b.len] = '\0';
    return b.len;
}

size_t cbd_access_log_format(const cbd_access_log_entry *e, char *buf, size_t size) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return cbd_access_log_format_at(e, &now, buf, size);
}

void cbdp_access_log_write(const cbd_access_log_entry *e) {
    char line[1280]; /* the caps of the fields, the cost fields and the rest fit */
    size_t n = cbd_access_log_format(e, line, sizeof line - 1);
    line[n++] = '\n';
    /* A log line that cannot be written is dropped: logging must never stop the service. */
    ssize_t written = write(STDERR_FILENO, line, n);
    (void)written;
}

void cbd_log_mhd_message(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    char text[512];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r')) {
        text[--len] = '\0';
    }
    static const char head[] = "{\"event\":\"libmicrohttpd\",\"message\":\"";
    char line[sizeof head + 6 * sizeof text + 4];
    memcpy(line, head, sizeof head - 1);
    size_t used = sizeof head - 1;
    used += escape_into(line + used, sizeof line - used - 4, text);
    memcpy(line + used, "\"}\n", 3);
    ssize_t written = write(STDERR_FILENO, line, used + 3);
    (void)written;
}
