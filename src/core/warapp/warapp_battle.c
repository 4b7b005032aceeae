/*
 * The exact analysis of one War.app battle (W1–W6, with special units W17–W20); see
 * include/combatd/warapp_odds.h.
 *
 * Each side's damage dealt is the kill distribution of its power (W18), and the two are
 * independent. What a side keeps never grows with the damage it takes (warapp_units.h), so it
 * keeps nothing exactly when the damage reaches its toughness T (its armies plus every unit's
 * damage to kill or health): with Ka the attackers' damage and Kd the defenders',
 *   P(capture) = P(Ka >= T_def) · P(Kd < T_att),  P(mutual) = P(Ka >= T_def) · P(Kd >= T_att).
 * Without units T is the side's armies and every sum below is the one W4–W6 give.
 */
#include <string.h>

#include "combatd/warapp_odds.h"
#include "warapp_battle_internal.h"

static uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

static void unit_results_free(cbd_warapp_unit_result *r, size_t n);
static cbd_status unit_results(const cbd_side_prep *p, const cbd_kills *damage, cbd_budget *budget,
                               cbd_warapp_unit_result **out);

void cbdp_side_prep_init(cbd_side_prep *p, const cbd_warapp_side *side) {
    p->side = side;
    cbd_warapp_damage_order(side, p->order, &p->n_before);
    p->toughness = cbd_warapp_side_toughness(side);
}

uint64_t cbdp_side_prep_armies_left(const cbd_side_prep *p, uint64_t damage) {
    uint64_t to_armies = p->n_before > 0
                             ? cbd_warapp_damage_to_armies(p->side, p->order, p->n_before, damage)
                             : damage;
    return p->side->armies - min_u64(to_armies, p->side->armies);
}

/* The side after `damage`, into state (whose unit_left has room for every unit). */
static void state_after(const cbd_side_prep *p, uint64_t damage, cbd_warapp_side_state *state) {
    cbd_warapp_take_damage(p->side, p->order, p->n_before, damage, state);
}

static bool same_state(const cbd_warapp_side *side, const cbd_warapp_side_state *a,
                       const cbd_warapp_side_state *b) {
    if (a->armies_left != b->armies_left) {
        return false;
    }
    for (size_t i = 0; i < side->n_units; i++) {
        if (a->unit_left[i] != b->unit_left[i]) {
            return false;
        }
    }
    return true;
}

/* W5, W20: the defenders after the attack (one army resurrected when both sides kept nothing),
 * as cbd_warapp_decide leaves them. */
static void resurrect(const cbd_warapp_side *def, bool attack_empty, cbd_warapp_side_state *s) {
    s->armies_left = cbd_warapp_decide(0, def->armies, 0, attack_empty, s->armies_left,
                                       cbd_warapp_side_empty(def, s))
                         .defenders_left;
}

/*
 * Whether exactly one outcome is possible, decided on the exact supports: what each side keeps
 * is monotone in the damage it takes, so the outcome is certain iff the ends of the support give
 * the same. The defenders are compared after W20's resurrection, so that with no attacker left
 * damage that leaves one army and damage that leaves nothing (one army resurrected) count as one
 * outcome.
 */
static bool is_deterministic(const cbd_side_prep *att, const cbd_side_prep *def,
                             const cbd_kills *ka, const cbd_kills *kd) {
    uint64_t left[4][CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state a_lo = {0, left[0]}, a_hi = {0, left[1]};
    cbd_warapp_side_state d_lo = {0, left[2]}, d_hi = {0, left[3]};
    state_after(att, kd->min, &a_lo);
    state_after(att, kd->max, &a_hi);
    if (!same_state(att->side, &a_lo, &a_hi)) {
        return false;
    }
    bool attack_empty = cbd_warapp_side_empty(att->side, &a_lo);
    state_after(def, ka->min, &d_lo);
    state_after(def, ka->max, &d_hi);
    resurrect(def->side, attack_empty, &d_lo);
    resurrect(def->side, attack_empty, &d_hi);
    return same_state(def->side, &d_lo, &d_hi);
}

/* The one outcome, when deterministic: each side's state at its least damage, decided by W20. */
static cbd_warapp_outcome certain_outcome(const cbd_side_prep *att, const cbd_side_prep *def,
                                          const cbd_kills *ka, const cbd_kills *kd) {
    uint64_t left[2][CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state a = {0, left[0]}, d = {0, left[1]};
    state_after(att, kd->min, &a);
    state_after(def, ka->min, &d);
    return cbd_warapp_decide(att->side->armies, def->side->armies, a.armies_left,
                             cbd_warapp_side_empty(att->side, &a), d.armies_left,
                             cbd_warapp_side_empty(def->side, &d));
}

/* One window of probabilities over [lo, hi], zeroed, into empty windows (charged with the
 * scans of the kill windows that fill it, cbdp_warapp_analysis_fill). */
static cbd_status one_window(cbd_windows *out, uint64_t lo, uint64_t hi, cbd_budget *budget,
                             cbd_slot **s) {
    cbd_windows_init(out);
    return cbd_windows_cover(out, lo, hi, 0, 0, budget, s);
}

/* Attackers left: their armies after the defenders' damage, whatever their own (W6, W19). */
static cbd_status attackers_left(const cbd_side_prep *att, const cbd_dist *dd, cbd_budget *budget,
                                 cbd_windows *out) {
    uint64_t top = dd->lo + dd->len - 1;
    uint64_t lo = cbdp_side_prep_armies_left(att, top);
    cbd_slot *s;
    cbd_status st = one_window(out, lo, cbdp_side_prep_armies_left(att, dd->lo), budget, &s);
    if (st != CBD_OK) {
        return st;
    }
    for (size_t i = 0; i < dd->len; i++) {
        uint64_t left = cbdp_side_prep_armies_left(att, dd->lo + i);
        s[left - lo].p += dd->p[i];
    }
    cbd_windows_trim(out);
    return CBD_OK;
}

/* Defenders left: their armies after the attackers' damage; where they keep nothing, the
 * mutual-destruction share of the mass (no attacker left) resurrects one army (W5, W20). */
static cbd_status defenders_left(const cbd_side_prep *def, const cbd_dist *ad, double pd_lt,
                                 double pd_ge, cbd_budget *budget, cbd_windows *out) {
    uint64_t top = ad->lo + ad->len - 1;
    uint64_t lo = cbdp_side_prep_armies_left(def, top);
    uint64_t hi = cbdp_side_prep_armies_left(def, ad->lo);
    if (lo == 0 && hi < 1) {
        hi = 1;
    }
    cbd_slot *s;
    cbd_status st = one_window(out, lo, hi, budget, &s);
    if (st != CBD_OK) {
        return st;
    }
    for (size_t i = 0; i < ad->len; i++) {
        uint64_t damage = ad->lo + i;
        if (damage >= def->toughness) {
            s[0 - lo].p += ad->p[i] * pd_lt;
            s[1 - lo].p += ad->p[i] * pd_ge;
        } else {
            s[cbdp_side_prep_armies_left(def, damage) - lo].p += ad->p[i];
        }
    }
    cbd_windows_trim(out);
    return CBD_OK;
}

static cbd_status kills_pair(const cbd_side_prep *att, const cbd_side_prep *def,
                             const cbd_warapp_settings *s, cbd_budget *budget, cbd_kills *ka,
                             cbd_kills *kd) {
    uint64_t pa = cbd_warapp_side_power(att->side, true);
    uint64_t pd = cbd_warapp_side_power(def->side, false);
    cbd_status st =
        cbd_warapp_kills(pa, s->offense_kill_rate, s->luck_modifier, s->rounding, budget, ka);
    if (st != CBD_OK) {
        return st;
    }
    st = cbd_warapp_kills(pd, s->defense_kill_rate, s->luck_modifier, s->rounding, budget, kd);
    if (st != CBD_OK) {
        cbd_kills_free(ka);
    }
    return st;
}

cbd_status cbdp_warapp_analysis_fill(const cbd_side_prep *att, const cbd_side_prep *def,
                                     const cbd_kills *ka, const cbd_kills *kd, cbd_budget *budget,
                                     cbd_warapp_analysis *out) {
    /* The tails, the two survivor windows and their trims scan each kill window a few times. */
    if (!cbd_charge(budget, cbd_work_times(4 * CBD_WORK_SCAN_TERM, ka->dist.len + kd->dist.len))) {
        return CBD_ERR_BUDGET;
    }
    /* The sides are independent: each event is a product of one factor per side (W5). */
    double pa = cbd_kills_at_least(ka, def->toughness);
    double pd_lt = cbd_kills_below(kd, att->toughness);
    double pd_ge = cbd_kills_at_least(kd, att->toughness);
    out->capture_probability = pa * pd_lt;
    out->mutual_destruction_probability = pa * pd_ge;
    out->deterministic = is_deterministic(att, def, ka, kd);
    if (out->deterministic) {
        out->outcome = certain_outcome(att, def, ka, kd);
    }
    cbd_status st = attackers_left(att, &kd->dist, budget, &out->attackers_left);
    if (st == CBD_OK) {
        st = defenders_left(def, &ka->dist, pd_lt, pd_ge, budget, &out->defenders_left);
    }
    if (st == CBD_OK) {
        st = unit_results(att, kd, budget, &out->attacking_units);
        out->n_attacking_units = att->side->n_units;
    }
    if (st == CBD_OK) {
        st = unit_results(def, ka, budget, &out->defending_units);
        out->n_defending_units = def->side->n_units;
    }
    return st;
}

cbd_status cbd_warapp_analyze_sides(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                    const cbd_warapp_settings *s, cbd_budget *budget,
                                    cbd_warapp_analysis *out) {
    memset(out, 0, sizeof *out);
    if ((attack->armies == 0 && attack->n_units == 0) || attack->n_units > CBD_WARAPP_MAX_UNITS ||
        defense->n_units > CBD_WARAPP_MAX_UNITS) {
        return CBD_ERR_INVALID; /* W20: an attack needs an army or a unit */
    }
    out->attackers = attack->armies;
    out->defenders = defense->armies;
    cbd_side_prep att, def;
    cbdp_side_prep_init(&att, attack);
    cbdp_side_prep_init(&def, defense);
    cbd_kills ka, kd;
    cbd_status st = kills_pair(&att, &def, s, budget, &ka, &kd);
    if (st != CBD_OK) {
        return st;
    }
    st = cbdp_warapp_analysis_fill(&att, &def, &ka, &kd, budget, out);
    cbd_kills_free(&ka);
    cbd_kills_free(&kd);
    if (st != CBD_OK) {
        cbd_warapp_analysis_free(out);
    }
    return st;
}

cbd_status cbd_warapp_analyze(uint64_t attackers, uint64_t defenders, const cbd_warapp_settings *s,
                              cbd_budget *budget, cbd_warapp_analysis *out) {
    if (attackers == 0) {
        memset(out, 0, sizeof *out);
        return CBD_ERR_INVALID;
    }
    cbd_warapp_side attack = {attackers, 0, NULL}, defense = {defenders, 0, NULL};
    return cbd_warapp_analyze_sides(&attack, &defense, s, budget, out);
}

static void unit_results_free(cbd_warapp_unit_result *r, size_t n) {
    for (size_t i = 0; r && i < n; i++) {
        cbd_windows_free(&r[i].health_left);
    }
    cbd_mem_free(r);
}

void cbd_warapp_analysis_free(cbd_warapp_analysis *a) {
    cbd_windows_free(&a->attackers_left);
    cbd_windows_free(&a->defenders_left);
    unit_results_free(a->attacking_units, a->n_attacking_units);
    unit_results_free(a->defending_units, a->n_defending_units);
    a->attacking_units = a->defending_units = NULL;
    a->n_attacking_units = a->n_defending_units = 0;
}

/* Health windows for the health units: what each has left is monotone in the damage
 * (warapp_units.h), so its window runs from its value at the most damage to that at the least. */
static cbd_status health_windows(const cbd_side_prep *p, const cbd_dist *damage, cbd_budget *budget,
                                 cbd_warapp_unit_result *r, cbd_slot **s) {
    uint64_t left[2][CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state most = {0, left[0]}, least = {0, left[1]};
    state_after(p, damage->lo + damage->len - 1, &most);
    state_after(p, damage->lo, &least);
    for (size_t u = 0; u < p->side->n_units; u++) {
        if (p->side->units[u].has_health) {
            cbd_status st =
                one_window(&r[u].health_left, most.unit_left[u], least.unit_left[u], budget, &s[u]);
            if (st != CBD_OK) {
                return st;
            }
        }
    }
    return CBD_OK;
}

/* The least damage that kills unit u: everything it keeps only falls as the damage grows, and
 * the side's toughness kills every unit, so a bisection over [0, toughness] finds it. */
static uint64_t kill_threshold(const cbd_side_prep *p, size_t u) {
    uint64_t left[CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state state = {0, left};
    uint64_t lo = 0, hi = p->toughness;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        state_after(p, mid, &state);
        if (left[u] == 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/*
 * Each unit's survival probability, and a health unit's health left, when the side takes the
 * damage distribution `damage`: an array of side->n_units results from the budget (NULL when
 * the side has none). On failure nothing is left allocated.
 */
static cbd_status unit_results(const cbd_side_prep *p, const cbd_kills *damage, cbd_budget *budget,
                               cbd_warapp_unit_result **out) {
    size_t n = p->side->n_units;
    const cbd_dist *d = &damage->dist;
    *out = NULL;
    if (n == 0) {
        return CBD_OK;
    }
    /* W19 is walked once per damage value, through every unit (two steps of
     * CBD_WORK_UNIT_DAMAGE a unit, as the turns charge a walk), and each health unit's window
     * gets the value's mass: about 7.6 ns a unit and value for 100 fog counts of 9,000 damage
     * values against 32 units of health 10^9 (the costly table's row). */
    uint64_t per_value = (2 * CBD_WORK_UNIT_DAMAGE + CBD_WORK_SCAN_TERM) * n + CBD_WORK_SCAN_TERM;
    if (!cbd_charge(budget, cbd_work_times(per_value, d->len + 64))) {
        return CBD_ERR_BUDGET;
    }
    cbd_warapp_unit_result *r = cbd_mem_calloc(budget, n, sizeof *r);
    if (!r) {
        return cbd_budget_nomem(budget);
    }
    /* Alive iff the damage is below the unit's threshold: a tail of the damage, exactly 0 or 1
     * where the support decides it (cbd_kills_below). */
    for (size_t u = 0; u < n; u++) {
        r[u].survival_probability = cbd_kills_below(damage, kill_threshold(p, u));
    }
    cbd_slot *health[CBD_WARAPP_MAX_UNITS]; /* each health unit's one window, from its lo */
    cbd_status st = health_windows(p, d, budget, r, health);
    uint64_t left[CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state state = {0, left};
    for (size_t i = 0; st == CBD_OK && i < d->len; i++) {
        state_after(p, d->lo + i, &state);
        for (size_t u = 0; u < n; u++) {
            if (p->side->units[u].has_health) {
                health[u][left[u] - r[u].health_left.w[0].lo].p += d->p[i];
            }
        }
    }
    for (size_t u = 0; st == CBD_OK && u < n; u++) {
        if (p->side->units[u].has_health) {
            cbd_windows_trim(&r[u].health_left);
        }
    }
    if (st != CBD_OK) {
        unit_results_free(r, n);
        return st;
    }
    *out = r;
    return CBD_OK;
}
