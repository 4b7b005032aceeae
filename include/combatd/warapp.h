#ifndef COMBATD_WARAPP_H
#define COMBATD_WARAPP_H

#include <stdbool.h>
#include <stdint.h>

#include "combatd/decimal.h"

/* War.app (Warzone-style) combat: the shared vocabulary of analysis and simulation. The shared
 * header of src/core/warapp/: warapp_kills.c implements the settings' defaults and the
 * blend, warapp_resolve.c one battle's resolution. */

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

/* The result of one battle (W4–W6), shaped as the API's `outcome`. */
typedef struct {
    bool captured;
    uint64_t attackers_lost;
    uint64_t defenders_lost;
    uint64_t attackers_left; /* occupy the territory on capture, stay home on failure (W6) */
    /* Includes the army resurrected after mutual destruction (W5); that army is then not
     * counted as lost, so lost + left equals the starting armies for each side. */
    uint64_t defenders_left;
} cbd_warapp_outcome;

/*
 * W4, W5, W6: the outcome of `attackers` (>= 1) against `defenders` given each side's
 * rounded kills before capping.
 */
cbd_warapp_outcome cbd_warapp_resolve(uint64_t attackers, uint64_t defenders,
                                      uint64_t attacker_kills, uint64_t defender_kills);

#endif
