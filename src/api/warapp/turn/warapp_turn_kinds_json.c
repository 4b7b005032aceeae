/*
 * The kinds of order on the api side, one row each (see warapp_turn_kinds_json.h), made from the
 * one list of kinds (CBD_ORDER_KIND_LIST, include/combatd/warapp_turn.h): each kind's JSON name and
 * the game's, the reader of its members and its entries in the answers. The core's rows of the
 * same kinds (phase, checks, steps) are in src/core/warapp/turn/board/warapp_turn_kinds.c.
 */
#include <string.h>

#include "warapp_turn_kinds_json.h"

/* Each kind's members: type, player and its row's `members` column. */
#define KIND_MEMBERS(ID, json, game, phase, units, check, touches, step, reader, render, floor,    \
                     members)                                                                      \
    static const char *const members_##ID[] = {"type", "player", CBD_TURN_UNPAREN members NULL};
CBD_ORDER_KIND_LIST(KIND_MEMBERS)
#undef KIND_MEMBERS

/* One row per kind of CBD_ORDER_KIND_LIST (include/combatd/warapp_turn.h): its api columns. */
#define API_ROW(ID, json, game, phase, units, check, touches, step, reader, render, floor, ...)    \
    [CBD_ORDER_##ID] = {json,                                                                      \
                        game,                                                                      \
                        cbdp_turn_read_##reader,                                                   \
                        cbdp_turn_##render##_analysis,                                             \
                        cbdp_turn_##render##_counts,                                               \
                        floor,                                                                     \
                        members_##ID},
const cbd_turn_api_kind cbdp_turn_api_kinds[CBD_ORDER_KINDS] = {CBD_ORDER_KIND_LIST(API_ROW)};
#undef API_ROW

/* Every kind's members, each once: for an order whose type is not one of them, so that its
 * other members are not refused for the wrong kind. */
const char *const cbdp_turn_order_members[] = {
    "type", "player",           "from",   "to",        "armies", "percent", "units",
    "only", "attack_teammates", "target", "to_player", NULL};

const cbd_turn_api_kind *cbdp_turn_api_kind_of(cbd_turn_order_type type) {
    return &cbdp_turn_api_kinds[(unsigned)type < CBD_ORDER_KINDS ? type : CBD_ORDER_DEPLOY];
}

size_t cbdp_turn_api_kind_names(const char **names, cbd_turn_order_type *kinds) {
    size_t n = 0;
    for (size_t k = 0; k < CBD_ORDER_KINDS; k++) {
        if (cbdp_turn_api_kinds[k].name) {
            kinds[n] = (cbd_turn_order_type)k;
            names[n++] = cbdp_turn_api_kinds[k].name;
        }
    }
    names[n] = NULL;
    return n;
}

int cbdp_turn_api_kind_named(const char *name) {
    for (size_t k = 0; name && k < CBD_ORDER_KINDS; k++) {
        if (cbdp_turn_api_kinds[k].name && strcmp(cbdp_turn_api_kinds[k].name, name) == 0) {
            return (int)k;
        }
    }
    return -1;
}

bool cbdp_turn_api_kind_moves(cbd_turn_order_type type) {
    cbd_turn_phase ph = cbd_turn_kind_phase(type);
    return ph != CBD_PHASE_DEPLOY && ph != CBD_PHASE_NONE;
}

int cbd_turn_api_kind_of_game(const char *game) {
    for (size_t k = 0; game && k < CBD_ORDER_KINDS; k++) {
        if (cbdp_turn_api_kinds[k].game && strcmp(cbdp_turn_api_kinds[k].game, game) == 0) {
            return (int)k;
        }
    }
    return -1;
}

const char *cbd_turn_api_kind_name(cbd_turn_order_type type) {
    return cbdp_turn_api_kinds[type].name;
}

const char *cbd_turn_api_kind_game(cbd_turn_order_type type) {
    return cbdp_turn_api_kinds[type].game;
}
