/*
 * POST /warzone/analyze-turn over HTTP (W40–W42): the bot dialect's turn answers what
 * /analyze-turn answers for the same turn in combatd's shape (to the last bit), with the
 * numbers worked by hand; errors are problem+json naming the game's members; other methods are
 * 405 with Allow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"

TestSuite(warzone_http, .init = test_suite_start, .fini = test_suite_stop);

#define GAME_TURN(numArmies, ownedBy)                                                              \
    "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70, \"LuckModifier\": " \
    "\"0.16\", \"MoveOrder\": \"Random\", \"MinimumArmyBonus\": 5}, \"map\": {\"territories\": "   \
    "[{\"id\": 1, \"connectedTo\": [2]}, {\"id\": 2}], \"bonuses\": [{\"id\": 9, \"value\": 3, "   \
    "\"territoryIDs\": [\"1\", \"2\"]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": 100, "       \
    "\"armies\": \"7\"}, {\"terrID\": 2, \"ownedBy\": " ownedBy ", \"armies\": \"4\"}], "          \
    "\"players\": [{\"id\": 100}, {\"id\": 200}], \"orders\": [{\"type\": "                        \
    "\"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, \"to\": 2, "                     \
    "\"numArmies\": " numArmies "}]}"

/*
 * 6 attack 4 at 16 % luck: captured iff X >= 3, X ~ Bin(6, 0.6): 0.8208 (W1; worked in
 * docs/rules.md's W40 example). The same turn in combatd's shape gives the same bits.
 */
Test(warzone_http, w40_same_numbers_as_analyze_turn) {
    test_response g, c;
    cr_assert_eq(test_post_json(test_port, "/warzone/analyze-turn", GAME_TURN("\"6\"", "200"), &g),
                 0);
    cr_assert_eq(g.status, 200, "%s", g.body);
    const char *mine =
        "{\"territories\": {\"1\": {\"owner\": \"100\", \"armies\": 7, \"neighbors\": [\"2\"]}, "
        "\"2\": {\"owner\": \"200\", \"armies\": 4, \"neighbors\": []}}, \"orders\": "
        "[{\"type\": \"attack_transfer\", \"player\": \"100\", \"from\": \"1\", \"to\": \"2\", "
        "\"armies\": 6, \"attack_teammates\": false}], \"settings\": {\"offense_kill_rate\": 0.6, "
        "\"defense_kill_rate\": 0.7, \"luck_modifier\": 0.16, \"multi_attack\": false}, "
        "\"move_order\": \"random\"}";
    cr_assert_eq(test_post_json(test_port, "/analyze-turn", mine, &c), 0);
    cr_assert_eq(c.status, 200, "%s", c.body);
    double p = json_number_at(g.json, "territories/2/owner/100");
    cr_expect(p == json_number_at(c.json, "territories/2/owner/100"), "%s", g.body);
    cr_expect_float_eq(p, 0.8208, 1e-12);
    cr_expect(json_equal(json_walk(g.json, "territories/1/armies"),
                         json_walk(c.json, "territories/1/armies")));
    /* Bonus 9 is 100's iff 2 is taken (1 stays 100's): income 5 + 3 · 0.8208 = 7.4624. */
    cr_expect_float_eq(json_number_at(g.json, "bonuses/9/owner/100"), 0.8208, 1e-12);
    cr_expect_float_eq(json_number_at(g.json, "income/100"), 7.4624, 1e-12);
    cr_expect_float_eq(json_number_at(g.json, "income/200"), 5.0, 1e-12);
    test_response_free(&g);
    test_response_free(&c);
}

/* Errors as problem+json at the game's pointers (W40, W41). */
Test(warzone_http, w41_errors_name_the_games_members) {
    struct {
        const char *body, *pointer;
    } cases[] = {
        {GAME_TURN("\"six\"", "200"), "/orders/0/numArmies"},
        {GAME_TURN("6", "1200034"), "/standing/1/ownedBy"},
        {GAME_TURN("6", "\"Fogged\""), "/standing/1/ownedBy"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_response r;
        cr_assert_eq(test_post_json(test_port, "/warzone/analyze-turn", cases[i].body, &r), 0);
        cr_expect_eq(r.status, 422, "case %zu: %s", i, r.body);
        char ct[128];
        cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct),
                         "application/problem+json");
        cr_expect(has_error(r.json, cases[i].pointer, ""), "case %zu: %s", i, r.body);
        test_response_free(&r);
    }
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/warzone/analyze-turn", NULL, NULL, 0, NULL, &r),
                 0);
    cr_expect_eq(r.status, 405);
    char allow[64];
    cr_expect_str_eq(test_header(&r, "Allow", allow, sizeof allow), "POST, OPTIONS");
    test_response_free(&r);
}

/* Every bad member of one request over HTTP: an override of a bonus the map does not list
 * (W51), a repeated player, and the owner of 2 who is then not a player (W41), all three named
 * at the game's pointers in one problem+json. */
Test(warzone_http, w51_w41_every_bad_member_named) {
    const char *turn = GAME_TURN("6", "200");
    const char *edits[][2] = {
        {"\"MinimumArmyBonus\": 5}",
         "\"MinimumArmyBonus\": 5, \"OverriddenBonuses\": [{\"bonusID\": 8, \"value\": 1}]}"},
        {"{\"id\": 200}]", "{\"id\": \"100\"}]"},
    };
    char body[2][2048];
    const char *from = turn;
    for (size_t i = 0; i < 2; i++) {
        const char *at = strstr(from, edits[i][0]);
        cr_assert(at, "%s", edits[i][0]);
        snprintf(body[i], sizeof body[i], "%.*s%s%s", (int)(at - from), from, edits[i][1],
                 at + strlen(edits[i][0]));
        from = body[i];
    }
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/warzone/analyze-turn", body[1], &r), 0);
    cr_expect_eq(r.status, 422, "%s", r.body);
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/problem+json");
    cr_expect(has_error(r.json, "/settings/OverriddenBonuses/0/bonusID", "is bonus 8,"), "%s",
              r.body);
    cr_expect(has_error(r.json, "/players/1/id", "repeats player 100"), "%s", r.body);
    cr_expect(has_error(r.json, "/standing/1/ownedBy", "is 200, not a player"), "%s", r.body);
    cr_expect_eq(json_array_size(json_walk(r.json, "errors")), 3, "%s", r.body);
    test_response_free(&r);
}

/* /warzone/simulate-turn over HTTP (W40): the same seed gives the same bytes; a seed drawn
 * when none is sent is returned; a Fogged owner is a 422 at its member (W41). */
Test(warzone_http, w40_simulate_turn_reproducible_and_refusals) {
    char body[2048];
    const char *turn = GAME_TURN("\"6\"", "200");
    snprintf(body, sizeof body, "%.*s, \"seed\": 5}", (int)strlen(turn) - 1, turn);
    test_response a, b, c;
    cr_assert_eq(test_post_json(test_port, "/warzone/simulate-turn", body, &a), 0);
    cr_assert_eq(test_post_json(test_port, "/warzone/simulate-turn", body, &b), 0);
    cr_assert_eq(a.status, 200, "%s", a.body);
    cr_expect_str_eq(a.body, b.body);
    cr_expect_eq(json_integer_value(json_walk(a.json, "seed")), 5);
    cr_expect_str_eq(json_string_value(json_walk(a.json, "standing/0/armies")), "1");
    cr_assert_eq(test_post_json(test_port, "/warzone/simulate-turn", GAME_TURN("6", "200"), &c), 0);
    cr_expect_eq(c.status, 200, "%s", c.body);
    cr_expect(json_is_integer(json_walk(c.json, "seed")));
    test_response_free(&a);
    test_response_free(&b);
    test_response_free(&c);
    test_response f;
    cr_assert_eq(
        test_post_json(test_port, "/warzone/simulate-turn", GAME_TURN("6", "\"Fogged\""), &f), 0);
    cr_expect_eq(f.status, 422, "%s", f.body);
    cr_expect(has_error(f.json, "/standing/1/ownedBy", ""), "%s", f.body);
    test_response_free(&f);
}

/* /warzone/plan-turn over HTTP (W31, W40): the same value and optimal as /plan-turn's for the
 * same turn in combatd's shape (the board of tests/integration/test_plan_http.c). */
Test(warzone_http, w40_plan_turn_equals_plan_turn) {
    const char *game =
        "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "
        "0.16, \"MinimumArmyBonus\": 4}, \"map\": {\"territories\": [{\"id\": 1, \"connectedTo\": "
        "[2, 3]}, {\"id\": 2}, {\"id\": 3}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": 100, "
        "\"armies\": 3}, {\"terrID\": 2, \"ownedBy\": 200, \"armies\": 9}, {\"terrID\": 3, "
        "\"ownedBy\": \"Neutral\", \"armies\": 1}], \"orders\": [{\"type\": "
        "\"GameOrderAttackTransfer\", \"playerID\": 200, \"from\": 2, \"to\": 1, \"numArmies\": "
        "8}], \"playerID\": 100, \"goal\": {\"territories\": [3, 1]}, \"objective\": \"expected\"}";
    const char *mine =
        "{\"territories\": {\"1\": {\"owner\": \"100\", \"armies\": 3, \"neighbors\": [\"2\", "
        "\"3\"]}, \"2\": {\"owner\": \"200\", \"armies\": 9, \"neighbors\": []}, \"3\": "
        "{\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}}, \"settings\": "
        "{\"luck_modifier\": 0.16}, \"player\": \"100\", \"income\": 4, \"goal\": {\"capture\": "
        "[\"3\"], \"hold\": [\"1\"]}, \"objective\": \"expected\", \"orders\": [{\"player\": "
        "\"200\", \"from\": \"2\", \"to\": \"1\", \"armies\": 8}]}";
    test_response g, c;
    cr_assert_eq(test_post_json(test_port, "/warzone/plan-turn", game, &g), 0);
    cr_assert_eq(g.status, 200, "%s", g.body);
    cr_assert_eq(test_post_json(test_port, "/plan-turn", mine, &c), 0);
    cr_assert_eq(c.status, 200, "%s", c.body);
    cr_expect(json_number_at(g.json, "value") == json_number_at(c.json, "value"), "%s", g.body);
    cr_expect(json_equal(json_walk(g.json, "optimal"), json_walk(c.json, "optimal")));
    cr_expect_eq(json_array_size(json_walk(g.json, "orders")),
                 json_array_size(json_walk(c.json, "orders")));
    cr_expect_eq(json_integer_value(json_walk(g.json, "orders/0/playerID")), 100);
    test_response_free(&g);
    test_response_free(&c);
}

/*
 * objective "income" (W32) over HTTP: /warzone/plan-turn passes the map's bonuses (bonus 7
 * overridden to 3, bonus 8 of 2 alone worth -2, which is 200's and so not 100's income) and
 * goal.bonuses on to /plan-turn, whose value and optimal it answers: the same as /plan-turn's
 * for the same turn in combatd's shape. Bonus 7 (1 and 3) is 100's iff 3 falls (2 of 1's 7
 * take its 1 surely) and 1 holds (P(Bin(8, 0.6) <= 2) = 0.04980736, tests/unit/api/
 * test_warzone_plan_api.c): 3 · 0.04980736 = 0.14942208.
 */
Test(warzone_http, w32_income_plan_equals_plan_turn) {
    const char *game =
        "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\": "
        "0.16, \"MinimumArmyBonus\": 4, \"OverriddenBonuses\": [{\"bonusID\": 7, \"value\": "
        "\"3\"}, {\"bonusID\": 8, \"value\": -2}]}, \"map\": {\"territories\": [{\"id\": 1, "
        "\"connectedTo\": [2, 3]}, {\"id\": 2}, {\"id\": 3}], \"bonuses\": [{\"id\": 7, \"value\": "
        "1, \"territoryIDs\": [1, 3]}, {\"id\": 8, \"value\": 2, \"territoryIDs\": [2]}]}, "
        "\"standing\": [{\"terrID\": 1, \"ownedBy\": 100, \"armies\": 3}, {\"terrID\": 2, "
        "\"ownedBy\": 200, \"armies\": 9}, {\"terrID\": 3, \"ownedBy\": \"Neutral\", \"armies\": "
        "1}], \"orders\": [{\"type\": \"GameOrderAttackTransfer\", \"playerID\": 200, \"from\": 2, "
        "\"to\": 1, \"numArmies\": 8}], \"playerID\": 100, \"income\": 4, \"goal\": {\"bonuses\": "
        "[7]}, \"objective\": \"income\"}";
    const char *mine =
        "{\"territories\": {\"1\": {\"owner\": \"100\", \"armies\": 3, \"neighbors\": [\"2\", "
        "\"3\"]}, \"2\": {\"owner\": \"200\", \"armies\": 9, \"neighbors\": []}, \"3\": "
        "{\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}}, \"bonuses\": {\"7\": "
        "{\"value\": 3, \"territories\": [\"1\", \"3\"]}, \"8\": {\"value\": -2, \"territories\": "
        "[\"2\"]}}, \"settings\": {\"luck_modifier\": 0.16}, \"move_order\": \"random\", "
        "\"player\": \"100\", \"income\": 4, \"goal\": {\"bonuses\": [\"7\"]}, \"objective\": "
        "\"income\", \"orders\": [{\"player\": \"200\", \"from\": \"2\", \"to\": \"1\", "
        "\"armies\": 8}]}";
    test_response g, c;
    cr_assert_eq(test_post_json(test_port, "/warzone/plan-turn", game, &g), 0);
    cr_assert_eq(g.status, 200, "%s", g.body);
    cr_assert_eq(test_post_json(test_port, "/plan-turn", mine, &c), 0);
    cr_assert_eq(c.status, 200, "%s", c.body);
    double v = json_number_at(g.json, "value");
    cr_expect(v == json_number_at(c.json, "value"), "%s\n%s", g.body, c.body);
    cr_expect_float_eq(v, 0.14942208, 1e-12, "%s", g.body);
    cr_expect(json_equal(json_walk(g.json, "optimal"), json_walk(c.json, "optimal")));
    cr_expect(json_is_true(json_walk(g.json, "optimal")), "%s", g.body);
    cr_expect_eq(json_array_size(json_walk(g.json, "orders")),
                 json_array_size(json_walk(c.json, "orders")));
    cr_expect(json_number_at(c.json, "analysis/bonuses/7/owner/100") == 0.04980736, "%s", c.body);
    test_response_free(&g);
    test_response_free(&c);
}
