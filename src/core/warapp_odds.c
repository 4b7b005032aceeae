/* Exact War.app odds (W1–W6); see include/combatd/warapp_odds.h. */
#include "combatd/warapp_odds.h"

#include <stdlib.h>
#include <string.h>

#include "combatd/binomial.h"

static uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

void cbd_dist_free(cbd_dist *d) {
    cbd_mem_free(d->p);
    d->p = NULL;
    d->len = 0;
}

double cbd_dist_mean(const cbd_dist *d) {
    /* Offsets from lo keep the products small, so that huge army counts lose nothing. */
    double sum = 0.0;
    for (size_t i = 0; i < d->len; i++) {
        sum += (double)i * d->p[i];
    }
    return (double)d->lo + sum;
}

uint64_t cbd_dist_quantile(const cbd_dist *d, double q) {
    double cum = 0.0;
    for (size_t i = 0; i < d->len; i++) {
        cum += d->p[i];
        if (cum >= q - 1e-12) {
            return d->lo + i;
        }
    }
    return d->lo + d->len - 1;
}

/* A zeroed window over [lo, hi], from the budget. */
static cbd_status dist_alloc(cbd_dist *d, uint64_t lo, uint64_t hi, cbd_budget *budget) {
    d->lo = lo;
    d->len = (size_t)(hi - lo + 1);
    d->p = cbd_mem_calloc(budget, d->len, sizeof *d->p);
    return d->p ? CBD_OK : cbd_budget_nomem(budget);
}

/* Drops values of probability exactly 0 at both ends (keeping at least one). */
static void dist_trim(cbd_dist *d) {
    size_t first = 0, last = d->len - 1;
    while (first < last && d->p[first] == 0.0) {
        first++;
    }
    while (last > first && d->p[last] == 0.0) {
        last--;
    }
    if (first > 0) {
        memmove(d->p, d->p + first, (last - first + 1) * sizeof *d->p);
    }
    d->lo += first;
    d->len = last - first + 1;
}

/* W2: the smallest and largest kills a blended value can round to. */
static uint64_t round_low(cbd_kill_value v, cbd_rounding r) {
    return r == CBD_ROUND_STRAIGHT ? cbd_round_straight(v) : v.whole;
}

static uint64_t round_high(cbd_kill_value v, cbd_rounding r) {
    return r == CBD_ROUND_STRAIGHT ? cbd_round_straight(v) : v.whole + (v.frac > 0 ? 1 : 0);
}

/* Adds mass w at blended value v to the kill window (W2). */
static void deposit(cbd_dist *d, cbd_kill_value v, cbd_rounding r, double w) {
    if (r == CBD_ROUND_STRAIGHT) {
        d->p[cbd_round_straight(v) - d->lo] += w;
        return;
    }
    /* Weighted random: floor(v) + 1 with probability frac / 10^12, exactly as given. */
    if (v.frac == 0) {
        d->p[v.whole - d->lo] += w;
        return;
    }
    double up = (double)v.frac / (double)CBD_KILL_FRAC_ONE;
    double down = (double)(CBD_KILL_FRAC_ONE - v.frac) / (double)CBD_KILL_FRAC_ONE;
    d->p[v.whole - d->lo] += w * down;
    d->p[v.whole + 1 - d->lo] += w * up;
}

cbd_status cbd_warapp_kills(uint64_t n, cbd_micro rate, cbd_micro luck, cbd_rounding rounding,
                            cbd_budget *budget, cbd_kills *out) {
    memset(out, 0, sizeof *out);
    if (rate > CBD_MICRO_ONE || luck > CBD_MICRO_ONE || n > CBD_WARAPP_MAX_ARMIES) {
        return CBD_ERR_INVALID;
    }
    /* The roll X is certain when the rate is 0 or 1; otherwise every X in [0, n] can happen. */
    uint64_t xmin = rate == CBD_MICRO_ONE ? n : 0;
    uint64_t xmax = rate == 0 ? 0 : n;
    cbd_kill_value vmin = cbd_warapp_blend(n, rate, luck, xmin);
    cbd_kill_value vmax = cbd_warapp_blend(n, rate, luck, xmax);
    out->min = round_low(vmin, rounding);
    out->max = round_high(vmax, rounding);

    cbd_status st;
    if (luck == 0 || xmin == xmax) {
        /* W1 at L = 0 (or a certain roll): one blended value, whatever the roll. */
        if ((st = dist_alloc(&out->dist, out->min, out->max, budget)) != CBD_OK) {
            return st;
        }
        deposit(&out->dist, vmin, rounding, 1.0);
        dist_trim(&out->dist);
        out->terms = 1;
        return CBD_OK;
    }

    cbd_binom_window w;
    if ((st = cbd_binom_window_compute(n, rate, budget, &w)) != CBD_OK) {
        return st;
    }
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_KILL_TERM, w.len))) {
        cbd_binom_window_free(&w);
        return CBD_ERR_BUDGET;
    }
    cbd_kill_value v = cbd_warapp_blend(n, rate, luck, w.lo);
    cbd_kill_value vtop = cbd_warapp_blend(n, rate, luck, w.lo + w.len - 1);
    st = dist_alloc(&out->dist, round_low(v, rounding), round_high(vtop, rounding), budget);
    if (st != CBD_OK) {
        cbd_binom_window_free(&w);
        return st;
    }
    /* v(X + 1) = v(X) + L exactly: in units of 10^-12 the step is L·10^6 <= 10^12. */
    uint64_t step = (uint64_t)luck * CBD_MICRO_ONE;
    for (size_t i = 0; i < w.len; i++) {
        deposit(&out->dist, v, rounding, w.pmf[i]);
        v.frac += step;
        if (v.frac >= CBD_KILL_FRAC_ONE) {
            v.frac -= CBD_KILL_FRAC_ONE;
            v.whole++;
        }
    }
    out->terms = w.len;
    cbd_binom_window_free(&w);
    dist_trim(&out->dist);
    return CBD_OK;
}

void cbd_kills_free(cbd_kills *k) {
    cbd_dist_free(&k->dist);
}

/*
 * P(kills >= t) or, with `below`, P(kills < t). Both tails are summed and the smaller one is
 * used (the other is 1 minus it): a probability near 1 is then as accurate as its complement
 * and never exceeds 1, and it moves monotonically with t. Exactly 0 or 1 where the support
 * decides it.
 */
static double kills_tail(const cbd_kills *k, uint64_t t, bool below) {
    if (t <= k->min) {
        return below ? 0.0 : 1.0;
    }
    if (t > k->max) {
        return below ? 1.0 : 0.0;
    }
    const cbd_dist *d = &k->dist;
    size_t split = t > d->lo ? (size_t)min_u64(t - d->lo, d->len) : 0;
    double lower = 0.0, upper = 0.0;
    for (size_t i = 0; i < split; i++) {
        lower += d->p[i];
    }
    for (size_t i = split; i < d->len; i++) {
        upper += d->p[i];
    }
    double want = below ? lower : upper, other = below ? upper : lower;
    return want <= other ? want : 1.0 - other;
}

double cbd_kills_at_least(const cbd_kills *k, uint64_t t) {
    return kills_tail(k, t, false);
}

/* P(kills < t). */
static double kills_below(const cbd_kills *k, uint64_t t) {
    return kills_tail(k, t, true);
}

void cbd_warapp_analysis_free(cbd_warapp_analysis *a) {
    cbd_dist_free(&a->attackers_left);
    cbd_dist_free(&a->defenders_left);
}

/*
 * Whether exactly one outcome is possible, decided on the exact supports. The attackers left
 * are A − min(Kd, A) (W4, W6); the defenders left are D − min(Ka, D), except that 0 becomes 1
 * when no attacker is left either (W5). So with no attacker left, attacker kills of D − 1 and
 * of D give the same outcome (1 defender left), and that pair still counts as one outcome.
 */
static bool is_deterministic(uint64_t a, uint64_t d, const cbd_kills *ka, const cbd_kills *kd) {
    if (min_u64(kd->min, a) != min_u64(kd->max, a)) {
        return false;
    }
    uint64_t lo = min_u64(ka->min, d), hi = min_u64(ka->max, d);
    if (lo == hi) {
        return true;
    }
    bool no_attacker_left = min_u64(kd->min, a) == a;
    return no_attacker_left && d >= 1 && lo == d - 1 && hi == d;
}

static cbd_status kills_pair(uint64_t a, uint64_t d, const cbd_warapp_settings *s,
                             cbd_budget *budget, cbd_kills *ka, cbd_kills *kd) {
    cbd_status st =
        cbd_warapp_kills(a, s->offense_kill_rate, s->luck_modifier, s->rounding, budget, ka);
    if (st != CBD_OK) {
        return st;
    }
    st = cbd_warapp_kills(d, s->defense_kill_rate, s->luck_modifier, s->rounding, budget, kd);
    if (st != CBD_OK) {
        cbd_kills_free(ka);
    }
    return st;
}

cbd_status cbd_warapp_analyze(uint64_t attackers, uint64_t defenders, const cbd_warapp_settings *s,
                              cbd_budget *budget, cbd_warapp_analysis *out) {
    memset(out, 0, sizeof *out);
    if (attackers == 0) {
        return CBD_ERR_INVALID;
    }
    out->attackers = attackers;
    out->defenders = defenders;
    cbd_kills ka, kd;
    cbd_status st = kills_pair(attackers, defenders, s, budget, &ka, &kd);
    if (st != CBD_OK) {
        return st;
    }
    /* The tails, the two survivor windows and their trims scan each kill window a few times. */
    if (!cbd_charge(budget, cbd_work_times(4 * CBD_WORK_SCAN_TERM, ka.dist.len + kd.dist.len))) {
        st = CBD_ERR_BUDGET;
        goto done;
    }
    /* The sides are independent: each event is a product of one factor per side (W5). */
    double pa = cbd_kills_at_least(&ka, defenders);
    double pd_lt = kills_below(&kd, attackers);
    double pd_ge = cbd_kills_at_least(&kd, attackers);
    out->capture_probability = pa * pd_lt;
    out->mutual_destruction_probability = pa * pd_ge;
    out->deterministic = is_deterministic(attackers, defenders, &ka, &kd);
    if (out->deterministic) {
        out->outcome = cbd_warapp_resolve(attackers, defenders, ka.min, kd.min);
    }

    /* Attackers left: A − min(Kd, A), whatever the attackers' own kills (W4, W6). */
    const cbd_dist *dd = &kd.dist;
    uint64_t top = dd->lo + dd->len - 1;
    st = dist_alloc(&out->attackers_left, attackers - min_u64(top, attackers),
                    attackers - min_u64(dd->lo, attackers), budget);
    if (st != CBD_OK) {
        goto done;
    }
    for (size_t i = 0; i < dd->len; i++) {
        uint64_t left = attackers - min_u64(dd->lo + i, attackers);
        out->attackers_left.p[left - out->attackers_left.lo] += dd->p[i];
    }
    dist_trim(&out->attackers_left);

    /* Defenders left: D − min(Ka, D); where that is 0, the mutual-destruction share of the
     * mass (no attacker left) resurrects one defender (W5). */
    const cbd_dist *ad = &ka.dist;
    top = ad->lo + ad->len - 1;
    uint64_t lo = defenders - min_u64(top, defenders);
    uint64_t hi = defenders - min_u64(ad->lo, defenders);
    if (lo == 0 && defenders >= 1 && hi < 1) {
        hi = 1;
    }
    if ((st = dist_alloc(&out->defenders_left, lo, hi, budget)) != CBD_OK) {
        goto done;
    }
    for (size_t i = 0; i < ad->len; i++) {
        uint64_t left = defenders - min_u64(ad->lo + i, defenders);
        if (left == 0 && defenders >= 1) {
            out->defenders_left.p[0 - lo] += ad->p[i] * pd_lt;
            out->defenders_left.p[1 - lo] += ad->p[i] * pd_ge;
        } else {
            out->defenders_left.p[left - lo] += ad->p[i];
        }
    }
    dist_trim(&out->defenders_left);

done:
    cbd_kills_free(&ka);
    cbd_kills_free(&kd);
    if (st != CBD_OK) {
        cbd_warapp_analysis_free(out);
    }
    return st;
}

/* The defenders' side of every point of a graph or search: their kills and prefix sums. */
typedef struct {
    cbd_kills kd;
    double *cum_p;  /* cum_p[i] = P(Kd < lo + i), i in [0, len] */
    double *cum_kp; /* cum_kp[i] = E[(Kd − lo)·1{Kd < lo + i}] */
    double *suf_p;  /* suf_p[i] = P(Kd >= lo + i), summed from the top */
} defense;

static cbd_status defense_init(uint64_t d, const cbd_warapp_settings *s, cbd_budget *budget,
                               defense *df) {
    memset(df, 0, sizeof *df);
    cbd_status st =
        cbd_warapp_kills(d, s->defense_kill_rate, s->luck_modifier, s->rounding, budget, &df->kd);
    if (st != CBD_OK) {
        return st;
    }
    const cbd_dist *dd = &df->kd.dist;
    if (!cbd_charge(budget, cbd_work_times(3 * CBD_WORK_SCAN_TERM, dd->len + 1))) {
        cbd_kills_free(&df->kd);
        return CBD_ERR_BUDGET;
    }
    df->cum_p = cbd_mem_alloc(budget, (dd->len + 1) * sizeof *df->cum_p);
    df->cum_kp = cbd_mem_alloc(budget, (dd->len + 1) * sizeof *df->cum_kp);
    df->suf_p = cbd_mem_alloc(budget, (dd->len + 1) * sizeof *df->suf_p);
    if (!df->cum_p || !df->cum_kp || !df->suf_p) {
        cbd_mem_free(df->cum_p);
        cbd_mem_free(df->cum_kp);
        cbd_mem_free(df->suf_p);
        cbd_kills_free(&df->kd);
        return cbd_budget_nomem(budget);
    }
    df->cum_p[0] = df->cum_kp[0] = 0.0;
    for (size_t i = 0; i < dd->len; i++) {
        df->cum_p[i + 1] = df->cum_p[i] + dd->p[i];
        df->cum_kp[i + 1] = df->cum_kp[i] + (double)i * dd->p[i];
    }
    df->suf_p[dd->len] = 0.0;
    for (size_t i = dd->len; i-- > 0;) {
        df->suf_p[i] = df->suf_p[i + 1] + dd->p[i];
    }
    return CBD_OK;
}

static void defense_free(defense *df) {
    cbd_mem_free(df->cum_p);
    cbd_mem_free(df->cum_kp);
    cbd_mem_free(df->suf_p);
    cbd_kills_free(&df->kd);
}

/* P(Kd < a) or, with below = false, P(Kd >= a), as kills_tail does it but from the sums. */
static double defense_tail(const defense *df, uint64_t a, bool below) {
    if (a <= df->kd.min) {
        return below ? 0.0 : 1.0;
    }
    if (a > df->kd.max) {
        return below ? 1.0 : 0.0;
    }
    const cbd_dist *dd = &df->kd.dist;
    size_t i = a > dd->lo ? (size_t)min_u64(a - dd->lo, dd->len) : 0;
    double want = below ? df->cum_p[i] : df->suf_p[i];
    double other = below ? df->suf_p[i] : df->cum_p[i];
    return want <= other ? want : 1.0 - other;
}

static double defense_below(const defense *df, uint64_t a) {
    return defense_tail(df, a, true);
}

/* One point: the attackers' kills for a, combined with the defense. */
static cbd_status graph_point(uint64_t d, uint64_t a, const cbd_warapp_settings *s,
                              const defense *df, cbd_budget *budget, cbd_warapp_graph_point *pt) {
    cbd_kills ka;
    cbd_status st =
        cbd_warapp_kills(a, s->offense_kill_rate, s->luck_modifier, s->rounding, budget, &ka);
    if (st != CBD_OK) {
        return st;
    }
    if (!cbd_charge(budget, cbd_work_times(3 * CBD_WORK_SCAN_TERM, ka.dist.len))) {
        cbd_kills_free(&ka);
        return CBD_ERR_BUDGET;
    }
    double pa = cbd_kills_at_least(&ka, d);
    double below = defense_below(df, a);
    double above = defense_tail(df, a, false);
    pt->attackers = a;
    pt->capture_probability = pa * below;

    /* E[min(Kd, a)] = E[Kd·1{Kd < a}] + a·P(Kd >= a). */
    const cbd_dist *dd = &df->kd.dist;
    size_t i = a > dd->lo ? (size_t)min_u64(a - dd->lo, dd->len) : 0;
    pt->expected_attackers_lost = (double)dd->lo * df->cum_p[i] + df->cum_kp[i] + (double)a * above;

    /* E[defenders lost] = E[min(Ka, D)] − P(mutual destruction): that army is resurrected. */
    double e = 0.0;
    for (size_t j = 0; j < ka.dist.len; j++) {
        e += (double)min_u64(ka.dist.lo + j, d) * ka.dist.p[j];
    }
    pt->expected_defenders_lost = e - pa * above;
    cbd_kills_free(&ka);
    return CBD_OK;
}

cbd_status cbd_warapp_graph(uint64_t defenders, uint64_t from, uint64_t to,
                            const cbd_warapp_settings *s, cbd_budget *budget,
                            cbd_warapp_graph_point *out) {
    if (from == 0 || from > to) {
        return CBD_ERR_INVALID;
    }
    defense df;
    cbd_status st = defense_init(defenders, s, budget, &df);
    if (st != CBD_OK) {
        return st;
    }
    for (uint64_t a = from; a <= to && st == CBD_OK; a++) {
        st = graph_point(defenders, a, s, &df, budget, &out[a - from]);
    }
    defense_free(&df);
    return st;
}

/* The attackers' kill support for a attackers, without computing any distribution. */
static uint64_t attack_min(uint64_t a, const cbd_warapp_settings *s) {
    uint64_t x = s->offense_kill_rate == CBD_MICRO_ONE ? a : 0;
    return round_low(cbd_warapp_blend(a, s->offense_kill_rate, s->luck_modifier, x), s->rounding);
}

static uint64_t attack_max(uint64_t a, const cbd_warapp_settings *s) {
    uint64_t x = s->offense_kill_rate == 0 ? 0 : a;
    return round_high(cbd_warapp_blend(a, s->offense_kill_rate, s->luck_modifier, x), s->rounding);
}

/* Capture is possible (probability > 0 in exact arithmetic) / certain, from the supports. */
static bool capture_possible(uint64_t a, uint64_t d, const cbd_warapp_settings *s,
                             const defense *df) {
    return attack_max(a, s) >= d && df->kd.min < a;
}

static bool capture_certain(uint64_t a, uint64_t d, const cbd_warapp_settings *s,
                            const defense *df) {
    return attack_min(a, s) >= d && df->kd.max < a;
}

/* The smallest a in [lo, hi] for which pred holds, given that it holds at hi and is monotone. */
static uint64_t
first_true(uint64_t lo, uint64_t hi, uint64_t d, const cbd_warapp_settings *s, const defense *df,
           bool (*pred)(uint64_t, uint64_t, const cbd_warapp_settings *, const defense *)) {
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (pred(mid, d, s, df)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

static cbd_status capture_at(uint64_t a, uint64_t d, const cbd_warapp_settings *s,
                             const defense *df, cbd_budget *budget, double *p) {
    cbd_kills ka;
    cbd_status st =
        cbd_warapp_kills(a, s->offense_kill_rate, s->luck_modifier, s->rounding, budget, &ka);
    if (st != CBD_OK) {
        return st;
    }
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, ka.dist.len))) {
        cbd_kills_free(&ka);
        return CBD_ERR_BUDGET;
    }
    *p = cbd_kills_at_least(&ka, d) * defense_below(df, a);
    cbd_kills_free(&ka);
    return CBD_OK;
}

static cbd_status needed_one(uint64_t d, const cbd_warapp_settings *s, const defense *df, double q,
                             uint64_t cap, cbd_budget *budget, uint64_t *out) {
    *out = 0;
    if (!capture_possible(cap, d, s, df)) {
        return CBD_OK;
    }
    /* Below `first` the capture probability is exactly 0. */
    uint64_t first = first_true(1, cap, d, s, df, capture_possible);
    if (q >= 1.0) {
        if (capture_certain(cap, d, s, df)) {
            *out = first_true(first, cap, d, s, df, capture_certain);
        }
        return CBD_OK;
    }
    /* Gallop from `first` (the answer is usually a little above it), then bisect. */
    double p;
    cbd_status st;
    uint64_t below = first - 1, gap = 1, a = first;
    for (;;) {
        if ((st = capture_at(a, d, s, df, budget, &p)) != CBD_OK) {
            return st;
        }
        if (p >= q) {
            break;
        }
        if (a == cap) {
            return CBD_OK;
        }
        below = a;
        a = cap - a > gap ? a + gap : cap;
        gap *= 2;
    }
    /* Now P(below) < q (or below = first − 1, where it is 0) and P(a) >= q. */
    while (a - below > 1) {
        uint64_t mid = below + (a - below) / 2;
        if ((st = capture_at(mid, d, s, df, budget, &p)) != CBD_OK) {
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

cbd_status cbd_warapp_armies_needed(uint64_t defenders, const cbd_warapp_settings *s,
                                    const double *targets, size_t n_targets, uint64_t cap,
                                    cbd_budget *budget, uint64_t *out) {
    if (cap == 0 || cap > CBD_WARAPP_MAX_ARMIES) {
        return CBD_ERR_INVALID;
    }
    for (size_t i = 0; i < n_targets; i++) {
        if (!(targets[i] > 0.0 && targets[i] <= 1.0)) {
            return CBD_ERR_INVALID;
        }
    }
    defense df;
    cbd_status st = defense_init(defenders, s, budget, &df);
    if (st != CBD_OK) {
        return st;
    }
    for (size_t i = 0; i < n_targets && st == CBD_OK; i++) {
        st = needed_one(defenders, s, &df, targets[i], cap, budget, &out[i]);
    }
    defense_free(&df);
    return st;
}
