#ifndef COMBATD_WARAPP_TURN_SIM_INTERNAL_H
#define COMBATD_WARAPP_TURN_SIM_INTERNAL_H

/* What the seeded resolution's files share (warapp_turn_sim.c, warapp_turn_sim_attack.c,
 * warapp_turn_sim_cards.c, and warapp_turn_sim_units.c, which implements the functions below):
 * the state of one seeded turn and the units on its board. */
#include "combatd/warapp_simulate.h"
#include "core/warapp/turn/warapp_turn_internal.h"

/* Battle samplers are cached for army counts below this (a bounded table, not per army):
 * their set-up (logs, square roots) would otherwise cost as much as the draws. */
#define CBD_TURN_SIDE_CACHE 1024

struct cbd_turn_sim {
    cbd_turn_plan plan;
    uint64_t *eligible; /* W15, per territory */
    uint64_t *drawn;    /* W23: the last turn's armies before deploys, per territory */
    size_t fog_points;  /* W23: every point of every distribution */
    size_t fog_terr;    /* W23: territories whose count is drawn */
    uint32_t *first;    /* round 1's order of movers */
    uint32_t *sched;    /* the orders in sequence in running order */
    size_t cache_n;
    cbd_sim_side *side[2]; /* [0] attackers (offense rate), [1] defenders, by army count */
    uint8_t *ready;
    /* W21, W22: the units as the turn runs (turn->n_units <= CBD_TURN_MAX_UNITS). */
    uint32_t unit_at[CBD_TURN_MAX_UNITS]; /* territory, or CBD_TURN_UNIT_DEAD */
    uint64_t health[CBD_TURN_MAX_UNITS];  /* a health unit's health left */
    uint64_t arrival[CBD_TURN_MAX_UNITS]; /* W19's listed order on a territory: ascending */
    bool moved[CBD_TURN_MAX_UNITS];
    uint64_t next_arrival;
    bool *eliminated;    /* n_players */
    bool *has_commander; /* n_players: started the turn with one (W22) */
};

/* W21: the units order o can send from its `from` (on it, not moved without multi_attack, and
 * not onto a teammate's territory), in the order listed. */
size_t cbdp_turn_sim_sendable(const cbd_turn_sim *sim, const cbd_turn_order *o,
                              cbd_turn_player to_owner, uint32_t *out);
/* W21: units arrive on territory `to` after those there, in the order of `list`, moved. */
void cbdp_turn_sim_arrive(cbd_turn_sim *sim, const uint32_t *list, size_t n, uint32_t to);
/* The units on territory `at` in W19's listed order; returns how many. */
size_t cbdp_turn_sim_units_on(const cbd_turn_sim *sim, uint32_t at, uint32_t *out);
/* W22: player p, who started with a Commander, has none left: every territory of theirs
 * becomes neutral with what it holds. */
void cbdp_turn_sim_eliminate_if_last(cbd_turn_sim *sim, cbd_turn_territory *b, cbd_turn_player p);
/* One side of a battle with its units as they stand (a health unit's toughness: its health). */
void cbdp_turn_sim_side_with_units(const cbd_turn_sim *sim, uint64_t armies, const uint32_t *list,
                                   size_t n, cbd_warapp_unit *units, cbd_warapp_side *side);
/* W19: the units of a side after its damage; returns whether a Commander of them died. */
bool cbdp_turn_sim_units_take(cbd_turn_sim *sim, const uint32_t *list, size_t n,
                              const uint64_t *left, cbd_turn_event *ev);

#endif
