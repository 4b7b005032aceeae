/*
 * W32 bonuses: the chance that a player owns every territory of a bonus at the end of a turn.
 * It is a joint chance, computed exactly as W16's goals are (the bonus's territories as goals
 * with the player as owner, cbd_turn_analyze's goals probability), so that the groups' joint
 * states, the independence of groups and the random move order's permutations are weighed by
 * the one code that already does it. The marginals of the turn's own analysis decide the cases
 * that need no second analysis.
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

/* The territories of b that the player may own but not surely: *n of them into `goals`. Returns
 * false when one of b's territories is surely not the player's (the chance is then 0). */
static bool uncertain_goals(const cbd_turn_analysis *a, const cbd_turn_bonus *b,
                            cbd_turn_player player, cbd_turn_goal *goals, size_t *n) {
    *n = 0;
    for (size_t i = 0; i < b->n_territories; i++) {
        double own = a->territories[b->territories[i]].owner[player];
        if (own <= 0) {
            return false;
        }
        if (own < 1) {
            goals[(*n)++] = (cbd_turn_goal){b->territories[i], player};
        }
    }
    return true;
}

static bool bonus_in_range(const cbd_turn *turn, const cbd_turn_bonus *b) {
    for (size_t i = 0; i < b->n_territories; i++) {
        if (b->territories[i] >= turn->n_territories) {
            return false;
        }
    }
    return b->n_territories > 0;
}

cbd_status cbd_turn_bonus_chance(const cbd_turn *turn, const cbd_turn_analysis *a,
                                 const cbd_turn_bonus *b, cbd_turn_player player,
                                 const cbd_turn_limits *limits, cbd_budget *budget, double *out,
                                 cbd_turn_error *err) {
    *out = 0;
    if (!bonus_in_range(turn, b) || player >= turn->n_players) {
        *err = (cbd_turn_error){CBD_TURN_ERR_SIZE, 0, 0, 0};
        return CBD_ERR_INVALID;
    }
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, b->n_territories))) {
        *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return CBD_ERR_BUDGET;
    }
    cbd_turn_goal *goals = cbd_mem_alloc(budget, b->n_territories * sizeof *goals);
    if (!goals) {
        *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return cbd_budget_nomem(budget);
    }
    size_t n;
    cbd_status st = CBD_OK;
    if (!uncertain_goals(a, b, player, goals, &n)) {
        *out = 0;
    } else if (n <= 1) {
        /* every other territory is surely the player's: the joint chance is this one's */
        *out = n == 0 ? 1.0 : a->territories[goals[0].territory].owner[player];
    } else {
        cbd_turn again = *turn;
        again.goals = goals;
        again.n_goals = n;
        cbd_turn_analysis joint;
        st = cbd_turn_analyze(&again, limits, budget, &joint, err);
        if (st == CBD_OK) {
            *out = joint.goals_probability;
            cbd_turn_analysis_free(&joint);
        }
    }
    cbd_mem_free(goals);
    return st;
}

cbd_status cbd_turn_analyze_bonuses(const cbd_turn *turn, const cbd_turn_limits *limits,
                                    cbd_budget *budget, cbd_turn_analysis *a, cbd_turn_error *err) {
    if (turn->n_bonuses == 0) {
        return CBD_OK;
    }
    size_t np = turn->n_players;
    a->bonus_owner = cbd_mem_calloc(budget, turn->n_bonuses * np + 1, sizeof *a->bonus_owner);
    if (!a->bonus_owner) {
        *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return cbd_budget_nomem(budget);
    }
    a->n_bonuses = turn->n_bonuses;
    cbd_status st = CBD_OK;
    for (size_t b = 0; b < turn->n_bonuses && st == CBD_OK; b++) {
        for (size_t p = 0; p < np && st == CBD_OK; p++) {
            st = cbd_turn_bonus_chance(turn, a, &turn->bonuses[b], (cbd_turn_player)p, limits,
                                       budget, &a->bonus_owner[b * np + p], err);
        }
    }
    return st;
}

bool cbd_turn_bonus_owner(const cbd_turn_bonus *b, const cbd_turn_territory *board,
                          cbd_turn_player *owner) {
    if (b->n_territories == 0) {
        return false;
    }
    cbd_turn_player p = board[b->territories[0]].owner;
    for (size_t i = 1; i < b->n_territories; i++) {
        if (board[b->territories[i]].owner != p) {
            return false;
        }
    }
    *owner = p;
    return p != CBD_TURN_NEUTRAL;
}
