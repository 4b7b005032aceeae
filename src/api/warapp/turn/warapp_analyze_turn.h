#ifndef COMBATD_API_WARAPP_ANALYZE_TURN_H
#define COMBATD_API_WARAPP_ANALYZE_TURN_H

/* /analyze-turn's answer, for the endpoints that answer a turn's analysis too
 * (warapp_analyze_turn.c). */
#include "warapp_turn_json.h"

/* The analysis of q's turn as /analyze-turn answers it (one JSON object written to `out`),
 * refused up front when even its floor passes the answer cap; false with the problem. */
bool cbd_turn_analysis_answer(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                              const cbd_turn_analysis *a, uint32_t max_points, cbd_jw *out,
                              cbd_problem *problem);

#endif
