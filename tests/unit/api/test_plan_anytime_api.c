/*
 * /plan-turn is anytime (W47): whatever ends the search (max_plans, the work share), the answer
 * is the best plan valued so far, never a 422 once a plan was valued; more max_plans never
 * lowers the value. The board: a 4 x 4 grid where the player holds the four corners (3 armies
 * each, 4 fronts, W34, one of them without goals), bob and the neutral the rest (2-5 armies),
 * the goals T0_1, T1_0, T1_3 and T3_1, income 12, luck 0.16, `expected`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static char *grid_body(unsigned max_plans) {
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

Test(plan_anytime, w43_more_max_plans_never_a_422_nor_a_lower_value) {
    const unsigned plans[4] = {1, 10, 100, 2000};
    double last = -1;
    for (size_t i = 0; i < 4; i++) {
        cbd_config cfg;
        cbd_config_defaults(&cfg);
        char *body = grid_body(plans[i]);
        json_t *doc = NULL;
        int status = api_test_run(&cfg, "/plan-turn", body, &doc, NULL);
        cr_assert_eq(status, 200, "max_plans %u: %d", plans[i], status);
        double v = json_number_at(doc, "value");
        printf("max_plans %u: value %.8g, plans_evaluated %.0f\n", plans[i], v,
               json_number_at(doc, "plans_evaluated"));
        cr_expect_geq(v, last, "max_plans %u: %.12g below %.12g", plans[i], v, last);
        cr_expect(v >= 0 && v <= 4, "max_plans %u: %.17g", plans[i], v);
        cr_expect_leq(json_number_at(doc, "plans_evaluated"), plans[i] + 4 * 17 + 4);
        last = v;
        json_decref(doc);
        free(body);
    }
}
