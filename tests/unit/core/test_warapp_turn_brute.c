/*
 * The exact turn analysis against a brute-force enumeration written independently
 * here (no groups, no merging of boards: every permutation of the players under `random`, every
 * pair of kill values of every battle, each kill distribution straight from binomial
 * coefficients in long double with W1 blending in integers), on random small boards; and
 * seeded simulated turns against the analysis (chi-square and z-tests, fixed seeds).
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "chi_square.h"
#include "combatd/warapp_turn.h"

#define MAXT    4
#define MAXO    5
#define MAXP    3
#define MAXA    64
#define NEUTRAL CBD_TURN_NEUTRAL

typedef struct {
    int owner; /* player index, or -1 for neutral */
    long armies, elig;
} bt;

typedef struct {
    int nt, np, no;
    bt board[MAXT];
    int team[MAXP];
    cbd_turn_order ord[MAXO];
    long off, def, luck;
    int weighted, guard, multi, move;
    int porder[MAXP];
    int ngoals;
    cbd_turn_goal goals[2];
} bcase;

typedef struct {
    long double owner[MAXT][MAXP + 1], armies[MAXT][MAXA];
    long double ostat[MAXO][4]; /* skipped, attack, transfer, capture */
    long double goals;
    long leaves, budget;
} bres;

/* One side's kills: value -> probability over 0..n+1 (W1 exactly in integers, W2). */
static void kill_dist(long n, long p, long luck, int weighted, long double *out) {
    for (long k = 0; k <= n + 1; k++) {
        out[k] = 0;
    }
    long double pl = (long double)p / 1e6L, c = 1;
    for (long x = 0; x <= n; x++) {
        long double pm = c * powl(pl, (long double)x) * powl(1 - pl, (long double)(n - x));
        c = c * (long double)(n - x) / (long double)(x + 1);
        if (luck == 0 && x > 0) {
            pm = 0; /* the roll does not matter: all mass on one blend, added at x = 0 */
        } else if (luck == 0) {
            pm = 1;
        }
        unsigned long long v =
            (unsigned long long)luck * (unsigned long long)x * 1000000ULL +
            (unsigned long long)(1000000 - luck) * (unsigned long long)n * (unsigned long long)p;
        unsigned long long whole = v / 1000000000000ULL, frac = v % 1000000000000ULL;
        if (!weighted) {
            out[whole + (2 * frac >= 1000000000000ULL)] += pm;
        } else {
            out[whole] += pm * (long double)(1000000000000ULL - frac) / 1e12L;
            if (frac) {
                out[whole + 1] += pm * (long double)frac / 1e12L;
            }
        }
    }
}

static void finish(const bcase *c, const bt *b, long double w, bres *r) {
    r->leaves++;
    int ok = 1;
    for (int t = 0; t < c->nt; t++) {
        r->owner[t][b[t].owner < 0 ? c->np : b[t].owner] += w;
        r->armies[t][b[t].armies] += w;
    }
    for (int g = 0; g < c->ngoals; g++) {
        int want = c->goals[g].owner == NEUTRAL ? -1 : c->goals[g].owner;
        ok = ok && b[c->goals[g].territory].owner == want;
    }
    r->goals += ok ? w : 0;
}

static void run(const bcase *c, const int *sched, int len, int step, const bt *in, long double w,
                bres *r) {
    if (r->leaves > r->budget) {
        return;
    }
    if (step == len) {
        finish(c, in, w, r);
        return;
    }
    const cbd_turn_order *o = &c->ord[sched[step]];
    long double *st = r->ostat[sched[step]];
    bt b[MAXT];
    memcpy(b, in, sizeof b);
    bt *f = &b[o->from], *t = &b[o->to];
    long movable = c->guard ? (f->armies > 0 ? f->armies - 1 : 0) : f->armies;
    if (!c->multi && f->elig < movable) {
        movable = f->elig;
    }
    long sent = o->by_percent ? (long)((long long)o->percent * movable / 1000000)
                              : ((long)o->armies < movable ? (long)o->armies : movable);
    if (f->owner != o->player || sent == 0) {
        st[0] += w;
        run(c, sched, len, step + 1, b, w, r);
        return;
    }
    f->armies -= sent;
    f->elig = f->elig > sent ? f->elig - sent : 0;
    if (t->owner >= 0 && c->team[t->owner] == c->team[o->player]) {
        st[2] += w;
        t->armies += sent;
        run(c, sched, len, step + 1, b, w, r);
        return;
    }
    st[1] += w;
    long A = sent, D = t->armies;
    long double ka[MAXA + 2], kd[MAXA + 2];
    kill_dist(A, c->off, c->luck, c->weighted, ka);
    kill_dist(D, c->def, c->luck, c->weighted, kd);
    for (long i = 0; i <= A + 1; i++) {
        for (long j = 0; j <= D + 1; j++) {
            long double p = w * ka[i] * kd[j];
            if (p == 0) {
                continue;
            }
            bt n[MAXT];
            memcpy(n, b, sizeof n);
            long aleft = A - (j < A ? j : A), dleft = D - (i < D ? i : D);
            if (dleft == 0 && aleft > 0) {
                st[3] += p;
                n[o->to].owner = o->player;
                n[o->to].armies = aleft;
                n[o->to].elig = 0;
            } else {
                dleft = dleft ? dleft : 1;
                n[o->from].armies += aleft;
                n[o->to].armies = dleft;
                n[o->to].elig = n[o->to].elig < dleft ? n[o->to].elig : dleft;
            }
            run(c, sched, len, step + 1, n, p, r);
        }
    }
}

/* W13 from first principles: rounds alternate over `perm`, passing over players done. */
static int schedule(const bcase *c, const int *perm, int k, int *out) {
    int n = 0, used[MAXP] = {0}, more = 1;
    if (!perm) {
        for (int i = 0; i < c->no; i++) {
            if (c->ord[i].type == CBD_ORDER_ATTACK_TRANSFER) {
                out[n++] = i;
            }
        }
        return n;
    }
    for (int round = 0; more; round++) {
        more = 0;
        for (int q = 0; q < k; q++) {
            int pl = perm[round % 2 == 0 ? q : k - 1 - q], seen = 0;
            for (int i = 0; i < c->no; i++) {
                if (c->ord[i].type == CBD_ORDER_ATTACK_TRANSFER && c->ord[i].player == pl &&
                    seen++ == used[pl]) {
                    out[n++] = i;
                    used[pl]++;
                    more = 1;
                    break;
                }
            }
        }
    }
    return n;
}

static void permute(const bcase *c, const bt *start, int *perm, int k, int i, long double w,
                    bres *r) {
    if (i == k) {
        int sched[MAXO];
        int len = schedule(c, perm, k, sched);
        run(c, sched, len, 0, start, w, r);
        return;
    }
    for (int j = i; j < k; j++) {
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        permute(c, start, perm, k, i + 1, w, r);
        perm[j] = perm[i];
        perm[i] = t;
    }
}

static void brute(const bcase *c, bres *r) {
    memset(r, 0, sizeof *r);
    r->budget = 400000;
    bt start[MAXT];
    memcpy(start, c->board, sizeof start);
    for (int i = 0; i < c->no; i++) {
        if (c->ord[i].type == CBD_ORDER_DEPLOY) {
            start[c->ord[i].to].armies += (long)c->ord[i].armies; /* W12 */
        }
    }
    for (int t = 0; t < c->nt; t++) {
        start[t].elig = start[t].armies;
    }
    int movers[MAXP], k = 0;
    for (int p = 0; p < c->np; p++) {
        for (int i = 0; i < c->no; i++) {
            if (c->ord[i].type == CBD_ORDER_ATTACK_TRANSFER && c->ord[i].player == p) {
                movers[k++] = p;
                break;
            }
        }
    }
    if (c->move == CBD_MOVE_RANDOM) {
        long double fact = 1;
        for (int i = 2; i <= k; i++) {
            fact *= i;
        }
        permute(c, start, movers, k, 0, 1 / fact, r);
        return;
    }
    int perm[MAXP], n = 0;
    for (int i = 0; i < c->np; i++) { /* cycle: the movers in player_order's order */
        for (int j = 0; j < k; j++) {
            if (movers[j] == c->porder[i]) {
                perm[n++] = movers[j];
            }
        }
    }
    int sched[MAXO];
    int len = schedule(c, c->move == CBD_MOVE_CYCLE ? perm : NULL, n, sched);
    run(c, sched, len, 0, start, 1, r);
}

static uint64_t rnd_state;
static int rnd(int n) {
    rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((rnd_state >> 33) % (uint64_t)n);
}

static void random_case(bcase *c) {
    memset(c, 0, sizeof *c);
    c->np = 2 + rnd(2);
    c->nt = 2 + rnd(3);
    for (int t = 0; t < c->nt; t++) {
        int o = rnd(c->np + 1);
        c->board[t].owner = o == c->np ? -1 : o;
        c->board[t].armies = rnd(9);
    }
    int same = rnd(4) == 0; /* players 0 and 1 on one team sometimes (W8) */
    for (int p = 0; p < c->np; p++) {
        c->team[p] = same && p == 1 ? 0 : p;
        c->porder[p] = p;
    }
    for (int i = c->np - 1; i > 0; i--) {
        int j = rnd(i + 1), t = c->porder[i];
        c->porder[i] = c->porder[j];
        c->porder[j] = t;
    }
    c->no = 2 + rnd(4);
    for (int i = 0; i < c->no; i++) {
        cbd_turn_order *o = &c->ord[i];
        o->player = (cbd_turn_player)rnd(c->np);
        o->to = (uint32_t)rnd(c->nt);
        if (rnd(5) == 0 && c->board[o->to].owner >= 0) {
            o->type = CBD_ORDER_DEPLOY;
            o->player = (cbd_turn_player)c->board[o->to].owner;
            o->armies = (uint64_t)rnd(4);
            continue;
        }
        o->type = CBD_ORDER_ATTACK_TRANSFER;
        o->from = (uint32_t)((o->to + 1 + (uint32_t)rnd(c->nt - 1)) % (uint32_t)c->nt);
        if (rnd(5) < 2 && c->board[o->from].owner >= 0) {
            o->player = (cbd_turn_player)c->board[o->from].owner; /* mostly orders that run */
        }
        static const cbd_micro pcts[] = {250000, 333333, 500000, 1000000};
        o->by_percent = rnd(3) == 0;
        o->percent = pcts[rnd(4)];
        o->armies = (uint64_t)rnd(9);
    }
    static const long lucks[] = {0, 160000, 500000, 1000000};
    c->luck = lucks[rnd(4)];
    c->off = rnd(4) == 0 ? 350000 : 600000;
    c->def = rnd(4) == 0 ? 850000 : 700000;
    c->weighted = rnd(2);
    c->guard = rnd(4) != 0;
    c->multi = rnd(2);
    c->move = rnd(3);
    c->ngoals = rnd(3);
    for (int g = 0; g < c->ngoals; g++) {
        c->goals[g].territory = (uint32_t)rnd(c->nt);
        int o = rnd(c->np + 1);
        c->goals[g].owner = o == c->np ? NEUTRAL : (cbd_turn_player)o;
    }
}

static cbd_turn to_turn(const bcase *c, cbd_turn_territory *terr, uint16_t *team,
                        cbd_turn_player *porder) {
    for (int t = 0; t < c->nt; t++) {
        terr[t].owner = c->board[t].owner < 0 ? NEUTRAL : (cbd_turn_player)c->board[t].owner;
        terr[t].armies = (uint64_t)c->board[t].armies;
    }
    for (int p = 0; p < c->np; p++) {
        team[p] = (uint16_t)c->team[p];
        porder[p] = (cbd_turn_player)c->porder[p];
    }
    cbd_turn t = {.n_territories = (size_t)c->nt,
                  .territories = terr,
                  .n_players = (size_t)c->np,
                  .team = team,
                  .n_orders = (size_t)c->no,
                  .orders = c->ord,
                  .multi_attack = c->multi,
                  .move_order = c->move,
                  .n_player_order = (size_t)c->np,
                  .player_order = porder,
                  .n_goals = (size_t)c->ngoals,
                  .goals = c->goals};
    t.battle = cbd_warapp_default_settings();
    t.battle.offense_kill_rate = (cbd_micro)c->off;
    t.battle.defense_kill_rate = (cbd_micro)c->def;
    t.battle.luck_modifier = (cbd_micro)c->luck;
    t.battle.rounding = c->weighted ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    t.battle.one_army_must_stand_guard = c->guard;
    return t;
}

#define TOL 1e-12

static void compare(const bcase *c, const bres *r, const cbd_turn_analysis *a, int id) {
    bool det = true;
    for (int t = 0; t < c->nt; t++) {
        int owners = 0, counts = 0;
        for (int p = 0; p <= c->np; p++) {
            cr_assert_float_eq(a->territories[t].owner[p], (double)r->owner[t][p], TOL,
                               "case %d territory %d owner %d", id, t, p);
            owners += r->owner[t][p] > 0;
        }
        long double seen = 0;
        for (size_t i = 0; i < a->territories[t].n_armies; i++) {
            const cbd_turn_point *pt = &a->territories[t].armies[i];
            cr_assert_lt(pt->armies, MAXA);
            cr_assert_float_eq(pt->probability, (double)r->armies[t][pt->armies], TOL,
                               "case %d territory %d armies %d", id, t, (int)pt->armies);
            seen += r->armies[t][pt->armies];
        }
        for (int v = 0; v < MAXA; v++) {
            counts += r->armies[t][v] > 0;
        }
        cr_assert_float_eq((double)seen, 1.0, TOL, "case %d: armies the analysis missed", id);
        det = det && owners == 1 && counts == 1;
    }
    for (int i = 0; i < c->no; i++) {
        const cbd_turn_order_result *o = &a->orders[i];
        double got[4] = {o->skipped, o->attack, o->transfer, o->capture};
        for (int k = 0; k < 4; k++) {
            cr_assert_float_eq(got[k], (double)r->ostat[i][k], TOL, "case %d order %d stat %d", id,
                               i, k);
        }
    }
    cr_assert_float_eq(a->goals_probability, (double)r->goals, TOL, "case %d goals", id);
    cr_assert_eq(a->deterministic, det, "case %d deterministic", id);
}

Test(turn_brute, random_small_boards) {
    rnd_state = 20261201;
    int checked = 0, by_move[3] = {0}, lucky = 0;
    cbd_turn_limits lim = cbd_turn_default_limits();
    for (int id = 0; checked < 1500 && id < 20000; id++) {
        bcase c;
        random_case(&c);
        cbd_turn_territory terr[MAXT];
        uint16_t team[MAXP];
        cbd_turn_player porder[MAXP];
        cbd_turn t = to_turn(&c, terr, team, porder);
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_validate(&t, &lim, &err), CBD_OK, "case %d", id);
        bres *r = malloc(sizeof *r);
        brute(&c, r);
        if (r->leaves <= r->budget) {
            cbd_turn_analysis a;
            cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK, "case %d", id);
            compare(&c, r, &a, id);
            cbd_turn_analysis_free(&a);
            checked++;
            by_move[c.move]++;
            lucky += c.luck > 0 && !a.deterministic;
        }
        free(r);
    }
    cr_assert_eq(checked, 1500);
    cr_expect_gt(by_move[0], 300);
    cr_expect_gt(by_move[1], 300);
    cr_expect_gt(by_move[2], 300);
    cr_expect_gt(lucky, 300);
}
