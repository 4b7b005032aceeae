/*
 * A turn of the game's JSON read into combatd's shape (W40): the parts in the order their
 * checks need (the settings say which orders are legal, the board names the players the
 * orders and `players` are checked against). `standing`, `players` and `incomes` may instead
 * come in the bot API's GetBotGameInfo answer merged into the request as it came
 * ({game: {players}, gameInfo: {latestStanding, incomes}}); each is read where it was given.
 */
#include <string.h>

#include "api/endpoint_support.h"
#include "warzone_internal.h"

static bool alloc_turn(cbdp_wz_turn *t) {
    memset(t, 0, sizeof *t);
    t->doc = json_object();
    t->warnings = json_array();
    t->order_at = json_array();
    t->order_game = json_array();
    t->standing_at = json_object();
    t->map_at = json_object();
    t->fogged = json_object();
    t->bonuses = json_array();
    t->bonus_at = json_object();
    t->players = json_array();
    t->incomes = json_object();
    t->owner_at = json_object();
    t->player_at = json_object();
    t->overrides = json_object();
    return t->doc && t->warnings && t->order_at && t->order_game && t->standing_at && t->map_at &&
           t->fogged && t->bonuses && t->bonus_at && t->players && t->incomes && t->owner_at &&
           t->player_at && t->overrides;
}

/* `game` and `gameInfo`: GetBotGameInfo's objects, or absent ("null" included). */
static bool game_objects_ok(const cbd_reader *r) {
    static const char *const names[] = {"game", "gameInfo"};
    bool ok = true;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const json_t *v = cbd_reader_member(r, names[i]);
        if (!cbdp_wz_absent(v) && !json_is_object(v)) {
            cbd_reader_error(r, names[i], "must be the object GetBotGameInfo answers `%s` with",
                             names[i]);
            ok = false;
        }
    }
    return ok;
}

/*
 * Where list `key` of the turn is read: the request's own member, else member `inner` of
 * `outer` (game or gameInfo). Both given is a 422 at the game's: two lists that may disagree,
 * and preferring either would silently drop the other (W41).
 */
static bool find_source(const cbd_reader *r, const char *key, const char *outer, const char *inner,
                        const char *const pointers[2], cbdp_wz_source *src) {
    const json_t *own = cbd_reader_member(r, key);
    cbd_reader o;
    cbd_reader_at(&o, r, outer);
    const json_t *game = cbd_reader_member(&o, inner);
    bool from_game = !cbdp_wz_absent(game);
    src->at = from_game ? o : *r;
    src->key = from_game ? inner : key;
    src->list = from_game ? game : own;
    src->pointer = pointers[from_game];
    if (from_game && !cbdp_wz_absent(own)) {
        cbd_reader_error(&o, inner, "is given as well as `%s`: give one of the two (W40)", key);
        return false;
    }
    return true;
}

static bool find_sources(const cbd_reader *r, cbdp_wz_turn *t) {
    static const char *const standing[2] = {"/standing", "/gameInfo/latestStanding"};
    static const char *const players[2] = {"/players", "/game/players"};
    static const char *const incomes[2] = {"/incomes", "/gameInfo/incomes"};
    bool ok = game_objects_ok(r);
    ok = find_source(r, "standing", "gameInfo", "latestStanding", standing, &t->standing_in) && ok;
    ok = find_source(r, "players", "game", "players", players, &t->players_in) && ok;
    return find_source(r, "incomes", "gameInfo", "incomes", incomes, &t->incomes_in) && ok;
}

cbd_read_status cbdp_wz_read_turn(const cbd_reader *r, const cbd_config *cfg, bool orders_required,
                                  cbdp_wz_turn *t) {
    if (!alloc_turn(t)) {
        return cbd_api_read_status(false, r->problem);
    }
    bool ok = find_sources(r, t);
    ok = cbdp_wz_read_settings(r, cfg, t) && ok;
    ok = cbdp_wz_read_board(r, cfg, t) && ok;
    ok = cbdp_wz_read_orders(r, cfg, orders_required, t) && ok;
    ok = cbdp_wz_check_players(r, t) && ok; /* named beside the other parts' errors too */
    return cbd_api_read_status(ok, r->problem);
}

void cbdp_wz_turn_free(cbdp_wz_turn *t) {
    json_t **all[] = {&t->doc,      &t->warnings,  &t->order_at,  &t->order_game, &t->standing_at,
                      &t->map_at,   &t->fogged,    &t->bonuses,   &t->players,    &t->incomes,
                      &t->owner_at, &t->player_at, &t->overrides, &t->bonus_at};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        json_decref(*all[i]);
        *all[i] = NULL;
    }
}
