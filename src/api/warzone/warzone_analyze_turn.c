/*
 * POST /warzone/analyze-turn: /analyze-turn's answer for a turn given in the game's JSON
 * (W40), in the game's ids (territories by terrID, owners by playerID and `Neutral`, orders in
 * the request's order with the game's types), plus `bonuses` (each map bonus: the chance that
 * each player owns all its territories at the end, /analyze-turn's own W32 answer for the
 * map's bonuses), `income` (each player's expected MinimumArmyBonus + bonuses owned whole at
 * the end) and `warnings` (W42).
 */
#include <stdlib.h>
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

/*
 * "bonuses": bonusID -> {value, owner: playerID -> chance (those above 0)}, in the map's order,
 * read from /analyze-turn's own `bonuses` (W32: the joint chances are computed there, once); a
 * bonus without territories, which the translation leaves out (W32's has one at least), is
 * nobody's. "income": each player's MinimumArmyBonus plus each bonus's value times its chance.
 */
static bool bonuses_and_income(const cbdp_wz_turn *t, json_t *answer) {
    const json_t *given = json_object_get(answer, "bonuses");
    json_t *bonuses = json_object(), *income = json_object();
    size_t np = json_array_size(t->players);
    double *sum = calloc(np + 1, sizeof *sum);
    bool ok = bonuses && income && sum;
    for (size_t i = 0; ok && i < json_array_size(t->bonuses); i++) {
        const json_t *b = json_array_get(t->bonuses, i);
        const char *id = json_string_value(json_object_get(b, "id"));
        json_int_t value = json_integer_value(json_object_get(b, "value"));
        const json_t *owner = json_object_get(json_object_get(given, id), "owner");
        ok = json_object_set_new(bonuses, id,
                                 json_pack("{s:I,s:o}", "value", value, "owner",
                                           owner ? json_deep_copy(owner) : json_object())) == 0;
        for (size_t p = 0; ok && p < np; p++) {
            const char *pid = json_string_value(json_array_get(t->players, p));
            sum[p] += json_number_value(json_object_get(owner, pid)) * (double)value;
        }
    }
    for (size_t p = 0; ok && p < np; p++) {
        ok = json_object_set_new(income, json_string_value(json_array_get(t->players, p)),
                                 json_real((double)t->base_income + sum[p])) == 0;
    }
    free(sum);
    ok = ok && json_object_set(answer, "bonuses", bonuses) == 0 &&
         json_object_set(answer, "income", income) == 0;
    json_decref(bonuses);
    json_decref(income);
    return ok;
}

static bool game_answer(const cbdp_wz_turn *t, const json_t *request, json_t *answer,
                        cbd_problem *problem) {
    const char *id;
    json_t *terr;
    bool ok = true;
    json_object_foreach(json_object_get(answer, "territories"), id, terr) {
        ok = ok && cbdp_wz_rename_neutral(json_object_get(terr, "owner"));
    }
    ok = ok && game_orders(t, request, answer) && bonuses_and_income(t, answer) &&
         json_object_set(answer, "warnings", t->warnings) == 0;
    return ok || cbd_api_oom_problem(problem);
}

bool cbd_api_warzone_analyze_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                  cbd_jw *out, cbd_problem *problem) {
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return false;
    }
    cbdp_wz_turn t;
    cbd_read_status st = cbdp_wz_read_turn(&r, cfg, true, &t);
    uint64_t points = cfg->warapp.max_distribution_points;
    bool ok = cbd_read_u64(&r, "max_distribution_points", 1, cfg->warapp.max_distribution_points,
                           &points) != CBD_FIELD_BAD &&
              st == CBD_READ_OK;
    json_t *answer = NULL;
    if (ok &&
        json_object_set_new(t.doc, "max_distribution_points", json_integer((json_int_t)points))) {
        ok = cbd_api_oom_problem(problem);
    }
    if (ok && !cbdp_wz_run(cfg, budget, cbd_api_analyze_turn, t.doc, &answer, problem)) {
        cbdp_wz_problem_to_game(&t, problem); /* cbdp_wz_run recorded why */
        ok = false;
    }
    ok = ok && game_answer(&t, request, answer, problem); /* records a 500 when false */
    if (ok) {
        cbd_jw_value(out, answer);
    }
    json_decref(answer);
    cbdp_wz_turn_free(&t);
    return ok;
}

/* The estimate (api.h): /analyze-turn's for each of the turn's orders, once for the turn and
 * once for each bonus of two territories or more, whose joint chance /analyze-turn may analyse
 * the turn again for (W32, as its own estimate counts them), so a large game goes to the worker
 * pool. */
uint64_t cbd_api_warzone_analyze_turn_cost(const cbd_config *cfg, const json_t *request) {
    (void)cfg;
    const json_t *orders = json_object_get(request, "orders");
    const json_t *bonuses = json_object_get(json_object_get(request, "map"), "bonuses");
    double runs = 1.0;
    for (size_t i = 0; i < json_array_size(bonuses); i++) {
        runs += json_array_size(json_object_get(json_array_get(bonuses, i), "territoryIDs")) > 1;
    }
    double cost = (double)CBD_COST_BASE_NS + runs * (double)json_array_size(orders) * 60000.0;
    return cost < 1e18 ? (uint64_t)cost : UINT64_C(1000000000000000000);
}
