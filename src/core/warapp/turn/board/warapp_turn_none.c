/*
 * The steps of the kinds that run in no sequence (their `step` column is `none` in
 * CBD_ORDER_KIND_LIST): deploys (W12: the plan starts every engine from the board after them)
 * and W30's cards (they reorder the schedule). The engines never call them; they would change
 * nothing.
 */
#include "core/warapp/turn/warapp_turn_internal.h"

cbd_status cbdp_turn_exact_none(cbd_turn_engine *e, size_t oi, double weight) {
    (void)e;
    (void)oi;
    (void)weight;
    return CBD_OK;
}

bool cbdp_turn_sim_none(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                        cbd_turn_territory *board, cbd_rng *rng, cbd_turn_event *ev) {
    (void)sim;
    (void)budget;
    (void)o;
    (void)board;
    (void)rng;
    (void)ev;
    return true;
}
