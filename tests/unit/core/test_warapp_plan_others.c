/*
 * W49's default scenarios and W48's frontier in the core (warapp_plan_others.c), on a board
 * worked out by hand: alice holds A (1) and B (1); bob C (5) and D (3), the bonus CD worth 3;
 * carol F (2) and G (3); N is neutral. Borders A-B, A-N, B-C, C-D, A-F, A-G (the core's map lists
 * each on both sides, ascending, W24).
 */
#include <criterion/criterion.h>

#include "combatd/warapp_plan_position.h"

enum { ALICE = 0, BOB = 1, CAROL = 2, N = CBD_TURN_NEUTRAL };
enum { A, B, C, D, NT, F, G, TERRITORIES };

static const cbd_turn_territory terr[TERRITORIES] = {{ALICE, 1}, {ALICE, 1}, {BOB, 5},  {BOB, 3},
                                                     {N, 2},     {CAROL, 2}, {CAROL, 3}};
/* A: B N F G; B: A C; C: B D; D: C; N: A; F: A; G: A */
static const uint32_t off[TERRITORIES + 1] = {0, 4, 6, 8, 9, 10, 11, 12};
static const uint32_t nb[12] = {B, NT, F, G, A, C, B, D, C, A, A, A};
static const uint32_t cd[2] = {C, D};
static const cbd_turn_bonus bonus[1] = {{3, 2, cd}};

static cbd_turn board(const cbd_turn_order *orders, size_t n_orders) {
    return (cbd_turn){.n_territories = TERRITORIES,
                      .territories = terr,
                      .n_players = 3,
                      .orders = orders,
                      .n_orders = n_orders,
                      .neighbor_off = off,
                      .neighbors = nb,
                      .n_bonuses = 1,
                      .bonuses = bonus};
}

static void expect_order(const cbd_turn_order *o, cbd_turn_order_type type, cbd_turn_player p,
                         uint32_t from, uint32_t to, uint64_t armies) {
    cr_expect_eq(o->type, type);
    cr_expect_eq(o->player, p);
    if (type == CBD_ORDER_ATTACK_TRANSFER) {
        cr_expect_eq(o->from, from);
    }
    cr_expect_eq(o->to, to);
    cr_expect_eq(o->armies, armies);
}

/* W48: the frontier is every territory not alice's bordering hers, in territory order: C (B's),
 * N, F and G (A's); not D, which borders only bob's C. */
Test(plan_others, w48_the_frontier_is_every_other_territory_bordering_the_players) {
    cbd_turn b = board(NULL, 0);
    uint32_t goals[TERRITORIES];
    size_t n = cbd_plan_position_goals(&b, ALICE, goals);
    cr_assert_eq(n, 4);
    cr_expect_eq(goals[0], C);
    cr_expect_eq(goals[1], NT);
    cr_expect_eq(goals[2], F);
    cr_expect_eq(goals[3], G);
}

/* W49: incomes left out are base income plus whole bonuses: bob 5 + 3, carol 5, alice 5. */
Test(plan_others, w49_estimated_incomes_add_the_bonuses_owned_whole) {
    cbd_turn b = board(NULL, 0);
    cr_expect_eq(cbd_plan_estimated_income(&b, BOB, 5), 8);
    cr_expect_eq(cbd_plan_estimated_income(&b, CAROL, 5), 5);
    cr_expect_eq(cbd_plan_estimated_income(&b, ALICE, 0), 0);
}

/*
 * W49: hold puts bob's 2 on C (D borders no territory of alice's) and carol's 5 on F and G, 3 and
 * 2 (the first one more). Strike: alice's weakest territory bordering bob is B (A does not border
 * him), bob's strongest beside it C: 2 on C, C → B asking 5 + 2; alice's weakest bordering carol
 * is A, carol's strongest beside A is G (3 > 2): 5 on G, G → A asking 3 + 5.
 */
Test(plan_others, w49_hold_and_strike_by_hand) {
    cbd_turn b = board(NULL, 0);
    const uint64_t incomes[3] = {0, 2, 5};
    cbd_turn_order hold[TERRITORIES + 6], strike[TERRITORIES + 6];
    size_t nh, ns;
    cr_assert_eq(cbd_plan_default_scenarios(&b, ALICE, incomes, hold, &nh, strike, &ns), 2);
    cr_assert_eq(nh, 3);
    expect_order(&hold[0], CBD_ORDER_DEPLOY, BOB, 0, C, 2);
    expect_order(&hold[1], CBD_ORDER_DEPLOY, CAROL, 0, F, 3);
    expect_order(&hold[2], CBD_ORDER_DEPLOY, CAROL, 0, G, 2);
    cr_assert_eq(ns, 4);
    expect_order(&strike[0], CBD_ORDER_DEPLOY, BOB, 0, C, 2);
    expect_order(&strike[1], CBD_ORDER_ATTACK_TRANSFER, BOB, C, B, 7);
    expect_order(&strike[2], CBD_ORDER_DEPLOY, CAROL, 0, G, 5);
    expect_order(&strike[3], CBD_ORDER_ATTACK_TRANSFER, CAROL, G, A, 8);
}

/* W49: a player whose orders the board gives is not modelled (its orders run in every
 * scenario), nor the planning player. */
Test(plan_others, w49_a_player_with_given_orders_is_not_modelled) {
    const cbd_turn_order given[1] = {
        {.type = CBD_ORDER_DEPLOY, .player = CAROL, .to = F, .armies = 1}};
    cbd_turn b = board(given, 1);
    cr_expect(!cbd_plan_modelled(&b, ALICE, CAROL));
    cr_expect(cbd_plan_modelled(&b, ALICE, BOB));
    cr_expect(!cbd_plan_modelled(&b, ALICE, ALICE));
    const uint64_t incomes[3] = {0, 0, 9};
    cbd_turn_order hold[TERRITORIES + 6], strike[TERRITORIES + 6];
    size_t nh, ns;
    cr_expect_eq(cbd_plan_default_scenarios(&b, ALICE, incomes, hold, &nh, strike, &ns), 1);
    /* bob's income 0: nothing deployed; his strike is C → B asking C's 5 */
    cr_expect_eq(nh, 0);
    cr_assert_eq(ns, 1);
    expect_order(&strike[0], CBD_ORDER_ATTACK_TRANSFER, BOB, C, B, 5);
}
