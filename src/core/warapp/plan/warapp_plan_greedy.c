/*
 * The plain splits (docs/rules.md W47): the plans a bot writes in ten lines, which the search
 * values first so that its answer is never below them.
 *
 * Each goal the player lacks (owned by neither the player nor a teammate) is attacked from its
 * source: the run's own territory bordering it with the most movable armies (the first such in
 * territory order). The greedy split hands out the sources' movable armies and the income to the
 * goals, a bundle at a time: for each goal, the next k armies it may get (its source's movable
 * armies left plus the income left) that raise its weight the most per army; the goal whose
 * bundle raises it most per army takes it (the first goal in the request's order on a tie, the
 * smallest k), its source's movable armies first, the income after (deployed on the source).
 * A goal's chance for x armies is its single battle's capture chance (W1–W6) against its
 * defenders after the other players' deploys; its weight is that chance for `all` and
 * `expected`, and for `income` the chance times the sum over its bonuses of the bonus's value
 * times the chances of the bonus's other territories (1 for one the player owns, the current
 * chance of an attacked goal, 0 otherwise); when no bundle raises the income, the chances decide
 * as for `expected`. Bundles, not single armies: at low luck a chance jumps from 0 to 1 at one
 * count, and one army more raises nothing until then. The income left over is deployed on the
 * run's first own territory. The attacks are listed in the goals' order.
 *
 * The even split gives each attacked goal an equal share of the income (the first goals one more
 * when it does not divide) and of its source's movable armies.
 */
#include "warapp_plan_internal.h"

#include <string.h>

#include "combatd/warapp_odds.h"

/* A goal's curve stops where its chance passes 1 - GREEDY_SURE (more armies raise it by less)
 * or at GREEDY_MAX_ARMIES. */
#define GREEDY_SURE        1e-12
#define GREEDY_MAX_ARMIES  4096
#define GREEDY_FIRST_CURVE 64

typedef struct {
    uint32_t t;      /* the goal territory */
    size_t pair;     /* its source's pair to it */
    size_t len;      /* chance[0..len-1] */
    double *chance;  /* capture chance of x armies */
    uint64_t given;  /* armies given */
    uint64_t income; /* ... of them from the income */
    double factor;   /* `income`: the weight of one unit of chance */
} greedy_goal;

static bool lacks(const plan_ctx *c, uint32_t t) {
    const cbd_turn *b = c->board;
    cbd_turn_player o = b->territories[t].owner, p = c->req->player;
    return o != p && (o == CBD_TURN_NEUTRAL || !b->team || b->team[o] != b->team[p]);
}

/* The goals the run attacks, each with its source (pair), in the request's order. */
static size_t attacked_goals(const plan_ctx *c, greedy_goal *out) {
    size_t n = 0;
    for (size_t g = 0; g < c->req->n_goals; g++) {
        uint32_t t = c->req->goals[g];
        size_t best = c->space.np;
        for (size_t p = 0; lacks(c, t) && p < c->space.np; p++) {
            if (c->space.pto[p] == t &&
                (best == c->space.np ||
                 c->space.movable[c->space.pfrom[p]] > c->space.movable[c->space.pfrom[best]])) {
                best = p;
            }
        }
        if (best < c->space.np) {
            out[n++] = (greedy_goal){.t = t, .pair = best};
        }
    }
    return n;
}

/* The defenders an attack on t meets first: its armies (the fewest of its counts under fog)
 * and the other players' deploys onto it. */
static uint64_t defenders(const cbd_turn *b, uint32_t t) {
    uint64_t d = b->fog && b->fog[t].n > 0 ? b->fog[t].points[0].armies : b->territories[t].armies;
    for (size_t i = 0; i < b->n_orders; i++) {
        if (b->orders[i].type == CBD_ORDER_DEPLOY && b->orders[i].to == t) {
            d += b->orders[i].armies;
        }
    }
    return d;
}

/* Goal g's chance curve up to `most` armies, grown by doubling until it passes 1 - GREEDY_SURE. */
static cbd_status curve(plan_ctx *c, greedy_goal *g, uint64_t most) {
    uint64_t d = defenders(c->board, g->t);
    most = most < GREEDY_MAX_ARMIES ? most : GREEDY_MAX_ARMIES;
    uint64_t n = most < GREEDY_FIRST_CURVE ? most : GREEDY_FIRST_CURVE;
    for (;;) {
        cbd_mem_free(g->chance);
        g->chance = cbd_mem_calloc(c->meter.budget, n + 1, sizeof *g->chance);
        cbd_warapp_graph_point *pts = cbd_mem_calloc(c->meter.budget, n + 1, sizeof *pts);
        if (!g->chance || !pts) {
            cbd_mem_free(pts);
            return cbd_budget_nomem(c->meter.budget);
        }
        cbd_status st = d == 0 || n == 0
                            ? CBD_OK
                            : cbd_warapp_graph(d, 1, n, &c->board->battle, &c->meter.search, pts);
        for (uint64_t x = 1; st == CBD_OK && x <= n; x++) {
            g->chance[x] = d == 0 ? 1.0 : pts[x - 1].capture_probability;
        }
        cbd_mem_free(pts);
        g->len = (size_t)n + 1;
        for (uint64_t x = 1; st == CBD_OK && x <= n; x++) {
            if (g->chance[x] >= 1 - GREEDY_SURE) {
                g->len = (size_t)x + 1; /* the curve ends at its first sure count */
                return st;
            }
        }
        if (st != CBD_OK || n >= most) {
            return st;
        }
        n = 2 * n < most ? 2 * n : most;
    }
}

/* `income`: each goal's factor, the sum over its bonuses of value times the other territories'
 * chances as the split stands. */
static void income_factors(const plan_ctx *c, greedy_goal *gs, size_t n, const size_t *goal_of) {
    for (size_t i = 0; i < n; i++) {
        gs[i].factor = 0;
    }
    for (size_t k = 0; k < c->req->n_bonuses; k++) {
        const cbd_turn_bonus *bonus = &c->req->bonuses[k];
        for (size_t i = 0; i < bonus->n_territories; i++) {
            size_t gi = goal_of[bonus->territories[i]];
            if (gi == SIZE_MAX) {
                continue;
            }
            double rest = (double)bonus->value;
            for (size_t j = 0; j < bonus->n_territories && rest != 0; j++) {
                uint32_t u = bonus->territories[j];
                size_t gj = goal_of[u];
                rest *= j == i           ? 1.0
                        : gj != SIZE_MAX ? gs[gj].chance[gs[gj].given]
                        : c->board->territories[u].owner == c->req->player ? 1.0
                                                                           : 0.0;
            }
            gs[gi].factor += rest;
        }
    }
}

/* The best bundle: *goal and *k, the highest gain per army (factor times chance, or the chance
 * alone when `plain`); false when none raises anything. */
static bool best_bundle(plan_ctx *c, const greedy_goal *gs, size_t n, const uint64_t *left,
                        uint64_t income_left, bool plain, size_t *goal, uint64_t *k) {
    double best = 0;
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        const greedy_goal *g = &gs[i];
        uint64_t may = left[c->space.pfrom[g->pair]] + income_left;
        uint64_t top = g->len - 1 - g->given < may ? g->len - 1 - g->given : may;
        if (!cbd_charge(&c->meter.search, cbd_work_times(CBD_WORK_SCAN_TERM, top + 1))) {
            return false;
        }
        double w = plain ? 1.0 : g->factor, base = g->chance[g->given];
        for (uint64_t j = 1; j <= top; j++) {
            double rate = w * (g->chance[g->given + j] - base) / (double)j;
            if (rate > best) {
                best = rate;
                *goal = i;
                *k = j;
                found = true;
            }
        }
    }
    return found;
}

/* The hand-out itself, into gs (given, income). */
static void hand_out(plan_ctx *c, greedy_goal *gs, size_t n, uint64_t *left,
                     const size_t *goal_of) {
    uint64_t income_left = c->req->income;
    bool income = c->req->objective == CBD_PLAN_INCOME;
    for (;;) {
        size_t g = 0;
        uint64_t k = 0;
        if (income) {
            income_factors(c, gs, n, goal_of);
        }
        bool found = best_bundle(c, gs, n, left, income_left, !income, &g, &k) ||
                     (income && best_bundle(c, gs, n, left, income_left, true, &g, &k));
        if (!found) {
            return;
        }
        size_t src = c->space.pfrom[gs[g].pair];
        uint64_t from_src = left[src] < k ? left[src] : k;
        left[src] -= from_src;
        income_left -= k - from_src;
        gs[g].given += k;
        gs[g].income += k - from_src;
    }
}

/* The goals' armies as a plan: each attack from its source, the income on the sources, the rest
 * on the first own territory; the attacks first in the plan's order, in the goals' order. */
static void to_state(const plan_ctx *c, const greedy_goal *gs, size_t n, plan_state *s) {
    memset(s->d, 0, c->space.k * sizeof *s->d);
    memset(s->a, 0, c->space.np * sizeof *s->a);
    uint64_t given = 0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        s->d[c->space.pfrom[gs[i].pair]] += gs[i].income;
        s->a[gs[i].pair] += gs[i].given;
        given += gs[i].income;
        if (gs[i].given > 0) {
            s->seq[at++] = (uint32_t)gs[i].pair;
        }
    }
    if (c->space.k > 0) {
        s->d[0] += c->req->income - given;
    }
    for (size_t p = 0; p < c->space.np; p++) {
        if (s->a[p] == 0) {
            s->seq[at++] = (uint32_t)p;
        }
    }
}

static cbd_status greedy(plan_ctx *c, greedy_goal *gs, size_t n, uint64_t *left, size_t *goal_of,
                         plan_state *s) {
    cbd_status st = CBD_OK;
    for (size_t i = 0; i < c->space.k; i++) {
        left[i] = c->space.movable[i];
    }
    for (size_t t = 0; t < c->board->n_territories; t++) {
        goal_of[t] = SIZE_MAX;
    }
    for (size_t i = 0; st == CBD_OK && i < n; i++) {
        uint64_t most = c->space.movable[c->space.pfrom[gs[i].pair]];
        most = c->req->income < UINT64_MAX - most ? most + c->req->income : UINT64_MAX;
        st = curve(c, &gs[i], most);
        goal_of[gs[i].t] = i;
    }
    if (st == CBD_OK) {
        hand_out(c, gs, n, left, goal_of);
        to_state(c, gs, n, s);
    }
    return st;
}

/* The greedy split (W47) into s. */
static cbd_status greedy_split(plan_ctx *c, plan_state *s) {
    greedy_goal *gs = cbd_mem_calloc(c->meter.budget, c->req->n_goals + 1, sizeof *gs);
    uint64_t *left = cbd_mem_calloc(c->meter.budget, c->space.k + 1, sizeof *left);
    size_t *goal_of = cbd_mem_calloc(c->meter.budget, c->board->n_territories + 1, sizeof *goal_of);
    cbd_status st = gs && left && goal_of ? CBD_OK : cbd_budget_nomem(c->meter.budget);
    size_t n = st == CBD_OK ? attacked_goals(c, gs) : 0;
    if (st == CBD_OK) {
        st = greedy(c, gs, n, left, goal_of, s);
    }
    for (size_t i = 0; gs && i < n; i++) {
        cbd_mem_free(gs[i].chance);
    }
    cbd_mem_free(gs);
    cbd_mem_free(left);
    cbd_mem_free(goal_of);
    return st;
}

/* The even split (W47) into s. */
static cbd_status even_split(plan_ctx *c, plan_state *s) {
    greedy_goal *gs = cbd_mem_calloc(c->meter.budget, c->req->n_goals + 1, sizeof *gs);
    size_t *share = cbd_mem_calloc(c->meter.budget, c->space.k + 1, sizeof *share);
    if (!gs || !share) {
        cbd_mem_free(gs);
        cbd_mem_free(share);
        return cbd_budget_nomem(c->meter.budget);
    }
    size_t n = attacked_goals(c, gs);
    for (size_t i = 0; i < n; i++) {
        share[c->space.pfrom[gs[i].pair]]++;
    }
    uint64_t income = c->req->income;
    uint64_t *taken = cbd_mem_calloc(c->meter.budget, c->space.k + 1, sizeof *taken);
    if (!taken) {
        cbd_mem_free(gs);
        cbd_mem_free(share);
        return cbd_budget_nomem(c->meter.budget);
    }
    for (size_t i = 0; i < n; i++) {
        size_t src = c->space.pfrom[gs[i].pair];
        uint64_t from_income = n > 0 ? income / n + (i < income % n) : 0;
        uint64_t m = c->space.movable[src], each = m / share[src];
        uint64_t from_src = each + (taken[src] < m % share[src]);
        taken[src]++;
        gs[i].given = from_income + from_src;
        gs[i].income = from_income;
    }
    to_state(c, gs, n, s);
    cbd_mem_free(taken);
    cbd_mem_free(gs);
    cbd_mem_free(share);
    return CBD_OK;
}

eval_result cbdp_plan_splits(plan_ctx *c, plan_state *s) {
    cbd_status (*const split[2])(plan_ctx *, plan_state *) = {greedy_split, even_split};
    eval_result r = EVAL_DONE;
    for (size_t i = 0; i < 2 && r != EVAL_STOP && r != EVAL_ERROR; i++) {
        cbd_status st = split[i](c, s);
        if (st == CBD_ERR_BUDGET && cbd_budget_spent(&c->meter.search) &&
            !cbd_budget_spent(c->meter.budget)) {
            return EVAL_STOP; /* the run's share ended inside the curves */
        }
        if (st != CBD_OK) {
            c->meter.status = st;
            return EVAL_ERROR;
        }
        double v;
        r = cbdp_plan_state_valid(c, s) ? cbdp_plan_try(c, s, &v) : EVAL_SKIP;
    }
    return r;
}
