#ifndef COMBATD_TEST_WARAPP_TURN_CARDS_BRUTE_H
#define COMBATD_TEST_WARAPP_TURN_CARDS_BRUTE_H

/*
 * A brute force of War.app turns with cards and maps written from docs/rules.md's text
 * (W12–W30), sharing no code with the core: the whole board carried through every order of
 * every phase (W24: deploys, bombs, emergency blockades, airlifts, gifts, attacks/transfers with
 * Order Priority and Order Delay applied (W30), blockades), every damage pair of every battle
 * (warapp_brute.h's binomial enumeration and W19 walk), every permutation of the players under
 * the random move order (one drawn for the whole turn), peace (W29), borders (W24, W25),
 * Commanders' owners followed through gifts (W22, W28), and fog (W23) as the mixture of the
 * brute force over every combination of start counts. Header-only; the random turns it is run
 * on and the comparison with an analysis are in warapp_turn_cards_cases.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_brute.h"
#include "warapp_turn_cards_schedule.h"

#define CB_T   5   /* territories */
#define CB_U   3   /* units */
#define CB_O   10  /* orders */
#define CB_P   3   /* players */
#define CB_A   160 /* armies a territory may end with, at most */
#define CB_FOG 3   /* counts of one territory's distribution */
#define CB_MAX 1000000000L

typedef struct {
    int owner; /* a player, or -1 neutral */
    long armies, elig;
} cb_terr;

typedef struct {
    int at; /* territory, -1 dead, -2 on the move */
    uint64_t health;
    long arrival;
    int moved;
} cb_unit;

typedef struct {
    cb_terr t[CB_T];
    cb_unit u[CB_U];
    long next_arrival;
    int gone[CB_P];
} cb_board;

/* A turn in fixed arrays; `turn` points into them. */
typedef struct {
    cbd_turn turn;
    cbd_turn_territory terr[CB_T];
    cbd_turn_unit units[CB_U];
    cbd_turn_order ord[CB_O];
    uint32_t lists[CB_O][CB_U];
    uint16_t team[CB_P];
    cbd_turn_player player_order[CB_P];
    uint32_t noff[CB_T + 1], nb[CB_T * CB_T];
    cbd_turn_peace peace[CB_P];
    cbd_turn_goal goals[2];
    cbd_turn_fog fog[CB_T];
    cbd_warapp_count pts[CB_T][CB_FOG];
} cb_case;

typedef struct {
    long double owner[CB_T][CB_P + 1], armies[CB_T][CB_A + 1];
    long double ostat[CB_O][4]; /* skipped, attack, transfer, capture */
    long double unit_at[CB_U][CB_T], eliminated[CB_P];
    long double goals;
} cb_res;

/* Points the turn at the case's own arrays (after a copy of the case). */
static inline void cb_wire(cb_case *c) {
    c->turn.territories = c->terr;
    c->turn.units = c->units;
    c->turn.orders = c->ord;
    c->turn.team = c->team;
    c->turn.player_order = c->player_order;
    c->turn.peace = c->peace;
    c->turn.goals = c->goals;
    if (c->turn.neighbor_off) {
        c->turn.neighbor_off = c->noff;
        c->turn.neighbors = c->nb;
    }
    if (c->turn.fog) {
        c->turn.fog = c->fog;
        for (size_t t = 0; t < CB_T; t++) {
            c->fog[t].points = c->pts[t];
        }
    }
    for (size_t i = 0; i < CB_O; i++) {
        c->ord[i].units = c->lists[i];
    }
}

/* W8: the same team; a player is on its own team. Neutral is on nobody's. */
static inline int cb_team(const cb_case *c, int a, int b) {
    return a >= 0 && b >= 0 && (c->turn.team ? c->team[a] == c->team[b] : a == b);
}

/* W29. */
static inline int cb_at_peace(const cb_case *c, int a, int b) {
    for (size_t k = 0; k < c->turn.n_peace; k++) {
        int x = c->peace[k].a, y = c->peace[k].b;
        if ((x == a && y == b) || (x == b && y == a)) {
            return 1;
        }
    }
    return 0;
}

/* W24: borders, either side's list counting both ways; no map: every pair. */
static inline int cb_borders(const cb_case *c, int x, int y) {
    if (!c->turn.neighbor_off) {
        return 1;
    }
    for (int s = 0; s < 2; s++) {
        int a = s ? y : x, b = s ? x : y;
        for (uint32_t k = c->noff[a]; k < c->noff[a + 1]; k++) {
            if ((int)c->nb[k] == b) {
                return 1;
            }
        }
    }
    return 0;
}

static inline void cb_finish(const cb_case *c, const cb_board *b, long double w, cb_res *r) {
    int goals = 1;
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        r->owner[t][b->t[t].owner < 0 ? (int)c->turn.n_players : b->t[t].owner] += w;
        cr_assert(b->t[t].armies >= 0 && b->t[t].armies <= CB_A, "armies %ld", b->t[t].armies);
        r->armies[t][b->t[t].armies] += w;
    }
    for (size_t g = 0; g < c->turn.n_goals; g++) {
        int want = c->goals[g].owner == CBD_TURN_NEUTRAL ? -1 : c->goals[g].owner;
        goals = goals && b->t[c->goals[g].territory].owner == want;
    }
    r->goals += goals ? w : 0;
    for (size_t u = 0; u < c->turn.n_units; u++) {
        if (b->u[u].at >= 0) {
            r->unit_at[u][b->u[u].at] += w;
        }
    }
    for (size_t p = 0; p < c->turn.n_players; p++) {
        r->eliminated[p] += b->gone[p] ? w : 0;
    }
}

/* W22 with W28: a unit is its territory's owner's, so a player's Commanders are those alive on
 * the player's territories now; one who started with a Commander and has none left is out. */
static inline void cb_eliminate(const cb_case *c, cb_board *b, int p, const int *started) {
    if (p < 0 || !started[p] || b->gone[p]) {
        return;
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        if (c->units[u].commander && b->u[u].at >= 0 && b->t[b->u[u].at].owner == p) {
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

/* The units on territory t in arrival order (W19's listed order, W21). */
static inline int cb_units_on(const cb_case *c, const cb_board *b, int t, int *out) {
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

static inline void cb_arrive(cb_board *b, const int *list, int n, int t) {
    for (int i = 0; i < n; i++) {
        b->u[list[i]].at = t;
        b->u[list[i]].arrival = b->next_arrival++;
        b->u[list[i]].moved = 1;
    }
}

/* W14.2–3 and W21 for an attack/transfer or an airlift (W27): the armies it sends and the
 * units it takes (never onto a teammate's territory). */
static inline long cb_sending(const cb_case *c, const cb_board *b, const cbd_turn_order *o, int *au,
                              int *na) {
    const cb_terr *f = &b->t[o->from];
    const cbd_turn *turn = &c->turn;
    long movable =
        turn->battle.one_army_must_stand_guard ? (f->armies > 0 ? f->armies - 1 : 0) : f->armies;
    if (!turn->multi_attack && f->elig < movable) {
        movable = f->elig;
    }
    long sent = o->by_percent ? (long)((long long)o->percent * movable / 1000000)
                              : ((long)o->armies < movable ? (long)o->armies : movable);
    int to_owner = b->t[o->to].owner;
    int teammate = to_owner != o->player && cb_team(c, o->player, to_owner);
    *na = 0;
    for (size_t k = 0; k < o->n_units && !teammate; k++) {
        int u = (int)o->units[k];
        if (b->u[u].at == (int)o->from && (turn->multi_attack || !b->u[u].moved)) {
            au[(*na)++] = u;
        }
    }
    return sent;
}

typedef struct {
    const cb_case *c;
    const int *sched;
    int len;
    int started[CB_P]; /* had a Commander at the start of the turn (W22) */
    cb_res *r;
} cb_run_ctx;

static inline void cb_run(const cb_run_ctx *x, int step, const cb_board *in, long double w);

/* Both sides' W19 walks for one pair of damages, then W20–W22. */
static inline void cb_outcome(const cb_run_ctx *x, int step, const cb_board *b, long double p,
                              const cbd_turn_order *o, long A, const int *au, int na, const int *du,
                              int nd, uint64_t da, uint64_t dd) {
    const cb_case *c = x->c;
    cbd_warapp_unit ua[CB_U], ud[CB_U];
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
    uint64_t la[CB_U], ld[CB_U];
    uint64_t aleft = bf_take(&sa, dd, la), dleft = bf_take(&sd, da, ld);
    bool ae = bf_empty(&sa, aleft, la), de = bf_empty(&sd, dleft, ld);
    cb_board n = *b;
    bool adied = false, ddied = false;
    int back[CB_U], nb = 0;
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
        x->r->ostat[x->sched[step]][3] += p;
        n.t[o->to].owner = o->player;
        n.t[o->to].armies = (long)aleft;
        n.t[o->to].elig = 0;
        cb_arrive(&n, back, nb, (int)o->to);
    } else {
        long dl = ae && de ? 1 : (long)dleft;
        n.t[o->from].armies += (long)aleft;
        n.t[o->to].armies = dl;
        n.t[o->to].elig = n.t[o->to].elig > dl ? dl : n.t[o->to].elig;
        cb_arrive(&n, back, nb, (int)o->from);
    }
    if (adied) {
        cb_eliminate(c, &n, o->player, x->started);
    }
    if (ddied) {
        cb_eliminate(c, &n, defender, x->started);
    }
    cb_run(x, step + 1, &n, p);
}

/* W14 with W29: one attack/transfer order on board b (a copy the caller owns). */
static inline void cb_attack(const cb_run_ctx *x, int step, cb_board *b, long double w) {
    const cb_case *c = x->c;
    const cbd_turn_order *o = &c->ord[x->sched[step]];
    long double *st = x->r->ostat[x->sched[step]];
    cb_terr *f = &b->t[o->from], *t = &b->t[o->to];
    int au[CB_U], na;
    long sent = cb_sending(c, b, o, au, &na);
    int peace =
        t->owner >= 0 && !cb_team(c, o->player, t->owner) && cb_at_peace(c, o->player, t->owner);
    if (f->owner != o->player || (sent == 0 && na == 0) || peace) {
        st[0] += w;
        cb_run(x, step + 1, b, w);
        return;
    }
    f->armies -= sent;
    f->elig = f->elig > sent ? f->elig - sent : 0;
    for (int i = 0; i < na; i++) {
        b->u[au[i]].at = -2;
    }
    if (cb_team(c, o->player, t->owner)) {
        st[2] += w;
        t->armies += sent;
        cb_arrive(b, au, na, (int)o->to);
        cb_run(x, step + 1, b, w);
        return;
    }
    st[1] += w;
    int du[CB_U];
    int nd = cb_units_on(c, b, (int)o->to, du);
    uint64_t pa = (uint64_t)sent, pd = (uint64_t)t->armies;
    for (int i = 0; i < na; i++) {
        pa += c->units[au[i]].unit.attack_power;
    }
    for (int i = 0; i < nd; i++) {
        pd += c->units[du[i]].unit.defense_power;
    }
    const cbd_warapp_settings *s = &c->turn.battle;
    static bf_dist ka, kd; /* not re-entrant across levels: copied below */
    bf_damage(pa, s->offense_kill_rate, s->luck_modifier, s->rounding, &ka);
    long double pka[BF_MAX_DAMAGE + 1];
    memcpy(pka, ka.p, sizeof pka);
    bf_damage(pd, s->defense_kill_rate, s->luck_modifier, s->rounding, &kd);
    long double pkd[BF_MAX_DAMAGE + 1];
    memcpy(pkd, kd.p, sizeof pkd);
    for (uint64_t da = 0; da <= pa + 1; da++) {
        for (uint64_t dd = 0; dd <= pd + 1 && pka[da] > 0; dd++) {
            if (pkd[dd] > 0) {
                cb_outcome(x, step, b, w * pka[da] * pkd[dd], o, sent, au, na, du, nd, da, dd);
            }
        }
    }
}

/* W25–W28: one card on board b; returns whether it ran. */
static inline int cb_card(const cb_case *c, cb_board *b, const cbd_turn_order *o) {
    int p = o->player;
    cb_terr *t = &b->t[o->to];
    if (o->type == CBD_ORDER_BOMB) {
        int near = !c->turn.neighbor_off; /* W25: on a map, next to a territory of the player */
        for (int k = 0; k < (int)c->turn.n_territories && !near; k++) {
            near = b->t[k].owner == p && k != (int)o->to && cb_borders(c, k, (int)o->to);
        }
        if (cb_team(c, p, t->owner) || (t->owner >= 0 && cb_at_peace(c, p, t->owner)) || !near) {
            return 0;
        }
        t->armies /= 2;
        t->elig = t->elig > t->armies ? t->armies : t->elig;
        return 1;
    }
    if (o->type == CBD_ORDER_BLOCKADE || o->type == CBD_ORDER_EMERGENCY_BLOCKADE) {
        int dummy[CB_U];
        if (t->owner != p || cb_units_on(c, b, (int)o->to, dummy) > 0) {
            return 0;
        }
        cbd_micro m = o->type == CBD_ORDER_BLOCKADE ? c->turn.blockade_multiplier
                                                    : c->turn.emergency_blockade_multiplier;
        long long v = (long long)t->armies * (long long)m / 1000000; /* W26: floor */
        t->owner = -1;
        t->armies = v > CB_MAX ? CB_MAX : (long)v;
        t->elig = 0;
        return 1;
    }
    if (o->type == CBD_ORDER_GIFT) {
        if (t->owner != p) {
            return 0;
        }
        t->owner = o->to_player;
        t->elig = 0;
        for (size_t u = 0; u < c->turn.n_units; u++) {
            b->u[u].moved = b->u[u].at == (int)o->to ? 1 : b->u[u].moved;
        }
        return 1;
    }
    /* W27: an airlift. */
    int au[CB_U], na;
    long sent = cb_sending(c, b, o, au, &na);
    cb_terr *f = &b->t[o->from];
    if (f->owner != p || !cb_team(c, p, t->owner) || (sent == 0 && na == 0)) {
        return 0;
    }
    f->armies -= sent;
    f->elig = f->elig > sent ? f->elig - sent : 0;
    t->armies += sent;
    cb_arrive(b, au, na, (int)o->to);
    return 1;
}

static inline void cb_run(const cb_run_ctx *x, int step, const cb_board *in, long double w) {
    if (step == x->len) {
        cb_finish(x->c, in, w, x->r);
        return;
    }
    cb_board b = *in;
    const cbd_turn_order *o = &x->c->ord[x->sched[step]];
    if (o->type == CBD_ORDER_ATTACK_TRANSFER) {
        cb_attack(x, step, &b, w);
        return;
    }
    if (!cb_card(x->c, &b, o)) {
        x->r->ostat[x->sched[step]][0] += w;
    }
    cb_run(x, step + 1, &b, w);
}

/* One start board (no fog): deploys (W12), then every ordering's schedule with its weight. */
static inline void cb_brute_plain(const cb_case *c, long double weight, cb_res *r) {
    cb_board b;
    memset(&b, 0, sizeof b);
    cb_run_ctx x = {.c = c, .r = r};
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        b.t[t].owner = c->terr[t].owner == CBD_TURN_NEUTRAL ? -1 : c->terr[t].owner;
        b.t[t].armies = (long)c->terr[t].armies;
    }
    for (size_t i = 0; i < c->turn.n_orders; i++) {
        b.t[c->ord[i].to].armies += c->ord[i].type == CBD_ORDER_DEPLOY ? (long)c->ord[i].armies : 0;
    }
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        b.t[t].elig = b.t[t].armies;
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        b.u[u].at = (int)c->units[u].territory;
        b.u[u].health = c->units[u].unit.toughness;
        b.u[u].arrival = (long)u;
        cbd_turn_player owner = c->terr[c->units[u].territory].owner;
        if (c->units[u].commander && owner != CBD_TURN_NEUTRAL) {
            x.started[owner] = 1;
        }
    }
    b.next_arrival = CB_U;
    int perm[CB_P], k = cb_orderings_first(&c->turn, perm);
    long double n = cb_orderings_count(&c->turn, k);
    do {
        int sched[CB_SCHED];
        x.sched = sched;
        x.len = cb_schedule(&c->turn, perm, k, sched);
        cb_run(&x, 0, &b, weight / n);
    } while (c->turn.move_order == CBD_MOVE_RANDOM && cb_next_perm(perm, k));
}

/* W23: the mixture over every combination of the fogged territories' counts. */
static inline void cb_brute(const cb_case *c, cb_res *r) {
    memset(r, 0, sizeof *r);
    size_t nt = c->turn.n_territories, digit[CB_T] = {0};
    const cbd_turn_fog *fog = c->turn.fog;
    for (;;) {
        static cb_case plain;
        plain = *c;
        cb_wire(&plain);
        long double w = 1.0L;
        for (size_t t = 0; fog && t < nt; t++) {
            if (fog[t].n) {
                plain.terr[t].armies = fog[t].points[digit[t]].armies;
                w *= fog[t].points[digit[t]].weight;
            }
        }
        plain.turn.fog = NULL;
        cb_brute_plain(&plain, w, r);
        size_t t = 0;
        while (fog && t < nt && (fog[t].n <= 1 || ++digit[t] == fog[t].n)) {
            digit[t++] = 0;
        }
        if (!fog || t == nt) {
            return;
        }
    }
}

#endif
