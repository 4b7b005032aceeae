/*
 * The game's names and combatd's, one row each, read both ways (W40): each order member of
 * each kind and each setting, so that the reader of the game's JSON (warzone_orders.c,
 * warzone_settings.c), its writers (warzone_plan_turn.c) and the pointers of a problem turned
 * back into the game's (warzone_pointers.c) cannot disagree. The kinds' own names (`deploy`,
 * `GameOrderDeploy`, ...) are the `json` and `game` columns of CBD_ORDER_KIND_LIST.
 */
#include <string.h>

#include "warzone_internal.h"

const cbdp_wz_member_name cbdp_wz_order_members[] = {
    {CBDP_WZ_ANY_KIND, "player", "playerID"},
    {CBD_ORDER_DEPLOY, "to", "deployOn"},
    {CBD_ORDER_DEPLOY, "armies", "armies"},
    {CBD_ORDER_ATTACK_TRANSFER, "from", "from"},
    {CBD_ORDER_ATTACK_TRANSFER, "to", "to"},
    /* numArmies is the armies, their Commanders (an army string, W21) or, under byPercent, a
     * percent (W14): one game member, three of combatd's, the first read back. */
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
    {CBDP_WZ_ANY_KIND, NULL, NULL},
};

const cbdp_wz_setting_name cbdp_wz_settings[CBDP_WZ_SETTINGS] = {
    [CBDP_WZ_OFFENSE] = {"offense_kill_rate", "OffensiveKillRate", NULL},
    [CBDP_WZ_DEFENSE] = {"defense_kill_rate", "DefensiveKillRate", NULL},
    [CBDP_WZ_LUCK] = {"luck_modifier", "LuckModifier", NULL},
    [CBDP_WZ_ROUNDING] = {"rounding_mode", "RoundingMode", NULL},
    [CBDP_WZ_GUARD] = {"one_army_must_stand_guard", "OneArmyStandsGuard", NULL},
    [CBDP_WZ_MULTI] = {"multi_attack", "MultiAttack", NULL},
    /* W26: the game's Abandon card is combatd's emergency blockade. */
    [CBDP_WZ_BLOCKADE] = {"blockade_multiplier", "BlockadeCard", "MultiplyAmount"},
    [CBDP_WZ_ABANDON] = {"emergency_blockade_multiplier", "AbandonCard", "MultiplyAmount"},
};

/* W33's attackTransfer, indexed by cbd_turn_move_only. */
const char *const cbdp_wz_only_names[] = {"AttackTransfer", "Attack", "Transfer", NULL};

const char *cbdp_wz_game_member(int kind, const char *combatd) {
    for (const cbdp_wz_member_name *m = cbdp_wz_order_members; combatd && m->combatd; m++) {
        if ((m->kind == kind || m->kind == CBDP_WZ_ANY_KIND) && strcmp(m->combatd, combatd) == 0) {
            return m->game;
        }
    }
    return NULL;
}

const cbdp_wz_setting_name *cbdp_wz_setting_of(const char *combatd) {
    for (size_t i = 0; combatd && i < CBDP_WZ_SETTINGS; i++) {
        if (strcmp(cbdp_wz_settings[i].combatd, combatd) == 0) {
            return &cbdp_wz_settings[i];
        }
    }
    return NULL;
}
