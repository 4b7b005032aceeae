/*
 * One plan's evaluation (W31): its orders, its turn with the other players' orders, the exact
 * analysis of that turn (cbd_turn_analyze) charged to the search's own budget and to the
 * request's, and the best plans kept.
 */
#include "warapp_plan_internal.h"

#include <math.h>

#include "combatd/warapp_plan_position.h"

#include <string.h>

void cbdp_plan_build_turn(const cbd_turn *board, const cbd_plan_request *req, const cbd_plan *plan,
                          cbd_turn_order *orders, cbd_turn_goal *goals, cbd_turn *out) {
    *out = *board;
    /* (a board without orders may hold NULL for them: no copy then) */
    if (plan->n_orders > 0) {
        memmove(orders, plan->orders, plan->n_orders * sizeof *orders); /* may be in place */
    }
    if (board->n_orders > 0) {
        memcpy(orders + plan->n_orders, board->orders, board->n_orders * sizeof *orders);
    }
    for (size_t g = 0; g < req->n_goals; g++) {
        goals[g] = (cbd_turn_goal){req->goals[g], req->player};
    }
    out->orders = orders;
    out->n_orders = plan->n_orders + board->n_orders;
    /* `expected` needs each territory's owner only: goals would join their groups (W16's
     * chance that all hold is a joint one), multiplying the states for nothing. */
    out->goals = goals;
    out->n_goals = req->objective == CBD_PLAN_ALL ? req->n_goals : 0;
}

/* A chance within [0, 1]: the analysis's sums of products may pass 1 by a few ulps, and a value
 * is a chance or a sum of chances. */
static double chance(double p) {
    return p > 1.0 ? 1.0 : p < 0.0 ? 0.0 : p;
}

double cbdp_plan_objective_value(const cbd_plan_request *req, const cbd_turn_analysis *a) {
    if (req->objective == CBD_PLAN_ALL) {
        return chance(a->goals_probability);
    }
    double sum = 0;
    if (req->objective == CBD_PLAN_INCOME) {
        /* W32: the turn's bonuses are the request's, a->bonus_owner filled for them */
        for (size_t b = 0; a->bonus_owner && b < req->n_bonuses; b++) {
            sum += (double)req->bonuses[b].value *
                   chance(a->bonus_owner[b * a->n_players + req->player]);
        }
        return sum;
    }
    for (size_t g = 0; g < req->n_goals; g++) {
        sum += chance(a->territories[req->goals[g]].owner[req->player]);
    }
    return sum;
}

double cbd_plan_most(const cbd_plan_request *req) {
    if (req->objective == CBD_PLAN_POSITION) {
        return HUGE_VAL; /* W48: no value proves a plan; only the whole space searched does */
    }
    if (req->objective == CBD_PLAN_INCOME) {
        double most = 0;
        for (size_t b = 0; b < req->n_bonuses; b++) {
            most += req->bonuses[b].value > 0 ? (double)req->bonuses[b].value : 0;
        }
        return most;
    }
    return req->objective == CBD_PLAN_ALL ? 1.0 : (double)req->n_goals;
}

cbd_status cbdp_plan_income(const cbd_turn *turn, const cbd_plan_request *req,
                            const cbd_turn_analysis *a, const cbd_turn_limits *limits,
                            cbd_budget *budget, double *value, cbd_turn_error *err) {
    *value = 0;
    for (size_t b = 0; b < req->n_bonuses; b++) {
        double p;
        cbd_status st =
            cbd_turn_bonus_chance(turn, a, &req->bonuses[b], req->player, limits, budget, &p, err);
        if (st != CBD_OK) {
            return st;
        }
        *value += (double)req->bonuses[b].value * chance(p);
    }
    return CBD_OK;
}

bool cbdp_plan_state_alloc(plan_ctx *c, plan_state *s) {
    s->d = cbd_mem_calloc(c->meter.budget, c->space.k + 1, sizeof *s->d);
    s->a = cbd_mem_calloc(c->meter.budget, c->space.np + 1, sizeof *s->a);
    s->seq = cbd_mem_calloc(c->meter.budget, c->space.np + 1, sizeof *s->seq);
    for (size_t p = 0; s->seq && p < c->space.np; p++) {
        s->seq[p] = (uint32_t)p;
    }
    return s->d && s->a && s->seq;
}

void cbdp_plan_state_free(plan_state *s) {
    cbd_mem_free(s->d);
    cbd_mem_free(s->a);
    cbd_mem_free(s->seq);
    memset(s, 0, sizeof *s);
}

void cbdp_plan_state_copy(const plan_ctx *c, plan_state *dst, const plan_state *src) {
    memcpy(dst->d, src->d, c->space.k * sizeof *dst->d);
    memcpy(dst->a, src->a, c->space.np * sizeof *dst->a);
    memcpy(dst->seq, src->seq, c->space.np * sizeof *dst->seq);
}

size_t cbdp_plan_state_orders(const plan_ctx *c, const plan_state *s, cbd_turn_order *out) {
    size_t n = 0;
    for (size_t i = 0; i < c->space.k; i++) {
        if (s->d[i] > 0) {
            out[n++] = (cbd_turn_order){.type = CBD_ORDER_DEPLOY,
                                        .player = c->req->player,
                                        .to = c->space.own[i],
                                        .armies = s->d[i]};
        }
    }
    for (size_t j = 0; j < c->space.np; j++) {
        uint32_t p = s->seq[j];
        if (s->a[p] > 0) {
            out[n++] = (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                                        .player = c->req->player,
                                        .from = c->space.own[c->space.pfrom[p]],
                                        .to = c->space.pto[p],
                                        .armies = s->a[p]};
        }
    }
    return n;
}

bool cbdp_plan_state_valid(const plan_ctx *c, const plan_state *s) {
    uint64_t total = 0;
    for (size_t i = 0; i < c->space.k; i++) {
        total += s->d[i];
    }
    if (total != c->req->income) {
        return false;
    }
    size_t p = 0;
    for (size_t i = 0; i < c->space.k; i++) {
        uint64_t sent = 0;
        for (; p < c->space.np && c->space.pfrom[p] == i; p++) {
            sent += s->a[p];
        }
        if (sent > c->space.movable[i] + s->d[i]) {
            return false;
        }
    }
    return true;
}

uint64_t cbdp_plan_size(const plan_ctx *c, const plan_state *s) {
    uint64_t orders = 0, armies = 0;
    for (size_t p = 0; p < c->space.np; p++) {
        orders += s->a[p] > 0;
        armies += s->a[p];
    }
    return orders << 40 | (armies < (UINT64_C(1) << 40) ? armies : (UINT64_C(1) << 40) - 1);
}

bool cbdp_plan_may_keep(const plan_ctx *c, double bound, uint64_t size) {
    const plan_kept *last = &c->best.kept[CBD_PLAN_ALTERNATIVES];
    return !last->used || cbdp_plan_better(bound, size, last->value, last->size);
}

/* Keeps the plan among the best when it beats the last kept (ties in value and size: the
 * first found stays). */
static void keep(plan_ctx *c, const plan_state *s, double value) {
    size_t n = CBD_PLAN_ALTERNATIVES + 1, at = 0;
    uint64_t size = cbdp_plan_size(c, s);
    while (at < n && c->best.kept[at].used &&
           !cbdp_plan_better(value, size, c->best.kept[at].value, c->best.kept[at].size)) {
        at++;
    }
    if (at == n) {
        return;
    }
    plan_state spare = c->best.kept[n - 1].st; /* the last one's arrays take the new plan */
    for (size_t i = n - 1; i > at; i--) {
        c->best.kept[i] = c->best.kept[i - 1];
    }
    c->best.kept[at] = (plan_kept){true, value, size, c->best.last_aux, spare};
    cbdp_plan_state_copy(c, &c->best.kept[at].st, s);
}

cbd_plan_stop cbdp_plan_answer_stop(const cbd_budget *budget) {
    if (!cbd_budget_answering(budget)) {
        return CBD_PLAN_STOP_NONE;
    }
    return cbd_budget_stop_reason(budget) == CBD_BUDGET_DEADLINE ? CBD_PLAN_STOP_DEADLINE
                                                                 : CBD_PLAN_STOP_BUDGET;
}

/* Whether `meter` stopped for what ends the search with the best plan so far: the deadline (its
 * progress check), or the request's own work (the run capped by what the request had left, or
 * the first plan's meter, which is that): the request's budget then stops so too, onto its
 * reserve. */
static bool stop_to_answer(plan_ctx *c, const cbd_budget *meter) {
    bool request_work =
        meter->stopped == CBD_BUDGET_WORK && (meter != &c->meter.search || c->meter.cap_by_request);
    if (meter->stopped == CBD_BUDGET_DEADLINE || request_work) {
        cbd_budget_halt(c->meter.budget, meter->stopped);
    }
    return cbdp_plan_answer_stop(c->meter.budget) != CBD_PLAN_STOP_NONE;
}

/* The request's budget stopped as `meter` (the run's own, or the first plan's) stopped: the
 * deadline, the client or the drain (cancelled), or memory the request does not have. So that
 * the caller names the member to reduce (a 422 or a 504, never a 500). */
static void stop_request(plan_ctx *c, const cbd_budget *meter) {
    cbd_budget_mark_stopped(c->meter.budget,
                            meter->stopped != CBD_BUDGET_RUNNING ? meter->stopped : CBD_BUDGET_WORK,
                            meter->mem_refused);
}

/* The analysis's failure: a plan the core's limits refuse is left out (nothing is proven
 * then); the run's work ends the run; anything else is the request's failure, the order of the
 * other players' that was running named in the request's numbering. */
static eval_result failed(plan_ctx *c, cbd_status st, const cbd_turn_error *err, cbd_budget *meter,
                          size_t n_plan_orders) {
    cbd_turn_error e = *err;
    if (e.kind == CBD_TURN_ERR_BUDGET) {
        bool others = e.index != CBD_TURN_NO_ORDER && e.index != CBD_TURN_FOG_START &&
                      e.index >= n_plan_orders && e.index - n_plan_orders < c->board->n_orders;
        e.index = !others        ? (e.index == CBD_TURN_FOG_START ? e.index : CBD_TURN_NO_ORDER)
                  : c->order_map ? c->order_map[e.index - n_plan_orders]
                                 : e.index - n_plan_orders;
    }
    if (c->meter.first_error == CBD_OK) {
        c->meter.first_error = st;
        c->meter.first_err = e;
    }
    if (st == CBD_ERR_TOO_LARGE || (st == CBD_ERR_INVALID && err->kind == CBD_TURN_ERR_SIZE)) {
        c->meter.unproven = true;
        return EVAL_SKIP;
    }
    if (st == CBD_ERR_BUDGET && meter->stopped == CBD_BUDGET_MEMORY &&
        !cbd_budget_spent(c->meter.budget)) {
        /* One plan's analysis needs more memory than the request has: that plan is left out
         * (nothing is proven then), as one the core's limits refuse; its memory is back, so
         * the run's budget goes on. */
        c->meter.memory_refused = meter->mem_refused;
        cbd_budget_resume_after_memory(meter);
        c->meter.unproven = true;
        return EVAL_SKIP;
    }
    if (st == CBD_ERR_BUDGET && meter == &c->meter.search &&
        c->meter.search.stopped == CBD_BUDGET_WORK && !c->meter.cap_by_request &&
        !cbd_budget_spent(c->meter.budget)) {
        c->meter.stopped = true;
        return EVAL_STOP;
    }
    if (st == CBD_ERR_BUDGET && stop_to_answer(c, meter)) {
        c->meter.stopped = true;
        return EVAL_STOP;
    }
    if (st == CBD_ERR_BUDGET) {
        stop_request(c, meter);
    }
    c->meter.status = st;
    *c->meter.err = e;
    return EVAL_ERROR;
}

/* Where an attack on a goal falls short, what the defenders it killed count in the guide: at
 * most this much of a territory's capture, so that a capture is always worth more. */
#define DAMAGE_WEIGHT 0.5

/* The local search's guide: the sum of the player's chances to own each goal (W16), and for a
 * goal it does not own at the start, where the capture is not sure, DAMAGE_WEIGHT times the
 * chance it is not taken times the share of its armies gone by the end (its mean armies against
 * its armies at the start). */
static double goal_sum(const plan_ctx *c, const cbd_turn_analysis *a) {
    double sum = 0;
    for (size_t g = 0; g < c->req->n_goals; g++) {
        uint32_t t = c->req->goals[g];
        double own = a->territories[t].owner[c->req->player];
        sum += own;
        uint64_t d0 = c->board->territories[t].armies;
        if (c->board->territories[t].owner != c->req->player && d0 > 0 && own < 1) {
            double left = a->territories[t].mean_armies / (double)d0;
            sum += DAMAGE_WEIGHT * (1 - own) * (left < 1 ? 1 - left : 0);
        }
    }
    return sum;
}

/* The budget a plan's analysis is charged to: the run's own; but the first plan of the first
 * run is analysed within what the request has left rather than the run's share (so that a plan
 * is answered whenever one fits at all, and no plan is analysed again for want of a share),
 * in `wide`; its work is the search's all the same. */
typedef struct {
    cbd_budget b;
    cbd_budget_relay relay; /* its work to the request's budget as it is spent */
    uint64_t relayed;
} wide_meter;

static cbd_budget *analysis_meter(plan_ctx *c, wide_meter *wide) {
    if (!c->meter.first_on_request || c->best.evaluated > 0 || c->best.kept[0].used ||
        !c->meter.budget) {
        return &c->meter.search;
    }
    cbd_budget_init_child(&wide->b, c->meter.budget, cbd_budget_work_left(c->meter.budget));
    cbd_budget_set_cache(&wide->b, c->meter.search.cache);
    cbd_budget_relay_start(&wide->relay, &wide->b, c->meter.budget, &wide->relayed);
    return &wide->b;
}

/* Analyses the plan and keeps it among the best; *value its value when EVAL_DONE. */
static eval_result plan_evaluate(plan_ctx *c, const plan_state *s, double *value) {
    if (c->meter.stopped || c->best.evaluated >= c->req->max_plans) {
        c->meter.stopped = true;
        return EVAL_STOP;
    }
    cbd_plan plan = {cbdp_plan_state_orders(c, s, c->orders), c->orders, 0};
    cbd_turn turn;
    /* The plan's orders are at the front of c->orders already: the board's follow them. */
    cbdp_plan_build_turn(c->board, c->req, &plan, c->orders, c->goals, &turn);
    wide_meter wide = {.relayed = 0};
    cbd_budget *meter = analysis_meter(c, &wide);
    uint64_t before = meter->work_spent, fresh_before = meter->fresh_bytes;
    uint64_t heap_before = meter->heap_blocks;
    cbd_turn_analysis a;
    cbd_turn_error err;
    double income = 0;
    bool position = c->req->objective == CBD_PLAN_POSITION;
    memset(&a, 0, sizeof a);
    /* W48: one analysis per scenario of the others' orders (W49), the plan's orders first */
    cbd_status st = position ? cbd_plan_position_value(c->board, c->req, &plan, c->limits, meter,
                                                       NULL, &income, &err)
                             : cbd_turn_analyze(&turn, c->limits, meter, &a, &err);
    if (st == CBD_OK && c->req->objective == CBD_PLAN_INCOME) {
        /* W32: each bonus's joint chance, analysed again where the marginals do not decide it */
        st = cbdp_plan_income(&turn, c->req, &a, c->limits, meter, &income, &err);
        if (st != CBD_OK) {
            cbd_turn_analysis_free(&a);
        }
    }
    uint64_t spent = meter->work_spent - before;
    cbd_budget_note_child(c->meter.budget, meter, meter->fresh_bytes - fresh_before,
                          meter->heap_blocks - heap_before);
    if (meter == &wide.b) {
        /* charged to the run's share too: past it, the run's next plan stops it (what of it
         * was relayed to the request's budget as it ran is the run's relayed work) */
        cbd_budget_add_spent(&c->meter.search, spent);
        c->meter.request_charged += wide.relayed;
    }
    bool charged = cbd_budget_relay_settle(&c->meter.relay);
    if (st != CBD_OK) {
        return failed(c, st, &err, meter, plan.n_orders);
    }
    /* A charge the request's budget refused to answer what it has (its deadline, its work):
     * this plan, valued, is the search's last; any other refusal ends the request. */
    bool last = !charged && cbdp_plan_answer_stop(c->meter.budget) != CBD_PLAN_STOP_NONE;
    if (!charged && !last) {
        cbd_turn_analysis_free(&a);
        c->meter.status = CBD_ERR_BUDGET;
        *c->meter.err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return EVAL_ERROR;
    }
    *value = c->req->objective == CBD_PLAN_INCOME || position
                 ? income
                 : cbdp_plan_objective_value(c->req, &a);
    c->best.last_aux = position ? *value : goal_sum(c, &a);
    cbd_turn_analysis_free(&a);
    c->best.evaluated++;
    keep(c, s, *value);
    c->meter.stopped |= last;
    return EVAL_DONE;
}

/* FNV-1a over the plan's deploys and its orders in their order (not the idle pairs' places). */
static uint64_t plan_hash(const plan_ctx *c, const plan_state *s) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < c->space.k; i++) {
        h = (h ^ s->d[i]) * UINT64_C(1099511628211);
    }
    for (size_t j = 0; j < c->space.np; j++) {
        uint32_t p = s->seq[j];
        if (s->a[p] > 0) {
            h = (h ^ p) * UINT64_C(1099511628211);
            h = (h ^ s->a[p]) * UINT64_C(1099511628211);
        }
    }
    return h | 1; /* 0 marks an empty slot */
}

/* Records h; false when it was there. A full table records nothing more (plans may then be
 * evaluated twice, which costs time, never a wrong answer: a kept value is always its own). */
static bool first_visit(plan_ctx *c, uint64_t h) {
    size_t mask = c->seen.cap - 1;
    for (size_t i = h & mask, n = 0; n < c->seen.cap; i = (i + 1) & mask, n++) {
        if (c->seen.slots[i] == h) {
            return false;
        }
        if (c->seen.slots[i] == 0) {
            c->seen.slots[i] = h;
            return true;
        }
    }
    return true;
}

eval_result cbdp_plan_try(plan_ctx *c, const plan_state *s, double *value) {
    if (!cbd_charge(&c->meter.search,
                    cbd_work_times(CBD_WORK_SCAN_TERM, 2 * (c->space.k + c->space.np)))) {
        c->meter.stopped = true;
        return EVAL_STOP;
    }
    if (!first_visit(c, plan_hash(c, s))) {
        return EVAL_SEEN;
    }
    return plan_evaluate(c, s, value);
}
