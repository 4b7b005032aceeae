/*
 * The order in which a turn's orders run (W13, W24, W30): the phases one after the other,
 * W13's rounds within each with one ordering of the players for the whole turn, and the
 * attack/transfer phase reordered by Order Priority and Order Delay cards.
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

void cbdp_turn_plan_cards(cbd_turn_plan *p) {
    const cbd_turn *t = p->turn;
    for (size_t i = 0; i < t->n_orders; i++) {
        const cbd_turn_order *o = &t->orders[i];
        if (o->type == CBD_ORDER_PRIORITY) {
            p->prio[o->player]++;
            p->any_prio = true;
        }
    }
    /* W30: an order's level is the delay cards its player listed before it. */
    uint32_t *seen = p->next; /* scratch of the plan's size, free once the movers are built */
    memset(seen, 0, (2 * t->n_players + 1) * sizeof *seen);
    for (size_t i = 0; i < t->n_orders; i++) {
        const cbd_turn_order *o = &t->orders[i];
        if (o->type == CBD_ORDER_DELAY) {
            seen[o->player]++;
        }
        p->level[i] = seen[o->player];
        p->max_level = p->level[i] > p->max_level ? p->level[i] : p->max_level;
        /* W30 under listed: the player's first attack/transfer order is the one moved. */
        if (p->phase[i] == CBD_PHASE_ATTACK && !seen[t->n_players + o->player]++) {
            p->lead[i] = 1;
        }
    }
}

/* W13's rounds over phase ph with round 1's ordering `first`, into out; returns how many. */
static size_t rounds(const cbd_turn_plan *p, size_t ph, const uint32_t *first, uint32_t *out) {
    size_t k = 0, n = p->n_movers;
    for (uint32_t r = 0; r < p->rounds[ph]; r++) {
        for (size_t i = 0; i < n; i++) {
            /* W13: rounds alternate; r = 0 is round 1 (in order), r = 1 round 2 (reversed). */
            size_t s = cbdp_turn_plan_slot(first[r % 2 == 0 ? i : n - 1 - i], ph);
            if (p->mover_off[s] + r < p->mover_off[s + 1]) {
                out[k++] = p->mover_orders[p->mover_off[s] + r];
            }
        }
    }
    return k;
}

/* W30 under the listed order: the first attack/transfer of each player with priority cards at
 * the front, more cards first, then as listed; every other order in its place. in: the phase's
 * orders as listed. */
static void listed_priority(const cbd_turn_plan *p, const uint32_t *in, size_t n, uint32_t *out) {
    const cbd_turn_order *o = p->turn->orders;
    size_t front = 0;
    for (size_t i = 0; i < n; i++) {
        cbd_turn_player pl = o[in[i]].player;
        if (p->lead[in[i]] && p->prio[pl] > 0) {
            size_t at = front++; /* stable: behind those with as many cards */
            while (at > 0 && p->prio[o[out[at - 1]].player] < p->prio[pl]) {
                out[at] = out[at - 1];
                at--;
            }
            out[at] = in[i];
        }
    }
    size_t k = front;
    for (size_t i = 0; i < n; i++) {
        if (!p->lead[in[i]] || p->prio[o[in[i]].player] == 0) {
            out[k++] = in[i];
        }
    }
}

/* W30 under cycle and random: the players with priority cards take the ordering's first
 * places, more cards first, as many in the ordering's own order (a stable sort). */
static void priority_first(const cbd_turn_plan *p, const uint32_t *first, uint32_t *out) {
    for (size_t i = 0; i < p->n_movers; i++) {
        size_t at = i;
        uint32_t mine = p->prio[p->movers[first[i]]];
        while (at > 0 && p->prio[p->movers[out[at - 1]]] < mine) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = first[i];
    }
}

/* The attack/transfer phase (W13, W30) into out, with scratch of n_seq; returns how many. */
static size_t attack_phase(const cbd_turn_plan *p, const uint32_t *first, uint32_t *out,
                           uint32_t *scratch) {
    size_t n;
    if (!first) {
        size_t a = 0;
        while (a < p->n_seq && p->phase[p->listed[a]] != CBD_PHASE_ATTACK) {
            a++;
        }
        for (n = 0; a + n < p->n_seq && p->phase[p->listed[a + n]] == CBD_PHASE_ATTACK; n++) {
        }
        if (p->any_prio) {
            listed_priority(p, p->listed + a, n, out);
        } else {
            memcpy(out, p->listed + a, n * sizeof *out);
        }
    } else if (p->any_prio) {
        priority_first(p, first, scratch);
        n = rounds(p, CBD_PHASE_ATTACK, scratch, out);
    } else {
        n = rounds(p, CBD_PHASE_ATTACK, first, out);
    }
    if (p->max_level > 0) { /* W30: by level, each level in the move order */
        memcpy(scratch, out, n * sizeof *out);
        size_t k = 0;
        for (uint32_t lvl = 0; lvl <= p->max_level; lvl++) {
            for (size_t i = 0; i < n; i++) {
                out[k] = scratch[i];
                k += p->level[scratch[i]] == lvl;
            }
        }
    }
    return n;
}

void cbdp_turn_plan_schedule(const cbd_turn_plan *p, const uint32_t *first, uint32_t *out) {
    uint32_t *scratch = out + p->n_seq;
    size_t k = 0;
    for (size_t ph = CBD_PHASE_DEPLOY + 1; ph < CBD_PHASES; ph++) {
        if (ph == CBD_PHASE_ATTACK) {
            k += attack_phase(p, first, out + k, scratch);
        } else if (!first) {
            for (size_t a = 0; a < p->n_seq; a++) { /* by phase already: this phase's run */
                out[k] = p->listed[a];
                k += p->phase[p->listed[a]] == ph;
            }
        } else {
            k += rounds(p, ph, first, out + k);
        }
    }
}
