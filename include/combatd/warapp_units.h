#ifndef COMBATD_WARAPP_UNITS_H
#define COMBATD_WARAPP_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/status.h"
#include "combatd/warapp.h"

/*
 * War.app special units (W17–W20): Commanders and a mod's custom units beside a side's armies.
 *
 * A side's power is its armies plus its units' attack power (attacking) or defense power
 * (defending), and each point of power rolls once (W18): the kills of W1 computed for that
 * power are the damage the side deals. The damage a side takes is spent in combat order (W19):
 * units with a negative combat order (lowest first), then the armies, then the units with a
 * combat order >= 0 (lowest first), equal orders in listed order. A unit with damage to kill
 * dies iff the damage left when its turn comes is at least that much, which is then spent;
 * otherwise it takes nothing and the rest of the damage is spent on it (it shields whatever
 * comes after). A unit with health takes as much as it has, and dies at 0.
 *
 * The damage passed on by each step never falls as the damage taken grows, so everything a side
 * keeps (its armies, each unit's life and health) never grows with the damage: the analysis
 * relies on that (warapp_odds.h). In particular a side keeps nothing iff the damage is at least
 * its armies plus every unit's damage to kill or health (cbd_warapp_side_toughness).
 */

/* W17: at most this many units on one side or territory (the config's limit may be lower). */
#define CBD_WARAPP_MAX_UNITS 64

/* W17: the built-in Commander. */
#define CBD_COMMANDER_POWER        7
#define CBD_COMMANDER_DAMAGE       7
#define CBD_COMMANDER_COMBAT_ORDER 10000

typedef struct {
    uint64_t attack_power;  /* W17: the armies it is worth attacking, <= 10^9 */
    uint64_t defense_power; /* ... defending */
    int64_t combat_order;
    bool has_health;    /* true: `toughness` is its health; false: its damage to kill */
    uint64_t toughness; /* >= 1, <= 10^9 */
} cbd_warapp_unit;

/* W17: a Commander (7/7, damage to kill 7, combat order 10000). */
cbd_warapp_unit cbd_warapp_commander(void);

/* One side of a battle: its armies and its units in listed order (W19's tie order). */
typedef struct {
    uint64_t armies;
    size_t n_units;
    const cbd_warapp_unit *units; /* may be NULL when n_units is 0 */
} cbd_warapp_side;

/* W18: armies plus the units' attack (attacking) or defense power; saturates past UINT64_MAX. */
uint64_t cbd_warapp_side_power(const cbd_warapp_side *side, bool attacking);

/* The least damage that leaves the side with nothing (W19): armies + every unit's toughness. */
uint64_t cbd_warapp_side_toughness(const cbd_warapp_side *side);

/*
 * The order in which a side's units take damage (W19), as indices into side->units:
 * order[0 .. *n_before) are the units with a negative combat order (before the armies),
 * order[*n_before .. n_units) the rest (after them). `order` has room for n_units entries.
 */
void cbd_warapp_damage_order(const cbd_warapp_side *side, size_t *order, size_t *n_before);

/* What a side keeps after taking some damage. */
typedef struct {
    uint64_t armies_left;
    /* Per unit in listed order: its health left (a health unit), or 1 alive / 0 dead (damage
     * to kill). Room for n_units values, given by the caller. */
    uint64_t *unit_left;
} cbd_warapp_side_state;

/* W19: the side after `damage`; `order` and `n_before` from cbd_warapp_damage_order. */
void cbd_warapp_take_damage(const cbd_warapp_side *side, const size_t *order, size_t n_before,
                            uint64_t damage, cbd_warapp_side_state *out);

/* Whether a side keeps nothing: no army, and every unit dead. */
bool cbd_warapp_side_empty(const cbd_warapp_side *side, const cbd_warapp_side_state *state);

/* The damage that reaches the armies out of `damage` (W19: after the negative-order units). */
uint64_t cbd_warapp_damage_to_armies(const cbd_warapp_side *side, const size_t *order,
                                     size_t n_before, uint64_t damage);

#endif
