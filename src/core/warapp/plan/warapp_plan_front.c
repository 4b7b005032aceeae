/*
 * The plan search by fronts (W31, W34): the player's orders fall into fronts that cannot
 * interact, each searched on its own at each deploy total it may get, and the income split
 * across the fronts by an exact search over their value curves (a knapsack over curves, not
 * one army at a time); the plan is the fronts' plans together, its value their values combined
 * (a sum for `expected`, a product for `all`).
 *
 * A front is a set of territories closed under the board's possible interactions: an own
 * territory with every territory it borders (a plan's order may join them), and the two
 * territories of every other player's order. Two orders of different fronts touch disjoint
 * territories, so under `listed` (the plan's orders first, W31) and whenever no other player
 * moves, they commute, and the battles of different fronts are independent: the board at the
 * end is the product of the fronts' boards (W34's proof in docs/rules.md). Where that fails
 * (a Commander's death reaches the whole board, W22; card orders; the other players' orders
 * interleaved with the plan's under `cycle` and `random`, W13) the board is one front.
 *
 * Fronts whose territories the player owns none of (fixed) are valued once with the other
 * players' orders; fronts without goals (sinks) take deploys that change no value. Each front
 * with goals and own territories is run at the deploy totals j·q (j = 0..G, q = income / G,
 * G = min(income, CBD_PLAN_GRID)): with an income of at most CBD_PLAN_GRID every total is run,
 * and the combination is exact; above it the curve is sampled and the remainder goes with the
 * front that has the most (nothing is then proven).
 */
#include "warapp_plan_internal.h"

#include <string.h>

/* Deploy totals sampled per front (income above it: every income / G). */
#define CBD_PLAN_GRID 16

/* The request against the board: goals on it, the player's territories known (W23), none of
 * the board's orders the player's. */
static bool check_request(const cbd_turn *b, const cbd_plan_request *req, cbd_turn_error *err) {
    *err = (cbd_turn_error){CBD_TURN_ERR_NONE, 0, 0, 0};
    if (req->player >= b->n_players || req->n_goals == 0 || req->max_plans == 0 ||
        !b->neighbor_off) {
        err->kind = CBD_TURN_ERR_SIZE;
        return false;
    }
    for (size_t g = 0; g < req->n_goals; g++) {
        for (size_t h = 0; h < g; h++) {
            if (req->goals[g] >= b->n_territories || req->goals[h] == req->goals[g]) {
                *err = (cbd_turn_error){CBD_TURN_ERR_GOAL, g, 0, 0};
                return false;
            }
        }
        if (req->goals[g] >= b->n_territories) {
            *err = (cbd_turn_error){CBD_TURN_ERR_GOAL, g, 0, 0};
            return false;
        }
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        if (b->orders[i].player == req->player) {
            *err = (cbd_turn_error){CBD_TURN_ERR_ORDER, i, 0, 0};
            return false;
        }
    }
    for (size_t t = 0; b->fog && t < b->n_territories; t++) {
        if (b->territories[t].owner == req->player && b->fog[t].n > 0) {
            *err = (cbd_turn_error){CBD_TURN_ERR_TERRITORY, t, 0, 0};
            return false;
        }
    }
    return true;
}

/* W34: whether the board may be split into fronts. */
static bool split_allowed(const cbd_turn *b) {
    for (size_t u = 0; u < b->n_units; u++) {
        if (b->units[u].commander) {
            return false; /* W22: a death eliminates a player everywhere */
        }
    }
    bool moves = false;
    for (size_t i = 0; i < b->n_orders; i++) {
        cbd_turn_order_type t = b->orders[i].type;
        if (t != CBD_ORDER_DEPLOY && t != CBD_ORDER_ATTACK_TRANSFER) {
            return false; /* cards: bombs read the borders, priority and delay the order */
        }
        moves |= t == CBD_ORDER_ATTACK_TRANSFER;
    }
    return b->move_order == CBD_MOVE_LISTED || !moves;
}

static uint32_t find(uint32_t *root, uint32_t i) {
    while (root[i] != i) {
        root[i] = root[root[i]];
        i = root[i];
    }
    return i;
}

static void unite(uint32_t *root, uint32_t a, uint32_t b) {
    a = find(root, a);
    b = find(root, b);
    if (a != b) {
        root[a > b ? a : b] = a < b ? a : b;
    }
}

typedef struct {
    bool own, goals;
    size_t n_goals;
    uint32_t *goal; /* the front's goals, in the request's order */
    size_t n_bonuses;
    cbd_turn_bonus *bonus; /* `income`: the front's bonuses (W35: each on one front) */
    size_t n_orders;       /* the other players' orders on it */
    cbd_turn_order *orders;
    size_t *order_map;  /* -> the board's */
    bool *mask;         /* per territory: the player's own territories of the front */
    uint32_t first_own; /* its least own territory */
    cbd_turn board;     /* the board with the front's orders only */
} front;

typedef struct {
    const cbd_turn *board;
    const cbd_plan_request *req;
    const cbd_turn_limits *limits;
    cbd_budget *budget;
    cbd_turn_error *err;
    size_t nf;
    front *f;
    uint32_t *front_of; /* per territory */
    uint64_t plans_left, work_left, runs_left;
    bool first_done; /* a run has ended with a plan: later firsts keep to their shares */
    uint64_t evaluated, bounded;
} fronts;

static void fronts_free(fronts *s) {
    for (size_t i = 0; s->f && i < s->nf; i++) {
        cbd_mem_free(s->f[i].goal);
        cbd_mem_free(s->f[i].bonus);
        cbd_mem_free(s->f[i].orders);
        cbd_mem_free(s->f[i].order_map);
        cbd_mem_free(s->f[i].mask);
    }
    cbd_mem_free(s->f);
    cbd_mem_free(s->front_of);
}

/* The fronts of the board (one when W34 does not let it split). False: out of memory. */
static bool fronts_of(fronts *s) {
    const cbd_turn *b = s->board;
    size_t n = b->n_territories;
    cbd_budget *bud = s->budget;
    uint32_t *root = cbd_mem_calloc(bud, n + 1, sizeof *root);
    s->front_of = cbd_mem_calloc(bud, n + 1, sizeof *s->front_of);
    if (!root || !s->front_of) {
        cbd_mem_free(root);
        return false;
    }
    (void)cbd_charge(bud, cbd_work_times(CBD_WORK_BOARD_STEP, n + b->n_orders + 1));
    bool split = split_allowed(b);
    for (uint32_t t = 0; t < n; t++) {
        root[t] = split ? t : 0;
    }
    for (uint32_t t = 0; split && t < n; t++) {
        if (b->territories[t].owner != s->req->player) {
            continue;
        }
        (void)cbd_charge(bud, b->neighbor_off[t + 1] - b->neighbor_off[t]);
        for (uint32_t e = b->neighbor_off[t]; e < b->neighbor_off[t + 1]; e++) {
            unite(root, t, b->neighbors[e]);
        }
    }
    for (size_t i = 0; split && i < b->n_orders; i++) {
        if (b->orders[i].type == CBD_ORDER_ATTACK_TRANSFER) {
            unite(root, b->orders[i].from, b->orders[i].to);
        }
    }
    /* W35: a bonus's chance to be owned whole is joint over its territories, not a sum over
     * fronts, so the income splits across fronts only when each bonus lies on one */
    for (size_t k = 0; split && k < s->req->n_bonuses; k++) {
        const cbd_turn_bonus *bonus = &s->req->bonuses[k];
        for (size_t i = 1; i < bonus->n_territories; i++) {
            unite(root, bonus->territories[0], bonus->territories[i]);
        }
    }
    size_t nf = 0;
    for (uint32_t t = 0; t < n; t++) {
        if (find(root, t) == t) {
            s->front_of[t] = (uint32_t)nf++;
        }
    }
    for (uint32_t t = 0; t < n; t++) {
        s->front_of[t] = s->front_of[find(root, t)];
    }
    cbd_mem_free(root);
    s->nf = nf;
    s->f = cbd_mem_calloc(bud, nf + 1, sizeof *s->f);
    if (!s->f) {
        return false;
    }
    for (size_t i = 0; i < nf; i++) {
        front *f = &s->f[i];
        f->goal = cbd_mem_calloc(bud, s->req->n_goals + 1, sizeof *f->goal);
        f->bonus = cbd_mem_calloc(bud, s->req->n_bonuses + 1, sizeof *f->bonus);
        f->orders = cbd_mem_calloc(bud, b->n_orders + 1, sizeof *f->orders);
        f->order_map = cbd_mem_calloc(bud, b->n_orders + 1, sizeof *f->order_map);
        f->mask = cbd_mem_calloc(bud, n + 1, sizeof *f->mask);
        if (!f->goal || !f->bonus || !f->orders || !f->order_map || !f->mask) {
            return false;
        }
        f->first_own = UINT32_MAX;
    }
    for (uint32_t t = 0; t < n; t++) {
        front *f = &s->f[s->front_of[t]];
        if (b->territories[t].owner == s->req->player) {
            f->own = true;
            f->mask[t] = true;
            f->first_own = f->first_own < t ? f->first_own : t;
        }
    }
    for (size_t g = 0; g < s->req->n_goals; g++) {
        front *f = &s->f[s->front_of[s->req->goals[g]]];
        f->goals = true;
        f->goal[f->n_goals++] = s->req->goals[g];
    }
    for (size_t k = 0; k < s->req->n_bonuses; k++) {
        const cbd_turn_bonus *bonus = &s->req->bonuses[k];
        front *f = &s->f[s->front_of[bonus->territories[0]]];
        f->bonus[f->n_bonuses++] = *bonus;
    }
    for (size_t i = 0; i < b->n_orders; i++) {
        const cbd_turn_order *o = &b->orders[i];
        /* a deploy names `to` only; an attack/transfer's two territories share a front */
        front *f = &s->f[s->front_of[o->to]];
        f->order_map[f->n_orders] = i;
        f->orders[f->n_orders++] = *o;
    }
    for (size_t i = 0; i < nf; i++) {
        front *f = &s->f[i];
        f->board = *b;
        f->board.orders = f->orders;
        f->board.n_orders = f->n_orders;
        f->board.goals = NULL;
        f->board.n_goals = 0;
    }
    return true;
}

/* The value of a front the player cannot touch: its goals with the other players' orders. */
static cbd_status fixed_value(fronts *s, const front *f, double *value) {
    cbd_plan_request sub = *s->req;
    sub.goals = f->goal;
    sub.n_goals = f->n_goals;
    sub.bonuses = f->bonus;
    sub.n_bonuses = f->n_bonuses;
    cbd_turn_order *orders = cbd_mem_calloc(s->budget, f->n_orders + 1, sizeof *orders);
    cbd_turn_goal *goals = cbd_mem_calloc(s->budget, f->n_goals + 1, sizeof *goals);
    if (!orders || !goals) {
        cbd_mem_free(orders);
        cbd_mem_free(goals);
        return cbd_budget_nomem(s->budget);
    }
    cbd_plan none = {0, orders, 0};
    cbd_turn turn;
    cbdp_plan_build_turn(&f->board, &sub, &none, orders, goals, &turn);
    cbd_turn_analysis a;
    cbd_turn_error err;
    cbd_status st = cbd_turn_analyze(&turn, s->limits, s->budget, &a, &err);
    if (st == CBD_OK && sub.objective == CBD_PLAN_INCOME) {
        st = cbdp_plan_income(&turn, &sub, &a, s->limits, s->budget, value, &err);
        cbd_turn_analysis_free(&a);
    } else if (st == CBD_OK) {
        *value = cbdp_plan_objective_value(&sub, &a);
        cbd_turn_analysis_free(&a);
    }
    if (st != CBD_OK) {
        if (err.kind == CBD_TURN_ERR_BUDGET && err.index < f->n_orders) {
            err.index = f->order_map[err.index];
        } else if (err.kind == CBD_TURN_ERR_BUDGET && err.index != CBD_TURN_FOG_START) {
            err.index = CBD_TURN_NO_ORDER;
        }
        *s->err = err;
    }
    cbd_mem_free(orders);
    cbd_mem_free(goals);
    return st;
}

/* One run of front f at deploy total d, with its share of the plans and the work. */
static cbd_status run_front(fronts *s, const front *f, uint64_t d, plan_run *run) {
    cbd_plan_request sub = *s->req;
    sub.income = d;
    sub.goals = f->goal;
    sub.n_goals = f->n_goals;
    sub.bonuses = f->bonus;
    sub.n_bonuses = f->n_bonuses;
    uint64_t runs = s->runs_left > 0 ? s->runs_left : 1;
    sub.max_plans = s->plans_left / runs > 0 ? s->plans_left / runs : 1;
    sub.max_work = s->work_left == UINT64_MAX ? UINT64_MAX : s->work_left / runs;
    uint64_t before = s->budget ? s->budget->work_spent : 0;
    cbd_status st = cbdp_plan_run(&f->board, &sub, f->mask, f->order_map, !s->first_done, s->limits,
                                  s->budget, run, s->err);
    uint64_t spent = s->budget ? s->budget->work_spent - before : 0;
    s->runs_left = s->runs_left > 0 ? s->runs_left - 1 : 0;
    if (s->work_left != UINT64_MAX) {
        s->work_left = s->work_left > spent ? s->work_left - spent : 0;
    }
    if (st == CBD_OK && run->ran) {
        s->first_done = true;
        s->evaluated += run->res.plans_evaluated;
        s->bounded += run->res.plans_bounded;
        uint64_t used = run->res.plans_evaluated;
        s->plans_left = s->plans_left > used ? s->plans_left - used : 0;
    }
    return st;
}

/* A combination of two fronts' values (W34). */
static double combine(const cbd_plan_request *req, double a, double b) {
    return req->objective == CBD_PLAN_ALL ? a * b : a + b;
}

/* One front's orders (attack/transfers) and deploys added to a plan being composed. */
static void add_plan(const cbd_plan *p, uint64_t *deploy, cbd_turn_order *attacks, size_t *na) {
    for (size_t i = 0; i < p->n_orders; i++) {
        if (p->orders[i].type == CBD_ORDER_DEPLOY) {
            deploy[p->orders[i].to] += p->orders[i].armies;
        } else {
            attacks[(*na)++] = p->orders[i];
        }
    }
}

/* The plan of the chosen runs (alt: the front whose plan is its alternative `which`, or
 * SIZE_MAX), with `extra` deployed on territory `extra_on`. */
static cbd_status compose(fronts *s, plan_run *const *chosen, size_t m, size_t alt, size_t which,
                          uint64_t extra, uint32_t extra_on, uint64_t *deploy, cbd_plan *out) {
    size_t room = 0;
    for (size_t i = 0; i < m; i++) {
        room += chosen[i]->res.best.n_orders + 4;
        for (size_t a = 0; a < chosen[i]->res.n_alternatives; a++) {
            room += chosen[i]->res.alternatives[a].n_orders;
        }
    }
    room += s->board->n_territories;
    out->orders = cbd_mem_calloc(s->budget, room + 1, sizeof *out->orders);
    if (!out->orders) {
        return cbd_budget_nomem(s->budget);
    }
    memset(deploy, 0, s->board->n_territories * sizeof *deploy);
    if (extra > 0) {
        deploy[extra_on] += extra;
    }
    cbd_turn_order *attacks = out->orders + s->board->n_territories;
    size_t na = 0;
    for (size_t i = 0; i < m; i++) {
        const cbd_plan *p = i == alt ? &chosen[i]->res.alternatives[which] : &chosen[i]->res.best;
        add_plan(p, deploy, attacks, &na);
    }
    size_t n = 0;
    for (uint32_t t = 0; t < s->board->n_territories; t++) {
        if (deploy[t] > 0) {
            out->orders[n++] = (cbd_turn_order){
                .type = CBD_ORDER_DEPLOY, .player = s->req->player, .to = t, .armies = deploy[t]};
        }
    }
    memmove(out->orders + n, attacks, na * sizeof *attacks);
    out->n_orders = n + na;
    return CBD_OK;
}

/* A plan's size as cbdp_plan_size counts it (orders << 40 | armies sent). */
static uint64_t size_of(const cbd_plan *p) {
    uint64_t orders = 0, armies = 0;
    for (size_t i = 0; i < p->n_orders; i++) {
        if (p->orders[i].type != CBD_ORDER_DEPLOY) {
            orders++;
            armies += p->orders[i].armies;
        }
    }
    return orders << 40 | (armies < (UINT64_C(1) << 40) ? armies : (UINT64_C(1) << 40) - 1);
}

typedef struct {
    double value;
    uint64_t size;
    bool ok;
    size_t from; /* the grains used before this front */
} dp_cell;

/* The search over fronts, once they are known. */
static cbd_status search_fronts(fronts *s, cbd_plan_result *out) {
    const cbd_plan_request *req = s->req;
    bool all = req->objective == CBD_PLAN_ALL;
    double fixed = all ? 1.0 : 0.0;
    size_t m = 0;
    bool sink = false;
    uint32_t sink_on = UINT32_MAX;
    bool proven = true;
    for (size_t i = 0; i < s->nf; i++) {
        front *f = &s->f[i];
        if (f->goals && !f->own) {
            double v = 0;
            cbd_status st = fixed_value(s, f, &v);
            if (st != CBD_OK) {
                return st;
            }
            s->evaluated++; /* its value under every plan, analysed once */
            fixed = combine(req, fixed, v);
        } else if (f->own && !f->goals) {
            if (!sink || f->first_own < sink_on) {
                sink_on = f->first_own;
            }
            sink = true;
        }
        m += f->own && f->goals;
    }
    size_t *gf = cbd_mem_calloc(s->budget, m + 1, sizeof *gf);
    if (!gf) {
        return cbd_budget_nomem(s->budget);
    }
    for (size_t i = 0, j = 0; i < s->nf; i++) {
        if (s->f[i].own && s->f[i].goals) {
            gf[j++] = i;
        }
    }
    uint64_t income = req->income;
    bool single = m == 1 && !sink; /* all the income is the one front's */
    uint64_t grid = single || m == 0 ? 0 : (income < CBD_PLAN_GRID ? income : CBD_PLAN_GRID);
    uint64_t q = grid > 0 ? income / grid : 0;
    size_t points = (size_t)grid + 1;
    plan_run *runs = cbd_mem_calloc(s->budget, m * points + 2, sizeof *runs);
    dp_cell *dp = cbd_mem_calloc(s->budget, (m + 1) * points, sizeof *dp);
    plan_run **chosen = cbd_mem_calloc(s->budget, m + 1, sizeof *chosen);
    uint64_t *deploy = cbd_mem_calloc(s->budget, s->board->n_territories + 1, sizeof *deploy);
    cbd_status st = runs && dp && chosen && deploy ? CBD_OK : cbd_budget_nomem(s->budget);
    s->runs_left = m * points;
    /* every front at every total: the largest totals first (the likeliest to be chosen get
     * their shares while the most is left) */
    for (size_t jj = points; st == CBD_OK && jj-- > 0;) {
        for (size_t i = 0; st == CBD_OK && i < m; i++) {
            uint64_t d = single ? income : (uint64_t)jj * q;
            plan_run *r = &runs[i * points + jj];
            st = run_front(s, &s->f[gf[i]], d, r);
            proven &= r->ran && r->proven;
        }
    }
    /* the knapsack: dp[i][t] the best of the first i fronts using t grains */
    for (size_t t = 0; st == CBD_OK && t < points; t++) {
        dp[t] = (dp_cell){all ? 1.0 : 0.0, 0, t == 0 || single, 0};
    }
    if (single) {
        dp[0].ok = true;
    }
    for (size_t i = 0; st == CBD_OK && i < m; i++) {
        dp_cell *prev = &dp[i * points], *cur = &dp[(i + 1) * points];
        (void)cbd_charge(s->budget, cbd_work_times(CBD_WORK_COMPARE, points * points));
        for (size_t t = 0; t < points; t++) {
            cur[t].ok = false;
            for (size_t j = 0; j <= t; j++) {
                size_t used = single ? 0 : t - j;
                const plan_run *r = &runs[i * points + (single ? 0 : j)];
                if (single && t != 0) {
                    break;
                }
                if (!prev[used].ok || !r->ran) {
                    continue;
                }
                double v = combine(req, prev[used].value, r->res.best.value);
                uint64_t size = prev[used].size + size_of(&r->res.best);
                if (!cur[t].ok || cbdp_plan_better(v, size, cur[t].value, cur[t].size)) {
                    cur[t] = (dp_cell){v, size, true, used};
                }
            }
        }
    }
    size_t end = SIZE_MAX;
    for (size_t t = 0; st == CBD_OK && t < points; t++) {
        const dp_cell *c = &dp[m * points + t];
        bool may = single ? t == 0 : (sink ? true : t == points - 1);
        if (may && c->ok &&
            (end == SIZE_MAX || cbdp_plan_better(c->value, c->size, dp[m * points + end].value,
                                                 dp[m * points + end].size))) {
            end = t;
        }
    }
    if (st == CBD_OK && end == SIZE_MAX) {
        /* no front's run fitted its share: the request's budget is what to raise */
        if (s->budget && s->budget->stopped == CBD_BUDGET_RUNNING) {
            s->budget->stopped = CBD_BUDGET_WORK;
        }
        *s->err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        st = CBD_ERR_BUDGET;
    }
    size_t *grains = st == CBD_OK ? cbd_mem_calloc(s->budget, m + 1, sizeof *grains) : NULL;
    if (st == CBD_OK && !grains) {
        st = cbd_budget_nomem(s->budget);
    }
    uint64_t extra = 0;
    uint32_t extra_on = sink_on;
    plan_run rerun;
    memset(&rerun, 0, sizeof rerun);
    if (st == CBD_OK) {
        uint64_t given = 0;
        for (size_t i = m, t = end; i-- > 0;) {
            size_t used = dp[(i + 1) * points + t].from;
            grains[i] = single ? 0 : t - used;
            chosen[i] = &runs[i * points + grains[i]];
            given += single ? income : (uint64_t)grains[i] * q;
            t = used;
        }
        extra = income - given;
        if (m == 0) {
            extra = income;
        }
        if (extra > 0 && !sink && m > 0) {
            /* the remainder of income / G with the front that has the most: run again there */
            size_t most = 0;
            for (size_t i = 1; i < m; i++) {
                most = grains[i] > grains[most] ? i : most;
            }
            s->runs_left = 1;
            s->first_done = false;
            st = run_front(s, &s->f[gf[most]], (uint64_t)grains[most] * q + extra, &rerun);
            if (st == CBD_OK && !rerun.ran) {
                if (s->budget && s->budget->stopped == CBD_BUDGET_RUNNING) {
                    s->budget->stopped = CBD_BUDGET_WORK;
                }
                *s->err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
                st = CBD_ERR_BUDGET;
            }
            chosen[most] = &rerun;
            extra = 0;
            proven = false;
        }
        if (extra > 0 && m == 0) {
            extra_on = sink_on; /* no front can change a goal: the income anywhere */
        }
    }
    if (st == CBD_OK) {
        double value = fixed;
        for (size_t i = 0; i < m; i++) {
            value = combine(req, value, chosen[i]->res.best.value);
        }
        st = compose(s, chosen, m, SIZE_MAX, 0, extra, extra_on, deploy, &out->best);
        out->best.value = value;
        /* the next-best: one front's alternative in place of its best */
        for (size_t i = 0; st == CBD_OK && i < m; i++) {
            for (size_t a = 0; st == CBD_OK && a < chosen[i]->res.n_alternatives; a++) {
                double v = fixed;
                for (size_t k = 0; k < m; k++) {
                    v = combine(req, v,
                                k == i ? chosen[i]->res.alternatives[a].value
                                       : chosen[k]->res.best.value);
                }
                size_t at = out->n_alternatives;
                while (at > 0 && v > out->alternatives[at - 1].value + CBD_PLAN_TIE) {
                    at--;
                }
                if (at >= CBD_PLAN_ALTERNATIVES) {
                    continue;
                }
                if (out->n_alternatives == CBD_PLAN_ALTERNATIVES) {
                    cbd_mem_free(out->alternatives[CBD_PLAN_ALTERNATIVES - 1].orders);
                    out->n_alternatives--;
                }
                memmove(&out->alternatives[at + 1], &out->alternatives[at],
                        (out->n_alternatives - at) * sizeof *out->alternatives);
                out->n_alternatives++;
                st = compose(s, chosen, m, i, a, extra, extra_on, deploy, &out->alternatives[at]);
                out->alternatives[at].value = v;
            }
        }
        double most = cbd_plan_most(req);
        out->optimal = (proven && (single || m == 0 || grid == income)) || value >= most;
        out->plans_evaluated = s->evaluated;
        out->plans_bounded = s->bounded;
        out->fronts = 0;
        for (size_t i = 0; i < s->nf; i++) {
            out->fronts += s->f[i].own;
        }
    }
    for (size_t i = 0; runs && i < m * points; i++) {
        cbd_plan_result_free(&runs[i].res);
    }
    cbd_plan_result_free(&rerun.res);
    cbd_mem_free(runs);
    cbd_mem_free(dp);
    cbd_mem_free(chosen);
    cbd_mem_free(deploy);
    cbd_mem_free(grains);
    cbd_mem_free(gf);
    return st;
}

cbd_status cbd_plan_search(const cbd_turn *board, const cbd_plan_request *req,
                           const cbd_turn_limits *limits, cbd_budget *budget, cbd_plan_result *out,
                           cbd_turn_error *err) {
    memset(out, 0, sizeof *out);
    if (!check_request(board, req, err)) {
        return CBD_ERR_INVALID;
    }
    size_t own = 0, pairs = 0;
    for (size_t t = 0; t < board->n_territories; t++) {
        if (board->territories[t].owner == req->player) {
            own++;
            pairs += board->neighbor_off[t + 1] - board->neighbor_off[t];
        }
    }
    if (own == 0 || own + pairs + board->n_orders > limits->max_orders) {
        *err = (cbd_turn_error){CBD_TURN_ERR_SIZE, 0, 0, 0};
        return CBD_ERR_INVALID;
    }
    fronts s;
    memset(&s, 0, sizeof s);
    s.board = board;
    s.req = req;
    s.limits = limits;
    s.budget = budget;
    s.err = err;
    s.plans_left = req->max_plans;
    s.work_left = req->max_work;
    cbd_status st = fronts_of(&s) ? CBD_OK : cbd_budget_nomem(budget);
    if (st == CBD_OK && s.nf == 1) {
        /* one front: the board as it is (no copy of its orders needed) */
        plan_run run;
        cbd_plan_request one = *req;
        st = cbdp_plan_run(board, &one, NULL, NULL, true, limits, budget, &run, err);
        if (st == CBD_OK && !run.ran) {
            if (budget && budget->stopped == CBD_BUDGET_RUNNING) {
                budget->stopped = CBD_BUDGET_WORK;
            }
            *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
            st = CBD_ERR_BUDGET;
        }
        if (st == CBD_OK) {
            *out = run.res;
            out->optimal = run.proven;
            out->fronts = 1;
        }
    } else if (st == CBD_OK) {
        st = search_fronts(&s, out);
    }
    fronts_free(&s);
    if (st != CBD_OK) {
        cbd_plan_result_free(out);
    }
    return st;
}
