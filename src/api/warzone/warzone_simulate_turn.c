/*
 * POST /warzone/simulate-turn: one turn in the game's JSON resolved at random from `seed`
 * (W40), by /simulate-turn's handler (one trial, its turn listed), answered in the game's
 * shapes: `standing` after the turn ([{terrID, ownedBy, armies}], armies as the game's strings,
 * with the Commanders alive on each territory, W21) and `orders` as given, each attack/transfer
 * with the game's `result` {isAttack, isSuccessful, armies, attackingArmiesKilled,
 * defendingArmiesKilled}, so that a bot can play whole games against itself. The same request and
 * seed answer the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"
#include "api/warapp/turn/warapp_turn_kinds_json.h"
#include "warzone_internal.h"

static const char *const request_keys[] = {CBDP_WZ_TURN_KEYS, "seed", NULL};

/* A count as the game writes armies: its digits in a string. */
static json_t *armies_text(const json_t *n) {
    char text[24];
    snprintf(text, sizeof text, "%" JSON_INTEGER_FORMAT, json_integer_value(n));
    return json_string(text);
}

/* Whether an army string takes unit `id`, given a list of ids to hold it against. */
typedef bool (*unit_filter)(const json_t *id, const json_t *against);

/*
 * An army string (W21): `armies`, then "|cmdr,<guid>,<owner>" for each id of `ids` (a JSON
 * array of unit ids) that `keep` accepts (NULL: every one), in the array's order. The translated
 * turn's units are the request's Commanders with their guids as ids, so a guid comes back as it
 * was given.
 */
static json_t *army_string_of(const json_t *armies_n, const json_t *ids, const char *owner,
                              unit_filter keep, const json_t *against) {
    json_t *armies = armies_text(armies_n);
    if (!armies || json_array_size(ids) == 0) {
        return armies;
    }
    size_t len = json_string_length(armies), n_owner = strlen(owner);
    for (size_t k = 0; k < json_array_size(ids); k++) {
        len += sizeof "|cmdr,," - 1 + json_string_length(json_array_get(ids, k)) + n_owner;
    }
    char *text = malloc(len + 1);
    size_t at = text ? (size_t)snprintf(text, len + 1, "%s", json_string_value(armies)) : 0;
    for (size_t k = 0; text && k < json_array_size(ids); k++) {
        const json_t *id = json_array_get(ids, k);
        if (!keep || keep(id, against)) {
            at += (size_t)snprintf(text + at, len + 1 - at, "|cmdr,%s,%s", json_string_value(id),
                                   owner);
        }
    }
    json_decref(armies);
    json_t *out = text ? json_stringn(text, at) : NULL;
    free(text);
    return out;
}

static bool listed_in(const json_t *id, const json_t *ids) {
    for (size_t k = 0; k < json_array_size(ids); k++) {
        if (json_equal(id, json_array_get(ids, k))) {
            return true;
        }
    }
    return false;
}

static bool not_listed_in(const json_t *id, const json_t *ids) {
    return !listed_in(id, ids);
}

/*
 * A territory's army string after the turn (W21, W22): its armies, then each Commander living
 * on it, in the order /simulate-turn lists its units (W19's listed order, which the next turn's
 * board then keeps), the owner its territory's (a gifted Commander is its receiver's, W28); a
 * Commander that died is in no territory's list.
 */
static json_t *army_string(const json_t *t, const char *owner) {
    return army_string_of(json_object_get(t, "armies"), json_object_get(t, "units"), owner, NULL,
                          NULL);
}

/* A listed owner in the game's words: "neutral" is the game's "Neutral". */
static const char *game_owner(const json_t *owner) {
    const char *o = json_string_value(owner);
    return o == NULL || strcmp(o, CBD_TURN_NEUTRAL_NAME) == 0 ? CBDP_WZ_NEUTRAL : o;
}

/* The standing after the turn, in the order of the standing given (`standing` or
 * gameInfo.latestStanding). */
static json_t *standing_after(const cbdp_wz_turn *tu, const json_t *terrs) {
    const json_t *given = tu->standing_in.list;
    json_t *out = json_array();
    for (size_t i = 0; out && i < json_array_size(given); i++) {
        char id[CBDP_WZ_ID_MAX];
        (void)cbdp_wz_id_text(json_object_get(json_array_get(given, i), "terrID"), id);
        const json_t *t = json_object_get(terrs, id);
        const char *owner = game_owner(json_object_get(t, "owner"));
        json_t *e = json_pack("{s:O,s:s,s:o}", "terrID",
                              json_object_get(json_array_get(given, i), "terrID"), "ownedBy", owner,
                              "armies", army_string(t, owner));
        if (!e || json_array_append_new(out, e) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

/*
 * The game's result of an attack/transfer from /simulate-turn's event; NULL when skipped. Its
 * army strings carry Commanders as the standing's do (W21): `armies` the Commanders sent (the
 * mover's, `player`), `attackingArmiesKilled` those of them that died, `defendingArmiesKilled`
 * the defender's that died (units_died not sent; the owner of `to` when the battle began).
 */
static json_t *game_result(const json_t *ev, const char *player) {
    const char *what = json_string_value(json_object_get(ev, "result"));
    bool attack = strcmp(what, "attack") == 0;
    if (!attack && strcmp(what, "transfer") != 0) {
        return NULL;
    }
    const json_t *sent = json_object_get(ev, "units_sent"),
                 *died = json_object_get(ev, "units_died");
    json_t *zero = json_integer(0);
    json_t *r =
        json_pack("{s:b,s:b,s:o,s:o,s:o}", "isAttack", attack, "isSuccessful",
                  attack ? json_is_true(json_object_get(ev, "captured")) : 1, "armies",
                  army_string_of(json_object_get(ev, "sent"), sent, player, NULL, NULL),
                  "attackingArmiesKilled",
                  army_string_of(attack ? json_object_get(ev, "attackers_lost") : zero, died,
                                 player, listed_in, sent),
                  "defendingArmiesKilled",
                  army_string_of(attack ? json_object_get(ev, "defenders_lost") : zero, died,
                                 game_owner(json_object_get(ev, "defender")), not_listed_in, sent));
    json_decref(zero);
    return r;
}

/* The orders as given, each attack/transfer with its result (or "skipped": true). */
static json_t *orders_after(const cbdp_wz_turn *t, const json_t *request, const json_t *events) {
    const json_t *given = json_object_get(request, "orders");
    json_t *out = json_array();
    for (size_t i = 0; out && i < json_array_size(given); i++) {
        json_t *o = json_deep_copy(json_array_get(given, i));
        const json_t *at = json_array_get(t->order_at, i);
        const json_t *ev =
            json_is_integer(at) ? json_array_get(events, (size_t)json_integer_value(at)) : NULL;
        const char *what = json_string_value(json_object_get(ev, "result"));
        bool ok = o != NULL;
        if (ok && what && strcmp(what, "skipped") == 0) {
            ok = json_object_set_new(o, "skipped", json_true()) == 0;
        } else if (ok && json_object_get(ev, "sent") &&
                   strcmp(cbdp_wz_game_type(request, i),
                          cbd_turn_api_kind_game(CBD_ORDER_ATTACK_TRANSFER)) == 0) {
            char player[CBDP_WZ_ID_MAX] = "";
            (void)cbdp_wz_id_text(
                json_object_get(o, cbdp_wz_game_member(CBDP_WZ_ANY_KIND, "player")), player);
            json_t *r = game_result(ev, player);
            ok = r && json_object_set_new(o, "result", r) == 0;
        }
        if (!ok || json_array_append_new(out, o) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

static bool game_answer(const cbdp_wz_turn *t, const json_t *request, const json_t *answer,
                        uint64_t seed, cbd_jw *out) {
    const json_t *turn = json_array_get(json_object_get(answer, "turns"), 0);
    json_t *standing = standing_after(t, json_object_get(turn, "territories"));
    json_t *orders = orders_after(t, request, json_object_get(turn, "orders"));
    json_t *doc = json_pack("{s:I,s:o*,s:o*,s:O}", "seed", (json_int_t)seed, "standing", standing,
                            "orders", orders, "warnings", t->warnings);
    if (!doc || !standing || !orders) {
        json_decref(doc);
        return false;
    }
    cbd_jw_value(out, doc);
    json_decref(doc);
    return true;
}

bool cbd_api_warzone_simulate_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                   cbd_jw *out, cbd_problem *problem) {
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return false;
    }
    cbdp_wz_turn t;
    cbd_read_status st = cbdp_wz_read_turn(&r, cfg, true, &t);
    uint64_t seed = 0;
    cbd_field f = cbd_read_seed(&r, "seed", &seed);
    bool ok = st == CBD_READ_OK && f != CBD_FIELD_BAD;
    ok = ok && (f == CBD_FIELD_OK || cbd_api_fresh_seed(&seed, problem)); /* records a 503 */
    json_t *answer = NULL;
    if (ok && (json_object_set_new(t.doc, "trials", json_integer(1)) != 0 ||
               json_object_set_new(t.doc, "seed", json_integer((json_int_t)seed)) != 0 ||
               json_object_set_new(t.doc, "include_turns", json_true()) != 0)) {
        ok = cbd_api_oom_problem(problem);
    }
    if (ok && !cbdp_wz_run(cfg, budget, cbd_api_simulate_turn, t.doc, &answer, problem)) {
        cbdp_wz_problem_to_game(&t, problem); /* cbdp_wz_run recorded why */
        ok = false;
    }
    if (ok && !game_answer(&t, request, answer, seed, out)) {
        ok = cbd_api_oom_problem(problem); /* it fails only for memory */
    }
    json_decref(answer);
    cbdp_wz_turn_free(&t);
    return ok;
}

/* The estimate (api.h): one turn of its orders, a few microseconds each with its draws. */
uint64_t cbd_api_warzone_simulate_turn_cost(const cbd_config *cfg, const json_t *request) {
    (void)cfg;
    size_t orders = json_array_size(json_object_get(request, "orders"));
    return CBD_COST_BASE_NS + (uint64_t)orders * CBD_COST_NS_PER_BATTLE * 10;
}
