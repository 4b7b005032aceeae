/*
 * What the exact engine's steps charge and how they refuse (see warapp_turn_internal.h): the
 * refusals that name an order, the cache misses of a large map, the states a step may hold and
 * the units of storing one, shared by warapp_turn_step.c and warapp_turn_retire.c.
 */
#include "core/warapp/turn/warapp_turn_internal.h"

cbd_status cbdp_turn_too_large(cbd_turn_engine *e, cbd_turn_err_kind kind, size_t oi,
                               uint64_t needed, uint64_t limit) {
    e->err->kind = kind;
    e->err->index = oi;
    e->err->needed = needed;
    e->err->limit = limit;
    return CBD_ERR_TOO_LARGE;
}

/* A status of the engine's, with the order being run named when the budget stopped it. */
cbd_status cbdp_turn_stopped(cbd_turn_engine *e, cbd_status st) {
    if (st == CBD_ERR_BUDGET || st == CBD_ERR_NOMEM) {
        e->err->kind = CBD_TURN_ERR_BUDGET;
        e->err->index = e->order;
    }
    return st;
}

/*
 * After a step has added `adds` states (new or merged) to e->next: their cache misses, when
 * the map they went to turned out larger than the cache (its keys, probabilities, hashes and
 * slots, and two table slots a state). Charged once the map's size is known, since states
 * merge as they are added (a battle of 10^5 outcomes may leave 10 states); those the map
 * charged already as it grew past the cache (cbdp_turn_map_add) are not charged again.
 */
cbd_status cbdp_turn_charge_misses(cbd_turn_engine *e, uint64_t adds) {
    if (cbdp_turn_map_past_cache(&e->next) && adds > e->next.missed) {
        uint64_t owed = adds - e->next.missed;
        e->next.missed = adds;
        if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_TURN_MISS, owed))) {
            return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
        }
    }
    return CBD_OK;
}

/* The most states one step may hold: max_states, and fewer for a large group, whose states
 * are large too (max_state_words bounds their memory). */
uint64_t cbdp_turn_state_cap(const cbd_turn_engine *e) {
    uint64_t by_words = e->limits->max_state_words / (e->cur.words ? e->cur.words : 1);
    return by_words < e->limits->max_states ? by_words : e->limits->max_states;
}

/* W21: what looking over a state's units costs (its listed order, the units to send): each
 * unit read, and at worst sorted by rank (cbdp_turn_gunits_on: two passes more). Linear since
 * that sort is: the square of the units it charged when it was an insertion put bench_budget's
 * unit turns at 3.2-3.4 units a nanosecond (32+32 Commanders, 64 under the random order). */
uint64_t cbdp_turn_unit_scan(const cbd_turn_engine *e) {
    return cbd_work_times(CBD_WORK_UNIT_DAMAGE + 2 * CBD_WORK_SCAN_TERM, e->gu.n);
}

/* The units of one state stored (or merged) in a map, `base` plus its words hashed, compared
 * and copied (the cache misses of a large map come after, cbdp_turn_charge_misses). */
uint64_t cbdp_turn_state_units(const cbd_turn_engine *e, uint64_t base) {
    return base + cbd_work_times(CBD_WORK_TURN_WORD, e->cur.words);
}
