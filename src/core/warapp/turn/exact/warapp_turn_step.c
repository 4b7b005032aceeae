/*
 * One attack/transfer order over every state of the exact engine (W14, W15): each state
 * classified (W14 steps 1–4), the next step's size bounded before anything is built, and every
 * outcome of its battle (W1–W6, and W17–W22 with units) merged into the next step's map.
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

typedef struct {
    cbd_turn_event_kind kind;
    uint64_t sent, defenders, eligible;
    size_t n_units, n_def;             /* W21: units sent, units defending `to` */
    uint8_t units[CBD_TURN_MAX_UNITS]; /* group units sent, in the order listed */
    uint8_t def[CBD_TURN_MAX_UNITS];   /* group units on `to`, in their listed order */
} order_case;

/* W14 steps 1–4 (with W21's units, W29's peace and W33's attack-only and transfer-only) in one
 * state k. */
static void classify(const cbd_turn_engine *e, const cbd_turn_order *o, const uint32_t *k,
                     size_t lf, size_t lt, order_case *c) {
    const size_t S = e->stride;
    c->kind = CBD_TURN_SKIPPED;
    c->sent = c->defenders = c->eligible = 0;
    c->n_units = c->n_def = 0;
    if (k[lf * S + W_OWNER] != o->player) {
        return; /* W14.1 */
    }
    uint64_t armies = k[lf * S + W_ARMIES];
    c->eligible = S == 3 ? k[lf * S + W_ELIG] : armies;
    c->sent = cbdp_turn_sent(e->plan->turn, o, armies, c->eligible);
    cbd_turn_player to_owner = (cbd_turn_player)k[lt * S + W_OWNER];
    if (cbdp_turn_at_peace(e->plan, o->player, to_owner)) {
        return; /* W29: no battle with a player at peace */
    }
    bool own = cbdp_turn_moves_own(e->plan, o, to_owner);
    if (cbdp_turn_move_refused(o, own)) {
        return; /* W33: an attack-only order on its own side, a transfer-only one elsewhere */
    }
    if (e->gu.n > 0 && o->n_units > 0 && (!own || to_owner == o->player)) {
        /* W21: never onto a teammate's territory (such a unit stays on `from`). */
        c->n_units = cbdp_turn_gunits_sendable(&e->gu, k, o, lf, c->units);
    }
    if (c->sent == 0 && c->n_units == 0) {
        return; /* W14.3, W21: neither an army nor a unit to send */
    }
    c->kind = own ? CBD_TURN_TRANSFERRED : CBD_TURN_ATTACKED;
    c->defenders = k[lt * S + W_ARMIES];
    if (c->kind == CBD_TURN_ATTACKED && e->gu.n > 0) {
        c->n_def = cbdp_turn_gunits_on(&e->gu, k, lt, c->def);
    }
}

/* W17–W19: the two sides of the battle of case c from state k (units as they stand now). */
typedef struct {
    cbd_warapp_side side[2]; /* [0] the attack, [1] the defense */
    cbd_warapp_unit units[2][CBD_TURN_MAX_UNITS];
} battle_sides;

static void sides_of(const cbd_turn_engine *e, const uint32_t *k, const order_case *c,
                     battle_sides *b) {
    for (size_t i = 0; i < c->n_units; i++) {
        b->units[0][i] = cbdp_turn_gunits_now(&e->gu, k, c->units[i]);
    }
    for (size_t i = 0; i < c->n_def; i++) {
        b->units[1][i] = cbdp_turn_gunits_now(&e->gu, k, c->def[i]);
    }
    b->side[0] = (cbd_warapp_side){c->sent, c->n_units, b->units[0]};
    b->side[1] = (cbd_warapp_side){c->defenders, c->n_def, b->units[1]};
}

/*
 * Before an order runs: the successors it can make (one per state, or one per pair of capped
 * kills for an attack), an upper bound on the next step's states and its exact cost. One
 * attack's pairs give distinct states (but for the W5 pair), so a battle of more pairs than
 * max_states + 1 is refused before anything is built.
 */
static cbd_status estimate(cbd_turn_engine *e, const cbd_turn_order *o, size_t oi, size_t lf,
                           size_t lt) {
    uint64_t bound = 0, lo;
    /* Charged state by state in pieces (cbd_charge_loop): with units, each state's look costs
     * microseconds, and 11,880 states charged at once ran 19 ms between two checks. */
    cbd_charge_loop paid;
    cbd_charge_loop_init(&paid, e->budget, 2 * CBD_WORK_SCAN_TERM + cbdp_turn_unit_scan(e),
                         e->cur.count);
    for (size_t i = 0; i < e->cur.count; i++) {
        if (!cbd_charge_loop_step(&paid)) {
            return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
        }
        order_case c;
        classify(e, o, e->cur.keys + i * e->cur.words, lf, lt, &c);
        uint64_t pairs = 1;
        if (c.kind == CBD_TURN_ATTACKED) {
            const cbd_kills *ka, *kd;
            cbd_status st;
            battle_sides b;
            sides_of(e, e->cur.keys + i * e->cur.words, &c, &b);
            /* W18: each side's power rolls; W19: damage past what the other holds is lost. */
            if ((st = cbdp_turn_kills_of(e, 0, cbd_warapp_side_power(&b.side[0], true), &ka)) !=
                    CBD_OK ||
                (st = cbdp_turn_kills_of(e, 1, cbd_warapp_side_power(&b.side[1], false), &kd)) !=
                    CBD_OK) {
                return st;
            }
            pairs = (uint64_t)cbdp_turn_capped_len(kd, cbd_warapp_side_toughness(&b.side[0]), &lo) *
                    cbdp_turn_capped_len(ka, cbd_warapp_side_toughness(&b.side[1]), &lo);
            if (pairs - 1 > cbdp_turn_state_cap(e)) {
                return cbdp_turn_too_large(e, CBD_TURN_ERR_STATES, oi, pairs - 1,
                                           cbdp_turn_state_cap(e));
            }
        }
        bound += pairs;
        if (e->work + bound > e->limits->max_work) { /* no need to look at the other states */
            return cbdp_turn_too_large(e, CBD_TURN_ERR_WORK, oi, e->work + bound,
                                       e->limits->max_work);
        }
    }
    e->bound = bound;
    e->work += bound;
    return CBD_OK;
}

/* W1–W6, W14.4, W15: every outcome of A attackers against D defenders from state `key`. */
/* Both kill windows capped (cleared, then folded: charged first) into e->buf[1] (the
 * defender's kills, capped at A) and e->buf[0] (the attacker's, capped at D). */
static cbd_status capped_both(cbd_turn_engine *e, const cbd_kills *ka, const cbd_kills *kd,
                              uint64_t A, uint64_t D, uint64_t *alo, size_t *alen, uint64_t *dlo,
                              size_t *dlen) {
    uint64_t units = cbd_work_times(2 * CBD_WORK_SCAN_TERM, ka->dist.len + kd->dist.len);
    if (!cbd_charge(e->budget, units)) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    cbd_status st = cbdp_turn_capped(e, 1, kd, A, alo, alen);
    return st == CBD_OK ? cbdp_turn_capped(e, 0, ka, D, dlo, dlen) : st;
}

static cbd_status battle(cbd_turn_engine *e, const cbd_turn_order *o, const uint32_t *key,
                         size_t lf, size_t lt, uint64_t A, uint64_t D, double w, double *cap) {
    const size_t S = e->stride, words = e->cur.words;
    const cbd_kills *ka, *kd;
    uint64_t alo, dlo;
    size_t alen, dlen;
    cbd_status st;
    if ((st = cbdp_turn_kills_of(e, 0, A, &ka)) != CBD_OK ||
        (st = cbdp_turn_kills_of(e, 1, D, &kd)) != CBD_OK) {
        return st;
    }
    if (e->work > e->limits->max_work) { /* a window past the cache was computed again */
        return cbdp_turn_too_large(e, CBD_TURN_ERR_WORK, e->order, e->work, e->limits->max_work);
    }
    /* Both windows capped, then every pair of them, a row of the defender's kills at a time
     * (cbd_charge_loop: a battle of 10^4 x 10^4 pairs is 10^8). */
    if ((st = capped_both(e, ka, kd, A, D, &alo, &alen, &dlo, &dlen)) != CBD_OK) {
        return st;
    }
    cbd_charge_loop rows;
    cbd_charge_loop_init(&rows, e->budget,
                         cbd_work_times(cbdp_turn_state_units(e, CBD_WORK_TURN_OUTCOME), dlen),
                         alen);
    uint32_t *k2 = e->key + words;
    for (size_t i = 0; i < alen; i++) {
        if (!cbd_charge_loop_step(&rows)) {
            return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
        }
        double pa = w * e->buf[1][i];
        uint64_t aleft = A - (alo + i); /* W4: defender kills capped at A */
        for (size_t j = 0; j < dlen && pa > 0; j++) {
            double p = pa * e->buf[0][j];
            if (p == 0) {
                continue;
            }
            uint64_t dleft = D - (dlo + j);
            cbd_warapp_outcome out = cbd_warapp_decide(A, D, aleft, aleft == 0, dleft, dleft == 0);
            memcpy(k2, key, words * sizeof *k2);
            if (out.captured) {
                *cap += p;
                k2[lt * S + W_OWNER] = o->player; /* W6 */
                k2[lt * S + W_ARMIES] = (uint32_t)aleft;
                if (S == 3) {
                    k2[lt * S + W_ELIG] = 0; /* W15: a new owner has none eligible */
                }
            } else {
                dleft = out.defenders_left; /* W5: mutual destruction resurrects one */
                k2[lf * S + W_ARMIES] += (uint32_t)aleft; /* back home, not eligible */
                k2[lt * S + W_ARMIES] = (uint32_t)dleft;
                if (S == 3 && k2[lt * S + W_ELIG] > dleft) {
                    k2[lt * S + W_ELIG] = (uint32_t)dleft; /* W15 */
                }
            }
            if ((st = cbdp_turn_map_add(&e->next, k2, p)) != CBD_OK) {
                return cbdp_turn_stopped(e, st);
            }
        }
    }
    return CBD_OK;
}

/* W17–W22, W14.4: every outcome of a battle with units (case c) from state `key`, whose sent
 * armies and units have left `from` already. */
static cbd_status battle_units(cbd_turn_engine *e, const cbd_turn_order *o, const uint32_t *key,
                               size_t lf, size_t lt, const order_case *c, double w, double *cap) {
    battle_sides b;
    sides_of(e, key, c, &b);
    uint64_t ta = cbd_warapp_side_toughness(&b.side[0]), td = cbd_warapp_side_toughness(&b.side[1]);
    const cbd_kills *ka, *kd;
    uint64_t alo, dlo;
    size_t alen, dlen;
    cbd_status st;
    if ((st = cbdp_turn_kills_of(e, 0, cbd_warapp_side_power(&b.side[0], true), &ka)) != CBD_OK ||
        (st = cbdp_turn_kills_of(e, 1, cbd_warapp_side_power(&b.side[1], false), &kd)) != CBD_OK) {
        return st;
    }
    if (e->work > e->limits->max_work) {
        return cbdp_turn_too_large(e, CBD_TURN_ERR_WORK, e->order, e->work, e->limits->max_work);
    }
    /* As battle(), and per pair W19's walk of both sides' units and their places again. */
    uint64_t per_pair = cbdp_turn_state_units(e, CBD_WORK_TURN_OUTCOME) +
                        cbd_work_times(CBD_WORK_UNIT_DAMAGE, 2 * (c->n_units + c->n_def)) +
                        cbdp_turn_unit_scan(e);
    uint64_t units = cbd_work_times(2 * CBD_WORK_SCAN_TERM, ka->dist.len + kd->dist.len);
    units += cbd_work_times(per_pair, cbd_work_times(cbdp_turn_capped_len(kd, ta, &alo),
                                                     cbdp_turn_capped_len(ka, td, &dlo)));
    if (!cbd_charge(e->budget, units)) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    if ((st = cbdp_turn_capped(e, 1, kd, ta, &alo, &alen)) != CBD_OK ||
        (st = cbdp_turn_capped(e, 0, ka, td, &dlo, &dlen)) != CBD_OK) {
        return st;
    }
    size_t order[2][CBD_WARAPP_MAX_UNITS], before[2];
    cbd_warapp_damage_order(&b.side[0], order[0], &before[0]);
    cbd_warapp_damage_order(&b.side[1], order[1], &before[1]);
    uint64_t left[2][CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state sst[2] = {{0, left[0]}, {0, left[1]}};
    uint32_t *k2 = e->key + e->cur.words;
    for (size_t i = 0; i < alen; i++) {
        double pa = w * e->buf[1][i];
        cbd_warapp_take_damage(&b.side[0], order[0], before[0], alo + i, &sst[0]);
        for (size_t j = 0; j < dlen && pa > 0; j++) {
            double p = pa * e->buf[0][j];
            if (p == 0) {
                continue;
            }
            cbd_warapp_take_damage(&b.side[1], order[1], before[1], dlo + j, &sst[1]);
            memcpy(k2, key, e->cur.words * sizeof *k2);
            bool captured = cbdp_turn_gunits_outcome(&e->gu, k2, o->player, lf, lt, c->units,
                                                     c->n_units, c->def, c->n_def, sst);
            *cap += captured ? p : 0;
            if ((st = cbdp_turn_map_add(&e->next, k2, p)) != CBD_OK) {
                return cbdp_turn_stopped(e, st);
            }
        }
    }
    return CBD_OK;
}

/*
 * An order stopped before its last state (status st, or CBD_OK when the next step passed its
 * cap): the cache misses of the states it added are charged all the same, as they were paid
 * (the plan search, whose evaluations stop so at its memory budget, ran at 0.4 units a
 * nanosecond in bench_budget without them).
 */
static cbd_status stopped_early(cbd_turn_engine *e, size_t oi, cbd_status st) {
    cbd_turn_error why = *e->err; /* what stopped it, whatever paying the misses says */
    cbd_status paid = cbdp_turn_charge_misses(e, e->next.adds);
    if (st != CBD_OK) {
        *e->err = why;
        return cbdp_turn_stopped(e, st);
    }
    return paid != CBD_OK ? paid
                          : cbdp_turn_too_large(e, CBD_TURN_ERR_STATES, oi, e->next.count,
                                                cbdp_turn_state_cap(e));
}

/* One attack/transfer order (request index oi) over every state of e->cur into e->next. */
cbd_status cbdp_turn_exact_attack(cbd_turn_engine *e, size_t oi, double weight) {
    const cbd_turn_order *o = &e->plan->turn->orders[oi];
    const size_t S = e->stride, words = e->cur.words;
    size_t lf = e->local[o->from], lt = e->local[o->to];
    e->order = oi;
    cbd_status st = estimate(e, o, oi, lf, lt);
    if (st != CBD_OK || (st = cbdp_turn_map_clear(&e->next, words)) != CBD_OK) {
        return cbdp_turn_stopped(e, st);
    }
    cbd_turn_order_result *r = &e->ores[oi];
    const uint64_t moved = cbdp_turn_state_units(e, CBD_WORK_TURN_STATE) + cbdp_turn_unit_scan(e);
    for (size_t i = 0; i < e->cur.count; i++) {
        const uint32_t *k = e->cur.keys + i * words;
        double w = e->cur.prob[i];
        order_case c;
        classify(e, o, k, lf, lt, &c);
        if (c.kind != CBD_TURN_ATTACKED && !cbd_charge(e->budget, moved)) {
            return cbdp_turn_stopped(e, CBD_ERR_BUDGET); /* a battle charges its own outcomes */
        }
        if (c.kind == CBD_TURN_SKIPPED) {
            r->skipped += w * weight;
            st = cbdp_turn_map_add(&e->next, k, w);
        } else {
            memcpy(e->key, k, words * sizeof *e->key);
            e->key[lf * S + W_ARMIES] -= (uint32_t)c.sent;
            if (S == 3) {
                e->key[lf * S + W_ELIG] = (uint32_t)(c.eligible > c.sent ? c.eligible - c.sent : 0);
            }
            if (c.n_units > 0) {
                cbdp_turn_gunits_lift(&e->gu, e->key, c.units, c.n_units, lf);
            }
            if (c.kind == CBD_TURN_TRANSFERRED) {
                r->transfer += w * weight; /* W8: every moving army arrives, not eligible */
                e->key[lt * S + W_ARMIES] += (uint32_t)c.sent;
                cbdp_turn_gunits_place(&e->gu, e->key, c.units, c.n_units, lt); /* W21 */
                st = cbdp_turn_map_add(&e->next, e->key, w);
            } else {
                double cap = 0;
                r->attack += w * weight;
                st = c.n_units + c.n_def == 0
                         ? battle(e, o, e->key, lf, lt, c.sent, c.defenders, w, &cap)
                         : battle_units(e, o, e->key, lf, lt, &c, w, &cap);
                r->capture += cap * weight;
            }
        }
        if (st != CBD_OK || e->next.count > cbdp_turn_state_cap(e)) {
            return stopped_early(e, oi, st);
        }
    }
    if ((st = cbdp_turn_charge_misses(e, e->bound)) != CBD_OK) {
        return st;
    }
    cbd_turn_map tmp = e->cur;
    e->cur = e->next;
    e->next = tmp;
    return CBD_OK;
}
