/*
 * The kinds of order, one row each (W12, W14, W24–W30): the phase a kind runs in, its own
 * checks, the territories it reads or writes, its exact step and its sampled step. The api's
 * table (src/api/warapp/turn/warapp_turn_kinds_json.c) holds the same kinds' JSON names, readers
 * and renders. A kind is added as one row here, its two steps in files of their own, and its
 * row on the api side (docs/architecture.md, "Adding an order kind").
 */
#include "core/warapp/turn/warapp_turn_internal.h"

/* W12: onto a territory the player owns at the start of the turn. */
static bool valid_deploy(const cbd_turn *t, const cbd_turn_order *o) {
    return o->to < t->n_territories && t->territories[o->to].owner == o->player &&
           o->armies <= CBD_WARAPP_MAX_ARMIES;
}

/* The order's `to` only (a deploy's, a blockade's, W12, W26). */
static size_t touches_target(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    (void)t;
    out[0] = o->to;
    return 1;
}

/* W14: from another territory than `to`, a percent in (0, 1] (W3). Shared with the airlift
 * (W27). */
static bool valid_move(const cbd_turn *t, const cbd_turn_order *o) {
    return o->to < t->n_territories && o->from < t->n_territories && o->from != o->to &&
           (!o->by_percent || (o->percent > 0 && o->percent <= CBD_MICRO_ONE));
}

/* W24: the map is symmetric and each list ascending (cbd_turn_validate). */
bool cbd_turn_map_borders(const cbd_turn *t, uint32_t a, uint32_t b) {
    if (!t->neighbor_off) {
        return true;
    }
    const uint32_t *lo = t->neighbors + t->neighbor_off[a];
    const uint32_t *hi = t->neighbors + t->neighbor_off[a + 1];
    while (lo < hi) { /* ascending: bisect */
        const uint32_t *mid = lo + (hi - lo) / 2;
        if (*mid == b) {
            return true;
        }
        if (*mid < b) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* W24: on a map, an attack/transfer only across a border. */
static bool valid_attack(const cbd_turn *t, const cbd_turn_order *o) {
    return valid_move(t, o) && cbd_turn_map_borders(t, o->from, o->to);
}

static size_t touches_from_to(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    (void)t;
    out[0] = o->from;
    out[1] = o->to;
    return 2;
}

/* W25, W26: a target on the board. */
static bool valid_target(const cbd_turn *t, const cbd_turn_order *o) {
    return o->to < t->n_territories;
}

/* W28: a target, and a receiver who is a player other than the giver. */
static bool valid_gift(const cbd_turn *t, const cbd_turn_order *o) {
    return o->to < t->n_territories && o->to_player < t->n_players && o->to_player != o->player;
}

/* W30: the player only. */
static bool valid_player(const cbd_turn *t, const cbd_turn_order *o) {
    (void)t;
    (void)o;
    return true;
}

/* W25: the target and, on a map, its neighbours, whose owners decide whether it may be bombed. */
static size_t touches_bomb(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    size_t n = 0;
    out[n++] = o->to;
    for (uint32_t k = t->neighbor_off ? t->neighbor_off[o->to] : 0;
         t->neighbor_off && k < t->neighbor_off[o->to + 1]; k++) {
        out[n++] = t->neighbors[k];
    }
    return n;
}

/* The first territory player p owns at the start, or UINT32_MAX. */
static uint32_t a_territory_of(const cbd_turn *t, cbd_turn_player p) {
    for (size_t i = 0; i < t->n_territories; i++) {
        if (t->territories[i].owner == p) {
            return (uint32_t)i;
        }
    }
    return UINT32_MAX;
}

/* W28 with W22: the target, and with Commanders on the board a territory of the giver and one
 * of the receiver (the groups join every territory of a Commander's player), since a gifted
 * Commander's death may eliminate either and turn every territory of theirs neutral. */
static size_t touches_gift(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    size_t n = 0;
    out[n++] = o->to;
    bool commanders = false;
    for (size_t u = 0; u < t->n_units; u++) {
        commanders = commanders || t->units[u].commander;
    }
    uint32_t a = commanders ? a_territory_of(t, o->player) : UINT32_MAX;
    uint32_t b = commanders ? a_territory_of(t, o->to_player) : UINT32_MAX;
    out[n] = a;
    n += a != UINT32_MAX;
    out[n] = b;
    n += b != UINT32_MAX;
    return n;
}

/* W30: order priority and delay touch no territory: they run no step, and the plan reads them
 * into the attack/transfer phase's schedule. */
static size_t touches_none(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    (void)t;
    (void)o;
    (void)out;
    return 0;
}

/* One row per kind of CBD_ORDER_KIND_LIST (include/combatd/warapp_turn.h): its core columns.
 * Deploys and W30's cards run in no sequence: their steps are the `none` ones, never called. */
#define CORE_ROW(ID, json, game, phase, units, check, touches, step, ...)                          \
    [CBD_ORDER_##ID] = {CBD_PHASE_##phase,      units,                                             \
                        valid_##check,          touches_##touches,                                 \
                        cbdp_turn_exact_##step, cbdp_turn_sim_##step},
static const cbd_turn_kind turn_kinds[CBD_ORDER_KINDS] = {CBD_ORDER_KIND_LIST(CORE_ROW)};
#undef CORE_ROW

const cbd_turn_kind *cbdp_turn_kind_of(cbd_turn_order_type type) {
    static const cbd_turn_kind unknown = {CBD_PHASE_NONE, false, NULL, NULL, NULL, NULL};
    return (unsigned)type < CBD_ORDER_KINDS ? &turn_kinds[type] : &unknown;
}

cbd_turn_phase cbd_turn_kind_phase(cbd_turn_order_type type) {
    return cbdp_turn_kind_of(type)->phase;
}
