#ifndef COMBATD_API_WARAPP_TURN_JSON_H
#define COMBATD_API_WARAPP_TURN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "combatd/budget.h"
#include "combatd/warapp_turn.h"
#include "api/api_config.h"
#include "api/endpoint_support.h"
#include "json/json_reader.h"
#include "json/json_write.h"
#include "json/problem.h"
#include "api/warapp/warapp_fog_json.h"

/*
 * The turn both War.app turn endpoints read (/analyze-turn, /simulate-turn; W11–W16, W21),
 * mapped from string ids to the core's indices:
 *   territories  index = the order of the request's `territories` object (jansson keeps it),
 *                which is also the order every answer lists them in;
 *   players      index = the order the request first names them: the territories' owners
 *                first (in territory order), then the orders' players (in order order).
 *                `neutral` is not a player (CBD_TURN_NEUTRAL). teams, player_order and goals
 *                may name only these players.
 *   units        index = the order they are read: territory by territory, each territory's
 *                `units` in order (W21: each territory's listed order). Ids are unique.
 * Ids point into the request document, which outlives the answer.
 */
#define CBD_TURN_KEYS                                                                              \
    "territories", "orders", "settings", "teams", "move_order", "player_order", "goals",           \
        "diplomacy", "bonuses"

/* The longest territory or player id, in characters (code points, as maxLength counts). */
#define CBD_TURN_ID_MAX 64

typedef struct {
    cbd_turn turn; /* its arrays point into `block` */
    void *block;   /* every array below, carved from one allocation */
    const char **territory_id;
    const char **player_id;
    cbd_turn_territory *territories;
    cbd_turn_order *orders;
    uint16_t *team;
    cbd_turn_player *player_order;
    cbd_turn_goal *goals;
    uint32_t *sorted;       /* territory indices sorted by id, for lookups */
    cbd_turn_fog *fog;      /* W23: per territory; turn.fog points here when any is given */
    cbd_fog *fogs;          /* their points as read (each malloc'd: cbd_turn_request_free) */
    size_t n_fogs;          /* entries of fogs */
    cbd_turn_limits limits; /* the core's defaults with the config's warapp.max_turn_* */
    /* W21: the board's units in the order read (territory by territory), turn.units here. */
    cbd_turn_unit units[CBD_TURN_MAX_UNITS];
    const char *unit_id[CBD_TURN_MAX_UNITS];   /* into the request */
    const char *unit_name[CBD_TURN_MAX_UNITS]; /* a custom unit's name; NULL for a Commander */
    uint32_t *order_units;                     /* the orders' unit lists, one pool (in block) */
    size_t order_units_cap, order_units_used;
    uint32_t *map; /* W24: turn.neighbor_off then turn.neighbors, one allocation (or NULL) */
    cbd_turn_peace *peace; /* W29: turn.peace, the diplomacy pairs (or NULL) */
    /* W32: turn.bonuses, their ids (into the request) and one pool of their territories (each
     * malloc'd, or NULL without bonuses) */
    cbd_turn_bonus *bonuses;
    const char **bonus_id;
    uint32_t *bonus_terr;
} cbd_turn_request;

/*
 * Reads the turn members of the request object `r` (opened by the caller with CBD_TURN_KEYS
 * plus its own): CBD_READ_OK when the turn is valid and nothing of the request was refused,
 * CBD_READ_INVALID with every offending field recorded (422), CBD_READ_NO_MEMORY with the 500
 * recorded. Free with cbd_turn_request_free either way.
 */
cbd_read_status cbd_turn_read_request(const cbd_reader *r, const cbd_warapp_config *cfg,
                                      cbd_turn_request *q);

void cbd_turn_request_free(cbd_turn_request *q);

/* The core's error, as the 422 (or 500) the API answers with: pointers into the request. */
void cbd_turn_error_problem(const cbd_turn_request *q, cbd_status st, const cbd_turn_error *err,
                            cbd_problem *problem);

/*
 * A failed core call on a turn as its problem. When the budget stopped it (CBD_ERR_BUDGET), or
 * memory ran out, cbd_api_core_problem's answer, naming what to reduce: the order being run
 * (/orders/3), /territories while a start under fog (W23) was built, /move_order while the
 * random move order's schedules were weighed, /goals while
 * the goals were combined, else `member` (the endpoint's choice: /trials, say). Any other error
 * as cbd_turn_error_problem. Returns false.
 */
bool cbd_turn_core_problem(const cbd_config *cfg, const cbd_budget *budget,
                           const cbd_turn_request *q, cbd_status st, const cbd_turn_error *err,
                           const char *member, cbd_problem *problem);

/* The echo both answers carry: "settings" (the battle settings and multi_attack) and
 * "move_order", as members of the object being written; then, when any territory's armies
 * were given as a distribution (W23), "fog": territory id -> that distribution, normalised,
 * in the request's list form (absent otherwise, so that integers answer as before). */
void cbdp_turn_echo_members(cbd_jw *w, const cbd_turn_request *q);

/* Every point of the request's distributions (W23): 0 without fog. */
uint64_t cbdp_turn_fog_points(const cbd_turn_request *q);

/* A player's (or neutral's) id as a JSON member name of the object being written. */
void cbdp_turn_owner_key(cbd_jw *w, const cbd_turn_request *q, cbd_turn_player owner);

#endif
