/*
 * The plan members of a /plan-turn request (W31): the planning player, the income, the goal and
 * the objective, and what the turn must be for a plan (a map, W24; the player's armies known,
 * W23; only the other players' orders).
 */
#include "warapp_plan_json.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"

#include "api/warapp/turn/warapp_turn_ids.h"
#include "api/warapp/turn/warapp_turn_kinds_json.h"

static const char *const goal_keys[] = {"capture", "hold", "bonuses", NULL};
static const char *const objective_names[] = {"all", "expected", "income", "position", NULL};

const char *cbdp_plan_objective_name(cbd_plan_objective o) {
    return objective_names[o <= CBD_PLAN_POSITION ? o : 0];
}

/* The player: one of the turn's, owning a territory at the start (W31: deploys go there). */
static bool read_player(const cbd_reader *r, const cbd_turn_request *q, cbd_plan_read *out) {
    const char *id;
    if (!cbd_turn_read_id(r, "player", true, &id)) {
        return false;
    }
    int p = cbd_turn_find_player(q, id);
    bool owns = false;
    for (size_t t = 0; p >= 0 && t < q->turn.n_territories; t++) {
        owns |= q->territories[t].owner == (cbd_turn_player)p;
    }
    if (!owns) {
        cbd_reader_error(r, "player",
                         "must own a territory of the board: a plan deploys onto the "
                         "player's territories and moves from them (W31)");
        return false;
    }
    out->req.player = (cbd_turn_player)p;
    return true;
}

/* One list of goal territories: ids of the board, none twice in the goal; `hold` ones owned by
 * the player at the start. */
static bool read_goal_list(const cbd_reader *g, const char *key, const cbd_turn_request *q,
                           cbd_plan_read *out) {
    const json_t *list;
    cbd_field f = cbd_read_array(g, key, q->turn.n_territories, &list);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    bool ok = true, hold = strcmp(key, "hold") == 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        const json_t *v = json_array_get(list, i);
        int64_t t = json_is_string(v) ? cbd_turn_find_territory(q, json_string_value(v)) : -1;
        bool again = false;
        for (size_t j = 0; t >= 0 && j < out->req.n_goals; j++) {
            again |= out->goals[j] == (uint32_t)t;
        }
        if (t < 0) {
            cbd_reader_item_error(g, key, i, "must be the id of a territory of this board");
        } else if (again) {
            cbd_reader_item_error(g, key, i, "is in the goal already");
        } else if (hold && q->territories[t].owner != out->req.player) {
            cbd_reader_item_error(g, key, i,
                                  "is not the player's: hold lists territories the player owns "
                                  "(capture the others)");
        } else {
            out->goals[out->req.n_goals++] = (uint32_t)t;
            continue;
        }
        ok = false;
    }
    return ok;
}

/* goal.bonuses: ids of the board's bonuses (W32), none twice; their indices into which[]. */
static bool read_goal_bonuses(const cbd_reader *g, const cbd_turn_request *q, size_t *which,
                              size_t *n) {
    const json_t *list;
    *n = 0;
    /* up to the board's size rather than its bonuses, so that each unknown id is named */
    cbd_field f = cbd_read_array(g, "bonuses", q->limits.max_territories, &list);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(list); i++) {
        const json_t *v = json_array_get(list, i);
        const char *id = json_is_string(v) ? json_string_value(v) : NULL;
        size_t b = 0;
        while (id && b < q->turn.n_bonuses && strcmp(q->bonus_id[b], id) != 0) {
            b++;
        }
        bool again = false;
        for (size_t j = 0; j < *n; j++) {
            again |= which[j] == b;
        }
        if (!id || b == q->turn.n_bonuses) {
            cbd_reader_item_error(g, "bonuses", i,
                                  "must be the id of a bonus of this board's `bonuses` (W32)");
            ok = false;
        } else if (again) {
            cbd_reader_item_error(g, "bonuses", i, "is in the goal already");
            ok = false;
        } else {
            which[(*n)++] = b;
        }
    }
    return ok;
}

/* The bonuses' territories join the goals (W32: capture what the player lacks of each, hold
 * what it has), each once; under `income` the bonuses are the ones valued. */
static bool bonus_goals(const cbd_turn_request *q, size_t nb, cbd_plan_read *out) {
    for (size_t k = 0; k < nb; k++) {
        const cbd_turn_bonus *b = &q->bonuses[out->bonus_index[k]];
        for (size_t i = 0; i < b->n_territories; i++) {
            bool again = false;
            for (size_t j = 0; j < out->req.n_goals; j++) {
                again |= out->goals[j] == b->territories[i];
            }
            if (!again) {
                out->goals[out->req.n_goals++] = b->territories[i];
            }
        }
    }
    if (out->req.objective != CBD_PLAN_INCOME) {
        return true;
    }
    out->bonuses = calloc(nb + 1, sizeof *out->bonuses);
    if (!out->bonuses) {
        return false;
    }
    for (size_t k = 0; k < nb; k++) {
        out->bonuses[k] = q->bonuses[out->bonus_index[k]];
    }
    out->req.bonuses = out->bonuses;
    out->req.n_bonuses = nb;
    return true;
}

/* goal: {capture: [ids], hold: [ids], bonuses: [ids]}, one territory at least; under `income`
 * bonuses only, and the goal may be left out (every bonus of the board is valued). */
static bool read_goal(const cbd_reader *r, const cbd_turn_request *q, cbd_plan_read *out) {
    bool income = out->req.objective == CBD_PLAN_INCOME;
    cbd_reader g;
    cbd_field f = cbd_read_object(r, "goal", goal_keys, &g);
    if (f == CBD_FIELD_BAD || (f == CBD_FIELD_ABSENT && !income)) {
        if (f == CBD_FIELD_ABSENT) {
            cbd_reader_error(r, "goal",
                             "is required: {\"capture\": [territory ids], \"hold\": "
                             "[territory ids], \"bonuses\": [bonus ids]}, one at least");
        }
        return false;
    }
    size_t nb = 0;
    bool listed = f == CBD_FIELD_OK && cbd_reader_member(&g, "bonuses");
    bool ok = true;
    if (f == CBD_FIELD_OK) {
        ok = read_goal_list(&g, "capture", q, out);
        out->n_capture = out->req.n_goals;
        ok &= read_goal_list(&g, "hold", q, out);
        if (income && out->req.n_goals > 0) {
            cbd_reader_error(r, "goal",
                             "under objective \"income\" lists bonuses only (goal.bonuses, "
                             "W32): income counts whole bonuses, not territories");
            ok = false;
        }
        ok &= read_goal_bonuses(&g, q, out->bonus_index, &nb);
    }
    if (!ok) {
        return false;
    }
    if (income && !listed) {
        for (nb = 0; nb < q->turn.n_bonuses; nb++) {
            out->bonus_index[nb] = nb;
        }
    }
    if (income && nb == 0) {
        cbd_reader_error(r, "objective",
                         "is \"income\", which values the board's bonuses (W32): give "
                         "`bonuses`, one at least");
        return false;
    }
    if (!bonus_goals(q, nb, out)) {
        return cbd_api_oom_problem(r->problem);
    }
    if (out->req.n_goals == 0) {
        cbd_reader_error(r, "goal",
                         "lists no territory: give capture, hold or bonuses one at least");
        return false;
    }
    return true;
}

/* W24: every territory lists its neighbours (possibly none), so that the plan's moves are the
 * map's. */
static bool check_map(const cbd_reader *r, const cbd_turn_request *q) {
    cbd_reader terr;
    cbd_reader_at(&terr, r, "territories");
    bool ok = true;
    for (size_t t = 0; t < q->turn.n_territories; t++) {
        const json_t *v = json_object_get(terr.obj, q->territory_id[t]);
        if (!json_object_get(v, "neighbors")) {
            cbd_reader t_at;
            cbd_reader_at(&t_at, &terr, q->territory_id[t]);
            cbd_reader_error(&t_at, "neighbors",
                             "is required on /plan-turn: the territories this one borders "
                             "(W24), [] for none");
            ok = false;
        }
    }
    return ok;
}

/* The player's orders are the plan's: the request gives only the others' (W31); and the
 * player's own armies must be known (W23), since a plan sends a number of them. */
static bool check_player(const cbd_reader *r, const cbd_turn_request *q, cbd_turn_player p) {
    bool ok = true;
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        if (q->orders[i].player == p) {
            cbd_reader item;
            cbd_reader_at_item(&item, r, "orders", i);
            cbd_reader_error(&item, "player",
                             "is the planning player: /plan-turn makes that player's orders; "
                             "give only the other players' here");
            ok = false;
        }
    }
    cbd_reader terr;
    cbd_reader_at(&terr, r, "territories");
    for (size_t t = 0; q->turn.fog && t < q->turn.n_territories; t++) {
        if (q->territories[t].owner == p && q->fog[t].n > 0) {
            cbd_reader t_at;
            cbd_reader_at(&t_at, &terr, q->territory_id[t]);
            cbd_reader_error(&t_at, "armies",
                             "must be a number on the planning player's territory: a plan sends "
                             "whole armies from it (W23 is for others' armies)");
            ok = false;
        }
    }
    return ok;
}

/* W10: the board's armies with the income at most 10^9. */
static bool check_income(const cbd_reader *r, const cbd_turn_request *q, uint64_t income) {
    uint64_t total = income;
    for (size_t t = 0; t < q->turn.n_territories; t++) {
        total += q->territories[t].armies;
    }
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        total += q->orders[i].type == CBD_ORDER_DEPLOY ? q->orders[i].armies : 0;
    }
    if (total > CBD_WARAPP_MAX_ARMIES) {
        cbd_reader_error(r, "income",
                         "with the board's armies makes %" PRIu64 "; a board holds at most 10^9 "
                         "armies (W10)",
                         total);
        return false;
    }
    return true;
}

cbd_read_status cbdp_plan_read_request(const cbd_reader *r, const cbd_warapp_config *cfg,
                                       const cbd_turn_request *q, cbd_plan_read *out) {
    memset(out, 0, sizeof *out);
    out->req.max_plans = CBD_PLAN_DEFAULT_MAX_PLANS;
    out->goals = calloc(q->turn.n_territories + 1, sizeof *out->goals);
    out->bonus_index = calloc(q->turn.n_bonuses + 1, sizeof *out->bonus_index);
    if (!out->goals || !out->bonus_index) {
        return cbd_api_read_status(cbd_api_oom_problem(r->problem), r->problem);
    }
    out->req.goals = out->goals;
    bool ok = check_map(r, q);
    bool player = read_player(r, q, out);
    ok &= player;
    cbd_field f = cbd_read_u64(r, "income", 0, cfg->army_cap, &out->req.income);
    if (f == CBD_FIELD_ABSENT) {
        cbd_reader_error(r, "income", "is required: the armies the player deploys (W31), >= 0");
    }
    ok &= f == CBD_FIELD_OK && check_income(r, q, out->req.income);
    int objective = CBD_PLAN_ALL;
    ok &= cbd_read_enum(r, "objective", objective_names, &objective) != CBD_FIELD_BAD;
    out->req.objective = (cbd_plan_objective)objective;
    ok &= cbd_read_u64(r, "max_plans", 1, CBD_PLAN_MAX_PLANS, &out->req.max_plans) != CBD_FIELD_BAD;
    if (player && out->req.objective != CBD_PLAN_POSITION) {
        /* (W48: position takes no goal, warapp_plan_position_json.c) */
        ok &= read_goal(r, q, out);
    }
    if (player) {
        ok &= check_player(r, q, out->req.player);
    }
    return cbd_api_read_status(ok, r->problem);
}

void cbdp_plan_read_free(cbd_plan_read *p) {
    free(p->goals);
    free(p->bonuses);
    free(p->bonus_index);
    memset(p, 0, sizeof *p);
}

/* Each plan's orders as /analyze-turn takes them. */
void cbdp_plan_orders_json(cbd_jw *w, const cbd_turn_request *q, const cbd_plan *p) {
    cbd_jw_key(w, "orders");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < p->n_orders; i++) {
        const cbd_turn_order *o = &p->orders[i];
        cbd_jw_object_open(w);
        bool deploy = o->type == CBD_ORDER_DEPLOY;
        cbd_jw_key_string(w, "type", cbd_turn_api_kind_name(o->type));
        cbd_jw_key_string(w, "player", q->player_id[o->player]);
        if (!deploy) {
            cbd_jw_key_string(w, "from", q->territory_id[o->from]);
        }
        cbd_jw_key_string(w, "to", q->territory_id[o->to]);
        cbd_jw_key_uint(w, "armies", o->armies);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}
