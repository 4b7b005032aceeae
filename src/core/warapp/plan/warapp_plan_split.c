/*
 * The income split across fronts (W34, W47). Each front with goals and own territories is
 * searched on its own, its value combined with the others' (a sum for `expected` and `income`,
 * a product for `all`). Two splits of the income are searched:
 *
 * - seeded (W47): each front once, at the deploy total the plain splits' best plan gives it,
 *   its run seeded with the greedy and even split of that total (so each front's plan is at
 *   least the split's there, and the plan together at least the split's on every board, whatever
 *   the number of fronts);
 * - the grid: each front at the deploy totals j·q (j = 0..G, q = income / G,
 *   G = min(income, CBD_PLAN_GRID)), the income split by an exact knapsack over those values;
 *   with an income of at most CBD_PLAN_GRID every total is run and the split is exact (proven
 *   when every run is), above it the curve is sampled and the remainder goes with the front
 *   that has the most (nothing is then proven).
 *
 * The answer is the better of the two. Each phase runs only when max_plans leaves a plan for
 * each of its runs (the grid's runs are fronts × (G + 1)), so that max_plans bounds the runs.
 */
#include "warapp_plan_fronts.h"

#include <string.h>

/* Deploy totals sampled per front (income above it: every income / G). */
#define CBD_PLAN_GRID 16

/* The fronts that take part: those with goals and own territories (gf), the fixed fronts'
 * value combined, and the sink (the least own territory of a front without goals). */
typedef struct {
    double fixed;
    size_t m;
    size_t *gf;
    bool sink;
    uint32_t sink_on;
} parts;

static cbd_status parts_of(fronts *s, parts *p) {
    memset(p, 0, sizeof *p);
    p->fixed = s->req->objective == CBD_PLAN_ALL ? 1.0 : 0.0;
    p->sink_on = UINT32_MAX;
    for (size_t i = 0; i < s->nf; i++) {
        front *f = &s->f[i];
        if (f->goals && !f->own) {
            double v = 0;
            cbd_status st = cbdp_fixed_value(s, f, &v);
            if (st != CBD_OK) {
                return st;
            }
            s->evaluated++; /* its value under every plan, analysed once */
            p->fixed = cbdp_combine(s->req, p->fixed, v);
        } else if (f->own && !f->goals) {
            p->sink_on = f->first_own < p->sink_on ? f->first_own : p->sink_on;
            p->sink = true;
        }
        p->m += f->own && f->goals;
    }
    p->gf = cbd_mem_calloc(s->budget, p->m + 1, sizeof *p->gf);
    if (!p->gf) {
        return cbd_budget_nomem(s->budget);
    }
    for (size_t i = 0, j = 0; i < s->nf; i++) {
        if (s->f[i].own && s->f[i].goals) {
            p->gf[j++] = i;
        }
    }
    return CBD_OK;
}

/* Inserts the plan of value v (one front's alternative in place of its best) among out's
 * alternatives when it is among the best CBD_PLAN_ALTERNATIVES. */
static cbd_status add_alternative(fronts *s, const parts *p, plan_run *const *chosen, size_t i,
                                  size_t a, uint64_t extra, uint32_t extra_on, uint64_t *deploy,
                                  cbd_plan_result *out) {
    double v = p->fixed;
    for (size_t k = 0; k < p->m; k++) {
        v = cbdp_combine(s->req, v,
                         k == i ? chosen[i]->res.alternatives[a].value : chosen[k]->res.best.value);
    }
    size_t at = out->n_alternatives;
    while (at > 0 && v > out->alternatives[at - 1].value + CBD_PLAN_TIE) {
        at--;
    }
    if (at >= CBD_PLAN_ALTERNATIVES) {
        return CBD_OK;
    }
    if (out->n_alternatives == CBD_PLAN_ALTERNATIVES) {
        cbd_mem_free(out->alternatives[CBD_PLAN_ALTERNATIVES - 1].orders);
        out->n_alternatives--;
    }
    memmove(&out->alternatives[at + 1], &out->alternatives[at],
            (out->n_alternatives - at) * sizeof *out->alternatives);
    out->n_alternatives++;
    cbd_status st =
        cbdp_compose(s, chosen, p->m, i, a, extra, extra_on, deploy, &out->alternatives[at]);
    out->alternatives[at].value = v;
    return st;
}

/* The plan of the chosen runs (with `extra` deployed on extra_on), its value, and the next-best
 * plans: one front's alternative in place of its best. */
static cbd_status answer_of(fronts *s, const parts *p, plan_run *const *chosen, uint64_t extra,
                            uint32_t extra_on, cbd_plan_result *out) {
    uint64_t *deploy = cbd_mem_calloc(s->budget, s->board->n_territories + 1, sizeof *deploy);
    if (!deploy) {
        return cbd_budget_nomem(s->budget);
    }
    double value = p->fixed;
    for (size_t i = 0; i < p->m; i++) {
        value = cbdp_combine(s->req, value, chosen[i]->res.best.value);
    }
    cbd_status st = cbdp_compose(s, chosen, p->m, SIZE_MAX, 0, extra, extra_on, deploy, &out->best);
    out->best.value = value;
    for (size_t i = 0; st == CBD_OK && i < p->m; i++) {
        for (size_t a = 0; st == CBD_OK && a < chosen[i]->res.n_alternatives; a++) {
            st = add_alternative(s, p, chosen, i, a, extra, extra_on, deploy, out);
        }
    }
    cbd_mem_free(deploy);
    return st;
}

/* W47: each front run once at the total the splits' plan deploys on it. *done false when a run
 * ended without a plan (its share spent). */
static cbd_status seeded(fronts *s, const parts *p, const uint64_t *totals, cbd_plan_result *out,
                         bool *done) {
    plan_run *runs = cbd_mem_calloc(s->budget, p->m + 1, sizeof *runs);
    plan_run **chosen = cbd_mem_calloc(s->budget, p->m + 1, sizeof *chosen);
    cbd_status st = runs && chosen ? CBD_OK : cbd_budget_nomem(s->budget);
    uint64_t given = 0;
    s->runs_left = p->m;
    *done = st == CBD_OK;
    for (size_t i = 0; st == CBD_OK && *done && i < p->m; i++) {
        chosen[i] = &runs[i];
        given += totals[p->gf[i]];
        st = cbdp_run_front(s, &s->f[p->gf[i]], totals[p->gf[i]], &runs[i]);
        *done = runs[i].ran;
    }
    if (st == CBD_OK && *done) {
        uint32_t on = p->sink ? p->sink_on : s->f[p->gf[0]].first_own;
        st = answer_of(s, p, chosen, s->req->income - given, on, out);
        out->optimal = out->best.value >= cbd_plan_most(s->req);
    }
    for (size_t i = 0; runs && i < p->m; i++) {
        cbd_plan_result_free(&runs[i].res);
    }
    cbd_mem_free(runs);
    cbd_mem_free(chosen);
    return st;
}

typedef struct {
    double value;
    uint64_t size;
    bool ok;
    size_t from; /* the grains used before this front */
} dp_cell;

/* The grid's G: 0 when one front takes the whole income (no sink) or none has goals. */
static uint64_t grid_points(const fronts *s, const parts *p) {
    uint64_t income = s->req->income;
    bool single = p->m == 1 && !p->sink;
    return single || p->m == 0 ? 0 : (income < CBD_PLAN_GRID ? income : CBD_PLAN_GRID);
}

/* Every front at every total: the largest totals first (the likeliest to be chosen get their
 * shares while the most is left). */
static cbd_status run_grid(fronts *s, const parts *p, plan_run *runs, size_t points, uint64_t q,
                           bool single, bool *proven) {
    s->runs_left = p->m * points;
    for (size_t jj = points; jj-- > 0;) {
        for (size_t i = 0; i < p->m; i++) {
            uint64_t d = single ? s->req->income : (uint64_t)jj * q;
            plan_run *r = &runs[i * points + jj];
            cbd_status st = cbdp_run_front(s, &s->f[p->gf[i]], d, r);
            if (st != CBD_OK) {
                return st;
            }
            *proven &= r->ran && r->proven;
        }
    }
    return CBD_OK;
}

/* The knapsack: dp[i][t] the best of the first i fronts using t grains. */
static cbd_status knapsack(fronts *s, const parts *p, const plan_run *runs, size_t points,
                           bool single, dp_cell *dp) {
    for (size_t t = 0; t < points; t++) {
        dp[t] = (dp_cell){p->fixed, 0, t == 0 || single, 0};
    }
    for (size_t i = 0; i < p->m; i++) {
        dp_cell *prev = &dp[i * points], *cur = &dp[(i + 1) * points];
        if (!cbd_charge(s->budget, cbd_work_times(CBD_WORK_COMPARE, points * points))) {
            *s->err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
            return CBD_ERR_BUDGET;
        }
        for (size_t t = 0; t < points; t++) {
            cur[t].ok = false;
            for (size_t j = 0; j <= t && !(single && t != 0); j++) {
                size_t used = single ? 0 : t - j;
                const plan_run *r = &runs[i * points + (single ? 0 : j)];
                if (!prev[used].ok || !r->ran) {
                    continue;
                }
                double v = cbdp_combine(s->req, prev[used].value, r->res.best.value);
                uint64_t size = prev[used].size + cbdp_size_of(&r->res.best);
                if (!cur[t].ok || cbdp_plan_better(v, size, cur[t].value, cur[t].size)) {
                    cur[t] = (dp_cell){v, size, true, used};
                }
            }
        }
    }
    return CBD_OK;
}

/* The best total of grains the fronts may end at (every one when a sink takes the rest);
 * SIZE_MAX when no run fitted its share. */
static size_t pick_end(const parts *p, const dp_cell *dp, size_t points, bool single) {
    size_t end = SIZE_MAX;
    for (size_t t = 0; t < points; t++) {
        const dp_cell *c = &dp[p->m * points + t];
        bool may = single ? t == 0 : (p->sink ? true : t == points - 1);
        if (may && c->ok &&
            (end == SIZE_MAX || cbdp_plan_better(c->value, c->size, dp[p->m * points + end].value,
                                                 dp[p->m * points + end].size))) {
            end = t;
        }
    }
    return end;
}

/* The runs the knapsack chose; the remainder of income / G with the front that has the most,
 * run again there (*ok false when that run found no plan in its share). */
static cbd_status choose(fronts *s, const parts *p, plan_run *runs, const dp_cell *dp,
                         size_t points, uint64_t q, size_t end, plan_run **chosen, plan_run *rerun,
                         uint64_t *extra, bool *proven, bool *ok) {
    bool single = p->m == 1 && !p->sink;
    uint64_t income = s->req->income, given = 0;
    size_t most = 0, most_grains = 0;
    for (size_t i = p->m, t = end; i-- > 0;) {
        size_t used = dp[(i + 1) * points + t].from;
        size_t grains = single ? 0 : t - used;
        chosen[i] = &runs[i * points + grains];
        given += single ? income : (uint64_t)grains * q;
        if (grains >= most_grains) {
            most = i;
            most_grains = grains;
        }
        t = used;
    }
    *extra = p->m == 0 ? income : income - given;
    *ok = true;
    if (*extra > 0 && !p->sink && p->m > 0) {
        s->runs_left = 1;
        s->first_done = false;
        cbd_status st = cbdp_run_front(s, &s->f[p->gf[most]], most_grains * q + *extra, rerun);
        if (st != CBD_OK) {
            return st;
        }
        *ok = rerun->ran;
        chosen[most] = rerun;
        *extra = 0;
        *proven = false;
    }
    return CBD_OK;
}

/* The grid phase; *had false when no run fitted its share. */
static cbd_status search_grid(fronts *s, const parts *p, cbd_plan_result *out, bool *had) {
    size_t m = p->m;
    bool single = m == 1 && !p->sink, proven = true;
    uint64_t g = grid_points(s, p), q = g > 0 ? s->req->income / g : 0;
    size_t points = (size_t)g + 1;
    plan_run *runs = cbd_mem_calloc(s->budget, m * points + 2, sizeof *runs);
    dp_cell *dp = cbd_mem_calloc(s->budget, (m + 1) * points, sizeof *dp);
    plan_run **chosen = cbd_mem_calloc(s->budget, m + 1, sizeof *chosen);
    cbd_status st = runs && dp && chosen ? CBD_OK : cbd_budget_nomem(s->budget);
    plan_run rerun;
    memset(&rerun, 0, sizeof rerun);
    st = st == CBD_OK ? run_grid(s, p, runs, points, q, single, &proven) : st;
    st = st == CBD_OK ? knapsack(s, p, runs, points, single, dp) : st;
    size_t end = st == CBD_OK ? pick_end(p, dp, points, single) : SIZE_MAX;
    uint64_t extra = 0;
    *had = false;
    if (st == CBD_OK && end != SIZE_MAX) {
        st = choose(s, p, runs, dp, points, q, end, chosen, &rerun, &extra, &proven, had);
    }
    if (st == CBD_OK && *had) {
        st = answer_of(s, p, chosen, extra, p->sink_on, out);
        out->optimal = (proven && (single || m == 0 || g == s->req->income)) ||
                       out->best.value >= cbd_plan_most(s->req);
    }
    for (size_t i = 0; runs && i < m * points; i++) {
        cbd_plan_result_free(&runs[i].res);
    }
    cbd_plan_result_free(&rerun.res);
    cbd_mem_free(runs);
    cbd_mem_free(dp);
    cbd_mem_free(chosen);
    return st;
}

static size_t own_fronts(const fronts *s) {
    size_t n = 0;
    for (size_t i = 0; i < s->nf; i++) {
        n += s->f[i].own;
    }
    return n;
}

/* Each front's deploy total in the splits' plan. */
static uint64_t *totals_of(fronts *s, const cbd_plan *seed) {
    uint64_t *totals = cbd_mem_calloc(s->budget, s->nf + 1, sizeof *totals);
    for (size_t i = 0; totals && i < seed->n_orders; i++) {
        if (seed->orders[i].type == CBD_ORDER_DEPLOY) {
            totals[s->front_of[seed->orders[i].to]] += seed->orders[i].armies;
        }
    }
    return totals;
}

void cbdp_plan_result_take(const cbd_plan_request *req, cbd_plan_result *out,
                           cbd_plan_result *splits) {
    out->plans_evaluated += splits->plans_evaluated;
    out->plans_bounded += splits->plans_bounded;
    if (!(splits->best.value > out->best.value + CBD_PLAN_TIE)) {
        return;
    }
    if (out->n_alternatives == CBD_PLAN_ALTERNATIVES) {
        cbd_mem_free(out->alternatives[CBD_PLAN_ALTERNATIVES - 1].orders);
        out->n_alternatives--;
    }
    memmove(&out->alternatives[1], &out->alternatives[0],
            out->n_alternatives * sizeof *out->alternatives);
    out->alternatives[0] = out->best;
    out->n_alternatives++;
    out->best = splits->best;
    splits->best = (cbd_plan){0, NULL, 0};
    out->optimal = out->best.value >= cbd_plan_most(req);
}

/* Both phases, each when max_plans leaves a plan for each of its runs; the better answer. */
static cbd_status phases(fronts *s, const parts *p, const cbd_plan *seed, cbd_plan_result *out,
                         bool *done) {
    size_t points = grid_points(s, p) + 1;
    bool grid = s->plans_left >= cbd_work_times(p->m, points);
    /* (an exact grid runs every total, the seeded ones among them) */
    bool exact = points - 1 == s->req->income;
    bool seeds = seed && p->m > 0 && s->plans_left >= p->m && !(p->m == 1 && !p->sink) && !exact;
    cbd_status st = CBD_OK;
    *done = false;
    if (seeds) {
        /* half the plans and the work when the grid follows */
        uint64_t plans = s->plans_left, work = s->work_left;
        uint64_t before = s->evaluated;
        s->plans_left = grid ? plans / 2 : plans;
        s->work_left = grid && work != UINT64_MAX ? work / 2 : work;
        uint64_t share = s->work_left;
        uint64_t *totals = totals_of(s, seed);
        st = totals ? seeded(s, p, totals, out, done) : cbd_budget_nomem(s->budget);
        cbd_mem_free(totals);
        uint64_t used = s->evaluated - before;
        s->plans_left = plans > used ? plans - used : 0;
        s->work_left = work == UINT64_MAX ? work : work - (share - s->work_left);
        grid = grid && s->plans_left >= cbd_work_times(p->m, points);
    }
    if (!grid && s->stop < CBD_PLAN_STOP_MAX_PLANS) {
        s->stop = CBD_PLAN_STOP_MAX_PLANS; /* the grid's totals are left unsearched */
    }
    if (st == CBD_OK && grid) {
        cbd_plan_result other;
        memset(&other, 0, sizeof other);
        bool had = false;
        st = search_grid(s, p, &other, &had);
        if (st == CBD_OK && had && *done) {
            cbdp_plan_result_take(s->req, &other,
                                  out); /* the grid's, unless the seeded's is better */
            cbd_plan_result_free(out);
            *out = other;
        } else if (st == CBD_OK && had) {
            *out = other;
            *done = true;
        } else {
            cbd_plan_result_free(&other);
        }
    }
    return st;
}

cbd_status cbdp_plan_fronts(const cbd_turn *board, const cbd_plan_request *req,
                            const cbd_turn_limits *limits, cbd_budget *budget, bool search,
                            const cbd_plan *seed, cbd_plan_result *out, cbd_turn_error *err,
                            bool *share_spent) {
    memset(out, 0, sizeof *out);
    fronts s;
    memset(&s, 0, sizeof s);
    s.board = board;
    s.req = req;
    s.limits = limits;
    s.budget = budget;
    s.err = err;
    s.plans_left = req->max_plans;
    s.work_left = req->max_work;
    cbd_status st = cbdp_fronts_of(&s) ? CBD_OK : cbd_budget_nomem(budget);
    parts p;
    memset(&p, 0, sizeof p);
    bool done = false;
    if (st == CBD_OK && search && s.nf == 1) {
        /* one front: the board as it is (no copy of its orders needed) */
        plan_run run;
        st = cbdp_plan_run(board, req, NULL, NULL, true, RUN_SEARCH, limits, budget, &run, err);
        done = st == CBD_OK && run.ran;
        if (done) {
            *out = run.res;
            out->optimal = run.proven;
            s.evaluated = run.res.plans_evaluated;
            s.stop = run.stop;
            s.bounded = run.res.plans_bounded;
        }
    } else if (st == CBD_OK && search) {
        st = parts_of(&s, &p);
        st = st == CBD_OK ? phases(&s, &p, seed, out, &done) : st;
    }
    if (st == CBD_ERR_BUDGET && !cbd_budget_spent(budget)) {
        st = CBD_OK; /* the search's share ran out: the caller answers the splits' plan */
    }
    if (st == CBD_ERR_BUDGET && err->kind != CBD_TURN_ERR_BUDGET) {
        *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
    }
    *share_spent = search && !done;
    if (st != CBD_OK || !done) {
        cbd_plan_result_free(out);
    }
    out->plans_evaluated = s.evaluated;
    out->plans_bounded = s.bounded;
    out->fronts = s.f ? own_fronts(&s) : 0;
    out->stopped_by = s.stop;
    cbd_mem_free(p.gf);
    cbdp_fronts_free(&s);
    return st;
}
