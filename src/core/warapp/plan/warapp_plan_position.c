/*
 * The `position` objective (W48): a player's standing after a turn, read from the turn's exact
 * analysis, against the strongest other player's; a plan's value is its mean over the
 * scenarios of the others' orders (W49).
 */
#include "combatd/warapp_plan_position.h"

#include <string.h>

/* A chance within [0, 1]: the analysis's sums of products may pass 1 by a few ulps. */
static double chance(double p) {
    return p > 1.0 ? 1.0 : p < 0.0 ? 0.0 : p;
}

/* Whether o is p's enemy: a player (not neutral), not p, not p's teammate (W11). */
static bool enemy(const cbd_turn *turn, cbd_turn_player p, uint32_t o) {
    if (o >= turn->n_players || o == p) {
        return false;
    }
    return !turn->team || turn->team[o] != turn->team[p];
}

/*
 * W48's armies of player o on territory t: the armies o holds there on average, owner and
 * armies taken jointly from the analysis (a territory taken holds the attacker's survivors, one
 * held its defender's; the product of the two marginals would credit each with the other's).
 */
static double armies_of(const cbd_turn_analysis *a, size_t t, uint32_t o) {
    return a->territories[t].owned_armies[o];
}

/* The marks of W48's risk walk, one per territory (the scratch), all MARK_NONE between walks. */
enum { MARK_NONE = 0, MARK_INSIDE = 1, MARK_OUTSIDE = 2 };

/*
 * W48's risk to p's bonus b: the enemies' armies on the territories bordering b from outside
 * (E) against p's armies on b's territories that border outside (A), E / (E + A); 0 when both
 * are 0. The walk reads b's territories and their borders only (the map is symmetric, W24), so
 * that a map of 820 bonuses costs its bonuses' sizes, not 820 walks of the map; `mark` (room
 * for the board's territories, all MARK_NONE) is left as it was found.
 */
static double exposure(const cbd_turn *turn, const cbd_turn_analysis *a, const cbd_turn_bonus *b,
                       cbd_turn_player p, unsigned char *mark) {
    for (size_t i = 0; i < b->n_territories; i++) {
        mark[b->territories[i]] = MARK_INSIDE;
    }
    double e = 0, mine = 0;
    for (size_t i = 0; i < b->n_territories; i++) {
        uint32_t t = b->territories[i];
        bool edge = false;
        for (uint32_t k = turn->neighbor_off[t]; k < turn->neighbor_off[t + 1]; k++) {
            uint32_t u = turn->neighbors[k];
            if (mark[u] == MARK_INSIDE) {
                continue;
            }
            edge = true;
            if (mark[u] == MARK_NONE) {
                mark[u] = MARK_OUTSIDE;
                for (uint32_t o = 0; o < turn->n_players; o++) {
                    e += enemy(turn, p, o) ? armies_of(a, u, o) : 0;
                }
            }
        }
        mine += edge ? armies_of(a, t, p) : 0;
    }
    for (size_t i = 0; i < b->n_territories; i++) {
        uint32_t t = b->territories[i];
        for (uint32_t k = turn->neighbor_off[t]; k < turn->neighbor_off[t + 1]; k++) {
            mark[turn->neighbors[k]] = MARK_NONE;
        }
        mark[t] = MARK_NONE;
    }
    return e + mine > 0 ? e / (e + mine) : 0;
}

/*
 * W48's reach of a bonus: the turns its missing territories take, their armies (`left`) over
 * what one turn of base income kills at the offense kill rate; 1 within a turn, 1/turns past
 * it, 0 when nothing can kill (a rate or an income of 0) and armies are left to kill.
 */
static double reach(double left, cbd_micro offense_rate, uint64_t base_income) {
    double kills = (double)offense_rate / (double)CBD_MICRO_ONE * (double)base_income;
    if (left <= kills) {
        return 1;
    }
    return kills > 0 ? kills / left : 0;
}

void cbd_plan_position_parts(const cbd_turn *turn, const cbd_turn_analysis *a, uint64_t base_income,
                             cbd_turn_player p, unsigned char *scratch, cbd_position_parts *out) {
    memset(out, 0, sizeof *out);
    out->income = (double)base_income;
    for (size_t t = 0; t < turn->n_territories; t++) {
        out->territories += chance(a->territories[t].owner[p]);
        out->armies += armies_of(a, t, p);
    }
    for (size_t i = 0; a->bonus_owner && i < turn->n_bonuses; i++) {
        const cbd_turn_bonus *b = &turn->bonuses[i];
        double whole = chance(a->bonus_owner[i * a->n_players + p]);
        out->income += (double)b->value * whole;
        if (b->value <= 0 || b->n_territories == 0) {
            continue; /* no progress toward a penalty, nothing of it to lose */
        }
        double share = 0, left = 0;
        for (size_t k = 0; k < b->n_territories; k++) {
            const cbd_turn_territory_result *r = &a->territories[b->territories[k]];
            share += chance(r->owner[p]);
            left += r->mean_armies - r->owned_armies[p];
        }
        share /= (double)b->n_territories;
        out->progress += (double)b->value * share * share * (1 - whole) *
                         reach(left, turn->battle.offense_kill_rate, base_income);
        if (whole > 0 && turn->neighbor_off) {
            out->risk += (double)b->value * whole * exposure(turn, a, b, p, scratch);
        }
    }
}

double cbd_plan_position_standing(const cbd_position_parts *s) {
    return CBD_POSITION_W_INCOME * s->income + CBD_POSITION_W_PROGRESS * s->progress +
           CBD_POSITION_W_ARMIES * s->armies + CBD_POSITION_W_TERRITORIES * s->territories -
           CBD_POSITION_W_RISK * s->risk;
}

double cbd_plan_position_score(const cbd_turn *turn, const cbd_turn_analysis *a,
                               uint64_t base_income, cbd_turn_player player,
                               unsigned char *scratch) {
    cbd_position_parts parts;
    cbd_plan_position_parts(turn, a, base_income, player, scratch, &parts);
    double mine = cbd_plan_position_standing(&parts), best = 0;
    bool any = false;
    for (uint32_t o = 0; o < turn->n_players; o++) {
        bool present = false;
        for (size_t t = 0; t < turn->n_territories && !present; t++) {
            present = turn->territories[t].owner == o;
        }
        if (!present || !enemy(turn, player, o)) {
            continue;
        }
        cbd_plan_position_parts(turn, a, base_income, (cbd_turn_player)o, scratch, &parts);
        double s = cbd_plan_position_standing(&parts);
        best = !any || s > best ? s : best;
        any = true;
    }
    return mine - best;
}

/* One scenario's score: the turn of the plan's orders, the board's, then the scenario's, run in
 * the board's move order (W50: under `listed` the plan's first; `cycle` and `random` interleave
 * them as W13 says). */
static cbd_status scenario_score(const cbd_turn *board, const cbd_plan_request *req,
                                 const cbd_plan *plan, const cbd_plan_scenario *sc,
                                 cbd_turn_order *orders, unsigned char *scratch,
                                 const cbd_turn_limits *limits, cbd_budget *budget, double *score,
                                 cbd_turn_error *err) {
    size_t n = 0;
    for (size_t i = 0; i < plan->n_orders; i++) {
        orders[n++] = plan->orders[i];
    }
    for (size_t i = 0; i < board->n_orders; i++) {
        orders[n++] = board->orders[i];
    }
    for (size_t i = 0; i < sc->n_orders; i++) {
        orders[n++] = sc->orders[i];
    }
    cbd_turn turn = *board;
    turn.orders = orders;
    turn.n_orders = n;
    turn.goals = NULL;
    turn.n_goals = 0;
    cbd_turn_analysis a;
    cbd_status st = cbd_turn_analyze(&turn, limits, budget, &a, err);
    if (st != CBD_OK) {
        return st;
    }
    st = cbd_turn_analyze_bonuses(&turn, limits, budget, &a, err);
    if (st == CBD_OK) {
        *score = cbd_plan_position_score(&turn, &a, req->base_income, req->player, scratch);
    }
    cbd_turn_analysis_free(&a);
    return st;
}

cbd_status cbd_plan_position_value(const cbd_turn *board, const cbd_plan_request *req,
                                   const cbd_plan *plan, const cbd_turn_limits *limits,
                                   cbd_budget *budget, double *per_scenario, double *value,
                                   cbd_turn_error *err) {
    size_t most = 0;
    double total = 0;
    for (size_t s = 0; s < req->n_scenarios; s++) {
        most = req->scenarios[s].n_orders > most ? req->scenarios[s].n_orders : most;
        total += req->scenarios[s].weight;
    }
    *value = 0;
    if (req->n_scenarios == 0 || !(total > 0)) {
        *err = (cbd_turn_error){CBD_TURN_ERR_SIZE, 0, 0, 0};
        return CBD_ERR_INVALID;
    }
    cbd_turn_order *orders =
        cbd_mem_calloc(budget, plan->n_orders + board->n_orders + most + 1, sizeof *orders);
    unsigned char *scratch = cbd_mem_calloc(budget, board->n_territories + 1, sizeof *scratch);
    if (!orders || !scratch) {
        cbd_mem_free(orders);
        cbd_mem_free(scratch);
        *err = (cbd_turn_error){CBD_TURN_ERR_BUDGET, CBD_TURN_NO_ORDER, 0, 0};
        return cbd_budget_nomem(budget);
    }
    cbd_status st = CBD_OK;
    for (size_t s = 0; s < req->n_scenarios && st == CBD_OK; s++) {
        double score = 0;
        st = scenario_score(board, req, plan, &req->scenarios[s], orders, scratch, limits, budget,
                            &score, err);
        if (per_scenario) {
            per_scenario[s] = score;
        }
        *value += req->scenarios[s].weight / total * score;
    }
    cbd_mem_free(orders);
    cbd_mem_free(scratch);
    return st;
}
