/*
 * combatd's JSON pointers of a translated turn back into the game's (W40): a problem that
 * /analyze-turn's reader or core found in the translated request names the member of the
 * game's JSON it came from (`/territories/5/armies` is `/standing/3/armies`, or
 * `/gameInfo/latestStanding/3/armies` when the standing was given there, `/orders/1/armies`
 * of an attack is `/orders/2/numArmies` when a card without effect came before it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/warapp/turn/warapp_turn_kinds_json.h"
#include "warzone_internal.h"

/* An order's member in the game's words, for its game type (warzone_names.c); NULL when the
 * game's order has no member of it (the pointer then names the order). */
static const char *order_member(const char *type, const char *m) {
    int k = cbd_turn_api_kind_of_game(type);
    return k < 0 ? NULL : cbdp_wz_game_member(k, m);
}

/* /settings/<member>: the game's setting, inside its card for a card's multiplier. */
static void settings_pointer(char *tok[], size_t n, char *out, size_t size) {
    const cbdp_wz_setting_name *g = n > 1 ? cbdp_wz_setting_of(tok[1]) : NULL;
    if (!g) {
        snprintf(out, size, "/settings");
        return;
    }
    snprintf(out, size, "/settings/%s%s%s", g->game, g->inner ? "/" : "", g->inner ? g->inner : "");
}

/* /territories/<id>/<member>...: the standing's item, where the standing was given (`standing`
 * or gameInfo.latestStanding). */
static void territory_pointer(const cbdp_wz_turn *t, char *tok[], size_t n, char *out,
                              size_t size) {
    const json_t *at = n > 1 ? json_object_get(t->standing_at, tok[1]) : NULL;
    const char *standing = t->standing_in.pointer ? t->standing_in.pointer : "/standing";
    if (!at) {
        snprintf(out, size, "%s", standing);
        return;
    }
    long i = (long)json_integer_value(at);
    const char *m = n > 2 ? tok[2] : "";
    if (json_object_get(t->fogged, tok[1]) && (!strcmp(m, "armies") || !strcmp(m, "owner"))) {
        snprintf(out, size, "/fogged/%s/%s%s%s", tok[1], strcmp(m, "owner") ? m : "ownedBy",
                 n > 3 ? "/" : "", n > 3 ? tok[3] : "");
    } else if (!strcmp(m, "neighbors")) {
        snprintf(out, size, "/map/territories/%ld/connectedTo%s%s",
                 (long)json_integer_value(json_object_get(t->map_at, tok[1])), n > 3 ? "/" : "",
                 n > 3 ? tok[3] : "");
    } else if (!strcmp(m, "owner") || !strcmp(m, "armies") || !strcmp(m, "units")) {
        snprintf(out, size, "%s/%ld/%s", standing, i, strcmp(m, "owner") ? "armies" : "ownedBy");
    } else {
        snprintf(out, size, "%s/%ld", standing, i);
    }
}

/* /orders/<i>/<member>... */
static void order_pointer(const cbdp_wz_turn *t, char *tok[], size_t n, char *out, size_t size) {
    const json_t *back = n > 1 ? json_array_get(t->order_game, (size_t)atol(tok[1])) : NULL;
    if (!back) {
        snprintf(out, size, "/orders");
        return;
    }
    long at = (long)json_integer_value(json_object_get(back, "at"));
    const char *m =
        n > 2 ? order_member(json_string_value(json_object_get(back, "type")), tok[2]) : NULL;
    snprintf(out, size, "/orders/%ld%s%s", at, m ? "/" : "", m ? m : "");
}

/* A reference token of a JSON pointer as its key: RFC 6901's ~1 is '/', ~0 is '~'. */
static void unescape_token(const char *tok, char *out, size_t size) {
    size_t n = 0;
    for (const char *c = tok; *c && n + 1 < size; c++) {
        bool esc = c[0] == '~' && (c[1] == '0' || c[1] == '1');
        out[n++] = esc ? (c[1] == '1' ? '/' : '~') : *c;
        c += esc;
    }
    out[n] = '\0';
}

/* /bonuses/<bonusID>/<member>...: the map's bonus, or its OverriddenBonuses value. */
static void bonus_pointer(const cbdp_wz_turn *t, char *tok[], size_t n, char *out, size_t size) {
    char id[CBDP_WZ_ID_MAX * 2];
    if (n > 1) {
        unescape_token(tok[1], id, sizeof id);
    }
    const json_t *at = n > 1 ? json_object_get(t->bonus_at, id) : NULL;
    const char *m = n > 2 ? tok[2] : "";
    if (!at) {
        snprintf(out, size, "/map/bonuses");
    } else if (!strcmp(m, "value") && json_object_get(t->overrides, id)) {
        snprintf(
            out, size, "/settings/OverriddenBonuses/%ld/value",
            (long)json_integer_value(json_object_get(json_object_get(t->overrides, id), "at")));
    } else if (!strcmp(m, "value") || !strcmp(m, "territories")) {
        snprintf(out, size, "/map/bonuses/%ld/%s%s%s", (long)json_integer_value(at),
                 strcmp(m, "value") ? "territoryIDs" : "value", n > 3 ? "/" : "",
                 n > 3 ? tok[3] : "");
    } else {
        snprintf(out, size, "/map/bonuses/%ld", (long)json_integer_value(at));
    }
}

static void game_pointer(const cbdp_wz_turn *t, const char *p, char *out, size_t size) {
    char copy[320];
    char *tok[8];
    size_t n = 0;
    char *save = NULL;
    snprintf(copy, sizeof copy, "%s", p);
    /* strtok_r, not strtok: strtok keeps its place in one static that every worker thread
     * shares, so two requests' pointers would be cut from each other's text. */
    for (char *s = strtok_r(copy, "/", &save); s && n < 8; s = strtok_r(NULL, "/", &save)) {
        tok[n++] = s;
    }
    if (n == 0) {
        snprintf(out, size, "%s", p);
    } else if (!strcmp(tok[0], "settings")) {
        settings_pointer(tok, n, out, size);
    } else if (!strcmp(tok[0], "territories")) {
        territory_pointer(t, tok, n, out, size);
    } else if (!strcmp(tok[0], "orders")) {
        order_pointer(t, tok, n, out, size);
    } else if (!strcmp(tok[0], "move_order") || !strcmp(tok[0], "player_order")) {
        snprintf(out, size, "/settings/MoveOrder");
    } else if (!strcmp(tok[0], "player")) {
        snprintf(out, size, "/playerID");
    } else if (!strcmp(tok[0], "bonuses")) {
        bonus_pointer(t, tok, n, out, size);
    } else if (!strcmp(tok[0], "goal") && n > 2 && !strcmp(tok[1], "bonuses")) {
        snprintf(out, size, "/goal/bonuses/%s", tok[2]); /* passed on in the request's order */
    } else if (!strcmp(tok[0], "goal")) {
        snprintf(out, size, "/goal");
    } else if (!strcmp(tok[0], "goals")) {
        /* No /warzone/ request sends goals: /analyze-turn's bonus chances analyse the bonus's
         * territories as goals of their own (W32), and a spent budget there names them. */
        snprintf(out, size, "/map/bonuses");
    } else if (!strcmp(tok[0], "teams")) {
        snprintf(out, size, "%s", t->players_in.pointer ? t->players_in.pointer : "/players");
    } else {
        snprintf(out, size, "%s", p);
    }
}

void cbdp_wz_problem_to_game(const cbdp_wz_turn *t, cbd_problem *problem) {
    for (size_t i = 0; i < problem->n_errors; i++) {
        char out[sizeof problem->errors[i].pointer];
        game_pointer(t, problem->errors[i].pointer, out, sizeof out);
        memcpy(problem->errors[i].pointer, out, sizeof out);
    }
}
