/*
 * W47: the planner's plan is never worth less than the greedy split. On stars (one own territory
 * beside k goals), many independent fronts, bonuses on many fronts (`income`), hubs and a grid's
 * border, at luck 0, 0.16 and 1, under `all`, `expected` and `income`, the test makes the greedy
 * split by its own small implementation of W47's rule (chances from cbd_warapp_graph, the
 * single-battle odds of /analyze-attack; the plan valued by cbd_turn_analyze of its orders, not
 * by the planner's code) and checks the planner's value against it, and the planner's answered
 * value against cbd_turn_analyze of its answered orders.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "plan_greedy_split.h"

/* The planner against the greedy split: its value at least the split's, and its plan's value
 * as cbd_turn_analyze of its orders has it. */
static double check(const char *name, gboard *b, uint64_t max_plans, cbd_turn_limits lim) {
    finish(b);
    static cbd_turn_order orders[2 * MAX_T];
    size_t n = greedy_orders(b, orders);
    double greedy = value_of(b, orders, n);
    cbd_turn t = turn_of(b);
    cbd_plan_request req = {.player = ME,
                            .income = b->income,
                            .n_goals = b->n_goals,
                            .goals = b->goals,
                            .objective = b->objective,
                            .max_plans = max_plans,
                            .max_work = UINT64_MAX,
                            .n_bonuses = b->objective == CBD_PLAN_INCOME ? b->n_bonuses : 0,
                            .bonuses = b->bonus};
    cbd_plan_result r;
    cbd_turn_error err;
    cr_assert_eq(cbd_plan_search(&t, &req, &lim, NULL, &r, &err), CBD_OK, "%s: err %d", name,
                 err.kind);
    double answered = value_of(b, r.best.orders, r.best.n_orders);
    double most = b->objective == CBD_PLAN_ALL        ? 1.0
                  : b->objective == CBD_PLAN_EXPECTED ? (double)b->n_goals
                                                      : 0;
    for (size_t k = 0; b->objective == CBD_PLAN_INCOME && k < b->n_bonuses; k++) {
        most += (double)b->bonus[k].value;
    }
    printf("%-36s greedy %.6f planner %.6f (most %.0f, %s, %llu plans)\n", name, greedy,
           r.best.value, most, r.optimal ? "proven" : "not proven",
           (unsigned long long)r.plans_evaluated);
    cr_expect(r.best.value >= greedy - 1e-9, "%s: planner %.12f below the greedy split %.12f", name,
              r.best.value, greedy);
    cr_expect(fabs(answered - r.best.value) < 1e-9, "%s: answered %.12f, its orders %.12f", name,
              r.best.value, answered);
    cr_expect(r.best.value >= 0 && r.best.value <= most, "%s: %.17g outside [0, %g]", name,
              r.best.value, most);
    double v = r.best.value;
    cbd_plan_result_free(&r);
    return v;
}

static const double LUCK[3] = {0, 0.16, 1};
static const cbd_plan_objective OBJ[2] = {CBD_PLAN_ALL, CBD_PLAN_EXPECTED};
static const char *const OBJ_NAME[3] = {"all", "expected", "income"};

/* One own territory (5 armies) beside k goals of 6-11 armies, income 25 a goal. */
static void star(gboard *b, size_t k, cbd_plan_objective o, double luck) {
    board_init(b, o, luck);
    uint32_t hub = add(b, ME, 5);
    for (size_t i = 0; i < k; i++) {
        uint32_t g = add(b, i % 2 ? ENEMY : CBD_TURN_NEUTRAL, 6 + i % 6);
        border(b, hub, g);
        b->goals[b->n_goals++] = g;
    }
    b->income = 25 * k;
}

/* (At luck 1 one analysis of a star of 12 costs 0.1 s, of 40 1.6 s: every battle's survivors
 * come home to the hub, whose states multiply; the larger stars are checked at luck 0 and 0.16,
 * so that the file runs in seconds under the sanitizers too.) */
Test(plan_greedy, stars) {
    const size_t K[5] = {8, 12, 16, 24, 40};
    for (size_t i = 0; i < 5; i++) {
        for (size_t l = 0; l < (K[i] <= 8 ? 3 : 2); l++) {
            for (size_t o = 0; o < 2; o++) {
                static gboard b;
                star(&b, K[i], OBJ[o], LUCK[l]);
                char name[64];
                snprintf(name, sizeof name, "star k=%zu luck %.2f %s", K[i], LUCK[l], OBJ_NAME[o]);
                double v = check(name, &b, 4, limits());
                /* 25 armies against at most 11 defenders: each goal is certain at luck 0
                 * (25 attackers kill 15 > 11), so the greedy split, hence the plan, is too */
                if (LUCK[l] == 0) {
                    cr_expect_float_eq(v, OBJ[o] == CBD_PLAN_ALL ? 1.0 : (double)K[i], 1e-12, "%s",
                                       name);
                }
            }
        }
    }
}

/* n own territories (2 armies) each beside one goal of 2-4 armies, income 5-6 a front. */
static void fronts(gboard *b, size_t n, cbd_plan_objective o, double luck) {
    board_init(b, o, luck);
    for (size_t i = 0; i < n; i++) {
        uint32_t m = add(b, ME, 2);
        uint32_t g = add(b, ENEMY, 2 + i % 3);
        border(b, m, g);
        b->goals[b->n_goals++] = g;
    }
    b->income = 5 * n + n / 2;
}

Test(plan_greedy, independent_fronts) {
    /* (100 fronts at luck 0.16 only: the sanitizers' build runs this file too) */
    const size_t N[4] = {12, 17, 40, 100};
    for (size_t i = 0; i < 4; i++) {
        for (size_t l = N[i] == 100 ? 1 : 0; l < (N[i] == 100 ? 2 : 3); l++) {
            for (size_t o = 0; o < 2; o++) {
                static gboard b;
                fronts(&b, N[i], OBJ[o], LUCK[l]);
                char name[64];
                snprintf(name, sizeof name, "fronts n=%zu luck %.2f %s", N[i], LUCK[l],
                         OBJ_NAME[o]);
                double v = check(name, &b, 2 + N[i], limits());
                /* luck 0: 2 + 5 - 1 = 6 attackers kill round(3.6) = 4 >= 4 defenders, and
                 * lose round(2.8) = 3 < 6: each goal is certain with 5 of the income */
                if (LUCK[l] == 0) {
                    cr_expect_float_eq(v, OBJ[o] == CBD_PLAN_ALL ? 1.0 : (double)N[i], 1e-12, "%s",
                                       name);
                }
            }
        }
    }
}

/* `income`: n pairs of an own territory (2) and an enemy one (3-5), each pair a bonus worth
 * 1-5; an income of 3 a pair, too little for every bonus. */
static void bonus_fronts(gboard *b, size_t n, double luck) {
    board_init(b, CBD_PLAN_INCOME, luck);
    for (size_t i = 0; i < n; i++) {
        uint32_t m = add(b, ME, 2);
        uint32_t g = add(b, ENEMY, 3 + i % 3);
        border(b, m, g);
        b->goals[b->n_goals++] = m;
        b->goals[b->n_goals++] = g;
        b->bonus_terr[i][0] = m;
        b->bonus_terr[i][1] = g;
        b->bonus[b->n_bonuses++] = (cbd_turn_bonus){(int64_t)(1 + i % 5), 2, b->bonus_terr[i]};
    }
    b->income = 3 * n;
}

Test(plan_greedy, income_bonuses_on_fronts) {
    const size_t N[3] = {24, 60, 100};
    for (size_t i = 0; i < 3; i++) {
        for (size_t l = N[i] == 24 ? 0 : 1; l < (N[i] == 24 ? 3 : 2); l++) {
            static gboard b;
            bonus_fronts(&b, N[i], LUCK[l]);
            char name[64];
            snprintf(name, sizeof name, "bonuses n=%zu luck %.2f income", N[i], LUCK[l]);
            check(name, &b, 2 + N[i], limits());
        }
    }
}

/* 5 hubs (3 armies) each beside 5 goals of 3-7 armies, income 8 a hub; with `all` a goal too
 * many to be sure of. */
static void hubs(gboard *b, cbd_plan_objective o, double luck) {
    board_init(b, o, luck);
    for (size_t h = 0; h < 5; h++) {
        uint32_t m = add(b, ME, 3);
        for (size_t i = 0; i < 5; i++) {
            uint32_t g = add(b, ENEMY, 3 + (h + i) % 5);
            border(b, m, g);
            b->goals[b->n_goals++] = g;
        }
    }
    b->income = 40;
}

Test(plan_greedy, hubs) {
    for (size_t l = 0; l < 3; l++) {
        for (size_t o = 0; o < 2; o++) {
            static gboard b;
            hubs(&b, OBJ[o], LUCK[l]);
            char name[64];
            snprintf(name, sizeof name, "hubs 5x5 luck %.2f %s", LUCK[l], OBJ_NAME[o]);
            check(name, &b, 60, limits());
        }
    }
}

/* A 10x10 grid: the player owns the first row (3 armies each), the enemy the rest (2-4); the
 * goals are the second row, the border; income 10. */
static void grid_border(gboard *b, cbd_plan_objective o, double luck) {
    board_init(b, o, luck);
    for (size_t r = 0; r < 10; r++) {
        for (size_t c = 0; c < 10; c++) {
            add(b, r == 0 ? ME : ENEMY, r == 0 ? 3 : 2 + (r + c) % 3);
        }
    }
    for (uint32_t r = 0; r < 10; r++) {
        for (uint32_t c = 0; c < 10; c++) {
            if (c + 1 < 10) {
                border(b, r * 10 + c, r * 10 + c + 1);
            }
            if (r + 1 < 10) {
                border(b, r * 10 + c, (r + 1) * 10 + c);
            }
        }
    }
    for (uint32_t c = 0; c < 10; c++) {
        b->goals[b->n_goals++] = 10 + c;
    }
    b->income = 10;
}

Test(plan_greedy, grid_border) {
    for (size_t l = 0; l < 3; l++) {
        for (size_t o = 0; o < 2; o++) {
            static gboard b;
            grid_border(&b, OBJ[o], LUCK[l]);
            char name[64];
            snprintf(name, sizeof name, "grid border 10 luck %.2f %s", LUCK[l], OBJ_NAME[o]);
            check(name, &b, 30, limits());
        }
    }
}

/*
 * The plan's possible moves are not refused by the turn's order limit: an 8 x 8 board where
 * the player owns the first 6 rows (48 of 64 territories, 3 armies each) and every territory
 * borders its 8 neighbours (king moves: 48 + 314 possible orders, past the default 256), the
 * goals the 7th row (2-4 armies), income 10. The plan answered issues fewer orders than the
 * limit and is at least the greedy split.
 */
Test(plan_greedy, forty_eight_of_sixty_four_get_a_plan) {
    for (size_t o = 0; o < 2; o++) {
        static gboard b;
        board_init(&b, OBJ[o], 0.16);
        for (size_t i = 0; i < 64; i++) {
            add(&b, i < 48 ? ME : ENEMY, i < 48 ? 3 : 2 + i % 3);
        }
        size_t pairs = 0;
        for (uint32_t r = 0; r < 8; r++) {
            for (uint32_t c = 0; c < 8; c++) {
                const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, -1, 0, 1};
                for (size_t k = 0; k < 4; k++) {
                    int r2 = (int)r + dr[k], c2 = (int)c + dc[k];
                    if (r2 < 8 && c2 >= 0 && c2 < 8) {
                        uint32_t x = r * 8 + c, y = (uint32_t)(r2 * 8 + c2);
                        border(&b, x, y);
                        pairs += (size_t)(x < 48) + (size_t)(y < 48);
                    }
                }
            }
        }
        cr_assert_gt(48 + pairs, 256, "%zu pairs: not past the default limit", pairs);
        for (uint32_t c = 0; c < 8; c++) {
            b.goals[b.n_goals++] = 48 + c;
        }
        b.income = 10;
        char name[64];
        snprintf(name, sizeof name, "48 of 64, luck 0.16, %s", OBJ_NAME[o]);
        check(name, &b, 20, cbd_turn_default_limits());
    }
}

/*
 * 1,000 own territories on a 4,000-territory grid (40 x 100: the player the first 10 rows, 3
 * armies each; the goals the 11th row's 100 territories, 2-4 armies; income 150, `expected`):
 * a plan at least the greedy split, under the default order limit (256).
 */
Test(plan_greedy, a_thousand_of_four_thousand_get_a_plan) {
    static gboard b;
    board_init(&b, CBD_PLAN_EXPECTED, 0.16);
    for (size_t i = 0; i < 4000; i++) {
        add(&b, i < 1000 ? ME : ENEMY, i < 1000 ? 3 : 2 + i % 3);
    }
    for (uint32_t r = 0; r < 40; r++) {
        for (uint32_t c = 0; c < 100; c++) {
            if (c + 1 < 100) {
                border(&b, r * 100 + c, r * 100 + c + 1);
            }
            if (r + 1 < 40) {
                border(&b, r * 100 + c, (r + 1) * 100 + c);
            }
        }
    }
    for (uint32_t c = 0; c < 100; c++) {
        b.goals[b.n_goals++] = 1000 + c;
    }
    b.income = 150;
    cbd_turn_limits lim = cbd_turn_default_limits();
    lim.max_territories = 4000;
    double v = check("1000 of 4000, luck 0.16, expected", &b, 4, lim);
    /* 3 - 1 + 1 = 3 attackers against 2 defenders: the greedy split's least (W47) */
    cr_expect_gt(v, 50.0);
}

/* W47's example: A (5) beside B (2) and C (4), income 6, luck 0, `expected`. The greedy split
 * sends 3 at B and 6 at C (value 2: B falls to 3, C to 6); the planner answers 2. */
Test(plan_greedy, w43_example) {
    static gboard b;
    board_init(&b, CBD_PLAN_EXPECTED, 0);
    uint32_t a = add(&b, ME, 5), bb = add(&b, CBD_TURN_NEUTRAL, 2),
             c = add(&b, CBD_TURN_NEUTRAL, 4);
    border(&b, a, bb);
    border(&b, a, c);
    b.goals[b.n_goals++] = bb;
    b.goals[b.n_goals++] = c;
    b.income = 6;
    finish(&b);
    cbd_turn_order orders[8];
    size_t n = greedy_orders(&b, orders);
    cr_assert_eq(n, 3);
    cr_expect(orders[0].type == CBD_ORDER_DEPLOY && orders[0].to == a && orders[0].armies == 6);
    cr_expect(orders[1].from == a && orders[1].to == bb && orders[1].armies == 3);
    cr_expect(orders[2].from == a && orders[2].to == c && orders[2].armies == 6);
    cr_expect_float_eq(value_of(&b, orders, n), 2.0, 1e-12);
    cr_expect_float_eq(check("W47 example", &b, 1, limits()), 2.0, 1e-12);
}

/* A plan's value is within the contract: the analysis's sums of many products may pass 1 by a
 * few ulps (1.00000000000009 was answered under `all`); each chance is taken within [0, 1]. */
Test(plan_greedy, value_within_the_contract) {
    double owner[3] = {1.0 + 9e-14, 0, 0}, owner2[3] = {-1e-17, 1, 0};
    cbd_turn_territory_result t[2];
    memset(t, 0, sizeof t);
    t[0].owner = owner;
    t[1].owner = owner2;
    cbd_turn_analysis a;
    memset(&a, 0, sizeof a);
    a.n_territories = 2;
    a.n_players = 2;
    a.territories = t;
    a.goals_probability = 1.0 + 9e-14;
    uint32_t goals[2] = {0, 1};
    cbd_plan_request req = {.player = ME, .n_goals = 2, .goals = goals, .max_plans = 1};
    req.objective = CBD_PLAN_ALL;
    cr_expect_eq(cbd_plan_value(&req, &a), 1.0);
    req.objective = CBD_PLAN_EXPECTED;
    cr_expect_eq(cbd_plan_value(&req, &a), 1.0); /* 1 (not 1 + 9e-14) + 0 (not -1e-17) */
}
