#ifndef COMBATD_WARAPP_SIMULATE_H
#define COMBATD_WARAPP_SIMULATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/binomial_sample.h"
#include "combatd/budget.h"
#include "combatd/rng.h"
#include "combatd/status.h"
#include "combatd/warapp.h"
#include "combatd/warapp_odds.h"
#include "combatd/warapp_units.h"
#include "combatd/windows.h"

/*
 * Random War.app battles (W1–W6, with special units W17–W20 and fog W23), from an RNG state
 * owned by the caller.
 *
 * One battle consumes the stream in this fixed order, each draw only when it is needed:
 *   0. with fog (the defenders' armies given as a distribution of two counts or more, W23), the
 *      count: one uniform double d = cbd_rng_double(rng) (53 bits); the defenders are counts[k]
 *      for the first k with d < c_k, where c_k is the running sum of the normalised
 *      probabilities of counts[0..k] (ascending armies, added in doubles in that order) and the
 *      last c is taken as exactly 1. So count k is drawn with probability
 *      (ceil(2^53·c_k) − ceil(2^53·c_{k−1})) / 2^53: its probability to within 2^-53 and the
 *      sum's rounding. A single count draws nothing;
 *   1. the attackers' roll X_a ~ Binomial(n_a, offense rate), if luck > 0, n_a > 0 and
 *      0 < rate < 1 (otherwise X_a = n_a·rate exactly, no draw);
 *   2. the defenders' roll X_d ~ Binomial(n_d, defense rate), under the same conditions;
 *   3. with weighted random rounding, the attackers' rounding draw u_a = bounded(10^12), if
 *      their blended kills (W1) are not whole;
 *   4. the same for the defenders, u_d.
 * A draw rounds up iff u < fraction·10^12 (cbd_round_weighted), so P(up) is the exact fraction.
 * n_a and n_d are the sides' powers (W18): their armies (the defenders' drawn in step 0) plus
 * their units' attack or defense power; without units, their armies. Special units add no
 * draws: each side's rounded kills are the damage it deals, W19 spends it on the other side in
 * combat order and W20 decides the outcome.
 *
 * Many battles: trial t belongs to block b = t / CBD_SIM_BLOCK. Block b plays its trials in
 * order on the generator seeded from the request's seed (cbd_rng_seed) and then jumped b times
 * (cbd_rng_jump). Blocks are independent, so any split of the blocks over threads or calls
 * gives the same battles, and the summed statistics are identical. A budget serves one thread:
 * a caller that spreads blocks over threads gives each thread a budget of its own share (today
 * /simulate plays every block on the request's thread).
 *
 * Implemented by warapp_simulate.c (the battles, statistics and histograms) and
 * warapp_sim_plan.c (a side's setup and the plan of a battle with units), in src/core/warapp/.
 */
#define CBD_SIM_BLOCK UINT64_C(65536)

typedef struct {
    uint64_t n;        /* armies on this side */
    cbd_micro rate;    /* kill rate p */
    cbd_micro luck;    /* L */
    bool rolls;        /* a binomial draw is needed */
    uint64_t fixed_x;  /* X when no draw is needed: n·p for p in {0, 1}, unused at L = 0 */
    cbd_binomial roll; /* the sampler for X */
    uint64_t base_whole, base_frac; /* (1 − L)·n·p as whole + frac / 10^12 */
} cbd_sim_side;

typedef struct {
    uint64_t attackers, defenders;
    cbd_rounding rounding;
    cbd_sim_side side[2]; /* [0] attackers (offense rate), [1] defenders (defense rate) */
} cbd_warapp_sim;

/* One simulated battle: the outcome and each side's rounded kills before capping (W4). */
typedef struct {
    cbd_warapp_outcome outcome;
    uint64_t attacker_kills;
    uint64_t defender_kills;
} cbd_sim_battle;

/* Prepares battles of `attackers` (>= 1) against `defenders` under `settings`. */
void cbd_warapp_sim_init(cbd_warapp_sim *sim, uint64_t attackers, uint64_t defenders,
                         const cbd_warapp_settings *settings);

/* Prepares one side's roll and blend for n points of power at kill rate `rate`, luck `luck`. */
void cbd_sim_side_init(cbd_sim_side *side, uint64_t n, cbd_micro rate, cbd_micro luck);

/* The work units one battle of `sim` is charged (budget.h): CBD_WORK_BATTLE, less
 * CBD_WORK_BATTLE_ROLL for each side whose roll is fixed and needs no binomial draw. */
uint64_t cbd_warapp_sim_battle_units(const cbd_warapp_sim *sim);

/* W1: the exact blended kills of one side for the roll x (equal to cbd_warapp_blend). */
cbd_kill_value cbd_sim_side_blend(const cbd_sim_side *side, uint64_t x);

/* Plays one battle, drawing from rng in the order documented above. */
cbd_sim_battle cbd_warapp_sim_one(const cbd_warapp_sim *sim, cbd_rng *rng);

/*
 * The battle of one request, set up once: its two sides with their special units (W17–W20) and
 * the defenders' armies, one count or a distribution of them (W23), each count with the
 * sampler of its defending power. The plan points at the caller's units, which must outlive it.
 */
typedef struct {
    cbd_warapp_side attack, defense; /* defense.armies is the drawn count's, not this */
    size_t attack_order[CBD_WARAPP_MAX_UNITS], defense_order[CBD_WARAPP_MAX_UNITS];
    size_t attack_before, defense_before; /* cbd_warapp_damage_order */
    bool has_units;                       /* either side has one: W19 and W20 decide */
    cbd_rounding rounding;
    cbd_sim_side att;  /* the attacking power's roll (W18) */
    size_t n_counts;   /* 1 without fog */
    uint64_t *armies;  /* per count: the defending armies (from the budget) */
    double *cum;       /* per count: c_k of step 0 above, the last exactly 1 */
    cbd_sim_side *def; /* per count: the defending power's roll */
    bool def_rolls;    /* some count's defending power needs a binomial draw */
} cbd_sim_plan;

/*
 * Prepares the battles of `attack` (an army or a unit at least, W20) against `defense`, whose
 * armies are defense->armies when n_counts is 0, else counts[0 .. n_counts) (distinct,
 * ascending, their weights normalised to sum to 1; W23). Charges CBD_WORK_SIM_COUNT per count
 * and takes the per-count tables from the budget. CBD_ERR_INVALID for an attack with nothing
 * to attack with or more than CBD_WARAPP_MAX_UNITS units on a side; the sides' powers must be
 * at most CBD_WARAPP_MAX_ARMIES (W10, W18). On failure nothing is left allocated.
 */
cbd_status cbd_sim_plan_init(cbd_sim_plan *plan, const cbd_warapp_side *attack,
                             const cbd_warapp_side *defense, const cbd_warapp_count *counts,
                             size_t n_counts, const cbd_warapp_settings *settings,
                             cbd_budget *budget);
void cbd_sim_plan_free(cbd_sim_plan *plan);

/* The work units one battle of the plan is charged (budget.h): CBD_WORK_BATTLE less
 * CBD_WORK_BATTLE_ROLL for a side whose roll never needs a draw (for the defense: at no
 * count), plus with fog CBD_WORK_FOG_STEP for the uniform and each step of the bisection (and
 * CBD_WORK_FOG_MISS once the per-count tables pass CBD_WORK_FOG_CACHED bytes), and
 * CBD_WORK_UNIT_DAMAGE for each unit W19 walks. */
uint64_t cbd_sim_plan_battle_units(const cbd_sim_plan *plan);

/* One battle of a plan, with what W19 and W20 made of it. */
typedef struct {
    cbd_sim_battle battle; /* the outcome in armies; the kills are each side's damage dealt */
    uint32_t count;        /* the index of the defenders' count drawn (0 without fog) */
    bool mutual;           /* neither side kept anything: one army resurrected (W5, W20) */
    uint64_t attacking_dead, defending_dead; /* bit i: the side's unit i died */
} cbd_sim_record;

/* Plays one battle of the plan, drawing from rng in the order documented above. Without units
 * and fog it is cbd_warapp_sim_one of the same armies, draw for draw and result for result. */
cbd_sim_record cbd_sim_plan_one(const cbd_sim_plan *plan, cbd_rng *rng);

/*
 * A histogram of whole numbers: windows of counts (windows.h) that grow, or multiply, when a
 * value falls outside them, so memory follows the spread of the outcomes, not the army counts
 * (a fog of 5 or 10^9 defenders keeps two narrow windows). Each new window comes from the
 * budget given to cbd_hist_add, which is charged CBD_WORK_HIST_SLOT for every slot of it.
 */
typedef struct {
    /* The window the last value fell in, as the windows hold it: nearly every battle's value
     * falls there, and is counted with one comparison, as in a single window. */
    uint64_t lo;
    size_t len;
    cbd_slot *cur;
    cbd_windows w; /* slots of counts */
} cbd_hist;

void cbd_hist_init(cbd_hist *h);
void cbd_hist_free(cbd_hist *h);
/* Adds `count` at value v, growing the window from `budget` when v is outside it. On
 * CBD_ERR_BUDGET or CBD_ERR_NOMEM the histogram is unchanged. */
cbd_status cbd_hist_add(cbd_hist *h, uint64_t v, uint64_t count, cbd_budget *budget);
/* Adds every count of src into dst (charged CBD_WORK_SCAN_TERM per slot of src). */
cbd_status cbd_hist_merge(cbd_hist *dst, const cbd_hist *src, cbd_budget *budget);
/* The count at v (0 outside the windows). */
uint64_t cbd_hist_get(const cbd_hist *h, uint64_t v);
/* The mean of the values weighted by counts (sums in 128 bits), 0 when empty. */
double cbd_hist_mean(const cbd_hist *h);

typedef struct {
    uint64_t trials;
    uint64_t captures;
    uint64_t mutual_destructions;
    cbd_hist attackers_left;
    cbd_hist defenders_left;
    /* Per unit of each side in listed order: the trials in which it lived (W19). */
    uint64_t attacking_survived[CBD_WARAPP_MAX_UNITS], defending_survived[CBD_WARAPP_MAX_UNITS];
    /* With fog, per count of the plan: the trials that drew it (from the budget); else NULL. */
    size_t n_drawn;
    uint64_t *drawn;
} cbd_sim_stats;

void cbd_sim_stats_init(cbd_sim_stats *st);
void cbd_sim_stats_free(cbd_sim_stats *st);
cbd_status cbd_sim_stats_merge(cbd_sim_stats *dst, const cbd_sim_stats *src, cbd_budget *budget);

/* The number of blocks that `trials` trials take. */
uint64_t cbd_sim_block_count(uint64_t trials);

/*
 * Plays blocks [first_block, end_block) of a run of `trials` trials of `plan` seeded by `seed`,
 * adding them to *stats. When `battles` is not NULL, battle t is also stored at battles[t] (the
 * caller sizes it for all `trials`). Charges `budget` before each block for its battles
 * (cbd_sim_plan_battle_units each) and the jump to the next block's stream (CBD_WORK_RNG_JUMP),
 * and first the jumps to reach first_block; the histograms and, with fog, the counts drawn
 * (CBD_WORK_HIST_SLOT a count) grow from it. CBD_ERR_BUDGET when it is spent, CBD_ERR_NOMEM
 * when the system had no memory; *stats then holds part of the run and is only fit for
 * cbd_sim_stats_free.
 */
cbd_status cbd_warapp_sim_blocks(const cbd_sim_plan *plan, uint64_t seed, uint64_t trials,
                                 uint64_t first_block, uint64_t end_block, cbd_budget *budget,
                                 cbd_sim_stats *stats, cbd_sim_record *battles);

#endif
