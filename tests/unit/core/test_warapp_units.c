/*
 * Special units in one War.app battle (W17 units, W18 power, W19 who takes the damage, W20 the
 * outcome): the wiki's Commander examples and every clause
 * of W19 worked by hand, then random small battles against a brute-force enumeration written
 * here from the rules' text (its own binomial, blend, rounding and damage order), to 1e-12.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_odds.h"
#include "combatd/warapp_units.h"
#include "warapp_brute.h"

static cbd_warapp_settings settings(cbd_micro off, cbd_micro def, cbd_micro luck, cbd_rounding r) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.offense_kill_rate = off;
    s.defense_kill_rate = def;
    s.luck_modifier = luck;
    s.rounding = r;
    return s;
}

static cbd_warapp_unit custom(uint64_t atk, uint64_t def, int64_t order, bool health,
                              uint64_t tough) {
    cbd_warapp_unit u = {atk, def, order, health, tough};
    return u;
}

Test(warapp_units, a_commander_with_3_armies_attacks_like_10) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side side = {3, 1, &c};
    cr_assert_eq(cbd_warapp_side_power(&side, true), 10);
    cr_assert_eq(cbd_warapp_side_power(&side, false), 10);
    cr_assert_eq(cbd_warapp_side_toughness(&side), 10);
    /* At luck 0 and 60 %: 10 · 0.6 = 6 damage, where 3 armies alone deal round(1.8) = 2. */
    cbd_warapp_side none = {1000, 0, NULL};
    cbd_warapp_settings s = settings(600000, 700000, 0, CBD_ROUND_STRAIGHT);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_sides(&side, &none, &s, NULL, &a), CBD_OK);
    cr_assert(a.deterministic);
    cr_assert_eq(a.outcome.defenders_lost, 6);
    cbd_warapp_analysis_free(&a);
}

Test(warapp_units, ten_armies_into_a_commander_with_3_kill_the_3_and_the_commander_lives) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {10, 0, NULL}, defense = {3, 1, &c};
    cbd_warapp_settings s = settings(600000, 700000, 0, CBD_ROUND_STRAIGHT);
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_sides(&attack, &defense, &s, NULL, &a), CBD_OK);
    /* 6 damage: the 3 armies first (the Commander's combat order is 10000), then 3 < 7 left
     * for the Commander, which takes nothing. The defense, 3 + 7 = 10 power at 70 %, deals 7. */
    cr_assert(a.deterministic);
    cr_assert_not(a.outcome.captured);
    cr_assert_eq(a.capture_probability, 0.0);
    cr_assert_eq(a.outcome.defenders_left, 0);
    cr_assert_eq(a.outcome.attackers_left, 3);
    cr_assert_eq(a.n_defending_units, 1);
    cr_assert_eq(a.defending_units[0].survival_probability, 1.0);
    cr_assert_eq(cbd_windows_lo(&a.defenders_left), 0);
    cr_assert_eq(cbd_windows_slots(&a.defenders_left), 1);
    cbd_warapp_analysis_free(&a);
}

Test(warapp_units, seven_damage_at_once_kills_a_commander_and_six_do_not) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side defense = {0, 1, &c};
    cbd_warapp_settings s = settings(600000, 700000, 0, CBD_ROUND_STRAIGHT);
    /* 12 · 0.6 = 7.2 -> 7 damage: the Commander dies; it dealt 7 · 0.7 = 4.9 -> 5 of the 12. */
    cbd_warapp_side attack = {12, 0, NULL};
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_sides(&attack, &defense, &s, NULL, &a), CBD_OK);
    cr_assert(a.deterministic && a.outcome.captured);
    cr_assert_eq(a.capture_probability, 1.0);
    cr_assert_eq(a.defending_units[0].survival_probability, 0.0);
    cr_assert_eq(a.outcome.attackers_left, 7);
    cbd_warapp_analysis_free(&a);
    /* 10 · 0.6 = 6 damage: not enough at once, so it takes nothing and holds the territory. */
    attack.armies = 10;
    cr_assert_eq(cbd_warapp_analyze_sides(&attack, &defense, &s, NULL, &a), CBD_OK);
    cr_assert(a.deterministic && !a.outcome.captured);
    cr_assert_eq(a.defending_units[0].survival_probability, 1.0);
    cbd_warapp_analysis_free(&a);
}

/* W19 directly: the side after a given damage. */
static uint64_t after(const cbd_warapp_side *side, uint64_t damage, uint64_t *unit_left) {
    size_t order[CBD_WARAPP_MAX_UNITS], before;
    cbd_warapp_damage_order(side, order, &before);
    cbd_warapp_side_state st = {0, unit_left};
    cbd_warapp_take_damage(side, order, before, damage, &st);
    return st.armies_left;
}

Test(warapp_units, a_negative_combat_order_shields_the_armies_until_it_dies) {
    cbd_warapp_unit shield = custom(0, 4, -5, false, 10);
    cbd_warapp_side side = {5, 1, &shield};
    uint64_t left[1];
    cr_assert_eq(after(&side, 9, left), 5, "9 < 10: spent on the shield, the armies untouched");
    cr_assert_eq(left[0], 1);
    cr_assert_eq(after(&side, 10, left), 5, "10 kills the shield, nothing is left for them");
    cr_assert_eq(left[0], 0);
    cr_assert_eq(after(&side, 12, left), 3);
    cr_assert_eq(after(&side, 15, left), 0);
    cr_assert_eq(cbd_warapp_side_toughness(&side), 15);
}

Test(warapp_units, a_health_unit_takes_part_of_the_damage_and_dies_at_zero) {
    cbd_warapp_unit medic = custom(1, 1, 5, true, 6);
    cbd_warapp_side side = {3, 1, &medic};
    uint64_t left[1];
    cr_assert_eq(after(&side, 5, left), 0, "the 3 armies first");
    cr_assert_eq(left[0], 4, "then 2 of its 6 health");
    cr_assert_eq(after(&side, 8, left), 0);
    cr_assert_eq(left[0], 1);
    cr_assert_eq(after(&side, 9, left), 0);
    cr_assert_eq(left[0], 0, "dead at 0");
    /* Before the armies (a negative order), it takes its share first. */
    medic.combat_order = -1;
    cr_assert_eq(after(&side, 8, left), 1);
    cr_assert_eq(left[0], 0);
}

Test(warapp_units, equal_combat_orders_take_damage_in_listed_order) {
    cbd_warapp_unit pair[2] = {custom(0, 0, 1, false, 5), custom(0, 0, 1, false, 3)};
    cbd_warapp_side side = {0, 2, pair};
    uint64_t left[2];
    (void)after(&side, 4, left);
    cr_assert(left[0] == 1 && left[1] == 1, "4 < 5: the first listed shields the second");
    cbd_warapp_unit swapped[2] = {pair[1], pair[0]};
    side.units = swapped;
    (void)after(&side, 4, left);
    cr_assert(left[0] == 0 && left[1] == 1, "3 dies first, 1 left does not kill the 5");
    /* Combat order beats listed order: the lower order goes first wherever it is listed. */
    cbd_warapp_unit ordered[2] = {custom(0, 0, 9, false, 5), custom(0, 0, 2, false, 3)};
    side.units = ordered;
    (void)after(&side, 4, left);
    cr_assert(left[0] == 1 && left[1] == 0);
}

Test(warapp_units, an_attack_needs_an_army_or_a_unit) {
    cbd_warapp_side nothing = {0, 0, NULL}, defense = {3, 0, NULL};
    cbd_warapp_settings s = cbd_warapp_default_settings();
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_sides(&nothing, &defense, &s, NULL, &a), CBD_ERR_INVALID);
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side lone = {0, 1, &c};
    cr_assert_eq(cbd_warapp_analyze_sides(&lone, &defense, &s, NULL, &a), CBD_OK);
    /* 7 · 0.6 = 4.2 -> 4 damage kills the 3 defenders; their 3 · 0.7 = 2.1 -> 2 < 7 spare it. */
    cr_assert(a.deterministic && a.outcome.captured);
    cr_assert_eq(a.attacking_units[0].survival_probability, 1.0);
    cbd_warapp_analysis_free(&a);
}

static uint64_t rnd(uint64_t *x, uint64_t n) {
    *x = *x * 6364136223846793005u + 1442695040888963407u;
    return (*x >> 33) % n;
}

static void random_side(uint64_t *seed, cbd_warapp_side *side, cbd_warapp_unit *units) {
    side->armies = rnd(seed, 9);
    side->n_units = rnd(seed, 4);
    for (size_t i = 0; i < side->n_units; i++) {
        units[i] = rnd(seed, 3) == 0 ? cbd_warapp_commander()
                                     : custom(rnd(seed, 6), rnd(seed, 6), (int64_t)rnd(seed, 7) - 3,
                                              rnd(seed, 2) == 0, 1 + rnd(seed, 8));
    }
    side->units = units;
}

static void check_random_battle(uint64_t *seed) {
    cbd_warapp_unit au[4], du[4];
    cbd_warapp_side att, def;
    do {
        random_side(seed, &att, au);
    } while (att.armies == 0 && att.n_units == 0);
    random_side(seed, &def, du);
    static const cbd_micro rates[] = {0, 300000, 600000, 750000, 1000000};
    static const cbd_micro lucks[] = {0, 160000, 500000, 1000000};
    cbd_warapp_settings s = settings(rates[rnd(seed, 5)], rates[rnd(seed, 5)], lucks[rnd(seed, 4)],
                                     rnd(seed, 2) ? CBD_ROUND_WEIGHTED : CBD_ROUND_STRAIGHT);
    bf_dist da, dd;
    bf_damage(cbd_warapp_side_power(&att, true), s.offense_kill_rate, s.luck_modifier, s.rounding,
              &da);
    bf_damage(cbd_warapp_side_power(&def, false), s.defense_kill_rate, s.luck_modifier, s.rounding,
              &dd);
    long double capture = 0, mutual = 0, att_left[16] = {0}, def_left[16] = {0};
    long double att_alive[4] = {0}, def_alive[4] = {0};
    for (int ka = 0; ka <= BF_MAX_DAMAGE; ka++) {
        for (int kd = 0; kd <= BF_MAX_DAMAGE; kd++) {
            long double w = da.p[ka] * dd.p[kd];
            if (w == 0.0L) {
                continue;
            }
            uint64_t al[4], dl[4];
            uint64_t a_armies = bf_take(&att, (uint64_t)kd, al);
            uint64_t d_armies = bf_take(&def, (uint64_t)ka, dl);
            bool a_empty = bf_empty(&att, a_armies, al), d_empty = bf_empty(&def, d_armies, dl);
            capture += d_empty && !a_empty ? w : 0;
            mutual += d_empty && a_empty ? w : 0;
            att_left[a_armies] += w;
            def_left[d_empty && a_empty ? 1 : d_armies] += w; /* W20's resurrected army */
            for (size_t i = 0; i < att.n_units; i++) {
                att_alive[i] += al[i] ? w : 0;
            }
            for (size_t i = 0; i < def.n_units; i++) {
                def_alive[i] += dl[i] ? w : 0;
            }
        }
    }
    cbd_warapp_analysis a;
    cr_assert_eq(cbd_warapp_analyze_sides(&att, &def, &s, NULL, &a), CBD_OK);
    cr_assert_float_eq(a.capture_probability, (double)capture, 1e-12);
    cr_assert_float_eq(a.mutual_destruction_probability, (double)mutual, 1e-12);
    for (uint64_t v = 0; v < 16; v++) {
        double got = cbd_windows_p(&a.attackers_left, v);
        cr_assert_float_eq(got, (double)att_left[v], 1e-12, "attackers left %lu", (unsigned long)v);
        got = cbd_windows_p(&a.defenders_left, v);
        cr_assert_float_eq(got, (double)def_left[v], 1e-12, "defenders left %lu", (unsigned long)v);
    }
    for (size_t i = 0; i < att.n_units; i++) {
        cr_assert_float_eq(a.attacking_units[i].survival_probability, (double)att_alive[i], 1e-12);
    }
    for (size_t i = 0; i < def.n_units; i++) {
        cr_assert_float_eq(a.defending_units[i].survival_probability, (double)def_alive[i], 1e-12);
    }
    cbd_warapp_analysis_free(&a);
}

Test(warapp_units, random_small_battles_match_a_brute_force_to_1e_12) {
    uint64_t seed = 20261201;
    for (int i = 0; i < 400; i++) {
        check_random_battle(&seed);
    }
}
