#ifndef COMBATD_TEST_WARAPP_TURN_CARDS_CASES_H
#define COMBATD_TEST_WARAPP_TURN_CARDS_CASES_H

/*
 * Random small turns for the cards' brute force (warapp_turn_cards_brute.h), and the comparison
 * of an analysis with it to 1e-12. A turn has 2–5 territories, 2–3 players (sometimes a team),
 * sometimes a map (W24), 0–3 units (Commanders and custom units), 0–2 deploys, 1–3
 * attack/transfer orders (across borders on a map), sometimes fog (W23) and goals, every move
 * order; with `cards`, also 0–4 cards of every kind (W25–W30, aimed mostly where they run) and
 * sometimes a pair at peace (W29), the orders shuffled so that cards stand anywhere in the list.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "warapp_turn_cards_brute.h"

static inline uint64_t cb_lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* A territory of player p (any, if p owns none), or any territory when p is -1. */
static inline uint32_t cb_pick(const cb_case *c, int p, uint64_t *s) {
    uint32_t n = (uint32_t)c->turn.n_territories, start = (uint32_t)(cb_lcg(s) % n);
    for (uint32_t k = 0; k < n && p >= 0; k++) {
        if (c->terr[(start + k) % n].owner == (cbd_turn_player)p) {
            return (start + k) % n;
        }
    }
    return start;
}

/* A map: each pair borders with chance 1/2 (and 0–1 always do), as sorted symmetric lists. */
static inline void cb_random_map(cb_case *c, uint64_t *s) {
    size_t nt = c->turn.n_territories, n = 0;
    for (size_t a = 0; a < nt; a++) {
        c->noff[a] = (uint32_t)n;
        for (size_t b = 0; b < nt; b++) {
            size_t lo = a < b ? a : b, hi = a < b ? b : a;
            /* one coin per pair, read from a hash of the pair so both sides agree */
            uint64_t h = (*s ^ (lo * 31 + hi)) * 0x9E3779B97F4A7C15ULL;
            if (a != b && ((lo == 0 && hi == 1) || (h >> 63))) {
                c->nb[n++] = (uint32_t)b;
            }
        }
    }
    c->noff[nt] = (uint32_t)n;
    cb_lcg(s);
    c->turn.neighbor_off = c->noff;
    c->turn.neighbors = c->nb;
}

static inline void cb_random_units(cb_case *c, uint64_t *s) {
    c->turn.n_units = cb_lcg(s) % (CB_U + 1);
    for (size_t u = 0; u < c->turn.n_units; u++) {
        cbd_turn_unit *x = &c->units[u];
        x->territory = (uint32_t)(cb_lcg(s) % c->turn.n_territories);
        uint64_t kind = cb_lcg(s) % 4;
        if (kind == 0) {
            x->unit = cbd_warapp_commander();
            x->commander = true;
        } else if (kind == 3) { /* a weak Commander, who dies often (W22) */
            x->unit = cbd_warapp_commander();
            x->unit.toughness = 1 + cb_lcg(s) % 3;
            x->unit.attack_power = x->unit.defense_power = cb_lcg(s) % 3;
            x->commander = true;
        } else {
            x->unit.attack_power = cb_lcg(s) % 4;
            x->unit.defense_power = cb_lcg(s) % 4;
            x->unit.combat_order = (int64_t)(cb_lcg(s) % 5) - 2;
            x->unit.has_health = kind == 2 && cb_lcg(s) % 2;
            x->unit.toughness = 1 + cb_lcg(s) % 4;
        }
    }
}

/* Units of the player of order i, from its `from`, some, in a random order (W21). */
static inline void cb_random_list(cb_case *c, size_t i, uint64_t *s) {
    cbd_turn_order *o = &c->ord[i];
    size_t n = 0;
    for (size_t u = 0; u < c->turn.n_units; u++) {
        if (c->terr[c->units[u].territory].owner == o->player && cb_lcg(s) % 3 != 0) {
            size_t j = n == 0 ? 0 : cb_lcg(s) % (n + 1);
            c->lists[i][n++] = c->lists[i][j];
            c->lists[i][j] = (uint32_t)u;
        }
    }
    o->n_units = n;
}

static inline void cb_random_move(cb_case *c, size_t i, uint64_t *s) {
    cbd_turn_order *o = &c->ord[i];
    o->from = cb_pick(c, o->player, s);
    uint32_t near[CB_T], n = 0;
    for (uint32_t t = 0; t < c->turn.n_territories; t++) {
        if (t != o->from && cb_borders(c, (int)o->from, (int)t)) {
            near[n++] = t;
        }
    }
    if (n == 0) { /* W24: only across a border on a map, and 0–1 always border */
        o->from = 0;
        near[n++] = 1;
    }
    o->to = near[cb_lcg(s) % n];
    o->armies = cb_lcg(s) % 12;
    if (cb_lcg(s) % 4 == 0) {
        o->by_percent = true;
        o->percent = 1000000 / (1 + (cbd_micro)(cb_lcg(s) % 3));
    }
    cb_random_list(c, i, s);
}

/* One card of a random kind (W25–W30), aimed where it runs two times in three. */
static inline void cb_random_card(cb_case *c, size_t i, uint64_t *s) {
    static const cbd_turn_order_type kinds[7] = {
        CBD_ORDER_BOMB,    CBD_ORDER_BLOCKADE, CBD_ORDER_EMERGENCY_BLOCKADE,
        CBD_ORDER_AIRLIFT, CBD_ORDER_GIFT,     CBD_ORDER_PRIORITY,
        CBD_ORDER_DELAY};
    cbd_turn_order *o = &c->ord[i];
    o->type = kinds[cb_lcg(s) % 7];
    int aimed = cb_lcg(s) % 3 != 0, p = o->player;
    size_t np = c->turn.n_players;
    switch (o->type) {
        case CBD_ORDER_BOMB:
            o->to =
                cb_pick(c, aimed ? (int)(((uint64_t)p + 1 + cb_lcg(s) % (np - 1)) % np) : -1, s);
            break;
        case CBD_ORDER_BLOCKADE:
        case CBD_ORDER_EMERGENCY_BLOCKADE:
            o->to = cb_pick(c, aimed ? p : -1, s);
            break;
        case CBD_ORDER_GIFT:
            o->to = cb_pick(c, aimed ? p : -1, s);
            o->to_player = (cbd_turn_player)(((uint64_t)p + 1 + cb_lcg(s) % (np - 1)) % np);
            break;
        case CBD_ORDER_AIRLIFT:
            o->from = cb_pick(c, p, s);
            o->to = (uint32_t)((o->from + 1 + cb_lcg(s) % (c->turn.n_territories - 1)) %
                               c->turn.n_territories);
            for (size_t k = 0; aimed && k < c->turn.n_territories; k++) { /* another of p's */
                uint32_t t = (uint32_t)((o->from + 1 + k) % c->turn.n_territories);
                if (t != o->from && c->terr[t].owner == (cbd_turn_player)p) {
                    o->to = t;
                    break;
                }
            }
            o->armies = cb_lcg(s) % 10;
            if (cb_lcg(s) % 4 == 0) {
                o->by_percent = true;
                o->percent = 500000;
            }
            cb_random_list(c, i, s);
            break;
        default:
            break;
    }
}

/* Shuffles the orders (and their unit lists) so that cards and deploys stand anywhere. */
static inline void cb_shuffle(cb_case *c, uint64_t *s) {
    for (size_t i = c->turn.n_orders; i > 1; i--) {
        size_t j = cb_lcg(s) % i;
        cbd_turn_order o = c->ord[i - 1];
        c->ord[i - 1] = c->ord[j];
        c->ord[j] = o;
        uint32_t l[CB_U];
        memcpy(l, c->lists[i - 1], sizeof l);
        memcpy(c->lists[i - 1], c->lists[j], sizeof l);
        memcpy(c->lists[j], l, sizeof l);
    }
}

/* W23: fog on each territory with chance 1/3, 1–3 distinct counts, weights summing to 1; the
 * territory's armies become the largest count. */
static inline void cb_random_fog(cb_case *c, uint64_t *s) {
    bool any = false;
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        c->fog[t].n = 0;
        if (cb_lcg(s) % 3 != 0) {
            continue;
        }
        uint64_t used = 0;
        size_t n = 1 + cb_lcg(s) % CB_FOG;
        for (size_t k = 0; k < n;) {
            uint64_t v = cb_lcg(s) % 8;
            k += (used & (UINT64_C(1) << v)) ? 0 : 1;
            used |= UINT64_C(1) << v;
        }
        double sum = 0;
        size_t k = 0;
        for (uint64_t v = 0; v < 8; v++) {
            if (used & (UINT64_C(1) << v)) {
                c->pts[t][k].armies = v;
                c->pts[t][k].weight = 1.0 + (double)(cb_lcg(s) % 7);
                sum += c->pts[t][k++].weight;
            }
        }
        for (k = 0; k < n; k++) {
            c->pts[t][k].weight /= sum;
        }
        c->fog[t].n = n;
        c->terr[t].armies = c->pts[t][n - 1].armies;
        any = true;
    }
    c->turn.fog = any ? c->fog : NULL;
}

static inline void cb_random_orders(cb_case *c, uint64_t *s, bool cards) {
    cbd_turn *t = &c->turn;
    size_t n = 0;
    for (size_t k = cb_lcg(s) % 3; k > 0; k--) { /* W12: onto the player's own territory */
        cbd_turn_order *o = &c->ord[n];
        o->type = CBD_ORDER_DEPLOY;
        o->player = (cbd_turn_player)(cb_lcg(s) % t->n_players);
        o->to = cb_pick(c, o->player, s);
        o->armies = 1 + cb_lcg(s) % 3;
        n += c->terr[o->to].owner == o->player;
    }
    for (size_t k = 1 + cb_lcg(s) % 4; k > 0; k--) {
        c->ord[n] = (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                                     .player = (cbd_turn_player)(cb_lcg(s) % t->n_players)};
        cb_random_move(c, n++, s);
    }
    for (size_t k = cards ? cb_lcg(s) % 5 : 0; k > 0; k--) {
        c->ord[n] = (cbd_turn_order){.player = (cbd_turn_player)(cb_lcg(s) % t->n_players)};
        cb_random_card(c, n++, s);
    }
    t->n_orders = n;
    cb_shuffle(c, s);
}

/* A random small turn (the file's comment says which). */
static inline void cb_random_case(cb_case *c, uint64_t *s, bool cards) {
    memset(c, 0, sizeof *c);
    cbd_turn *t = &c->turn;
    t->n_territories = 2 + cb_lcg(s) % (CB_T - 1);
    t->n_players = 2 + cb_lcg(s) % (CB_P - 1);
    t->battle = cbd_warapp_default_settings();
    static const cbd_micro lucks[3] = {0, 500000, 1000000};
    t->battle.luck_modifier = lucks[cb_lcg(s) % 3];
    t->battle.rounding = cb_lcg(s) % 2 ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    t->battle.one_army_must_stand_guard = cb_lcg(s) % 3 != 0;
    t->multi_attack = cb_lcg(s) % 2;
    uint64_t big = t->battle.luck_modifier ? 8 : 14; /* rolls cost the brute force */
    for (size_t i = 0; i < t->n_territories; i++) {
        uint64_t o = cb_lcg(s) % (t->n_players + 1);
        c->terr[i].owner = o == t->n_players ? CBD_TURN_NEUTRAL : (cbd_turn_player)o;
        c->terr[i].armies = cb_lcg(s) % (i == 0 ? big : 7);
    }
    for (size_t p = 0; p < t->n_players; p++) {
        c->team[p] = (uint16_t)p;
        c->player_order[p] = (cbd_turn_player)p;
    }
    if (t->n_players == 3 && cb_lcg(s) % 3 == 0) {
        c->team[2] = 0; /* players 0 and 2 are a team */
    }
    t->team = c->team;
    if (cb_lcg(s) % 2) {
        cb_random_map(c, s);
    }
    cb_random_units(c, s);
    cb_random_orders(c, s, cards);
    if (cards && cb_lcg(s) % 3 == 0) { /* W29 */
        c->peace[0].a = (cbd_turn_player)(cb_lcg(s) % t->n_players);
        c->peace[0].b = (cbd_turn_player)((c->peace[0].a + 1) % t->n_players);
        t->n_peace = 1;
    }
    static const cbd_micro mult[4] = {0, 1000000, 2500000, 3000000};
    t->blockade_multiplier = mult[cb_lcg(s) % 4];
    t->emergency_blockade_multiplier = mult[cb_lcg(s) % 4];
    t->move_order = (cbd_move_order)(cb_lcg(s) % 3);
    for (size_t p = t->n_players; p > 1; p--) { /* W13: cycle's round-1 ordering */
        size_t j = cb_lcg(s) % p;
        cbd_turn_player x = c->player_order[p - 1];
        c->player_order[p - 1] = c->player_order[j];
        c->player_order[j] = x;
    }
    t->n_player_order = t->move_order == CBD_MOVE_CYCLE ? t->n_players : 0;
    t->n_goals = cb_lcg(s) % 3;
    for (size_t g = 0; g < t->n_goals; g++) {
        c->goals[g].territory = (uint32_t)(cb_lcg(s) % t->n_territories);
        uint64_t o = cb_lcg(s) % (t->n_players + 1);
        c->goals[g].owner = o == t->n_players ? CBD_TURN_NEUTRAL : (cbd_turn_player)o;
    }
    if (cb_lcg(s) % 3 == 0) {
        cb_random_fog(c, s);
    }
    cb_wire(c);
}

/* Builders for hand-made turns: a board of nt territories and np players at the default battle
 * settings (W9) and multipliers (W26), orders added one by one. */
static inline cbd_turn_order cb_move(int p, uint32_t from, uint32_t to, uint64_t armies) {
    return (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                            .player = (cbd_turn_player)p,
                            .from = from,
                            .to = to,
                            .armies = armies};
}

static inline cbd_turn_order cb_card_order(cbd_turn_order_type type, int p, uint32_t to) {
    return (cbd_turn_order){.type = type, .player = (cbd_turn_player)p, .to = to};
}

static inline void cb_example(cb_case *c, size_t nt, const cbd_turn_territory *terr, size_t np) {
    memset(c, 0, sizeof *c);
    c->turn.n_territories = nt;
    memcpy(c->terr, terr, nt * sizeof *terr);
    c->turn.n_players = np;
    for (size_t p = 0; p < np; p++) {
        c->team[p] = (uint16_t)p;
    }
    c->turn.battle = cbd_warapp_default_settings();
    c->turn.blockade_multiplier = c->turn.emergency_blockade_multiplier = 3000000;
    cb_wire(c);
}

static inline void cb_add(cb_case *c, cbd_turn_order o) {
    c->ord[c->turn.n_orders++] = o;
    cb_wire(c);
}

/* A map from a list of borders ("01 12": 0–1 and 1–2), as sorted symmetric lists. */
static inline void cb_borders_of(cb_case *c, const char *pairs) {
    size_t n = 0, nt = c->turn.n_territories;
    for (size_t a = 0; a < nt; a++) {
        c->noff[a] = (uint32_t)n;
        for (size_t b = 0; b < nt; b++) {
            for (const char *q = pairs; q[0] && q[1]; q += q[2] ? 3 : 2) {
                size_t x = (size_t)(q[0] - '0'), y = (size_t)(q[1] - '0');
                if ((x == a && y == b) || (x == b && y == a)) {
                    c->nb[n++] = (uint32_t)b;
                    break;
                }
            }
        }
    }
    c->noff[nt] = (uint32_t)n;
    c->turn.neighbor_off = c->noff;
    cb_wire(c);
}

static inline bool cb_is_card(cbd_turn_order_type type) {
    return type != CBD_ORDER_DEPLOY && type != CBD_ORDER_ATTACK_TRANSFER;
}

/* The analysis against the brute force, to 1e-12: owners, armies, goals, units, eliminations,
 * and each order's chances (a card: its chance of being skipped; W30's cards: nothing). */
static inline void cb_compare(const cb_case *c, const cbd_turn_analysis *a, const cb_res *r,
                              int k) {
    const cbd_turn *t = &c->turn;
    const double eps = 1e-12;
    for (size_t i = 0; i < t->n_territories; i++) {
        for (size_t p = 0; p <= t->n_players; p++) {
            cr_assert_float_eq(a->territories[i].owner[p], (double)r->owner[i][p], eps,
                               "case %d territory %zu owner %zu", k, i, p);
        }
        long double got[CB_A + 1] = {0};
        for (size_t j = 0; j < a->territories[i].n_armies; j++) {
            cr_assert(a->territories[i].armies[j].armies <= CB_A);
            got[a->territories[i].armies[j].armies] += a->territories[i].armies[j].probability;
        }
        for (size_t v = 0; v <= CB_A; v++) {
            cr_assert_float_eq((double)got[v], (double)r->armies[i][v], eps,
                               "case %d territory %zu armies %zu", k, i, v);
        }
    }
    cr_assert_float_eq(a->goals_probability, (double)r->goals, eps, "case %d goals", k);
    for (size_t o = 0; o < t->n_orders; o++) {
        const cbd_turn_order_result *x = &a->orders[o];
        const long double *w = r->ostat[o];
        cbd_turn_order_type type = c->ord[o].type;
        if (type == CBD_ORDER_PRIORITY || type == CBD_ORDER_DELAY) {
            continue;
        }
        cr_assert_float_eq(x->skipped, (double)w[0], eps, "case %d order %zu skipped", k, o);
        if (cb_is_card(type)) {
            continue;
        }
        cr_assert_float_eq(x->attack, (double)w[1], eps, "case %d order %zu attack", k, o);
        cr_assert_float_eq(x->transfer, (double)w[2], eps, "case %d order %zu transfer", k, o);
        cr_assert_float_eq(x->capture, (double)w[3], eps, "case %d order %zu capture", k, o);
    }
    cr_assert_eq(a->n_units, t->n_units);
    for (size_t u = 0; u < t->n_units; u++) {
        long double alive = 0;
        for (size_t i = 0; i < t->n_territories; i++) {
            alive += r->unit_at[u][i];
            cr_assert_float_eq(a->units[u].territory[i], (double)r->unit_at[u][i], eps,
                               "case %d unit %zu territory %zu", k, u, i);
        }
        cr_assert_float_eq(a->units[u].alive, (double)alive, eps, "case %d unit %zu alive", k, u);
    }
    for (size_t p = 0; t->n_units > 0 && p < t->n_players; p++) {
        cr_assert_float_eq(a->eliminated[p], (double)r->eliminated[p], eps,
                           "case %d player %zu eliminated", k, p);
    }
}

#endif
