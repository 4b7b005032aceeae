/*
 * Fog in turns (W23): a territory's armies given as a distribution. The exact analysis is
 * checked by hand, and at random small settings against an enumeration written here: the
 * integer analysis run once per combination of counts and the results mixed by their weights
 * (independent of the engine's product start). The simulation is checked against the analysis
 * by chi-square at a fixed seed, and its first draws are replayed from the RNG's primitives.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "chi_square.h"
#include "combatd/warapp_turn.h"
#include "warapp_turn_fixture.h"

static cbd_turn zero_luck_turn(cbd_turn_territory *b, size_t nb, cbd_turn_order *o, size_t no) {
    cbd_turn t = {
        .n_territories = nb, .territories = b, .n_players = 2, .n_orders = no, .orders = o};
    t.battle = cbd_warapp_default_settings(); /* 60/70, 0 % luck, straight rounding, guard */
    return t;
}

/*
 * 11 armies on A send 10 against B, which holds 5 or 10 at 50/50 (0 % luck, 60/70). Against 5:
 * the attackers kill round(6) = 6 >= 5 and lose round(3.5) = 4 < 10: captured, B keeps 6, A 1.
 * Against 10: they kill 6 < 10 and lose round(7) = 7, so 3 go home (A 4) and B keeps 4. So the
 * capture chance is exactly 1/2, and each territory's armies are two points of 1/2.
 */
Test(turn_fog, captured_with_probability_one_half) {
    cbd_turn_territory b[] = {{ALICE, 11}, {BOB, 10}};
    cbd_warapp_count pts[] = {{5, 0.5}, {10, 0.5}};
    cbd_turn_fog fog[] = {{0, NULL}, {2, pts}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 10)};
    cbd_turn_goal goal = {1, ALICE};
    cbd_turn t = zero_luck_turn(b, 2, o, 1);
    t.fog = fog;
    t.n_goals = 1;
    t.goals = &goal;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK);
    cr_expect_eq(a.orders[0].capture, 0.5);
    cr_expect_eq(a.orders[0].attack, 1.0);
    cr_expect_eq(a.goals_probability, 0.5);
    cr_expect_eq(a.territories[1].owner[ALICE], 0.5);
    cr_expect_eq(a.territories[1].owner[BOB], 0.5);
    cr_assert_eq(a.territories[1].n_armies, 2);
    cr_expect_eq(a.territories[1].armies[0].armies, 4);
    cr_expect_eq(a.territories[1].armies[0].probability, 0.5);
    cr_expect_eq(a.territories[1].armies[1].armies, 6);
    cr_expect_eq(a.territories[1].armies[1].probability, 0.5);
    cr_assert_eq(a.territories[0].n_armies, 2);
    cr_expect_eq(a.territories[0].armies[0].armies, 1);
    cr_expect_eq(a.territories[0].armies[1].armies, 4);
    cr_expect_not(a.deterministic);
    cbd_turn_analysis_free(&a);
}

/* A deploy onto a fog territory adds to every count (W12): 2 deployed onto B of {3, 8} at
 * 50/50 make 5 or 10, and 10 attackers capture against 5 only (as above). A territory no
 * order touches keeps its distribution as its answer. */
Test(turn_fog, deploys_add_to_every_count_and_untouched_fog_is_answered) {
    cbd_turn_territory b[] = {{ALICE, 11}, {BOB, 8}, {BOB, 7}};
    cbd_warapp_count pb[] = {{3, 0.5}, {8, 0.5}}, pc[] = {{2, 0.25}, {7, 0.75}};
    cbd_turn_fog fog[] = {{0, NULL}, {2, pb}, {2, pc}};
    cbd_turn_order o[] = {{.type = CBD_ORDER_DEPLOY, .player = BOB, .to = 1, .armies = 2},
                          atk(ALICE, 0, 1, 10)};
    cbd_turn t = zero_luck_turn(b, 3, o, 2);
    t.fog = fog;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK);
    cr_expect_eq(a.orders[1].capture, 0.5);
    cr_assert_eq(a.territories[2].n_armies, 2);
    cr_expect_eq(a.territories[2].armies[0].armies, 2);
    cr_expect_eq(a.territories[2].armies[0].probability, 0.25);
    cr_expect_eq(a.territories[2].armies[1].armies, 7);
    cr_expect_eq(a.territories[2].armies[1].probability, 0.75);
    cr_expect_eq(a.territories[2].owner[BOB], 1.0);
    cbd_turn_analysis_free(&a);
}

/* ---- random small settings against the mixture of integer analyses ---- */

#define MAX_T   4
#define MAX_O   5
#define MAX_A   96 /* more armies than any territory of these boards can end with */
#define MAX_PTS 3

typedef struct {
    cbd_turn_territory board[MAX_T];
    cbd_warapp_count pts[MAX_T][MAX_PTS];
    cbd_turn_fog fog[MAX_T];
    cbd_turn_order orders[MAX_O];
    cbd_turn_player player_order[2];
    cbd_turn_goal goals[2];
    cbd_turn turn;
} random_turn;

static uint64_t pick(cbd_rng *rng, uint64_t n) {
    return cbd_rng_bounded(rng, n);
}

/* Distinct ascending counts from 0..7 with random weights summing to 1. */
static size_t random_fog(cbd_rng *rng, cbd_warapp_count *out) {
    size_t n = 1 + (size_t)pick(rng, MAX_PTS);
    uint64_t used = 0;
    for (size_t k = 0; k < n;) {
        uint64_t c = pick(rng, 8);
        if (!(used & (UINT64_C(1) << c))) {
            used |= UINT64_C(1) << c;
            k++;
        }
    }
    double sum = 0;
    size_t k = 0;
    for (uint64_t c = 0; c < 8; c++) {
        if (used & (UINT64_C(1) << c)) {
            out[k].armies = c;
            out[k].weight = 0.05 + cbd_rng_double(rng);
            sum += out[k++].weight;
        }
    }
    for (k = 0; k < n; k++) {
        out[k].weight /= sum;
    }
    return n;
}

static void random_orders(cbd_rng *rng, random_turn *r, size_t nt) {
    size_t no = 2 + (size_t)pick(rng, MAX_O - 1);
    for (size_t i = 0; i < no; i++) {
        cbd_turn_player p = (cbd_turn_player)pick(rng, 2);
        uint32_t from = (uint32_t)pick(rng, nt);
        uint32_t to = (uint32_t)((from + 1 + pick(rng, nt - 1)) % nt);
        r->orders[i] = atk(p, from, to, 1 + pick(rng, 8));
        if (pick(rng, 3) == 0) {
            r->orders[i].by_percent = true;
            r->orders[i].percent = (cbd_micro)(250000 * (1 + pick(rng, 4)));
        }
        if (i == 0 && r->board[from].owner == p) {
            r->orders[i] = (cbd_turn_order){
                .type = CBD_ORDER_DEPLOY, .player = p, .to = from, .armies = 1 + pick(rng, 3)};
        }
    }
    r->turn.n_orders = no;
}

static void random_settings(cbd_rng *rng, cbd_turn *t) {
    static const cbd_micro luck[] = {0, 160000, 500000, 1000000};
    static const cbd_micro rates[] = {600000, 700000, 500000, 850000};
    t->battle = cbd_warapp_default_settings();
    t->battle.luck_modifier = luck[pick(rng, 4)];
    t->battle.offense_kill_rate = rates[pick(rng, 4)];
    t->battle.defense_kill_rate = rates[pick(rng, 4)];
    t->battle.rounding = pick(rng, 2) ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT;
    t->battle.one_army_must_stand_guard = pick(rng, 4) != 0;
    t->multi_attack = pick(rng, 2);
    t->move_order = (cbd_move_order)pick(rng, 3);
}

static void random_turn_make(cbd_rng *rng, random_turn *r) {
    memset(r, 0, sizeof *r);
    size_t nt = 2 + (size_t)pick(rng, MAX_T - 1);
    static const cbd_turn_player owners[] = {ALICE, BOB, NEUTRAL};
    for (size_t i = 0; i < nt; i++) {
        r->board[i].owner = owners[pick(rng, 3)];
        r->board[i].armies = pick(rng, 8);
        if (pick(rng, 3) != 0) {
            r->fog[i].n = random_fog(rng, r->pts[i]);
            r->fog[i].points = r->pts[i];
            r->board[i].armies = r->pts[i][r->fog[i].n - 1].armies;
        }
    }
    r->turn.n_territories = nt;
    r->turn.territories = r->board;
    r->turn.n_players = 2;
    r->turn.orders = r->orders;
    r->turn.fog = r->fog;
    random_orders(rng, r, nt);
    random_settings(rng, &r->turn);
    r->player_order[0] = (cbd_turn_player)pick(rng, 2);
    r->player_order[1] = (cbd_turn_player)(1 - r->player_order[0]);
    r->turn.n_player_order = 2;
    r->turn.player_order = r->player_order;
    r->goals[0] = (cbd_turn_goal){(uint32_t)pick(rng, nt), owners[pick(rng, 3)]};
    r->goals[1] = (cbd_turn_goal){(uint32_t)pick(rng, nt), owners[pick(rng, 3)]};
    r->turn.n_goals = 1 + (size_t)pick(rng, 2);
    r->turn.goals = r->goals;
}

/* The mixture worked out here: each combination of counts analysed as a board of integers. */
typedef struct {
    double owner[MAX_T][3], armies[MAX_T][MAX_A], mean[MAX_T];
    double order[MAX_O][4], goals;
} mixture;

static void add_analysis(mixture *m, const cbd_turn_analysis *a, size_t nt, size_t no, double w) {
    for (size_t t = 0; t < nt; t++) {
        for (size_t p = 0; p < 3; p++) {
            m->owner[t][p] += w * a->territories[t].owner[p];
        }
        for (size_t k = 0; k < a->territories[t].n_armies; k++) {
            cr_assert_lt(a->territories[t].armies[k].armies, MAX_A);
            m->armies[t][a->territories[t].armies[k].armies] +=
                w * a->territories[t].armies[k].probability;
        }
        m->mean[t] += w * a->territories[t].mean_armies;
    }
    for (size_t o = 0; o < no; o++) {
        const cbd_turn_order_result *r = &a->orders[o];
        m->order[o][0] += w * r->skipped;
        m->order[o][1] += w * r->attack;
        m->order[o][2] += w * r->transfer;
        m->order[o][3] += w * r->capture;
    }
    m->goals += w * a->goals_probability;
}

static void enumerate(const random_turn *r, mixture *m) {
    memset(m, 0, sizeof *m);
    size_t nt = r->turn.n_territories, digit[MAX_T] = {0};
    cbd_turn_limits lim = cbd_turn_default_limits();
    for (;;) {
        cbd_turn_territory b[MAX_T];
        double w = 1.0;
        for (size_t t = 0; t < nt; t++) {
            b[t] = r->board[t];
            if (r->fog[t].n) {
                b[t].armies = r->pts[t][digit[t]].armies;
                w *= r->pts[t][digit[t]].weight;
            }
        }
        cbd_turn plain = r->turn;
        plain.territories = b;
        plain.fog = NULL;
        cbd_turn_analysis a;
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_analyze(&plain, &lim, NULL, &a, &err), CBD_OK);
        add_analysis(m, &a, nt, r->turn.n_orders, w);
        cbd_turn_analysis_free(&a);
        size_t t = 0;
        while (t < nt && (r->fog[t].n <= 1 || ++digit[t] == r->fog[t].n)) {
            digit[t++] = 0;
        }
        if (t == nt) {
            return;
        }
    }
}

static void compare(const random_turn *r, const mixture *m, const cbd_turn_analysis *a, int iter) {
    const double eps = 1e-12;
    for (size_t t = 0; t < r->turn.n_territories; t++) {
        for (size_t p = 0; p < 3; p++) {
            cr_assert(fabs(a->territories[t].owner[p] - m->owner[t][p]) <= eps,
                      "iter %d territory %zu owner %zu: %.17g vs %.17g", iter, t, p,
                      a->territories[t].owner[p], m->owner[t][p]);
        }
        double dense[MAX_A] = {0};
        for (size_t k = 0; k < a->territories[t].n_armies; k++) {
            cr_assert_lt(a->territories[t].armies[k].armies, MAX_A);
            dense[a->territories[t].armies[k].armies] = a->territories[t].armies[k].probability;
        }
        for (size_t v = 0; v < MAX_A; v++) {
            cr_assert(fabs(dense[v] - m->armies[t][v]) <= eps,
                      "iter %d territory %zu armies %zu: %.17g vs %.17g", iter, t, v, dense[v],
                      m->armies[t][v]);
        }
        cr_assert(fabs(a->territories[t].mean_armies - m->mean[t]) <= 1e-10);
    }
    for (size_t o = 0; o < r->turn.n_orders; o++) {
        const cbd_turn_order_result *x = &a->orders[o];
        double got[4] = {x->skipped, x->attack, x->transfer, x->capture};
        for (int s = 0; s < 4; s++) {
            cr_assert(fabs(got[s] - m->order[o][s]) <= eps,
                      "iter %d order %zu stat %d: %.17g vs %.17g", iter, o, s, got[s],
                      m->order[o][s]);
        }
    }
    cr_assert(fabs(a->goals_probability - m->goals) <= eps, "iter %d goals %.17g vs %.17g", iter,
              a->goals_probability, m->goals);
}

Test(turn_fog, product_start_is_the_exact_mixture) {
    cbd_rng rng;
    cbd_rng_seed(&rng, 20261201);
    cbd_turn_limits lim = cbd_turn_default_limits();
    int fogged = 0;
    for (int iter = 0; iter < 300; iter++) {
        random_turn r;
        random_turn_make(&rng, &r);
        cbd_turn_analysis a;
        cbd_turn_error err;
        cbd_status st = cbd_turn_analyze(&r.turn, &lim, NULL, &a, &err);
        cr_assert_eq(st, CBD_OK, "iter %d: status %d kind %d", iter, st, err.kind);
        mixture m;
        enumerate(&r, &m);
        compare(&r, &m, &a, iter);
        for (size_t t = 0; t < r.turn.n_territories; t++) {
            fogged += r.fog[t].n > 1;
        }
        cbd_turn_analysis_free(&a);
    }
    cr_expect_gt(fogged, 300, "the random boards gave too few distributions to test");
}

/* ---- limits and validation ---- */

/* Three linked territories of 200 counts each start from 8·10^6 states: past max_states
 * (10^6), refused before anything is built, outside any order. */
Test(turn_fog, product_past_the_state_limit_is_refused) {
    static cbd_warapp_count pts[200];
    for (size_t k = 0; k < 200; k++) {
        pts[k] = (cbd_warapp_count){k + 1, 1.0 / 200};
    }
    cbd_turn_territory b[] = {{ALICE, 200}, {BOB, 200}, {BOB, 200}};
    cbd_turn_fog fog[] = {{200, pts}, {200, pts}, {200, pts}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 5), atk(BOB, 2, 0, 5)};
    cbd_turn t = zero_luck_turn(b, 3, o, 2);
    t.fog = fog;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_ERR_TOO_LARGE);
    cr_expect_eq(err.kind, CBD_TURN_ERR_STATES);
    cr_expect_eq(err.index, CBD_TURN_NO_ORDER);
    cr_expect_gt(err.needed, err.limit);
    cr_expect_eq(err.limit, lim.max_states);
    /* Two of them (40,000 states) fit, and the budget is charged for the product. */
    t.n_territories = 2;
    t.n_orders = 1;
    cbd_budget budget;
    cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cr_assert_eq(cbd_turn_analyze(&t, &lim, &budget, &a, &err), CBD_OK);
    cr_expect_gt(budget.work_spent, UINT64_C(40000) * 20);
    cbd_turn_analysis_free(&a);
}

Test(turn_fog, a_distribution_must_end_at_the_territory_armies) {
    cbd_turn_territory b[] = {{ALICE, 11}, {BOB, 9}};
    cbd_warapp_count pts[] = {{5, 0.5}, {10, 0.5}};
    cbd_turn_fog fog[] = {{0, NULL}, {2, pts}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 10)};
    cbd_turn t = zero_luck_turn(b, 2, o, 1);
    t.fog = fog;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_error err;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
    cr_expect_eq(err.kind, CBD_TURN_ERR_TERRITORY);
    cr_expect_eq(err.index, 1);
    cbd_warapp_count unsorted[] = {{10, 0.5}, {5, 0.5}};
    fog[1].points = unsorted;
    b[1].armies = 5;
    cr_expect_eq(cbd_turn_validate(&t, &lim, &err), CBD_ERR_INVALID);
}

/* ---- the simulation ---- */

/* The first draw of a turn is the fog's, by inversion of one double (warapp_turn.h): replayed
 * from cbd_rng_double, territory by territory in index order. */
Test(turn_fog, draws_come_first_in_territory_order) {
    cbd_turn_territory b[] = {{BOB, 6}, {ALICE, 4}, {BOB, 2}};
    cbd_warapp_count p0[] = {{1, 0.3}, {6, 0.7}}, p2[] = {{0, 0.2}, {1, 0.3}, {2, 0.5}};
    cbd_turn_fog fog[] = {{2, p0}, {0, NULL}, {3, p2}};
    cbd_turn t = zero_luck_turn(b, 3, NULL, 0);
    t.fog = fog;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    for (uint64_t seed = 0; seed < 100; seed++) {
        cbd_rng r1, r2;
        cbd_rng_seed(&r1, seed);
        cbd_rng_seed(&r2, seed);
        double u0 = cbd_rng_double(&r2), u2 = cbd_rng_double(&r2);
        uint64_t want0 = u0 < 0.3 ? 1 : 6;
        uint64_t want2 = u2 < 0.2 ? 0 : u2 < 0.5 ? 1 : 2;
        cbd_turn_territory out[3];
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &r1, out, NULL), CBD_OK);
        cr_expect_eq(out[0].armies, want0);
        cr_expect_eq(out[1].armies, 4);
        cr_expect_eq(out[2].armies, want2);
        cr_expect_eq(cbd_turn_sim_drawn(sim)[0], want0);
        cr_expect_eq(cbd_turn_sim_drawn(sim)[2], want2);
        cr_expect_eq(memcmp(&r1, &r2, sizeof r1), 0, "the turn drew more than the fog");
    }
    cbd_turn_sim_free(sim);
}

/* A sampled turn charges each fog count it draws (W23): the board of 3 territories copied and
 * the 2 + 3 points of its two distributions scanned (CBD_WORK_SCAN_TERM each, 8 units), and
 * each of the two draws a uniform and the scan's end (2 x CBD_WORK_FOG_STEP each, 32 units):
 * 40 units a turn without orders, every turn. */
Test(turn_fog, each_draw_is_charged) {
    cbd_turn_territory b[] = {{BOB, 6}, {ALICE, 4}, {BOB, 2}};
    cbd_warapp_count p0[] = {{1, 0.3}, {6, 0.7}}, p2[] = {{0, 0.2}, {1, 0.3}, {2, 0.5}};
    cbd_turn_fog fog[] = {{2, p0}, {0, NULL}, {3, p2}};
    cbd_turn t = zero_luck_turn(b, 3, NULL, 0);
    t.fog = fog;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_budget budget;
    cbd_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, &budget, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 7);
    for (int i = 0; i < 3; i++) {
        uint64_t before = budget.work_spent;
        cbd_turn_territory out[3];
        cr_assert_eq(cbd_turn_sim_one(sim, &budget, &rng, out, NULL), CBD_OK);
        cr_expect_eq(budget.work_spent - before, 3 + 5 + 2 * 2 * 8);
    }
    cbd_turn_sim_free(sim);
}

#define TRIALS 300000

/* Random move order, 16 % luck and weighted rounding over fog on both sides: each territory's
 * owner and armies against the analysis, chi-square at alpha 0.001 with a fixed seed. */
Test(turn_fog, simulation_agrees_with_the_analysis) {
    cbd_turn_territory b[] = {{ALICE, 12}, {BOB, 9}, {NEUTRAL, 3}};
    cbd_warapp_count pa[] = {{8, 0.25}, {10, 0.25}, {12, 0.5}};
    cbd_warapp_count pb[] = {{4, 0.2}, {6, 0.3}, {9, 0.5}};
    cbd_warapp_count pn[] = {{0, 0.4}, {3, 0.6}};
    cbd_turn_fog fog[] = {{3, pa}, {3, pb}, {2, pn}};
    cbd_turn_order o[] = {atk(ALICE, 0, 1, 9), atk(BOB, 1, 0, 6), atk(BOB, 1, 2, 3),
                          atk(ALICE, 0, 2, 4)};
    cbd_turn t = zero_luck_turn(b, 3, o, 4);
    t.fog = fog;
    t.move_order = CBD_MOVE_RANDOM;
    t.battle.luck_modifier = 160000;
    t.battle.rounding = CBD_ROUND_WEIGHTED;
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&t, &lim, NULL, &a, &err), CBD_OK);
    cbd_turn_sim *sim;
    cr_assert_eq(cbd_turn_sim_create(&t, &lim, NULL, &sim, &err), CBD_OK);
    cbd_rng rng;
    cbd_rng_seed(&rng, 2023);
    static uint64_t owner_n[3][3], armies_n[3][32], captures[4];
    for (int i = 0; i < TRIALS; i++) {
        cbd_turn_territory out[3];
        cbd_turn_event ev[4];
        cr_assert_eq(cbd_turn_sim_one(sim, NULL, &rng, out, ev), CBD_OK);
        for (int k = 0; k < 3; k++) {
            owner_n[k][out[k].owner == NEUTRAL ? 2 : out[k].owner]++;
            cr_assert_lt(out[k].armies, 32);
            armies_n[k][out[k].armies]++;
        }
        for (int k = 0; k < 4; k++) {
            captures[k] += ev[k].kind == CBD_TURN_ATTACKED && ev[k].outcome.captured;
        }
    }
    for (int k = 0; k < 3; k++) {
        long double po[3], pv[32] = {0};
        for (int p = 0; p < 3; p++) {
            po[p] = a.territories[k].owner[p];
        }
        for (size_t i = 0; i < a.territories[k].n_armies; i++) {
            pv[a.territories[k].armies[i].armies] = a.territories[k].armies[i].probability;
        }
        chi_square_result r = chi_square_test(owner_n[k], po, 3, TRIALS);
        cr_expect_lt(r.statistic, r.critical, "territory %d owner: chi2 %g df %d", k, r.statistic,
                     r.df);
        cr_log_info("fog turn territory %d owner: chi2 %.3f df %d (critical %.3f)", k, r.statistic,
                    r.df, r.critical);
        r = chi_square_test(armies_n[k], pv, 32, TRIALS);
        cr_expect_lt(r.statistic, r.critical, "territory %d armies: chi2 %g df %d", k, r.statistic,
                     r.df);
        cr_log_info("fog turn territory %d armies: chi2 %.3f df %d (critical %.3f)", k, r.statistic,
                    r.df, r.critical);
        cr_expect_gt(r.df, 2, "territory %d: too few cells to test", k);
    }
    for (int k = 0; k < 4; k++) {
        double want = a.orders[k].capture, got = (double)captures[k] / TRIALS;
        double sd = sqrt(want * (1 - want) / TRIALS) + 1e-9;
        cr_expect_lt(fabs(got - want) / sd, 4.5, "order %d capture %g vs %g", k, got, want);
    }
    cbd_turn_sim_free(sim);
    cbd_turn_analysis_free(&a);
}
