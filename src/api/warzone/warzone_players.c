/*
 * The game's players (either dialect's list: {id, team, state, ...}) as combatd's teams and,
 * under a cycle MoveOrder, W13's player_order; the request's `diplomacy` (W29's pairs in force
 * this turn) and `incomes` (gameInfo.incomes; `players` and `incomes` may be given as
 * game.players and gameInfo.incomes instead). W41: an owner or order player that is not in
 * `players` is a 422, which catches the query game API's profile ids given where its in-game
 * ids are meant; a `players` id that is a profile id of a player of the board is read as that
 * player's in-game id (the profile id without its first two and last two digits).
 */
#include <string.h>

#include "warzone_internal.h"

static bool noted(const cbdp_wz_turn *t, const char *id) {
    for (size_t i = 0; i < json_array_size(t->players); i++) {
        if (strcmp(json_string_value(json_array_get(t->players, i)), id) == 0) {
            return true;
        }
    }
    return false;
}

/* players item i's in-game id into `id` (W41's profile id read as the in-game one). */
static bool player_id(const cbd_reader *p, cbdp_wz_turn *t, char id[CBDP_WZ_ID_MAX]) {
    if (!cbdp_wz_read_id(p, "id", id)) {
        return false;
    }
    size_t n = strlen(id);
    if (noted(t, id) || n < 5 || strspn(id, "0123456789") != n) {
        return true;
    }
    char inner[CBDP_WZ_ID_MAX];
    memcpy(inner, id + 2, n - 4);
    inner[n - 4] = '\0';
    if (!noted(t, inner)) {
        return true;
    }
    bool ok = cbdp_wz_warn(t, "%s/id %s is read as the in-game id %s (a profile id, W41)",
                           p->pointer, id, inner);
    memcpy(id, inner, n - 3);
    return ok;
}

/* Every noted player in `listed`, or the 422 at where it was first named (W41). */
static bool all_listed(const cbd_reader *r, const cbdp_wz_turn *t, const json_t *listed) {
    bool ok = true;
    for (size_t i = 0; i < json_array_size(t->players); i++) {
        const char *id = json_string_value(json_array_get(t->players, i));
        if (json_object_get(listed, id)) {
            continue;
        }
        const json_t *s = json_object_get(t->owner_at, id);
        const cbdp_wz_source *in = &t->standing_in;
        cbd_reader at, fog;
        if (json_is_string(s)) { /* first named as the owner of a Fogged territory */
            cbd_reader_at(&fog, r, "fogged");
            cbd_reader_at(&at, &fog, json_string_value(s));
        } else {
            cbd_reader_at_item(
                &at, s ? &in->at : r, s ? in->key : "orders",
                (size_t)json_integer_value(s ? s : json_object_get(t->player_at, id)));
        }
        cbd_reader_error(&at, s ? "ownedBy" : cbdp_wz_game_member(CBDP_WZ_ANY_KIND, "player"),
                         "is %s, not a player of %s: give the in-game ids (a profile id "
                         "of the query game API is not one, W41)",
                         id, t->players_in.at.pointer[0] ? "game.players" : "`players`");
        ok = false;
    }
    return ok;
}

/* W13 under a cycle MoveOrder: the players in `players` order, then the others. */
static bool cycle_order(cbdp_wz_turn *t, const json_t *order) {
    json_t *po = json_array();
    if (!po || json_object_set_new(t->doc, "player_order", po) != 0) {
        return false;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < json_array_size(order); i++) {
        ok = json_array_append(po, json_array_get(order, i)) == 0;
    }
    for (size_t i = 0; ok && i < json_array_size(t->players); i++) {
        json_t *id = json_array_get(t->players, i);
        bool in = false;
        for (size_t k = 0; k < json_array_size(order); k++) {
            in = in || json_equal(json_array_get(order, k), id);
        }
        ok = in || json_array_append(po, id) == 0;
    }
    return ok && cbdp_wz_warn(t, "/settings/MoveOrder is a cycle: its first player is the first "
                                 "of `players` (the game's JSON does not record it, W40)");
}

/* `players` or game.players, read where it was given: false when memory ran out. *read_all
 * says whether every id could be read (so that W41's check knows the players listed), *valid
 * whether no entry was refused (an id given twice is read, and refused). */
static bool read_players(cbdp_wz_turn *t, json_t *listed, json_t *order, json_t *teams,
                         bool *read_all, bool *valid) {
    const cbdp_wz_source *in = &t->players_in;
    bool ok = true;
    for (size_t i = 0; i < json_array_size(in->list); i++) {
        cbd_reader p;
        cbd_reader_at_item(&p, &in->at, in->key, i);
        char id[CBDP_WZ_ID_MAX], team[CBDP_WZ_ID_MAX];
        if (!player_id(&p, t, id)) {
            *read_all = *valid = false;
            continue;
        }
        if (json_object_get(listed, id)) { /* a second entry could give another team */
            cbd_reader_error(&p, "id", "repeats player %s", id);
            *valid = false;
            continue;
        }
        const json_t *tv = cbd_reader_member(&p, "team");
        bool has_team = !cbdp_wz_absent(tv) && cbdp_wz_id_text(tv, team) && team[0] != '-';
        ok = ok && json_object_set_new(listed, id, json_true()) == 0;
        if (ok && noted(t, id)) {
            ok = json_array_append_new(order, json_string(id)) == 0 &&
                 (!has_team || json_object_set_new(teams, id, json_string(team)) == 0);
        }
    }
    return ok;
}

/* diplomacy: [[a, b], ...] or [{playerOne, playerTwo}, ...] as combatd's pairs (W29). */
static bool read_diplomacy(const cbd_reader *r, cbdp_wz_turn *t) {
    const json_t *list = cbd_reader_member(r, "diplomacy");
    if (cbdp_wz_absent(list)) {
        return true;
    }
    json_t *pairs = json_array();
    bool ok = pairs && json_object_set_new(t->doc, "diplomacy", pairs) == 0;
    for (size_t i = 0; ok && i < json_array_size(list); i++) {
        const json_t *d = json_array_get(list, i);
        char a[CBDP_WZ_ID_MAX], b[CBDP_WZ_ID_MAX];
        const json_t *va =
            json_is_array(d) ? json_array_get(d, 0) : json_object_get(d, "playerOne");
        const json_t *vb =
            json_is_array(d) ? json_array_get(d, 1) : json_object_get(d, "playerTwo");
        if (!cbdp_wz_id_text(va, a) || !cbdp_wz_id_text(vb, b)) {
            cbd_reader_item_error(r, "diplomacy", i,
                                  "must be a pair of player ids ([a, b] or "
                                  "{playerOne, playerTwo})");
            return false;
        }
        ok = json_array_append_new(pairs, json_pack("[s,s]", a, b)) == 0;
    }
    return ok;
}

/* incomes: gameInfo.incomes [{playerID, freeArmies}] (for /warzone/plan-turn), given as the
 * request's `incomes` or in its gameInfo. */
static bool read_incomes(cbdp_wz_turn *t) {
    const cbdp_wz_source *in = &t->incomes_in;
    if (!cbdp_wz_absent(in->list) && !json_is_array(in->list)) {
        char was[64];
        cbd_reader_error(&in->at, in->key,
                         "must be the game's list of incomes [{playerID, freeArmies}], not %s",
                         cbd_json_value_text(in->list, was, sizeof was));
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(in->list); i++) {
        cbd_reader p;
        cbd_reader_at_item(&p, &in->at, in->key, i);
        char id[CBDP_WZ_ID_MAX];
        uint64_t n = 0;
        bool id_ok = cbdp_wz_read_id(&p, "playerID", id);
        cbd_field armies = cbdp_wz_uint(&p, "freeArmies", 1000000000, &n);
        if (armies == CBD_FIELD_ABSENT) { /* else false with no error would read as a 500 */
            cbd_reader_error(&p, "freeArmies", "is required: the armies the player deploys");
        }
        if (id_ok && json_object_get(t->incomes, id)) {
            cbd_reader_error(&p, "playerID", "repeats player %s", id);
            id_ok = false;
        }
        if (!id_ok || armies != CBD_FIELD_OK) {
            ok = false;
            continue;
        }
        ok = ok && json_object_set_new(t->incomes, id, json_integer((json_int_t)n)) == 0;
    }
    return ok;
}

bool cbdp_wz_check_players(const cbd_reader *r, cbdp_wz_turn *t) {
    const cbdp_wz_source *in = &t->players_in;
    const json_t *list = in->list;
    if (!cbdp_wz_absent(list) && !json_is_array(list)) {
        cbd_reader_error(&in->at, in->key, "must be the game's list of players ({id, team, ...})");
        return false;
    }
    json_t *listed = json_object(), *order = json_array(), *teams = json_object();
    bool read_all = true, valid = true;
    bool ok = listed && order && teams && read_players(t, listed, order, teams, &read_all, &valid);
    /* W41's check runs beside a repeated id's 422 (every bad member of the request named), not
     * beside an id that could not be read: which player it meant is not known. */
    ok = ok && (!json_is_array(list) || !read_all || all_listed(r, t, listed)) && valid;
    if (ok && json_object_size(teams) > 0) {
        ok = json_object_set(t->doc, "teams", teams) == 0;
    }
    const char *mo = json_string_value(json_object_get(t->doc, "move_order"));
    if (ok && mo && strcmp(mo, "cycle") == 0) {
        ok = cycle_order(t, order);
    }
    json_decref(listed);
    json_decref(order);
    json_decref(teams);
    bool incomes_ok = read_incomes(t); /* named even when the players are not */
    return ok && read_diplomacy(r, t) && incomes_ok;
}
