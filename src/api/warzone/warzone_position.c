/*
 * /warzone/plan-turn under `objective: "position"` (W48, W49): the game's base income and the
 * other players' incomes passed on to /plan-turn, whose default scenarios of the others' reply
 * then use them (an income the game does not give is estimated there, and said).
 */
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
