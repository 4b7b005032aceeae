/*
 * The worked examples of docs/rules.md's W24–W30, with the numbers worked by hand there: each
 * comes out of the brute force written from the rules' text (warapp_turn_cards_brute.h) and out
 * of the core's analysis. Random
 * turns against the brute force: test_warapp_turn_cards_brute.c.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_turn_cards_cases.h"

enum { ALICE = 0, BOB = 1, CAROL = 2, NEUTRAL_P = -1, DEAD = -1 };

typedef struct {
    int owner; /* a player, or NEUTRAL_P */
    long armies;
} want_t;

static size_t slot_of(const cb_case *c, int owner) {
    return owner < 0 ? c->turn.n_players : (size_t)owner;
}

/* The core's analysis ends on `want` with certainty, skips order o with chance skip[o] (< 0:
 * not checked) and leaves unit u on at[u] (DEAD: dead). */
static void expect_engine(const cb_case *c, const want_t *want, const double *skip, const int *at) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(&c->turn, &lim, NULL, &a, &err), CBD_OK, "kind %d index %zu",
                 err.kind, err.index);
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        cr_expect_float_eq(a.territories[t].owner[slot_of(c, want[t].owner)], 1.0, 1e-12,
                           "territory %zu owner", t);
        cr_expect_eq(a.territories[t].n_armies, 1, "territory %zu", t);
        cr_expect_eq(a.territories[t].armies[0].armies, (uint64_t)want[t].armies,
                     "territory %zu armies", t);
    }
    for (size_t o = 0; o < c->turn.n_orders; o++) {
        if (skip[o] >= 0) {
            cr_expect_float_eq(a.orders[o].skipped, skip[o], 1e-12, "order %zu skipped", o);
        }
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        cr_expect_float_eq(a.units[u].alive, at[u] == DEAD ? 0.0 : 1.0, 1e-12, "unit %zu", u);
        cr_expect(at[u] == DEAD || a.units[u].territory[at[u]] > 1 - 1e-12, "unit %zu", u);
    }
    for (size_t p = 0; c->turn.n_units > 0 && p < c->turn.n_players; p++) {
        cr_expect_float_eq(a.eliminated[p], 0.0, 1e-12, "player %zu", p);
    }
    cbd_turn_analysis_free(&a);
}

/* One worked example, by the brute force and by the core. */
static void expect_example(const cb_case *c, const want_t *want, const double *skip,
                           const int *at) {
    static cb_res r;
    cb_brute(c, &r);
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        cr_expect_float_eq((double)r.owner[t][slot_of(c, want[t].owner)], 1.0, 1e-12,
                           "territory %zu owner", t);
        cr_expect_float_eq((double)r.armies[t][want[t].armies], 1.0, 1e-12,
                           "territory %zu armies %ld", t, want[t].armies);
    }
    for (size_t o = 0; o < c->turn.n_orders; o++) {
        if (skip[o] >= 0) {
            cr_expect_float_eq((double)r.ostat[o][0], skip[o], 1e-12, "order %zu skipped", o);
        }
    }
    for (size_t u = 0; u < c->turn.n_units; u++) {
        long double alive = 0;
        for (size_t t = 0; t < c->turn.n_territories; t++) {
            alive += r.unit_at[u][t];
        }
        cr_expect_float_eq((double)alive, at[u] == DEAD ? 0.0 : 1.0, 1e-12, "unit %zu", u);
        cr_expect(at[u] == DEAD || r.unit_at[u][at[u]] > 1 - 1e-12L, "unit %zu", u);
    }
    for (size_t p = 0; p < c->turn.n_players; p++) {
        cr_expect_float_eq((double)r.eliminated[p], 0.0, 1e-12, "player %zu", p);
    }
    expect_engine(c, want, skip, at);
}

static const cbd_turn_territory NEUTRAL_2 = {CBD_TURN_NEUTRAL, 2};

/* W24: A borders B, B borders C; the bomb listed after the attack runs before it. */
Test(turn_cards, w24_w25_a_bomb_runs_before_the_attack_listed_before_it) {
    cbd_turn_territory terr[3] = {{ALICE, 10}, {BOB, 6}, NEUTRAL_2};
    static cb_case c;
    cb_example(&c, 3, terr, 2);
    cb_borders_of(&c, "01 12");
    cb_add(&c, cb_move(ALICE, 0, 1, 9));
    /* Without the bomb: 9 against 6 kill 5 and fail; 5 go home, A = 1 + 5. */
    expect_example(&c, (want_t[]){{ALICE, 6}, {BOB, 1}, {NEUTRAL_P, 2}}, (double[]){0}, NULL);
    cb_add(&c, cb_card_order(CBD_ORDER_BOMB, ALICE, 1));
    /* With it: B keeps floor(6 / 2) = 3; 9 kill 5 ≥ 3 and lose 2: B is alice's with 7. */
    expect_example(&c, (want_t[]){{ALICE, 1}, {ALICE, 7}, {NEUTRAL_P, 2}}, (double[]){0, 0}, NULL);
}

/* W25: B halved (the Commander untouched), C next to no territory of alice's; bob's order from
 * B then sends min(6, 3 − 1) = 2, which die against A's 5 (kill 1, lose 4). */
Test(turn_cards, w25_a_bomb_halves_rounding_down_and_needs_a_border_on_a_map) {
    cbd_turn_territory terr[3] = {{ALICE, 5}, {BOB, 7}, {BOB, 9}};
    static cb_case c;
    cb_example(&c, 3, terr, 2);
    cb_borders_of(&c, "01 12");
    c.units[0] = (cbd_turn_unit){cbd_warapp_commander(), true, 1};
    c.turn.n_units = 1;
    cb_add(&c, cb_card_order(CBD_ORDER_BOMB, ALICE, 1));
    cb_add(&c, cb_card_order(CBD_ORDER_BOMB, ALICE, 2));
    cb_add(&c, cb_move(BOB, 1, 0, 6));
    expect_example(&c, (want_t[]){{ALICE, 4}, {BOB, 1}, {BOB, 9}}, (double[]){0, 1, 0}, (int[]){1});
}

/* W26: the emergency blockade before the attacks (A neutral with 4 · 3, alice's A → B
 * skipped), bob's 4 die against B's 6 (kill 2), the blockade after them (B neutral with 4 · 3). */
static void blockade_case(cb_case *c) {
    cbd_turn_territory terr[3] = {{ALICE, 4}, {ALICE, 6}, {BOB, 5}};
    cb_example(c, 3, terr, 2);
    cb_add(c, cb_card_order(CBD_ORDER_BLOCKADE, ALICE, 1));
    cb_add(c, cb_move(BOB, 2, 1, 5));
    cb_add(c, cb_move(ALICE, 0, 1, 3));
    cb_add(c, cb_card_order(CBD_ORDER_EMERGENCY_BLOCKADE, ALICE, 0));
}

Test(turn_cards, w26_blockades_before_and_after_the_attacks) {
    static cb_case c;
    blockade_case(&c);
    expect_example(&c, (want_t[]){{NEUTRAL_P, 12}, {NEUTRAL_P, 12}, {BOB, 1}},
                   (double[]){0, 0, 1, 0}, NULL);
    c.turn.blockade_multiplier = 2500000; /* floor(4 · 2.5) = 10 */
    expect_example(&c, (want_t[]){{NEUTRAL_P, 12}, {NEUTRAL_P, 10}, {BOB, 1}},
                   (double[]){0, 0, 1, 0}, NULL);
}

Test(turn_cards, w26_no_blockade_where_a_special_unit_stands) {
    static cb_case c;
    blockade_case(&c);
    c.units[0] = (cbd_turn_unit){cbd_warapp_commander(), true, 1}; /* alice's, on B */
    c.turn.n_units = 1;
    /* Bob's 4 deal 2 to B's armies; B's power 6 + 7 deals round(9.1) = 9: all 4 die. */
    expect_example(&c, (want_t[]){{NEUTRAL_P, 12}, {ALICE, 4}, {BOB, 1}}, (double[]){1, 0, 1, 0},
                   (int[]){1});
}

/* W27: the airlift runs before the attacks and needs no border; the 6 it brings to C are not
 * eligible, so C → B sends min(7, 8 − 1, 2) = 2 (kill 1, lose 5). */
static void airlift_case(cb_case *c, bool attack) {
    cbd_turn_territory terr[3] = {{ALICE, 10}, {BOB, 7}, {ALICE, 2}};
    cb_example(c, 3, terr, 2);
    cb_borders_of(c, "01 12");
    cbd_turn_order lift = {
        .type = CBD_ORDER_AIRLIFT, .player = ALICE, .from = 0, .to = 2, .armies = 6};
    cb_add(c, lift);
    if (attack) {
        cb_add(c, cb_move(ALICE, 2, 1, 7));
    }
}

Test(turn_cards, w27_airlifted_armies_are_not_eligible) {
    static cb_case c;
    airlift_case(&c, true);
    expect_example(&c, (want_t[]){{ALICE, 4}, {BOB, 6}, {ALICE, 6}}, (double[]){0, 0}, NULL);
    c.turn.multi_attack = true; /* 7 attack 7: kill 4, lose 5; B keeps 3, C 1 + 2 */
    expect_example(&c, (want_t[]){{ALICE, 4}, {BOB, 3}, {ALICE, 3}}, (double[]){0, 0}, NULL);
}

Test(turn_cards, w27_an_airlift_by_percent_sends_the_floor) {
    static cb_case c;
    airlift_case(&c, false);
    c.ord[0].by_percent = true;
    c.ord[0].percent = 500000; /* floor(0.5 · 9) = 4 */
    expect_example(&c, (want_t[]){{ALICE, 6}, {BOB, 7}, {ALICE, 6}}, (double[]){0}, NULL);
}

/* W28: A is bob's with its 5 and the Commander; alice's order from A is skipped (not hers),
 * and so is bob's (nothing eligible) unless multi_attack lets 4 go to his B. */
Test(turn_cards, w28_a_gift_gives_everything_on_it_none_of_it_eligible) {
    cbd_turn_territory terr[2] = {{ALICE, 5}, {BOB, 3}};
    static cb_case c;
    cb_example(&c, 2, terr, 2);
    c.units[0] = (cbd_turn_unit){cbd_warapp_commander(), true, 0};
    c.turn.n_units = 1;
    cbd_turn_order gift = cb_card_order(CBD_ORDER_GIFT, ALICE, 0);
    gift.to_player = BOB;
    cb_add(&c, gift);
    cb_add(&c, cb_move(ALICE, 0, 1, 4));
    cb_add(&c, cb_move(BOB, 0, 1, 4));
    expect_example(&c, (want_t[]){{BOB, 5}, {BOB, 3}}, (double[]){0, 1, 1}, (int[]){0});
    c.turn.multi_attack = true;
    expect_example(&c, (want_t[]){{BOB, 1}, {BOB, 7}}, (double[]){0, 1, 0}, (int[]){0});
}

/* W29: alice and bob at peace; alice's attack on bob's B is skipped, unless carol took B
 * first. */
Test(turn_cards, w29_peace_skips_an_attack_on_the_partner_when_it_runs) {
    cbd_turn_territory terr[3] = {{ALICE, 10}, {BOB, 3}, {CAROL, 7}};
    static cb_case c;
    cb_example(&c, 3, terr, 3);
    c.peace[0] = (cbd_turn_peace){ALICE, BOB};
    c.turn.n_peace = 1;
    cb_add(&c, cb_move(ALICE, 0, 1, 9));
    cb_add(&c, cb_move(CAROL, 2, 1, 6));
    expect_example(&c, (want_t[]){{ALICE, 10}, {CAROL, 4}, {CAROL, 1}}, (double[]){1, 0}, NULL);
    cbd_turn_order first = c.ord[0];
    c.ord[0] = c.ord[1];
    c.ord[1] = first;
    expect_example(&c, (want_t[]){{ALICE, 1}, {ALICE, 6}, {CAROL, 1}}, (double[]){0, 0}, NULL);
}

/* W30 with W13's example: A and B of 10 each send 9 against the other. Whoever moves first
 * fails and is then attacked by 4, which fail too: the first mover's territory ends with 1,
 * the other's with 3. */
static void face_off(cb_case *c, cbd_move_order move) {
    cbd_turn_territory terr[2] = {{ALICE, 10}, {BOB, 10}};
    cb_example(c, 2, terr, 2);
    c->turn.move_order = move;
    cb_add(c, cb_move(ALICE, 0, 1, 9));
    cb_add(c, cb_move(BOB, 1, 0, 9));
}

Test(turn_cards, w30_order_priority_puts_its_player_first) {
    static cb_case c;
    face_off(&c, CBD_MOVE_RANDOM);
    static cb_res r;
    cb_brute(&c, &r); /* without the card: A ends with 1 or 3, each with chance 1/2 */
    cr_expect_float_eq((double)r.armies[0][1], 0.5, 1e-12);
    cr_expect_float_eq((double)r.armies[0][3], 0.5, 1e-12);
    cb_add(&c, cb_card_order(CBD_ORDER_PRIORITY, ALICE, 0));
    expect_example(&c, (want_t[]){{ALICE, 1}, {BOB, 3}}, (double[]){0, 0, -1}, NULL);
}

Test(turn_cards, w30_order_delay_holds_back_the_orders_after_it) {
    static cb_case c;
    face_off(&c, CBD_MOVE_LISTED);
    expect_example(&c, (want_t[]){{ALICE, 1}, {BOB, 3}}, (double[]){0, 0}, NULL);
    c.ord[2] = c.ord[1];
    c.ord[1] = c.ord[0];
    c.ord[0] = cb_card_order(CBD_ORDER_DELAY, ALICE, 0); /* before alice's order */
    c.turn.n_orders = 3;
    expect_example(&c, (want_t[]){{ALICE, 3}, {BOB, 1}}, (double[]){-1, 0, 0}, NULL);
}

static void expect_schedule(const cb_case *c, const int *perm, int k, const int *want, int n) {
    int got[CB_SCHED];
    cr_assert_eq(cb_schedule(&c->turn, perm, k, got), n);
    for (int i = 0; i < n; i++) {
        cr_expect_eq(got[i], want[i], "step %d: order %d, not %d", i, got[i], want[i]);
    }
}

/* W30's example: the orders b1, a1, b2, a2 (0–3), under each move order and card. */
Test(turn_cards, w30_schedules_of_the_worked_example) {
    cbd_turn_territory terr[2] = {{ALICE, 10}, {BOB, 10}};
    static cb_case c;
    cb_example(&c, 2, terr, 2);
    cb_add(&c, cb_move(BOB, 1, 0, 1));
    cb_add(&c, cb_move(ALICE, 0, 1, 1));
    cb_add(&c, cb_move(BOB, 1, 0, 1));
    cb_add(&c, cb_move(ALICE, 0, 1, 1));
    int bob_alice[2] = {BOB, ALICE};
    c.turn.move_order = CBD_MOVE_CYCLE;
    expect_schedule(&c, bob_alice, 2, (int[]){0, 1, 3, 2}, 4);
    cb_add(&c, cb_card_order(CBD_ORDER_PRIORITY, ALICE, 0)); /* 4 */
    expect_schedule(&c, bob_alice, 2, (int[]){1, 0, 2, 3}, 4);
    c.turn.move_order = CBD_MOVE_LISTED;
    expect_schedule(&c, NULL, 0, (int[]){1, 0, 2, 3}, 4);
    /* Bob's delay between b1 and b2: b1, a1, delay, b2, a2, priority. */
    memmove(&c.ord[3], &c.ord[2], 3 * sizeof c.ord[0]);
    c.ord[2] = cb_card_order(CBD_ORDER_DELAY, BOB, 0);
    c.turn.n_orders = 6;
    cb_wire(&c);
    c.turn.move_order = CBD_MOVE_CYCLE;
    expect_schedule(&c, bob_alice, 2, (int[]){1, 0, 4, 3}, 4);
    /* Levels, listed: b1, delay, b2, delay, b3, then a1, delay, a2. */
    static cb_case l;
    cb_example(&l, 2, terr, 2);
    int who[8] = {BOB, BOB, BOB, BOB, BOB, ALICE, ALICE, ALICE};
    for (int i = 0; i < 8; i++) {
        cb_add(&l, i == 1 || i == 3 || i == 6 ? cb_card_order(CBD_ORDER_DELAY, who[i], 0)
                                              : cb_move(who[i], 0, 1, 1));
    }
    expect_schedule(&l, NULL, 0, (int[]){0, 5, 2, 7, 4}, 5);
}

/* W26 with W10: 400,000,000 × 3 is capped at 10^9; a multiplier of 0 leaves 0. */
Test(turn_cards, w26_a_blockade_leaves_at_most_w10s_largest_count) {
    cbd_turn_territory terr[2] = {{ALICE, 400000000}, {ALICE, 7}};
    static cb_case c;
    cb_example(&c, 2, terr, 1);
    c.turn.emergency_blockade_multiplier = 0;
    cb_add(&c, cb_card_order(CBD_ORDER_EMERGENCY_BLOCKADE, ALICE, 1));
    cb_add(&c, cb_card_order(CBD_ORDER_BLOCKADE, ALICE, 0));
    expect_engine(&c, (want_t[]){{NEUTRAL_P, 1000000000}, {NEUTRAL_P, 0}}, (double[]){0, 0}, NULL);
}
