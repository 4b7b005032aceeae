/* POST /duper/battle over HTTP: the worked example and a 422 through the server. */
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"

TestSuite(duper_http, .init = test_suite_start, .fini = test_suite_stop);

Test(duper_http, worked_example_over_http) {
    /* The rule file's example with key_buff_per_key 1: 32 vs 33, 26 damage to the defenders,
     * 5 tile tanks + 3 supporting tanks die, 1 supporting tank survives. */
    const char *body =
        "{\"attack\": {\"player\": \"red\", \"kind\": \"normal\", \"tile\": {\"units\":"
        " {\"soldier\": 8, \"plane\": 2, \"fort\": 1}, \"loaded\": {\"tank\": 2}},"
        " \"support\": [{\"tanks\": 3, \"fort\": false}]},"
        " \"defense\": {\"player\": \"blue\", \"npc\": false, \"keys\": 2, \"tile\": {\"level\": 3,"
        " \"units\": {\"tank\": 5, \"center\": 1}}, \"support\": [{\"tanks\": 4}]},"
        " \"rules\": {\"key_buff_per_key\": 1}, \"seed\": 7}";
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/duper/battle", body, &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/json");
    cr_expect_eq(json_integer_value(json_object_get(r.json, "attack_power")), 32);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "defense_power")), 33);
    const json_t *damage = json_object_get(r.json, "damage");
    cr_expect_eq(json_integer_value(json_object_get(damage, "to_defender")), 26);
    const json_t *def_losses = json_object_get(json_object_get(r.json, "losses"), "defense");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(def_losses, "tile"), "tank")),
                 5);
    const json_t *sup = json_array_get(json_object_get(def_losses, "support"), 0);
    cr_expect_eq(json_integer_value(json_object_get(sup, "tanks")), 3);
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "tile_owner")), "blue");
    test_response_free(&r);
}

Test(duper_http, bad_input_is_422_problem_json_naming_the_field) {
    const char *body =
        "{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"soldier\": 1,"
        " \"tank\": 2}}}, \"defense\": {\"player\": \"blue\", \"tile\": {\"level\": 7}}}";
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/duper/battle", body, &r), 0);
    cr_expect_eq(r.status, 422);
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/problem+json");
    const json_t *errors = json_object_get(r.json, "errors");
    cr_assert_eq(json_array_size(errors), 2, "%s", r.body);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(errors, 0), "pointer")),
                     "/attack/tile/units/tank");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(errors, 1), "pointer")),
                     "/defense/tile/level");
    test_response_free(&r);
}
