/*
 * Duper on a board (docs/rules.md D13–D17) against values worked out by hand; the arithmetic is
 * in each test's comment. Default unit table (soldier 1/DP1, tank 3/DP2, supporting DP4,
 * plane 4/DP3, fort 7, center 0, capital lv1 9/DP6), tile buff 1/2/4, key buff 2 per key.
 */
#include "duper_board_fixture.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static cbd_duper_board_battle run_one(cbd_duper_board *b, const cbd_duper_rules *rules,
                                      const char *from, const char *to, cbd_duper_kind kind) {
    cbd_duper_attack_spec a = {from, to, kind};
    cbd_duper_board_battle out;
    cbd_duper_board_error err;
    cr_assert_eq(cbd_duper_board_run(b, rules, &a, 1, 7, NULL, &out, &err), CBD_OK, "%s",
                 err.detail ? err.detail : "");
    cr_assert_eq(out.skipped, CBD_DUPER_RAN);
    return out;
}

/* The worked board (docs/rules.md, D13): a1 and a2 red, b1 and b2 blue, n1 the NPCs'; blue holds 2
 * red keys. */
static cbd_duper_board *issue_board(void) {
    static cbd_duper_tile_spec t[5];
    t[0] = tile("a1", "red", 1);
    t[0].units[SOLDIER] = 8, t[0].units[PLANE] = 2, t[0].units[FORT] = 1, t[0].loaded[TANK] = 2;
    t[1] = tile("a2", "red", 1);
    t[1].units[TANK] = 3;
    t[2] = tile("b1", "blue", 3);
    t[2].units[TANK] = 5, t[2].units[CENTER] = 1;
    t[3] = tile("b2", "blue", 1);
    t[3].units[TANK] = 4;
    t[4] = tile("n1", NULL, 1);
    t[4].units[LARVA] = 3;
    static const cbd_duper_pair_spec p[] = {
        {{"a1", "b1"}}, {{"a1", "a2"}}, {{"b1", "b2"}}, {{"a1", "n1"}}};
    static const cbd_duper_keys_spec k[] = {{"blue", "red", 2}};
    return make_board(t, N(t), p, N(p), k, N(k));
}

Test(duper_board, d2_d14_d15_the_issues_worked_example) {
    /* key_buff_per_key 1. Support: a2 (red, 3 tanks) beside a1; b2 (blue, 4 tanks) beside b1;
     * n1 is the NPCs' and supports no one. Attack 8 soldiers + 2 planes·4 + fort 7 + 3 tanks·3
     * = 32 (the loaded tanks count 0, D5). Defense 5 tanks·3 + center 0 + 4 tanks·3 + tile buff
     * 4 + key buff 2·1 = 33. 32 < 33: the attack fails; a1 and a2 lose everything (the fort
     * too, D6). Damage 32 − 4 − 2 = 26: b1's 5 tanks (15, 11 left), then b2's tanks at DP 4:
     * 3 die (9, 2 left), the fourth (3 > 2) survives and ends it. b1 keeps its center. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    rules.key_buff_per_key = 1;
    cbd_duper_board *b = issue_board();
    cbd_duper_board_battle r = run_one(b, &rules, "a1", "b1", NORMAL);
    cr_expect_eq(r.n_support[A], 1);
    cr_expect_eq(r.support[A][0], cbd_duper_board_find(b, "a2"));
    cr_expect_eq(r.n_support[D], 1);
    cr_expect_eq(r.support[D][0], cbd_duper_board_find(b, "b2"));
    cr_expect_eq(r.battle.keys, 2);
    cr_expect_eq(r.result.power[A].total, 32);
    cr_expect_eq(r.result.power[D].total, 33);
    cr_expect(!r.result.captured);
    cr_expect_eq(r.result.damage, 26);
    const cbd_duper_board_tile *a1 = at(b, "a1"), *a2 = at(b, "a2");
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        cr_expect_eq(a1->units[c], 0, "a1 class %d", c);
        cr_expect_eq(a1->loaded[c], 0, "a1 loaded class %d", c);
        cr_expect_eq(a2->units[c], 0, "a2 class %d", c);
    }
    cr_expect_eq(at(b, "b1")->units[TANK], 0);
    cr_expect_eq(at(b, "b1")->units[CENTER], 1);
    cr_expect_eq(at(b, "b1")->owner, cbd_duper_board_player_find(b, "blue"));
    cr_expect_eq(at(b, "b2")->units[TANK], 1);
    cr_expect_eq(at(b, "n1")->units[LARVA], 3);
    cr_expect(at(b, "a1")->present && at(b, "b2")->present);
    cbd_duper_board_destroy(b);
}

Test(duper_board, d2_the_worked_example_with_the_default_key_buff) {
    /* docs/rules.md D2: 32 vs 35 (key buff 2·2), damage 32 − 4 − 4 = 24: 5 tanks (15, 9 left), then
     * 3 supporting tanks (9, 0 left); one supporting tank survives. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_board *b = issue_board();
    cbd_duper_board_battle r = run_one(b, &rules, "a1", "b1", NORMAL);
    cr_expect_eq(r.result.power[D].total, 35);
    cr_expect_eq(r.result.damage, 24);
    cr_expect_eq(at(b, "b2")->units[TANK], 1);
    cbd_duper_board_destroy(b);
}

Test(duper_board, d14_a_tank_tile_beside_both_tiles_supports_its_owners_side) {
    /* x (red, 2 tanks) and y (blue, 1 tank) are each adjacent to both s and t. x supports the
     * attack (beside s), y the defense (beside t). Attack 10 + 2·3 = 16; defense 2 + 3 + tile
     * buff 1 = 6: captured. Damage 6 to the attackers: soldiers first (DP 1): 6 die, 4 move
     * in; x's tanks (DP 4) are untouched. The defenders die outright, y's tank with them. */
    cbd_duper_tile_spec t[4] = {tile("s", "red", 1), tile("t", "blue", 1), tile("x", "red", 1),
                                tile("y", "blue", 1)};
    t[0].units[SOLDIER] = 10;
    t[1].units[SOLDIER] = 2;
    t[2].units[TANK] = 2;
    t[3].units[TANK] = 1;
    cbd_duper_pair_spec p[] = {
        {{"s", "t"}}, {{"s", "x"}}, {{"t", "x"}}, {{"s", "y"}}, {{"t", "y"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_board_battle r = run_one(b, &rules, "s", "t", NORMAL);
    cr_expect_eq(r.n_support[A], 1);
    cr_expect_eq(r.support[A][0], 2);
    cr_expect_eq(r.n_support[D], 1);
    cr_expect_eq(r.support[D][0], 3);
    cr_expect_eq(r.result.power[A].total, 16);
    cr_expect_eq(r.result.power[D].total, 6);
    cr_expect(r.result.captured);
    cr_expect_eq(at(b, "s")->units[SOLDIER], 0);
    cr_expect_eq(at(b, "t")->units[SOLDIER], 4);
    cr_expect_eq(at(b, "t")->owner, cbd_duper_board_player_find(b, "red"));
    cr_expect_eq(at(b, "x")->units[TANK], 2);
    cr_expect_eq(at(b, "y")->units[TANK], 0);
    cr_expect_eq(at(b, "y")->owner, cbd_duper_board_player_find(b, "blue"));
    cbd_duper_board_destroy(b);
}

Test(duper_board, d6_d14_a_supporting_fort_with_tanks_in_the_byte_order_of_ids) {
    /* t (blue, level 2, 3 soldiers) is supported by "a" (2 tanks and a fort) and "B" (1 tank),
     * listed a first; the byte order puts "B" (0x42) before "a" (0x61). Defense 3 + B 3 +
     * a (6 + 7) + tile buff 2 = 21 > 20 soldiers: fails. Damage 20 − 2 = 18: 3 soldiers
     * (15 left); at DP 4: B's tank (12 left), a's 2 tanks (6 left), a's fort 7 > 6 survives.
     * (In listing order a's fort would die and B's tank survive.) */
    cbd_duper_tile_spec t[4] = {tile("s", "red", 1), tile("t", "blue", 2), tile("a", "blue", 1),
                                tile("B", "blue", 1)};
    t[0].units[SOLDIER] = 20;
    t[1].units[SOLDIER] = 3;
    t[2].units[TANK] = 2, t[2].units[FORT] = 1;
    t[3].units[TANK] = 1;
    cbd_duper_pair_spec p[] = {{{"s", "t"}}, {{"t", "a"}}, {{"t", "B"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_board_battle r = run_one(b, &rules, "s", "t", NORMAL);
    cr_assert_eq(r.n_support[D], 2);
    cr_expect_eq(r.support[D][0], 3); /* B */
    cr_expect_eq(r.support[D][1], 2); /* a */
    cr_expect_eq(r.battle.defense.support_fort[1], 1);
    cr_expect_eq(r.result.power[D].total, 21);
    cr_expect_eq(r.result.damage, 18);
    cr_expect_eq(at(b, "t")->units[SOLDIER], 0);
    cr_expect_eq(at(b, "B")->units[TANK], 0);
    cr_expect_eq(at(b, "a")->units[TANK], 0);
    cr_expect_eq(at(b, "a")->units[FORT], 1);
    cr_expect_eq(at(b, "s")->units[SOLDIER], 0);
    cbd_duper_board_destroy(b);
}

Test(duper_board, d11_d14_a_long_distance_attack_supported_around_its_source) {
    /* p (red: 5 soldiers, 3 planes carrying 2 soldiers) attacks f (blue, level 1, 4 soldiers)
     * two steps away; q (red, 2 tanks) beside p supports. Attack 3·4 + 2·3 = 18 (soldiers stay
     * home, D11); defense 4 + 1 = 5: captured. Damage 5: planes first (DP 3): 1 dies (1 left),
     * the second survives. 2 planes with their 2 soldiers move in; p keeps its 5 soldiers. */
    cbd_duper_tile_spec t[4] = {tile("p", "red", 1), tile("q", "red", 1), tile("m", NULL, 1),
                                tile("f", "blue", 1)};
    t[0].units[SOLDIER] = 5, t[0].units[PLANE] = 3, t[0].loaded[SOLDIER] = 2;
    t[1].units[TANK] = 2;
    t[2].units[LARVA] = 1;
    t[3].units[SOLDIER] = 4;
    cbd_duper_pair_spec p[] = {{{"p", "q"}}, {{"p", "m"}}, {{"m", "f"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_board_battle r = run_one(b, &rules, "p", "f", LONG);
    cr_expect_eq(r.n_support[A], 1);
    cr_expect_eq(r.support[A][0], 1);
    cr_expect_eq(r.result.power[A].total, 18);
    cr_expect_eq(r.result.power[D].total, 5);
    cr_expect(r.result.captured);
    cr_expect_eq(at(b, "p")->units[SOLDIER], 5);
    cr_expect_eq(at(b, "p")->units[PLANE], 0);
    cr_expect_eq(at(b, "p")->loaded[SOLDIER], 0);
    cr_expect_eq(at(b, "f")->units[PLANE], 2);
    cr_expect_eq(at(b, "f")->loaded[SOLDIER], 2);
    cr_expect_eq(at(b, "f")->units[SOLDIER], 0);
    cr_expect_eq(at(b, "q")->units[TANK], 2);
    /* A normal attack between tiles that are not adjacent is refused (D14). */
    cbd_duper_attack_spec bad = {"q", "m", NORMAL};
    cbd_duper_board_battle out;
    cbd_duper_board_error err;
    cr_expect_eq(cbd_duper_board_run(b, &rules, &bad, 1, 0, NULL, &out, &err), CBD_ERR_INVALID);
    cr_expect_eq(err.fault, CBD_BOARD_ATTACK_NOT_ADJACENT);
    cbd_duper_board_destroy(b);
}

Test(duper_board, d16_the_second_attack_meets_the_survivors_of_the_first) {
    /* r1 (5 soldiers) on b1 (blue, level 1, 6 soldiers): 5 vs 7 fails; damage 5 − 1 = 4: b1
     * keeps 2. r2 (4 soldiers) on b1: 4 vs 2 + 1 = 3 captures (on the untouched b1, 4 vs 7
     * would fail); damage 3: 3 soldiers die, 1 moves in. */
    cbd_duper_tile_spec t[3] = {tile("r1", "red", 1), tile("r2", "red", 1), tile("b1", "blue", 1)};
    t[0].units[SOLDIER] = 5;
    t[1].units[SOLDIER] = 4;
    t[2].units[SOLDIER] = 6;
    cbd_duper_pair_spec p[] = {{{"r1", "b1"}}, {{"r2", "b1"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_attack_spec a[] = {{"r1", "b1", NORMAL}, {"r2", "b1", NORMAL}};
    cbd_duper_board_battle out[2];
    cbd_duper_board_error err;
    cr_assert_eq(cbd_duper_board_run(b, &rules, a, 2, 40, NULL, out, &err), CBD_OK);
    cr_expect(!out[0].result.captured);
    cr_expect_eq(out[0].result.losses[D].units[SOLDIER], 4);
    cr_expect_eq(out[1].battle.defense.units[SOLDIER], 2);
    cr_expect(out[1].result.captured);
    cr_expect_eq(out[0].seed, 40);
    cr_expect_eq(out[1].seed, 41);
    cr_expect_eq(at(b, "b1")->units[SOLDIER], 1);
    cr_expect_eq(at(b, "b1")->owner, cbd_duper_board_player_find(b, "red"));
    cr_expect_eq(at(b, "r1")->units[SOLDIER], 0);
    cr_expect_eq(at(b, "r2")->units[SOLDIER], 0);
    cbd_duper_board_destroy(b);
}

Test(duper_board, d16_skips_a_lost_source_an_empty_source_and_an_own_target) {
    /* b1 (blue, 10 soldiers) takes r1 (red, 2 soldiers, level 1): 10 vs 3, damage 3, 7 move
     * in. Then r1 → b1 is red's attack from a tile red lost: skipped. b1 → r2 has nothing
     * left on b1: skipped. b2 → r1 targets a tile that is now blue's: skipped. */
    cbd_duper_tile_spec t[4] = {tile("r1", "red", 1), tile("r2", "red", 1), tile("b1", "blue", 1),
                                tile("b2", "blue", 1)};
    t[0].units[SOLDIER] = 2;
    t[1].units[SOLDIER] = 1;
    t[2].units[SOLDIER] = 10;
    t[3].units[SOLDIER] = 5;
    cbd_duper_pair_spec p[] = {{{"r1", "b1"}}, {{"r2", "b1"}}, {{"b2", "r1"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_attack_spec a[] = {
        {"b1", "r1", NORMAL}, {"r1", "b1", NORMAL}, {"b1", "r2", NORMAL}, {"b2", "r1", NORMAL}};
    cbd_duper_board_battle out[4];
    cbd_duper_board_error err;
    cr_assert_eq(cbd_duper_board_run(b, &rules, a, 4, 0, NULL, out, &err), CBD_OK);
    cr_expect_eq(out[0].skipped, CBD_DUPER_RAN);
    cr_expect(out[0].result.captured);
    cr_expect_eq(at(b, "r1")->units[SOLDIER], 7);
    cr_expect_eq(out[1].skipped, CBD_DUPER_SKIP_SOURCE_LOST);
    cr_expect_eq(out[2].skipped, CBD_DUPER_SKIP_NOTHING);
    cr_expect_eq(out[3].skipped, CBD_DUPER_SKIP_TARGET_OWN);
    cr_expect_eq(at(b, "b2")->units[SOLDIER], 5);
    cbd_duper_board_destroy(b);
}

Test(duper_board, d8_d15_a_captured_capital_takes_its_players_tiles_off_the_board) {
    /* r1 (20 soldiers) on c (blue, level 1: capital lv1 + 2 soldiers): 20 vs 9 + 2 + 1 = 12
     * captures; damage 12, 8 soldiers move in. The capital dies: blue is eliminated; b2 leaves
     * the board with its pairs (c–b2, r2–b2); c, now red, stays. r2 → b2 is then skipped.
     * D10: the card steal is drawn with the battle's seed. */
    cbd_duper_tile_spec t[4] = {tile("r1", "red", 1), tile("c", "blue", 1), tile("b2", "blue", 1),
                                tile("r2", "red", 1)};
    t[0].units[SOLDIER] = 20;
    t[1].units[CAP1] = 1, t[1].units[SOLDIER] = 2;
    t[2].units[SOLDIER] = 3;
    t[3].units[SOLDIER] = 5;
    cbd_duper_pair_spec p[] = {{{"r1", "c"}}, {{"c", "b2"}}, {{"r2", "b2"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_attack_spec a[] = {{"r1", "c", NORMAL}, {"r2", "b2", NORMAL}};
    cbd_duper_board_battle out[2];
    cbd_duper_board_error err;
    cr_assert_eq(cbd_duper_board_run(b, &rules, a, 2, 99, NULL, out, &err), CBD_OK);
    cr_expect(out[0].result.captured);
    cr_expect_eq(out[0].result.power[D].total, 12);
    cr_expect(out[0].result.eliminated[D]);
    cr_expect(out[0].result.card_steal_eligible);
    cr_expect_eq(out[0].result.card_stolen, cbd_duper_card_steal_draw(99, 350000));
    int32_t blue = cbd_duper_board_player_find(b, "blue");
    cr_expect(cbd_duper_board_player_eliminated(b, blue));
    cr_expect(at(b, "c")->present);
    cr_expect_eq(at(b, "c")->units[SOLDIER], 8);
    cr_expect_eq(at(b, "c")->units[CAP1], 0);
    cr_expect(!at(b, "b2")->present);
    cr_expect(cbd_duper_board_pair_present(b, 0));
    cr_expect(!cbd_duper_board_pair_present(b, 1));
    cr_expect(!cbd_duper_board_pair_present(b, 2));
    cr_expect_eq(out[1].skipped, CBD_DUPER_SKIP_TARGET_GONE);
    cr_expect_eq(at(b, "r2")->units[SOLDIER], 5);
    cbd_duper_board_destroy(b);
}
