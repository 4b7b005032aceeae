#ifndef COMBATD_API_DUPER_BATTLE_RENDER_H
#define COMBATD_API_DUPER_BATTLE_RENDER_H

/*
 * A Duper battle's answer members on the way out, shared by /duper/battle and the board
 * endpoints so that they speak alike.
 */
#include "combatd/duper.h"
#include "json/json_write.h"

/*
 * Writes the members of one battle's answer (attack_power ... card_steal), without the braces
 * around them, in /duper/battle's order. attacker and defender are the player ids (defender
 * NULL on an NPC tile).
 */
void cbdp_duper_write_battle(cbd_jw *w, const cbd_duper_battle *b, const cbd_duper_result *res,
                             const cbd_duper_rules *rules, const char *attacker,
                             const char *defender);

#endif
