/*
 * The kinds of order, one row each (W12, W14, W24–W30): the phase a kind runs in, its own
 * checks, the territories it reads or writes, its exact step and its sampled step. The api's
 * table (src/api/warapp/turn/warapp_turn_kinds.c) holds the same kinds' JSON names, readers
 * and renders. A kind is added as one row here, its two steps in files of their own, and its
 * row on the api side (docs/architecture.md, "Adding an order kind").
 */
#include "warapp_turn_internal.h"

/* W12: onto a territory the player owns at the start of the turn. */
static bool deploy_valid(const cbd_turn *t, const cbd_turn_order *o) {
    return t->territories[o->to].owner == o->player && o->armies <= CBD_WARAPP_MAX_ARMIES;
}

static size_t deploy_touches(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    (void)t;
    out[0] = o->to;
    return 1;
}

/* W14: from another territory than `to`, a percent in (0, 1] (W3). */
static bool attack_valid(const cbd_turn *t, const cbd_turn_order *o) {
    return o->from < t->n_territories && o->from != o->to &&
           (!o->by_percent || (o->percent > 0 && o->percent <= CBD_MICRO_ONE));
}

static size_t from_to_touches(const cbd_turn *t, const cbd_turn_order *o, uint32_t *out) {
    (void)t;
    out[0] = o->from;
    out[1] = o->to;
    return 2;
}

/* The cards' rows (W25–W30) hold their phases; their checks and steps are not there yet, so
 * validation refuses them (cbd_turn_kind.valid NULL). */
const cbd_turn_kind cbd_turn_kinds[CBD_ORDER_KINDS] = {
    [CBD_ORDER_DEPLOY] = {CBD_PHASE_DEPLOY, false, deploy_valid, deploy_touches, NULL, NULL},
    [CBD_ORDER_ATTACK_TRANSFER] = {CBD_PHASE_ATTACK, true, attack_valid, from_to_touches,
                                   cbd_turn_expand, cbd_turn_sim_attack},
    [CBD_ORDER_BOMB] = {CBD_PHASE_BOMB, false, NULL, NULL, NULL, NULL},
    [CBD_ORDER_BLOCKADE] = {CBD_PHASE_BLOCKADE, false, NULL, NULL, NULL, NULL},
    [CBD_ORDER_EMERGENCY_BLOCKADE] = {CBD_PHASE_EMERGENCY_BLOCKADE, false, NULL, NULL, NULL, NULL},
    [CBD_ORDER_AIRLIFT] = {CBD_PHASE_AIRLIFT, true, NULL, NULL, NULL, NULL},
    [CBD_ORDER_GIFT] = {CBD_PHASE_GIFT, false, NULL, NULL, NULL, NULL},
    [CBD_ORDER_PRIORITY] = {CBD_PHASE_NONE, false, NULL, NULL, NULL, NULL},
    [CBD_ORDER_DELAY] = {CBD_PHASE_NONE, false, NULL, NULL, NULL, NULL},
};

const cbd_turn_kind *cbd_turn_kind_of(cbd_turn_order_type type) {
    static const cbd_turn_kind unknown = {CBD_PHASE_NONE, false, NULL, NULL, NULL, NULL};
    return (unsigned)type < CBD_ORDER_KINDS ? &cbd_turn_kinds[type] : &unknown;
}

cbd_turn_phase cbd_turn_kind_phase(cbd_turn_order_type type) {
    return cbd_turn_kind_of(type)->phase;
}
