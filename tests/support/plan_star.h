#ifndef COMBATD_TESTS_PLAN_STAR_H
#define COMBATD_TESTS_PLAN_STAR_H

/*
 * A /plan-turn body on a star: the player's hub H (5 armies) borders six goals G0-G5 of 6-11
 * armies (bob's and the neutral's in turn), income 36, `expected`, luck 0.5, max_plans 100000.
 * Its search improves with work for some 10^7 units and is not done within 2.5·10^8 (the
 * greedy split is 2.817, 4·10^6 units find 2.853), so that `max_work` and the request's budget
 * end it. `max_work` 0 leaves the member out. Include after <criterion/criterion.h>; free the
 * body with free().
 */
#include <stdio.h>
#include <stdlib.h>

static inline char *star_body(unsigned long long max_work) {
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    cr_assert_not_null(b);
    n += (size_t)snprintf(b + n, cap - n,
                          "{\"territories\": {\"H\": {\"owner\": \"me\", \"armies\": 5, "
                          "\"neighbors\": [\"G0\", \"G1\", \"G2\", \"G3\", \"G4\", \"G5\"]}");
    for (int i = 0; i < 6; i++) {
        n += (size_t)snprintf(b + n, cap - n,
                              ", \"G%d\": {\"owner\": \"%s\", \"armies\": %d, \"neighbors\": []}",
                              i, i % 2 ? "bob" : "neutral", 6 + i);
    }
    n += (size_t)snprintf(b + n, cap - n,
                          "}, \"player\": \"me\", \"income\": 36, \"objective\": \"expected\", "
                          "\"goal\": {\"capture\": [\"G0\", \"G1\", \"G2\", \"G3\", \"G4\", "
                          "\"G5\"]}, \"settings\": {\"luck_modifier\": 0.5}, \"max_plans\": "
                          "100000");
    if (max_work > 0) {
        n += (size_t)snprintf(b + n, cap - n, ", \"max_work\": %llu", max_work);
    }
    n += (size_t)snprintf(b + n, cap - n, "}");
    cr_assert_lt(n, cap);
    return b;
}

#endif
