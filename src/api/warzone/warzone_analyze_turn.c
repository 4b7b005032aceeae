/*
 * POST /warzone/analyze-turn: /analyze-turn's answer for a turn given in the game's JSON
 * (W40), in the game's ids (territories by terrID, owners by playerID and `Neutral`, orders in
 * the request's order with the game's types), plus `bonuses` (each map bonus: the chance that
 * each player owns all its territories at the end, exact as a goal is, W16), `income` (each
 * player's expected MinimumArmyBonus + bonuses owned whole at the end) and `warnings` (W42).
 */
#include <string.h>

#include "api/endpoint_support.h"
#include "warzone_internal.h"

static const char *const request_keys[] = {CBDP_WZ_TURN_KEYS, "max_distribution_points", NULL};

/* The answer's orders, one per game order: combatd's entry with the game's type, or the
 * game's type and "ignored": true for an order without effect this turn (W29, W40). */
static bool game_orders(const cbdp_wz_turn *t, const json_t *request, json_t *answer) {
    json_t *given = json_object_get(answer, "orders");
    json_t *orders = json_array();
    bool ok = orders != NULL;
    for (size_t i = 0; ok && i < json_array_size(t->order_at); i++) {
        const json_t *at = json_array_get(t->order_at, i);
        const char *type = cbdp_wz_game_type(request, i);
        json_t *e = json_is_integer(at)
                        ? json_incref(json_array_get(given, (size_t)json_integer_value(at)))
                        : json_pack("{s:s,s:b}", "type", type, "ignored", 1);
        ok = e && json_object_set_new(e, "type", json_string(type)) == 0 &&
             json_array_append_new(orders, e) == 0;
    }
    return ok && json_object_set_new(answer, "orders", orders) == 0;
}

/* The chance that player p owns every territory of bonus b at the end: 1 or 0 when the
 * marginals decide it, else the analysis of the turn with those territories as goals. */
static bool bonus_chance(const cbd_config *cfg, cbd_budget *budget, const cbdp_wz_turn *t,
                         const json_t *terrs, const json_t *b, const char *p, double *out,
                         cbd_problem *problem) {
    const json_t *list = json_object_get(b, "territories");
    bool certain = true;
    *out = 0;
    for (size_t k = 0; k < json_array_size(list); k++) {
        const char *tid = json_string_value(json_array_get(list, k));
        double m = json_number_value(
            json_object_get(json_object_get(json_object_get(terrs, tid), "owner"), p));
        if (m <= 0) {
            return true;
        }
        certain = certain && m >= 1.0;
    }
    if (certain || json_array_size(list) == 0) {
        *out = json_array_size(list) > 0 ? 1.0 : 0.0;
        return true;
    }
    json_t *doc = json_deep_copy(t->doc), *goals = json_array(), *answer = NULL;
    bool ok = doc && goals && json_object_set_new(doc, "goals", goals) == 0 &&
              json_object_set_new(doc, "max_distribution_points", json_integer(1)) == 0;
    for (size_t k = 0; ok && k < json_array_size(list); k++) {
        ok = json_array_append_new(goals, json_pack("{s:O,s:s}", "territory",
                                                    json_array_get(list, k), "owner", p)) == 0;
    }
    ok = ok ? cbdp_wz_run(cfg, budget, cbd_api_analyze_turn, doc, &answer, problem)
            : cbd_api_oom_problem(problem);
    *out = ok ? json_number_value(json_object_get(answer, "goals_probability")) : 0;
    json_decref(answer);
    json_decref(doc);
    return ok;
}

/* "bonuses": bonusID -> {value, owner: playerID -> chance (those above 0)}; "income". */
static bool bonuses_and_income(const cbd_config *cfg, cbd_budget *budget, const cbdp_wz_turn *t,
                               json_t *answer, cbd_problem *problem) {
    const json_t *terrs = json_object_get(answer, "territories");
    json_t *bonuses = json_object(), *income = json_object();
    bool ok = bonuses && income && json_object_set_new(answer, "bonuses", bonuses) == 0 &&
              json_object_set_new(answer, "income", income) == 0;
    double *sum = ok ? calloc(json_array_size(t->players) + 1, sizeof *sum) : NULL;
    ok = ok && sum;
    for (size_t i = 0; ok && i < json_array_size(t->bonuses); i++) {
        const json_t *b = json_array_get(t->bonuses, i);
        json_int_t value = json_integer_value(json_object_get(b, "value"));
        json_t *owner = json_object();
        ok = owner &&
             json_object_set_new(bonuses, json_string_value(json_object_get(b, "id")),
                                 json_pack("{s:I,s:o}", "value", value, "owner", owner)) == 0;
        for (size_t p = 0; ok && p < json_array_size(t->players); p++) {
            const char *pid = json_string_value(json_array_get(t->players, p));
            double chance = 0;
            ok = bonus_chance(cfg, budget, t, terrs, b, pid, &chance, problem);
            ok = ok && (chance <= 0 || json_object_set_new(owner, pid, json_real(chance)) == 0);
            sum[p] += chance * (double)value;
        }
    }
    for (size_t p = 0; ok && p < json_array_size(t->players); p++) {
        ok = json_object_set_new(income, json_string_value(json_array_get(t->players, p)),
                                 json_real((double)t->base_income + sum[p])) == 0;
    }
    free(sum);
    return ok;
}

static bool game_answer(const cbd_config *cfg, cbd_budget *budget, const cbdp_wz_turn *t,
                        const json_t *request, json_t *answer, cbd_problem *problem) {
    const char *id;
    json_t *terr;
    bool ok = true;
    json_object_foreach(json_object_get(answer, "territories"), id, terr) {
        ok = ok && cbdp_wz_rename_neutral(json_object_get(terr, "owner"));
    }
    ok = ok && game_orders(t, request, answer);
    if (!ok) {
        return cbd_api_oom_problem(problem);
    }
    if (!bonuses_and_income(cfg, budget, t, answer, problem)) {
        if (problem->status == 0) {
            return cbd_api_oom_problem(problem);
        }
        cbdp_wz_problem_to_game(t, problem);
        return false;
    }
    return json_object_set(answer, "warnings", t->warnings) == 0 || cbd_api_oom_problem(problem);
}

bool cbd_api_warzone_analyze_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                  cbd_jw *out, cbd_problem *problem) {
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return false;
    }
    cbdp_wz_turn t;
    bool ok = cbdp_wz_read_turn(&r, cfg, true, &t);
    uint64_t points = cfg->warapp.max_distribution_points;
    ok &= cbd_read_u64(&r, "max_distribution_points", 1, cfg->warapp.max_distribution_points,
                       &points) != CBD_FIELD_BAD;
    json_t *answer = NULL;
    ok = ok && problem->status == 0 &&
         json_object_set_new(t.doc, "max_distribution_points", json_integer((json_int_t)points)) ==
             0;
    if (ok && !cbdp_wz_run(cfg, budget, cbd_api_analyze_turn, t.doc, &answer, problem)) {
        cbdp_wz_problem_to_game(&t, problem);
        ok = false;
    }
    ok = ok && game_answer(cfg, budget, &t, request, answer, problem);
    if (ok) {
        cbd_jw_value(out, answer);
    } else if (problem->status == 0) {
        ok = cbd_api_oom_problem(problem);
    }
    json_decref(answer);
    cbdp_wz_turn_free(&t);
    return ok;
}

/* The estimate (api.h): /analyze-turn's for each of the turn's orders, once for the turn and
 * once for each bonus that may need a goal's analysis, so a large game goes to the worker pool. */
uint64_t cbd_api_warzone_analyze_turn_cost(const cbd_config *cfg, const json_t *request) {
    (void)cfg;
    const json_t *orders = json_object_get(request, "orders");
    const json_t *bonuses = json_object_get(json_object_get(request, "map"), "bonuses");
    double runs = 1.0 + (double)json_array_size(bonuses);
    double cost = (double)CBD_COST_BASE_NS + runs * (double)json_array_size(orders) * 60000.0;
    return cost < 1e18 ? (uint64_t)cost : UINT64_C(1000000000000000000);
}
