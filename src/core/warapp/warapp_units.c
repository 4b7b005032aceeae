/* War.app special units (W17): power (W18), combat order and damage (W19); see
 * warapp_units.h. */
#include "combatd/warapp_units.h"

static uint64_t add_sat(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

cbd_warapp_unit cbd_warapp_commander(void) {
    cbd_warapp_unit u = {
        .attack_power = CBD_COMMANDER_POWER,
        .defense_power = CBD_COMMANDER_POWER,
        .combat_order = CBD_COMMANDER_COMBAT_ORDER,
        .has_health = false,
        .toughness = CBD_COMMANDER_DAMAGE,
    };
    return u;
}

uint64_t cbd_warapp_side_power(const cbd_warapp_side *side, bool attacking) {
    uint64_t power = side->armies;
    for (size_t i = 0; i < side->n_units; i++) {
        const cbd_warapp_unit *u = &side->units[i];
        power = add_sat(power, attacking ? u->attack_power : u->defense_power);
    }
    return power;
}

uint64_t cbd_warapp_side_toughness(const cbd_warapp_side *side) {
    uint64_t t = side->armies;
    for (size_t i = 0; i < side->n_units; i++) {
        t = add_sat(t, side->units[i].toughness);
    }
    return t;
}

/* Whether unit a takes damage before unit b: lower combat order first, ties in listed order. */
static bool before(const cbd_warapp_side *side, size_t a, size_t b) {
    int64_t oa = side->units[a].combat_order, ob = side->units[b].combat_order;
    return oa < ob || (oa == ob && a < b);
}

void cbd_warapp_damage_order(const cbd_warapp_side *side, size_t *order, size_t *n_before) {
    /* Insertion sort: at most CBD_WARAPP_MAX_UNITS entries, and stable by construction. */
    size_t negative = 0;
    for (size_t i = 0; i < side->n_units; i++) {
        size_t j = i;
        while (j > 0 && before(side, i, order[j - 1])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
        negative += side->units[i].combat_order < 0 ? 1 : 0;
    }
    *n_before = negative;
}

/* One unit's share of the damage left (W19); returns the damage passed on. */
static uint64_t unit_takes(const cbd_warapp_unit *u, uint64_t left, uint64_t *unit_left) {
    if (u->has_health) {
        uint64_t taken = left < *unit_left ? left : *unit_left;
        *unit_left -= taken;
        return left - taken;
    }
    if (*unit_left == 0) {
        return left; /* already dead: nothing to spend on it */
    }
    if (left >= u->toughness) {
        *unit_left = 0;
        return left - u->toughness;
    }
    return 0; /* too little to kill it: spent on it, shielding what comes after */
}

static uint64_t full_left(const cbd_warapp_unit *u) {
    return u->has_health ? u->toughness : 1;
}

void cbd_warapp_take_damage(const cbd_warapp_side *side, const size_t *order, size_t n_before,
                            uint64_t damage, cbd_warapp_side_state *out) {
    for (size_t i = 0; i < side->n_units; i++) {
        out->unit_left[i] = full_left(&side->units[i]);
    }
    uint64_t left = damage;
    for (size_t k = 0; k < n_before; k++) {
        size_t i = order[k];
        left = unit_takes(&side->units[i], left, &out->unit_left[i]);
    }
    uint64_t killed = left < side->armies ? left : side->armies;
    out->armies_left = side->armies - killed;
    left -= killed;
    for (size_t k = n_before; k < side->n_units; k++) {
        size_t i = order[k];
        left = unit_takes(&side->units[i], left, &out->unit_left[i]);
    }
}

bool cbd_warapp_side_empty(const cbd_warapp_side *side, const cbd_warapp_side_state *state) {
    if (state->armies_left > 0) {
        return false;
    }
    for (size_t i = 0; i < side->n_units; i++) {
        if (state->unit_left[i] > 0) {
            return false;
        }
    }
    return true;
}

uint64_t cbd_warapp_damage_to_armies(const cbd_warapp_side *side, const size_t *order,
                                     size_t n_before, uint64_t damage) {
    uint64_t left = damage;
    for (size_t k = 0; k < n_before && left > 0; k++) {
        const cbd_warapp_unit *u = &side->units[order[k]];
        uint64_t unit_left = full_left(u);
        left = unit_takes(u, left, &unit_left);
    }
    return left;
}
