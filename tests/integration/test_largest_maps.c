/*
 * The game's largest maps with the shipped configuration (config/combatd.json): a board of
 * 4,000 territories, 820 bonuses, 6 players and 1,000 orders (tests/support/largest_map.h) is
 * answered 200 by every endpoint that takes a turn, in combatd's shape and in the game's, with
 * the numbers its orders make certain: each of players 2-6's 400 attacks of 5 on 3 at luck 0
 * captures (W1, W2, W4), leaving 3 on the target and 1 on the source; and player 1, holding
 * 1,040 territories, with 100 armies and 20 goals each beside one of its territories of 3, takes
 * all 20 surely (5 more on each: 7 v 3 kills round(4.2) = 4), the most a plan can be worth.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "config/config.h"
#include "http_client.h"
#include "largest_map.h"

static void start_shipped(void) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/config/combatd.json", dir ? dir : ".");
    cbd_settings cfg;
    cbd_problem p;
    cbd_problem_init(&p);
    cbd_settings_defaults(&cfg);
    cr_assert(cbd_config_load_file(&cfg, path, &p), "%s: %s", path, p.detail);
    cfg.server.port = 0;
    cfg.server.access_log = false;
    test_suite_start_with(&cfg);
}

TestSuite(largest_maps, .init = start_shipped, .fini = test_suite_stop, .timeout = 120);

/* Row 20, column 0 (id 1601) is player 3's, attacked from row 19 (id 1521) by player 2. */
#define TARGET "1601"
#define SOURCE "1521"

static void post(const char *path, char *body, test_response *r) {
    cr_assert_eq(test_post_json(test_port, path, body, r), 0);
    cr_assert_eq(r->status, 200, "%s: %.600s", path, r->body);
    free(body);
}

Test(largest_maps, bodies_are_the_size_of_the_games_largest) {
    char *mine = lm_combatd_turn(""), *game = lm_game_turn("");
    /* Past the battle endpoints' 64 KiB, within the maps' 2 MiB: the game's JSON 0.8 MB. */
    cr_expect_gt(strlen(mine), 300000u);
    cr_expect_gt(strlen(game), 800000u);
    cr_expect_lt(strlen(game), 2097152u);
    free(mine);
    free(game);
}

Test(largest_maps, analyze_turn) {
    test_response r;
    post("/analyze-turn", lm_combatd_turn(""), &r);
    cr_expect_float_eq(json_number_at(r.json, "territories/t" TARGET "/owner/p2"), 1.0, 0);
    cr_expect_float_eq(json_number_at(r.json, "territories/t" TARGET "/armies/mean"), 3.0, 0);
    cr_expect_float_eq(json_number_at(r.json, "territories/t" SOURCE "/armies/mean"), 1.0, 0);
    cr_expect_eq(json_object_size(json_walk(r.json, "territories")), LM_TERRITORIES);
    test_response_free(&r);
}

Test(largest_maps, simulate_turn) {
    test_response r;
    post("/simulate-turn", lm_combatd_turn("\"trials\": 10, \"seed\": 7"), &r);
    cr_expect_float_eq(json_number_at(r.json, "territories/t" TARGET "/owner/p2"), 10, 0);
    test_response_free(&r);
}

Test(largest_maps, warzone_analyze_turn) {
    test_response r;
    post("/warzone/analyze-turn", lm_game_turn(""), &r);
    cr_expect_float_eq(json_number_at(r.json, "territories/" TARGET "/owner/200"), 1.0, 0);
    test_response_free(&r);
}

Test(largest_maps, warzone_simulate_turn) {
    test_response r;
    post("/warzone/simulate-turn", lm_game_turn("\"seed\": 7"), &r);
    const json_t *standing = json_walk(r.json, "standing");
    cr_assert(json_is_array(standing), "%.300s", r.body);
    const json_t *t = json_array_get(standing, 1600); /* in the map's order: id 1601 */
    cr_expect_str_eq(json_string_value(json_object_get(t, "terrID")), TARGET);
    cr_expect_str_eq(json_string_value(json_object_get(t, "ownedBy")), "200");
    cr_expect_str_eq(json_string_value(json_object_get(t, "armies")), "3");
    test_response_free(&r);
}

/* The goal: row 13's first 20 territories (ids 1041-1060), each below one of player 1's. */
static void goal_ids(char *out, size_t size, const char *prefix, bool quoted) {
    size_t n = 0;
    for (int c = 0; c < 20; c++) {
        n += (size_t)snprintf(out + n, size - n, "%s%s%s%d%s", c ? ", " : "", quoted ? "\"" : "",
                              prefix, lm_id(LM_OWN_ROWS, c), quoted ? "\"" : "");
    }
}

Test(largest_maps, plan_turn_for_the_player_holding_1040) {
    char goal[400], extra[600];
    goal_ids(goal, sizeof goal, "t", true);
    snprintf(extra, sizeof extra,
             "\"player\": \"p1\", \"income\": 100, \"objective\": \"expected\", "
             "\"goal\": {\"capture\": [%s]}",
             goal);
    test_response r;
    post("/plan-turn", lm_combatd_turn(extra), &r);
    cr_expect_float_eq(json_number_at(r.json, "value"), 20.0, 1e-9, "%.400s", r.body);
    test_response_free(&r);
}

Test(largest_maps, warzone_plan_turn_for_the_player_holding_1040) {
    char goal[400], extra[600];
    goal_ids(goal, sizeof goal, "", false);
    snprintf(extra, sizeof extra,
             "\"playerID\": \"100\", \"income\": 100, \"objective\": \"expected\", "
             "\"goal\": {\"territories\": [%s]}",
             goal);
    test_response r;
    post("/warzone/plan-turn", lm_game_turn(extra), &r);
    cr_expect_float_eq(json_number_at(r.json, "value"), 20.0, 1e-9, "%.400s", r.body);
    test_response_free(&r);
}

/* W48 on the largest map: player 1's position plan, every other player's orders given (W49's
 * one scenario, "given"), is answered with the shipped config. */
Test(largest_maps, position_plan_for_the_player_holding_1040) {
    test_response r;
    post("/plan-turn",
         lm_combatd_turn("\"player\": \"p1\", \"income\": 100, \"objective\": \"position\""), &r);
    json_t *scenarios = json_object_get(r.json, "scenarios");
    cr_expect_eq(json_array_size(scenarios), 1, "%.400s", r.body);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(scenarios, 0), "name")),
                     "given");
    cr_expect_geq(json_number_at(r.json, "plans_evaluated"), 1.0);
    test_response_free(&r);
}
