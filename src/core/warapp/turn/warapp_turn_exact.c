/*
 * The exact engine of a turn (W14–W16): the distribution of a group's states, order by order,
 * equal states merged. One battle from one state branches into every pair (attackers lost,
 * defenders lost): the two sides roll independently (W1), so the pair's probability is the
 * product of each side's capped kill distribution (W4), computed exactly by cbd_warapp_kills.
 */
#include <string.h>

#include "warapp_turn_internal.h"

/* A territory's words (warapp_turn_units.c relies on this layout too). */
enum { W_OWNER = 0, W_ARMIES = 1, W_ELIG = 2 };

struct cbd_turn_engine {
    const cbd_turn_plan *plan;
    const cbd_turn_limits *limits;
    cbd_budget *budget;
    cbd_turn_order_result *ores;
    cbd_turn_error *err;
    size_t order;  /* the order being run (request index), for the errors */
    size_t stride; /* words per territory */
    cbd_turn_kills_cache cache[2];
    cbd_turn_map cur, next;
    cbd_turn_analysis *out; /* owner chances are added here as territories retire */
    cbd_turn_retired *pts;  /* (territory, armies, probability) as territories retire */
    size_t n_pts, pts_cap;
    int32_t *last; /* local territory -> the last step of the schedule that touches it */
    uint64_t peak;
    double *buf[2]; /* capped kills of each side */
    size_t buf_cap[2];
    uint32_t *key; /* one state being built */
    size_t key_cap;
    uint32_t *local; /* territory -> its place in the group being run */
    uint64_t work;
    uint64_t bound; /* the states the order being run adds (or merges), from estimate */
    bool truncated;
    cbd_turn_gunits gu; /* W21: the units of the group being run (gu.n 0: none) */
};

static cbd_status too_large(cbd_turn_engine *e, cbd_turn_err_kind kind, size_t oi, uint64_t needed,
                            uint64_t limit) {
    e->err->kind = kind;
    e->err->index = oi;
    e->err->needed = needed;
    e->err->limit = limit;
    return CBD_ERR_TOO_LARGE;
}

/* A status of the engine's, with the order being run named when the budget stopped it. */
static cbd_status stopped(cbd_turn_engine *e, cbd_status st) {
    if (st == CBD_ERR_BUDGET || st == CBD_ERR_NOMEM) {
        e->err->kind = CBD_TURN_ERR_BUDGET;
        e->err->index = e->order;
    }
    return st;
}

/* The kill distribution of n armies of side `which` (0: offense rate, 1: defense rate). Its
 * terms count in e->work, which its callers check against max_work. */
static cbd_status kills_of(cbd_turn_engine *e, int which, uint64_t n, const cbd_kills **out) {
    cbd_status st = cbd_turn_kills_get(&e->cache[which], e->budget, &e->plan->turn->battle, which,
                                       n, &e->work, out);
    return stopped(e, st);
}

static uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

/* The range [lo, lo + len) of min(K, cap) over K's window (W4). */
static size_t capped_len(const cbd_kills *k, uint64_t cap, uint64_t *lo) {
    *lo = min_u64(k->dist.lo, cap);
    return (size_t)(min_u64(k->dist.lo + k->dist.len - 1, cap) - *lo + 1);
}

/* Writes P(min(K, cap) = lo + i) into e->buf[which]; notes a window short of the support. */
static cbd_status capped(cbd_turn_engine *e, int which, const cbd_kills *k, uint64_t cap,
                         uint64_t *lo, size_t *len) {
    *len = capped_len(k, cap, lo);
    if (*len > e->buf_cap[which]) {
        double *b = cbd_mem_realloc(e->budget, e->buf[which], *len * sizeof *b);
        if (!b) {
            return stopped(e, cbd_budget_nomem(e->budget));
        }
        e->buf[which] = b;
        e->buf_cap[which] = *len;
    }
    double *b = e->buf[which];
    memset(b, 0, *len * sizeof *b);
    for (size_t i = 0; i < k->dist.len; i++) {
        b[min_u64(k->dist.lo + i, cap) - *lo] += k->dist.p[i];
    }
    if (min_u64(k->min, cap) != *lo || min_u64(k->max, cap) != *lo + *len - 1) {
        e->truncated = true;
    }
    return CBD_OK;
}

void cbd_turn_engine_free(cbd_turn_engine *e) {
    if (!e) {
        return;
    }
    cbd_turn_kills_cache_free(&e->cache[0]);
    cbd_turn_kills_cache_free(&e->cache[1]);
    cbd_turn_map_free(&e->cur);
    cbd_turn_map_free(&e->next);
    cbd_mem_free(e->pts);
    cbd_mem_free(e->last);
    cbd_mem_free(e->buf[0]);
    cbd_mem_free(e->buf[1]);
    cbd_mem_free(e->key);
    cbd_mem_free(e->local);
    cbd_mem_free(e);
}

cbd_status cbd_turn_engine_create(const cbd_turn_plan *plan, const cbd_turn_limits *limits,
                                  cbd_budget *budget, cbd_turn_analysis *res, cbd_turn_error *err,
                                  cbd_turn_engine **out) {
    cbd_turn_engine *e = cbd_mem_calloc(budget, 1, sizeof *e);
    *out = e;
    if (!e) {
        err->kind = CBD_TURN_ERR_BUDGET;
        err->index = CBD_TURN_NO_ORDER;
        return cbd_budget_nomem(budget);
    }
    e->plan = plan;
    e->limits = limits;
    e->budget = budget;
    e->cur.budget = budget;
    e->next.budget = budget;
    e->ores = res->orders;
    e->out = res;
    e->err = err;
    e->order = CBD_TURN_NO_ORDER;
    e->stride = plan->turn->multi_attack ? 2 : 3; /* W15 needs eligible armies only without */
    e->local = cbd_mem_alloc(budget, (plan->n_terr + 1) * sizeof *e->local);
    e->last = cbd_mem_alloc(budget, (plan->n_terr + 1) * sizeof *e->last);
    if (!e->local || !e->last) {
        return stopped(e, cbd_budget_nomem(budget));
    }
    for (size_t i = 0; i < plan->n_terr; i++) {
        e->local[i] = UINT32_MAX; /* not in the group being run */
    }
    return CBD_OK;
}

const cbd_turn_retired *cbd_turn_engine_points(const cbd_turn_engine *e, size_t *n) {
    *n = e->n_pts;
    return e->pts;
}

void cbd_turn_engine_clear_points(cbd_turn_engine *e) {
    e->n_pts = 0;
}

uint64_t cbd_turn_engine_peak(const cbd_turn_engine *e) {
    return e->peak;
}

bool cbd_turn_engine_truncated(const cbd_turn_engine *e) {
    return e->truncated;
}

uint64_t cbd_turn_engine_work(const cbd_turn_engine *e) {
    return e->work;
}

/* ---- one order over every state ---- */

typedef struct {
    cbd_turn_event_kind kind;
    uint64_t sent, defenders, eligible;
    size_t n_units, n_def;             /* W21: units sent, units defending `to` */
    uint8_t units[CBD_TURN_MAX_UNITS]; /* group units sent, in the order listed */
    uint8_t def[CBD_TURN_MAX_UNITS];   /* group units on `to`, in their listed order */
} order_case;

/* W14 steps 1–4 (and W21's units) in one state k. */
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
    c->sent = cbd_turn_sent(e->plan->turn, o, armies, c->eligible);
    cbd_turn_player to_owner = (cbd_turn_player)k[lt * S + W_OWNER];
    bool own = cbd_turn_is_own(e->plan, o->player, to_owner);
    if (e->gu.n > 0 && o->n_units > 0 && (!own || to_owner == o->player)) {
        /* W21: never onto a teammate's territory (such a unit stays on `from`). */
        c->n_units = cbd_turn_gunits_sendable(&e->gu, k, o, lf, c->units);
    }
    if (c->sent == 0 && c->n_units == 0) {
        return; /* W14.3, W21: neither an army nor a unit to send */
    }
    c->kind = own ? CBD_TURN_TRANSFERRED : CBD_TURN_ATTACKED;
    c->defenders = k[lt * S + W_ARMIES];
    if (c->kind == CBD_TURN_ATTACKED && e->gu.n > 0) {
        c->n_def = cbd_turn_gunits_on(&e->gu, k, lt, c->def);
    }
}

/* W17–W19: the two sides of the battle of case c from state k (units as they stand now). */
typedef struct {
    cbd_warapp_side side[2]; /* [0] the attack, [1] the defence */
    cbd_warapp_unit units[2][CBD_TURN_MAX_UNITS];
} battle_sides;

static void sides_of(const cbd_turn_engine *e, const uint32_t *k, const order_case *c,
                     battle_sides *b) {
    for (size_t i = 0; i < c->n_units; i++) {
        b->units[0][i] = cbd_turn_gunits_now(&e->gu, k, c->units[i]);
    }
    for (size_t i = 0; i < c->n_def; i++) {
        b->units[1][i] = cbd_turn_gunits_now(&e->gu, k, c->def[i]);
    }
    b->side[0] = (cbd_warapp_side){c->sent, c->n_units, b->units[0]};
    b->side[1] = (cbd_warapp_side){c->defenders, c->n_def, b->units[1]};
}

/*
 * After a step has added `adds` states (new or merged) to e->next: their cache misses, when
 * the map they went to turned out larger than the cache (its keys, probabilities, hashes and
 * slots, and two table slots a state). Charged once the map's size is known, since states
 * merge as they are added (a battle of 10^5 outcomes may leave 10 states).
 */
static cbd_status charge_misses(cbd_turn_engine *e, uint64_t adds) {
    uint64_t bytes = cbd_work_times(e->next.count, 4 * e->next.words + 28);
    if (bytes > CBD_WORK_CACHE_BYTES &&
        !cbd_charge(e->budget, cbd_work_times(CBD_WORK_TURN_MISS, adds))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    return CBD_OK;
}

/* The most states one step may hold: max_states, and fewer for a large group, whose states
 * are large too (max_state_words bounds their memory). */
static uint64_t state_cap(const cbd_turn_engine *e) {
    uint64_t by_words = e->limits->max_state_words / (e->cur.words ? e->cur.words : 1);
    return by_words < e->limits->max_states ? by_words : e->limits->max_states;
}

/* W21: what looking over a state's units costs (its listed order, the units to send): each
 * unit read, and at worst every pair of them compared in the insertion by rank. */
static uint64_t unit_scan(const cbd_turn_engine *e) {
    return cbd_work_times(CBD_WORK_UNIT_DAMAGE, e->gu.n) +
           cbd_work_times(CBD_WORK_SCAN_TERM, cbd_work_times(e->gu.n, e->gu.n) / 2);
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
    uint64_t per_state = 2 * CBD_WORK_SCAN_TERM + unit_scan(e);
    if (!cbd_charge(e->budget, cbd_work_times(per_state, e->cur.count))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    for (size_t i = 0; i < e->cur.count; i++) {
        order_case c;
        classify(e, o, e->cur.keys + i * e->cur.words, lf, lt, &c);
        uint64_t pairs = 1;
        if (c.kind == CBD_TURN_ATTACKED) {
            const cbd_kills *ka, *kd;
            cbd_status st;
            battle_sides b;
            sides_of(e, e->cur.keys + i * e->cur.words, &c, &b);
            /* W18: each side's power rolls; W19: damage past what the other holds is lost. */
            if ((st = kills_of(e, 0, cbd_warapp_side_power(&b.side[0], true), &ka)) != CBD_OK ||
                (st = kills_of(e, 1, cbd_warapp_side_power(&b.side[1], false), &kd)) != CBD_OK) {
                return st;
            }
            pairs = (uint64_t)capped_len(kd, cbd_warapp_side_toughness(&b.side[0]), &lo) *
                    capped_len(ka, cbd_warapp_side_toughness(&b.side[1]), &lo);
            if (pairs - 1 > state_cap(e)) {
                return too_large(e, CBD_TURN_ERR_STATES, oi, pairs - 1, state_cap(e));
            }
        }
        bound += pairs;
        if (e->work + bound > e->limits->max_work) { /* no need to look at the other states */
            return too_large(e, CBD_TURN_ERR_WORK, oi, e->work + bound, e->limits->max_work);
        }
    }
    e->bound = bound;
    e->work += bound;
    return CBD_OK;
}

/* The units of one state stored (or merged) in a map, `base` plus its words hashed, compared
 * and copied (the cache misses of a large map come after, charge_misses). */
static uint64_t state_units(const cbd_turn_engine *e, uint64_t base) {
    return base + cbd_work_times(CBD_WORK_TURN_WORD, e->cur.words);
}

/* W1–W6, W14.4, W15: every outcome of A attackers against D defenders from state `key`. */
static cbd_status battle(cbd_turn_engine *e, const cbd_turn_order *o, const uint32_t *key,
                         size_t lf, size_t lt, uint64_t A, uint64_t D, double w, double *cap) {
    const size_t S = e->stride, words = e->cur.words;
    const cbd_kills *ka, *kd;
    uint64_t alo, dlo;
    size_t alen, dlen;
    cbd_status st;
    if ((st = kills_of(e, 0, A, &ka)) != CBD_OK || (st = kills_of(e, 1, D, &kd)) != CBD_OK) {
        return st;
    }
    if (e->work > e->limits->max_work) { /* a window past the cache was computed again */
        return too_large(e, CBD_TURN_ERR_WORK, e->order, e->work, e->limits->max_work);
    }
    /* Both windows capped (cleared, then folded), then every pair of them. */
    uint64_t units = cbd_work_times(2 * CBD_WORK_SCAN_TERM, ka->dist.len + kd->dist.len);
    uint64_t pairs = cbd_work_times(capped_len(kd, A, &alo), capped_len(ka, D, &dlo));
    units += cbd_work_times(state_units(e, CBD_WORK_TURN_OUTCOME), pairs);
    if (!cbd_charge(e->budget, units)) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    if ((st = capped(e, 1, kd, A, &alo, &alen)) != CBD_OK ||
        (st = capped(e, 0, ka, D, &dlo, &dlen)) != CBD_OK) {
        return st;
    }
    uint32_t *k2 = e->key + words;
    for (size_t i = 0; i < alen; i++) {
        double pa = w * e->buf[1][i];
        uint64_t aleft = A - (alo + i); /* W4: defender kills capped at A */
        for (size_t j = 0; j < dlen && pa > 0; j++) {
            double p = pa * e->buf[0][j];
            if (p == 0) {
                continue;
            }
            uint64_t dleft = D - (dlo + j);
            bool captured = dleft == 0 && aleft > 0; /* W5 */
            memcpy(k2, key, words * sizeof *k2);
            if (captured) {
                *cap += p;
                k2[lt * S + W_OWNER] = o->player; /* W6 */
                k2[lt * S + W_ARMIES] = (uint32_t)aleft;
                if (S == 3) {
                    k2[lt * S + W_ELIG] = 0; /* W15: a new owner has none eligible */
                }
            } else {
                dleft = dleft == 0 ? 1 : dleft; /* W5: mutual destruction resurrects one */
                k2[lf * S + W_ARMIES] += (uint32_t)aleft; /* back home, not eligible */
                k2[lt * S + W_ARMIES] = (uint32_t)dleft;
                if (S == 3 && k2[lt * S + W_ELIG] > dleft) {
                    k2[lt * S + W_ELIG] = (uint32_t)dleft; /* W15 */
                }
            }
            if ((st = cbd_turn_map_add(&e->next, k2, p)) != CBD_OK) {
                return stopped(e, st);
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
    if ((st = kills_of(e, 0, cbd_warapp_side_power(&b.side[0], true), &ka)) != CBD_OK ||
        (st = kills_of(e, 1, cbd_warapp_side_power(&b.side[1], false), &kd)) != CBD_OK) {
        return st;
    }
    if (e->work > e->limits->max_work) {
        return too_large(e, CBD_TURN_ERR_WORK, e->order, e->work, e->limits->max_work);
    }
    /* As battle(), and per pair W19's walk of both sides' units and their places again. */
    uint64_t per_pair = state_units(e, CBD_WORK_TURN_OUTCOME) +
                        cbd_work_times(CBD_WORK_UNIT_DAMAGE, 2 * (c->n_units + c->n_def)) +
                        unit_scan(e);
    uint64_t units = cbd_work_times(2 * CBD_WORK_SCAN_TERM, ka->dist.len + kd->dist.len);
    units += cbd_work_times(per_pair,
                            cbd_work_times(capped_len(kd, ta, &alo), capped_len(ka, td, &dlo)));
    if (!cbd_charge(e->budget, units)) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    if ((st = capped(e, 1, kd, ta, &alo, &alen)) != CBD_OK ||
        (st = capped(e, 0, ka, td, &dlo, &dlen)) != CBD_OK) {
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
            bool captured = cbd_turn_gunits_outcome(&e->gu, k2, o->player, lf, lt, c->units,
                                                    c->n_units, c->def, c->n_def, sst);
            *cap += captured ? p : 0;
            if ((st = cbd_turn_map_add(&e->next, k2, p)) != CBD_OK) {
                return stopped(e, st);
            }
        }
    }
    return CBD_OK;
}

/* One attack/transfer order (request index oi) over every state of e->cur into e->next. */
static cbd_status expand(cbd_turn_engine *e, size_t oi, double weight) {
    const cbd_turn_order *o = &e->plan->turn->orders[oi];
    const size_t S = e->stride, words = e->cur.words;
    size_t lf = e->local[o->from], lt = e->local[o->to];
    e->order = oi;
    cbd_status st = estimate(e, o, oi, lf, lt);
    if (st != CBD_OK || (st = cbd_turn_map_clear(&e->next, words)) != CBD_OK) {
        return stopped(e, st);
    }
    cbd_turn_order_result *r = &e->ores[oi];
    const uint64_t moved = state_units(e, CBD_WORK_TURN_STATE) + unit_scan(e);
    for (size_t i = 0; i < e->cur.count; i++) {
        const uint32_t *k = e->cur.keys + i * words;
        double w = e->cur.prob[i];
        order_case c;
        classify(e, o, k, lf, lt, &c);
        if (c.kind != CBD_TURN_ATTACKED && !cbd_charge(e->budget, moved)) {
            return stopped(e, CBD_ERR_BUDGET); /* a battle charges its own outcomes */
        }
        if (c.kind == CBD_TURN_SKIPPED) {
            r->skipped += w * weight;
            st = cbd_turn_map_add(&e->next, k, w);
        } else {
            memcpy(e->key, k, words * sizeof *e->key);
            e->key[lf * S + W_ARMIES] -= (uint32_t)c.sent;
            if (S == 3) {
                e->key[lf * S + W_ELIG] = (uint32_t)(c.eligible > c.sent ? c.eligible - c.sent : 0);
            }
            if (c.n_units > 0) {
                cbd_turn_gunits_lift(&e->gu, e->key, c.units, c.n_units, lf);
            }
            if (c.kind == CBD_TURN_TRANSFERRED) {
                r->transfer += w * weight; /* W8: every moving army arrives, not eligible */
                e->key[lt * S + W_ARMIES] += (uint32_t)c.sent;
                cbd_turn_gunits_place(&e->gu, e->key, c.units, c.n_units, lt); /* W21 */
                st = cbd_turn_map_add(&e->next, e->key, w);
            } else {
                double cap = 0;
                r->attack += w * weight;
                st = c.n_units + c.n_def == 0
                         ? battle(e, o, e->key, lf, lt, c.sent, c.defenders, w, &cap)
                         : battle_units(e, o, e->key, lf, lt, &c, w, &cap);
                r->capture += cap * weight;
            }
        }
        if (st != CBD_OK) {
            return stopped(e, st);
        }
        if (e->next.count > state_cap(e)) {
            return too_large(e, CBD_TURN_ERR_STATES, oi, e->next.count, state_cap(e));
        }
    }
    if ((st = charge_misses(e, e->bound)) != CBD_OK) {
        return st;
    }
    cbd_turn_map tmp = e->cur;
    e->cur = e->next;
    e->next = tmp;
    return CBD_OK;
}

/* Appends one retired territory's (armies, probability). */
static cbd_status push_point(cbd_turn_engine *e, uint32_t terr, uint64_t armies, double p) {
    if (e->n_pts == e->pts_cap) {
        size_t cap = e->pts_cap ? e->pts_cap * 2 : 64;
        if (!cbd_charge(e->budget, (cap - e->pts_cap) * sizeof *e->pts / CBD_WORK_TURN_GROWTH)) {
            return stopped(e, CBD_ERR_BUDGET);
        }
        cbd_turn_retired *n = cbd_mem_realloc(e->budget, e->pts, cap * sizeof *n);
        if (!n) {
            return stopped(e, cbd_budget_nomem(e->budget));
        }
        e->pts = n;
        e->pts_cap = cap;
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
        memset(w, 0, CBD_TURN_UNIT_WORDS * sizeof *w);
        if (e->plan->turn->units[u].commander) {
            w[CBD_U_LOC] = CBD_TURN_UNIT_RETIRED;
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
static cbd_status retire(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr, int32_t s,
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
    uint64_t per_state = state_units(e, CBD_WORK_TURN_STATE) +
                         cbd_work_times(CBD_WORK_SCAN_TERM, n_terr + retiring * (t->n_goals + 2)) +
                         cbd_work_times(CBD_WORK_UNIT_DAMAGE, cbd_work_times(retiring, e->gu.n));
    if (!cbd_charge(e->budget, cbd_work_times(per_state, e->cur.count))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    cbd_status st = cbd_turn_map_clear(&e->next, words);
    for (size_t i = 0; i < e->cur.count && st == CBD_OK; i++) {
        double w = e->cur.prob[i];
        memcpy(e->key, e->cur.keys + i * words, words * sizeof *e->key);
        for (size_t l = 0; l < n_terr && st == CBD_OK; l++) {
            if (e->last[l] != s) {
                continue;
            }
            uint32_t owner = e->key[l * S + W_OWNER];
            e->out->territories[terr[l]]
                .owner[owner == CBD_TURN_NEUTRAL ? e->out->n_players : owner] += w * weight;
            for (size_t g = 0; g < t->n_goals; g++) {
                if (t->goals[g].territory == terr[l] && t->goals[g].owner != owner) {
                    e->key[words - 1] = 0; /* W16: a goal failed */
                }
            }
            st = push_point(e, terr[l], e->key[l * S + W_ARMIES], w * weight);
            retire_units(e, terr[l], l, w * weight);
            memset(e->key + l * S, 0, S * sizeof *e->key);
        }
        st = st == CBD_OK ? cbd_turn_map_add(&e->next, e->key, w) : st;
    }
    st = st == CBD_OK ? charge_misses(e, e->cur.count) : st;
    cbd_turn_map tmp = e->cur;
    e->cur = e->next;
    e->next = tmp;
    return stopped(e, st);
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
    uint64_t cap = state_cap(e);
    uint64_t states = product_size(e, terr, n_terr);
    e->order = CBD_TURN_FOG_START; /* what a spent budget blames */
    if (states > cap) {
        return too_large(e, CBD_TURN_ERR_STATES, CBD_TURN_NO_ORDER, states, cap);
    }
    if (e->work + states > e->limits->max_work) {
        return too_large(e, CBD_TURN_ERR_WORK, CBD_TURN_NO_ORDER, e->work + states,
                         e->limits->max_work);
    }
    e->work += states;
    uint64_t units = cbd_work_times(
        state_units(e, CBD_WORK_TURN_STATE) + cbd_work_times(CBD_WORK_SCAN_TERM, n_terr), states);
    if (!cbd_charge(e->budget, units)) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    uint32_t *digit = cbd_mem_calloc(e->budget, n_terr + 1, sizeof *digit);
    if (!digit) {
        return stopped(e, cbd_budget_nomem(e->budget));
    }
    const cbd_turn_fog *fog = e->plan->turn->fog;
    cbd_status st = CBD_OK;
    for (uint64_t s = 0; s < states && st == CBD_OK; s++) {
        st = cbd_turn_map_add(&e->cur, e->key, product_state(e, terr, n_terr, digit));
        for (size_t t = 0; t < n_terr; t++) { /* the next combination, mixed radix */
            if (fog[terr[t]].n > 1 && ++digit[t] < fog[terr[t]].n) {
                break;
            }
            digit[t] = 0;
        }
    }
    cbd_mem_free(digit);
    uint64_t bytes = cbd_work_times(e->cur.count, 4 * e->cur.words + 28);
    if (st == CBD_OK && bytes > CBD_WORK_CACHE_BYTES &&
        !cbd_charge(e->budget, cbd_work_times(CBD_WORK_TURN_MISS, states))) {
        st = CBD_ERR_BUDGET; /* the cache misses of a large start, as charge_misses */
    }
    st = stopped(e, st);
    e->order = CBD_TURN_NO_ORDER;
    return st;
}

/* The state after deploys, with its goal word (the last) set: no goal has failed yet. */
static cbd_status start_state(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr) {
    const size_t S = e->stride;
    /* W21: the group's units picked out of the board's, each ranked among those before it. */
    size_t nu = e->plan->turn->n_units;
    if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_UNIT_DAMAGE, cbd_work_times(nu, nu)))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    for (size_t t = 0; t < n_terr; t++) {
        e->local[terr[t]] = (uint32_t)t;
    }
    const size_t words =
        n_terr * S + cbd_turn_gunits_init(&e->gu, e->plan, e->local, n_terr, S) + 1;
    if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_SCAN_TERM, words))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    if (2 * words > e->key_cap) {
        uint32_t *k = cbd_mem_realloc(e->budget, e->key, 2 * words * sizeof *k);
        if (!k) {
            return stopped(e, cbd_budget_nomem(e->budget));
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
    cbd_turn_gunits_start(&e->gu, e->local, e->key);
    e->key[words - 1] = 1;
    cbd_status st = cbd_turn_map_clear(&e->cur, words);
    if (st == CBD_OK && fog_of_group(e, terr, n_terr) > 0) {
        return start_product(e, terr, n_terr);
    }
    return stopped(e, st == CBD_OK ? cbd_turn_map_add(&e->cur, e->key, 1.0) : st);
}

/*
 * W22: an elimination changes the owner of every territory of the player at once, so while one
 * may still happen no territory may retire (its final owner is not known yet). The last step
 * that can kill a Commander is the last whose `to` may hold one (where one starts, or where an
 * order listing one sends it) or that lists one; every territory stays until then. Without a
 * Commander's player in the group nothing changes.
 */
static cbd_status hold_for_eliminations(cbd_turn_engine *e, const uint32_t *seq, size_t len,
                                        size_t n_terr) {
    const cbd_turn *t = e->plan->turn;
    if (e->gu.n_cmdr_players == 0) {
        return CBD_OK;
    }
    uint64_t listed = 0;
    for (size_t s = 0; s < len; s++) {
        listed += t->orders[seq[s]].n_units + 1;
    }
    if (!cbd_charge(e->budget, cbd_work_times(CBD_WORK_SCAN_TERM, 2 * listed + e->gu.n + n_terr))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    /* The local territories that may hold a Commander, as bits of l mod 64: a group of more
     * shares bits, which only holds the territories longer (still exact). */
    uint64_t reach = 0;
    for (size_t gu = 0; gu < e->gu.n; gu++) {
        if (t->units[e->gu.board[gu]].commander) {
            reach |= UINT64_C(1) << (e->local[t->units[e->gu.board[gu]].territory] & 63);
        }
    }
    int32_t hold = -1;
    for (size_t pass = 0; pass < 2; pass++) { /* the second sees every `to` reached later */
        for (size_t s = 0; s < len; s++) {
            const cbd_turn_order *o = &t->orders[seq[s]];
            bool lists = false;
            for (size_t k = 0; k < o->n_units; k++) {
                lists = lists || t->units[o->units[k]].commander;
            }
            uint64_t to_bit = UINT64_C(1) << (e->local[o->to] & 63);
            reach |= lists ? to_bit : 0;
            if ((lists || (reach & to_bit)) && (int32_t)s > hold) {
                hold = (int32_t)s;
            }
        }
    }
    for (size_t l = 0; l < n_terr; l++) {
        e->last[l] = e->last[l] > hold ? e->last[l] : hold;
    }
    return CBD_OK;
}

/* W22: the chance that each player with a Commander in the group ends the turn eliminated. */
static cbd_status count_eliminated(cbd_turn_engine *e, double weight) {
    uint64_t per_state = cbd_work_times(CBD_WORK_UNIT_DAMAGE, e->gu.n);
    if (!cbd_charge(e->budget, cbd_work_times(per_state, e->cur.count))) {
        return stopped(e, CBD_ERR_BUDGET);
    }
    for (size_t i = 0; i < e->cur.count; i++) {
        const uint32_t *k = e->cur.keys + i * e->cur.words;
        for (size_t c = 0; c < e->gu.n_cmdr_players; c++) {
            cbd_turn_player p = e->gu.cmdr_players[c];
            if (cbd_turn_gunits_eliminated(&e->gu, k, p)) {
                e->out->eliminated[p] += e->cur.prob[i] * weight;
            }
        }
    }
    return CBD_OK;
}

cbd_status cbd_turn_engine_run(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr,
                               const uint32_t *seq, size_t len, double weight, double *goals) {
    e->order = CBD_TURN_NO_ORDER;
    cbd_status st = start_state(e, terr, n_terr);
    const cbd_turn_order *orders = e->plan->turn->orders;
    /* Only on a started state: a failed start leaves e->local unset (UINT32_MAX). */
    for (size_t s = 0; s < len && st == CBD_OK; s++) {
        e->last[e->local[orders[seq[s]].from]] = (int32_t)s;
        e->last[e->local[orders[seq[s]].to]] = (int32_t)s;
    }
    st = st == CBD_OK ? hold_for_eliminations(e, seq, len, n_terr) : st;
    st = st == CBD_OK ? retire(e, terr, n_terr, -1, weight) : st;
    for (size_t s = 0; s < len && st == CBD_OK; s++) {
        st = expand(e, seq[s], weight);
        e->peak = e->cur.count > e->peak ? e->cur.count : e->peak;
        st = st == CBD_OK ? retire(e, terr, n_terr, (int32_t)s, weight) : st;
    }
    if (st == CBD_OK && !cbd_charge(e->budget, cbd_work_times(CBD_WORK_SCAN_TERM, e->cur.count))) {
        st = stopped(e, CBD_ERR_BUDGET);
    }
    double f = 0;
    for (size_t i = 0; i < e->cur.count && st == CBD_OK; i++) {
        f += e->cur.keys[i * e->cur.words + e->cur.words - 1] ? e->cur.prob[i] : 0.0;
    }
    *goals = f;
    st = st == CBD_OK ? count_eliminated(e, weight) : st;
    for (size_t t = 0; t < n_terr; t++) {
        e->local[terr[t]] = UINT32_MAX;
    }
    return st;
}
