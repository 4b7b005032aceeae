#ifndef COMBATD_TESTS_PLAN_GRID_H
#define COMBATD_TESTS_PLAN_GRID_H

/*
 * A /plan-turn body on a 4 x 4 grid: the player at the four corners (4 fronts, W34), four goals,
 * income 12, `expected`, luck 0.16: too many plans for a small budget to search whole, so the
 * plan tests of anytime answers and of what stopped a search share one board. Include after
 * <criterion/criterion.h>; free the body with free().
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *grid_body(unsigned max_plans) {
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    cr_assert_not_null(b);
    n += (size_t)snprintf(b + n, cap - n, "{\"territories\": {");
    char goals[2048] = "";
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++) {
            bool own = r % 3 == 0 && c % 3 == 0;
            n += (size_t)snprintf(b + n, cap - n,
                                  "%s\"T%d_%d\": {\"owner\": \"%s\", \"armies\": %d, "
                                  "\"neighbors\": [",
                                  r + c ? ", " : "", r, c,
                                  own           ? "me"
                                  : (r + c) % 2 ? "bob"
                                                : "neutral",
                                  own ? 3 : 2 + (r * 7 + c) % 4);
            bool first = true;
            if (c + 1 < 4) {
                n += (size_t)snprintf(b + n, cap - n, "\"T%d_%d\"", r, c + 1);
                first = false;
            }
            if (r + 1 < 4) {
                n += (size_t)snprintf(b + n, cap - n, "%s\"T%d_%d\"", first ? "" : ", ", r + 1, c);
            }
            n += (size_t)snprintf(b + n, cap - n, "]}");
            if (!own && (r % 3 == 0 || c % 3 == 0) && r % 3 != 2 && c % 3 != 2) {
                size_t g = strlen(goals);
                snprintf(goals + g, sizeof goals - g, "%s\"T%d_%d\"", g ? ", " : "", r, c);
            }
        }
    }
    n += (size_t)snprintf(b + n, cap - n,
                          "}, \"player\": \"me\", \"income\": 12, \"objective\": \"expected\", "
                          "\"goal\": {\"capture\": [%s]}, \"settings\": {\"luck_modifier\": "
                          "0.16}, \"max_plans\": %u}",
                          goals, max_plans);
    cr_assert_lt(n, cap);
    return b;
}

#endif
