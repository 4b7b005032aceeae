/*
 * /plan-turn's `others` (W49): scenarios of the other players' orders, each {weight, orders}.
 * Their orders are read by the turn reader as the request's own (one list: the request's
 * `orders`, then each scenario's), so that every order kind, id and limit is checked once, in
 * one place; the problem's pointers are then written back as the request's
 * (/others/1/orders/0/armies).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"
#include "warapp_plan_position_json.h"

static const char *const scenario_keys[] = {"weight", "orders", NULL};

/* The largest weight: a ratio of scenarios, not an amount. */
#define WEIGHT_MAX 1e9

/* One scenario: weight a number in (0, 10^9], orders an array; *orders its array. */
static bool read_scenario(const cbd_reader *root, size_t i, double *weight, const json_t **orders) {
    cbd_reader item;
    if (!cbd_reader_open_item(&item, root, "others", i, scenario_keys)) {
        return false;
    }
    const json_t *w = cbd_reader_member(&item, "weight");
    bool ok = true;
    if (!json_is_number(w) || !(json_number_value(w) > 0) || json_number_value(w) > WEIGHT_MAX) {
        cbd_reader_error(&item, "weight",
                         "is required: a number above 0 and at most 10^9, the scenario's weight "
                         "(the weights are divided by their sum, W49)");
        ok = false;
    } else {
        *weight = json_number_value(w);
    }
    cbd_field f = cbd_read_array(&item, "orders", SIZE_MAX, orders);
    if (f == CBD_FIELD_ABSENT) {
        cbd_reader_error(&item, "orders",
                         "is required: the other players' orders in this scenario, as `orders` "
                         "takes them ([] for none)");
    }
    return ok && f == CBD_FIELD_OK;
}

bool cbdp_plan_others_merge(const json_t *request, json_t **copy, cbdp_plan_others *o,
                            cbd_problem *problem) {
    memset(o, 0, sizeof *o);
    *copy = NULL;
    const json_t *others = json_object_get(request, "others");
    const json_t *orders = json_object_get(request, "orders");
    o->n_own = json_array_size(orders);
    if (!others || !json_is_object(request)) {
        return true;
    }
    const json_t *objective = json_object_get(request, "objective");
    if (!json_is_string(objective) || strcmp(json_string_value(objective), "position") != 0) {
        cbd_problem_field(problem, "/others",
                          "is read under objective \"position\" only: the other players' orders "
                          "as weighted scenarios (W49)");
        return false;
    }
    size_t n = json_array_size(others);
    if (!json_is_array(others) || n == 0 || n > CBD_PLAN_MAX_SCENARIOS) {
        cbd_problem_field(problem, "/others",
                          "must be an array of 1 to %d scenarios {\"weight\": number, "
                          "\"orders\": [...]} (W49)",
                          CBD_PLAN_MAX_SCENARIOS);
        return false;
    }
    cbd_reader root = {.obj = request, .pointer = "", .problem = problem};
    const json_t *lists[CBD_PLAN_MAX_SCENARIOS];
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        ok &= read_scenario(&root, i, &o->weight[i], &lists[i]);
    }
    if (!ok || !json_is_array(orders)) {
        return ok; /* a malformed `orders` is the turn reader's to name */
    }
    json_t *all = json_array();
    *copy = json_copy((json_t *)request);
    ok = all && *copy && json_array_extend(all, (json_t *)orders) == 0;
    for (size_t i = 0; ok && i < n; i++) {
        o->off[i] = json_array_size(all) - o->n_own;
        ok = json_array_extend(all, (json_t *)lists[i]) == 0;
    }
    o->off[n] = json_array_size(all) - o->n_own;
    o->n_others = n;
    if (!ok || json_object_set_new(*copy, "orders", all) != 0) {
        if (!ok) {
            json_decref(all);
        }
        return cbd_api_oom_problem(problem);
    }
    return true;
}

void cbdp_plan_others_pointers(const cbdp_plan_others *o, cbd_problem *problem) {
    for (size_t e = 0; o->n_others > 0 && e < problem->n_errors; e++) {
        char *p = problem->errors[e].pointer;
        if (strncmp(p, "/orders/", 8) != 0 || p[8] < '0' || p[8] > '9') {
            continue;
        }
        char *rest;
        unsigned long long k = strtoull(p + 8, &rest, 10);
        if (k < o->n_own) {
            continue;
        }
        size_t j = (size_t)k - o->n_own, i = 0;
        while (i + 1 < o->n_others && j >= o->off[i + 1]) {
            i++;
        }
        char out[sizeof problem->errors[e].pointer];
        snprintf(out, sizeof out, "/others/%zu/orders/%zu%s", i, j - o->off[i], rest);
        memcpy(p, out, sizeof out);
    }
}
