#ifndef COMBATD_TEST_WARAPP_TURN_BRUTE_H
#define COMBATD_TEST_WARAPP_TURN_BRUTE_H

/*
 * A brute force of War.app turns with special units written from the rules' text (W12–W22),
 * sharing no code with the core: no groups, no merged states, no retirement; every board
 * carried whole through every order, every damage pair of every battle (warapp_brute.h's
 * binomial enumeration and W19 walk), and every permutation of the players under the random
 * move order. Header-only, with the random small turns it is run on and the comparison with
 * an analysis to 1e-12, for test_warapp_turn_units_brute.c and test_warapp_turn_units_fog.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_brute.h"

/* A test may make room for more territories or orders by defining these first. */
#ifndef BT
#define BT 4 /* territories */
#endif
#define BU 3 /* units */
#ifndef BO
#define BO 4 /* orders */
#endif
#define BP         3  /* players */
#define BA         40 /* armies a territory may end with, at most */
#define NEUTRAL_ID CBD_TURN_NEUTRAL

typedef struct {
    int owner; /* a player, or -1 neutral */
    long armies, elig;
} bterr;

typedef struct {
    int at; /* territory, or -1 dead */
    uint64_t health;
    long arrival;
    int moved;
} bunit;

typedef struct {
    bterr t[BT];
    bunit u[BU];
    long next_arrival;
    int gone[BP]; /* eliminated */
} bboard;

typedef struct {
    cbd_turn turn;
    cbd_turn_territory terr[BT];
    cbd_turn_unit units[BU];
    cbd_turn_order ord[BO];
    uint32_t lists[BO][BU];
    uint16_t team[BP];
    int had_commander[BP];
} bcase;

typedef struct {
    long double owner[BT][BP + 1], armies[BT][BA + 1];
    long double ostat[BO][4]; /* skipped, attack, transfer, capture */
    long double unit_at[BU][BT], eliminated[BP];
    long double goals; /* W16: every goal of c->turn.goals holds at the end (1 without goals) */
} bres;

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static int same_team(const bcase *c, int a, int b) {
    return b >= 0 && c->team[a] == c->team[b];
}

static void finish(const bcase *c, const bboard *b, long double w, bres *r) {
    int met = 1;
    for (size_t g = 0; g < c->turn.n_goals; g++) {
        const cbd_turn_goal *x = &c->turn.goals[g];
        met &= b->t[x->territory].owner == (x->owner == NEUTRAL_ID ? -1 : (int)x->owner);
    }
    r->goals += met ? w : 0;
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        r->owner[t][b->t[t].owner < 0 ? (int)c->turn.n_players : b->t[t].owner] += w;
        cr_assert(b->t[t].armies <= BA);
        r->armies[t][b->t[t].armies] += w;
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        if (b->u[u].at >= 0) {
            r->unit_at[u][b->u[u].at] += w;
        }
    }
    for (size_t p = 0; p < c->turn.n_players; p++) {
        r->eliminated[p] += b->gone[p] ? w : 0;
    }
}

/* W22, from the text: a player who started with a Commander and has none alive loses every
 * territory (they become neutral with what they hold). */
static void eliminate(const bcase *c, bboard *b, int p) {
    if (p < 0 || !c->had_commander[p] || b->gone[p]) {
        return;
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        if (c->units[u].commander && b->u[u].at >= 0 &&
            c->terr[c->units[u].territory].owner == (cbd_turn_player)p) {
            return;
        }
    }
    b->gone[p] = 1;
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        if (b->t[t].owner == p) {
            b->t[t].owner = -1;
            b->t[t].elig = 0;
        }
    }
}

/* The units on territory t by arrival (W19's listed order). */
static int units_on(const bcase *c, const bboard *b, int t, int *out) {
    int n = 0;
    for (int u = 0; u < (int)c->turn.n_units; u++) {
        if (b->u[u].at == t) {
            int j = n++;
            while (j > 0 && b->u[out[j - 1]].arrival > b->u[u].arrival) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = u;
        }
    }
    return n;
}

static void arrive(bboard *b, const int *list, int n, int t, int multi) {
    for (int i = 0; i < n; i++) {
        b->u[list[i]].at = t;
        b->u[list[i]].arrival = b->next_arrival++;
        b->u[list[i]].moved = !multi;
    }
}

static void run(const bcase *c, const int *sched, int len, int step, const bboard *in,
                long double w, bres *r);

/* Both sides' W19 walks for one pair of damages, then W20–W22. */
static void battle_outcome(const bcase *c, const int *sched, int len, int step, const bboard *b,
                           long double p, const cbd_turn_order *o, long A, const int *au, int na,
                           const int *du, int nd, uint64_t da, uint64_t dd, bres *r) {
    cbd_warapp_unit ua[BU], ud[BU];
    for (int i = 0; i < na; i++) {
        ua[i] = c->units[au[i]].unit;
        ua[i].toughness = ua[i].has_health ? b->u[au[i]].health : ua[i].toughness;
    }
    for (int i = 0; i < nd; i++) {
        ud[i] = c->units[du[i]].unit;
        ud[i].toughness = ud[i].has_health ? b->u[du[i]].health : ud[i].toughness;
    }
    cbd_warapp_side sa = {(uint64_t)A, (size_t)na, ua};
    cbd_warapp_side sd = {(uint64_t)b->t[o->to].armies, (size_t)nd, ud};
    uint64_t la[BU], ld[BU];
    uint64_t aleft = bf_take(&sa, dd, la), dleft = bf_take(&sd, da, ld);
    bool ae = bf_empty(&sa, aleft, la), de = bf_empty(&sd, dleft, ld);
    bboard n = *b;
    bool adied = false, ddied = false;
    int back[BU], nb = 0;
    for (int i = 0; i < na; i++) {
        if (la[i] == 0) {
            n.u[au[i]].at = -1;
            adied = adied || c->units[au[i]].commander;
        } else {
            n.u[au[i]].health = la[i];
            back[nb++] = au[i];
        }
    }
    for (int i = 0; i < nd; i++) {
        if (ld[i] == 0) {
            n.u[du[i]].at = -1;
            ddied = ddied || c->units[du[i]].commander;
        } else {
            n.u[du[i]].health = ld[i];
        }
    }
    int defender = n.t[o->to].owner;
    if (de && !ae) {
        r->ostat[sched[step]][3] += p;
        n.t[o->to].owner = o->player;
        n.t[o->to].armies = (long)aleft;
        n.t[o->to].elig = 0;
        arrive(&n, back, nb, (int)o->to, c->turn.multi_attack);
    } else {
        long dl = ae && de ? 1 : (long)dleft;
        n.t[o->from].armies += (long)aleft;
        n.t[o->to].armies = dl;
        n.t[o->to].elig = n.t[o->to].elig > dl ? dl : n.t[o->to].elig;
        arrive(&n, back, nb, (int)o->from, c->turn.multi_attack);
    }
    if (adied) {
        eliminate(c, &n, o->player);
    }
    if (ddied) {
        eliminate(c, &n, defender);
    }
    run(c, sched, len, step + 1, &n, p, r);
}

static void run(const bcase *c, const int *sched, int len, int step, const bboard *in,
                long double w, bres *r) {
    if (step == len) {
        finish(c, in, w, r);
        return;
    }
    const cbd_turn_order *o = &c->ord[sched[step]];
    long double *st = r->ostat[sched[step]];
    bboard b = *in;
    bterr *f = &b.t[o->from], *t = &b.t[o->to];
    const cbd_turn *turn = &c->turn;
    long movable =
        turn->battle.one_army_must_stand_guard ? (f->armies > 0 ? f->armies - 1 : 0) : f->armies;
    if (!turn->multi_attack && f->elig < movable) {
        movable = f->elig;
    }
    long sent = o->by_percent ? (long)((long long)o->percent * movable / 1000000)
                              : ((long)o->armies < movable ? (long)o->armies : movable);
    int au[BU], na = 0;
    /* W33, as its text reads: its own side is its own territory, or a teammate's unless it
     * attacks teammates; an attack-only order on its own side, or a transfer-only one elsewhere,
     * is skipped. */
    int own_side =
        t->owner == (int)o->player || (!o->attack_teammates && same_team(c, o->player, t->owner));
    int refused =
        (o->only == CBD_ONLY_ATTACK && own_side) || (o->only == CBD_ONLY_TRANSFER && !own_side);
    int teammate = t->owner != o->player && own_side;
    for (size_t k = 0; k < o->n_units && !teammate; k++) {
        int u = (int)o->units[k];
        if (b.u[u].at == (int)o->from && (turn->multi_attack || !b.u[u].moved)) {
            au[na++] = u;
        }
    }
    if (f->owner != o->player || refused || (sent == 0 && na == 0)) {
        st[0] += w;
        run(c, sched, len, step + 1, &b, w, r);
        return;
    }
    f->armies -= sent;
    f->elig = f->elig > sent ? f->elig - sent : 0;
    for (int i = 0; i < na; i++) {
        b.u[au[i]].at = -2; /* on the move */
    }
    if (own_side) {
        st[2] += w;
        t->armies += sent;
        arrive(&b, au, na, (int)o->to, turn->multi_attack);
        run(c, sched, len, step + 1, &b, w, r);
        return;
    }
    st[1] += w;
    int du[BU];
    int nd = units_on(c, &b, (int)o->to, du);
    uint64_t pa = (uint64_t)sent, pd = (uint64_t)t->armies;
    for (int i = 0; i < na; i++) {
        pa += c->units[au[i]].unit.attack_power;
    }
    for (int i = 0; i < nd; i++) {
        pd += c->units[du[i]].unit.defense_power;
    }
    static bf_dist ka, kd; /* not re-entrant across levels: copied below */
    bf_damage(pa, turn->battle.offense_kill_rate, turn->battle.luck_modifier, turn->battle.rounding,
              &ka);
    long double pka[BF_MAX_DAMAGE + 1];
    memcpy(pka, ka.p, sizeof pka);
    bf_damage(pd, turn->battle.defense_kill_rate, turn->battle.luck_modifier, turn->battle.rounding,
              &kd);
    long double pkd[BF_MAX_DAMAGE + 1];
    memcpy(pkd, kd.p, sizeof pkd);
    for (uint64_t da = 0; da <= pa + 1; da++) {
        for (uint64_t dd = 0; dd <= pd + 1 && pka[da] > 0; dd++) {
            if (pkd[dd] > 0) {
                battle_outcome(c, sched, len, step, &b, w * pka[da] * pkd[dd], o, sent, au, na, du,
                               nd, da, dd, r);
            }
        }
    }
}

/* W13: the schedule when round 1's movers are perm[0 .. k) (each mover's orders in order). */
static int schedule(const bcase *c, const int *perm, int k, int *out) {
    int n = 0, next[BP] = {0};
    for (int round = 0; n < (int)c->turn.n_orders; round++) {
        for (int i = 0; i < k; i++) {
            int p = perm[round % 2 == 0 ? i : k - 1 - i];
            for (int j = 0, seen = 0; j < (int)c->turn.n_orders; j++) {
                if (c->ord[j].player == p && seen++ == next[p]) {
                    out[n++] = j;
                    next[p]++;
                    break;
                }
            }
        }
    }
    return n;
}

static bool next_perm(int *v, int n) {
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
    int t = v[i];
    v[i] = v[j];
    v[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
    return true;
}

static void brute(const bcase *c, bres *r) {
    memset(r, 0, sizeof *r);
    bboard b;
    memset(&b, 0, sizeof b);
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        b.t[t].owner = c->terr[t].owner == NEUTRAL_ID ? -1 : c->terr[t].owner;
        b.t[t].armies = b.t[t].elig = (long)c->terr[t].armies;
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        b.u[u].at = (int)c->units[u].territory;
        b.u[u].health = c->units[u].unit.toughness;
        b.u[u].arrival = (long)u;
    }
    b.next_arrival = BU;
    int sched[BO];
    if (c->turn.move_order == CBD_MOVE_LISTED) {
        for (int i = 0; i < (int)c->turn.n_orders; i++) {
            sched[i] = i;
        }
        run(c, sched, (int)c->turn.n_orders, 0, &b, 1.0L, r);
        return;
    }
    int movers[BP], k = 0;
    for (int p = 0; p < (int)c->turn.n_players; p++) {
        for (size_t j = 0; j < c->turn.n_orders; j++) {
            if (c->ord[j].player == p) {
                movers[k++] = p;
                break;
            }
        }
    }
    long double perms = 1;
    for (int i = 2; i <= k; i++) {
        perms *= i;
    }
    do {
        int len = schedule(c, movers, k, sched);
        run(c, sched, len, 0, &b, 1.0L / perms, r);
    } while (next_perm(movers, k));
}

/* A random small turn with units: 2–4 territories, 2–3 players (sometimes a team), 1–3 units
 * (Commanders, custom units with damage to kill or health, some with a negative combat order),
 * 1–4 orders that list units of their player, and random settings. */
static inline void random_case(bcase *c, uint64_t *s) {
    memset(c, 0, sizeof *c);
    cbd_turn *t = &c->turn;
    t->n_territories = 2 + lcg(s) % 3;
    t->n_players = 2 + lcg(s) % 2;
    for (size_t i = 0; i < t->n_territories; i++) {
        uint64_t o = lcg(s) % (t->n_players + 1);
        c->terr[i].owner = o == t->n_players ? NEUTRAL_ID : (cbd_turn_player)o;
        c->terr[i].armies = lcg(s) % (i == 0 ? 14 : 6); /* one large stack can kill a Commander */
    }
    for (size_t p = 0; p < t->n_players; p++) {
        c->team[p] = (uint16_t)p;
    }
    if (t->n_players == 3 && lcg(s) % 3 == 0) {
        c->team[2] = 0; /* players 0 and 2 are a team */
    }
    t->team = c->team;
    t->n_units = 1 + lcg(s) % BU;
    for (size_t u = 0; u < t->n_units; u++) {
        cbd_turn_unit *x = &c->units[u];
        x->territory = (uint32_t)(lcg(s) % t->n_territories);
        uint64_t kind = lcg(s) % 4;
        if (kind == 0) {
            x->unit = cbd_warapp_commander();
            x->commander = true;
        } else if (kind == 3) {
            /* W22 keys on being a Commander, not on its numbers: a weak one dies often. */
            x->unit = cbd_warapp_commander();
            x->unit.toughness = 1 + lcg(s) % 3;
            x->unit.attack_power = x->unit.defense_power = lcg(s) % 3;
            x->commander = true;
        } else {
            x->unit.attack_power = lcg(s) % 4;
            x->unit.defense_power = lcg(s) % 4;
            x->unit.combat_order = (int64_t)(lcg(s) % 5) - 2;
            if (lcg(s) % 3 == 0) {
                x->unit.combat_order = CBD_COMMANDER_COMBAT_ORDER; /* ties in listed order */
            }
            x->unit.has_health = kind == 2 && lcg(s) % 2;
            x->unit.toughness = 1 + lcg(s) % 4;
        }
        cbd_turn_player owner = c->terr[x->territory].owner;
        if (x->commander && owner != NEUTRAL_ID) {
            c->had_commander[owner] = 1;
        }
    }
    t->n_orders = 1 + lcg(s) % BO;
    for (size_t i = 0; i < t->n_orders; i++) {
        cbd_turn_order *o = &c->ord[i];
        o->type = CBD_ORDER_ATTACK_TRANSFER;
        o->player = (cbd_turn_player)(lcg(s) % t->n_players);
        o->from = (uint32_t)(lcg(s) % t->n_territories);
        for (size_t tries = 0; tries < 8 && c->terr[o->from].owner != o->player; tries++) {
            o->from = (uint32_t)(lcg(s) % t->n_territories); /* mostly its own, so it runs */
        }
        o->to = (uint32_t)((o->from + 1 + lcg(s) % (t->n_territories - 1)) % t->n_territories);
        o->armies = lcg(s) % 14;
        if (lcg(s) % 4 == 0) {
            o->by_percent = true;
            o->percent = 1000000 / (1 + (cbd_micro)(lcg(s) % 3));
        }
        size_t n = 0;
        for (size_t u = 0; u < t->n_units; u++) { /* units of its player, in a random order */
            if (c->terr[c->units[u].territory].owner == o->player && lcg(s) % 3 != 0) {
                size_t j = n == 0 ? 0 : lcg(s) % (n + 1);
                c->lists[i][n++] = c->lists[i][j];
                c->lists[i][j] = (uint32_t)u;
            }
        }
        o->n_units = n;
        o->units = c->lists[i];
        /* W33 from the draws already made (the cases' random stream is unchanged): a fifth of
         * the orders attack-only, a fifth transfer-only, so that the rest still reach what the
         * cases test (eliminations); with a team, some attack teammates. */
        uint64_t mode = (o->armies + i) % 5;
        o->only = mode == 1 ? CBD_ONLY_ATTACK : mode == 2 ? CBD_ONLY_TRANSFER : CBD_ONLY_EITHER;
        o->attack_teammates = t->n_players == 3 && c->team[2] == 0 && (o->to + i) % 2 == 0;
    }
    t->territories = c->terr;
    t->units = c->units;
    t->orders = c->ord;
    t->battle = cbd_warapp_default_settings();
    static const cbd_micro lucks[3] = {0, 500000, 1000000};
    t->battle.luck_modifier = lucks[lcg(s) % 3];
    t->battle.rounding = lcg(s) % 2 ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    t->battle.one_army_must_stand_guard = lcg(s) % 3 != 0;
    t->multi_attack = lcg(s) % 2;
    t->move_order = lcg(s) % 2 ? CBD_MOVE_RANDOM : CBD_MOVE_LISTED;
}

static inline void compare(const bcase *c, const cbd_turn_analysis *a, const bres *r, int k) {
    const cbd_turn *t = &c->turn;
    const double eps = 1e-12;
    for (size_t i = 0; i < t->n_territories; i++) {
        for (size_t p = 0; p <= t->n_players; p++) {
            cr_assert_float_eq(a->territories[i].owner[p], (double)r->owner[i][p], eps,
                               "case %d territory %zu owner %zu", k, i, p);
        }
        long double got[BA + 1] = {0};
        for (size_t j = 0; j < a->territories[i].n_armies; j++) {
            cr_assert(a->territories[i].armies[j].armies <= BA);
            got[a->territories[i].armies[j].armies] += a->territories[i].armies[j].probability;
        }
        for (size_t v = 0; v <= BA; v++) {
            cr_assert_float_eq((double)got[v], (double)r->armies[i][v], eps,
                               "case %d territory %zu armies %zu", k, i, v);
        }
    }
    for (size_t o = 0; o < t->n_orders; o++) {
        const cbd_turn_order_result *x = &a->orders[o];
        double want[4] = {(double)r->ostat[o][0], (double)r->ostat[o][1], (double)r->ostat[o][2],
                          (double)r->ostat[o][3]};
        cr_assert_float_eq(x->skipped, want[0], eps, "case %d order %zu skipped", k, o);
        cr_assert_float_eq(x->attack, want[1], eps, "case %d order %zu attack", k, o);
        cr_assert_float_eq(x->transfer, want[2], eps, "case %d order %zu transfer", k, o);
        cr_assert_float_eq(x->capture, want[3], eps, "case %d order %zu capture", k, o);
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
    for (size_t p = 0; p < t->n_players; p++) {
        cr_assert_float_eq(a->eliminated[p], (double)r->eliminated[p], eps,
                           "case %d player %zu eliminated", k, p);
    }
}

#endif
