/*
 * /analyze-attack with special units (W17 units, W19 damage order, W20 outcome) through the
 * api layer: the wiki's Commander
 * examples and a health unit worked by hand, units alone and the graph beside them, and every
 * kind of bad unit named by its pointer.
 */
#include <math.h>

#include "api_test.h"

static cbd_config cfg;

static void setup(void) {
    cbd_config_defaults(&cfg);
}

TestSuite(units_api, .init = setup);

Test(units_api, a_commander_defending_3_armies_survives_10_attackers) {
    json_t *a;
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 10, \"defenders\": 3, \"defending_units\": "
                          "[{\"type\": \"commander\", \"id\": \"bob\"}]}",
                          &a, NULL);
    cr_assert_eq(st, 200);
    /* 10 · 0.6 = 6 damage: the 3 armies, then 3 < 7 for the Commander. The defense's power is
     * 3 + 7 = 10, at 0.7: 7 of the 10 attackers die. */
    cr_assert(json_is_true(json_walk(a, "deterministic")));
    cr_assert_eq(json_number_at(a, "capture_probability"), 0.0);
    cr_assert_eq(json_number_at(a, "outcome/attackers_left"), 3.0);
    cr_assert_eq(json_number_at(a, "outcome/defenders_left"), 0.0);
    cr_assert_str_eq(json_string_value(json_walk(a, "defending_units/0/id")), "bob");
    cr_assert_eq(json_number_at(a, "defending_units/0/attack_power"), 7.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/damage_to_kill"), 7.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/combat_order"), 10000.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/survival_probability"), 1.0);
    cr_assert_null(json_walk(a, "attacking_units"), "no attacking_units asked, none answered");
    json_decref(a);
}

Test(units_api, a_commander_alone_captures_3_defenders) {
    json_t *a;
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 0, \"defenders\": 3, \"attacking_units\": "
                          "[{\"type\": \"commander\"}]}",
                          &a, NULL);
    cr_assert_eq(st, 200);
    /* 7 · 0.6 = 4.2 -> 4 kills the 3; their 3 · 0.7 = 2.1 -> 2 < 7 do not kill it. */
    cr_assert_eq(json_number_at(a, "capture_probability"), 1.0);
    cr_assert(json_is_true(json_walk(a, "outcome/captured")));
    cr_assert_eq(json_number_at(a, "outcome/attackers_left"), 0.0, "armies only: it had none");
    cr_assert_eq(json_number_at(a, "attacking_units/0/survival_probability"), 1.0);
    json_decref(a);
}

Test(units_api, a_health_unit_reports_the_health_it_keeps) {
    json_t *a;
    /* 9 attackers at 0.6 deal 5.4 -> 5; the 3 armies die first, the Medic (health 6, order 5)
     * keeps 6 − 2 = 4 and holds the territory. */
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 9, \"defenders\": 3, \"defending_units\": [{\"type\": "
                          "\"custom\", \"name\": \"Medic\", \"attack_power\": 1, "
                          "\"defense_power\": 1, \"combat_order\": 5, \"health\": 6}]}",
                          &a, NULL);
    cr_assert_eq(st, 200);
    cr_assert_eq(json_number_at(a, "capture_probability"), 0.0);
    cr_assert_str_eq(json_string_value(json_walk(a, "defending_units/0/name")), "Medic");
    cr_assert_eq(json_number_at(a, "defending_units/0/health"), 6.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/survival_probability"), 1.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/health_left/distribution/0/health"), 4.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/health_left/distribution/0/probability"),
                 1.0);
    cr_assert_eq(json_number_at(a, "defending_units/0/health_left/mean"), 4.0);
    json_decref(a);
}

Test(units_api, the_graph_varies_the_armies_beside_the_units) {
    json_t *a;
    /* At luck 0 a Commander and a attackers deal round(0.6·(a + 7)) against a Commander alone
     * (damage to kill 7, dealing round(0.7·7) = 5): capture needs 7 damage, so a + 7 >= 11
     * (a = 3: 6.0 -> 6; a = 4: 6.6 -> 7), and fewer than 7 + a back: 5 < 7 + a always. So
     * P = 0 for a <= 3 and 1 from 4. */
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 0, \"defenders\": 0, \"attacking_units\": [{\"type\": "
                          "\"commander\"}], \"defending_units\": [{\"type\": \"commander\"}], "
                          "\"graph\": {\"from\": 0, \"to\": 6}, \"targets\": [1]}",
                          &a, NULL);
    cr_assert_eq(st, 200);
    for (int i = 0; i <= 6; i++) {
        char path[64];
        snprintf(path, sizeof path, "graph/%d/capture_probability", i);
        cr_assert_eq(json_number_at(a, path), i >= 4 ? 1.0 : 0.0, "%d armies", i);
    }
    cr_assert_eq(json_number_at(a, "armies_needed/0/attackers"), 4.0);
    json_decref(a);
}

Test(units_api, every_bad_unit_is_named_by_its_pointer) {
    json_t *a;
    int st = api_test_run(
        &cfg, "/analyze-attack",
        "{\"attackers\": 1, \"defenders\": 3, \"attacking_units\": [{\"type\": \"tank\"}, "
        "{\"type\": \"custom\", \"attack_power\": 1, \"defense_power\": 1, \"combat_order\": 0, "
        "\"damage_to_kill\": 3}, {\"type\": \"custom\", \"name\": \"X\", \"attack_power\": 1, "
        "\"defense_power\": 1, \"combat_order\": 0}, {\"type\": \"custom\", \"name\": \"Y\", "
        "\"attack_power\": 1, \"defense_power\": 1, \"combat_order\": 0, \"health\": 2, "
        "\"damage_to_kill\": 2}], \"defending_units\": [{\"type\": \"custom\", \"name\": \"Z\", "
        "\"attack_power\": 0, \"defense_power\": 4, \"combat_order\": -5, \"damage_to_kill\": 0}, "
        "{\"type\": \"commander\", \"id\": \"\"}, {\"type\": \"commander\", \"health\": 3}]}",
        &a, NULL);
    cr_assert_eq(st, 422);
    cr_assert(has_error(a, "/attacking_units/0/type", "commander, custom"));
    cr_assert(has_error(a, "/attacking_units/1/name", "required"));
    cr_assert(has_error(a, "/attacking_units/2/damage_to_kill", "exactly one"));
    cr_assert(has_error(a, "/attacking_units/3/health", "exactly one"));
    cr_assert(has_error(a, "/defending_units/0/damage_to_kill", "from 1 to"));
    cr_assert(has_error(a, "/defending_units/1/id", "non-empty"));
    cr_assert(has_error(a, "/defending_units/2/health", "commander"));
    json_decref(a);
}

Test(units_api, limits_ids_power_and_an_attack_with_nothing) {
    json_t *a;
    cfg.warapp.max_units = 1;
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 1, \"defenders\": 3, \"defending_units\": "
                          "[{\"type\": \"commander\"}, {\"type\": \"commander\"}]}",
                          &a, NULL);
    cr_assert_eq(st, 422);
    cr_assert(has_error(a, "/defending_units", NULL));
    json_decref(a);
    cbd_config_defaults(&cfg);
    st = api_test_run(&cfg, "/analyze-attack",
                      "{\"attackers\": 1, \"defenders\": 3, \"defending_units\": [{\"type\": "
                      "\"commander\", \"id\": \"c\"}, {\"type\": \"commander\", \"id\": \"c\"}]}",
                      &a, NULL);
    cr_assert_eq(st, 422);
    cr_assert(has_error(a, "/defending_units/1", "unique"));
    json_decref(a);
    st = api_test_run(&cfg, "/analyze-attack",
                      "{\"attackers\": 999999995, \"defenders\": 3, \"attacking_units\": "
                      "[{\"type\": \"commander\"}]}",
                      &a, NULL);
    cr_assert_eq(st, 422, "999,999,995 + 7 passes the army cap of 10^9 (W10, W18)");
    cr_assert(has_error(a, "/attacking_units", "power"));
    json_decref(a);
    st = api_test_run(&cfg, "/analyze-attack",
                      "{\"attackers\": 0, \"defenders\": 3, \"attacking_units\": []}", &a, NULL);
    cr_assert_eq(st, 422);
    cr_assert(has_error(a, "/attackers", "W20"));
    json_decref(a);
}
