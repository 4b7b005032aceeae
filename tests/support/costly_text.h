#ifndef COMBATD_TEST_COSTLY_TEXT_H
#define COMBATD_TEST_COSTLY_TEXT_H

/*
 * A growing text for building request bodies too long to write out, shared by the tables of
 * costly requests (costly_requests.h, duper_costly.h), their tests and the benchmarks.
 * Header-only and without Criterion, so a benchmark can use it; an allocation that fails ends
 * the program (tests and benchmarks only).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t len, cap;
} costly_buf;

static inline void costly_add(costly_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void costly_add(costly_buf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            abort();
        }
        if (b->p && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        b->cap = 2 * (b->len + (size_t)n) + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            abort();
        }
    }
}

/* Drops a trailing ", " (the last item of a list or object). */
static inline void costly_unadd_comma(costly_buf *b) {
    if (b->len >= 2 && b->p[b->len - 2] == ',') {
        b->len -= 2;
        b->p[b->len] = '\0';
    }
}

static inline char *costly_strdup(const char *s) {
    char *copy = strdup(s);
    if (!copy) {
        abort();
    }
    return copy;
}

#endif
