/*
 * /warzone/plan-turn under `objective: "position"` (W48, W49): the game's base income and the
 * other players' incomes passed on to /plan-turn, whose default scenarios of the others' reply
 * then use them (an income the game does not give is estimated there, and said).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warzone_position.h"

/* Whether `id` owns a territory of the translated board. */
static bool stands(const cbdp_wz_turn *t, const char *id) {
    const char *tid;
    const json_t *terr;
    json_object_foreach(json_object_get(t->doc, "territories"), tid, terr) {
        const char *owner = json_string_value(json_object_get(terr, "owner"));
        if (owner && strcmp(owner, id) == 0) {
            return true;
        }
    }
    return false;
}

bool cbdp_wz_position_members(const cbdp_wz_turn *t, const char *player, json_t *doc) {
    json_t *incomes = json_object();
    bool ok =
        incomes && json_object_set_new(doc, "incomes", incomes) == 0 &&
        json_object_set_new(doc, "base_income", json_integer((json_int_t)t->base_income)) == 0;
    const char *id;
    const json_t *v;
    /* (players no longer on the board are left out: /plan-turn knows only the board's) */
    json_object_foreach(t->incomes, id, v) {
        if (ok && strcmp(id, player) != 0 && stands(t, id)) {
            ok = json_object_set(incomes, id, (json_t *)v) == 0;
        }
    }
    return ok;
}

bool cbdp_wz_others_merge(const json_t *request, json_t **copy, cbdp_wz_others *o,
                          cbd_problem *problem) {
    memset(o, 0, sizeof *o);
    *copy = NULL;
    if (!json_is_object(request) || !json_object_get(request, "others")) {
        return true;
    }
    json_t *with = NULL;
    if (!json_object_get(request, "orders")) {
        /* the game's orders may be left out: none, before the scenarios' */
        with = json_copy((json_t *)request);
        if (!with || json_object_set_new(with, "orders", json_array()) != 0) {
            json_decref(with);
            return cbd_api_oom_problem(problem);
        }
    }
    bool ok = cbd_plan_others_merge(with ? with : request, copy, &o->game, problem);
    json_decref(with);
    return ok;
}

/* The translated orders of game orders [g0, g1): those not ignored (order_at not null). */
static size_t translated(const cbdp_wz_turn *t, size_t g0, size_t g1) {
    size_t n = 0;
    for (size_t g = g0; g < g1; g++) {
        const json_t *at = json_array_get(t->order_at, g);
        n += at && !json_is_null(at);
    }
    return n;
}

bool cbdp_wz_others_split(cbdp_wz_turn *t, cbdp_wz_others *o) {
    if (o->game.n_others == 0) {
        return true;
    }
    const cbd_plan_others *g = &o->game;
    json_t *all = json_object_get(t->doc, "orders");
    o->doc_own = translated(t, 0, g->n_own);
    json_t *own = json_array(), *others = json_array();
    bool ok = own && others;
    for (size_t k = 0; ok && k < o->doc_own; k++) {
        ok = json_array_append(own, json_array_get(all, k)) == 0;
    }
    for (size_t i = 0; ok && i < g->n_others; i++) {
        o->doc_off[i + 1] =
            o->doc_off[i] + translated(t, g->n_own + g->off[i], g->n_own + g->off[i + 1]);
        json_t *list = json_array();
        for (size_t k = o->doc_off[i]; list && k < o->doc_off[i + 1]; k++) {
            json_array_append(list, json_array_get(all, o->doc_own + k));
        }
        ok = list && json_array_append_new(others, json_pack("{s:f,s:o}", "weight", g->weight[i],
                                                             "orders", list)) == 0;
    }
    ok = ok && json_object_set(t->doc, "orders", own) == 0 &&
         json_object_set(t->doc, "others", others) == 0;
    json_decref(own);
    json_decref(others);
    return ok;
}

void cbdp_wz_others_before(const cbdp_wz_others *o, cbd_problem *problem) {
    for (size_t e = 0; o->game.n_others > 0 && e < problem->n_errors; e++) {
        char *p = problem->errors[e].pointer;
        unsigned i, j;
        int used = 0;
        if (sscanf(p, "/others/%u/orders/%u%n", &i, &j, &used) != 2 || used == 0 ||
            i >= o->game.n_others) {
            continue;
        }
        char out[sizeof problem->errors[e].pointer];
        int n =
            snprintf(out, sizeof out, "/orders/%zu%s", o->doc_own + o->doc_off[i] + j, p + used);
        if (n > 0 && (size_t)n < sizeof out) {
            memcpy(p, out, sizeof out);
        }
    }
}

void cbdp_wz_others_after(const cbdp_wz_others *o, cbd_problem *problem) {
    cbd_plan_others_pointers(&o->game, problem);
}
