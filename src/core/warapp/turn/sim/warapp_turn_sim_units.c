/*
 * The units on the board of one seeded turn (W21, W22): which an order can send, where they
 * arrive, which stand on a territory in W19's listed order, what a battle leaves of them, and
 * the elimination of a player whose last Commander died. Every sampled step uses them.
 */
#include "warapp_turn_sim_internal.h"

/* W21: the units order o can send from its `from` (on it, not moved without multi_attack, and
 * not onto a teammate's territory unless it attacks it, W33), in the order listed. */
size_t cbdp_turn_sim_sendable(const cbd_turn_sim *sim, const cbd_turn_order *o,
                              cbd_turn_player to_owner, uint32_t *out) {
    const cbd_turn *t = sim->plan.turn;
    if (to_owner != o->player && cbdp_turn_moves_own(&sim->plan, o, to_owner)) {
        return 0; /* W21: such units stay on `from` */
    }
    size_t n = 0;
    for (size_t k = 0; k < o->n_units; k++) {
        uint32_t u = o->units[k];
        if (sim->unit_at[u] == o->from && (t->multi_attack || !sim->moved[u])) {
            out[n++] = u;
        }
    }
    return n;
}

/* W21: units arrive on territory `to` after those there, in the order of `list`. */
void cbdp_turn_sim_arrive(cbd_turn_sim *sim, const uint32_t *list, size_t n, uint32_t to) {
    for (size_t i = 0; i < n; i++) {
        sim->unit_at[list[i]] = to;
        sim->arrival[list[i]] = sim->next_arrival++;
        sim->moved[list[i]] = true;
    }
}

/* The units on territory `at` in W19's listed order (ascending arrival). */
size_t cbdp_turn_sim_units_on(const cbd_turn_sim *sim, uint32_t at, uint32_t *out) {
    size_t n = 0;
    for (size_t u = 0; u < sim->plan.turn->n_units; u++) {
        if (sim->unit_at[u] != at) {
            continue;
        }
        size_t j = n++;
        while (j > 0 && sim->arrival[out[j - 1]] > sim->arrival[u]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint32_t)u;
    }
    return n;
}

/* W22: player p, who started with a Commander, has none left: every territory of theirs
 * becomes neutral with what it holds. */
void cbdp_turn_sim_eliminate_if_last(cbd_turn_sim *sim, cbd_turn_territory *b, cbd_turn_player p) {
    const cbd_turn *t = sim->plan.turn;
    if (p == CBD_TURN_NEUTRAL || !sim->has_commander[p] || sim->eliminated[p]) {
        return;
    }
    for (size_t u = 0; u < t->n_units; u++) {
        /* W28: a unit is its territory's owner's, so a gifted Commander counts as the
         * receiver's. */
        if (t->units[u].commander && sim->unit_at[u] != CBD_TURN_UNIT_DEAD &&
            b[sim->unit_at[u]].owner == p) {
            return;
        }
    }
    sim->eliminated[p] = true;
    for (size_t i = 0; i < sim->plan.n_terr; i++) {
        if (b[i].owner == p) {
            b[i].owner = CBD_TURN_NEUTRAL;
            sim->eligible[i] = 0;
        }
    }
}

/* One side of a battle with its units as they stand (a health unit's toughness: its health). */
void cbdp_turn_sim_side_with_units(const cbd_turn_sim *sim, uint64_t armies, const uint32_t *list,
                                   size_t n, cbd_warapp_unit *units, cbd_warapp_side *side) {
    for (size_t i = 0; i < n; i++) {
        units[i] = sim->plan.turn->units[list[i]].unit;
        if (units[i].has_health) {
            units[i].toughness = sim->health[list[i]];
        }
    }
    *side = (cbd_warapp_side){armies, n, units};
}

/* W19: the units of a side after its damage; returns whether a Commander of them died. */
bool cbdp_turn_sim_units_take(cbd_turn_sim *sim, const uint32_t *list, size_t n,
                              const uint64_t *left, cbd_turn_event *ev) {
    bool commander = false;
    for (size_t i = 0; i < n; i++) {
        if (left[i] == 0) {
            sim->unit_at[list[i]] = CBD_TURN_UNIT_DEAD;
            ev->units_died |= UINT64_C(1) << list[i];
            commander = commander || sim->plan.turn->units[list[i]].commander;
        } else {
            sim->health[list[i]] = left[i];
        }
    }
    return commander;
}
