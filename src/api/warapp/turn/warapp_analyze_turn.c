/*
 * POST /analyze-turn: the exact distribution of the board after a War.app turn
 * (W11–W16). The request is read in warapp_turn_json.c; the numbers come from the core
 * (cbd_turn_analyze), which refuses a turn past warapp.max_turn_states before it allocates and
 * charges the request's budget as it works.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/warapp/dist_json.h"
#include "warapp_analyze_turn.h"
#include "warapp_turn_json.h"
#include "warapp_turn_bonus_json.h"
#include "warapp_turn_kinds_json.h"
#include "api/warapp/warapp_units_json.h"

/* The member that decides the answer's size: each territory lists up to this many points. */
#define POINTS_MEMBER "/max_distribution_points"

static const char *const request_keys[] = {CBD_TURN_KEYS, "max_distribution_points", NULL};

/* owner: player -> probability, only owners with probability > 0, players in index order
 * (the order the request first names them), neutral last. */
static void owner_json(cbd_jw *w, const cbd_turn_request *q, const cbd_turn_territory_result *t) {
    size_t np = q->turn.n_players;
    cbd_jw_key(w, "owner");
    cbd_jw_object_open(w);
    for (size_t p = 0; p <= np; p++) {
        if (t->owner[p] > 0.0) {
            cbdp_turn_owner_key(w, q, p == np ? CBD_TURN_NEUTRAL : (cbd_turn_player)p);
            cbd_jw_real(w, t->owner[p]);
        }
    }
    cbd_jw_object_close(w);
}

static void orders_json(cbd_jw *w, const cbd_turn_request *q, const cbd_turn_analysis *a) {
    cbd_jw_key(w, "orders");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        const cbd_turn_api_kind *k = cbdp_turn_api_kind_of(q->orders[i].type);
        cbd_jw_object_open(w);
        cbd_jw_key_string(w, "type", k->name);
        if (k->render_analysis) {
            k->render_analysis(w, &a->orders[i]);
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

/* Each distribution is scanned about a dozen times (listed values, the omitted mass, nine
 * percentiles, the heaviest run), each value read through the view's callbacks: 2 units. Charged
 * as the answer is written, territory by territory (territory_units before each), then each
 * unit's places (unit_units), not at once before it: the 128 wide battles of bench_budget's
 * `analyze-turn 128 wide battles, 100 points` charged 28 · 2^20 units at once and then wrote for
 * some 30 ms of CPU without a progress check, a client gone or a server stopping unseen. */
#define RENDER_VALUE (24 * CBD_WORK_SCAN_TERM)

static uint64_t territory_units(const cbd_turn_analysis *a, size_t i) {
    return cbd_work_times(RENDER_VALUE, a->territories[i].n_armies + a->n_players + 1);
}

/* W21: one unit's places. */
static uint64_t unit_units(const cbd_turn_analysis *a) {
    return cbd_work_times(RENDER_VALUE, a->n_territories + 1);
}

/*
 * W21, W22 (only when the board has units, so that answers without them are as before):
 * "units": id -> {"alive_probability", "territories": {territory -> probability it ends alive
 * there, those above 0}}, in the board's order; "players": player -> {"eliminated_probability"}.
 * Each unit charged before it is written: false once the budget is spent.
 */
static bool units_json(cbd_jw *w, cbd_budget *budget, const cbd_turn_request *q,
                       const cbd_turn_analysis *a) {
    cbd_jw_key(w, "units");
    cbd_jw_object_open(w);
    for (size_t u = 0; u < a->n_units; u++) {
        if (!cbd_charge(budget, unit_units(a))) {
            return false;
        }
        cbd_jw_key(w, q->unit_id[u]);
        cbd_jw_object_open(w);
        cbd_jw_key_real(w, "alive_probability", a->units[u].alive);
        cbd_jw_key(w, "territories");
        cbd_jw_object_open(w);
        for (size_t t = 0; t < a->n_territories; t++) {
            if (a->units[u].territory[t] > 0.0) {
                cbd_jw_key(w, q->territory_id[t]);
                cbd_jw_real(w, a->units[u].territory[t]);
            }
        }
        cbd_jw_object_close(w);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    cbd_jw_key(w, "players");
    cbd_jw_object_open(w);
    for (size_t p = 0; p < a->n_players; p++) {
        cbd_jw_key(w, q->player_id[p]);
        cbd_jw_object_open(w);
        cbd_jw_key_real(w, "eliminated_probability", a->eliminated[p]);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    return true;
}

/* Decimal digits of v. */
static unsigned digits(uint64_t v) {
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/*
 * The fewest bytes the territories' armies distributions can take, from the analysis, before
 * anything is rendered: each listed point (probability >= CBD_LISTED_MIN_PROBABILITY, at most
 * max_points a territory) is at least {"armies":N,"probability":R} and a comma, with N as
 * long as the smallest value listed and R 3 characters or more. A floor, so that an answer
 * refused here could not have fitted.
 */
static double points_floor(const cbd_turn_analysis *a, uint32_t max_points) {
    double bytes = 0;
    for (size_t i = 0; i < a->n_territories; i++) {
        const cbd_turn_territory_result *t = &a->territories[i];
        size_t listed = 0;
        uint64_t smallest = 0;
        for (size_t k = 0; k < t->n_armies; k++) {
            if (t->armies[k].probability >= CBD_LISTED_MIN_PROBABILITY) {
                smallest = listed++ == 0 ? t->armies[k].armies : smallest;
            }
        }
        size_t shown = listed < max_points ? listed : max_points;
        bytes += shown ? (double)shown * (30 + digits(smallest)) - 1 : 0; /* no last comma */
    }
    return bytes;
}

/* W23: the distributions the request gave, echoed point by point. */
static uint64_t echo_units(const cbd_turn_request *q) {
    return cbd_work_times(CBD_WORK_DIST_POINT, cbdp_turn_fog_points(q));
}

/* The territories, each charged before it is written: false once the budget is spent. */
static bool territories_json(cbd_jw *w, cbd_budget *budget, const cbd_turn_request *q,
                             const cbd_turn_analysis *a, uint32_t max_points, size_t *idx) {
    cbd_jw_key(w, "territories");
    cbd_jw_object_open(w);
    for (size_t i = 0; i < a->n_territories; i++) {
        const cbd_turn_territory_result *t = &a->territories[i];
        if (!cbd_charge(budget, territory_units(a, i))) {
            return false;
        }
        cbd_jw_key(w, q->territory_id[i]);
        cbd_jw_object_open(w);
        owner_json(w, q, t);
        cbd_dist_view armies = cbd_dist_view_points(t->armies, t->n_armies, t->mean_armies);
        cbd_dist_json(w, "armies", &armies, max_points, idx);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    return true;
}

/* False when the budget stopped it (the caller discards what was written) or memory failed. */
static bool render(cbd_jw *w, cbd_budget *budget, const cbd_turn_request *q,
                   const cbd_turn_analysis *a, uint32_t max_points) {
    size_t most = 1;
    for (size_t i = 0; i < a->n_territories; i++) {
        most = a->territories[i].n_armies > most ? a->territories[i].n_armies : most;
    }
    size_t *idx = cbd_mem_alloc(budget, most * sizeof *idx);
    if (!idx) {
        return false;
    }
    cbd_jw_object_open(w);
    cbdp_turn_echo_members(w, q);
    cbd_jw_key_bool(w, "deterministic", a->deterministic);
    cbd_jw_blame(w, POINTS_MEMBER);
    bool ok = territories_json(w, budget, q, a, max_points, idx);
    cbd_mem_free(idx);
    if (!ok) {
        return false;
    }
    orders_json(w, q, a);
    if (a->n_units > 0) {
        if (!units_json(w, budget, q, a)) {
            return false;
        }
    }
    if (q->turn.n_goals > 0) {
        cbd_jw_key_real(w, "goals_probability", a->goals_probability);
    }
    if (q->turn.n_bonuses > 0) {
        cbdp_turn_bonuses_json(w, q, a);
    }
    cbd_jw_object_close(w);
    return true;
}

bool cbd_turn_analysis_answer(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                              const cbd_turn_analysis *a, uint32_t max_points, cbd_jw *out,
                              cbd_problem *problem) {
    double floor = points_floor(a, max_points);
    if (floor > (double)cfg->limits.max_answer_bytes) {
        return cbd_api_answer_too_large(cfg, floor, POINTS_MEMBER, problem);
    }
    if (!cbd_charge(budget, echo_units(q))) {
        return cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, POINTS_MEMBER, problem);
    }
    if (!render(out, budget, q, a, max_points)) {
        return cbd_api_core_problem(cfg, budget, cbd_budget_nomem(budget), POINTS_MEMBER, problem);
    }
    return true;
}

bool cbd_api_analyze_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                          cbd_jw *out, cbd_problem *problem) {
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return false;
    }
    cbd_turn_request q;
    bool ok = cbd_turn_read_request(&r, &cfg->warapp, &q) == CBD_READ_OK;
    uint64_t points = cfg->warapp.max_distribution_points;
    ok &= cbd_read_u64(&r, "max_distribution_points", 1, cfg->warapp.max_distribution_points,
                       &points) != CBD_FIELD_BAD;
    if (cbd_api_read_status(ok, problem) != CBD_READ_OK) {
        cbd_turn_request_free(&q);
        return false;
    }
    cbd_turn_analysis a;
    cbd_turn_error err;
    cbd_status st = cbd_turn_analyze(&q.turn, &q.limits, budget, &a, &err);
    if (st == CBD_OK) {
        st = cbd_turn_analyze_bonuses(&q.turn, &q.limits, budget, &a, &err);
        if (st != CBD_OK) {
            cbd_turn_analysis_free(&a);
        }
    }
    if (st != CBD_OK) {
        (void)cbd_turn_core_problem(cfg, budget, &q, st, &err, "/orders", problem);
        cbd_turn_request_free(&q);
        return false;
    }
    ok = cbd_turn_analysis_answer(cfg, budget, &q, &a, (uint32_t)points, out, problem);
    cbd_turn_analysis_free(&a);
    cbd_turn_request_free(&q);
    return ok;
}

/*
 * The estimate the http layer compares with server.inline_cost_ns (api.h). How many board
 * states a turn enumerates is known only while it runs (the budget meters that), so this is a
 * cheap bound from what can be read at once:
 *   - about CBD_TURN_COST_NS_PER_ORDER an order (measured on boards of tens of armies), for
 *     each schedule the random move order weighs: k! for k players with attack orders, at
 *     most 8! (the core's limit);
 *   - with luck, each attack's two kill windows: about 20 standard deviations of a roll of the
 *     board's whole power each (its armies and its units' powers, W18), 10·sqrt(power) + 64
 *     terms of 7 ns (the binomial term and its
 *     fold, budget.h), computed once whatever the schedules.
 * A turn of more than 16 orders, or an attack with luck on a board of more than about 10^8
 * armies and units' power, goes to the worker pool at the default 1 ms. The values are validated
 * when answered.
 */
#define CBD_TURN_COST_NS_PER_ORDER UINT64_C(60000)
#define CBD_TURN_MAX_MOVERS        8

/* The players (at most CBD_TURN_MAX_MOVERS + 1 counted) who give attack/transfer orders, and
 * how many of those orders there are. */
static size_t count_movers(const json_t *orders, size_t *attacks) {
    const char *seen[CBD_TURN_MAX_MOVERS + 1];
    size_t k = 0;
    *attacks = 0;
    for (size_t i = 0; i < json_array_size(orders); i++) {
        const json_t *o = json_array_get(orders, i);
        const char *type = json_string_value(json_object_get(o, "type"));
        const char *player = json_string_value(json_object_get(o, "player"));
        int kind = type ? cbdp_turn_api_kind_named(type) : CBD_ORDER_ATTACK_TRANSFER;
        if (kind < 0 || !cbdp_turn_api_kind_moves((cbd_turn_order_type)kind)) {
            continue;
        }
        ++*attacks;
        bool known = !player;
        for (size_t j = 0; j < k && !known; j++) {
            known = strcmp(seen[j], player) == 0;
        }
        if (!known && k <= CBD_TURN_MAX_MOVERS) {
            seen[k++] = player;
        }
    }
    return k;
}

/* A territory's armies, or the largest count of its distribution (W23); 0 when unreadable. */
static double largest_count(const json_t *a) {
    double most =
        json_is_integer(a) && json_integer_value(a) > 0 ? (double)json_integer_value(a) : 0;
    for (size_t k = 0; json_is_array(a) && k < json_array_size(a); k++) {
        const json_t *n = json_object_get(json_array_get(a, k), "armies");
        double v =
            json_is_integer(n) && json_integer_value(n) > 0 ? (double)json_integer_value(n) : 0;
        most = v > most ? v : most;
    }
    return most;
}

/* The power of a territory's units (W18: a unit rolls its power as that many armies would). */
static double units_power(const json_t *units) {
    double power = 0;
    for (size_t k = 0; json_is_array(units) && k < json_array_size(units); k++) {
        power += (double)cbd_warapp_unit_json_power(json_array_get(units, k));
    }
    return power;
}

/* The board's power: every army and every unit's power on it (capped at 10^9, as W10 caps a
 * valid army count), so a turn whose units carry the power is not estimated as a small one. */
static double board_power(const json_t *request) {
    double total = 0;
    const char *id;
    const json_t *t;
    json_object_foreach((json_t *)json_object_get(request, "territories"), id, t) {
        total +=
            largest_count(json_object_get(t, "armies")) + units_power(json_object_get(t, "units"));
    }
    return total < 1e9 ? total : 1e9;
}

/* W32: the bonuses of two territories or more, each of which may need the turn analysed again
 * for its joint chance (cbd_turn_bonus_chance; one territory is read off the marginals). */
static double joint_bonuses(const json_t *request) {
    double n = 0;
    const char *id;
    const json_t *b;
    json_object_foreach((json_t *)json_object_get(request, "bonuses"), id, b) {
        n += json_array_size(json_object_get(b, "territories")) > 1;
    }
    return n;
}

uint64_t cbd_api_analyze_turn_cost(const cbd_config *cfg, const json_t *request) {
    const json_t *orders = json_object_get(request, "orders");
    if (!json_is_array(orders)) {
        return CBD_COST_BASE_NS;
    }
    size_t attacks;
    size_t movers = count_movers(orders, &attacks);
    const char *move_order = json_string_value(json_object_get(request, "move_order"));
    uint64_t schedules = 1;
    for (size_t k = 2; move_order && strcmp(move_order, "random") == 0 && k <= movers; k++) {
        schedules *= k; /* movers <= 9: at most 9! */
    }
    double cost = (double)CBD_COST_BASE_NS + (double)json_array_size(orders) * (double)schedules *
                                                 (double)CBD_TURN_COST_NS_PER_ORDER;
    const json_t *luck = json_object_get(json_object_get(request, "settings"), "luck_modifier");
    bool lucky = luck ? json_is_number(luck) && json_number_value(luck) > 0
                      : cfg->warapp.defaults.luck_modifier > 0;
    if (lucky) {
        double terms = 10.0 * sqrt(board_power(request)) + 64.0;
        cost += (double)attacks * 2.0 * terms * (double)(CBD_WORK_BINOM_TERM + CBD_WORK_KILL_TERM);
    }
    cost *= 1.0 + joint_bonuses(request);
    return cost < 1e18 ? (uint64_t)cost : UINT64_C(1000000000000000000);
}
