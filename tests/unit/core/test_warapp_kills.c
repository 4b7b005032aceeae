/* W1–W6: exact blending, rounding and resolution of one battle. */
#include <criterion/criterion.h>

#include "combatd/warapp.h"

Test(warapp_kills, w3_exact_half_rounds_up) {
    /* W3: 45 defenders at 0.7 kill exactly 31.5, which straight-rounds to 32. */
    cbd_kill_value v = cbd_warapp_blend(45, 700000, 0, 0);
    cr_expect_eq(v.whole, 31);
    cr_expect_eq(v.frac, CBD_KILL_FRAC_ONE / 2);
    cr_expect_eq(cbd_round_straight(v), 32);
}

Test(warapp_kills, basics_examples) {
    /* Combat basics: 10 attackers kill 6, 20 kill 12, 50 kill 30 (0.6); 7 deal 4.2 -> 4;
     * 3 defenders deal 2.1 -> 2; 10 defenders kill 7 (0.7); 5 defenders kill 3.5 -> 4. */
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(10, 600000, 0, 0)), 6);
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(20, 600000, 0, 0)), 12);
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(50, 600000, 0, 0)), 30);
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(7, 600000, 0, 0)), 4);
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(3, 700000, 0, 0)), 2);
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(10, 700000, 0, 0)), 7);
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(5, 700000, 0, 0)), 4);
}

Test(warapp_kills, luck_blends_before_rounding) {
    /* docs/rules.md, reference values: 100 attackers, 50 % luck, a roll of 54: 0.5*54 + 0.5*60
     * = 57. */
    cbd_kill_value v = cbd_warapp_blend(100, 600000, 500000, 54);
    cr_expect_eq(v.whole, 57);
    cr_expect_eq(v.frac, 0);
    /* 100 % luck uses the roll as it is (W1). */
    cr_expect_eq(cbd_round_straight(cbd_warapp_blend(100, 600000, 1000000, 54)), 54);
    /* 16 % luck, 7 attackers, roll 2: 0.16*2 + 0.84*4.2 = 0.32 + 3.528 = 3.848 -> 4. */
    v = cbd_warapp_blend(7, 600000, 160000, 2);
    cr_expect_eq(v.whole, 3);
    cr_expect_eq(v.frac, 848000000000u);
}

Test(warapp_kills, weighted_rounding_is_exact_at_the_boundary) {
    /* 4.2 rounds up iff u < 0.2 * 10^12. */
    cbd_kill_value v = cbd_warapp_blend(7, 600000, 0, 0);
    cr_expect_eq(cbd_round_weighted(v, 199999999999u), 5);
    cr_expect_eq(cbd_round_weighted(v, 200000000000u), 4);
    /* A whole value never rounds up. */
    cr_expect_eq(cbd_round_weighted(cbd_warapp_blend(10, 600000, 0, 0), 0), 6);
}

Test(warapp_kills, largest_armies_do_not_overflow) {
    /* 10^9 armies at rate 0.999999 and luck 0.000001 with roll 10^9:
     * 10^-6 * 10^9 + 0.999999 * 10^9 * 0.999999 = 1000 + 999998000.001 = 999999000.001. */
    cbd_kill_value v = cbd_warapp_blend(1000000000u, 999999, 1, 1000000000u);
    cr_expect_eq(v.whole, 999999000u);
    cr_expect_eq(v.frac, 1000000000u);
}

Test(warapp_resolve, capture_example) {
    /* Basics: 10 attack 5; attackers kill 6 (capped to 5), defenders kill 3.5 -> 4. */
    cbd_warapp_outcome o = cbd_warapp_resolve(10, 5, 6, 4);
    cr_expect(o.captured);
    cr_expect_eq(o.defenders_lost, 5);
    cr_expect_eq(o.defenders_left, 0);
    cr_expect_eq(o.attackers_lost, 4);
    cr_expect_eq(o.attackers_left, 6, "the 6 surviving attackers move in");
}

Test(warapp_resolve, failed_example) {
    /* Basics: 10 attack 10: attackers kill 6, defenders kill 7; 4 defenders and 3 attackers
     * survive and the attack fails. */
    cbd_warapp_outcome o = cbd_warapp_resolve(10, 10, 6, 7);
    cr_expect_not(o.captured);
    cr_expect_eq(o.defenders_left, 4);
    cr_expect_eq(o.attackers_left, 3);
}

Test(warapp_resolve, mutual_destruction_resurrects_one_defender) {
    /* W5: 1 vs 1 at 0 % luck: 0.6 -> 1 kill, 0.7 -> 1 kill; both sides wiped out. */
    cbd_warapp_outcome o = cbd_warapp_resolve(1, 1, 1, 1);
    cr_expect_not(o.captured);
    cr_expect_eq(o.attackers_left, 0);
    cr_expect_eq(o.attackers_lost, 1);
    cr_expect_eq(o.defenders_left, 1);
    cr_expect_eq(o.defenders_lost, 0, "lost + left = the 1 starting defender");
}

Test(warapp_resolve, zero_defenders_are_captured_by_any_attack) {
    cbd_warapp_outcome o = cbd_warapp_resolve(1, 0, 0, 0);
    cr_expect(o.captured);
    cr_expect_eq(o.attackers_left, 1);
    cr_expect_eq(o.defenders_left, 0);
}
