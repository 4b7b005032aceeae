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

/* Bytes zeroed between two charges of their new pages: about 2^20 units of pages. */
#define ZERO_PIECE ((size_t)(CBD_BUDGET_PROGRESS_UNITS / CBD_WORK_FRESH_PAGE) * CBD_SCRATCH_PAGE)

/*
 * The window is zeroed a piece at a time, its new pages charged as each piece first touches
 * them rather than all when the block is taken (cbd_budget_defer_pages): a count's window of a
 * fog of 500 at full luck, 752 pages, was 7.2 · 2^20 units and 10 ms of faults between two
 * progress checks. The same pages in all: zeroing touches every one.
 */
cbd_status cbd_dist_alloc(cbd_dist *d, uint64_t lo, uint64_t hi, cbd_budget *budget) {
    d->lo = lo;
    d->len = (size_t)(hi - lo + 1);
    d->p = NULL;
    if (d->len > SIZE_MAX / sizeof *d->p) {
        return CBD_ERR_NOMEM;
    }
    size_t bytes = d->len * sizeof *d->p, pieces = bytes / ZERO_PIECE + 1;
    uint64_t pages = 0;
    cbd_budget_defer_pages(budget, &pages);
    double *p = cbd_mem_alloc(budget, bytes);
    cbd_budget_defer_pages(budget, NULL);
    if (!p) {
        return cbd_budget_nomem(budget);
    }
    cbd_charge_share paid;
    cbd_charge_share_pages_init(&paid, budget, pages, pieces);
    for (size_t at = 0; at < bytes; at += ZERO_PIECE) {
        if (!cbd_charge_share_step(&paid)) {
            cbd_mem_free(p);
            return CBD_ERR_BUDGET;
        }
        memset((char *)p + at, 0, bytes - at < ZERO_PIECE ? bytes - at : ZERO_PIECE);
    }
    if (!cbd_charge_share_end(&paid)) {
        cbd_mem_free(p);
        return CBD_ERR_BUDGET;
    }
    d->p = p;
    return CBD_OK;
}

void cbd_dist_trim(cbd_dist *d) {
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

void cbd_warapp_kills_support(uint64_t n, cbd_micro rate, cbd_micro luck, cbd_rounding rounding,
                              uint64_t *min, uint64_t *max) {
    /* The roll X is certain when the rate is 0 or 1; otherwise every X in [0, n] can happen. */
    uint64_t xmin = rate == CBD_MICRO_ONE ? n : 0;
    uint64_t xmax = rate == 0 ? 0 : n;
    *min = round_low(cbd_warapp_blend(n, rate, luck, xmin), rounding);
    *max = round_high(cbd_warapp_blend(n, rate, luck, xmax), rounding);
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
        if ((st = cbd_dist_alloc(&out->dist, out->min, out->max, budget)) != CBD_OK) {
            return st;
        }
        deposit(&out->dist, vmin, rounding, 1.0);
        cbd_dist_trim(&out->dist);
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
    st = cbd_dist_alloc(&out->dist, round_low(v, rounding), round_high(vtop, rounding), budget);
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
    cbd_dist_trim(&out->dist);
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

double cbd_kills_below(const cbd_kills *k, uint64_t t) {
    return kills_tail(k, t, true);
}
