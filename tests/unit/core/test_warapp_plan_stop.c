/*
 * The names of what stops a plan's search (cbd_plan_stop): one per limit a client can
 * raise, none for a search that was not stopped, and the enum's order the ranking the search
 * uses when several limits ended parts of it (the highest is named).
 */
#include <criterion/criterion.h>

#include "combatd/warapp_plan.h"

Test(plan_stop_names, each_stop_has_its_answer_name) {
    cr_expect_null(cbd_plan_stop_name(CBD_PLAN_STOP_NONE));
    cr_expect_str_eq(cbd_plan_stop_name(CBD_PLAN_STOP_MAX_PLANS), "max_plans");
    cr_expect_str_eq(cbd_plan_stop_name(CBD_PLAN_STOP_WORK), "work");
    cr_expect_str_eq(cbd_plan_stop_name(CBD_PLAN_STOP_BUDGET), "budget");
    cr_expect_str_eq(cbd_plan_stop_name(CBD_PLAN_STOP_DEADLINE), "deadline");
    cr_expect_str_eq(cbd_plan_stop_name(CBD_PLAN_STOP_MEMORY), "memory");
    cr_expect_null(cbd_plan_stop_name((cbd_plan_stop)6));
}

/* A zeroed result (cbd_plan_search's start) says "not stopped". */
Test(plan_stop_names, a_zeroed_result_is_not_stopped) {
    cbd_plan_result r = {0};
    cr_expect_eq(r.stopped_by, CBD_PLAN_STOP_NONE);
    cr_expect(CBD_PLAN_STOP_NONE < CBD_PLAN_STOP_MAX_PLANS &&
              CBD_PLAN_STOP_MAX_PLANS < CBD_PLAN_STOP_WORK &&
              CBD_PLAN_STOP_WORK < CBD_PLAN_STOP_BUDGET &&
              CBD_PLAN_STOP_BUDGET < CBD_PLAN_STOP_DEADLINE &&
              CBD_PLAN_STOP_DEADLINE < CBD_PLAN_STOP_MEMORY);
}
