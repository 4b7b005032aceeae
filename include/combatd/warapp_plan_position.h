#ifndef COMBATD_WARAPP_PLAN_POSITION_H
#define COMBATD_WARAPP_PLAN_POSITION_H

#include "combatd/warapp_plan.h"

/*
 * The `position` objective of /plan-turn (docs/rules.md W48) and the other players' reply when
 * their orders are not given (W49). Implemented in src/core/warapp/plan/:
 * warapp_plan_position.c (a turn's standing, a plan's value over the scenarios) and
 * warapp_plan_others.c (the frontier the search aims at, the others' estimated incomes, the
 * default scenarios).
 */

/* W48: the weights of a player's standing S(p), one table. An army of income comes every turn,
 * so income weighs most; see docs/rules.md W48 for the reasons. */
#define CBD_POSITION_W_INCOME      3.0
#define CBD_POSITION_W_PROGRESS    2.0
#define CBD_POSITION_W_ARMIES      0.5
#define CBD_POSITION_W_TERRITORIES 0.5
#define CBD_POSITION_W_RISK        1.0

/* W48: the parts of one player's standing after a turn, before their weights. */
typedef struct {
    double income, progress, armies, territories, risk;
} cbd_position_parts;

/*
 * W48: player p's standing parts from the analysis `a` of `turn` (a map: neighbor_off set;
 * a->bonus_owner filled for turn's bonuses by cbd_turn_analyze_bonuses, or NULL when the turn
 * has none). scratch has room for turn->n_territories marks, all 0 (left so).
 */
void cbd_plan_position_parts(const cbd_turn *turn, const cbd_turn_analysis *a, uint64_t base_income,
                             cbd_turn_player p, unsigned char *scratch, cbd_position_parts *out);

/* W48: the weighted sum of the parts (income + progress + armies + territories − risk). */
double cbd_plan_position_standing(const cbd_position_parts *parts);

/*
 * W48: the player's value on one analysed turn: S(player) − max over the other players (not
 * neutral, not the player's teammates, owning a territory at the start of `turn`) of S(o); S of
 * the player alone when there is no other.
 */
double cbd_plan_position_score(const cbd_turn *turn, const cbd_turn_analysis *a,
                               uint64_t base_income, cbd_turn_player player,
                               unsigned char *scratch);

/*
 * W48, W49: a plan's value, the weighted mean over req->scenarios of the score of the turn
 * whose orders are the plan's, the board's, then the scenario's, each analysed exactly
 * (cbd_turn_analyze, cbd_turn_analyze_bonuses) and charged to `budget`. per_scenario (NULL, or
 * room for req->n_scenarios) gets each scenario's score. Errors as cbd_turn_analyze's; an
 * error's order index is into that turn's orders.
 */
cbd_status cbd_plan_position_value(const cbd_turn *board, const cbd_plan_request *req,
                                   const cbd_plan *plan, const cbd_turn_limits *limits,
                                   cbd_budget *budget, double *per_scenario, double *value,
                                   cbd_turn_error *err);

/*
 * The territories the search aims at under `position` (its goals: the seeds, the plain splits
 * and the climbs attack them): every territory not the player's nor a teammate's bordering one
 * of the player's, in territory order; when there is none, the player's own territories (held).
 * goals has room for board->n_territories; returns their number.
 */
size_t cbd_plan_position_goals(const cbd_turn *board, cbd_turn_player player, uint32_t *goals);

/* W49: a player's income when the request does not give it: base_income plus the values of the
 * board's bonuses it owns whole at the start, at least 0. */
uint64_t cbd_plan_estimated_income(const cbd_turn *board, cbd_turn_player p, uint64_t base_income);

/*
 * W49: whether player o is modelled by the default scenarios: not the planning player nor a
 * teammate, owning a territory at the start, and giving no order on the board.
 */
bool cbd_plan_modelled(const cbd_turn *board, cbd_turn_player player, cbd_turn_player o);

/*
 * W49: the default scenarios' orders for every modelled player o with incomes[o] (indexed by
 * player): "hold" (o's income deployed evenly on its territories bordering the player's, the
 * first ones one more, on its first territory when none borders; no attack) into hold, and
 * "strike" (o's income deployed on its strongest territory bordering the player's weakest
 * territory that borders o, then an attack from there onto it with every army it may move) into
 * strike, o's without such a border holding. Each array has room for board->n_territories +
 * 2 * board->n_players orders. Returns the number of modelled players.
 */
size_t cbd_plan_default_scenarios(const cbd_turn *board, cbd_turn_player player,
                                  const uint64_t *incomes, cbd_turn_order *hold, size_t *n_hold,
                                  cbd_turn_order *strike, size_t *n_strike);

#endif
