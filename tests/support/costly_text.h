#ifndef COMBATD_TEST_COSTLY_TEXT_H
#define COMBATD_TEST_COSTLY_TEXT_H

/*
 * A growing text for building request bodies too long to write out, shared by the tables of
 * costly requests (costly_requests.h, duper_costly.h), their tests and the benchmarks.
 * Header-only and without Criterion, so a benchmark can use it; an allocation that fails ends
 * the program (tests and benchmarks only).
 */
#include <stdarg.h>
#include <stdbool.h>
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

/* An /analyze-turn body: one battle of `armies` a side at full luck, then `zeros` orders that
 * send nothing to `to`: under the random move order by 7 players (T2: in a group of their own;
 * B: in the battle's, whose 5,040 schedules then each run the battle), else by one player (each
 * a step over every state the battle left). */
static inline char *costly_battle_then_zeros(int armies, int zeros, bool random, const char *to) {
    costly_buf t = {0};
    costly_add(&t,
               "{\"territories\": {\"A\": {\"owner\": \"p0\", \"armies\": %d}, \"B\": "
               "{\"owner\": \"p1\", \"armies\": %d}, \"T1\": {\"owner\": \"p1\", \"armies\": "
               "1}, \"T2\": {\"owner\": \"p2\", \"armies\": 1}}, \"orders\": [{\"player\": "
               "\"p0\", \"from\": \"A\", \"to\": \"B\", \"armies\": %d}",
               armies, armies, armies);
    for (int i = 0; i < zeros; i++) {
        costly_add(&t, ", {\"player\": \"p%d\", \"from\": \"%s\", \"to\": \"%s\", \"armies\": 0}",
                   random ? 1 + i % 7 : 2, random ? "T1" : "T2", to);
    }
    costly_add(&t,
               "], \"settings\": {\"luck_modifier\": 1}, \"move_order\": \"%s\", "
               "\"max_distribution_points\": 100}",
               random ? "random" : "listed");
    return t.p;
}

/* An /analyze-turn or /simulate-turn body: `pairs` battles of `a` against `d` armies at full
 * luck, one group each, each sent in `per_pair` orders; `extra` members. */
static inline char *costly_many_battles(int pairs, int a, int d, int per_pair, const char *extra) {
    costly_buf t = {0};
    costly_add(&t, "{\"territories\":{");
    for (int i = 0; i < pairs; i++) {
        costly_add(&t,
                   "%s\"A%d\":{\"owner\":\"p0\",\"armies\":%d},\"B%d\":{\"owner\":\"p1\","
                   "\"armies\":%d}",
                   i ? "," : "", i, a, i, d);
    }
    costly_add(&t, "},\"orders\":[");
    for (int i = 0; i < pairs * per_pair; i++) {
        costly_add(&t, "%s{\"player\":\"p0\",\"from\":\"A%d\",\"to\":\"B%d\",\"armies\":%d}",
                   i ? "," : "", i / per_pair, i / per_pair, a / per_pair);
    }
    costly_add(&t, "],\"settings\":{\"luck_modifier\":1}%s}", extra);
    return t.p;
}

#endif
