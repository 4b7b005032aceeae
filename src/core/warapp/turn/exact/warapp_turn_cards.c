/*
 * The cards' exact steps (W25–W28): each card over every state of the exact engine. A card draws
 * nothing, so each state has one successor: the state with the card played, or the state
 * itself when the card's conditions do not hold then (skipped, W24). The rules live here: W25
 * Bomb, W26 Blockade and Emergency Blockade, W27 Airlift, W28 Gift.
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

/* A card on state k into out (a copy of k made by the caller): whether it ran. */
typedef bool (*card_play)(const cbd_turn_engine *e, const cbd_turn_order *o, uint32_t *out);

/* The words of territory `t` of the turn in a state (it is in the group: the card's row
 * touches it, warapp_turn_kinds.c). */
static uint32_t *terr_words(const cbd_turn_engine *e, uint32_t *k, uint32_t t) {
    return k + (size_t)e->local[t] * e->stride;
}

/*
 * One card over every state of e->cur into e->next: each state charged as a transfer's (and
 * `extra` more), counted in the work, its skips added to the order's result (W16), then the
 * maps swapped.
 */
static cbd_status each_state(cbd_turn_engine *e, size_t oi, double weight, card_play play,
                             uint64_t extra) {
    const cbd_turn_order *o = &e->plan->turn->orders[oi];
    const size_t words = e->cur.words;
    e->order = oi;
    uint64_t per = cbdp_turn_state_units(e, CBD_WORK_TURN_STATE) + cbdp_turn_unit_scan(e) + extra;
    if (!cbd_charge(e->budget, cbd_work_times(per, e->cur.count))) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    if (e->work + e->cur.count > e->limits->max_work) {
        return cbdp_turn_too_large(e, CBD_TURN_ERR_WORK, oi, e->work + e->cur.count,
                                   e->limits->max_work);
    }
    e->work += e->cur.count;
    cbd_status st = cbdp_turn_map_clear(&e->next, words);
    if (st != CBD_OK) {
        return cbdp_turn_stopped(e, st);
    }
    cbd_turn_order_result *r = &e->ores[oi];
    for (size_t i = 0; i < e->cur.count && st == CBD_OK; i++) {
        const uint32_t *k = e->cur.keys + i * words;
        memcpy(e->key, k, words * sizeof *e->key);
        if (play(e, o, e->key)) {
            st = cbdp_turn_map_add(&e->next, e->key, e->cur.prob[i]);
        } else {
            r->skipped += e->cur.prob[i] * weight; /* W24: its conditions did not hold */
            st = cbdp_turn_map_add(&e->next, k, e->cur.prob[i]);
        }
    }
    if (st != CBD_OK) {
        return cbdp_turn_stopped(e, st);
    }
    if ((st = cbdp_turn_charge_misses(e, e->cur.count)) != CBD_OK) {
        return st;
    }
    cbd_turn_map tmp = e->cur;
    e->cur = e->next;
    e->next = tmp;
    return CBD_OK;
}

/* W25: on a map, whether the target borders a territory the player owns in state k. */
static bool next_to_player(const cbd_turn_engine *e, const cbd_turn_order *o, uint32_t *k) {
    const cbd_turn *t = e->plan->turn;
    if (!t->neighbor_off) {
        return true;
    }
    for (uint32_t i = t->neighbor_off[o->to]; i < t->neighbor_off[o->to + 1]; i++) {
        if (terr_words(e, k, t->neighbors[i])[W_OWNER] == o->player) {
            return true;
        }
    }
    return false;
}

/* W25: an enemy's or neutral territory, not at peace, next to the player's on a map, is
 * halved (rounded down); its eligible armies are cut to what is left; units are untouched. */
static bool bomb(const cbd_turn_engine *e, const cbd_turn_order *o, uint32_t *k) {
    uint32_t *w = terr_words(e, k, o->to);
    cbd_turn_player owner = (cbd_turn_player)w[W_OWNER];
    if (cbdp_turn_is_own(e->plan, o->player, owner) ||
        cbdp_turn_at_peace(e->plan, o->player, owner) || !next_to_player(e, o, k)) {
        return false;
    }
    w[W_ARMIES] /= 2;
    if (e->stride == 3 && w[W_ELIG] > w[W_ARMIES]) {
        w[W_ELIG] = w[W_ARMIES]; /* W15 */
    }
    return true;
}

/* W26: armies × m, rounded down and capped at 10^9 (W10). */
uint32_t cbdp_turn_blockaded(const cbd_turn *t, cbd_turn_order_type type, uint64_t armies) {
    cbd_micro m =
        type == CBD_ORDER_BLOCKADE ? t->blockade_multiplier : t->emergency_blockade_multiplier;
    /* armies <= 10^9 and m <= 10^8 millionths: the product fits in 64 bits. */
    uint64_t v = armies * (uint64_t)m / CBD_MICRO_ONE;
    return (uint32_t)(v > CBD_WARAPP_MAX_ARMIES ? CBD_WARAPP_MAX_ARMIES : v);
}

/* W26: the player's own territory with no special unit on it becomes neutral with its armies
 * times the multiplier, none eligible. */
static bool blockade(const cbd_turn_engine *e, const cbd_turn_order *o, uint32_t *k) {
    uint32_t *w = terr_words(e, k, o->to);
    uint8_t on[CBD_TURN_MAX_UNITS];
    if (w[W_OWNER] != o->player ||
        (e->gu.n > 0 && cbdp_turn_gunits_on(&e->gu, k, e->local[o->to], on) > 0)) {
        return false;
    }
    w[W_OWNER] = CBD_TURN_NEUTRAL;
    w[W_ARMIES] = cbdp_turn_blockaded(e->plan->turn, o->type, w[W_ARMIES]);
    if (e->stride == 3) {
        w[W_ELIG] = 0;
    }
    return true;
}

/* W27: from the player's territory to one of the player's side, what W14.2–3 allow and the
 * units listed (W21, never onto a teammate's), with no battle and no border. The armies sent
 * leave `from`'s eligible armies and are not eligible on `to` (W15). */
static bool airlift(const cbd_turn_engine *e, const cbd_turn_order *o, uint32_t *k) {
    const size_t S = e->stride, lf = e->local[o->from], lt = e->local[o->to];
    cbd_turn_player to_owner = (cbd_turn_player)k[lt * S + W_OWNER];
    if (k[lf * S + W_OWNER] != o->player || !cbdp_turn_is_own(e->plan, o->player, to_owner)) {
        return false;
    }
    uint64_t armies = k[lf * S + W_ARMIES];
    uint64_t elig = S == 3 ? k[lf * S + W_ELIG] : armies;
    uint64_t sent = cbdp_turn_sent(e->plan->turn, o, armies, elig);
    uint8_t units[CBD_TURN_MAX_UNITS];
    size_t n_units = e->gu.n > 0 && o->n_units > 0 && to_owner == o->player
                         ? cbdp_turn_gunits_sendable(&e->gu, k, o, lf, units)
                         : 0;
    if (sent == 0 && n_units == 0) {
        return false;
    }
    k[lf * S + W_ARMIES] -= (uint32_t)sent;
    if (S == 3) {
        k[lf * S + W_ELIG] = (uint32_t)(elig > sent ? elig - sent : 0);
    }
    k[lt * S + W_ARMIES] += (uint32_t)sent;
    if (n_units > 0) {
        cbdp_turn_gunits_lift(&e->gu, k, units, n_units, lf);
        cbdp_turn_gunits_place(&e->gu, k, units, n_units, lt); /* W21: moved */
    }
    return true;
}

/* W28: the player's territory becomes to_player's with all it holds, none of its armies
 * eligible, its units counted as moved and its Commanders as the receiver's (W22). */
static bool gift(const cbd_turn_engine *e, const cbd_turn_order *o, uint32_t *k) {
    uint32_t *w = terr_words(e, k, o->to);
    if (w[W_OWNER] != o->player) {
        return false;
    }
    w[W_OWNER] = o->to_player;
    if (e->stride == 3) {
        w[W_ELIG] = 0;
    }
    if (e->gu.n > 0) {
        cbdp_turn_gunits_gift(&e->gu, k, e->local[o->to], o->to_player);
    }
    return true;
}

cbd_status cbdp_turn_exact_bomb(cbd_turn_engine *e, size_t oi, double weight) {
    const cbd_turn *t = e->plan->turn;
    const cbd_turn_order *o = &t->orders[oi];
    uint64_t near = t->neighbor_off ? t->neighbor_off[o->to + 1] - t->neighbor_off[o->to] : 0;
    return each_state(e, oi, weight, bomb, cbd_work_times(CBD_WORK_SCAN_TERM, near));
}

cbd_status cbdp_turn_exact_blockade(cbd_turn_engine *e, size_t oi, double weight) {
    return each_state(e, oi, weight, blockade, 0);
}

cbd_status cbdp_turn_exact_airlift(cbd_turn_engine *e, size_t oi, double weight) {
    return each_state(e, oi, weight, airlift, 0);
}

cbd_status cbdp_turn_exact_gift(cbd_turn_engine *e, size_t oi, double weight) {
    return each_state(e, oi, weight, gift, 0);
}
