/*
 * The turn planner (W31, W34) in the core: per board its CPU time, the plans evaluated, the
 * fronts (W34), the value and whether it is proven. First two boards at 16 % luck. Goals: a small
 * board's proven optimum (2 own territories, 2 targets, income 3, `all` of both targets) within 50
 * ms; a board of 3 own territories, 4 targets and income 8 (`expected` number of the 4 taken)
 * within 1 s, with its value and whether it is proven optimal printed. Each search as /plan-turn
 * runs it: max_plans 2000 (the default), the search's work a quarter of a 2 s budget (the default
 * server.work_budget_ms).
 * Then a set of generated 64-territory boards (8 x 8 grids): the player holds 2-4 blocks of 2-4
 * cells (as many fronts, or fewer where blocks touch), 12 enemy cells, neutrals of 2-10, income
 * 5-10, goals 2-4 cells bordering the blocks; each searched once as /plan-turn would (max_plans
 * 2000, a quarter of a 2 s budget). Then eight such boards with bonuses (sixteen 2 x 2 blocks,
 * W32), the player holding 3 of 4 cells of 2-3 of them, searched for `income` over every bonus
 * (W32, W35). Last, boards on a real map: the eleven /plan-turn requests of
 * tests/support/warlight2_boards.h on the warlight2 example map (tests/data/), each read as
 * /plan-turn reads it and searched once as it searches (the search's CPU), then sent to the
 * endpoint itself (the request's CPU: reading, search, the answer's analyses).
 * Run: taskset -c 1 ./build/bench/bench_plan [repeats]   (default 5)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "combatd/warapp_plan.h"
#include "api/api.h"
#include "api/api_config.h"
#include "api/warapp/plan/warapp_plan_json.h"
#include "api/warapp/turn/warapp_turn_ids.h"
#include "api/warapp/turn/warapp_turn_json.h"
#include "warlight2_boards.h"

enum { ME = 0, BOB = 1, NEUTRAL = CBD_TURN_NEUTRAL };

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    const char *name;
    size_t nt;
    const cbd_turn_territory *terr;
    size_t n_edges;
    const uint32_t (*edges)[2];
    uint64_t income;
    size_t n_goals;
    const uint32_t *goals;
    cbd_plan_objective objective;
    double goal_s;
} board;

/* The map's borders as the core's lists (W24): ascending, both ways. */
static void csr(const board *b, uint32_t *off, uint32_t *nb) {
    size_t e = 0;
    for (uint32_t t = 0; t < b->nt; t++) {
        off[t] = (uint32_t)e;
        for (uint32_t u = 0; u < b->nt; u++) {
            for (size_t k = 0; k < b->n_edges; k++) {
                if ((b->edges[k][0] == t && b->edges[k][1] == u) ||
                    (b->edges[k][1] == t && b->edges[k][0] == u)) {
                    nb[e++] = u;
                }
            }
        }
    }
    off[b->nt] = (uint32_t)e;
}

static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The search's CPU per work unit charged to its request (budget.h: a unit is meant as about a
 * nanosecond; bench_budget prints the other endpoints' ratios). */
static double ns_per_unit(double cpu_seconds, const cbd_budget *b) {
    return b->work_spent > 0 ? cpu_seconds * 1e9 / (double)b->work_spent : 0.0;
}

static uint64_t lcg = 36;
static uint64_t rnd(uint64_t n) {
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (lcg >> 33) % n;
}

/* One generated 64-territory board, searched once. */
static void run64(int k) {
    cbd_turn_territory terr[64];
    int owner[64];
    memset(owner, 0, sizeof owner);
    int blocks = 2 + (int)rnd(3);
    for (int b = 0; b < blocks; b++) {
        int c = (int)rnd(64), size = 2 + (int)rnd(3);
        for (int n = 0; n < size; n++) {
            owner[c] = 1;
            c = c % 8 < 7 && rnd(2) ? c + 1 : (c / 8 < 7 ? c + 8 : c);
        }
    }
    for (int n = 0; n < 12;) {
        int c = (int)rnd(64);
        if (owner[c] == 0) {
            owner[c] = 2;
            n++;
        }
    }
    uint32_t off[65], nb[256], goals[4];
    size_t e = 0, n_goals = 0, want = 2 + rnd(3);
    for (uint32_t c = 0; c < 64; c++) {
        terr[c] = (cbd_turn_territory){owner[c] == 1   ? ME
                                       : owner[c] == 2 ? BOB
                                                       : NEUTRAL,
                                       owner[c] == 1 ? 2 + rnd(7) : 2 + rnd(9)};
        off[c] = (uint32_t)e;
        const int d[4] = {-8, -1, 1, 8};
        bool frontier = false;
        for (int i = 0; i < 4; i++) {
            int u = (int)c + d[i];
            if (u < 0 || u >= 64 || ((d[i] == 1 || d[i] == -1) && u / 8 != (int)c / 8)) {
                continue;
            }
            nb[e++] = (uint32_t)u;
            frontier |= owner[u] == 1;
        }
        if (owner[c] != 1 && frontier && n_goals < want && rnd(2)) {
            goals[n_goals++] = c;
        }
    }
    off[64] = (uint32_t)e;
    if (n_goals == 0) {
        printf("64-territory board %d: no goal drawn\n", k);
        return;
    }
    cbd_turn turn = {.n_territories = 64,
                     .territories = terr,
                     .n_players = 2,
                     .battle = cbd_warapp_default_settings(),
                     .neighbor_off = off,
                     .neighbors = nb};
    turn.battle.luck_modifier = 160000;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_budget budget;
    cbd_budget_init(&budget, 2000 * CBD_WORK_UNITS_PER_MS, (size_t)1 << 30);
    cbd_plan_request req = {.player = ME,
                            .income = 5 + rnd(6),
                            .n_goals = n_goals,
                            .goals = goals,
                            .objective = rnd(2) ? CBD_PLAN_ALL : CBD_PLAN_EXPECTED,
                            .max_plans = 2000,
                            .max_work = 500 * CBD_WORK_UNITS_PER_MS};
    cbd_plan_result r;
    cbd_turn_error err;
    double t0 = cpu_s();
    cbd_status st = cbd_plan_search(&turn, &req, &lim, &budget, &r, &err);
    double dt = cpu_s() - t0;
    if (st != CBD_OK) {
        printf("64-territory board %d: status %d (kind %d) after %.3f s CPU\n", k, st, err.kind,
               dt);
        return;
    }
    printf(
        "64-territory board %d: %-8s income %2llu goals %zu  CPU %7.3f s  plans %5llu  fronts %zu"
        "  value %.9f  optimal %-5s  %.2f ns/unit\n",
        k, req.objective == CBD_PLAN_ALL ? "all" : "expected", (unsigned long long)req.income,
        n_goals, dt, (unsigned long long)r.plans_evaluated, r.fronts, r.best.value,
        r.optimal ? "true" : "false", ns_per_unit(dt, &budget));
    cbd_plan_result_free(&r);
}

/* The bonuses of a 64-territory board: sixteen 2 x 2 blocks of the 8 x 8 grid, as warlight2's
 * maps group neighbouring territories (its example map: 13 bonuses of 3-7). */
static void grid_bonuses(cbd_turn_bonus *bonus, uint32_t (*cells)[4]) {
    for (uint32_t b = 0; b < 16; b++) {
        uint32_t c = (b / 4) * 16 + (b % 4) * 2;
        cells[b][0] = c;
        cells[b][1] = c + 1;
        cells[b][2] = c + 8;
        cells[b][3] = c + 9;
        bonus[b] = (cbd_turn_bonus){(int64_t)(2 + rnd(4)), 4, cells[b]};
    }
}

/* One generated 64-territory board with bonuses (W32), searched once for `income` over every
 * bonus, as /plan-turn does without goal.bonuses: the player holds 3 of the 4 cells of 2-3
 * blocks (their fourth a neutral of 2-4), Bob 12 cells, neutrals of 2-10 elsewhere. */
static void run64_income(int k) {
    cbd_turn_territory terr[64];
    int owner[64];
    memset(owner, 0, sizeof owner);
    cbd_turn_bonus bonus[16];
    uint32_t cells[16][4], goals[64], off[65], nb[256];
    grid_bonuses(bonus, cells);
    int held = 2 + (int)rnd(2);
    for (int h = 0; h < held; h++) {
        uint32_t b = (uint32_t)rnd(16), lack = (uint32_t)rnd(4);
        for (uint32_t i = 0; i < 4; i++) {
            owner[cells[b][i]] = i == lack ? 3 : 1; /* 3: the weak neutral to take */
        }
    }
    for (int n = 0; n < 12;) {
        int c = (int)rnd(64);
        if (owner[c] == 0) {
            owner[c] = 2;
            n++;
        }
    }
    size_t e = 0;
    for (uint32_t c = 0; c < 64; c++) {
        uint64_t armies = owner[c] == 1 ? 2 + rnd(7) : owner[c] == 3 ? 2 + rnd(3) : 2 + rnd(9);
        terr[c] = (cbd_turn_territory){owner[c] == 1 ? ME : owner[c] == 2 ? BOB : NEUTRAL, armies};
        goals[c] = c;
        off[c] = (uint32_t)e;
        const int d[4] = {-8, -1, 1, 8};
        for (int i = 0; i < 4; i++) {
            int u = (int)c + d[i];
            if (u >= 0 && u < 64 && !((d[i] == 1 || d[i] == -1) && u / 8 != (int)c / 8)) {
                nb[e++] = (uint32_t)u;
            }
        }
    }
    off[64] = (uint32_t)e;
    cbd_turn turn = {.n_territories = 64,
                     .territories = terr,
                     .n_players = 2,
                     .battle = cbd_warapp_default_settings(),
                     .neighbor_off = off,
                     .neighbors = nb,
                     .n_bonuses = 16,
                     .bonuses = bonus};
    turn.battle.luck_modifier = 160000;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_budget budget;
    cbd_budget_init(&budget, 2000 * CBD_WORK_UNITS_PER_MS, (size_t)1 << 30);
    cbd_plan_request req = {.player = ME,
                            .income = 5 + rnd(6),
                            .n_goals = 64,
                            .goals = goals,
                            .objective = CBD_PLAN_INCOME,
                            .max_plans = 2000,
                            .max_work = 500 * CBD_WORK_UNITS_PER_MS,
                            .n_bonuses = 16,
                            .bonuses = bonus};
    cbd_plan_result r;
    cbd_turn_error err;
    double t0 = cpu_s();
    cbd_status st = cbd_plan_search(&turn, &req, &lim, &budget, &r, &err);
    double dt = cpu_s() - t0;
    if (st != CBD_OK) {
        printf("64-territory income board %d: status %d (kind %d) after %.3f s CPU\n", k, st,
               err.kind, dt);
        return;
    }
    printf("64-territory income board %d: held %d of 16 bonuses' 3/4, income %2llu  CPU %7.3f s  "
           "plans %5llu  fronts %zu  value %.9f  optimal %-5s  %.2f ns/unit\n",
           k, held, (unsigned long long)req.income, dt, (unsigned long long)r.plans_evaluated,
           r.fronts, r.best.value, r.optimal ? "true" : "false", ns_per_unit(dt, &budget));
    cbd_plan_result_free(&r);
}

static void run(const board *b, int repeats) {
    uint32_t off[16], nb[64];
    csr(b, off, nb);
    cbd_turn turn = {.n_territories = b->nt,
                     .territories = b->terr,
                     .n_players = 2,
                     .battle = cbd_warapp_default_settings(),
                     .neighbor_off = off,
                     .neighbors = nb};
    turn.battle.luck_modifier = 160000;
    cbd_turn_limits lim = cbd_turn_default_limits();
    double best = 1e9, value = 0;
    cbd_plan_result r = {0};
    cbd_budget budget; /* the last result's blocks are its own until freed */
    for (int i = 0; i < repeats; i++) {
        cbd_plan_result_free(&r);
        cbd_budget_init(&budget, 2000 * CBD_WORK_UNITS_PER_MS, (size_t)1 << 30);
        cbd_plan_request req = {.player = ME,
                                .income = b->income,
                                .n_goals = b->n_goals,
                                .goals = b->goals,
                                .objective = b->objective,
                                .max_plans = 2000,
                                .max_work = 500 * CBD_WORK_UNITS_PER_MS};
        cbd_turn_error err;
        double t0 = now_s();
        cbd_status st = cbd_plan_search(&turn, &req, &lim, &budget, &r, &err);
        if (st != CBD_OK) {
            fprintf(stderr, "%s: the search failed (status %d, kind %d)\n", b->name, st, err.kind);
            exit(1);
        }
        double dt = now_s() - t0;
        best = dt < best ? dt : best;
        value = r.best.value;
    }
    printf("%-34s %8.2f ms (goal %4.0f ms)  value %.12f  optimal %-5s  plans %llu evaluated, "
           "%llu bounded, fronts %zu  %s\n",
           b->name, best * 1e3, b->goal_s * 1e3, value, r.optimal ? "true" : "false",
           (unsigned long long)r.plans_evaluated, (unsigned long long)r.plans_bounded, r.fronts,
           best <= b->goal_s ? "ok" : "SLOW");
    for (size_t i = 0; i < r.best.n_orders; i++) {
        const cbd_turn_order *o = &r.best.orders[i];
        if (o->type == CBD_ORDER_DEPLOY) {
            printf("    deploy %llu on t%u\n", (unsigned long long)o->armies, o->to);
        } else {
            printf("    t%u -> t%u: %llu\n", o->from, o->to, (unsigned long long)o->armies);
        }
    }
    cbd_plan_result_free(&r);
}

/* The goal's territories as /plan-turn reads them (src/api/warapp/plan/warapp_plan_json.c):
 * capture, then each goal bonus's territories not listed before; under `income` the valued
 * bonuses (goal.bonuses, else every bonus of the board) into bonus[]. Returns the goals. */
static size_t map_goals(const json_t *body, const cbd_turn_request *q, bool income, uint32_t *goals,
                        cbd_turn_bonus *bonus, size_t *n_bonus) {
    const json_t *goal = json_object_get(body, "goal");
    const json_t *capture = json_object_get(goal, "capture"), *named;
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(capture); i++) {
        goals[n++] =
            (uint32_t)cbd_turn_find_territory(q, json_string_value(json_array_get(capture, i)));
    }
    named = json_object_get(goal, "bonuses");
    *n_bonus = 0;
    for (size_t b = 0; b < q->turn.n_bonuses; b++) {
        bool valued = !goal;
        for (size_t i = 0; i < json_array_size(named); i++) {
            valued |= strcmp(json_string_value(json_array_get(named, i)), q->bonus_id[b]) == 0;
        }
        if (!valued) {
            continue;
        }
        bonus[(*n_bonus)++] = q->turn.bonuses[b];
        for (size_t i = 0; i < q->turn.bonuses[b].n_territories; i++) {
            uint32_t t = q->turn.bonuses[b].territories[i];
            bool again = false;
            for (size_t g = 0; g < n; g++) {
                again |= goals[g] == t;
            }
            if (!again) {
                goals[n++] = t;
            }
        }
    }
    *n_bonus = income ? *n_bonus : 0;
    return n;
}

/* The endpoint's answer to the request: its CPU time, its value. */
static double endpoint_cpu(const char *body, double *value) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_api_reply reply;
    double t0 = cpu_s();
    cbd_api_run(cbd_api_find_endpoint("/plan-turn"), &cfg, body, strlen(body), &reply);
    double dt = cpu_s() - t0;
    json_t *doc = json_loadb(reply.body, reply.body_len, 0, NULL);
    *value = reply.status == 200 ? json_number_value(json_object_get(doc, "value")) : -1;
    json_decref(doc);
    cbd_api_reply_free(&reply);
    return dt;
}

/* Board b of tests/support/warlight2_boards.h: read as /plan-turn reads it, searched once as it
 * searches, then answered by the endpoint. */
static void run_map(const wl2_map *map, int b) {
    json_t *body = wl2_board(map, b);
    static const char *const keys[] = {CBD_TURN_KEYS, CBD_PLAN_KEYS, NULL};
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem problem;
    cbd_problem_init(&problem);
    cbd_reader r;
    cbd_turn_request q;
    memset(&q, 0, sizeof q);
    if (!cbd_reader_open(&r, body, "", keys, &problem) ||
        cbd_turn_read_request(&r, &cfg.warapp, &q) != CBD_READ_OK) {
        printf("warlight2 board %d: the request does not read (%s)\n", b, problem.detail);
        exit(1);
    }
    const char *objective = json_string_value(json_object_get(body, "objective"));
    cbd_plan_objective o = strcmp(objective, "all") == 0        ? CBD_PLAN_ALL
                           : strcmp(objective, "expected") == 0 ? CBD_PLAN_EXPECTED
                                                                : CBD_PLAN_INCOME;
    uint32_t goals[WL2_REGIONS];
    cbd_turn_bonus bonus[WL2_BONUSES];
    size_t n_bonus;
    size_t n_goals = map_goals(body, &q, o == CBD_PLAN_INCOME, goals, bonus, &n_bonus);
    cbd_budget budget;
    cbd_budget_init(&budget, 2000 * CBD_WORK_UNITS_PER_MS, (size_t)1 << 30);
    cbd_plan_request req = {.player = (cbd_turn_player)cbd_turn_find_player(&q, "me"),
                            .income = (uint64_t)json_integer_value(json_object_get(body, "income")),
                            .n_goals = n_goals,
                            .goals = goals,
                            .objective = o,
                            .max_plans = 2000,
                            .max_work = 500 * CBD_WORK_UNITS_PER_MS,
                            .n_bonuses = n_bonus,
                            .bonuses = bonus};
    cbd_plan_result res;
    cbd_turn_error err;
    double t0 = cpu_s();
    cbd_status st = cbd_plan_search(&q.turn, &req, &q.limits, &budget, &res, &err);
    double dt = cpu_s() - t0;
    if (st != CBD_OK) {
        printf("warlight2 board %d: status %d (kind %d) after %.3f s CPU\n", b, st, err.kind, dt);
        exit(1);
    }
    char *text = json_dumps(body, JSON_COMPACT);
    double answered;
    double request_cpu = endpoint_cpu(text, &answered);
    printf("warlight2 board %2d: %-8s income %2llu goals %2zu  CPU %6.3f s (request %6.3f s)  "
           "plans %5llu  fronts %zu  value %.9f  optimal %-5s  %.2f ns/unit%s\n",
           b, objective, (unsigned long long)req.income, n_goals, dt, request_cpu,
           (unsigned long long)res.plans_evaluated, res.fronts, res.best.value,
           res.optimal ? "true" : "false", ns_per_unit(dt, &budget),
           fabs(answered - res.best.value) <= 1e-9 ? "" : "  (the endpoint's value differs)");
    free(text);
    cbd_plan_result_free(&res);
    cbd_turn_request_free(&q);
    json_decref(body);
}

/* A star: the player's hub (5 armies) beside k goals of 6-11 armies (bob's and the neutral's in
 * turn, each bordering only the hub), income 25·k, `all`, at luck `luck` (millionths), with the
 * default request budget (2 s) and max_plans 2000: the plan's CPU per unit where one analysis of
 * the whole turn is large (at luck 1, 40 goals: a kill distribution of every army a battle). */
static void run_star(size_t k, uint32_t luck) {
    enum { MOST = 40 };
    cbd_turn_territory terr[MOST + 1] = {{ME, 5}};
    uint32_t off[MOST + 2], nb[2 * MOST], goals[MOST];
    off[0] = 0;
    for (size_t i = 0; i < k; i++) {
        terr[i + 1] = (cbd_turn_territory){i % 2 ? BOB : NEUTRAL, 6 + i % 6};
        nb[i] = (uint32_t)(i + 1);
        goals[i] = (uint32_t)(i + 1);
    }
    off[1] = (uint32_t)k;
    for (size_t i = 0; i < k; i++) {
        nb[k + i] = 0;
        off[i + 2] = (uint32_t)(k + i + 1);
    }
    cbd_turn turn = {.n_territories = k + 1,
                     .territories = terr,
                     .n_players = 2,
                     .battle = cbd_warapp_default_settings(),
                     .neighbor_off = off,
                     .neighbors = nb};
    turn.battle.luck_modifier = luck;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_budget budget;
    cbd_budget_init(&budget, 2000 * CBD_WORK_UNITS_PER_MS, (size_t)1 << 30);
    cbd_plan_request req = {.player = ME,
                            .income = 25 * k,
                            .n_goals = k,
                            .goals = goals,
                            .objective = CBD_PLAN_ALL,
                            .max_plans = 2000,
                            .max_work = 500 * CBD_WORK_UNITS_PER_MS};
    cbd_plan_result r;
    cbd_turn_error err;
    double t0 = cpu_s();
    cbd_status st = cbd_plan_search(&turn, &req, &lim, &budget, &r, &err);
    double dt = cpu_s() - t0;
    printf("star of %2zu goals, luck %.2f: status %d  CPU %7.3f s  plans %5llu  value %.9f  "
           "%.2f ns/unit\n",
           k, luck / 1e6, st, dt, st == CBD_OK ? (unsigned long long)r.plans_evaluated : 0ULL,
           st == CBD_OK ? r.best.value : 0.0, ns_per_unit(dt, &budget));
    if (st == CBD_OK) {
        cbd_plan_result_free(&r);
    }
}

int main(int argc, char **argv) {
    int repeats = argc > 1 ? atoi(argv[1]) : 5;
    if (argc > 2 && strcmp(argv[2], "star") == 0) { /* the star rows alone */
        run_star(40, 160000);
        run_star(40, 1000000);
        return 0;
    }
    /* A (5) and B (3) border Bob's T1 (3); B also the neutral T2 (2); A and B border. */
    static const cbd_turn_territory small[4] = {{ME, 5}, {ME, 3}, {BOB, 3}, {NEUTRAL, 2}};
    static const uint32_t small_edges[4][2] = {{0, 2}, {1, 2}, {1, 3}, {0, 1}};
    static const uint32_t small_goals[2] = {2, 3};
    /* A (8), B (6), C (5) in a row; Bob's T1 (9) and T2 (7), neutral T3 (4) and T4 (5). */
    static const cbd_turn_territory large[7] = {{ME, 8},  {ME, 6},      {ME, 5},     {BOB, 9},
                                                {BOB, 7}, {NEUTRAL, 4}, {NEUTRAL, 5}};
    static const uint32_t large_edges[8][2] = {{0, 3}, {0, 4}, {1, 4}, {1, 5},
                                               {2, 5}, {2, 6}, {0, 1}, {1, 2}};
    static const uint32_t large_goals[4] = {3, 4, 5, 6};
    const board boards[2] = {
        {"small: 2 own, 2 targets, income 3", 4, small, 4, small_edges, 3, 2, small_goals,
         CBD_PLAN_ALL, 0.050},
        {"3 own, 4 targets, income 8", 7, large, 8, large_edges, 8, 4, large_goals,
         CBD_PLAN_EXPECTED, 1.0},
    };
    for (size_t i = 0; i < 2; i++) {
        run(&boards[i], repeats);
    }
    for (int k = 0; k < 8; k++) {
        run64(k);
    }
    for (int k = 0; k < 8; k++) {
        run64_income(k);
    }
    run_star(40, 160000);
    run_star(40, 1000000);
    wl2_map map;
    if (!wl2_map_load(&map)) {
        return 1;
    }
    for (int b = 0; b < WL2_BOARDS; b++) {
        run_map(&map, b);
    }
    return 0;
}
