/*
 * /plan-turn's `objective: "position"` (W48, W49): its members (`base_income`, `incomes`, the
 * scenarios of the others' orders) and its answer: the plan, its value (the weighted mean of
 * the scenarios' values, each from its own exact analysis), `scenarios` with each one's name,
 * weight and value, `warnings` (incomes estimated, fog), and `analysis` the turn of the plan's
 * orders, the request's and the first scenario's.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"
#include "api/warapp/turn/warapp_analyze_turn.h"
#include "api/warapp/turn/warapp_turn_ids.h"
#include "combatd/warapp_plan_position.h"
#include "warapp_plan_position_json.h"

static const char *const position_members[] = {"base_income", "incomes", "others", NULL};

bool cbdp_plan_position_members_absent(const cbd_reader *r) {
    bool ok = true;
    for (size_t i = 0; position_members[i]; i++) {
        if (cbd_reader_member(r, position_members[i])) {
            cbd_reader_error(r, position_members[i],
                             "is read under objective \"position\" only (W48, W49)");
            ok = false;
        }
    }
    return ok;
}

/* incomes: player id -> that player's income this turn (W49), the planning player's being
 * `income`. */
static bool read_incomes(const cbd_reader *r, const cbd_warapp_config *cfg,
                         const cbd_turn_request *q, cbd_turn_player player, uint64_t *incomes,
                         bool *given) {
    cbd_reader m;
    cbd_field f = cbd_read_map(r, "incomes", &m);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    bool ok = true;
    const char *id;
    const json_t *v;
    json_object_foreach((json_t *)m.obj, id, v) {
        int p = cbd_turn_find_player(q, id);
        if (p < 0) {
            cbd_reader_error(&m, id, "must be a player of the board (an owner or an order's)");
            ok = false;
        } else if ((cbd_turn_player)p == player) {
            cbd_reader_error(&m, id,
                             "is the planning player: its income is `income`; `incomes` gives "
                             "the others' (W49)");
            ok = false;
        } else if (cbd_read_u64(&m, id, 0, cfg->army_cap, &incomes[p]) == CBD_FIELD_OK) {
            given[p] = true;
        } else {
            ok = false;
        }
    }
    return ok;
}

/* A warning, as text. */
static bool warn(cbdp_plan_position *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool warn(cbdp_plan_position *p, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return json_array_append_new(p->warnings, json_string(text)) == 0;
}

/* W49: the default scenarios, "hold" and "strike" at 1/2 each; "given" (no orders) when no
 * player is modelled. The incomes the request leaves out are estimated, and said. */
static bool default_scenarios(const cbd_turn_request *q, const cbd_plan_read *pr,
                              cbdp_plan_position *p, const bool *given, size_t *n) {
    const cbd_turn *b = &q->turn;
    for (uint32_t o = 0; o < b->n_players; o++) {
        if (given[o] || !cbd_plan_modelled(b, pr->req.player, (cbd_turn_player)o)) {
            continue;
        }
        p->incomes[o] = cbd_plan_estimated_income(b, (cbd_turn_player)o, pr->req.base_income);
        if (!warn(p,
                  "/incomes: player %s's income is taken as %" PRIu64 ", base_income %" PRIu64
                  " plus the bonuses it owns whole at the start; give it in `incomes` (W49)",
                  q->player_id[o], p->incomes[o], pr->req.base_income)) {
            return false;
        }
    }
    size_t room = b->n_territories + 2 * (size_t)b->n_players + 1;
    p->hold = calloc(room, sizeof *p->hold);
    p->strike = calloc(room, sizeof *p->strike);
    if (!p->hold || !p->strike) {
        return false;
    }
    size_t nh, ns;
    if (cbd_plan_default_scenarios(b, pr->req.player, p->incomes, p->hold, &nh, p->strike, &ns) ==
        0) {
        p->scenarios[0] = (cbd_plan_scenario){1.0, 0, NULL};
        snprintf(p->names[0], sizeof p->names[0], "given");
        *n = 1;
        return true;
    }
    p->scenarios[0] = (cbd_plan_scenario){0.5, nh, p->hold};
    p->scenarios[1] = (cbd_plan_scenario){0.5, ns, p->strike};
    snprintf(p->names[0], sizeof p->names[0], "hold");
    snprintf(p->names[1], sizeof p->names[1], "strike");
    *n = 2;
    return true;
}

/* The scenarios: the request's `others` (named others/i), else the default ones. */
static bool scenarios_of(const cbd_turn_request *q, const cbd_plan_others *o, cbd_plan_read *pr,
                         const bool *given) {
    cbdp_plan_position *p = pr->position;
    size_t n = o->n_others;
    for (size_t i = 0; i < n; i++) {
        p->scenarios[i] = (cbd_plan_scenario){o->weight[i], o->off[i + 1] - o->off[i],
                                              q->orders + o->n_own + o->off[i]};
        snprintf(p->names[i], sizeof p->names[i], "others/%u", (unsigned)i);
    }
    if (n == 0 && !default_scenarios(q, pr, p, given, &n)) {
        return false;
    }
    pr->req.scenarios = p->scenarios;
    pr->req.n_scenarios = n;
    for (size_t t = 0; q->turn.fog && t < q->turn.n_territories; t++) {
        if (q->turn.fog[t].n > 0) {
            return warn(p, "/territories: armies given as distributions are valued as such, every "
                           "count with its chance (W23); the strike scenario sends the largest");
        }
    }
    return true;
}

bool cbdp_plan_position_read(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_turn_request *q,
                             const cbd_plan_others *o, cbd_plan_read *pr) {
    cbdp_plan_position *p = calloc(1, sizeof *p);
    pr->position = p;
    bool *given = calloc(q->turn.n_players + 1, sizeof *given);
    if (!p || !given || !(p->incomes = calloc(q->turn.n_players + 1, sizeof *p->incomes)) ||
        !(p->warnings = json_array())) {
        free(given);
        return cbd_api_oom_problem(r->problem);
    }
    bool ok = true;
    if (cbd_reader_member(r, "goal")) {
        cbd_reader_error(r, "goal",
                         "is not taken under objective \"position\": its value is the player's "
                         "standing on the whole board (W48); leave the goal out");
        ok = false;
    }
    pr->req.base_income = CBD_PLAN_DEFAULT_BASE_INCOME;
    ok &= cbd_read_u64(r, "base_income", 0, cfg->army_cap, &pr->req.base_income) != CBD_FIELD_BAD;
    ok &= read_incomes(r, cfg, q, pr->req.player, p->incomes, given);
    if (ok) {
        /* the scenarios' orders stay in q->orders past the request's own */
        q->turn.n_orders = o->n_own;
        pr->req.n_goals = cbd_plan_position_goals(&q->turn, pr->req.player, pr->goals);
        if (!scenarios_of(q, o, pr, given)) {
            ok = cbd_api_oom_problem(r->problem);
        }
    }
    free(given);
    return ok;
}

void cbdp_plan_position_free(cbdp_plan_position *p) {
    if (p) {
        free(p->hold);
        free(p->strike);
        free(p->incomes);
        json_decref(p->warnings);
        free(p);
    }
}

/* A plan's value and its scenarios' (a budget's stop names /max_plans, the search's size). */
static bool value_of(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                     const cbd_plan_read *pr, const cbd_plan *plan, double *per, double *value,
                     cbd_problem *problem) {
    cbd_turn_error err;
    cbd_status st =
        cbd_plan_position_value(&q->turn, &pr->req, plan, &q->limits, budget, per, value, &err);
    if (st != CBD_OK) {
        err.index = CBD_TURN_NO_ORDER; /* an order of the plan's turn, not of the request */
        return cbd_turn_core_problem(cfg, budget, q, st, &err, "/max_plans", problem);
    }
    return true;
}

/* "analysis": the turn of the plan's orders, the request's and the first scenario's. */
static bool analysis_json(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                          const cbd_plan_read *pr, const cbd_plan *plan, cbd_jw *out,
                          cbd_problem *problem) {
    const cbd_plan_scenario *sc = &pr->req.scenarios[0];
    cbd_turn_request pq = *q;
    size_t n = 0;
    pq.orders = calloc(plan->n_orders + q->turn.n_orders + sc->n_orders + 1, sizeof *pq.orders);
    if (!pq.orders) {
        return cbd_api_oom_problem(problem);
    }
    memcpy(pq.orders, plan->orders, plan->n_orders * sizeof *pq.orders);
    n += plan->n_orders;
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        pq.orders[n++] = q->turn.orders[i];
    }
    for (size_t i = 0; i < sc->n_orders; i++) {
        pq.orders[n++] = sc->orders[i];
    }
    pq.turn.orders = pq.orders;
    pq.turn.n_orders = n;
    pq.turn.n_goals = 0;
    cbd_turn_analysis a;
    cbd_turn_error err;
    cbd_status st = cbd_turn_analyze(&pq.turn, &pq.limits, budget, &a, &err);
    if (st == CBD_OK) {
        st = cbd_turn_analyze_bonuses(&pq.turn, &pq.limits, budget, &a, &err);
        if (st != CBD_OK) {
            cbd_turn_analysis_free(&a);
        }
    }
    bool ok;
    if (st != CBD_OK) {
        err.index = CBD_TURN_NO_ORDER;
        ok = cbd_turn_core_problem(cfg, budget, q, st, &err, "/max_plans", problem);
    } else {
        cbd_jw_key(out, "analysis");
        ok = cbd_turn_analysis_answer(cfg, budget, &pq, &a, cfg->warapp.max_distribution_points,
                                      out, problem);
        cbd_turn_analysis_free(&a);
    }
    free(pq.orders);
    return ok;
}

/* "scenarios": each one's name, weight (normalised) and value for the plan. */
static void scenarios_json(cbd_jw *out, const cbd_plan_read *pr, const double *per) {
    double total = 0;
    for (size_t s = 0; s < pr->req.n_scenarios; s++) {
        total += pr->req.scenarios[s].weight;
    }
    cbd_jw_key(out, "scenarios");
    cbd_jw_array_open(out);
    for (size_t s = 0; s < pr->req.n_scenarios; s++) {
        cbd_jw_object_open(out);
        cbd_jw_key_string(out, "name", pr->position->names[s]);
        cbd_jw_key(out, "weight");
        cbd_jw_real_exact(out, pr->req.scenarios[s].weight / total);
        cbd_jw_key(out, "value");
        cbd_jw_real_exact(out, per[s]);
        cbd_jw_object_close(out);
    }
    cbd_jw_array_close(out);
}

bool cbdp_plan_position_render(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                               const cbd_plan_read *pr, const cbd_plan_result *res, cbd_jw *out,
                               cbd_problem *problem) {
    double per[CBD_PLAN_MAX_SCENARIOS], value;
    if (!value_of(cfg, budget, q, pr, &res->best, per, &value, problem)) {
        return false;
    }
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "player", q->player_id[pr->req.player]);
    cbd_jw_key_string(out, "objective", cbdp_plan_objective_name(pr->req.objective));
    cbdp_plan_orders_json(out, q, &res->best);
    cbd_jw_key(out, "value");
    cbd_jw_real_exact(out, value);
    cbd_jw_key_bool(out, "optimal", res->optimal);
    if (cbd_plan_stop_name(res->stopped_by)) { /* absent when nothing stopped it */
        cbd_jw_key_string(out, "stopped_by", cbd_plan_stop_name(res->stopped_by));
    }
    cbd_jw_key_uint(out, "plans_evaluated", res->plans_evaluated);
    cbd_jw_key_uint(out, "plans_bounded", res->plans_bounded);
    scenarios_json(out, pr, per);
    cbd_jw_key(out, "warnings");
    cbd_jw_value(out, pr->position->warnings);
    cbd_jw_key(out, "alternatives");
    cbd_jw_array_open(out);
    bool ok = true;
    for (size_t i = 0; ok && i < res->n_alternatives; i++) {
        double alt[CBD_PLAN_MAX_SCENARIOS], v;
        ok = value_of(cfg, budget, q, pr, &res->alternatives[i], alt, &v, problem);
        if (ok) {
            cbd_jw_object_open(out);
            cbdp_plan_orders_json(out, q, &res->alternatives[i]);
            cbd_jw_key(out, "value");
            cbd_jw_real_exact(out, v);
            cbd_jw_object_close(out);
        }
    }
    cbd_jw_array_close(out);
    ok = ok && analysis_json(cfg, budget, q, pr, &res->best, out, problem);
    cbd_jw_object_close(out);
    return ok;
}
