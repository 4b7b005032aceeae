#ifndef COMBATD_TEST_WARAPP_TURN_FIXTURE_H
#define COMBATD_TEST_WARAPP_TURN_FIXTURE_H

/*
 * What the core's turn tests build their turns from: three named players and neutral, an
 * attack/transfer order by armies, a turn of three players over given territories and orders at
 * the default battle settings (W9), and its analysis asserted to succeed. Header-only.
 */
#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"

enum { ALICE = 0, BOB = 1, CAROL = 2, NEUTRAL = CBD_TURN_NEUTRAL };

static inline cbd_turn_order atk(cbd_turn_player p, uint32_t from, uint32_t to, uint64_t armies) {
    cbd_turn_order o = {
        .type = CBD_ORDER_ATTACK_TRANSFER, .player = p, .from = from, .to = to, .armies = armies};
    return o;
}

static inline cbd_turn make(const cbd_turn_territory *t, size_t nt, const cbd_turn_order *o,
                            size_t no) {
    cbd_turn turn = {.n_territories = nt,
                     .territories = t,
                     .n_players = 3,
                     .n_orders = no,
                     .orders = o,
                     .battle = cbd_warapp_default_settings()};
    return turn;
}

/* The turn's exact analysis at the default limits, unbudgeted; the test stops if it fails. */
static inline cbd_turn_analysis turn_analyze_ok(const cbd_turn *t) {
    cbd_turn_limits lim = cbd_turn_default_limits();
    cbd_turn_analysis a;
    cbd_turn_error err;
    cr_assert_eq(cbd_turn_analyze(t, &lim, NULL, &a, &err), CBD_OK, "kind %d index %zu", err.kind,
                 err.index);
    return a;
}

#endif
