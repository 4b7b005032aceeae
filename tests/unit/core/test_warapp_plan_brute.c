/*
 * The planner (W31) against W31's whole space enumerated by brute force (warapp_plan_brute.h,
 * valued by the turn brute force of warapp_turn_brute.h, not the planner's code): on random
 * small boards and on boards made by hand, the planner's value equals the space's optimum to
 * 1e-12 with optimal true, and every plan it answers (best and alternatives) lies in the space
 * and has, by the brute force, the value it answers.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_plan.h"
/* room for a plan of three orders beside the enemy's two */
#define BO 5
#include "warapp_plan_brute.h"

/* What the brute force found: the optimum, and the best plans without each property. */
typedef struct {
    long double best;
    pplan best_plan;
    long double no_split;  /* best of the plans where no territory gives two orders */
    long double no_pincer; /* ... where no target is attacked from two territories */
    long double no_hold;   /* ... where every deployed territory sends all it may */
    long double no_rear;   /* ... where every deploy is on a territory bordering another's */
    uint64_t plans;
} optimum;

static bool is_other(const pboard *b, uint32_t t) {
    return b->terr[t].owner != PB_ME;
}

static bool splits(const pplan *p) {
    for (size_t i = 0; i < p->n; i++) {
        for (size_t j = i + 1; j < p->n; j++) {
            if (p->o[i].type && p->o[j].type && p->o[i].from == p->o[j].from) {
                return true;
            }
        }
    }
    return false;
}

static bool pincer(const pboard *b, const pplan *p) {
    for (size_t i = 0; i < p->n; i++) {
        for (size_t j = i + 1; j < p->n; j++) {
            if (p->o[i].type && p->o[j].type && p->o[i].to == p->o[j].to &&
                p->o[i].from != p->o[j].from && is_other(b, p->o[i].to)) {
                return true;
            }
        }
    }
    return false;
}

/* Some deployed territory keeps armies it could send. */
static bool holds(const pboard *b, const pplan *p) {
    for (size_t i = 0; i < p->n; i++) {
        if (p->o[i].type != CBD_ORDER_DEPLOY) {
            continue;
        }
        uint32_t t = p->o[i].to;
        uint64_t room = b->terr[t].armies + p->o[i].armies - pb_guard(b), sent = 0;
        for (size_t j = 0; j < p->n; j++) {
            sent += p->o[j].type && p->o[j].from == t ? p->o[j].armies : 0;
        }
        if (sent < room) {
            return true;
        }
    }
    return false;
}

/* Some deploy is on a territory that borders none of another owner (away from the front). */
static bool rear(const pboard *b, const pplan *p) {
    for (size_t i = 0; i < p->n; i++) {
        if (p->o[i].type != CBD_ORDER_DEPLOY) {
            continue;
        }
        bool front = false;
        for (size_t t = 0; t < b->nt; t++) {
            front |= b->adj[p->o[i].to][t] && is_other(b, (uint32_t)t);
        }
        if (!front) {
            return true;
        }
    }
    return false;
}

static void more(long double *best, long double v, bool excluded) {
    if (!excluded && v > *best) {
        *best = v;
    }
}

static void visit(const pboard *b, const pplan *plan, void *arg) {
    optimum *o = arg;
    cr_assert(pb_in_space(b, plan->o, plan->n), "the enumeration left the space");
    long double v = pb_value(b, plan->o, plan->n);
    o->plans++;
    if (v > o->best) {
        o->best = v;
        o->best_plan = *plan;
    }
    more(&o->no_split, v, splits(plan));
    more(&o->no_pincer, v, pincer(b, plan));
    more(&o->no_hold, v, holds(b, plan));
    more(&o->no_rear, v, rear(b, plan));
}

static optimum brute_optimum(const pboard *b) {
    optimum o = {-1, {0}, -1, -1, -1, -1, 0};
    pb_enumerate(b, visit, &o);
    return o;
}

/* The planner on the board, each answered plan checked in the space and against the brute. */
static void check_planner(pboard *b, const optimum *o, int k) {
    cbd_turn turn;
    pb_turn(b, &turn);
    cbd_plan_request req = {.player = PB_ME,
                            .income = b->income,
                            .n_goals = b->n_goals,
                            .goals = b->goals,
                            .objective = b->objective,
                            .max_plans = 1000000,
                            .max_work = UINT64_MAX};
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_plan_result r;
    cbd_turn_error err;
    cr_assert_eq(cbd_plan_search(&turn, &req, &lim, NULL, &r, &err), CBD_OK, "case %d", k);
    cr_expect(r.optimal, "case %d: not proven optimal", k);
    cr_expect_float_eq(r.best.value, (double)o->best, 1e-12, "case %d: %.17g, optimum %.17Lg", k,
                       r.best.value, o->best);
    for (size_t i = 0; i <= r.n_alternatives; i++) {
        const cbd_plan *p = i == 0 ? &r.best : &r.alternatives[i - 1];
        cr_assert(pb_in_space(b, p->orders, p->n_orders), "case %d plan %zu not in W31's space", k,
                  i);
        cr_expect_float_eq(p->value, (double)pb_value(b, p->orders, p->n_orders), 1e-12,
                           "case %d plan %zu", k, i);
        /* next-best: no higher, but for ties within 1e-12 broken by the smaller plan */
        cr_expect(i == 0 || p->value <= r.best.value + 1e-12, "case %d plan %zu", k, i);
    }
    /* W34: each front is searched on its own at each deploy total (income + 1 of them), each
     * run within its front's plans, each of which extends to a plan of the whole space (the
     * other fronts take the rest of the income): at most fronts × (income + 1) × the space
     * (the boards here have two own territories at most, so two fronts at most). */
    cr_expect(r.plans_evaluated >= 1 && r.plans_evaluated <= 2 * (b->income + 1) * o->plans,
              "case %d: %llu plans evaluated, %llu in the space", k,
              (unsigned long long)r.plans_evaluated, (unsigned long long)o->plans);
    cbd_plan_result_free(&r);
}

static uint64_t rnd(uint64_t *s, uint64_t n) {
    return lcg(s) % n;
}

/* A random small board: 3 or 4 territories, the player owning one or two, an enemy (and
 * sometimes a neutral), a random map, perhaps one enemy order, one or two goals. */
static bool random_board(pboard *b, uint64_t *s) {
    memset(b, 0, sizeof *b);
    b->nt = 3 + rnd(s, 2);
    b->n_players = 2;
    size_t mine = 1 + rnd(s, 2);
    for (size_t t = 0; t < b->nt; t++) {
        b->terr[t].owner = t < mine ? PB_ME : (rnd(s, 4) == 0 ? CBD_TURN_NEUTRAL : 1);
        b->terr[t].armies = t < mine ? 1 + rnd(s, 6) : rnd(s, 6);
    }
    size_t np = 0;
    for (size_t i = 0; i < b->nt; i++) {
        for (size_t j = i + 1; j < b->nt; j++) {
            if (rnd(s, 5) < 3) {
                b->adj[i][j] = b->adj[j][i] = true;
                np += (size_t)(i < mine) + (size_t)(j < mine);
            }
        }
    }
    b->income = rnd(s, 4);
    b->battle = cbd_warapp_default_settings();
    b->battle.luck_modifier = rnd(s, 2) ? 0 : 500000;
    b->battle.rounding = rnd(s, 3) == 0 ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    b->battle.one_army_must_stand_guard = rnd(s, 5) != 0;
    b->multi = rnd(s, 4) == 0;
    for (size_t t = mine; t < b->nt && rnd(s, 3) == 0 && b->n_given == 0; t++) {
        for (size_t u = 0; u < b->nt; u++) {
            if (b->terr[t].owner == 1 && b->adj[t][u]) {
                b->given[b->n_given++] = (cbd_turn_order){.type = CBD_ORDER_ATTACK_TRANSFER,
                                                          .player = 1,
                                                          .from = (uint32_t)t,
                                                          .to = (uint32_t)u,
                                                          .armies = 1 + rnd(s, 6)};
                break;
            }
        }
    }
    b->move_order = b->n_given && rnd(s, 4) == 0 ? CBD_MOVE_RANDOM : CBD_MOVE_LISTED;
    b->n_goals = 1 + rnd(s, 2);
    b->goals[0] = (uint32_t)(mine + rnd(s, b->nt - mine));
    b->goals[1] = (uint32_t)rnd(s, b->nt);
    if (b->goals[1] == b->goals[0]) {
        b->n_goals = 1;
    }
    b->objective = rnd(s, 2) ? CBD_PLAN_ALL : CBD_PLAN_EXPECTED;
    return np >= 1 && np + b->n_given <= BO;
}

/* A space the brute force walks in a moment: counted first. */
static void count_visit(const pboard *b, const pplan *p, void *arg) {
    (void)b;
    (void)p;
    ++*(uint64_t *)arg;
}

Test(plan_brute, w31_random_boards_reach_the_whole_space_optimum) {
    uint64_t s = 31;
    int boards = 0, split = 0, pinc = 0, hold = 0;
    for (int k = 0; boards < 60 && k < 5000; k++) {
        pboard b;
        if (!random_board(&b, &s)) {
            continue;
        }
        uint64_t n = 0;
        pb_enumerate(&b, count_visit, &n);
        if (n > 1500) {
            continue;
        }
        optimum o = brute_optimum(&b);
        check_planner(&b, &o, k);
        boards++;
        split += o.best > o.no_split + 1e-9;
        pinc += o.best > o.no_pincer + 1e-9;
        hold += o.best > o.no_hold + 1e-9;
    }
    cr_expect_eq(boards, 60);
    /* Among them, boards whose every best plan splits a stack, attacks one target from two
     * territories, or keeps deployed armies home on the front. */
    cr_expect(split >= 1, "no board needs a split (%d)", split);
    cr_expect(pinc >= 1, "no board needs two attacks on one target (%d)", pinc);
    cr_expect(hold >= 1, "no board needs armies kept home (%d)", hold);
}

/* A board by hand: territories with owner and armies, borders, the enemy's orders. */
static pboard hand_board(const cbd_turn_territory *t, size_t nt, const int (*edges)[2],
                         size_t n_edges) {
    pboard b;
    memset(&b, 0, sizeof b);
    b.nt = nt;
    b.n_players = 2;
    memcpy(b.terr, t, nt * sizeof *t);
    for (size_t e = 0; e < n_edges; e++) {
        b.adj[edges[e][0]][edges[e][1]] = b.adj[edges[e][1]][edges[e][0]] = true;
    }
    b.battle = cbd_warapp_default_settings();
    b.objective = CBD_PLAN_ALL;
    return b;
}

/*
 * Income deployed away from the front: D (2 armies) lies behind A (1), which borders the enemy's
 * E (8). The enemy sends 7 from E at A and then, with multi_attack, what it can from A at D.
 * At 0 % luck (W1–W6): with A at 1 + x, 7 attackers kill 4.2 → 4; A falls unless x >= 3,
 * leaving 7 − round(0.7 (1 + x)) on A, of which all but one go on at D. Holding D (the goal)
 * needs D's 2 + y armies to survive them: y = 3 on D holds (A falls with 6 left, 5 go on, kill
 * 3 < 5: D holds). Under the random move order (W13) the enemy moves first half the time, so a
 * deploy on A sent back to D comes too late then (A is lost: the transfer is skipped, W14.1):
 * every plan deploying on the front holds D with chance 1/2 at most.
 */
Test(plan_brute, w31_deploying_behind_the_front_holds_the_rear) {
    const cbd_turn_territory t[3] = {{PB_ME, 2}, {PB_ME, 1}, {1, 8}};
    const int edges[2][2] = {{0, 1}, {1, 2}};
    pboard b = hand_board(t, 3, edges, 2);
    b.battle.luck_modifier = 0;
    b.multi = true;
    b.move_order = CBD_MOVE_RANDOM;
    b.income = 3;
    b.goals[0] = 0;
    b.n_goals = 1;
    b.given[0] = (cbd_turn_order){
        .type = CBD_ORDER_ATTACK_TRANSFER, .player = 1, .from = 2, .to = 1, .armies = 7};
    b.given[1] = (cbd_turn_order){
        .type = CBD_ORDER_ATTACK_TRANSFER, .player = 1, .from = 1, .to = 0, .armies = 100};
    b.n_given = 2;
    optimum o = brute_optimum(&b);
    cr_assert_float_eq((double)o.best, 1.0, 1e-12);
    cr_assert(o.no_rear < 0.5 + 1e-12, "a plan deploying on the front holds D: %Lg", o.no_rear);
    check_planner(&b, &o, 0);
}

/* Swaps the plan's two attacks on `target`. */
static void swap_attacks(cbd_plan *p, uint32_t target) {
    size_t at[2], n = 0;
    for (size_t i = 0; i < p->n_orders && n < 2; i++) {
        if (p->orders[i].type == CBD_ORDER_ATTACK_TRANSFER && p->orders[i].to == target) {
            at[n++] = i;
        }
    }
    cr_assert_eq(n, 2, "the plan does not attack the target twice");
    cbd_turn_order t = p->orders[at[0]];
    p->orders[at[0]] = p->orders[at[1]];
    p->orders[at[1]] = t;
}

/*
 * One target attacked from two territories in a chosen order, by hand at 0 % luck (W1–W6, the
 * guard W7): T (2 armies) borders A (2: one may move) and B (3: two may move). A's one first:
 * it kills round(0.6) = 1, T's 2 kill round(1.4) = 1: T keeps 1. Then B's two kill
 * round(1.2) = 1 and take T. In the other order B's two kill 1 and lose 1, and A's one meets
 * T's one: each kills one, and the defender's army comes back (W5): T holds. Alone, neither
 * stack takes T. So the only plans that take T send A's first: value 1; the other order 0.
 */
Test(plan_brute, w31_two_attacks_on_one_target_in_the_better_order) {
    const cbd_turn_territory t[3] = {{PB_ME, 2}, {PB_ME, 3}, {1, 2}};
    const int edges[2][2] = {{0, 2}, {1, 2}};
    pboard b = hand_board(t, 3, edges, 2);
    b.battle.luck_modifier = 0;
    b.income = 0;
    b.goals[0] = 2;
    b.n_goals = 1;
    optimum o = brute_optimum(&b);
    cr_assert(o.best > o.no_pincer + 1e-9, "one attack does as well: %Lg %Lg", o.best, o.no_pincer);
    check_planner(&b, &o, 0);
    cbd_turn turn;
    pb_turn(&b, &turn);
    cbd_plan_request req = {.player = PB_ME,
                            .income = b.income,
                            .n_goals = 1,
                            .goals = b.goals,
                            .objective = CBD_PLAN_ALL,
                            .max_plans = 1000000,
                            .max_work = UINT64_MAX};
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_plan_result r;
    cbd_turn_error err;
    cr_assert_eq(cbd_plan_search(&turn, &req, &lim, NULL, &r, &err), CBD_OK);
    swap_attacks(&r.best, 2);
    long double swapped = pb_value(&b, r.best.orders, r.best.n_orders);
    cr_expect_float_eq((double)swapped, 0.0, 1e-12, "the other order: %Lg", swapped);
    cbd_plan_result_free(&r);
}
