/*
 * What the `position` objective (W48) needs of the board beside the analysis: the territories
 * the search aims at, and the other players' reply when the request does not give it (W49):
 * their incomes estimated from what they own, and the "hold" and "strike" scenarios.
 */
#include "combatd/warapp_plan_position.h"

/* Whether o is the player or a teammate (W11). */
static bool friendly(const cbd_turn *b, cbd_turn_player player, uint32_t o) {
    return o == player || (o < b->n_players && b->team && b->team[o] == b->team[player]);
}

/* Whether territory t borders a territory owned by `owner`. */
static bool borders_owner(const cbd_turn *b, uint32_t t, uint32_t owner) {
    for (uint32_t k = b->neighbor_off[t]; k < b->neighbor_off[t + 1]; k++) {
        if (b->territories[b->neighbors[k]].owner == owner) {
            return true;
        }
    }
    return false;
}

size_t cbd_plan_position_goals(const cbd_turn *board, cbd_turn_player player, uint32_t *goals) {
    size_t n = 0;
    for (uint32_t t = 0; t < board->n_territories; t++) {
        if (!friendly(board, player, board->territories[t].owner) &&
            borders_owner(board, t, player)) {
            goals[n++] = t;
        }
    }
    for (uint32_t t = 0; n == 0 && t < board->n_territories; t++) {
        if (board->territories[t].owner == player) {
            goals[n++] = t;
        }
    }
    return n;
}

uint64_t cbd_plan_estimated_income(const cbd_turn *board, cbd_turn_player p, uint64_t base_income) {
    int64_t sum = base_income > INT64_MAX ? INT64_MAX : (int64_t)base_income;
    for (size_t i = 0; i < board->n_bonuses; i++) {
        const cbd_turn_bonus *b = &board->bonuses[i];
        cbd_turn_player owner;
        if (cbd_turn_bonus_owner(b, board->territories, &owner) && owner == p) {
            sum += b->value;
        }
    }
    return sum > 0 ? (uint64_t)sum : 0;
}

bool cbd_plan_modelled(const cbd_turn *board, cbd_turn_player player, cbd_turn_player o) {
    if (o >= board->n_players || friendly(board, player, o)) {
        return false;
    }
    for (size_t i = 0; i < board->n_orders; i++) {
        if (board->orders[i].player == o) {
            return false; /* its orders are given: they run in every scenario */
        }
    }
    for (size_t t = 0; t < board->n_territories; t++) {
        if (board->territories[t].owner == o) {
            return true;
        }
    }
    return false;
}

/* "hold": o's income evenly on its territories bordering the player's (the first ones one army
 * more), on its first territory when none does. */
static void hold_orders(const cbd_turn *b, cbd_turn_player player, cbd_turn_player o,
                        uint64_t income, cbd_turn_order *out, size_t *n) {
    uint64_t front = 0;
    uint32_t first = UINT32_MAX;
    for (uint32_t t = 0; t < b->n_territories; t++) {
        if (b->territories[t].owner == o) {
            first = first == UINT32_MAX ? t : first;
            front += borders_owner(b, t, player);
        }
    }
    if (income == 0 || first == UINT32_MAX) {
        return;
    }
    if (front == 0) {
        out[(*n)++] =
            (cbd_turn_order){.type = CBD_ORDER_DEPLOY, .player = o, .to = first, .armies = income};
        return;
    }
    uint64_t each = income / front, extra = income % front;
    for (uint32_t t = 0; t < b->n_territories; t++) {
        if (b->territories[t].owner != o || !borders_owner(b, t, player)) {
            continue;
        }
        uint64_t d = each + (extra > 0);
        extra -= extra > 0;
        if (d > 0) {
            out[(*n)++] =
                (cbd_turn_order){.type = CBD_ORDER_DEPLOY, .player = o, .to = t, .armies = d};
        }
    }
}

/* "strike": the player's weakest territory bordering o (the first on a tie) attacked from o's
 * strongest territory bordering it (the first on a tie) with its armies and o's income, all
 * deployed there; the order asks for more than may move, which W14.3 caps. False when o
 * borders none of the player's territories. */
static bool strike_orders(const cbd_turn *b, cbd_turn_player player, cbd_turn_player o,
                          uint64_t income, cbd_turn_order *out, size_t *n) {
    uint32_t target = UINT32_MAX;
    for (uint32_t t = 0; t < b->n_territories; t++) {
        if (b->territories[t].owner == player && borders_owner(b, t, o) &&
            (target == UINT32_MAX || b->territories[t].armies < b->territories[target].armies)) {
            target = t;
        }
    }
    if (target == UINT32_MAX) {
        return false;
    }
    uint32_t from = UINT32_MAX;
    for (uint32_t k = b->neighbor_off[target]; k < b->neighbor_off[target + 1]; k++) {
        uint32_t s = b->neighbors[k];
        if (b->territories[s].owner == o &&
            (from == UINT32_MAX || b->territories[s].armies > b->territories[from].armies ||
             (b->territories[s].armies == b->territories[from].armies && s < from))) {
            from = s;
        }
    }
    if (income > 0) {
        out[(*n)++] =
            (cbd_turn_order){.type = CBD_ORDER_DEPLOY, .player = o, .to = from, .armies = income};
    }
    uint64_t ask = b->territories[from].armies + income;
    for (size_t i = 0; b->fog && i < b->fog[from].n; i++) {
        /* W23: the largest count it may hold, so that the cap of W14.3 decides */
        uint64_t c = b->fog[from].points[i].armies + income;
        ask = c > ask ? c : ask;
    }
    out[(*n)++] = (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                                   .player = o,
                                   .from = from,
                                   .to = target,
                                   .armies = ask > 0 ? ask : 1};
    return true;
}

size_t cbd_plan_default_scenarios(const cbd_turn *board, cbd_turn_player player,
                                  const uint64_t *incomes, cbd_turn_order *hold, size_t *n_hold,
                                  cbd_turn_order *strike, size_t *n_strike) {
    size_t modelled = 0;
    *n_hold = 0;
    *n_strike = 0;
    for (uint32_t o = 0; o < board->n_players; o++) {
        if (!cbd_plan_modelled(board, player, (cbd_turn_player)o)) {
            continue;
        }
        modelled++;
        hold_orders(board, player, (cbd_turn_player)o, incomes[o], hold, n_hold);
        if (!strike_orders(board, player, (cbd_turn_player)o, incomes[o], strike, n_strike)) {
            hold_orders(board, player, (cbd_turn_player)o, incomes[o], strike, n_strike);
        }
    }
    return modelled;
}
