#ifndef COMBATD_API_WARZONE_POSITION_H
#define COMBATD_API_WARZONE_POSITION_H

/* /warzone/plan-turn's `objective: "position"` (W48, W49; warzone_position.c). */
#include "api/warapp/plan/warapp_plan_position_json.h"
#include "warzone_internal.h"

/*
 * /plan-turn's position members from the game's JSON, into doc: `base_income` the game's
 * MinimumArmyBonus, `incomes` gameInfo.incomes' freeArmies of the other players standing on the
 * board (the planning player's is `income`). False when memory ran out.
 */
bool cbdp_wz_position_members(const cbdp_wz_turn *t, const char *player, json_t *doc);

/* W49: the request's `others` ({weight, orders: the game's orders}), their orders translated as
 * the request's own after them (one list), then split again. */
typedef struct {
    cbd_plan_others game;                       /* in the game's orders' numbering */
    size_t doc_own;                             /* the request's own orders once translated */
    size_t doc_off[CBD_PLAN_MAX_SCENARIOS + 1]; /* scenario i: [doc_own + off[i], ...+ off[i+1]) */
} cbdp_wz_others;

/* The request to read (request, or *copy with `orders` the request's then every scenario's),
 * as cbd_plan_others_merge; `orders` may be absent here (none). False with the problem. */
bool cbdp_wz_others_merge(const json_t *request, json_t **copy, cbdp_wz_others *o,
                          cbd_problem *problem);

/* After the turn's translation: doc's `orders` the request's own and `others` the scenarios,
 * each with its translated orders. False when memory ran out. */
bool cbdp_wz_others_split(cbdp_wz_turn *t, cbdp_wz_others *o);

/* /plan-turn's /others/i/orders/j as the translated list's /orders/k, before
 * cbdp_wz_problem_to_game; then (cbdp_wz_others_after) the game's /orders/k as
 * /others/i/orders/j. */
void cbdp_wz_others_before(const cbdp_wz_others *o, cbd_problem *problem);
void cbdp_wz_others_after(const cbdp_wz_others *o, cbd_problem *problem);

#endif
