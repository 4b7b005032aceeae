/*
 * The game's orders as combatd's (W40): GameOrderDeploy, GameOrderAttackTransfer
 * (attackTransfer to W33's `only`, attackTeammates, byPercent's numArmies as a percent), and
 * each card to its kind by the kinds' `game` column (CBD_ORDER_KIND_LIST). Cards that change
 * nothing on the board this turn, Diplomacy among them (W29), are accepted and left out of the
 * turn; their entries in the answer say so.
 */
#include <string.h>

#include "api/warapp/turn/warapp_turn_kinds_json.h"
#include "warzone_internal.h"

/* Orders the game writes that change nothing on the board during the turn they are in. */
static const char *const no_effect[] = {
    "GameOrderPlayCardDiplomacy",     /* W29: peace from the next turn on */
    "GameOrderPlayCardReinforcement", /* its armies arrive as deploys */
    "GameOrderPlayCardSpy",
    "GameOrderPlayCardReconnaissance",
    "GameOrderPlayCardSurveillance",
    "GameOrderPlayCardSanctions", /* income, from the next turn */
    "GameOrderPlayCardFogged",    /* a card another player played, unseen */
    "GameOrderDiscard",
    "GameOrderReceiveCard",
    "GameOrderStateTransition",
    "ActiveCardWoreOff",
    NULL,
};

/* The kind whose game name is `type`; -2 for an order without effect; -1 for none. */
static int kind_of(const char *type) {
    int k = cbd_turn_api_kind_of_game(type);
    if (k >= 0) {
        return k;
    }
    for (size_t i = 0; no_effect[i]; i++) {
        if (strcmp(no_effect[i], type) == 0) {
            return -2;
        }
    }
    return -1;
}

/* The game's member of combatd's member `as` of kind k (warzone_names.c). */
static const char *game_key(cbd_turn_order_type k, const char *as) {
    return cbdp_wz_game_member((int)k, as);
}

/* An id member of kind k's game order copied as combatd's member `as`. */
static bool copy_id(const cbd_reader *o, cbd_turn_order_type k, const char *as, json_t *out) {
    char id[CBDP_WZ_ID_MAX];
    return cbdp_wz_read_id(o, game_key(k, as), id) &&
           json_object_set_new(out, as, json_string(id)) == 0;
}

/* Armies that move (numArmies, armiesToAirlift): the count and its Commanders' ids (W21). */
static bool copy_moving(const cbd_reader *o, cbd_turn_order_type k, const cbd_config *cfg,
                        json_t *out) {
    const char *key = game_key(k, "armies");
    cbdp_wz_armies a;
    if (!cbdp_wz_read_armies(o, key, cfg->warapp.army_cap, &a)) {
        return false;
    }
    if (a.fogged) {
        cbd_reader_error(o, key, "must be known: an order moves a number of armies");
        return false;
    }
    bool ok = json_object_set_new(out, "armies", json_integer((json_int_t)a.armies)) == 0;
    if (a.commanders) {
        json_t *units = json_array();
        ok = ok && units && json_object_set_new(out, "units", units) == 0;
        for (size_t u = 0; ok && u < json_array_size(a.commanders); u++) {
            ok = json_array_append(units, json_object_get(json_array_get(a.commanders, u), "id")) ==
                 0;
        }
    }
    json_decref(a.commanders);
    return ok;
}

/* attackTransfer (W33), attackTeammates, byPercent, under the settings that allow them. */
static bool copy_attack_kind(const cbd_reader *o, const cbdp_wz_turn *t, json_t *out) {
    const char *const *names = cbdp_wz_only_names;
    const char *only = game_key(CBD_ORDER_ATTACK_TRANSFER, "only");
    const json_t *v = cbd_reader_member(o, only);
    int mode = 0;
    for (int i = 0; json_is_string(v) && names[i]; i++) {
        mode = strcmp(json_string_value(v), names[i]) == 0 ? i : mode;
    }
    if (!cbdp_wz_absent(v) &&
        (!json_is_string(v) || strcmp(json_string_value(v), names[mode]) != 0)) {
        cbd_reader_error(o, only, "must be %s, %s or %s (W33)", names[0], names[1], names[2]);
        return false;
    }
    if ((mode == 1 && !t->allow_attack_only) || (mode == 2 && !t->allow_transfer_only)) {
        cbd_reader_error(o, only, "is %s, which the settings do not allow (%s false)", names[mode],
                         mode == 1 ? "AllowAttackOnly" : "AllowTransferOnly");
        return false;
    }
    bool mates = false;
    bool ok = cbdp_wz_bool(o, game_key(CBD_ORDER_ATTACK_TRANSFER, "attack_teammates"), &mates) !=
              CBD_FIELD_BAD;
    ok = ok && json_object_set_new(out, "attack_teammates", json_boolean(mates)) == 0;
    if (mode > 0) {
        ok = ok &&
             json_object_set_new(out, "only", json_string(mode == 1 ? "attack" : "transfer")) == 0;
    }
    return ok;
}

/* numArmies under byPercent: a whole percent 1..100 as combatd's percent (W14). */
static bool copy_percent(const cbd_reader *o, const cbdp_wz_turn *t, json_t *out) {
    if (!t->allow_percent) {
        cbd_reader_error(o, "byPercent",
                         "is true, which the settings do not allow "
                         "(AllowPercentageAttacks false)");
        return false;
    }
    uint64_t pct = 0;
    const char *key = game_key(CBD_ORDER_ATTACK_TRANSFER, "percent");
    if (cbdp_wz_uint(o, key, 100, &pct) != CBD_FIELD_OK || pct == 0) {
        if (pct == 0) {
            cbd_reader_error(o, key, "is a percent under byPercent: 1 to 100");
        }
        return false;
    }
    return json_object_set_new(out, "percent", json_real((double)pct / 100.0)) == 0;
}

static bool copy_attack(const cbd_reader *o, const cbd_config *cfg, const cbdp_wz_turn *t,
                        json_t *out) {
    bool pct = false;
    const cbd_turn_order_type k = CBD_ORDER_ATTACK_TRANSFER;
    bool ok = copy_id(o, k, "from", out) & copy_id(o, k, "to", out);
    ok &= cbdp_wz_bool(o, "byPercent", &pct) != CBD_FIELD_BAD;
    ok &= pct ? copy_percent(o, t, out) : copy_moving(o, k, cfg, out);
    return ok & copy_attack_kind(o, t, out);
}

/* The members of kind k from the game's order into out (combatd's order). */
static bool copy_members(const cbd_reader *o, int k, const cbd_config *cfg, const cbdp_wz_turn *t,
                         json_t *out) {
    uint64_t n = 0;
    const cbd_turn_order_type kind = (cbd_turn_order_type)k;
    switch (kind) {
        case CBD_ORDER_DEPLOY:
            if (cbdp_wz_uint(o, game_key(kind, "armies"), cfg->warapp.army_cap, &n) !=
                CBD_FIELD_OK) {
                cbd_reader_error(o, game_key(kind, "armies"), "is required: the armies deployed");
                return false;
            }
            return copy_id(o, kind, "to", out) &&
                   json_object_set_new(out, "armies", json_integer((json_int_t)n)) == 0;
        case CBD_ORDER_ATTACK_TRANSFER:
            return copy_attack(o, cfg, t, out);
        case CBD_ORDER_BOMB:
        case CBD_ORDER_BLOCKADE:
        case CBD_ORDER_EMERGENCY_BLOCKADE:
            return copy_id(o, kind, "target", out);
        case CBD_ORDER_AIRLIFT:
            return (copy_id(o, kind, "from", out) & copy_id(o, kind, "to", out)) &&
                   copy_moving(o, kind, cfg, out);
        case CBD_ORDER_GIFT:
            return copy_id(o, kind, "target", out) & copy_id(o, kind, "to_player", out);
        case CBD_ORDER_PRIORITY:
        case CBD_ORDER_DELAY:
        case CBD_ORDER_KINDS:
            return true;
    }
    return true;
}

/* Game order i into doc.orders (or noted as ignored). */
static bool read_order(const cbd_reader *r, size_t i, const cbd_config *cfg, cbdp_wz_turn *t,
                       json_t *orders) {
    cbd_reader o;
    cbd_reader_at_item(&o, r, "orders", i);
    const char *type = json_string_value(cbd_reader_member(&o, "type"));
    int k = type ? kind_of(type) : -1;
    if (!json_is_object(o.obj) || k == -1) {
        cbd_reader_error(&o, json_is_object(o.obj) ? "type" : NULL,
                         "must be one of the game's orders (GameOrderDeploy, "
                         "GameOrderAttackTransfer, GameOrderPlayCard...)");
        return false;
    }
    if (k == -2) {
        return json_array_append_new(t->order_at, json_null()) == 0;
    }
    char player[CBDP_WZ_ID_MAX];
    if (!cbdp_wz_read_id(&o, cbdp_wz_game_member(CBDP_WZ_ANY_KIND, "player"), player)) {
        return false;
    }
    json_t *out = json_pack("{s:s,s:s}", "type", cbd_turn_api_kind_name((cbd_turn_order_type)k),
                            "player", player);
    json_t *back = json_pack("{s:I,s:s}", "at", (json_int_t)i, "type", type);
    bool ok = out && back && json_array_append(orders, out) == 0 &&
              json_array_append_new(t->order_at,
                                    json_integer((json_int_t)json_array_size(orders) - 1)) == 0 &&
              json_array_append(t->order_game, back) == 0 && cbdp_wz_note_player(t, player);
    if (ok && !json_object_get(t->player_at, player)) {
        ok = json_object_set_new(t->player_at, player, json_integer((json_int_t)i)) == 0;
    }
    ok = ok && copy_members(&o, k, cfg, t, out);
    json_decref(out);
    json_decref(back);
    return ok;
}

bool cbdp_wz_read_orders(const cbd_reader *r, const cbd_config *cfg, bool required,
                         cbdp_wz_turn *t) {
    const json_t *list = cbd_reader_member(r, "orders");
    json_t *orders = json_array();
    if (!orders || json_object_set_new(t->doc, "orders", orders) != 0) {
        return false;
    }
    if (cbdp_wz_absent(list) && !required) {
        return true;
    }
    if (!json_is_array(list)) {
        cbd_reader_error(r, "orders", "is required: the game's orders of the turn (a list)");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(list); i++) {
        ok &= read_order(r, i, cfg, t, orders);
    }
    return ok;
}
