/*
 * The cards' sampled steps (W25–W28): each card on the board of one seeded turn. A card draws
 * nothing; it is charged CBD_WORK_TURN_ORDER with the other orders (cbd_turn_sim_one) and the
 * units or borders it looks over. What it does is the rule of its exact step
 * (warapp_turn_cards.c), on one board.
 */
#include "warapp_turn_sim_internal.h"

/* The event of a card that ran (W24): its kind, and for an airlift the armies sent. */
static bool played(cbd_turn_event *ev, uint64_t sent) {
    ev->kind = CBD_TURN_PLAYED;
    ev->sent = sent;
    return true;
}

static bool skipped(cbd_turn_event *ev) {
    ev->kind = CBD_TURN_SKIPPED;
    return true;
}

/* W25: on a map, whether the target borders a territory the player owns now. */
static bool next_to_player(const cbd_turn *t, const cbd_turn_order *o,
                           const cbd_turn_territory *b) {
    for (uint32_t i = t->neighbor_off ? t->neighbor_off[o->to] : 0;
         t->neighbor_off && i < t->neighbor_off[o->to + 1]; i++) {
        if (b[t->neighbors[i]].owner == o->player) {
            return true;
        }
    }
    return !t->neighbor_off;
}

bool cbdp_turn_sim_bomb(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                        cbd_turn_territory *b, cbd_rng *rng, cbd_turn_event *ev) {
    (void)rng;
    const cbd_turn *t = sim->plan.turn;
    uint64_t near = t->neighbor_off ? t->neighbor_off[o->to + 1] - t->neighbor_off[o->to] : 0;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, near))) {
        return false;
    }
    cbd_turn_player owner = b[o->to].owner;
    if (cbdp_turn_is_own(&sim->plan, o->player, owner) ||
        cbdp_turn_at_peace(&sim->plan, o->player, owner) || !next_to_player(t, o, b)) {
        return skipped(ev);
    }
    b[o->to].armies /= 2;
    if (sim->eligible[o->to] > b[o->to].armies) {
        sim->eligible[o->to] = b[o->to].armies; /* W15 */
    }
    return played(ev, 0);
}

bool cbdp_turn_sim_blockade(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                            cbd_turn_territory *b, cbd_rng *rng, cbd_turn_event *ev) {
    (void)rng;
    uint32_t on[CBD_TURN_MAX_UNITS];
    const cbd_turn *t = sim->plan.turn;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SIM_UNIT, t->n_units))) {
        return false;
    }
    if (b[o->to].owner != o->player || (t->n_units > 0 && cbdp_turn_sim_units_on(sim, o->to, on))) {
        return skipped(ev);
    }
    b[o->to].owner = CBD_TURN_NEUTRAL;
    b[o->to].armies = cbdp_turn_blockaded(t, o->type, b[o->to].armies);
    sim->eligible[o->to] = 0;
    return played(ev, 0);
}

bool cbdp_turn_sim_airlift(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                           cbd_turn_territory *b, cbd_rng *rng, cbd_turn_event *ev) {
    (void)rng;
    const cbd_turn *t = sim->plan.turn;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SIM_UNIT, t->n_units))) {
        return false;
    }
    cbd_turn_player to_owner = b[o->to].owner;
    if (b[o->from].owner != o->player || !cbdp_turn_is_own(&sim->plan, o->player, to_owner)) {
        return skipped(ev);
    }
    uint64_t *elig = sim->eligible;
    uint64_t sent = cbdp_turn_sent(t, o, b[o->from].armies, elig[o->from]);
    uint32_t units[CBD_TURN_MAX_UNITS];
    size_t n_units = o->n_units ? cbdp_turn_sim_sendable(sim, o, to_owner, units) : 0;
    if (sent == 0 && n_units == 0) {
        return skipped(ev);
    }
    b[o->from].armies -= sent;
    elig[o->from] = elig[o->from] > sent ? elig[o->from] - sent : 0;
    b[o->to].armies += sent; /* not eligible (W15) */
    for (size_t i = 0; i < n_units; i++) {
        ev->units_sent |= UINT64_C(1) << units[i];
    }
    cbdp_turn_sim_arrive(sim, units, n_units, o->to); /* W21: moved */
    return played(ev, sent);
}

bool cbdp_turn_sim_gift(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                        cbd_turn_territory *b, cbd_rng *rng, cbd_turn_event *ev) {
    (void)rng;
    const cbd_turn *t = sim->plan.turn;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SIM_UNIT, t->n_units))) {
        return false;
    }
    if (b[o->to].owner != o->player) {
        return skipped(ev);
    }
    b[o->to].owner = o->to_player; /* with its units (W21: a unit is its territory's owner's) */
    sim->eligible[o->to] = 0;
    for (size_t u = 0; u < t->n_units; u++) {
        sim->moved[u] = sim->moved[u] || sim->unit_at[u] == o->to; /* W28 */
    }
    return played(ev, 0);
}
