/*
 * POST /duper/battle at the JSON layer (no socket): the contract's field names, every 422
 * naming its field (D12 and the other refusals), the card steal's rate and reproducibility
 * (D10), and the "duper" config section (D1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static const char worked_example[] =
    "{\"attack\": {\"player\": \"red\", \"kind\": \"normal\","
    " \"tile\": {\"units\": {\"soldier\": 8, \"plane\": 2, \"fort\": 1}, \"loaded\": {\"tank\": "
    "2}},"
    " \"support\": [{\"tanks\": 3, \"fort\": false}]},"
    " \"defense\": {\"player\": \"blue\", \"npc\": false, \"keys\": 2,"
    " \"tile\": {\"level\": 3, \"units\": {\"tank\": 5, \"center\": 1}},"
    " \"support\": [{\"tanks\": 4}]},"
    " \"rules\": {\"key_buff_per_key\": 1}, \"seed\": 7}";

/* Runs a body through the endpoint; returns the status and the parsed reply in *out. */
static int run_cfg(const cbd_config *cfg, const char *body, json_t **out) {
    return api_test_run(cfg, "/duper/battle", body, out, NULL);
}

static int run(const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return run_cfg(&cfg, body, out);
}

static json_int_t at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert(json_is_integer(v), "%s is not an integer", path);
    return json_integer_value(v);
}

static void expect_422(const char *body, const char *pointer, const char *needle) {
    json_t *doc;
    int status = run(body, &doc);
    cr_expect_eq(status, 422, "%s", body);
    char *text = json_dumps(doc, JSON_COMPACT);
    cr_expect(has_error(doc, pointer, needle), "expected %s (%s) in %s", pointer,
              needle ? needle : "", text);
    free(text);
    json_decref(doc);
}

Test(duper_api, worked_example_as_written) {
    /* As in test_duper_core: 32 vs 33, 26 damage, 5 + 3 tanks die, 1 survives. */
    json_t *r;
    cr_assert_eq(run(worked_example, &r), 200);
    cr_expect_eq(at(r, "attack_power"), 32);
    cr_expect_eq(at(r, "defense_power"), 33);
    cr_expect_eq(at(r, "power/attack/tile/soldier"), 8);
    cr_expect_eq(at(r, "power/attack/tile/plane"), 8);
    cr_expect_eq(at(r, "power/attack/tile/fort"), 7);
    cr_expect_eq(at(r, "power/attack/loaded/tank"), 0);
    cr_expect_eq(at(r, "power/attack/support/0/tanks"), 9);
    cr_expect_eq(at(r, "power/attack/total"), 32);
    cr_expect_eq(at(r, "power/defense/tile/tank"), 15);
    cr_expect_eq(at(r, "power/defense/tile/center"), 0);
    cr_expect_eq(at(r, "power/defense/support/0/tanks"), 12);
    cr_expect_eq(at(r, "power/defense/tile_buff"), 4);
    cr_expect_eq(at(r, "power/defense/key_buff"), 2);
    cr_expect(json_is_false(json_object_get(r, "captured")));
    cr_expect(json_is_false(json_object_get(r, "tie")));
    cr_expect(json_is_null(json_object_get(json_object_get(r, "damage"), "to_attacker")));
    cr_expect_eq(at(r, "damage/to_defender"), 26);
    cr_expect_eq(at(r, "losses/attack/tile/soldier"), 8);
    cr_expect_eq(at(r, "losses/attack/tile/plane"), 2);
    cr_expect_eq(at(r, "losses/attack/tile/fort"), 1);
    cr_expect_eq(at(r, "losses/attack/loaded/tank"), 2);
    cr_expect_eq(at(r, "losses/attack/support/0/tanks"), 3);
    cr_expect_eq(at(r, "losses/defense/tile/tank"), 5);
    cr_expect_eq(at(r, "losses/defense/tile/center"), 0);
    cr_expect_eq(at(r, "losses/defense/support/0/tanks"), 3);
    cr_expect_eq(at(r, "survivors/defense/support/0/tanks"), 1);
    cr_expect_eq(at(r, "survivors/defense/tile/center"), 1);
    cr_expect_eq(at(r, "survivors/attack/tile/soldier"), 0);
    cr_expect(json_is_null(json_object_get(r, "moved_in")));
    cr_expect_str_eq(json_string_value(json_object_get(r, "tile_owner")), "blue");
    cr_expect_eq(json_array_size(json_object_get(r, "eliminated")), 0);
    const json_t *card = json_object_get(r, "card_steal");
    cr_expect(json_is_false(json_object_get(card, "eligible")));
    cr_expect(json_is_null(json_object_get(card, "stolen")));
    cr_expect_eq(at(r, "seed"), 7);
    json_decref(r);
}

Test(duper_api, worked_example_with_the_default_key_buff) {
    /* D2: without the override, DP = 35 and damage 24; still 1 supporting tank survives. */
    json_t *req = json_loads(worked_example, 0, NULL);
    json_object_del(req, "rules");
    char *text = json_dumps(req, JSON_COMPACT);
    json_t *r;
    cr_assert_eq(run(text, &r), 200);
    cr_expect_eq(at(r, "defense_power"), 35);
    cr_expect_eq(at(r, "damage/to_defender"), 24);
    cr_expect_eq(at(r, "survivors/defense/support/0/tanks"), 1);
    free(text);
    json_decref(req);
    json_decref(r);
}

Test(duper_api, capture_reports_moved_in_and_double_elimination) {
    /* D8: supercapital (21) vs capital lv1 (9) + 8 soldiers on level 3 (4) = 21: a tie on a
     * capital captures; 21 damage kills the supercapital: both players are eliminated and
     * the tile disappears. */
    json_t *r;
    cr_assert_eq(
        run("{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"supercapital\": 1}}},"
            " \"defense\": {\"player\": \"blue\", \"tile\": {\"level\": 3, \"units\":"
            " {\"capital_lv1\": 1, \"soldier\": 8}}}, \"seed\": 1}",
            &r),
        200);
    cr_expect(json_is_true(json_object_get(r, "captured")));
    cr_expect(json_is_true(json_object_get(r, "tie")));
    cr_expect_eq(at(r, "damage/to_attacker"), 21);
    const json_t *elim = json_object_get(r, "eliminated");
    cr_assert_eq(json_array_size(elim), 2);
    cr_expect_str_eq(json_string_value(json_array_get(elim, 0)), "red");
    cr_expect_str_eq(json_string_value(json_array_get(elim, 1)), "blue");
    cr_expect(json_is_null(json_object_get(r, "tile_owner")));
    cr_expect(json_is_true(json_object_get(r, "tile_disappears")));
    cr_expect(json_is_true(json_object_get(json_object_get(r, "card_steal"), "eligible")));
    json_decref(r);

    /* A capture: fort + 3 soldiers (10) vs 2 soldiers on level 1 (3): the fort absorbs the 3
     * damage (D6), 3 soldiers move in, the fort stays home. */
    cr_assert_eq(run("{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"soldier\": 3,"
                     " \"fort\": 1}}}, \"defense\": {\"player\": \"blue\", \"tile\": {\"level\": 1,"
                     " \"units\": {\"soldier\": 2}}}, \"seed\": 1}",
                     &r),
                 200);
    cr_expect_eq(at(r, "moved_in/tile/soldier"), 3);
    cr_expect_null(
        json_object_get(json_object_get(json_object_get(r, "moved_in"), "tile"), "fort"));
    cr_expect_str_eq(json_string_value(json_object_get(r, "tile_owner")), "red");
    json_decref(r);
}

Test(duper_api, rules_override_unit_powers) {
    /* Soldier power 2 per request: 5 soldiers = 10 vs 9 soldiers on level 1 (10): a tie,
     * fails; damage 10 − 1 = 9 kills all 9. */
    json_t *r;
    cr_assert_eq(run("{\"attack\": {\"player\": \"a\", \"tile\": {\"units\": {\"soldier\": 5}}},"
                     " \"defense\": {\"player\": \"b\", \"tile\": {\"level\": 1, \"units\":"
                     " {\"soldier\": 9}}}, \"rules\": {\"units\": {\"soldier\": {\"power\": 2}}}}",
                     &r),
                 200);
    cr_expect_eq(at(r, "attack_power"), 10);
    cr_expect_eq(at(r, "defense_power"), 19); /* 9·2 + 1: the table applies to both sides */
    json_decref(r);
}

#define ATT(units) "{\"attack\": {\"player\": \"a\", \"tile\": " units "},"
#define DEF(tile)  " \"defense\": {\"player\": \"b\", \"tile\": " tile "}}"
#define SIMPLE_DEF DEF("{\"level\": 1, \"units\": {\"soldier\": 1}}")

Test(duper_api, bad_input_names_the_field) {
    expect_422(ATT("{\"units\": {\"knight\": 1}}") SIMPLE_DEF, "/attack/tile/units/knight",
               "not a known field");
    expect_422(ATT("{\"units\": {\"soldier\": -3}}") SIMPLE_DEF, "/attack/tile/units/soldier",
               "-3");
    expect_422(ATT("{\"units\": {\"soldier\": 1.5}}") SIMPLE_DEF, "/attack/tile/units/soldier",
               NULL);
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") DEF("{\"level\": 0, \"units\": {}}"),
               "/defense/tile/level", "from 1 to 3");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") DEF("{\"level\": 4, \"units\": {}}"),
               "/defense/tile/level", "from 1 to 3");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") DEF("{\"units\": {}}"), "/defense/tile/level",
               "required");
    expect_422("{\"defense\": {\"player\": \"b\", \"tile\": {\"level\": 1}}}", "/attack",
               "required");
    expect_422("{\"attack\": {\"tile\": {\"units\": {\"soldier\": 1}}}," SIMPLE_DEF,
               "/attack/player", "required");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"b\", \"tile\":"
                                                    " {\"level\": 1}}, \"seed\": -1}",
               "/seed", NULL);
    /* One seed range on every endpoint: 0 to 2^53 − 1, as /simulate documents. */
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"b\", \"tile\":"
                                                    " {\"level\": 1}}, \"seed\": 9007199254740992}",
               "/seed", "9007199254740991");
    expect_422(
        ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"b\", \"tile\":"
                                             " {\"level\": 1}}, \"seed\": 9223372036854775807}",
        "/seed", "9007199254740991");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"b\", \"tile\":"
                                                    " {\"level\": 1}}, \"rules\": {\"card_steal_"
                                                    "probability\": 1.5}}",
               "/rules/card_steal_probability", NULL);
    expect_422("{\"attack\": {\"player\": \"a\", \"kind\": \"teleport\", \"tile\": {\"units\":"
               " {\"soldier\": 1}}}," SIMPLE_DEF,
               "/attack/kind", "normal, long_distance");
}

Test(duper_api, d12_refusals) {
    /* Two ground troop classes on a tile. */
    expect_422(ATT("{\"units\": {\"soldier\": 1, \"tank\": 1}}") SIMPLE_DEF,
               "/attack/tile/units/tank", "one ground troop class (D12)");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}")
                   DEF("{\"level\": 1, \"units\": {\"tank\": 1, \"supercapital\": 1}}"),
               "/defense/tile/units/supercapital", "(D12)");
    /* Two buildings, or two of one building. */
    expect_422(ATT("{\"units\": {\"soldier\": 1}}")
                   DEF("{\"level\": 1, \"units\": {\"fort\": 1, \"center\": 1}}"),
               "/defense/tile/units/center", "one building (D12)");
    expect_422(ATT("{\"units\": {\"soldier\": 1, \"fort\": 2}}") SIMPLE_DEF,
               "/attack/tile/units/fort", "one building (D12)");
    /* Loaded troops without a stack of two planes (D5), or loading a non-ground class. */
    expect_422(ATT("{\"units\": {\"plane\": 1}, \"loaded\": {\"soldier\": 2}}") SIMPLE_DEF,
               "/attack/tile/loaded", "at least 2 planes");
    expect_422(ATT("{\"units\": {\"plane\": 2}, \"loaded\": {\"plane\": 2}}") SIMPLE_DEF,
               "/attack/tile/loaded/plane", "not a known field");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}")
                   DEF("{\"level\": 1, \"units\": {}, \"loaded\": {\"tank\": 1}}"),
               "/defense/tile/loaded", "at least 2 planes");
    /* A supporting tile supports with tanks; a fort alone does not (D6, D12). */
    expect_422("{\"attack\": {\"player\": \"a\", \"tile\": {\"units\": {\"soldier\": 1}},"
               " \"support\": [{\"tanks\": 0, \"fort\": true}]}," SIMPLE_DEF,
               "/attack/support/0/tanks", "from 1");
    expect_422("{\"attack\": {\"player\": \"a\", \"tile\": {\"units\": {\"soldier\": 1}},"
               " \"support\": [{\"fort\": true}]}," SIMPLE_DEF,
               "/attack/support/0/tanks", "required");
    expect_422("{\"attack\": {\"player\": \"a\", \"tile\": {\"units\": {\"soldier\": 1}},"
               " \"support\": [{\"tanks\": 1}, {\"tanks\": 1}, {\"tanks\": 1}, {\"tanks\": 1},"
               " {\"tanks\": 1}, {\"tanks\": 1}, {\"tanks\": 1}, {\"tanks\": 1}, {\"tanks\": "
               "1}]}," SIMPLE_DEF,
               "/attack/support", "at most 8");
    /* One supercapital per player, standing or loaded. */
    expect_422(ATT("{\"units\": {\"supercapital\": 2}}") SIMPLE_DEF,
               "/attack/tile/units/supercapital", "one supercapital");
    /* Nothing on the tile can attack; a long-distance attack without planes (D11). */
    expect_422(ATT("{\"units\": {\"center\": 1}}") SIMPLE_DEF, "/attack/tile/units",
               "nothing here can attack");
    expect_422("{\"attack\": {\"player\": \"a\", \"kind\": \"long_distance\", \"tile\": {\"units\":"
               " {\"soldier\": 5}}}," SIMPLE_DEF,
               "/attack/tile/units/plane", "(D11)");
    /* An order into one's own tile is no battle. */
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"a\", \"tile\":"
                                                    " {\"level\": 1}}}",
               "/defense/player", "must differ");
}

#define NPC_DEF(extra, units)                                                                      \
    " \"defense\": {\"npc\": true" extra ", \"tile\": {\"units\": " units "}}}"

Test(duper_api, d9_npc_refusals) {
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") NPC_DEF("", "{\"capital_lv2\": 1}"),
               "/defense/tile/units/capital_lv2", "(D9)");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") NPC_DEF("", "{\"supercapital\": 1}"),
               "/defense/tile/units/supercapital", "(D9)");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}") NPC_DEF(", \"keys\": 1", "{\"larva\": 1}"),
               "/defense/keys", "(D9)");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}")
                   NPC_DEF(", \"player\": \"b\"", "{\"larva\": 1}"),
               "/defense/player", "(D9)");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}")
                   NPC_DEF(", \"support\": [{\"tanks\": 1}]", "{\"larva\": 1}"),
               "/defense/support", "(D9)");
    expect_422(ATT("{\"units\": {\"larva\": 1}}") SIMPLE_DEF, "/attack/tile/units/larva", "(D9)");
    expect_422(ATT("{\"units\": {\"soldier\": 1}}")
                   DEF("{\"level\": 1, \"units\": {\"larva\": 1}}"),
               "/defense/tile/units/larva", "(D9)");
    /* A valid NPC battle: 6 soldiers vs 5 larvae (DP 5, no buffs): captured; no owner before,
     * the attacker's after; nobody eliminated. */
    json_t *r;
    cr_assert_eq(run(ATT("{\"units\": {\"soldier\": 6}}") NPC_DEF("", "{\"larva\": 5}"), &r), 200);
    cr_expect_eq(at(r, "defense_power"), 5);
    cr_expect_eq(at(r, "power/defense/tile_buff"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(r, "tile_owner")), "a");
    json_decref(r);
    cr_assert_eq(run(ATT("{\"units\": {\"soldier\": 4}}") NPC_DEF("", "{\"larva\": 5}"), &r), 200);
    cr_expect(json_is_null(json_object_get(r, "tile_owner")));
    json_decref(r);
}

static bool stolen_with(cbd_config *cfg, json_t *req, uint64_t seed) {
    json_object_set_new(req, "seed", json_integer((json_int_t)seed));
    cbd_jw out;
    cbd_jw_init(&out);
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_api_duper_battle(cfg, NULL, req, &out, &p));
    size_t len = 0;
    char *text = cbd_jw_finish(&out, &len);
    cr_assert_not_null(text);
    json_t *resp = json_loadb(text, len, 0, NULL);
    free(text);
    cr_assert_not_null(resp);
    const json_t *card = json_object_get(resp, "card_steal");
    cr_assert(json_is_true(json_object_get(card, "eligible")));
    bool stolen = json_is_true(json_object_get(card, "stolen"));
    json_decref(resp);
    return stolen;
}

Test(duper_api, d10_card_steal_rate_over_1e5_seeded_requests) {
    /* Expected 0.35 · 10^5 = 35000; standard error sqrt(10^5 · 0.35 · 0.65) = 150.83; the
     * count must lie within 4 SE: |count − 35000| ≤ 603. The target holds a capital lv1, so
     * every request is eligible whatever the outcome. */
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    json_t *req = json_loads(ATT("{\"units\": {\"soldier\": 1}}")
                                 DEF("{\"level\": 1, \"units\": {\"capital_lv1\": 1}}"),
                             0, NULL);
    cr_assert_not_null(req);
    long count = 0;
    for (uint64_t seed = 0; seed < 100000; seed++) {
        count += stolen_with(&cfg, req, seed * 7919 + 12345) ? 1 : 0;
    }
    cr_expect(labs(count - 35000) <= 603, "stolen %ld of 100000", count);
    /* The same seed gives the same draw. */
    for (uint64_t seed = 0; seed < 200; seed++) {
        cr_expect_eq(stolen_with(&cfg, req, seed), stolen_with(&cfg, req, seed));
    }
    json_decref(req);
}

Test(duper_api, the_largest_seed_is_2_to_the_53_minus_1_and_is_echoed) {
    json_t *r;
    cr_assert_eq(run(ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"b\","
                                                          " \"tile\": {\"level\": 1}},"
                                                          " \"seed\": 9007199254740991}",
                     &r),
                 200);
    cr_expect_eq(at(r, "seed"), (json_int_t)9007199254740991);
    json_decref(r);
}

Test(duper_api, d10_a_missing_seed_is_drawn_and_returned) {
    json_t *r;
    cr_assert_eq(run(ATT("{\"units\": {\"soldier\": 1}}")
                         DEF("{\"level\": 1, \"units\": {\"capital_lv1\": 1}}"),
                     &r),
                 200);
    json_int_t seed = at(r, "seed");
    cr_expect(seed >= 0 && seed < ((json_int_t)1 << 53));
    const json_t *stolen = json_object_get(json_object_get(r, "card_steal"), "stolen");
    cr_expect(json_is_boolean(stolen));
    /* Replaying with the returned seed gives the same draw. */
    char body[512];
    snprintf(body, sizeof body,
             ATT("{\"units\": {\"soldier\": 1}}") " \"defense\": {\"player\": \"b\", \"tile\":"
                                                  " {\"level\": 1, \"units\": {\"capital_lv1\":"
                                                  " 1}}}, \"seed\": %lld}",
             (long long)seed);
    json_t *again;
    cr_assert_eq(run(body, &again), 200);
    cr_expect(json_equal(json_object_get(again, "card_steal"), json_object_get(r, "card_steal")));
    json_decref(again);
    json_decref(r);
}

Test(duper_api, the_config_drives_the_endpoint) {
    /* A config with key_buff_per_key 1 (the file's duper.key_buff_per_key, which
     * tests/unit/config/test_config_sections.c loads) gives the example as written without a
     * rules member. */
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.duper.key_buff_per_key = 1;
    json_t *req = json_loads(worked_example, 0, NULL);
    json_object_del(req, "rules");
    char *body = json_dumps(req, JSON_COMPACT);
    json_t *r;
    cr_assert_eq(run_cfg(&cfg, body, &r), 200);
    cr_expect_eq(at(r, "defense_power"), 33);
    free(body);
    json_decref(req);
    json_decref(r);
}
