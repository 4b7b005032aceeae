/*
 * Fog (W23): one battle against defenders known only as a distribution over counts. The answer
 * is the exact mixture: every probability, distribution and unit result is the weighted sum of
 * the analyses of each count, taken on their exact values (not on rounded answers).
 */
#include <string.h>

#include "combatd/warapp_odds.h"
#include "combatd/windows.h"
#include "warapp_battle_internal.h"

/*
 * Adds w·d into acc, window by window: each lands in a window of acc that holds its values, or
 * one of its own where no count put values before (windows.h), so the mixture holds what its
 * counts' windows hold and never the span between them.
 */
static cbd_status mix_into(cbd_windows *acc, const cbd_windows *d, double w, cbd_budget *budget) {
    for (size_t k = 0; k < d->n; k++) {
        const cbd_window *src = &d->w[k];
        cbd_slot *at;
        cbd_status st = cbd_windows_cover(acc, src->lo, src->lo + src->len - 1, CBD_WINDOWS_JOIN,
                                          CBD_WORK_SCAN_TERM, budget, &at);
        if (st != CBD_OK) {
            return st;
        }
        /* in pieces, each charged before it is added (a count's window may hold millions) */
        size_t piece = (size_t)(CBD_BUDGET_PROGRESS_UNITS / CBD_WORK_SCAN_TERM);
        for (size_t from = 0; from < src->len; from += piece) {
            size_t to = src->len - from < piece ? src->len : from + piece;
            if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, to - from))) {
                return CBD_ERR_BUDGET;
            }
            for (size_t i = from; i < to; i++) {
                at[i].p += w * src->s[i].p;
            }
        }
    }
    return CBD_OK;
}

static bool same_outcome(const cbd_warapp_outcome *a, const cbd_warapp_outcome *b) {
    return a->captured == b->captured && a->attackers_lost == b->attackers_lost &&
           a->defenders_lost == b->defenders_lost && a->attackers_left == b->attackers_left &&
           a->defenders_left == b->defenders_left;
}

/* The unit results of one count, weighted, into the mixture's (allocated on the first). */
static cbd_status mix_units(cbd_warapp_unit_result **acc, const cbd_warapp_unit_result *r, size_t n,
                            double w, cbd_budget *budget) {
    if (n == 0) {
        return CBD_OK;
    }
    if (!*acc && !(*acc = cbd_mem_calloc(budget, n, sizeof **acc))) {
        return cbd_budget_nomem(budget);
    }
    cbd_status st = CBD_OK;
    for (size_t i = 0; i < n && st == CBD_OK; i++) {
        (*acc)[i].survival_probability += w * r[i].survival_probability;
        st = mix_into(&(*acc)[i].health_left, &r[i].health_left, w, budget);
    }
    return st;
}

/* One count's analysis, weighted, into the mixture. */
static cbd_status mix_one(cbd_warapp_analysis *out, const cbd_warapp_analysis *a, double w,
                          bool first, cbd_budget *budget) {
    out->capture_probability += w * a->capture_probability;
    out->mutual_destruction_probability += w * a->mutual_destruction_probability;
    /* W23: certain only when every count gives the same certain outcome. */
    out->deterministic =
        a->deterministic &&
        (first || (out->deterministic && same_outcome(&out->outcome, &a->outcome)));
    out->outcome = a->outcome;
    cbd_status st = mix_into(&out->attackers_left, &a->attackers_left, w, budget);
    if (st == CBD_OK) {
        st = mix_into(&out->defenders_left, &a->defenders_left, w, budget);
    }
    if (st == CBD_OK) {
        out->n_attacking_units = a->n_attacking_units;
        st = mix_units(&out->attacking_units, a->attacking_units, a->n_attacking_units, w, budget);
    }
    if (st == CBD_OK) {
        out->n_defending_units = a->n_defending_units;
        st = mix_units(&out->defending_units, a->defending_units, a->n_defending_units, w, budget);
    }
    return st;
}

/* One count's analysis against the attackers' damage ka, which no count changes, mixed in. */
static cbd_status mix_count(const cbd_side_prep *att, const cbd_warapp_side *defense,
                            const cbd_warapp_count *count, const cbd_kills *ka, bool first,
                            const cbd_warapp_settings *s, cbd_budget *budget,
                            cbd_warapp_analysis *out) {
    cbd_warapp_side side = *defense;
    side.armies = count->armies;
    cbd_side_prep def;
    cbdp_side_prep_init(&def, &side);
    cbd_kills kd;
    cbd_status st = cbd_warapp_kills(cbd_warapp_side_power(&side, false), s->defense_kill_rate,
                                     s->luck_modifier, s->rounding, budget, &kd);
    if (st != CBD_OK) {
        return st;
    }
    cbd_warapp_analysis a;
    memset(&a, 0, sizeof a);
    st = cbdp_warapp_analysis_fill(att, &def, ka, &kd, budget, &a);
    if (st == CBD_OK) {
        st = mix_one(out, &a, count->weight, first, budget);
    }
    cbd_warapp_analysis_free(&a);
    cbd_kills_free(&kd);
    return st;
}

/* The spare zeros that growing left at the ends of the mixture's windows. */
static void trim_all(cbd_warapp_analysis *out) {
    cbd_windows_trim(&out->attackers_left);
    cbd_windows_trim(&out->defenders_left);
    for (size_t i = 0; out->attacking_units && i < out->n_attacking_units; i++) {
        cbd_windows_trim(&out->attacking_units[i].health_left);
    }
    for (size_t i = 0; out->defending_units && i < out->n_defending_units; i++) {
        cbd_windows_trim(&out->defending_units[i].health_left);
    }
}

cbd_status cbd_warapp_analyze_fog(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                  const cbd_warapp_count *counts, size_t n_counts,
                                  const cbd_warapp_settings *s, cbd_budget *budget,
                                  cbd_warapp_analysis *out) {
    memset(out, 0, sizeof *out);
    if (n_counts == 0 || (attack->armies == 0 && attack->n_units == 0) ||
        attack->n_units > CBD_WARAPP_MAX_UNITS || defense->n_units > CBD_WARAPP_MAX_UNITS) {
        return CBD_ERR_INVALID;
    }
    if (n_counts == 1) { /* a known count: the plain analysis, to the bit */
        cbd_warapp_side def = *defense;
        def.armies = counts[0].armies;
        return cbd_warapp_analyze_sides(attack, &def, s, budget, out);
    }
    /* The attackers' damage does not depend on the defenders: computed once for every count. */
    cbd_side_prep att;
    cbdp_side_prep_init(&att, attack);
    cbd_kills ka;
    cbd_status st = cbd_warapp_kills(cbd_warapp_side_power(attack, true), s->offense_kill_rate,
                                     s->luck_modifier, s->rounding, budget, &ka);
    for (size_t k = 0; k < n_counts && st == CBD_OK; k++) {
        st = mix_count(&att, defense, &counts[k], &ka, k == 0, s, budget, out);
    }
    cbd_kills_free(&ka);
    out->attackers = attack->armies;
    out->defenders = 0; /* not one count: the caller echoes the distribution */
    if (st != CBD_OK) {
        cbd_warapp_analysis_free(out);
        return st;
    }
    trim_all(out);
    return CBD_OK;
}
