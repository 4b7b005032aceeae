#ifndef COMBATD_WARAPP_H
#define COMBATD_WARAPP_H

#include <stdbool.h>
#include <stdint.h>

#include "combatd/decimal.h"

/* War.app (Warzone-style) combat: the shared vocabulary of analysis and simulation. The shared
 * header of src/core/warapp/: warapp_kills.c implements the settings' defaults and the
 * blend; one battle's outcome (W4, W5, W20) is decided here, inline. */

/* W10: armies are whole numbers from 0 to 10^9 (the cap is configurable, never above this). */
#define CBD_WARAPP_MAX_ARMIES UINT64_C(1000000000)

/* W2. */
typedef enum { CBD_ROUND_STRAIGHT = 0, CBD_ROUND_WEIGHTED = 1 } cbd_rounding;

typedef struct {
    cbd_micro offense_kill_rate;    /* W9 default 0.6 */
    cbd_micro defense_kill_rate;    /* W9 default 0.7 */
    cbd_micro luck_modifier;        /* W9 default 0 */
    cbd_rounding rounding;          /* W9 default straight round */
    bool one_army_must_stand_guard; /* W7, W9 default on */
} cbd_warapp_settings;

/* W9: the game's create-game defaults. */
cbd_warapp_settings cbd_warapp_default_settings(void);

/*
 * A blended kill value before rounding (W1): whole + frac / CBD_KILL_FRAC_ONE, exact.
 * v = L·X + (1−L)·n·p with L and p in millionths, so the fraction has denominator 10^12.
 */
#define CBD_KILL_FRAC_ONE UINT64_C(1000000000000)
typedef struct {
    uint64_t whole;
    uint64_t frac; /* 0 <= frac < CBD_KILL_FRAC_ONE */
} cbd_kill_value;

/* W1: the exact blended value for n armies at kill rate p and luck L, given the roll X <= n. */
cbd_kill_value cbd_warapp_blend(uint64_t n, cbd_micro p, cbd_micro luck, uint64_t roll);

/* W2: straight round, an exact .5 rounds up. */
uint64_t cbd_round_straight(cbd_kill_value v);

/*
 * W2: weighted random rounding, given a uniform integer u in [0, CBD_KILL_FRAC_ONE):
 * whole + 1 when u < frac, else whole. Taking u as an argument keeps the core's randomness
 * with the caller and makes the probability of rounding up exactly frac / 10^12.
 */
uint64_t cbd_round_weighted(cbd_kill_value v, uint64_t u);

/* The result of one battle (W4–W6, W20), shaped as the API's `outcome`. */
typedef struct {
    bool captured;
    bool mutual; /* W5: neither side kept anything (one defending army is resurrected) */
    uint64_t attackers_lost;
    uint64_t defenders_lost;
    /* W6: the attackers left occupy the territory on capture and go back home on failure. */
    uint64_t attackers_left;
    /* Includes the army resurrected after mutual destruction (W5); that army is then not
     * counted as lost, so lost + left equals the starting armies for each side. */
    uint64_t defenders_left;
} cbd_warapp_outcome;

/*
 * W5, W20: the one place a battle's outcome is decided, from what each side kept of the
 * damage the other dealt (W4 caps it at the armies, W19 spends it through the units). Every
 * engine calls it: one battle exact (warapp_battle.c) and seeded (warapp_simulate.c), a turn
 * exact (turn/warapp_turn_step.c, turn/warapp_turn_units.c) and seeded (turn/warapp_turn_sim.c).
 * `*_empty`: the side kept no army and no unit. Inline: the seeded battles run it 10^7 times a
 * second.
 */
static inline cbd_warapp_outcome cbd_warapp_decide(uint64_t attackers, uint64_t defenders,
                                                   uint64_t attackers_left, bool attack_empty,
                                                   uint64_t defenders_left, bool defense_empty) {
    cbd_warapp_outcome o;
    /* W20: captured iff the defense keeps nothing and the attack keeps something. With 0
     * defenders and no defending unit any attack of an army or a unit captures (W5). */
    o.captured = defense_empty && !attack_empty;
    o.mutual = defense_empty && attack_empty;
    o.attackers_left = attackers_left;
    o.attackers_lost = attackers - attackers_left;
    /* W5: after mutual destruction one defending army is resurrected and holds the territory;
     * it counts as not lost, so that lost + left = the starting armies for each side. */
    o.defenders_left = o.mutual ? 1 : defenders_left;
    o.defenders_lost = o.mutual ? (defenders >= 1 ? defenders - 1 : 0) : defenders - defenders_left;
    return o;
}

/*
 * W4: kills are capped at the opposing side's armies; then W5 (cbd_warapp_decide). The outcome
 * of `attackers` (>= 1) against `defenders` armies, no units, given each side's rounded kills
 * before capping.
 */
static inline cbd_warapp_outcome cbd_warapp_resolve(uint64_t attackers, uint64_t defenders,
                                                    uint64_t attacker_kills,
                                                    uint64_t defender_kills) {
    uint64_t aleft = defender_kills < attackers ? attackers - defender_kills : 0;
    uint64_t dleft = attacker_kills < defenders ? defenders - attacker_kills : 0;
    return cbd_warapp_decide(attackers, defenders, aleft, aleft == 0, dleft, dleft == 0);
}

#endif
