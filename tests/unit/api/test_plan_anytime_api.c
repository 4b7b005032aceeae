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
#include "plan_grid.h"

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
