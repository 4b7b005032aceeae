#ifndef COMBATD_API_WARAPP_PLAN_JSON_H
#define COMBATD_API_WARAPP_PLAN_JSON_H

/* The members of a /plan-turn request besides the turn's (W31; warapp_plan_json.c). */
#include "combatd/warapp_plan.h"
#include "api/warapp/turn/warapp_turn_json.h"

/* The plans analysed at most: the default, and the most a request may ask for. */
#define CBD_PLAN_DEFAULT_MAX_PLANS 2000
#define CBD_PLAN_MAX_PLANS         100000

#define CBD_PLAN_KEYS                                                                              \
    "player", "income", "goal", "objective", "max_plans", "max_work", "base_income", "incomes",    \
        "others"

typedef struct {
    cbd_plan_request req;
    uint32_t *goals; /* capture then hold, territory indices (malloc'd: cbdp_plan_read_free) */
    size_t n_capture;
    /* W32, `income`: the bonuses valued (req.bonuses) and their indices in the turn's bonuses
     * (malloc'd, or NULL for the other objectives) */
    cbd_turn_bonus *bonuses;
    size_t *bonus_index;
    /* W48, W49: objective "position" (warapp_plan_position_json.h, freed by
     * cbdp_plan_position_free; NULL for the others) */
    struct cbdp_plan_position *position;
    uint64_t max_work; /* the request's `max_work` (work units), 0 when absent */
} cbd_plan_read;

/*
 * Reads player, income, goal, objective and max_plans of a request whose turn q was read, and
 * checks the turn for planning: every territory lists `neighbors` (W24), the player's own
 * armies are known (W23), no order is the player's. CBD_READ_OK when all hold and nothing of
 * the request was refused, CBD_READ_INVALID with every offending member recorded,
 * CBD_READ_NO_MEMORY with the 500 recorded (cbd_api_read_status). Free with cbdp_plan_read_free
 * whatever it returned.
 */
cbd_read_status cbdp_plan_read_request(const cbd_reader *r, const cbd_warapp_config *cfg,
                                       const cbd_turn_request *q, cbd_plan_read *out);

void cbdp_plan_read_free(cbd_plan_read *p);

/* "orders": a plan's orders as /analyze-turn takes them. */
void cbdp_plan_orders_json(cbd_jw *w, const cbd_turn_request *q, const cbd_plan *p);

/* "all", "expected", "income" or "position". */
const char *cbdp_plan_objective_name(cbd_plan_objective o);

#endif
