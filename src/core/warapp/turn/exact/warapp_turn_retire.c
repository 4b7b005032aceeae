/*
 * The exact engine's states at the start of a group and as its territories retire: the state
 * after deploys (W12), the product of fog's distributions (W23), and territories that no later
 * order touches folded into the results (W16, W21's units).
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

/*
 * The points' room doubled. Its growth (CBD_WORK_TURN_GROWTH a byte's share) and its new pages
 * are charged as the points fill it (push_point), not at once: the kernel faults a page in when
 * a point first lands on it, and a growth to 64 MiB charged whole was 78 · 2^20 units at once,
 * its faults up to 12 ms of CPU between two checks after it. A growth the budget has not the
 * units for stops here, before its memory is asked for.
 */
static cbd_status grow_points(cbd_turn_engine *e) {
    size_t cap = e->pts_cap ? e->pts_cap * 2 : 64;
    uint64_t growth = (cap - e->pts_cap) * sizeof *e->pts / CBD_WORK_TURN_GROWTH;
    if ((growth > cbd_budget_work_left(e->budget) && !cbd_charge(e->budget, growth)) ||
        !cbd_charge_share_end(&e->pts_growth) || !cbd_charge_share_end(&e->pts_pages)) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    uint64_t pages = 0;
    cbd_budget_defer_pages(e->budget, &pages);
    cbd_turn_retired *n = cbd_mem_realloc(e->budget, e->pts, cap * sizeof *n);
    cbd_budget_defer_pages(e->budget, NULL);
    if (!n) {
        return cbdp_turn_stopped(e, cbd_budget_nomem(e->budget));
    }
    cbd_charge_share_init(&e->pts_growth, e->budget, growth, cap - e->pts_cap);
    cbd_charge_share_pages_init(&e->pts_pages, e->budget, pages, cap - e->pts_cap);
    e->pts = n;
    e->pts_cap = cap;
    return CBD_OK;
}

/* Appends one retired territory's (armies, probability). */
static cbd_status push_point(cbd_turn_engine *e, uint32_t terr, uint64_t armies, double p) {
    if (e->n_pts == e->pts_cap) {
        cbd_status st = grow_points(e);
        if (st != CBD_OK) {
            return st;
        }
    }
    if (!cbd_charge_share_step(&e->pts_growth) || !cbd_charge_share_step(&e->pts_pages)) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    e->pts[e->n_pts++] = (cbd_turn_retired){terr, (uint32_t)armies, p};
    return CBD_OK;
}

/*
 * W21: the units on a retiring territory (local l) end the turn there with probability p.
 * A Commander keeps a word saying it lives (W22 is read from the Commanders at the end); the
 * other units' words are cleared, so that states differing only there merge.
 */
static void retire_units(cbd_turn_engine *e, uint32_t terr, size_t l, double p) {
    for (size_t gu = 0; gu < e->gu.n; gu++) {
        uint32_t *w = e->key + e->gu.base + gu * CBD_TURN_UNIT_WORDS;
        if (w[CBD_U_LOC] != l + 1) {
            continue;
        }
        uint32_t u = e->gu.board[gu];
        e->out->units[u].territory[terr] += p;
        e->out->units[u].alive += p;
        uint32_t owner = cbdp_turn_gunits_is_commander(&e->gu, gu) ? w[CBD_U_OWNER] : 0;
        memset(w, 0, CBD_TURN_UNIT_WORDS * sizeof *w);
        if (e->plan->turn->units[u].commander) {
            w[CBD_U_LOC] = CBD_TURN_UNIT_RETIRED;
            w[CBD_U_OWNER] = owner; /* W22, W28: whose it is, for the eliminations */
        }
    }
}

/*
 * Territories that no later order of the schedule touches are retired after step s: their
 * (owner, armies) is added to the results, their goals fold into the state's goal word, and
 * their words are zeroed so that states differing only there merge. The state count is then
 * the variety of the territories still in play, not of everything the turn touched (one stack
 * attacking several neighbours in turn stays small). The results are unchanged: W16 asks for
 * each territory's distribution and the goals' joint chance, both kept exactly.
 */
cbd_status cbdp_turn_retire(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr, int32_t s,
                            double weight) {
    const size_t S = e->stride, words = e->cur.words;
    const cbd_turn *t = e->plan->turn;
    size_t retiring = 0;
    for (size_t l = 0; l < n_terr; l++) {
        retiring += e->last[l] == s;
    }
    if (retiring == 0) {
        return CBD_OK;
    }
    /* Each state: its territories looked over, the retiring ones' goals checked and their
     * points kept, and the state stored again. */
    uint64_t per_state = cbdp_turn_state_units(e, CBD_WORK_TURN_STATE) +
                         cbd_work_times(CBD_WORK_SCAN_TERM, n_terr + retiring * (t->n_goals + 2)) +
                         cbd_work_times(CBD_WORK_UNIT_DAMAGE, cbd_work_times(retiring, e->gu.n));
    cbd_charge_loop charge;
    cbd_charge_loop_init(&charge, e->budget, per_state, e->cur.count);
    cbd_status st = cbdp_turn_map_clear(&e->next, words);
    for (size_t i = 0; i < e->cur.count && st == CBD_OK; i++) {
        if (!cbd_charge_loop_step(&charge)) {
            st = CBD_ERR_BUDGET;
            break;
        }
        double w = e->cur.prob[i];
        memcpy(e->key, e->cur.keys + i * words, words * sizeof *e->key);
        for (size_t l = 0; l < n_terr && st == CBD_OK; l++) {
            if (e->last[l] != s) {
                continue;
            }
            uint32_t owner = e->key[l * S + W_OWNER];
            size_t slot = owner == CBD_TURN_NEUTRAL ? e->out->n_players : owner;
            cbd_turn_territory_result *r = &e->out->territories[terr[l]];
            r->owner[slot] += w * weight;
            r->owned_armies[slot] += (double)e->key[l * S + W_ARMIES] * w * weight;
            for (size_t g = 0; g < t->n_goals; g++) {
                if (t->goals[g].territory == terr[l] && t->goals[g].owner != owner) {
                    e->key[words - 1] = 0; /* W16: a goal failed */
                }
            }
            st = push_point(e, terr[l], e->key[l * S + W_ARMIES], w * weight);
            retire_units(e, terr[l], l, w * weight);
            memset(e->key + l * S, 0, S * sizeof *e->key);
        }
        st = st == CBD_OK ? cbdp_turn_map_add(&e->next, e->key, w) : st;
    }
    st = st == CBD_OK ? cbdp_turn_charge_misses(e, e->cur.count) : st;
    cbd_turn_map tmp = e->cur;
    e->cur = e->next;
    e->next = tmp;
    return cbdp_turn_stopped(e, st);
}

/* W23: how many of the group's territories are given as distributions. */
static size_t fog_of_group(const cbd_turn_engine *e, const uint32_t *terr, size_t n_terr) {
    const cbd_turn_fog *fog = e->plan->turn->fog;
    size_t n = 0;
    for (size_t t = 0; fog && t < n_terr; t++) {
        n += fog[terr[t]].n > 0;
    }
    return n;
}

/* The states of the product of the group's distributions (UINT64_MAX past it). */
static uint64_t product_size(const cbd_turn_engine *e, const uint32_t *terr, size_t n_terr) {
    const cbd_turn_fog *fog = e->plan->turn->fog;
    uint64_t p = 1;
    for (size_t t = 0; t < n_terr; t++) {
        p = cbd_work_times(p, fog[terr[t]].n ? fog[terr[t]].n : 1);
    }
    return p;
}

/* Sets the armies of the group's fog territories in e->key to the points digit[] picks (the
 * start's armies hold the largest count plus the deploys, W12) and returns their probability. */
static double product_state(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr,
                            const uint32_t *digit) {
    const size_t S = e->stride;
    const cbd_turn_fog *fog = e->plan->turn->fog;
    double w = 1.0;
    for (size_t t = 0; t < n_terr; t++) {
        const cbd_turn_fog *f = &fog[terr[t]];
        if (f->n == 0) {
            continue;
        }
        uint64_t deployed = e->plan->start[terr[t]].armies - f->points[f->n - 1].armies;
        uint32_t armies = (uint32_t)(deployed + f->points[digit[t]].armies);
        e->key[t * S + W_ARMIES] = armies;
        if (S == 3) {
            e->key[t * S + W_ELIG] = armies; /* W15: all after deploys */
        }
        w *= f->points[digit[t]].weight;
    }
    return w;
}

/*
 * W23: the start of a group with fog is the product of its territories' distributions (they
 * are independent), one state per combination of counts: refused past the state cap or the
 * work limit before anything is built, and charged as that many states stored.
 */
static cbd_status start_product(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr) {
    uint64_t cap = cbdp_turn_state_cap(e);
    uint64_t states = product_size(e, terr, n_terr);
    e->order = CBD_TURN_FOG_START; /* what a spent budget blames */
    if (states > cap) {
        return cbdp_turn_too_large(e, CBD_TURN_ERR_STATES, CBD_TURN_NO_ORDER, states, cap);
    }
    if (e->work + states > e->limits->max_work) {
        return cbdp_turn_too_large(e, CBD_TURN_ERR_WORK, CBD_TURN_NO_ORDER, e->work + states,
                                   e->limits->max_work);
    }
    e->work += states;
    /* Charged state by state in pieces (cbd_charge_loop), so that the progress check comes
     * between them: a product of millions of counts is tens of ms. */
    cbd_charge_loop paid;
    cbd_charge_loop_init(&paid, e->budget,
                         cbdp_turn_state_units(e, CBD_WORK_TURN_STATE) +
                             cbd_work_times(CBD_WORK_SCAN_TERM, n_terr),
                         states);
    uint32_t *digit = cbd_mem_calloc(e->budget, n_terr + 1, sizeof *digit);
    if (!digit) {
        return cbdp_turn_stopped(e, cbd_budget_nomem(e->budget));
    }
    const cbd_turn_fog *fog = e->plan->turn->fog;
    cbd_status st = CBD_OK;
    for (uint64_t s = 0; s < states && st == CBD_OK; s++) {
        if (!cbd_charge_loop_step(&paid)) {
            st = CBD_ERR_BUDGET;
            break;
        }
        st = cbdp_turn_map_add(&e->cur, e->key, product_state(e, terr, n_terr, digit));
        for (size_t t = 0; t < n_terr; t++) { /* the next combination, mixed radix */
            if (fog[terr[t]].n > 1 && ++digit[t] < fog[terr[t]].n) {
                break;
            }
            digit[t] = 0;
        }
    }
    cbd_mem_free(digit);
    /* The cache misses of a large start, as charge_misses (but those cbdp_turn_map_add charged
     * as the map grew past the cache). */
    if (st == CBD_OK && cbdp_turn_map_past_cache(&e->cur) && states > e->cur.missed &&
        !cbd_charge(e->budget, cbd_work_times(CBD_WORK_TURN_MISS, states - e->cur.missed))) {
        st = CBD_ERR_BUDGET;
    }
    st = cbdp_turn_stopped(e, st);
    e->order = CBD_TURN_NO_ORDER;
    return st;
}

/* The state after deploys, with its goal word (the last) set: no goal has failed yet. */
cbd_status cbdp_turn_start_state(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr) {
    const size_t S = e->stride;
    /* W21: the group's units picked out of the board's, each ranked among those before it. */
    size_t nu = e->plan->turn->n_units;
    if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_UNIT_DAMAGE, cbd_work_times(nu, nu)))) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    for (size_t t = 0; t < n_terr; t++) {
        e->local[terr[t]] = (uint32_t)t;
    }
    const size_t words =
        n_terr * S + cbdp_turn_gunits_init(&e->gu, e->plan, e->local, n_terr, S) + 1;
    if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_SCAN_TERM, words))) {
        return cbdp_turn_stopped(e, CBD_ERR_BUDGET);
    }
    if (2 * words > e->key_cap) {
        uint32_t *k = cbd_mem_realloc(e->budget, e->key, 2 * words * sizeof *k);
        if (!k) {
            return cbdp_turn_stopped(e, cbd_budget_nomem(e->budget));
        }
        e->key = k;
        e->key_cap = 2 * words;
    }
    for (size_t t = 0; t < n_terr; t++) {
        const cbd_turn_territory *s = &e->plan->start[terr[t]];
        e->last[t] = -1;
        e->key[t * S + W_OWNER] = s->owner;
        e->key[t * S + W_ARMIES] = (uint32_t)s->armies; /* <= 10^9 (validated) */
        if (S == 3) {
            e->key[t * S + W_ELIG] = (uint32_t)s->armies; /* W15: all after deploys */
        }
    }
    cbdp_turn_gunits_start(&e->gu, e->local, e->key);
    e->key[words - 1] = 1;
    cbd_status st = cbdp_turn_map_clear(&e->cur, words);
    if (st == CBD_OK && fog_of_group(e, terr, n_terr) > 0) {
        return start_product(e, terr, n_terr);
    }
    return cbdp_turn_stopped(e, st == CBD_OK ? cbdp_turn_map_add(&e->cur, e->key, 1.0) : st);
}
