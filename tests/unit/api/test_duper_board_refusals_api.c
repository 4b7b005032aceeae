/*
 * The board endpoints' refusals: every bad board's 422 with its exact
 * pointer, one answer listing every bad reference, and the limits from the config.
 */
#include "board_api_test.h"

#define ATTACK_A1_B1 "{'from': 'a1', 'to': 'b1'}"

Test(board_refusals, a_tile_breaking_d12s_shape_is_named_by_its_class) {
    /* D12: soldiers and tanks are both ground classes; the second one listed is at fault. */
    expect_422(BATTLE,
               q(EX_BOARD("'a1': {'owner': 'red', 'units': {'soldier': 1, 'tank': 2}},"
                          " 'b1': {'owner': 'blue', 'units': {'tank': 1}}",
                          "['a1', 'b1']", "") EX_ATTACK(ATTACK_A1_B1)),
               "/board/tiles/a1/units/tank", "one ground troop class");
    /* D5: loaded troops with no plane to carry them. (One plane may carry on a board: it is
     * what a battle leaves when one plane of a stack survives; see the test below.) */
    expect_422(BATTLE,
               q(EX_BOARD("'a1': {'owner': 'red', 'units': {'soldier': 1}, 'loaded': {'tank': 1}},"
                          " 'b1': {'owner': 'blue', 'units': {'tank': 1}}",
                          "['a1', 'b1']", "") EX_ATTACK(ATTACK_A1_B1)),
               "/board/tiles/a1/loaded", "at least 1 plane");
    /* D9: larvae only on NPC tiles. */
    expect_422(OPTIONS,
               q(EX_BOARD("'a1': {'owner': 'red', 'units': {'larva': 1}}", "", "") ", 'player': "
                                                                                   "'red'}"),
               "/board/tiles/a1/units/larva", NULL);
}

Test(board_refusals, an_unknown_tile_in_adjacent_or_an_attack) {
    expect_422(BATTLE,
               q(EX_BOARD(EX_TILES, "['a1', 'b1'], ['a1', 'a2'], ['b1', 'b2'], ['a1', 'zz']", "")
                     EX_ATTACK(ATTACK_A1_B1)),
               "/board/adjacent/3/1", "no tile");
    expect_422(BATTLE, q(EXAMPLE("{'from': 'a1', 'to': 'zz'}")), "/attacks/0/to", "no tile");
    expect_422(BATTLE, q(EXAMPLE(ATTACK_A1_B1 ", {'from': 'zz', 'to': 'b1'}")), "/attacks/1/from",
               "no tile");
}

Test(board_refusals, a_pair_of_a_tile_with_itself) {
    expect_422(BATTLE,
               q(EX_BOARD(EX_TILES, "['a1', 'b1'], ['b2', 'b2']", "") EX_ATTACK(ATTACK_A1_B1)),
               "/board/adjacent/1", "itself");
}

Test(board_refusals, a_normal_attack_between_tiles_that_are_not_adjacent) {
    /* D14: a2 borders a1 only; a long-distance attack would be legal if a2 had planes. */
    expect_422(BATTLE, q(EXAMPLE("{'from': 'a2', 'to': 'b1', 'kind': 'normal'}")), "/attacks/0/to",
               "not adjacent");
}

Test(board_refusals, an_attack_from_an_npc_tile_or_on_ones_own_tile) {
    expect_422(BATTLE, q(EXAMPLE("{'from': 'n1', 'to': 'a1'}")), "/attacks/0/from", "NPC");
    expect_422(BATTLE, q(EXAMPLE("{'from': 'a1', 'to': 'a2'}")), "/attacks/0/to", "own tile");
}

Test(board_refusals, an_unknown_player_in_keys) {
    expect_422(BATTLE,
               q(EX_BOARD(EX_TILES, EX_PAIRS, "'green': {'red': 1}") EX_ATTACK(ATTACK_A1_B1)),
               "/board/keys/green", "no player");
    expect_422(BATTLE,
               q(EX_BOARD(EX_TILES, EX_PAIRS, "'blue': {'green': 1}") EX_ATTACK(ATTACK_A1_B1)),
               "/board/keys/blue/green", "no player");
    expect_422(BATTLE,
               q(EX_BOARD(EX_TILES, EX_PAIRS, "'blue': {'red': 1001}") EX_ATTACK(ATTACK_A1_B1)),
               "/board/keys/blue/red", "0 to 1000");
}

Test(board_refusals, a_level_outside_1_to_3) {
    expect_422(BATTLE,
               q(EX_BOARD("'a1': {'owner': 'red', 'units': {'soldier': 1}},"
                          " 'b1': {'owner': 'blue', 'level': 4, 'units': {'tank': 1}}",
                          "['a1', 'b1']", "") EX_ATTACK(ATTACK_A1_B1)),
               "/board/tiles/b1/level", "1 to 3");
    expect_422(BATTLE,
               q(EX_BOARD("'a1': {'owner': 'red', 'level': 0, 'units': {'soldier': 1}},"
                          " 'b1': {'owner': 'blue', 'units': {'tank': 1}}",
                          "['a1', 'b1']", "") EX_ATTACK(ATTACK_A1_B1)),
               "/board/tiles/a1/level", "1 to 3");
}

Test(board_refusals, unknown_members_and_missing_ones) {
    expect_422(BATTLE, q("{'board': {'tiles': {}}, 'attacks': [], 'extra': 1}"), "/extra", "known");
    expect_422(BATTLE, q("{'board': {'tiles': {}, 'edges': []}, 'attacks': []}"), "/board/edges",
               "known");
    expect_422(BATTLE, q(EXAMPLE("{'from': 'a1', 'to': 'b1', 'via': 'a2'}")), "/attacks/0/via",
               "known");
    expect_422(BATTLE, q(EX_BOARD("'a1': {'owner': 'red', 'colour': 'red'}", "", "") EX_ATTACK("")),
               "/board/tiles/a1/colour", "known");
    expect_422(BATTLE, q("{'attacks': []}"), "/board", "required");
    expect_422(BATTLE, q("{'board': {'tiles': {}}}"), "/attacks", "required");
    expect_422(BATTLE, q("{'board': {}, 'attacks': []}"), "/board/tiles", "required");
    expect_422(BATTLE, q("{'board': {'tiles': {'a1': {}}}, 'attacks': []}"),
               "/board/tiles/a1/owner", "required");
    expect_422(BATTLE, q(EX_BOARD(EX_TILES, "['a1']", "") EX_ATTACK("")), "/board/adjacent/0",
               "pair");
    expect_422(BATTLE, q(EXAMPLE("{'from': 'a1', 'to': 'b1', 'kind': 'far'}")), "/attacks/0/kind",
               "normal, long_distance");
    expect_422(BATTLE,
               q(EX_BOARD(EX_TILES, EX_PAIRS, "") ", 'attacks': [], 'seed': 9007199254740992}"),
               "/seed", NULL);
    expect_422(OPTIONS, q(EX_BOARD(EX_TILES, EX_PAIRS, "") ", 'player': 'green'}"), "/player",
               "holding a tile");
    expect_422(OPTIONS, q(EX_BOARD(EX_TILES, EX_PAIRS, "") ", 'player': 'npc'}"), "/player", NULL);
    expect_422(OPTIONS, q(EX_BOARD(EX_TILES, EX_PAIRS, "") "}"), "/player", "required");
}

Test(board_refusals, the_limits_come_from_the_config) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    /* The defaults fit a real match (docs/configuration.md). */
    cr_expect_eq(cfg.duper_board.max_board_tiles, 2000);
    cr_expect_eq(cfg.duper_board.max_board_pairs, 8000);
    cr_expect_eq(cfg.duper_board.max_board_attacks, 64);
    cfg.duper_board.max_board_tiles = 4;
    expect_422_cfg(&cfg, BATTLE, q(EXAMPLE(ATTACK_A1_B1)), "/board/tiles", "max_board_tiles");
    cbd_config_defaults(&cfg);
    cfg.duper_board.max_board_pairs = 3;
    expect_422_cfg(&cfg, BATTLE, q(EXAMPLE(ATTACK_A1_B1)), "/board/adjacent", "at most 3");
    cbd_config_defaults(&cfg);
    cfg.duper_board.max_board_attacks = 1;
    expect_422_cfg(&cfg, BATTLE, q(EXAMPLE(ATTACK_A1_B1 ", " ATTACK_A1_B1)), "/attacks",
                   "at most 1");
}

Test(board_refusals, a_requests_rules_do_not_take_the_board_keys) {
    /* A request's rules are rules only: the limits are the operator's. */
    expect_422(
        BATTLE,
        q(EX_BOARD(EX_TILES, EX_PAIRS, "") ", 'attacks': [], 'rules': {'max_board_tiles': 9}}"),
        "/rules/max_board_tiles", "known");
}

Test(board_refusals, one_answer_lists_every_bad_reference) {
    /* The pairs and attacks are checked against the tiles as read, so a client sees them all. */
    json_t *doc;
    cr_assert_eq(run(BATTLE,
                     q(EX_BOARD(EX_TILES, "['a1', 'x'], ['b2', 'b2'], ['y', 'a2']", "")
                           EX_ATTACK("{'from': 'n1', 'to': 'a1'}, {'from': 'a1', 'to': "
                                     "'a2'}, {'from': 'z', 'to': 'b1'}")),
                     &doc),
                 422);
    static const char *const pointers[] = {"/board/adjacent/0/1", "/board/adjacent/1",
                                           "/board/adjacent/2/0", "/attacks/0/from",
                                           "/attacks/1/to",       "/attacks/2/from"};
    for (size_t i = 0; i < sizeof pointers / sizeof pointers[0]; i++) {
        cr_expect(has_error(doc, pointers[i], NULL), "no error at %s", pointers[i]);
    }
    cr_expect_eq(json_array_size(json_object_get(doc, "errors")), 6);
    json_decref(doc);
}
