/*
 * POST /warzone/plan-turn: /plan-turn's best orders (W31) for `playerID` on a turn in the
 * game's JSON (W40), answered as the bot API's SendOrdersBotGame takes them (GameOrderDeploy,
 * GameOrderAttackTransfer with numArmies a string), with /plan-turn's `value` and `optimal`.
 * The goal: `goal.territories` (terrIDs: the player's are held, the others captured) and
 * `goal.bonuses` (bonus ids, passed on as /plan-turn's goal.bonuses over the map's bonuses,
 * W32); `objective` is /plan-turn's (`all`, `expected`, `income`: the most expected income
 * from the map's bonuses, W32, W35).
 * `income` (armies) defaults to gameInfo.incomes' freeArmies, else MinimumArmyBonus plus the
 * bonuses the player owns whole at the start.
 * `send_orders` is the whole SendOrdersBotGame body, ready to POST: the game's SDK writes
 * gameID, playerID and turnNumber as integers (C#'s int), so they are integers here whatever
 * type the request gave them in; when one is not known the body is left out with a warning
 * (a body the AI server would refuse is no help).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"
#include "api/warapp/turn/warapp_turn_kinds_json.h"
#include "warzone_internal.h"
#include "warzone_position.h"

static const char *const request_keys[] = {CBDP_WZ_TURN_KEYS, "playerID",  "goal",     "objective",
                                           "income",          "max_plans", "max_work", "gameID",
                                           "others",          NULL};

/* The largest id SendOrdersBotGame takes: the SDK casts gameID, playerID and turnNumber to a
 * C# int. */
#define SEND_ID_MAX UINT64_C(2147483647)

/* SendOrdersBotGame's integers, read before the plan is made so that a bad one is a 422 with
 * the turn's others. */
typedef struct {
    uint64_t game_id, player_id, turn_number;
    const char *missing; /* what is not known (the body is then left out), or NULL */
} send_ids;

/* terrID tid into capture or hold, as `player` owns it at the start. A territory given twice
 * is a 422, as /plan-turn's goal refuses one (W31): the caller may have meant another. */
static bool add_goal(const cbd_reader *gr, size_t at, const cbdp_wz_turn *t, const char *player,
                     const char *tid, json_t *capture, json_t *hold) {
    const json_t *terr = json_object_get(json_object_get(t->doc, "territories"), tid);
    const char *owner = json_string_value(json_object_get(terr, "owner"));
    json_t *list = owner && strcmp(owner, player) == 0 ? hold : capture;
    for (size_t i = 0; i < json_array_size(list); i++) {
        if (strcmp(json_string_value(json_array_get(list, i)), tid) == 0) {
            cbd_reader_item_error(gr, "territories", at, "repeats territory %s", tid);
            return false;
        }
    }
    return json_array_append_new(list, json_string(tid)) == 0;
}

/* goal.bonuses as /plan-turn's goal.bonuses (W32), in the request's order so that the core's
 * pointers are the game's: map bonus ids as text. */
static bool goal_bonuses(const cbd_reader *gr, const cbdp_wz_turn *t, const json_t *list,
                         json_t *goal) {
    json_t *ids = json_array();
    bool ok = ids && json_object_set_new(goal, "bonuses", ids) == 0;
    char id[CBDP_WZ_ID_MAX];
    for (size_t i = 0; ok && i < json_array_size(list); i++) {
        const json_t *at =
            cbdp_wz_id_text(json_array_get(list, i), id) ? json_object_get(t->bonus_at, id) : NULL;
        const json_t *b = at ? json_array_get(t->bonuses, (size_t)json_integer_value(at)) : NULL;
        if (!b) {
            cbd_reader_item_error(gr, "bonuses", i, "must be a bonus id of the map");
            ok = false;
        } else if (json_array_size(json_object_get(b, "territories")) == 0) {
            cbd_reader_item_error(gr, "bonuses", i,
                                  "has no territory: nothing to take or hold (W32)");
            ok = false;
        } else {
            ok = json_array_append_new(ids, json_string(id)) == 0;
        }
    }
    return ok;
}

/* goal.territories as /plan-turn's {capture, hold} and goal.bonuses as its goal.bonuses; under
 * `income` the goal may be left out (every bonus of the map is valued, W32). */
static bool read_goal(const cbd_reader *r, const cbdp_wz_turn *t, const char *player, bool income,
                      json_t *doc) {
    const json_t *g = cbd_reader_member(r, "goal");
    if (!g && income) {
        return true;
    }
    const json_t *terrs = json_object_get(g, "territories");
    const json_t *bonuses = json_object_get(g, "bonuses");
    if ((g && !json_is_object(g)) || (terrs && !json_is_array(terrs)) ||
        (bonuses && !json_is_array(bonuses)) ||
        (!income && json_array_size(terrs) + json_array_size(bonuses) == 0)) {
        cbd_reader_error(r, "goal",
                         "is required: {\"territories\": [terrIDs], \"bonuses\": "
                         "[bonus ids]}, one at least");
        return false;
    }
    cbd_reader gr;
    cbd_reader_at(&gr, r, "goal");
    json_t *goal = json_object(), *capture = json_array(), *hold = json_array();
    bool ok = goal && json_object_set_new(doc, "goal", goal) == 0;
    char id[CBDP_WZ_ID_MAX];
    for (size_t i = 0; capture && hold && i < json_array_size(terrs); i++) {
        if (!cbdp_wz_id_text(json_array_get(terrs, i), id) ||
            !json_object_get(t->standing_at, id)) {
            cbd_reader_item_error(&gr, "territories", i, "must be a terrID of the map");
            ok = false;
        } else {
            ok = add_goal(&gr, i, t, player, id, capture, hold) && ok;
        }
    }
    ok = ok && capture && hold;
    /* only the lists that hold something, so that `income`'s "bonuses only" reads the game's
     * goal.territories */
    ok = ok && (json_array_size(capture) == 0 || json_object_set(goal, "capture", capture) == 0);
    ok = ok && (json_array_size(hold) == 0 || json_object_set(goal, "hold", hold) == 0);
    json_decref(capture);
    json_decref(hold);
    return (!bonuses || goal_bonuses(&gr, t, bonuses, goal)) && ok;
}

/* The armies the player deploys: `income`, else gameInfo.incomes (which must then list the
 * player), else MinimumArmyBonus plus the bonuses it owns whole at the start, with a warning
 * that says so (W45). */
static bool read_income(const cbd_reader *r, cbdp_wz_turn *t, const char *player,
                        uint64_t *income) {
    cbd_field f = cbdp_wz_uint(r, "income", 1000000000, income);
    if (f != CBD_FIELD_ABSENT) {
        return f == CBD_FIELD_OK;
    }
    const json_t *free_armies = json_object_get(t->incomes, player);
    if (free_armies) {
        *income = (uint64_t)json_integer_value(free_armies);
        return true;
    }
    if (json_array_size(t->incomes_in.list) > 0) {
        cbd_reader_error(&t->incomes_in.at, t->incomes_in.key,
                         "lacks player %s (playerID): its income is what the game says, not "
                         "guessed; give its {playerID, freeArmies} or `income` (W45)",
                         player);
        return false;
    }
    json_int_t sum = (json_int_t)t->base_income;
    const json_t *terrs = json_object_get(t->doc, "territories");
    for (size_t i = 0; i < json_array_size(t->bonuses); i++) {
        const json_t *b = json_array_get(t->bonuses, i), *list = json_object_get(b, "territories");
        bool whole = json_array_size(list) > 0;
        for (size_t k = 0; whole && k < json_array_size(list); k++) {
            const json_t *o = json_object_get(
                json_object_get(terrs, json_string_value(json_array_get(list, k))), "owner");
            whole = json_is_string(o) && strcmp(json_string_value(o), player) == 0;
        }
        sum += whole ? json_integer_value(json_object_get(b, "value")) : 0;
    }
    *income = sum > 0 ? (uint64_t)sum : 0;
    return cbdp_wz_warn(t,
                        "/income: player %s's income is taken as %" PRIu64
                        ", MinimumArmyBonus %" PRIu64 " plus the bonuses it owns whole at the "
                        "start; the game may give more or less (cards, mods): give `income` or "
                        "gameInfo.incomes (W45)",
                        player, *income, t->base_income);
}

/* playerID as the SDK writes it: the id's digits as an integer; false for any other id (the
 * translation takes names such as "p1", the AI server does not). */
static bool player_number(const char *player, uint64_t *out) {
    size_t n = strlen(player);
    if (n == 0 || n > 10 || strspn(player, "0123456789") != n) {
        return false;
    }
    *out = strtoull(player, NULL, 10);
    return *out <= SEND_ID_MAX;
}

/*
 * The ids of SendOrdersBotGame's body: gameID from `gameID` (the id the bot called
 * GetBotGameInfo with) or game.id, playerID from `playerID`, and turnNumber the turn being
 * ordered, game.numberOfTurns + 1 (the turns played so far and this one, as the SDK's
 * BotGameAPI.SendOrders is called). Each may be a number or its digits; a malformed one is a
 * 422 at its member, an absent one leaves the body out (s->missing says which).
 */
static bool read_send_ids(const cbd_reader *r, const char *player, send_ids *s) {
    cbd_reader g;
    cbd_reader_at(&g, r, "game");
    uint64_t own = 0, game = 0, played = 0;
    cbd_field fo = cbdp_wz_uint(r, "gameID", SEND_ID_MAX, &own);
    cbd_field fg = cbdp_wz_uint(&g, "id", SEND_ID_MAX, &game);
    cbd_field ft = cbdp_wz_uint(&g, "numberOfTurns", SEND_ID_MAX - 1, &played);
    bool ok = fo != CBD_FIELD_BAD && fg != CBD_FIELD_BAD && ft != CBD_FIELD_BAD;
    if (fo == CBD_FIELD_OK && fg == CBD_FIELD_OK && own != game) {
        cbd_reader_error(r, "gameID", "is %" PRIu64 " where game.id is %" PRIu64 ": give one", own,
                         game);
        ok = false;
    }
    s->game_id = fo == CBD_FIELD_OK ? own : game;
    s->turn_number = played + 1;
    if (fo != CBD_FIELD_OK && fg != CBD_FIELD_OK) {
        s->missing = "gameID: give `gameID` (or game.id)";
    } else if (ft != CBD_FIELD_OK) {
        s->missing = "turnNumber: give game.numberOfTurns as GetBotGameInfo answers it";
    } else if (!player_number(player, &s->player_id)) {
        s->missing = "playerID as a whole number: `playerID` is not one";
    } else {
        s->missing = NULL;
    }
    return ok;
}

/* /plan-turn's request members beside the turn; the turn's `goals` cannot be sent there.
 * `objective` is passed on as given (/plan-turn reads it and names it when it is none of its
 * own, W31, W32). */
static bool plan_members(const cbd_reader *r, cbdp_wz_turn *t, json_t *doc, send_ids *ids) {
    char player[CBDP_WZ_ID_MAX];
    if (!cbdp_wz_read_id(r, "playerID", player)) {
        return false;
    }
    bool ids_ok = read_send_ids(r, player, ids);
    const json_t *objective = cbd_reader_member(r, "objective");
    bool income_objective =
        json_is_string(objective) && strcmp(json_string_value(objective), "income") == 0;
    bool position =
        json_is_string(objective) && strcmp(json_string_value(objective), "position") == 0;
    uint64_t income = 0;
    /* W48: position takes no goal (/plan-turn refuses one given) */
    bool ok = read_goal(r, t, player, income_objective || position, doc);
    ok = read_income(r, t, player, &income) && ok;
    ok = ok && (!position || cbdp_wz_position_members(t, player, doc));
    ok = ok && json_object_set_new(doc, "player", json_string(player)) == 0 &&
         json_object_set_new(doc, "income", json_integer((json_int_t)income)) == 0;
    if (ok && objective) {
        ok = json_object_set(doc, "objective", (json_t *)objective) == 0;
    }
    /* (passed as they are: /plan-turn reads them and names them in its 422) */
    const json_t *max = cbd_reader_member(r, "max_plans");
    const json_t *work = cbd_reader_member(r, "max_work");
    return ok && ids_ok && (!max || json_object_set(doc, "max_plans", (json_t *)max) == 0) &&
           (!work || json_object_set(doc, "max_work", (json_t *)work) == 0);
}

/* A terrID as the game's orders carry it: a number when it is one (the map's ids are). */
static json_t *terr_id(const json_t *id) {
    const char *s = json_string_value(id);
    size_t n = s ? strlen(s) : 0;
    if (n > 0 && n < 16 && strspn(s, "0123456789") == n) {
        return json_integer((json_int_t)strtoll(s, NULL, 10));
    }
    return json_incref((json_t *)id);
}

/* One /plan-turn order (a deploy or an attack/transfer) as SendOrdersBotGame takes it, in the
 * game's names (warzone_names.c); `player` is playerID as given. */
static json_t *game_order(const json_t *o, const json_t *player) {
    const char *type = json_string_value(json_object_get(o, "type"));
    cbd_turn_order_type k = type && strcmp(type, cbd_turn_api_kind_name(CBD_ORDER_DEPLOY)) == 0
                                ? CBD_ORDER_DEPLOY
                                : CBD_ORDER_ATTACK_TRANSFER;
    json_t *to = terr_id(json_object_get(o, "to"));
    const char *player_key = cbdp_wz_game_member(CBDP_WZ_ANY_KIND, "player");
    if (k == CBD_ORDER_DEPLOY) {
        return json_pack("{s:s,s:O,s:o,s:O}", "type", cbd_turn_api_kind_game(k), player_key, player,
                         cbdp_wz_game_member(k, "to"), to, cbdp_wz_game_member(k, "armies"),
                         json_object_get(o, "armies"));
    }
    char n[24];
    snprintf(n, sizeof n, "%" JSON_INTEGER_FORMAT,
             json_integer_value(json_object_get(o, "armies")));
    return json_pack("{s:s,s:O,s:o,s:o,s:s,s:s,s:b,s:b}", "type", cbd_turn_api_kind_game(k),
                     player_key, player, cbdp_wz_game_member(k, "from"),
                     terr_id(json_object_get(o, "from")), cbdp_wz_game_member(k, "to"), to,
                     cbdp_wz_game_member(k, "armies"), n, cbdp_wz_game_member(k, "only"),
                     cbdp_wz_only_names[CBD_ONLY_EITHER],
                     cbdp_wz_game_member(k, "attack_teammates"), 0, "byPercent", 0);
}

/* The plan's orders as SendOrdersBotGame takes them, each with `player` as its playerID. */
static json_t *game_orders(const json_t *plan, const json_t *player) {
    json_t *orders = player ? json_array() : NULL;
    bool ok = orders != NULL;
    for (size_t i = 0; ok && i < json_array_size(plan); i++) {
        ok = json_array_append_new(orders, game_order(json_array_get(plan, i), player)) == 0;
    }
    if (!ok) {
        json_decref(orders);
        return NULL;
    }
    return orders;
}

/* SendOrdersBotGame's body for the plan, as the SDK writes it (orders' playerID an integer
 * too); *body NULL and a warning when an id is not known. False when memory ran out. */
static bool send_body(cbdp_wz_turn *t, const send_ids *ids, const json_t *plan, json_t **body) {
    *body = NULL;
    if (ids->missing) {
        return cbdp_wz_warn(t, "send_orders is left out: SendOrdersBotGame needs %s", ids->missing);
    }
    json_t *player = json_integer((json_int_t)ids->player_id);
    json_t *orders = game_orders(plan, player);
    *body = orders ? json_pack("{s:I,s:O,s:o,s:I}", "gameID", (json_int_t)ids->game_id, "playerID",
                               player, "orders", orders, "turnNumber", (json_int_t)ids->turn_number)
                   : NULL;
    json_decref(player);
    return *body != NULL;
}

static bool game_answer(cbdp_wz_turn *t, const json_t *request, const send_ids *ids,
                        const json_t *answer, cbd_jw *out) {
    const json_t *plan = json_object_get(answer, "orders");
    json_t *send = NULL;
    if (!send_body(t, ids, plan, &send)) {
        return false;
    }
    json_t *orders = game_orders(plan, json_object_get(request, "playerID"));
    json_t *res = orders ? json_pack("{s:o,s:O,s:O,s:O}", "orders", orders, "value",
                                     json_object_get(answer, "value"), "optimal",
                                     json_object_get(answer, "optimal"), "income",
                                     json_object_get(t->doc, "income"))
                         : NULL;
    const json_t *scenarios = json_object_get(answer, "scenarios");
    const json_t *stopped_by = json_object_get(answer, "stopped_by");
    bool ok = res && (!send || json_object_set(res, "send_orders", send) == 0) &&
              (!scenarios || json_object_set(res, "scenarios", (json_t *)scenarios) == 0) &&
              (!stopped_by || json_object_set(res, "stopped_by", (json_t *)stopped_by) == 0) &&
              (!json_is_array(json_object_get(answer, "warnings")) ||
               json_array_extend(t->warnings, json_object_get(answer, "warnings")) == 0) &&
              json_object_set(res, "warnings", t->warnings) == 0;
    json_decref(send);
    if (!ok) {
        json_decref(res);
        return false;
    }
    /* `value` as /plan-turn writes it (cbdp_wz_write_answer: the fewest digits that read back
     * exactly), so that the two endpoints' answers agree to the byte */
    cbdp_wz_write_answer(out, res);
    json_decref(res);
    return true;
}

bool cbd_api_warzone_plan_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                               cbd_jw *out, cbd_problem *problem) {
    /* W49: `others`' game orders are translated as the request's own, after them */
    cbdp_wz_others others;
    json_t *merged = NULL;
    if (!cbdp_wz_others_merge(request, &merged, &others, problem)) {
        return false;
    }
    request = merged ? merged : request;
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        json_decref(merged);
        return false;
    }
    cbdp_wz_turn t;
    send_ids ids = {0};
    bool ok = cbdp_wz_read_turn(&r, cfg, false, &t) == CBD_READ_OK &&
              cbd_api_read_status(plan_members(&r, &t, t.doc, &ids), problem) == CBD_READ_OK;
    if (ok && !cbdp_wz_others_split(&t, &others)) {
        ok = cbd_api_oom_problem(problem);
    }
    json_t *answer = NULL;
    if (ok && !cbdp_wz_run(cfg, budget, cbd_api_plan_turn, t.doc, &answer, problem)) {
        cbdp_wz_others_before(&others, problem);
        cbdp_wz_problem_to_game(&t, problem); /* cbdp_wz_run recorded why */
        ok = false;
    }
    cbdp_wz_others_after(&others, problem);
    if (ok && !game_answer(&t, request, &ids, answer, out)) {
        ok = cbd_api_oom_problem(problem); /* it fails only for memory */
    }
    json_decref(answer);
    cbdp_wz_turn_free(&t);
    json_decref(merged);
    return ok;
}

/* The estimate (api.h): /plan-turn's for the translated members is not at hand before the
 * translation; a plan weighs many turns, so it always goes to the worker pool. */
uint64_t cbd_api_warzone_plan_turn_cost(const cbd_config *cfg, const json_t *request) {
    (void)request;
    return cfg->limits.inline_cost_ns + 1;
}
