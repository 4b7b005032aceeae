#ifndef COMBATD_TEST_WARAPP_TURN_CARDS_SCHEDULE_H
#define COMBATD_TEST_WARAPP_TURN_CARDS_SCHEDULE_H

/*
 * The brute force's schedules, from docs/rules.md's text: the phases of W24 in their order,
 * each phase's orders in the move order of W13 (one round-1 ordering of the players for every
 * phase), and in the attack/transfer phase Order Priority (the ordering's first places, or under
 * `listed` the first orders moved to the front) and Order Delay (levels, W30). Works on a
 * cbd_turn alone; for warapp_turn_cards_brute.h.
 */
#include <stdbool.h>

#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"

#define CB_PHASES 6
#define CB_SCHED  16 /* orders of one turn the schedules hold, at most */

/* W24: 0 bombs, 1 emergency blockades, 2 airlifts, 3 gifts, 4 attacks/transfers, 5 blockades;
 * -1 for deploys (run first, all at once) and the cards of W30 (no step of their own). */
static inline int cb_phase(cbd_turn_order_type type) {
    switch (type) {
        case CBD_ORDER_BOMB:
            return 0;
        case CBD_ORDER_EMERGENCY_BLOCKADE:
            return 1;
        case CBD_ORDER_AIRLIFT:
            return 2;
        case CBD_ORDER_GIFT:
            return 3;
        case CBD_ORDER_ATTACK_TRANSFER:
            return 4;
        case CBD_ORDER_BLOCKADE:
            return 5;
        default:
            return -1;
    }
}

/* The round-1 orderings to weigh: under `cycle` the given one; under `random` the players with
 * an order after the deploys, ascending (the first permutation; cb_next_perm gives the rest);
 * under `listed` none. Returns their number. */
static inline int cb_orderings_first(const cbd_turn *t, int *perm) {
    int k = 0;
    if (t->move_order == CBD_MOVE_CYCLE) {
        for (size_t i = 0; i < t->n_player_order; i++) {
            perm[k++] = t->player_order[i];
        }
        return k;
    }
    for (int p = 0; t->move_order == CBD_MOVE_RANDOM && p < (int)t->n_players; p++) {
        for (size_t j = 0; j < t->n_orders; j++) {
            if (t->orders[j].player == p && t->orders[j].type != CBD_ORDER_DEPLOY) {
                perm[k++] = p;
                break;
            }
        }
    }
    return k;
}

static inline long double cb_orderings_count(const cbd_turn *t, int k) {
    long double n = 1;
    for (int i = 2; t->move_order == CBD_MOVE_RANDOM && i <= k; i++) {
        n *= i;
    }
    return n;
}

static inline bool cb_next_perm(int *v, int n) {
    int i = n - 2;
    while (i >= 0 && v[i] >= v[i + 1]) {
        i--;
    }
    if (i < 0) {
        return false;
    }
    int j = n - 1;
    while (v[j] <= v[i]) {
        j--;
    }
    int x = v[i];
    v[i] = v[j];
    v[j] = x;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        x = v[a];
        v[a] = v[b];
        v[b] = x;
    }
    return true;
}

/* W13's rounds over the orders of phase ph: round 1 in perm's order, round 2 reversed, and so
 * on; a player with no order left is passed over. */
static inline int cb_rounds(const cbd_turn *t, int ph, const int *perm, int k, int *out) {
    int n = 0, total = 0, next[64] = {0};
    for (size_t j = 0; j < t->n_orders; j++) {
        total += cb_phase(t->orders[j].type) == ph;
    }
    for (int round = 0; n < total; round++) {
        cr_assert(round < CB_SCHED, "a player with orders is not in the ordering");
        for (int i = 0; i < k; i++) {
            int p = perm[round % 2 == 0 ? i : k - 1 - i];
            for (int j = 0, seen = 0; j < (int)t->n_orders; j++) {
                if (t->orders[j].player == p && cb_phase(t->orders[j].type) == ph &&
                    seen++ == next[p]) {
                    out[n++] = j;
                    next[p]++;
                    break;
                }
            }
        }
    }
    return n;
}

/* The number of cards of `type` player p plays, and of those listed before order `before`. */
static inline int cb_cards(const cbd_turn *t, int p, cbd_turn_order_type type, size_t before) {
    int n = 0;
    for (size_t j = 0; j < t->n_orders && j < before; j++) {
        n += t->orders[j].player == p && t->orders[j].type == type;
    }
    return n;
}

/* W30 under `listed`: the first attack/transfer order of each player with priority cards at the
 * front, more cards first, then as listed; every other order in its place. */
static inline int cb_listed_priority(const cbd_turn *t, int *out) {
    int n = 0, front[64], nf = 0;
    for (size_t j = 0; j < t->n_orders; j++) {
        int p = t->orders[j].player;
        if (t->orders[j].type == CBD_ORDER_ATTACK_TRANSFER &&
            cb_cards(t, p, CBD_ORDER_PRIORITY, SIZE_MAX) > 0) {
            int first = 1;
            for (int f = 0; f < nf; f++) {
                first = first && t->orders[front[f]].player != p;
            }
            if (first) {
                int at = nf++, mine = cb_cards(t, p, CBD_ORDER_PRIORITY, SIZE_MAX);
                while (at > 0 && cb_cards(t, t->orders[front[at - 1]].player, CBD_ORDER_PRIORITY,
                                          SIZE_MAX) < mine) {
                    front[at] = front[at - 1];
                    at--;
                }
                front[at] = (int)j;
            }
        }
    }
    for (int f = 0; f < nf; f++) {
        out[n++] = front[f];
    }
    for (size_t j = 0; j < t->n_orders; j++) {
        int moved = 0;
        for (int f = 0; f < nf; f++) {
            moved = moved || front[f] == (int)j;
        }
        if (t->orders[j].type == CBD_ORDER_ATTACK_TRANSFER && !moved) {
            out[n++] = (int)j;
        }
    }
    return n;
}

/* The attack/transfer phase (W13, W30): priority, then the delay levels, each level in the
 * order the move order gave. */
static inline int cb_attack_phase(const cbd_turn *t, const int *perm, int k, int *out) {
    int n;
    if (t->move_order == CBD_MOVE_LISTED) {
        n = cb_listed_priority(t, out);
    } else {
        int first[64];
        for (int i = 0; i < k; i++) { /* a stable sort by cards, more first */
            int at = i, mine = cb_cards(t, perm[i], CBD_ORDER_PRIORITY, SIZE_MAX);
            while (at > 0 && cb_cards(t, first[at - 1], CBD_ORDER_PRIORITY, SIZE_MAX) < mine) {
                first[at] = first[at - 1];
                at--;
            }
            first[at] = perm[i];
        }
        n = cb_rounds(t, 4, first, k, out);
    }
    for (int i = 1; i < n; i++) { /* a stable sort by level */
        int o = out[i], at = i;
        int level = cb_cards(t, t->orders[o].player, CBD_ORDER_DELAY, (size_t)o);
        while (at > 0 && cb_cards(t, t->orders[out[at - 1]].player, CBD_ORDER_DELAY,
                                  (size_t)out[at - 1]) > level) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = o;
    }
    return n;
}

/* The whole turn's steps after the deploys, phase by phase (W24), for one round-1 ordering. */
static inline int cb_schedule(const cbd_turn *t, const int *perm, int k, int *out) {
    int n = 0;
    for (int ph = 0; ph < CB_PHASES; ph++) {
        if (ph == 4) {
            n += cb_attack_phase(t, perm, k, out + n);
        } else if (t->move_order == CBD_MOVE_LISTED) {
            for (size_t j = 0; j < t->n_orders; j++) {
                out[n] = (int)j;
                n += cb_phase(t->orders[j].type) == ph;
            }
        } else {
            n += cb_rounds(t, ph, perm, k, out + n);
        }
    }
    cr_assert(n <= CB_SCHED);
    return n;
}

#endif
