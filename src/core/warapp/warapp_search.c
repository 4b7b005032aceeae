/*
 * The analyze graph and the fewest armies for a chance (W1–W6, W17–W20): the attacking armies
 * vary beside the attacking units, fixed; see include/combatd/warapp_odds.h.
 *
 * The defenders' damage Kd does not depend on the attacking armies, so it is computed once with
 * prefix sums. Against a armies the attacking side keeps nothing iff Kd reaches a + U (U: its
 * units' toughness, warapp_battle.c), and the armies it loses are min(G, a) where G is the part
 * of Kd that gets past the units before them (W19; G is Kd when there are none).
 */
#include <string.h>

#include "combatd/warapp_odds.h"
#include "warapp_battle_internal.h"

static uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

static uint64_t add_sat(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Prefix sums of a distribution: P(X < lo + i), E[(X − lo)·1{X < lo + i}], P(X >= lo + i). */
typedef struct {
    const cbd_dist *d;
    double *cum_p, *cum_kp, *suf_p; /* len + 1 values each */
} sums;

/* A pass's step of sums_init: its share of the units and of the arrays' new pages paid. */
static bool sums_step(cbd_charge_share *work, cbd_charge_share *pages) {
    return cbd_charge_share_step(work) && cbd_charge_share_step(pages);
}

static cbd_status sums_init(sums *s, const cbd_dist *d, cbd_budget *budget) {
    memset(s, 0, sizeof *s);
    s->d = d;
    /* Three passes, and the three arrays' pages first touched (CBD_WORK_TURN_GROWTH bytes a
     * unit, as a turn table's growth): some 5.8 ns a value in bench_budget's 10 against
     * {10^9, 5} with targets, where the passes alone left the row at 0.58 units a ns. Paid as
     * the two loops run, with the arrays' new pages (cbd_budget_defer_pages): charged when the
     * arrays were taken, 3.02 and 3 · 4.92 · 2^20 units came at once there on a cold pool, then
     * 17 ms of CPU to fault and fill them with no check between. A budget without the units
     * stops before the memory is taken. */
    uint64_t per = 3 * CBD_WORK_SCAN_TERM + 3 * sizeof(double) / CBD_WORK_TURN_GROWTH;
    uint64_t units = cbd_work_times(per, d->len + 1), owed = 0;
    if (units > cbd_budget_work_left(budget) && !cbd_charge(budget, units)) {
        return CBD_ERR_BUDGET;
    }
    cbd_budget_defer_pages(budget, &owed);
    s->cum_p = cbd_mem_alloc(budget, (d->len + 1) * sizeof *s->cum_p);
    s->cum_kp = cbd_mem_alloc(budget, (d->len + 1) * sizeof *s->cum_kp);
    s->suf_p = cbd_mem_alloc(budget, (d->len + 1) * sizeof *s->suf_p);
    cbd_budget_defer_pages(budget, NULL);
    if (!s->cum_p || !s->cum_kp || !s->suf_p) {
        return cbd_budget_nomem(budget);
    }
    cbd_charge_share work, pages;
    cbd_charge_share_init(&work, budget, units, 2 * d->len);
    cbd_charge_share_pages_init(&pages, budget, owed, 2 * d->len);
    s->cum_p[0] = s->cum_kp[0] = 0.0;
    for (size_t i = 0; i < d->len; i++) {
        if (!sums_step(&work, &pages)) {
            return CBD_ERR_BUDGET;
        }
        s->cum_p[i + 1] = s->cum_p[i] + d->p[i];
        s->cum_kp[i + 1] = s->cum_kp[i] + (double)i * d->p[i];
    }
    s->suf_p[d->len] = 0.0;
    for (size_t i = d->len; i-- > 0;) {
        if (!sums_step(&work, &pages)) {
            return CBD_ERR_BUDGET;
        }
        s->suf_p[i] = s->suf_p[i + 1] + d->p[i];
    }
    return cbd_charge_share_end(&work) && cbd_charge_share_end(&pages) ? CBD_OK : CBD_ERR_BUDGET;
}

static void sums_free(sums *s) {
    cbd_mem_free(s->cum_p);
    cbd_mem_free(s->cum_kp);
    cbd_mem_free(s->suf_p);
}

/* The index of value v in the window, clamped to [0, len]. */
static size_t sums_index(const sums *s, uint64_t v) {
    return v > s->d->lo ? (size_t)min_u64(v - s->d->lo, s->d->len) : 0;
}

/* One count of defenders (one point of a fog distribution, W23, or the one count): their side,
 * their damage and its sums. */
typedef struct {
    double weight;
    cbd_warapp_side side;
    cbd_side_prep def;
    cbd_kills kd; /* the defenders' damage */
    sums kd_sums;
    cbd_dist to_armies; /* G, when units shield the attacking armies (else unused) */
    sums g_sums;        /* over G, or a copy of kd_sums */
    bool own_g;
} count_defense;

/* The attacking side's units, and every count of defenders, for every point. */
typedef struct {
    cbd_warapp_side attack; /* its units; armies vary per point */
    cbd_side_prep att;
    uint64_t unit_power, unit_toughness; /* of the attacking units */
    size_t n;
    count_defense *defs; /* from the budget */
} search;

/* G: the pushforward of Kd through the units that shield the attacking armies; it never falls
 * as Kd grows (warapp_units.h), so its window is the image of Kd's. */
static cbd_status to_armies_init(const search *sr, count_defense *c, cbd_budget *budget) {
    const cbd_dist *dd = &c->kd.dist;
    const cbd_side_prep *p = &sr->att;
    uint64_t g_lo = cbd_warapp_damage_to_armies(p->side, p->order, p->n_before, dd->lo);
    uint64_t g_hi =
        cbd_warapp_damage_to_armies(p->side, p->order, p->n_before, dd->lo + dd->len - 1);
    cbd_status st = cbd_dist_alloc(&c->to_armies, g_lo, g_hi, budget);
    for (size_t i = 0; st == CBD_OK && i < dd->len; i++) {
        uint64_t g = cbd_warapp_damage_to_armies(p->side, p->order, p->n_before, dd->lo + i);
        c->to_armies.p[g - g_lo] += dd->p[i];
    }
    return st == CBD_OK ? sums_init(&c->g_sums, &c->to_armies, budget) : st;
}

static void count_free(count_defense *c) {
    sums_free(&c->kd_sums);
    if (c->own_g) {
        sums_free(&c->g_sums);
        cbd_dist_free(&c->to_armies);
    }
    cbd_kills_free(&c->kd);
}

static void search_free(search *sr) {
    for (size_t k = 0; sr->defs && k < sr->n; k++) {
        count_free(&sr->defs[k]);
    }
    cbd_mem_free(sr->defs);
}

static cbd_status count_init(const search *sr, count_defense *c, const cbd_warapp_settings *s,
                             cbd_budget *budget) {
    cbdp_side_prep_init(&c->def, &c->side);
    cbd_status st = cbd_warapp_kills(cbd_warapp_side_power(&c->side, false), s->defense_kill_rate,
                                     s->luck_modifier, s->rounding, budget, &c->kd);
    if (st == CBD_OK) {
        st = sums_init(&c->kd_sums, &c->kd.dist, budget);
    }
    if (st == CBD_OK && sr->att.n_before > 0) {
        c->own_g = true;
        st = to_armies_init(sr, c, budget);
    } else if (st == CBD_OK) {
        c->g_sums = c->kd_sums;
    }
    return st;
}

/* The attacking units, and the defending side at each count (one count without fog). */
static cbd_status search_init(search *sr, const cbd_warapp_side *attack,
                              const cbd_warapp_side *defense, const cbd_warapp_count *counts,
                              size_t n_counts, const cbd_warapp_settings *s, cbd_budget *budget) {
    memset(sr, 0, sizeof *sr);
    sr->attack = *attack;
    sr->attack.armies = 0;
    cbdp_side_prep_init(&sr->att, &sr->attack);
    sr->unit_power = cbd_warapp_side_power(&sr->attack, true);
    sr->unit_toughness = cbd_warapp_side_toughness(&sr->attack);
    sr->defs = cbd_mem_calloc(budget, n_counts, sizeof *sr->defs);
    if (!sr->defs) {
        return cbd_budget_nomem(budget);
    }
    sr->n = n_counts;
    cbd_status st = CBD_OK;
    for (size_t k = 0; k < n_counts && st == CBD_OK; k++) {
        count_defense *c = &sr->defs[k];
        c->weight = counts[k].weight;
        c->side = *defense;
        c->side.armies = counts[k].armies;
        st = count_init(sr, c, s, budget);
    }
    if (st != CBD_OK) {
        search_free(sr);
    }
    return st;
}

/* P(Kd < t) or, with below = false, P(Kd >= t), as cbd_kills_below does it but from the sums:
 * the smaller tail, the other as its complement, exactly 0 or 1 where the support decides. */
static double kd_tail(const count_defense *c, uint64_t t, bool below) {
    if (t <= c->kd.min) {
        return below ? 0.0 : 1.0;
    }
    if (t > c->kd.max) {
        return below ? 1.0 : 0.0;
    }
    size_t i = sums_index(&c->kd_sums, t);
    double want = below ? c->kd_sums.cum_p[i] : c->kd_sums.suf_p[i];
    double other = below ? c->kd_sums.suf_p[i] : c->kd_sums.cum_p[i];
    return want <= other ? want : 1.0 - other;
}

/* E[min(G, a)] = lo·P(G < a) + E[(G − lo)·1{G < a}] + a·P(G >= a); `above` is P(G >= a). */
static double expected_army_losses(const count_defense *c, uint64_t a, double above) {
    const sums *g = &c->g_sums;
    size_t i = sums_index(g, a);
    return (double)g->d->lo * g->cum_p[i] + g->cum_kp[i] + (double)a * above;
}

/* One count's share of a point, given the attackers' damage ka for a armies. */
static void count_point(const search *sr, const count_defense *c, uint64_t a, const cbd_kills *ka,
                        cbd_warapp_graph_point *pt) {
    uint64_t t_att = add_sat(a, sr->unit_toughness);
    double pa = cbd_kills_at_least(ka, c->def.toughness);
    double below = kd_tail(c, t_att, true);
    double above = kd_tail(c, t_att, false); /* the attacking side keeps nothing */
    pt->capture_probability = pa * below;
    double g_above = c->own_g ? c->g_sums.suf_p[sums_index(&c->g_sums, a)] : above;
    pt->expected_attackers_lost = expected_army_losses(c, a, g_above);

    /* E[defenders lost] = E[armies killed] − P(mutual destruction): that army is resurrected. */
    uint64_t d = c->side.armies;
    double e = 0.0;
    for (size_t j = 0; j < ka->dist.len; j++) {
        uint64_t killed = d - cbdp_side_prep_armies_left(&c->def, ka->dist.lo + j);
        e += (double)killed * ka->dist.p[j];
    }
    pt->expected_defenders_lost = d >= 1 ? e - pa * above : e;
}

/* The attackers' damage with a armies and the units, charged besides `per_term` units for
 * each of its terms against each defending count (what the caller then reads of it). */
static cbd_status attack_kills(const search *sr, uint64_t a, const cbd_warapp_settings *s,
                               uint64_t per_term, cbd_budget *budget, cbd_kills *ka) {
    cbd_status st = cbd_warapp_kills(add_sat(a, sr->unit_power), s->offense_kill_rate,
                                     s->luck_modifier, s->rounding, budget, ka);
    if (st != CBD_OK) {
        return st;
    }
    if (!cbd_charge(budget, cbd_work_times(per_term, cbd_work_times(ka->dist.len, sr->n)))) {
        cbd_kills_free(ka);
        return CBD_ERR_BUDGET;
    }
    return CBD_OK;
}

/* One point: the attackers' damage for a armies and the units, against every count. */
static cbd_status graph_point(const search *sr, uint64_t a, const cbd_warapp_settings *s,
                              cbd_budget *budget, cbd_warapp_graph_point *pt) {
    cbd_kills ka;
    cbd_status st = attack_kills(sr, a, s, 3 * CBD_WORK_SCAN_TERM, budget, &ka);
    if (st != CBD_OK) {
        return st;
    }
    pt->attackers = a;
    if (sr->n == 1) { /* one count: its numbers as they are, to the bit */
        count_point(sr, &sr->defs[0], a, &ka, pt);
    } else {
        pt->capture_probability = pt->expected_attackers_lost = pt->expected_defenders_lost = 0.0;
        for (size_t k = 0; k < sr->n; k++) {
            cbd_warapp_graph_point one;
            count_point(sr, &sr->defs[k], a, &ka, &one);
            double w = sr->defs[k].weight;
            pt->capture_probability += w * one.capture_probability;
            pt->expected_attackers_lost += w * one.expected_attackers_lost;
            pt->expected_defenders_lost += w * one.expected_defenders_lost;
        }
    }
    cbd_kills_free(&ka);
    return CBD_OK;
}

cbd_status cbd_warapp_graph_fog(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                const cbd_warapp_count *counts, size_t n_counts, uint64_t from,
                                uint64_t to, const cbd_warapp_settings *s, cbd_budget *budget,
                                cbd_warapp_graph_point *out) {
    if (from > to || (from == 0 && attack->n_units == 0) ||
        attack->n_units > CBD_WARAPP_MAX_UNITS || defense->n_units > CBD_WARAPP_MAX_UNITS ||
        n_counts == 0) {
        return CBD_ERR_INVALID;
    }
    search sr;
    cbd_status st = search_init(&sr, attack, defense, counts, n_counts, s, budget);
    if (st != CBD_OK) {
        return st;
    }
    for (uint64_t a = from; a <= to && st == CBD_OK; a++) {
        st = graph_point(&sr, a, s, budget, &out[a - from]);
    }
    search_free(&sr);
    return st;
}

cbd_status cbd_warapp_graph_sides(const cbd_warapp_side *attack, const cbd_warapp_side *defense,
                                  uint64_t from, uint64_t to, const cbd_warapp_settings *s,
                                  cbd_budget *budget, cbd_warapp_graph_point *out) {
    cbd_warapp_count one = {defense->armies, 1.0};
    return cbd_warapp_graph_fog(attack, defense, &one, 1, from, to, s, budget, out);
}

cbd_status cbd_warapp_graph(uint64_t defenders, uint64_t from, uint64_t to,
                            const cbd_warapp_settings *s, cbd_budget *budget,
                            cbd_warapp_graph_point *out) {
    if (from == 0) {
        return CBD_ERR_INVALID;
    }
    cbd_warapp_side attack = {0, 0, NULL}, defense = {defenders, 0, NULL};
    return cbd_warapp_graph_sides(&attack, &defense, from, to, s, budget, out);
}

/* ---- the fewest armies for a chance ---- */

/* Capture is possible (probability > 0 in exact arithmetic) with a armies against some count /
 * certain against every count, from the supports alone. */
static bool capture_possible(const search *sr, uint64_t a, const cbd_warapp_settings *s) {
    uint64_t min, max;
    cbd_warapp_kills_support(add_sat(a, sr->unit_power), s->offense_kill_rate, s->luck_modifier,
                             s->rounding, &min, &max);
    for (size_t k = 0; k < sr->n; k++) {
        const count_defense *c = &sr->defs[k];
        if (max >= c->def.toughness && c->kd.min < add_sat(a, sr->unit_toughness)) {
            return true;
        }
    }
    return false;
}

static bool capture_certain(const search *sr, uint64_t a, const cbd_warapp_settings *s) {
    uint64_t min, max;
    cbd_warapp_kills_support(add_sat(a, sr->unit_power), s->offense_kill_rate, s->luck_modifier,
                             s->rounding, &min, &max);
    for (size_t k = 0; k < sr->n; k++) {
        const count_defense *c = &sr->defs[k];
        if (!(min >= c->def.toughness && c->kd.max < add_sat(a, sr->unit_toughness))) {
            return false;
        }
    }
    return true;
}

typedef bool (*capture_pred)(const search *, uint64_t, const cbd_warapp_settings *);

/* The smallest a in [lo, hi] for which pred holds, given that it holds at hi and is monotone. */
static uint64_t first_true(uint64_t lo, uint64_t hi, const search *sr, const cbd_warapp_settings *s,
                           capture_pred pred) {
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (pred(sr, mid, s)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* The capture probability with a armies: against the one count, or the mixture's (W23). */
static cbd_status capture_at(const search *sr, uint64_t a, const cbd_warapp_settings *s,
                             cbd_budget *budget, double *p) {
    cbd_kills ka;
    cbd_status st = attack_kills(sr, a, s, CBD_WORK_SCAN_TERM, budget, &ka);
    if (st != CBD_OK) {
        return st;
    }
    uint64_t t_att = add_sat(a, sr->unit_toughness);
    if (sr->n == 1) {
        *p =
            cbd_kills_at_least(&ka, sr->defs[0].def.toughness) * kd_tail(&sr->defs[0], t_att, true);
    } else {
        *p = 0.0;
        for (size_t k = 0; k < sr->n; k++) {
            const count_defense *c = &sr->defs[k];
            *p += c->weight * cbd_kills_at_least(&ka, c->def.toughness) * kd_tail(c, t_att, true);
        }
    }
    cbd_kills_free(&ka);
    return CBD_OK;
}

/* The fewest armies in [lo, cap] for target q, or CBD_WARAPP_UNREACHABLE. */
static cbd_status needed_one(const search *sr, const cbd_warapp_settings *s, double q, uint64_t lo,
                             uint64_t cap, cbd_budget *budget, uint64_t *out) {
    *out = CBD_WARAPP_UNREACHABLE;
    if (!capture_possible(sr, cap, s)) {
        return CBD_OK;
    }
    /* Below `first` the capture probability is exactly 0. */
    uint64_t first = first_true(lo, cap, sr, s, capture_possible);
    if (q >= 1.0) {
        if (capture_certain(sr, cap, s)) {
            *out = first_true(first, cap, sr, s, capture_certain);
        }
        return CBD_OK;
    }
    /* Gallop from `first` (the answer is usually a little above it), then bisect. */
    double p;
    cbd_status st;
    uint64_t below = 0, gap = 1, a = first;
    bool have_below = false; /* P(below) < q, else every count under a has P 0 < q */
    for (;;) {
        if ((st = capture_at(sr, a, s, budget, &p)) != CBD_OK) {
            return st;
        }
        if (p >= q) {
            break;
        }
        if (a == cap) {
            return CBD_OK;
        }
        below = a;
        have_below = true;
        a = cap - a > gap ? a + gap : cap;
        gap *= 2;
    }
    while (have_below && a - below > 1) {
        uint64_t mid = below + (a - below) / 2;
        if ((st = capture_at(sr, mid, s, budget, &p)) != CBD_OK) {
            return st;
        }
        if (p >= q) {
            a = mid;
        } else {
            below = mid;
        }
    }
    *out = a;
    return CBD_OK;
}

cbd_status cbd_warapp_armies_needed_fog(const cbd_warapp_side *attack,
                                        const cbd_warapp_side *defense,
                                        const cbd_warapp_count *counts, size_t n_counts,
                                        const cbd_warapp_settings *s, const double *targets,
                                        size_t n_targets, uint64_t cap, cbd_budget *budget,
                                        uint64_t *out) {
    if (cap == 0 || cap > CBD_WARAPP_MAX_ARMIES || attack->n_units > CBD_WARAPP_MAX_UNITS ||
        defense->n_units > CBD_WARAPP_MAX_UNITS || n_counts == 0) {
        return CBD_ERR_INVALID;
    }
    for (size_t i = 0; i < n_targets; i++) {
        if (!(targets[i] > 0.0 && targets[i] <= 1.0)) {
            return CBD_ERR_INVALID;
        }
    }
    search sr;
    cbd_status st = search_init(&sr, attack, defense, counts, n_counts, s, budget);
    if (st != CBD_OK) {
        return st;
    }
    /* W20: an attack needs an army or a unit, so 0 armies only beside units. */
    uint64_t lo = attack->n_units > 0 ? 0 : 1;
    for (size_t i = 0; i < n_targets && st == CBD_OK; i++) {
        st = needed_one(&sr, s, targets[i], lo, cap, budget, &out[i]);
    }
    search_free(&sr);
    return st;
}

cbd_status cbd_warapp_armies_needed_sides(const cbd_warapp_side *attack,
                                          const cbd_warapp_side *defense,
                                          const cbd_warapp_settings *s, const double *targets,
                                          size_t n_targets, uint64_t cap, cbd_budget *budget,
                                          uint64_t *out) {
    cbd_warapp_count one = {defense->armies, 1.0};
    return cbd_warapp_armies_needed_fog(attack, defense, &one, 1, s, targets, n_targets, cap,
                                        budget, out);
}

cbd_status cbd_warapp_armies_needed(uint64_t defenders, const cbd_warapp_settings *s,
                                    const double *targets, size_t n_targets, uint64_t cap,
                                    cbd_budget *budget, uint64_t *out) {
    cbd_warapp_side attack = {0, 0, NULL}, defense = {defenders, 0, NULL};
    cbd_status st =
        cbd_warapp_armies_needed_sides(&attack, &defense, s, targets, n_targets, cap, budget, out);
    for (size_t i = 0; st == CBD_OK && i < n_targets; i++) {
        out[i] = out[i] == CBD_WARAPP_UNREACHABLE ? 0 : out[i];
    }
    return st;
}
