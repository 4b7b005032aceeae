/*
 * The Duper battle core against numbers worked out by hand from duper-battle-and-power.txt
 * and docs/rules.md D1–D11 (the arithmetic is in each test's comment). Default unit table:
 * soldier 1/DP1, larva 1/DP1, tank 3/DP2 (supporting DP4), plane 4/DP3, fort 7, center 0,
 * capitals 9/16/20 DP6, supercapital 21/DP4; tile buff 1/2/4; key buff 2 per key.
 */
#include <criterion/criterion.h>

#include "combatd/duper.h"
#include "duper_names.h"

static cbd_duper_battle battle(void) {
    cbd_duper_battle b;
    memset(&b, 0, sizeof b);
    b.kind = CBD_DUPER_NORMAL;
    b.level = 1;
    return b;
}

static void support(cbd_duper_side *s, uint64_t tanks, bool fort) {
    s->support_tanks[s->n_support] = tanks;
    s->support_fort[s->n_support] = fort ? 1 : 0;
    s->n_support++;
}

static cbd_duper_result resolve(const cbd_duper_rules *rules, const cbd_duper_battle *b) {
    cbd_duper_result r;
    cr_assert_eq(cbd_duper_resolve(rules, b, 1, &r), CBD_OK);
    return r;
}

/* The rule file's example: A has 8 soldiers, 2 planes loading 2 tanks, a fort, 3 supporting
 * tanks; B has 5 tanks and a center on a level-3 tile, 4 supporting tanks, 2 keys. */
static cbd_duper_battle worked_example(void) {
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 8;
    b.attack.units[PLANE] = 2;
    b.attack.units[FORT] = 1;
    b.attack.loaded[TANK] = 2;
    support(&b.attack, 3, false);
    b.defense.units[TANK] = 5;
    b.defense.units[CENTER] = 1;
    support(&b.defense, 4, false);
    b.level = 3;
    b.keys = 2;
    return b;
}

Test(duper_core, d2_worked_example_with_key_buff_1_comes_out_as_written) {
    /* AP = 8·1 + 2·4 + 0 (loaded, D5) + 7 (fort, D6) + 3·3 = 32.
     * DP = 5·3 + 0 (center) + 4·3 + 4 (level 3) + 1·2 (keys) = 33. 32 < 33: fails.
     * Damage to B = 32 − 4 − 2 = 26. Tile tanks (DP 2) first: 5·3 = 15, 11 left; supporting
     * tanks (DP 4): 3 die (9), 2 left < 3: the last survives (D4). A loses everything. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    rules.key_buff_per_key = 1;
    cbd_duper_battle b = worked_example();
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 32);
    cr_expect_eq(r.power[D].total, 33);
    cr_expect_eq(r.power[A].units[SOLDIER], 8);
    cr_expect_eq(r.power[A].units[PLANE], 8);
    cr_expect_eq(r.power[A].units[FORT], 7);
    cr_expect_eq(r.power[A].support_tanks[0], 9);
    cr_expect_eq(r.power[D].units[TANK], 15);
    cr_expect_eq(r.power[D].units[CENTER], 0);
    cr_expect_eq(r.power[D].support_tanks[0], 12);
    cr_expect_eq(r.power[D].tile_buff, 4);
    cr_expect_eq(r.power[D].key_buff, 2);
    cr_expect(!r.captured);
    cr_expect(!r.tie);
    cr_expect_eq(r.damage, 26);
    cr_expect_eq(r.losses[A].units[SOLDIER], 8);
    cr_expect_eq(r.losses[A].units[PLANE], 2);
    cr_expect_eq(r.losses[A].units[FORT], 1);
    cr_expect_eq(r.losses[A].loaded[TANK], 2);
    cr_expect_eq(r.losses[A].support_tanks[0], 3);
    cr_expect_eq(r.losses[D].units[TANK], 5);
    cr_expect_eq(r.losses[D].units[CENTER], 0);
    cr_expect_eq(r.losses[D].support_tanks[0], 3);
    cr_expect_eq(r.survivors[D].support_tanks[0], 1);
    cr_expect_eq(r.survivors[D].units[CENTER], 1);
    cr_expect(!r.eliminated[A] && !r.eliminated[D] && !r.tile_disappears);
    cr_expect(!r.card_steal_eligible);
}

Test(duper_core, d2_worked_example_with_the_default_key_buff) {
    /* D2 default 2 per key: DP = 15 + 12 + 4 + 2·2 = 35; damage = 32 − 4 − 4 = 24:
     * 15 to the tile tanks, 9 left kill 3 supporting tanks, 0 left: 1 survives. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = worked_example();
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 32);
    cr_expect_eq(r.power[D].total, 35);
    cr_expect_eq(r.power[D].key_buff, 4);
    cr_expect_eq(r.damage, 24);
    cr_expect_eq(r.losses[D].units[TANK], 5);
    cr_expect_eq(r.losses[D].support_tanks[0], 3);
    cr_expect_eq(r.survivors[D].support_tanks[0], 1);
}

Test(duper_core, d1_default_table_is_the_rulings_table) {
    cbd_duper_rules r = cbd_duper_default_rules();
    const uint32_t power[] = {1, 1, 3, 4, 7, 0, 9, 16, 20, 21};
    const uint32_t dp[] = {1, 1, 2, 3, 0, 0, 6, 6, 6, 4}; /* the fort's DP is D6's, skipped */
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        cr_expect_eq(r.units[c].power, power[c], "%s", cbd_duper_class_name((cbd_duper_class)c));
        if (c != FORT) {
            cr_expect_eq(r.units[c].death_priority, dp[c], "%s",
                         cbd_duper_class_name((cbd_duper_class)c));
        }
    }
    cr_expect_eq(r.key_buff_per_key, 2);
    cr_expect_eq(r.supporting_tank_death_priority, 4);
    cr_expect_eq(r.card_steal_probability, 350000);
    cr_expect_eq(r.tile_buff[0], 1);
    cr_expect_eq(r.tile_buff[1], 2);
    cr_expect_eq(r.tile_buff[2], 4);
}

Test(duper_core, d1_a_retuned_table_changes_the_result) {
    /* Tank power 4: AP = 8 + 8 + 7 + 3·4 = 35; DP = 5·4 + 4·4 + 4 + 4 = 44. Damage 35−8 = 27:
     * tile tanks 20 (7 left), supporting tanks: 1 dies (4), 3 left < 4: 3 survive. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    rules.units[TANK].power = 4;
    cbd_duper_battle b = worked_example();
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 35);
    cr_expect_eq(r.power[D].total, 44);
    cr_expect_eq(r.damage, 27);
    cr_expect_eq(r.losses[D].support_tanks[0], 1);
    cr_expect_eq(r.survivors[D].support_tanks[0], 3);
}

/* Defender: 2 tanks on a level-1 tile, 2 supporting tanks: DP = 6 + 6 + 1 = 13.
 * Attacker: 10 soldiers, AP 10 < 13, damage = 10 − 1 = 9. */
static cbd_duper_battle d3_battle(void) {
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 10;
    b.defense.units[TANK] = 2;
    support(&b.defense, 2, false);
    return b;
}

Test(duper_core, d3_supporting_tanks_die_after_tile_tanks_by_default) {
    /* DP 2 tile tanks first: 2·3 = 6, 3 left; supporting (DP 4): 1 dies, 0 left. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = d3_battle();
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.damage, 9);
    cr_expect_eq(r.losses[D].units[TANK], 2);
    cr_expect_eq(r.losses[D].support_tanks[0], 1);
}

Test(duper_core, d3_supporting_priority_is_configurable) {
    /* Supporting DP 1: they die first, 2·3 = 6, 3 left; then 1 tile tank, 1 survives. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    rules.supporting_tank_death_priority = 1;
    cbd_duper_battle b = d3_battle();
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.losses[D].support_tanks[0], 2);
    cr_expect_eq(r.losses[D].units[TANK], 1);
    cr_expect_eq(r.survivors[D].units[TANK], 1);
}

Test(duper_core, d3_at_equal_priority_the_tile_dies_first) {
    /* Supporting DP 2 = tile tanks' DP: tile first (6, 3 left), then 1 supporting tank. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    rules.supporting_tank_death_priority = 2;
    cbd_duper_battle b = d3_battle();
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.losses[D].units[TANK], 2);
    cr_expect_eq(r.losses[D].support_tanks[0], 1);
}

Test(duper_core, d3_supporting_tiles_die_in_request_order) {
    /* Empty level-1 tile, two supporting tiles of 1 tank: DP = 1 + 3 + 3 = 7. 4 soldiers:
     * damage 4 − 1 = 3 kills the first listed tank; the second survives. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 4;
    support(&b.defense, 1, false);
    support(&b.defense, 1, false);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[D].total, 7);
    cr_expect_eq(r.losses[D].support_tanks[0], 1);
    cr_expect_eq(r.losses[D].support_tanks[1], 0);
}

Test(duper_core, d4_the_first_survivor_ends_the_allocation) {
    /* Level-1 tile with 1 plane, 1 supporting tank: DP = 4 + 3 + 1 = 8. 4 soldiers: damage
     * 4 − 1 = 3 < 4, the plane survives and ends it; the tank (3 ≤ 3) would die under a
     * greedy rule but survives (D4). */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 4;
    b.defense.units[PLANE] = 1;
    support(&b.defense, 1, false);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.damage, 3);
    cr_expect_eq(r.losses[D].units[PLANE], 0);
    cr_expect_eq(r.losses[D].support_tanks[0], 0);
}

Test(duper_core, d4_part_of_a_group_dies) {
    /* 5 soldiers + level 2: DP = 5 + 2 = 7. 5 attacking soldiers: damage 5 − 2 = 3: 3 die. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.level = 2;
    b.attack.units[SOLDIER] = 5;
    b.defense.units[SOLDIER] = 5;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.losses[D].units[SOLDIER], 3);
    cr_expect_eq(r.survivors[D].units[SOLDIER], 2);
}

Test(duper_core, d5_loaded_troops_ride_with_a_surviving_plane) {
    /* 3 planes (12) loading 4 soldiers (0) vs 7 soldiers on level 1 (8): captured. Damage 8:
     * 2 planes die (8), the third survives; the soldiers stay loaded and move in with it. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[PLANE] = 3;
    b.attack.loaded[SOLDIER] = 4;
    b.defense.units[SOLDIER] = 7;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 12);
    cr_expect(r.captured);
    cr_expect_eq(r.damage, 8);
    cr_expect_eq(r.losses[A].units[PLANE], 2);
    cr_expect_eq(r.losses[A].loaded[SOLDIER], 0);
    cr_expect_eq(r.moved_in_units[PLANE], 1);
    cr_expect_eq(r.moved_in_loaded[SOLDIER], 4);
}

Test(duper_core, d5_loaded_troops_die_with_the_last_plane) {
    /* 2 planes (8) loading 3 tanks (0) + supporting 2 tanks (6): AP 14. 12 soldiers on
     * level 1: DP 13, captured. Damage 13: both planes (8), 5 left: 1 supporting tank (3),
     * 2 left < 3. Every plane died, so the 3 loaded tanks die; nothing moves in. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[PLANE] = 2;
    b.attack.loaded[TANK] = 3;
    support(&b.attack, 2, false);
    b.defense.units[SOLDIER] = 12;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 14);
    cr_expect(r.captured);
    cr_expect_eq(r.losses[A].units[PLANE], 2);
    cr_expect_eq(r.losses[A].loaded[TANK], 3);
    cr_expect_eq(r.losses[A].support_tanks[0], 1);
    cr_expect_eq(r.moved_in_units[PLANE], 0);
    cr_expect_eq(r.moved_in_loaded[TANK], 0);
}

Test(duper_core, d6_an_attacking_fort_absorbs_and_stays) {
    /* Fort (7) + 3 soldiers: AP 10 vs 2 soldiers on level 1: DP 3, captured. The fort absorbs
     * the 3 damage (≤ 7): no soldier dies; the 3 soldiers move in, the fort stays home. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[FORT] = 1;
    b.attack.units[SOLDIER] = 3;
    b.defense.units[SOLDIER] = 2;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(r.captured);
    cr_expect_eq(r.damage, 3);
    cr_expect_eq(r.losses[A].units[SOLDIER], 0);
    cr_expect_eq(r.losses[A].units[FORT], 0);
    cr_expect_eq(r.moved_in_units[SOLDIER], 3);
    cr_expect_eq(r.moved_in_units[FORT], 0);
    cr_expect_eq(r.losses[D].units[SOLDIER], 2);
}

Test(duper_core, d6_an_attacking_fort_absorbs_only_its_power) {
    /* Fort + 5 soldiers: AP 12 vs 10 soldiers on level 1: DP 11. Damage 11: the fort takes
     * 7, 4 left kill 4 soldiers; 1 moves in. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[FORT] = 1;
    b.attack.units[SOLDIER] = 5;
    b.defense.units[SOLDIER] = 10;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(r.captured);
    cr_expect_eq(r.losses[A].units[SOLDIER], 4);
    cr_expect_eq(r.moved_in_units[SOLDIER], 1);
}

Test(duper_core, d6_a_fort_alone_captures_and_moves_nothing_in) {
    /* Fort alone: AP 7 vs empty level-2 tile (2): captured, damage 2 absorbed. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.level = 2;
    b.attack.units[FORT] = 1;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(r.captured);
    cr_expect_eq(r.losses[A].units[FORT], 0);
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        cr_expect_eq(r.moved_in_units[c], 0);
    }
}

Test(duper_core, d6_a_defending_fort_without_troops_ranks_dp_1) {
    /* Fort alone on level 1 + 1 supporting tank: DP = 7 + 3 + 1 = 11. 10 soldiers: damage 9:
     * the fort (DP 1) dies first (7), 2 left < 3: the supporting tank survives. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 10;
    b.defense.units[FORT] = 1;
    support(&b.defense, 1, false);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[D].total, 11);
    cr_expect_eq(r.losses[D].units[FORT], 1);
    cr_expect_eq(r.losses[D].support_tanks[0], 0);
}

Test(duper_core, d6_a_defending_fort_ranks_after_the_highest_troop) {
    /* 1 tank (DP 2) + 1 plane (DP 3) + fort on level 1: DP = 3 + 4 + 7 + 1 = 15. 14 soldiers:
     * damage 13: tank (3, 10 left), plane (4, 6 left), then the fort at DP 3 after the plane:
     * 7 > 6 survives. Had it ranked with the tank, it would have died and the plane lived. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 14;
    b.defense.units[TANK] = 1;
    b.defense.units[PLANE] = 1;
    b.defense.units[FORT] = 1;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.damage, 13);
    cr_expect_eq(r.losses[D].units[TANK], 1);
    cr_expect_eq(r.losses[D].units[PLANE], 1);
    cr_expect_eq(r.losses[D].units[FORT], 0);
}

Test(duper_core, d6_a_supporting_fort_dies_right_after_its_tanks) {
    /* Empty level-1 tile; support [1 tank + fort, 1 tank]: DP = 1 + 3 + 7 + 3 = 14.
     * 13 soldiers: damage 12: tank (9 left), its fort (2 left), the next tank survives. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 13;
    support(&b.defense, 1, true);
    support(&b.defense, 1, false);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[D].support_fort[0], 7);
    cr_expect_eq(r.power[D].total, 14);
    cr_expect_eq(r.losses[D].support_tanks[0], 1);
    cr_expect_eq(r.losses[D].support_fort[0], 1);
    cr_expect_eq(r.losses[D].support_tanks[1], 0);
}

Test(duper_core, d6_a_surviving_supporting_fort_ends_the_allocation) {
    /* Same defense, 10 soldiers: damage 9: tank (6 left), fort 7 > 6 survives and ends it,
     * so the second tile's tank survives though 6 ≥ 3 (D4). */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 10;
    support(&b.defense, 1, true);
    support(&b.defense, 1, false);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.losses[D].support_tanks[0], 1);
    cr_expect_eq(r.losses[D].support_fort[0], 0);
    cr_expect_eq(r.losses[D].support_tanks[1], 0);
}

Test(duper_core, d6_an_attacking_supporting_fort_adds_7_and_dies_on_failure) {
    /* 2 soldiers + support [1 tank + fort]: AP = 2 + 3 + 7 = 12 vs 12 soldiers on level 1
     * (13): fails; every attacking unit dies, the supporting fort with its tank. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 2;
    support(&b.attack, 1, true);
    b.defense.units[SOLDIER] = 12;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 12);
    cr_expect(!r.captured);
    cr_expect_eq(r.losses[A].support_tanks[0], 1);
    cr_expect_eq(r.losses[A].support_fort[0], 1);
    /* Damage to the defenders 12 − 1 = 11: 11 of the 12 soldiers die. */
    cr_expect_eq(r.losses[D].units[SOLDIER], 11);
}

Test(duper_core, d7_centers_never_die_and_pass_with_the_tile) {
    /* Center + 3 soldiers on level 1: DP 4. 3 soldiers fail (3 < 4): damage 2, 2 die, the
     * center stays. 5 soldiers capture: every defender dies but the center, which the
     * attacker takes with the tile. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 3;
    b.defense.units[SOLDIER] = 3;
    b.defense.units[CENTER] = 1;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(!r.captured);
    cr_expect_eq(r.losses[D].units[SOLDIER], 2);
    cr_expect_eq(r.losses[D].units[CENTER], 0);
    b.attack.units[SOLDIER] = 5;
    r = resolve(&rules, &b);
    cr_expect(r.captured);
    cr_expect_eq(r.losses[D].units[SOLDIER], 3);
    cr_expect_eq(r.survivors[D].units[CENTER], 1);
    cr_expect_eq(r.damage, 4); /* 4 soldiers of 5 die, 1 moves in */
    cr_expect_eq(r.moved_in_units[SOLDIER], 1);
}

Test(duper_core, d8_a_tie_fails_without_a_capital) {
    /* 9 soldiers on level 1: DP 10 vs 10 soldiers: a tie fails. Damage 10 − 1 = 9 kills all
     * 9 defenders, yet the tile stays the defender's. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 10;
    b.defense.units[SOLDIER] = 9;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(r.tie);
    cr_expect(!r.captured);
    cr_expect_eq(r.losses[D].units[SOLDIER], 9);
    cr_expect_eq(r.losses[A].units[SOLDIER], 10);
    cr_expect(!r.eliminated[D]);
}

Test(duper_core, d8_a_tie_on_a_capital_captures_and_eliminates) {
    /* Capital lv1 (9) on level 1: DP 10 vs 10 soldiers: a tie on a capital is a success. The
     * capital dies (defender eliminated); the attackers take 10 damage: all 10 soldiers die,
     * the tile is the attacker's with nobody moving in. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 10;
    b.defense.units[CAP1] = 1;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(r.tie);
    cr_expect(r.captured);
    cr_expect_eq(r.damage, 10);
    cr_expect_eq(r.losses[A].units[SOLDIER], 10);
    cr_expect_eq(r.losses[D].units[CAP1], 1);
    cr_expect(r.eliminated[D]);
    cr_expect(!r.eliminated[A]);
    cr_expect(!r.tile_disappears);
    cr_expect(r.card_steal_eligible);
}

Test(duper_core, d8_a_supercapital_tie_eliminates_both_players) {
    /* Supercapital (21) attacks capital lv1 (9) + 8 soldiers on level 3 (4): DP 21. A tie on
     * a capital: captured; the attackers take 21 damage and the supercapital (21 ≤ 21) dies.
     * Both are eliminated and the tile, now the eliminated attacker's, disappears. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.level = 3;
    b.attack.units[SUPER] = 1;
    b.defense.units[CAP1] = 1;
    b.defense.units[SOLDIER] = 8;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 21);
    cr_expect_eq(r.power[D].total, 21);
    cr_expect(r.captured);
    cr_expect_eq(r.losses[A].units[SUPER], 1);
    cr_expect(r.eliminated[A]);
    cr_expect(r.eliminated[D]);
    cr_expect(r.tile_disappears);
}

Test(duper_core, d8_a_supercapital_dies_before_supporting_tanks_on_a_failed_attack) {
    /* Supercapital (21) on level 1 + 1 supporting tank: DP 25. 24 soldiers fail; damage 23:
     * the supercapital (DP 4, on the tile, before support of equal DP) dies, 2 left < 3.
     * The defender is eliminated on a battle it won, and its tile disappears. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.attack.units[SOLDIER] = 24;
    b.defense.units[SUPER] = 1;
    support(&b.defense, 1, false);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(!r.captured);
    cr_expect_eq(r.damage, 23);
    cr_expect_eq(r.losses[D].units[SUPER], 1);
    cr_expect_eq(r.losses[D].support_tanks[0], 0);
    cr_expect(r.eliminated[D]);
    cr_expect(r.tile_disappears);
    cr_expect(r.card_steal_eligible);
}

Test(duper_core, d9_npc_tiles_have_no_buffs_and_no_elimination) {
    /* 5 larvae, NPC: DP 5 (no tile buff, no key buff, level ignored). 5 soldiers: a tie
     * fails; damage = 5 − 0 = 5 kills all 5 larvae. 6 soldiers capture; 5 damage: 1 moves in. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = battle();
    b.npc = true;
    b.level = 3;
    b.keys = 0;
    b.attack.units[SOLDIER] = 5;
    b.defense.units[LARVA] = 5;
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[D].total, 5);
    cr_expect_eq(r.power[D].tile_buff, 0);
    cr_expect(!r.captured);
    cr_expect_eq(r.damage, 5);
    cr_expect_eq(r.losses[D].units[LARVA], 5);
    cr_expect(!r.eliminated[D] && !r.tile_disappears);
    b.attack.units[SOLDIER] = 6;
    r = resolve(&rules, &b);
    cr_expect(r.captured);
    cr_expect_eq(r.moved_in_units[SOLDIER], 1);
}

Test(duper_core, d10_the_draw_follows_the_documented_splitmix64) {
    /* An independent splitmix64 (Vigna's reference constants): steal iff x mod 10^6 < p. */
    for (uint64_t seed = 0; seed < 2000; seed++) {
        uint64_t z = seed + 0x9E3779B97F4A7C15u;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        z ^= z >> 31;
        bool expected = z % 1000000u < 350000u; /* z ≥ the limit has probability ~3e-14 */
        cr_assert_eq(cbd_duper_card_steal_draw(seed, 350000), expected, "seed %llu",
                     (unsigned long long)seed);
    }
    /* The reference splitmix64 from seed 0 outputs 0xE220A8397B1DCDAF first. */
    cr_expect_eq(cbd_duper_card_steal_draw(0, 1000000), true);
    cr_expect_eq(0xE220A8397B1DCDAFu % 1000000u < 350000u, cbd_duper_card_steal_draw(0, 350000));
    for (uint64_t seed = 0; seed < 100; seed++) {
        cr_expect(!cbd_duper_card_steal_draw(seed, 0));
        cr_expect(cbd_duper_card_steal_draw(seed, CBD_MICRO_ONE));
    }
}

/* D11's attack: 3 planes (12) loading 2 tanks, with 5 soldiers and a fort at home and 1
 * supporting tank (3), so AP 15, against `soldiers` on a level-1 tile. */
static cbd_duper_battle long_distance_attack(uint64_t soldiers) {
    cbd_duper_battle b = battle();
    b.kind = CBD_DUPER_LONG_DISTANCE;
    b.attack.units[PLANE] = 3;
    b.attack.units[SOLDIER] = 5;
    b.attack.units[FORT] = 1;
    b.attack.loaded[TANK] = 2;
    support(&b.attack, 1, false);
    b.defense.units[SOLDIER] = soldiers;
    return b;
}

Test(duper_core, d11_long_distance_uses_only_the_planes) {
    /* AP 15 vs 10 soldiers on level 1 (11): captured. Damage 11: 2 planes die (8), 3 left
     * < 4 ends it (the supporting tank survives, D4). The plane and its 2 tanks move in;
     * the soldiers and the fort stay. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = long_distance_attack(10);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect_eq(r.power[A].total, 15);
    cr_expect_eq(r.power[A].units[SOLDIER], 0);
    cr_expect_eq(r.power[A].units[FORT], 0);
    cr_expect(r.captured);
    cr_expect_eq(r.losses[A].units[PLANE], 2);
    cr_expect_eq(r.losses[A].support_tanks[0], 0);
    cr_expect_eq(r.moved_in_units[PLANE], 1);
    cr_expect_eq(r.moved_in_units[SOLDIER], 0);
    cr_expect_eq(r.moved_in_loaded[TANK], 2);
    cr_expect_eq(r.survivors[A].units[SOLDIER], 5);
    cr_expect_eq(r.survivors[A].units[FORT], 1);
}

Test(duper_core, d11_a_failed_long_distance_attack_spares_the_troops_at_home) {
    /* Same attack against 20 soldiers (21): fails; planes, loaded tanks and the supporting
     * tank die; soldiers and fort at home survive. Damage 15 − 1 = 14 soldiers die. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_battle b = long_distance_attack(20);
    cbd_duper_result r = resolve(&rules, &b);
    cr_expect(!r.captured);
    cr_expect_eq(r.losses[A].units[PLANE], 3);
    cr_expect_eq(r.losses[A].loaded[TANK], 2);
    cr_expect_eq(r.losses[A].support_tanks[0], 1);
    cr_expect_eq(r.losses[A].units[SOLDIER], 0);
    cr_expect_eq(r.losses[A].units[FORT], 0);
    cr_expect_eq(r.losses[D].units[SOLDIER], 14);
}

Test(duper_core, the_core_refuses_unsafe_input) {
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_result r;
    cbd_duper_battle b = battle();
    b.attack.units[PLANE] = 0;
    b.attack.loaded[SOLDIER] = 1; /* D5: no plane carries nothing */
    cr_expect_eq(cbd_duper_resolve(&rules, &b, 0, &r), CBD_ERR_INVALID);
    /* D5: loaded troops travel on with the planes that survive, so one plane may still carry
     * them in a later battle on a board (a request's tile needs 2, checked by the API). */
    b.attack.units[PLANE] = 1;
    cr_expect_eq(cbd_duper_resolve(&rules, &b, 0, &r), CBD_OK);
    b = battle();
    b.level = 4;
    cr_expect_eq(cbd_duper_resolve(&rules, &b, 0, &r), CBD_ERR_INVALID);
    b = battle();
    b.attack.units[SOLDIER] = CBD_DUPER_MAX_COUNT + 1;
    cr_expect_eq(cbd_duper_resolve(&rules, &b, 0, &r), CBD_ERR_INVALID);
    b = battle();
    rules.units[TANK].power = CBD_DUPER_MAX_POWER + 1;
    cr_expect_eq(cbd_duper_resolve(&rules, &b, 0, &r), CBD_ERR_INVALID);
}
