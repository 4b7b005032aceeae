#ifndef COMBATD_WARAPP_ODDS_H
#define COMBATD_WARAPP_ODDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/status.h"
#include "combatd/warapp.h"
#include "combatd/warapp_units.h"
#include "combatd/windows.h"

/*
 * Exact War.app odds (W1–W6), computed rather than simulated.
 *
 * The two sides roll independently, so each side's kills have a distribution of their own: the
 * binomial roll X (see binomial.h) blended with the expected kills (W1, exact by W3) and then
 * rounded (W2). Straight rounding maps each X to one kill value; weighted random rounding splits
 * each X's mass between floor(v) and floor(v) + 1 with the exact probability frac / 10^12. As X
 * grows by one the blended value grows by L <= 1, so the kills are monotone in X and their
 * support is a contiguous range: a dense window of doubles holds the distribution.
 *
 * Everything a battle can do follows from the two kill distributions (W4–W6):
 *   P(capture) = P(attacker kills >= D) · P(defender kills < A),
 *   P(mutual destruction) = P(attacker kills >= D) · P(defender kills >= A).
 *
 * Implemented in src/core/warapp/: warapp_odds.c (the kill distributions), warapp_battle.c (one
 * battle's analysis), warapp_search.c (capture curves and the armies needed) and warapp_fog.c
 * (the analysis under fog, W23).
 */

/* A distribution over whole numbers as a dense window: P(value = lo + i) = p[i]. */
typedef struct {
    uint64_t lo;
    size_t len;
    double *p; /* from a budget (cbd_mem_*); free with cbd_dist_free */
} cbd_dist;

void cbd_dist_free(cbd_dist *d);

/* A zeroed window over [lo, hi], from the budget. */
cbd_status cbd_dist_alloc(cbd_dist *d, uint64_t lo, uint64_t hi, cbd_budget *budget);

/* Drops values of probability exactly 0 at both ends (keeping at least one). */
void cbd_dist_trim(cbd_dist *d);

/*
 * One side's kills before the W4 cap: the distribution (window of values carrying mass; see
 * CBD_BINOM_CUTOFF) and the exact support [min, max] of every value with non-zero probability,
 * which decides certainties (probabilities of exactly 0 or 1, `deterministic`) without rounding.
 */
typedef struct {
    cbd_dist dist;
    uint64_t min, max;
    /* The roll values computed for it: its binomial window's length, 1 when the roll is
     * certain. With luck L the window is about 1/L times the values kept, so callers that
     * count work (the turn engine's max_work) count these. */
    uint64_t terms;
} cbd_kills;

/* The kills of n armies at kill rate `rate` with luck `luck` and rounding `rounding` (W1, W2),
 * charged to `budget` (the binomial window, then CBD_WORK_KILL_TERM per roll value folded). */
cbd_status cbd_warapp_kills(uint64_t n, cbd_micro rate, cbd_micro luck, cbd_rounding rounding,
                            cbd_budget *budget, cbd_kills *out);

void cbd_kills_free(cbd_kills *k);

/* The exact support [min, max] of cbd_warapp_kills, without computing the distribution. */
void cbd_warapp_kills_support(uint64_t n, cbd_micro rate, cbd_micro luck, cbd_rounding rounding,
                              uint64_t *min, uint64_t *max);

/* P(kills >= t) and P(kills < t); exactly 0 or 1 when the support decides it. */
double cbd_kills_at_least(const cbd_kills *k, uint64_t t);
double cbd_kills_below(const cbd_kills *k, uint64_t t);

/* One special unit's fate in an analysis (W19). */
typedef struct {
    double survival_probability;
    /* A health unit: its health left (0 when dead), windows of probabilities; for a unit with
     * damage to kill, no window. */
    cbd_windows health_left;
} cbd_warapp_unit_result;

/* The full analysis of an attacking side (an army or a unit at least, W20) against a defending
 * one. Armies only in the distributions (W20). */
typedef struct {
    uint64_t attackers, defenders; /* armies */
    double capture_probability;
    double mutual_destruction_probability;
    bool deterministic;         /* exactly one outcome is possible (decided on the support) */
    cbd_warapp_outcome outcome; /* that outcome, when deterministic */
    /* Windows of probabilities (windows.h): one for one count of defenders, one where each
     * count's values lie for a mixture (W23). */
    cbd_windows attackers_left; /* W6: occupying on capture, at home on failure */
    cbd_windows defenders_left; /* W5: includes the resurrected army */
    /* Per unit of each side, in listed order (from the budget; NULL without units). */
    cbd_warapp_unit_result *attacking_units, *defending_units;
    size_t n_attacking_units, n_defending_units;
} cbd_warapp_analysis;

/* W18–W20: the sides' powers must be at most CBD_WARAPP_MAX_ARMIES each. */
cbd_status cbd_warapp_analyze_sides(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                    const cbd_warapp_settings *settings, cbd_budget *budget,
                                    cbd_warapp_analysis *out);

/* A attackers (>= 1) against D defenders, without units: cbd_warapp_analyze_sides of two sides
 * of armies only. Every core call here charges `budget` (budget.h; NULL: unlimited) and takes
 * its memory from it; CBD_ERR_BUDGET when it is spent. */
cbd_status cbd_warapp_analyze(uint64_t attackers, uint64_t defenders,
                              const cbd_warapp_settings *settings, cbd_budget *budget,
                              cbd_warapp_analysis *out);

void cbd_warapp_analysis_free(cbd_warapp_analysis *a);

/* One point of War.app's Analyze Graphs. */
typedef struct {
    uint64_t attackers;
    double capture_probability;
    double expected_attackers_lost;
    double expected_defenders_lost; /* W5: the resurrected army is not counted as lost */
} cbd_warapp_graph_point;

/*
 * The capture curve against D defenders for attackers from..to (1 <= from <= to), written to
 * out[0 .. to − from]. The defenders' kills depend only on D, so they are computed once.
 */
cbd_status cbd_warapp_graph(uint64_t defenders, uint64_t from, uint64_t to,
                            const cbd_warapp_settings *settings, cbd_budget *budget,
                            cbd_warapp_graph_point *out);

/*
 * The same with units: the attacking side's armies run from..to (0 <= from <= to; 0 only when
 * it has units) beside its units, fixed; the defending side is as given.
 */
cbd_status cbd_warapp_graph_sides(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                  uint64_t from, uint64_t to, const cbd_warapp_settings *settings,
                                  cbd_budget *budget, cbd_warapp_graph_point *out);

/*
 * The fewest attackers (at most `cap`) whose capture probability against D defenders is >= q,
 * for each target q in (0, 1]; 0 where even `cap` attackers fall short. Capture probability
 * never falls as attackers grow, so each target is a galloping plus binary search. A target of
 * exactly 1 is decided on the support (a capture certain in exact arithmetic), not on a double
 * that merely rounds to 1.
 */
cbd_status cbd_warapp_armies_needed(uint64_t defenders, const cbd_warapp_settings *settings,
                                    const double *targets, size_t n_targets, uint64_t cap,
                                    cbd_budget *budget, uint64_t *out);

/* Where no number of armies up to the cap reaches a target (cbd_warapp_armies_needed_sides). */
#define CBD_WARAPP_UNREACHABLE UINT64_MAX

/*
 * The same with units: the fewest attacking armies beside the attacking side's units (its
 * `armies` is ignored; 0 armies may be enough when it has units), CBD_WARAPP_UNREACHABLE where
 * even `cap` fall short.
 */
cbd_status cbd_warapp_armies_needed_sides(const cbd_warapp_side *attack,
                                          const cbd_warapp_side *defense,
                                          const cbd_warapp_settings *settings,
                                          const double *targets, size_t n_targets, uint64_t cap,
                                          cbd_budget *budget, uint64_t *out);

/* ---- fog (W23): defenders known only as a distribution over counts ---- */

/* One count of armies and its probability; the counts of a distribution are distinct and their
 * weights sum to 1 (the api normalises them). */
typedef struct {
    uint64_t armies;
    double weight;
} cbd_warapp_count;

/*
 * The analysis, graph and fewest armies against a defending side whose armies are
 * counts[0 .. n) (defense->armies is ignored; its units are known): the exact mixture of the
 * analyses of each count, weighted. With one count they are the plain functions' answers to
 * the bit. The analysis is deterministic only when every count gives the same certain outcome;
 * out->defenders is 0 when there are several counts.
 */
cbd_status cbd_warapp_analyze_fog(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                  const cbd_warapp_count *counts, size_t n_counts,
                                  const cbd_warapp_settings *settings, cbd_budget *budget,
                                  cbd_warapp_analysis *out);
cbd_status cbd_warapp_graph_fog(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                const cbd_warapp_count *counts, size_t n_counts, uint64_t from,
                                uint64_t to, const cbd_warapp_settings *settings,
                                cbd_budget *budget, cbd_warapp_graph_point *out);
/* Capture against the mixture never falls as armies grow (a weighted sum of curves that do
 * not), so the search is the same galloping bisection; possible means possible against some
 * count, certain means certain against every count. */
cbd_status cbd_warapp_armies_needed_fog(const cbd_warapp_side *attack,
                                        const cbd_warapp_side *defense,
                                        const cbd_warapp_count *counts, size_t n_counts,
                                        const cbd_warapp_settings *settings, const double *targets,
                                        size_t n_targets, uint64_t cap, cbd_budget *budget,
                                        uint64_t *out);

#endif
