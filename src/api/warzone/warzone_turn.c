/*
 * A turn of the game's JSON read into combatd's shape (W40): the parts in the order their
 * checks need (the settings say which orders are legal, the board names the players the
 * orders and `players` are checked against).
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

bool cbdp_wz_read_turn(const cbd_reader *r, const cbd_config *cfg, bool orders_required,
                       cbdp_wz_turn *t) {
    if (!alloc_turn(t)) {
        return cbd_api_oom_problem(r->problem);
    }
    bool ok = cbdp_wz_read_settings(r, cfg, t);
    ok = cbdp_wz_read_board(r, cfg, t) && ok;
    ok = cbdp_wz_read_orders(r, cfg, orders_required, t) && ok;
    ok = ok && cbdp_wz_check_players(r, t);
    if (!ok && r->problem->status == 0) {
        return cbd_api_oom_problem(r->problem); /* false with nothing recorded: memory ran out */
    }
    return ok;
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
