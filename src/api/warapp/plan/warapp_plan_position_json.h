#ifndef COMBATD_API_WARAPP_PLAN_POSITION_JSON_H
#define COMBATD_API_WARAPP_PLAN_POSITION_JSON_H

/*
 * /plan-turn's `objective: "position"` (W48, W49): the members `base_income`, `incomes` and
 * `others` (warapp_plan_others_json.c: the scenarios' orders read as the request's), the
 * scenarios of the others' orders and the answer (warapp_plan_position_json.c).
 */
#include "warapp_plan_json.h"

/* The most scenarios a request may give in `others`: each costs one analysis per plan. */
#define CBD_PLAN_MAX_SCENARIOS 8

/* The default base income (W48): Warzone's and the warlight2 engine's MinimumArmyBonus. */
#define CBD_PLAN_DEFAULT_BASE_INCOME 5

/* `others`' orders are read as the request's own `orders` (one list: the request's orders,
 * then each scenario's in turn); where each begins. */
typedef struct {
    size_t n_own; /* the request's `orders` */
    size_t n_others;
    size_t off[CBD_PLAN_MAX_SCENARIOS + 1]; /* scenario i: [n_own + off[i], n_own + off[i+1]) */
    double weight[CBD_PLAN_MAX_SCENARIOS];
} cbdp_plan_others;

/* W48, W49: what the position objective read (cbd_plan_read.position). */
typedef struct cbdp_plan_position {
    cbd_plan_scenario scenarios[CBD_PLAN_MAX_SCENARIOS];
    char names[CBD_PLAN_MAX_SCENARIOS][24];
    cbd_turn_order *hold, *strike; /* the default scenarios' orders */
    uint64_t *incomes;             /* per player */
    json_t *warnings;              /* strings */
} cbdp_plan_position;

/*
 * The request to read: `request` itself, or (when it gives `others`) a copy in *copy whose
 * `orders` are the request's then every scenario's, so that the turn reader checks them as the
 * request's own; *o says where each list begins. False with a 422 for a malformed `others` or
 * `others` under another objective (or a 500).
 */
bool cbdp_plan_others_merge(const json_t *request, json_t **copy, cbdp_plan_others *o,
                            cbd_problem *problem);

/* The problem's pointers into the merged `orders` as the request's: /orders/<n_own + off[i] +
 * j>/... is /others/i/orders/j/.... */
void cbdp_plan_others_pointers(const cbdp_plan_others *o, cbd_problem *problem);

/*
 * The position members of a request read with objective "position": no `goal` (the goals are
 * the frontier, cbd_plan_position_goals), `base_income`, `incomes`, and the scenarios (the
 * request's `others`, else the default "hold" and "strike", else the one "given"). q's turn
 * keeps the request's own orders only. False with the problem (or a 500).
 */
bool cbdp_plan_position_read(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q,
                             const cbdp_plan_others *o, cbd_plan_read *pr);

/* Refuses the position members under another objective (false with a 422). */
bool cbdp_plan_position_members_absent(const cbd_reader *r);

/* The answer of a position plan (the members of /plan-turn's, with `scenarios` and `warnings`,
 * and `analysis` the first scenario's turn). */
bool cbdp_plan_position_render(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                               const cbd_plan_read *pr, const cbd_plan_result *res, cbd_jw *out,
                               cbd_problem *problem);

void cbdp_plan_position_free(cbdp_plan_position *p);

#endif
