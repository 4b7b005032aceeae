/*
 * POST /duper/board/battle and /duper/board/options at the JSON layer (no socket): the worked
 * example on a board, hand-worked battles from D1–D17 and an options list checked attack by
 * attack. The refusals are in test_duper_board_refusals_api.c.
 */
#include "board_api_test.h"

Test(board_api, the_worked_example_on_a_board) {
    /* D2 with 1 per key, D14: a2 supports a1 (adjacent, tanks), b2 supports b1; n1 is no one's
     * support. 8 + 8 + 7 + 9 = 32 against 15 + 12 + 4 + 2 = 33: the attack fails. 26 damage
     * to the defense: b1's 5 tanks (DP 2, 15), then b2's supporting tanks (DP 4): 3 die (9),
     * 2 remain < 3, so 1 survives. The attackers are all gone (D6: the fort dies on failure). */
    json_t *r;
    cr_assert_eq(run(BATTLE, q(EXAMPLE("{'from': 'a1', 'to': 'b1', 'kind': 'normal'}")), &r), 200);
    cr_expect(json_is_false(json_walk(r, "battles/0/skipped")));
    expect_json(r, "battles/0/support", "{'attack': ['a2'], 'defense': ['b2']}");
    cr_expect_eq(at(r, "battles/0/attack_power"), 32);
    cr_expect_eq(at(r, "battles/0/defense_power"), 33);
    cr_expect(json_is_false(json_walk(r, "battles/0/captured")));
    cr_expect_eq(at(r, "battles/0/damage/to_defender"), 26);
    cr_expect_eq(at(r, "battles/0/survivors/defense/support/0/tanks"), 1);
    cr_expect_str_eq(str(r, "battles/0/tile_owner"), "blue");
    cr_expect_eq(at(r, "battles/0/seed"), 7);
    expect_json(r, "board/tiles/a1", "{'owner': 'red', 'level': 1, 'units': {}}");
    expect_json(r, "board/tiles/a2", "{'owner': 'red', 'level': 1, 'units': {}}");
    expect_json(r, "board/tiles/b1", "{'owner': 'blue', 'level': 3, 'units': {'center': 1}}");
    expect_json(r, "board/tiles/b2", "{'owner': 'blue', 'level': 1, 'units': {'tank': 1}}");
    expect_json(r, "board/tiles/n1", "{'owner': 'npc', 'level': 1, 'units': {'larva': 3}}");
    expect_json(r, "board/adjacent", "[" EX_PAIRS "]");
    expect_json(r, "board/keys", "{'blue': {'red': 2}}");
    cr_expect_eq(at(r, "seed"), 7);
    json_decref(r);
}

Test(board_api, a_supporting_fort_with_tanks_and_a_capture) {
    /* D6, D14: A (2 tanks + fort) supports S: 5 + 6 + 7 = 18 against T's 3 soldiers + level-1
     * buff 1 = 4. Success: the attackers take 4 (D8): 4 of S's soldiers (DP 1) die, the 5th
     * survives and moves in; the supporting tile keeps everything (D15). */
    json_t *r;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {'S': {'owner': 'red', 'units': {'soldier': 5}},"
                       " 'A': {'owner': 'red', 'units': {'tank': 2, 'fort': 1}},"
                       " 'T': {'owner': 'blue', 'units': {'soldier': 3}}},"
                       " 'adjacent': [['S', 'T'], ['A', 'S']]},"
                       " 'attacks': [{'from': 'S', 'to': 'T'}], 'seed': 1}"),
                     &r),
                 200);
    expect_json(r, "battles/0/support", "{'attack': ['A'], 'defense': []}");
    cr_expect_eq(at(r, "battles/0/attack_power"), 18);
    cr_expect_eq(at(r, "battles/0/defense_power"), 4);
    cr_expect(json_is_true(json_walk(r, "battles/0/captured")));
    expect_json(r, "board/tiles",
                "{'S': {'owner': 'red', 'level': 1, 'units': {}},"
                " 'A': {'owner': 'red', 'level': 1, 'units': {'tank': 2, 'fort': 1}},"
                " 'T': {'owner': 'red', 'level': 1, 'units': {'soldier': 1}}}");
    json_decref(r);
}

Test(board_api, a_long_distance_attack_with_support_around_the_source) {
    /* D11, D14: only S's 2 planes (8) attack, with A's tank adjacent to S (3): 11. T (not
     * adjacent to S) has 2 soldiers + D's supporting tank (3) + buff 1 = 6. Success: 6 damage
     * to the attackers: a plane (DP 3, 4) dies, 2 < 4 saves the other, which moves in; S keeps
     * its 4 soldiers (D15). 11 damage to the defense: 2 soldiers, then D's tank (3) die. */
    json_t *r;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {'S': {'owner': 'red', 'units': {'soldier': 4, "
                       "'plane': 2}},"
                       " 'A': {'owner': 'red', 'units': {'tank': 1}},"
                       " 'T': {'owner': 'blue', 'units': {'soldier': 2}},"
                       " 'D': {'owner': 'blue', 'units': {'tank': 1}}},"
                       " 'adjacent': [['S', 'A'], ['T', 'D']]},"
                       " 'attacks': [{'from': 'S', 'to': 'T', 'kind': 'long_distance'}], "
                       "'seed': 1}"),
                     &r),
                 200);
    expect_json(r, "battles/0/support", "{'attack': ['A'], 'defense': ['D']}");
    cr_expect_eq(at(r, "battles/0/attack_power"), 11);
    cr_expect_eq(at(r, "battles/0/defense_power"), 6);
    expect_json(r, "board/tiles",
                "{'S': {'owner': 'red', 'level': 1, 'units': {'soldier': 4}},"
                " 'A': {'owner': 'red', 'level': 1, 'units': {'tank': 1}},"
                " 'T': {'owner': 'red', 'level': 1, 'units': {'plane': 1}},"
                " 'D': {'owner': 'blue', 'level': 1, 'units': {}}}");
    json_decref(r);
}

Test(board_api, the_second_attack_meets_the_survivors_of_the_first) {
    /* D16: S's 2 soldiers fail against T (3 + buff 1 = 4); the defenders take 2 − 1 (the tile
     * buff) = 1: one soldier dies. S2's 4 soldiers then meet 2 soldiers + 1 = 3 (with all 3 it
     * would be a tie, a failure): success, 3 damage, 1 moves in. */
    json_t *r;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {'S': {'owner': 'red', 'units': {'soldier': 2}},"
                       " 'S2': {'owner': 'red', 'units': {'soldier': 4}},"
                       " 'T': {'owner': 'blue', 'units': {'soldier': 3}}},"
                       " 'adjacent': [['S', 'T'], ['S2', 'T']]},"
                       " 'attacks': [{'from': 'S', 'to': 'T'}, {'from': 'S2', 'to': 'T'}],"
                       " 'seed': 5}"),
                     &r),
                 200);
    cr_expect(json_is_false(json_walk(r, "battles/0/captured")));
    cr_expect_eq(at(r, "battles/0/damage/to_defender"), 1);
    cr_expect_eq(at(r, "battles/1/attack_power"), 4);
    cr_expect_eq(at(r, "battles/1/defense_power"), 3);
    cr_expect(json_is_true(json_walk(r, "battles/1/captured")));
    cr_expect_eq(at(r, "battles/0/seed"), 5);
    cr_expect_eq(at(r, "battles/1/seed"), 6); /* seed + i (duper_board.h) */
    expect_json(r, "board/tiles",
                "{'S': {'owner': 'red', 'level': 1, 'units': {}},"
                " 'S2': {'owner': 'red', 'level': 1, 'units': {}},"
                " 'T': {'owner': 'red', 'level': 1, 'units': {'soldier': 1}}}");
    json_decref(r);
}

Test(board_api, an_attack_whose_source_was_lost_is_skipped) {
    /* D16: blue's 10 soldiers take R (1 + 1 = 2); red's later attack from R is skipped. */
    json_t *r;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {'B': {'owner': 'blue', 'units': {'soldier': "
                       "10}},"
                       " 'R': {'owner': 'red', 'units': {'soldier': 1}}},"
                       " 'adjacent': [['B', 'R']]},"
                       " 'attacks': [{'from': 'B', 'to': 'R'}, {'from': 'R', 'to': 'B'}],"
                       " 'seed': 5}"),
                     &r),
                 200);
    cr_expect(json_is_true(json_walk(r, "battles/0/captured")));
    expect_json(r, "battles/1", "{'skipped': 'source_lost'}");
    expect_json(r, "board/tiles/R", "{'owner': 'blue', 'level': 1, 'units': {'soldier': 8}}");
    json_decref(r);
}

Test(board_api, a_captured_capital_takes_its_players_tiles_off_the_board) {
    /* D8, D15, D16: 20 soldiers against a capital lv1 (9) + buff 1 + blue's red key (D2: 2)
     * = 12: captured, blue is eliminated, B2 leaves the board with its pair, the keys between
     * red and blue go, and the later attack on B2 is skipped. The attackers take 12: 8 move
     * in. */
    json_t *r;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {'S': {'owner': 'red', 'units': {'soldier': 20}},"
                       " 'T': {'owner': 'blue', 'units': {'capital_lv1': 1}},"
                       " 'S2': {'owner': 'red', 'units': {'soldier': 3}},"
                       " 'B2': {'owner': 'blue', 'units': {'soldier': 1}}},"
                       " 'adjacent': [['S', 'T'], ['S2', 'B2'], ['S', 'S2']],"
                       " 'keys': {'blue': {'red': 1}, 'red': {'blue': 2}}},"
                       " 'attacks': [{'from': 'S', 'to': 'T'}, {'from': 'S2', 'to': 'B2'}],"
                       " 'seed': 5}"),
                     &r),
                 200);
    cr_expect_eq(at(r, "battles/0/defense_power"), 12);
    expect_json(r, "battles/0/eliminated", "['blue']");
    cr_expect(json_is_true(json_walk(r, "battles/0/card_steal/eligible"))); /* D10 */
    expect_json(r, "battles/1", "{'skipped': 'target_gone'}");
    expect_json(r, "board",
                "{'tiles': {'S': {'owner': 'red', 'level': 1, 'units': {}},"
                " 'T': {'owner': 'red', 'level': 1, 'units': {'soldier': 8}},"
                " 'S2': {'owner': 'red', 'level': 1, 'units': {'soldier': 3}}},"
                " 'adjacent': [['S', 'T'], ['S', 'S2']], 'keys': {}}");
    json_decref(r);
}

Test(board_api, options_checked_attack_by_attack) {
    /* D17 on the worked board for red (key buff 1): a2's tanks border only red, so every
     * option starts at a1 (troops and planes). Normal: n1 (32 vs larvae 3, no buffs, D9) and
     * b1 (32 vs 33). Long distance (range 0: anywhere): 8 (planes) + 9 (a2's support) = 17
     * against n1 (3), b2 (12 + 1 + 2 + b1's 15 = 30) and b1 (15 + 4 + 2 + b2's 12 = 33).
     * Margins 29, 14, -1, -13, -16. */
    json_t *r;
    cr_assert_eq(run(OPTIONS,
                     q(EX_BOARD(EX_TILES, EX_PAIRS, "'blue': {'red': 2}") ", 'player': 'red',"
                                                                          " 'rules': "
                                                                          "{'key_buff_per_key': "
                                                                          "1}}"),
                     &r),
                 200);
    expect_json(r, "options",
                "[{'from': 'a1', 'to': 'n1', 'kind': 'normal', 'defender': 'npc',"
                "  'attack_power': 32, 'defense_power': 3, 'captured': true, 'margin': 29,"
                "  'eliminated': [], 'card_steal_possible': false},"
                " {'from': 'a1', 'to': 'n1', 'kind': 'long_distance', 'defender': 'npc',"
                "  'attack_power': 17, 'defense_power': 3, 'captured': true, 'margin': 14,"
                "  'eliminated': [], 'card_steal_possible': false},"
                " {'from': 'a1', 'to': 'b1', 'kind': 'normal', 'defender': 'blue',"
                "  'attack_power': 32, 'defense_power': 33, 'captured': false, 'margin': -1,"
                "  'eliminated': [], 'card_steal_possible': false},"
                " {'from': 'a1', 'to': 'b2', 'kind': 'long_distance', 'defender': 'blue',"
                "  'attack_power': 17, 'defense_power': 30, 'captured': false, 'margin': -13,"
                "  'eliminated': [], 'card_steal_possible': false},"
                " {'from': 'a1', 'to': 'b1', 'kind': 'long_distance', 'defender': 'blue',"
                "  'attack_power': 17, 'defense_power': 33, 'captured': false, 'margin': -16,"
                "  'eliminated': [], 'card_steal_possible': false}]");
    cr_expect_eq(at(r, "count"), 5);
    cr_expect(json_is_false(json_walk(r, "truncated")));
    json_decref(r);
}

Test(board_api, options_are_cut_at_the_configured_cap_with_a_flag) {
    /* The cap keeps the best: the first two of the five above. Range 1 drops the long-distance
     * attacks on b2 (2 steps from a1). */
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.duper_board.max_board_options = 2;
    json_t *r;
    const char *body = q(EX_BOARD(EX_TILES, EX_PAIRS, "") ", 'player': 'red'}");
    cr_assert_eq(run_cfg(&cfg, OPTIONS, body, &r), 200);
    cr_expect_eq(json_array_size(json_walk(r, "options")), 2);
    cr_expect_eq(at(r, "options/1/margin"), 14);
    cr_expect_eq(at(r, "count"), 5);
    cr_expect(json_is_true(json_walk(r, "truncated")));
    json_decref(r);
    cfg.duper_board.long_distance_range = 1;
    cfg.duper_board.max_board_options = 1000;
    cr_assert_eq(run_cfg(&cfg, OPTIONS, body, &r), 200);
    cr_expect_eq(at(r, "count"), 4);
    json_decref(r);
}

Test(board_api, support_found_on_both_sides_in_the_byte_order_of_ids) {
    /* D14: red's A0 and z9 border S and hold tanks: both support the attack, A0 first ('A' <
     * 'z'), z9 although it borders T too. Blue's m borders T (and S): it supports the defense;
     * blue's k borders S only: it does not. 6 + 3 + 3 = 12 against 1 + 3 + 1 = 5: success; the
     * defense all dies (m's tank with it), the attackers take 5: 5 soldiers, 1 moves in. */
    json_t *r;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {'S': {'owner': 'red', 'units': {'soldier': 6}},"
                       " 'z9': {'owner': 'red', 'units': {'tank': 1}},"
                       " 'A0': {'owner': 'red', 'units': {'tank': 1}},"
                       " 'T': {'owner': 'blue', 'units': {'soldier': 1}},"
                       " 'm': {'owner': 'blue', 'units': {'tank': 1}},"
                       " 'k': {'owner': 'blue', 'units': {'tank': 1}}},"
                       " 'adjacent': [['S', 'T'], ['S', 'z9'], ['z9', 'T'], ['A0', 'S'],"
                       " ['m', 'T'], ['m', 'S'], ['k', 'S']]},"
                       " 'attacks': [{'from': 'S', 'to': 'T'}], 'seed': 3}"),
                     &r),
                 200);
    expect_json(r, "battles/0/support", "{'attack': ['A0', 'z9'], 'defense': ['m']}");
    cr_expect_eq(at(r, "battles/0/attack_power"), 12);
    cr_expect_eq(at(r, "battles/0/defense_power"), 5);
    expect_json(r, "board/tiles/T", "{'owner': 'red', 'level': 1, 'units': {'soldier': 1}}");
    expect_json(r, "board/tiles/m", "{'owner': 'blue', 'level': 1, 'units': {}}");
    expect_json(r, "board/tiles/k", "{'owner': 'blue', 'level': 1, 'units': {'tank': 1}}");
    expect_json(r, "board/tiles/z9", "{'owner': 'red', 'level': 1, 'units': {'tank': 1}}");
    json_decref(r);
}

/* A board of `tiles` tiles, the first `red` red (with 2 planes each when `planes`), the rest
 * blue, no pairs: for the cost estimate. */
static json_t *board_of(size_t tiles, size_t red, bool planes) {
    json_t *t = json_object();
    for (size_t i = 0; i < tiles; i++) {
        char id[16];
        snprintf(id, sizeof id, "t%zu", i);
        json_t *units = json_object();
        if (i < red && planes) {
            json_object_set_new(units, "plane", json_integer(2));
        }
        json_object_set_new(
            t, id, json_pack("{s:s,s:o}", "owner", i < red ? "red" : "blue", "units", units));
    }
    return json_pack("{s:{s:o},s:s}", "board", "tiles", t, "player", "red");
}

/*
 * The estimate (src/api/duper/duper_board_cost.c) in units of about a nanosecond, at range 0 and
 * duper.max_board_options 1000: 20,000 for the parse; per tile 650 to read, 100 to build and
 * 3 steps of 2; n · (2 + depth(n)) steps of 2 to rank the tiles and walk them (depth(n): the
 * halvings that bring n to 1, plus 1); per plane tile n steps to walk to its targets; per
 * option 410 (a battle 200, a comparison 10, and 2 · 10 · depth(1000) = 200 to walk down the
 * kept ones), and per kept option 500 to write it and 10 · depth(1000) = 100 to sort it.
 * First the bound that every tile is a plane tile and a target (n/2 of each); past 1 ms the
 * tiles are counted.
 */
Test(board_options_api, the_estimate_tracks_the_long_distance_options) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/duper/board/options");
    cr_assert_not_null(ep);
    cr_assert_not_null(ep->cost);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    /* 30 tiles, bound: 15 · 15 = 225 options. 20000 + 30 · 756 = 22680, steps 30 · (2 + 5)
     * + 15 · 30 = 660 (1320), options 225 · 410 = 92250, kept 225 · 600 = 135000: 271250. */
    json_t *small = board_of(30, 30, false);
    cr_expect_eq(ep->cost(&cfg, small), UINT64_C(271250));
    cr_expect_leq(ep->cost(&cfg, small), cfg.limits.inline_cost_ns);
    /* 500 tiles, 250 of them red plane tiles: 62,500 options, the bound and the count agree.
     * 20000 + 500 · 756 = 378000, steps 500 · (2 + 9) + 250 · 500 = 130500 (261000), options
     * 62500 · 410 = 25625000, 1000 kept · 600 = 600000: 26884000, on the worker pool. */
    json_t *planes = board_of(500, 250, true);
    cr_expect_eq(ep->cost(&cfg, planes), UINT64_C(26884000));
    cr_expect_gt(ep->cost(&cfg, planes), cfg.limits.inline_cost_ns);
    /* 500 red tiles without planes: the bound is past 1 ms, the count finds no option:
     * 20000 + 378000 + 5500 steps (11000) = 409000, on the HTTP thread. */
    json_t *none = board_of(500, 500, false);
    cr_expect_eq(ep->cost(&cfg, none), UINT64_C(409000));
    cr_expect_leq(ep->cost(&cfg, none), cfg.limits.inline_cost_ns);
    json_decref(small);
    json_decref(planes);
    json_decref(none);
}

/*
 * A board combatd answers can be sent back (D5, D15). Red's 2 planes carry a tank on a long-
 * distance attack (D11: only the planes attack, 2 x 4 = 8) into b1, which 3 soldiers hold at
 * level 1 (3 + tile buff 1 = 4; no keys). 8 > 4 captures, and the attackers take 4 damage
 * (D8): the first plane (DP 3, power 4) dies, 0 is left, the second survives and its tank stays
 * loaded (D5). b1 is then red's with 1 plane carrying 1 tank, which the returned board holds
 * and a second request must accept.
 */
Test(board_battle_api, a_returned_board_with_one_carrying_plane_is_accepted) {
    json_t *doc = NULL;
    cr_assert_eq(run(BATTLE,
                     q("{'board': {'tiles': {"
                       "'a1': {'owner': 'red', 'units': {'plane': 2}, 'loaded': {'tank': 1}},"
                       "'b1': {'owner': 'blue', 'units': {'soldier': 3}}}},"
                       " 'attacks': [{'from': 'a1', 'to': 'b1', 'kind': 'long_distance'}],"
                       " 'seed': 1}"),
                     &doc),
                 200);
    cr_expect_eq(at(doc, "battles/0/attack_power"), 8);
    cr_expect_eq(at(doc, "battles/0/defense_power"), 4);
    cr_expect_eq(at(doc, "board/tiles/b1/units/plane"), 1);
    cr_expect_eq(at(doc, "board/tiles/b1/loaded/tank"), 1);
    cr_expect_str_eq(str(doc, "board/tiles/b1/owner"), "red");
    char *board = json_dumps(json_object_get(doc, "board"), JSON_COMPACT);
    cr_assert_not_null(board);
    char body[2048];
    snprintf(body, sizeof body, "{\"board\": %s, \"player\": \"red\"}", board);
    free(board);
    json_decref(doc);
    cr_expect_eq(run(OPTIONS, body, &doc), 200, "%s", body);
    json_decref(doc);
}
