/*
 * The one table of the game's names and combatd's (W40, src/api/warzone/warzone_names.c), read
 * both ways: every order kind's game name back to its kind, every order member and setting
 * from the game's name to combatd's and back, and every pointer of combatd's translated
 * request turned into the game's by the same row. The expected names are written here by hand
 * from the game's SDK (GameOrderDeploy's deployOn, GameOrderPlayCardGift's territoryID and
 * giftTo, ...), so a row that changes fails here.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api/warapp/turn/warapp_turn_kinds_json.h"
#include "api/warzone/warzone_internal.h"

/* combatd's member of an order of kind k whose game member is `game`: the first row's. */
static const char *combatd_member(int k, const char *game) {
    for (const cbdp_wz_member_name *m = cbdp_wz_order_members; m->combatd; m++) {
        if ((m->kind == k || m->kind == CBDP_WZ_ANY_KIND) && strcmp(m->game, game) == 0) {
            return m->combatd;
        }
    }
    return NULL;
}

/* W40: each kind's game name, written here as the game's SDK spells it, maps to its kind and
 * back; the kinds without a game name are none. */
Test(warzone_names_api, w40_order_kinds_round_trip) {
    static const struct {
        cbd_turn_order_type kind;
        const char *json, *game;
    } expect[] = {
        {CBD_ORDER_DEPLOY, "deploy", "GameOrderDeploy"},
        {CBD_ORDER_ATTACK_TRANSFER, "attack_transfer", "GameOrderAttackTransfer"},
        {CBD_ORDER_BOMB, "bomb", "GameOrderPlayCardBomb"},
        {CBD_ORDER_BLOCKADE, "blockade", "GameOrderPlayCardBlockade"},
        {CBD_ORDER_EMERGENCY_BLOCKADE, "emergency_blockade", "GameOrderPlayCardAbandon"},
        {CBD_ORDER_AIRLIFT, "airlift", "GameOrderPlayCardAirlift"},
        {CBD_ORDER_GIFT, "gift", "GameOrderPlayCardGift"},
        {CBD_ORDER_PRIORITY, "order_priority", "GameOrderPlayCardOrderPriority"},
        {CBD_ORDER_DELAY, "order_delay", "GameOrderPlayCardOrderDelay"},
    };
    cr_assert_eq(sizeof expect / sizeof expect[0], CBD_ORDER_KINDS);
    for (size_t i = 0; i < CBD_ORDER_KINDS; i++) {
        cbd_turn_order_type k = expect[i].kind;
        cr_expect_str_eq(cbd_turn_api_kind_game(k), expect[i].game);
        cr_expect_str_eq(cbd_turn_api_kind_name(k), expect[i].json);
        cr_expect_eq(cbd_turn_api_kind_of_game(expect[i].game), (int)k, "%s", expect[i].game);
        cr_expect_eq(cbd_turn_api_kind_of_game(cbd_turn_api_kind_game(k)), (int)k);
    }
    cr_expect_eq(cbd_turn_api_kind_of_game("deploy"), -1, "combatd's name is not the game's");
    cr_expect_eq(cbd_turn_api_kind_of_game("GameOrderPlayCardSpy"), -1);
}

/* Every member row: game -> combatd -> game gives the game's member again, combatd -> game the
 * row's, and the game's names are those the SDK writes (19 rows: player for every kind, 2 of
 * a deploy, 7 of an attack, 1 of each blockade and bomb, 4 of an airlift, 2 of a gift). */
Test(warzone_names_api, w40_order_members_round_trip) {
    static const struct {
        int kind;
        const char *combatd, *game;
    } expect[] = {
        {CBD_ORDER_DEPLOY, "player", "playerID"},
        {CBD_ORDER_DEPLOY, "to", "deployOn"},
        {CBD_ORDER_DEPLOY, "armies", "armies"},
        {CBD_ORDER_ATTACK_TRANSFER, "from", "from"},
        {CBD_ORDER_ATTACK_TRANSFER, "to", "to"},
        {CBD_ORDER_ATTACK_TRANSFER, "armies", "numArmies"},
        {CBD_ORDER_ATTACK_TRANSFER, "units", "numArmies"},
        {CBD_ORDER_ATTACK_TRANSFER, "percent", "numArmies"},
        {CBD_ORDER_ATTACK_TRANSFER, "only", "attackTransfer"},
        {CBD_ORDER_ATTACK_TRANSFER, "attack_teammates", "attackTeammates"},
        {CBD_ORDER_BOMB, "target", "targetTerritoryID"},
        {CBD_ORDER_BLOCKADE, "target", "targetTerritoryID"},
        {CBD_ORDER_EMERGENCY_BLOCKADE, "target", "targetTerritoryID"},
        {CBD_ORDER_AIRLIFT, "from", "from"},
        {CBD_ORDER_AIRLIFT, "to", "to"},
        {CBD_ORDER_AIRLIFT, "armies", "armiesToAirlift"},
        {CBD_ORDER_AIRLIFT, "units", "armiesToAirlift"},
        {CBD_ORDER_GIFT, "target", "territoryID"},
        {CBD_ORDER_GIFT, "to_player", "giftTo"},
        {CBD_ORDER_GIFT, "player", "playerID"},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        int k = expect[i].kind;
        const char *g = cbdp_wz_game_member(k, expect[i].combatd);
        cr_expect(g && strcmp(g, expect[i].game) == 0, "%d %s: %s", k, expect[i].combatd, g);
        const char *c = combatd_member(k, expect[i].game);
        cr_expect(c && strcmp(cbdp_wz_game_member(k, c), expect[i].game) == 0, "%d %s", k,
                  expect[i].game);
    }
    size_t rows = 0;
    for (const cbdp_wz_member_name *m = cbdp_wz_order_members; m->combatd; m++) {
        rows++;
        int k = m->kind == CBDP_WZ_ANY_KIND ? CBD_ORDER_GIFT : m->kind;
        cr_expect_str_eq(cbdp_wz_game_member(k, combatd_member(k, m->game)), m->game);
    }
    cr_expect_eq(rows, 19);
    /* A member the game's order of that kind does not have has no game name. */
    cr_expect_null(cbdp_wz_game_member(CBD_ORDER_DEPLOY, "from"));
    cr_expect_null(cbdp_wz_game_member(CBD_ORDER_BOMB, "armies"));
}

/* A problem's pointer in combatd's translated request -> the game's, by the same rows: the
 * translated order 0 is the game's order 4 (cards without effect came before it). */
Test(warzone_names_api, w40_pointers_round_trip) {
    size_t n = 0;
    for (const cbdp_wz_member_name *m = cbdp_wz_order_members; m->combatd; m++) {
        for (int k = 0; k < CBD_ORDER_KINDS; k++) {
            if (m->kind != k && m->kind != CBDP_WZ_ANY_KIND) {
                continue;
            }
            cbdp_wz_turn t = {0};
            t.order_game = json_pack("[{s:i,s:s}]", "at", 4, "type", cbd_turn_api_kind_game(k));
            cbd_problem p = {0};
            p.n_errors = 1;
            snprintf(p.errors[0].pointer, sizeof p.errors[0].pointer, "/orders/0/%s", m->combatd);
            cbdp_wz_problem_to_game(&t, &p);
            char want[96];
            snprintf(want, sizeof want, "/orders/4/%s", m->game);
            cr_expect_str_eq(p.errors[0].pointer, want, "kind %d, %s", k, m->combatd);
            json_decref(t.order_game);
            n++;
        }
    }
    cr_expect_eq(n, 18 + CBD_ORDER_KINDS); /* player: one per kind */
    static const char *const settings[][2] = {
        {"offense_kill_rate", "/settings/OffensiveKillRate"},
        {"defense_kill_rate", "/settings/DefensiveKillRate"},
        {"luck_modifier", "/settings/LuckModifier"},
        {"rounding_mode", "/settings/RoundingMode"},
        {"one_army_must_stand_guard", "/settings/OneArmyStandsGuard"},
        {"multi_attack", "/settings/MultiAttack"},
        {"blockade_multiplier", "/settings/BlockadeCard/MultiplyAmount"},
        {"emergency_blockade_multiplier", "/settings/AbandonCard/MultiplyAmount"},
    };
    cr_assert_eq(sizeof settings / sizeof settings[0], CBDP_WZ_SETTINGS);
    for (size_t i = 0; i < CBDP_WZ_SETTINGS; i++) {
        cbdp_wz_turn t = {0};
        cbd_problem p = {0};
        p.n_errors = 1;
        snprintf(p.errors[0].pointer, sizeof p.errors[0].pointer, "/settings/%s", settings[i][0]);
        cbdp_wz_problem_to_game(&t, &p);
        cr_expect_str_eq(p.errors[0].pointer, settings[i][1]);
        /* and back: the row of the game's name is the row of combatd's */
        const cbdp_wz_setting_name *row = cbdp_wz_setting_of(settings[i][0]);
        cr_assert_not_null(row);
        cr_expect_str_eq(row->combatd, settings[i][0]);
        cr_expect_str_eq(cbdp_wz_settings[i].combatd, settings[i][0]);
    }
}
