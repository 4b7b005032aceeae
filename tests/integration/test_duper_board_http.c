/*
 * POST /duper/board/battle and /duper/board/options over HTTP: the worked example
 * on a board, an options list, a bad board's 422 as problem+json naming its field, the 405 of
 * a GET, and the metrics label of each route.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"

TestSuite(board_http, .init = test_suite_start, .fini = test_suite_stop);

#define BOARD                                                                                      \
    "{\"board\": {\"tiles\": {\"a1\": {\"owner\": \"red\", \"level\": 1, \"units\":"               \
    " {\"soldier\": 8, \"plane\": 2, \"fort\": 1}, \"loaded\": {\"tank\": 2}},"                    \
    " \"a2\": {\"owner\": \"red\", \"units\": {\"tank\": 3}},"                                     \
    " \"b1\": {\"owner\": \"blue\", \"level\": 3, \"units\": {\"tank\": 5, \"center\": 1}},"       \
    " \"b2\": {\"owner\": \"blue\", \"units\": {\"tank\": 4}},"                                    \
    " \"n1\": {\"owner\": \"npc\", \"units\": {\"larva\": 3}}},"                                   \
    " \"adjacent\": [[\"a1\", \"b1\"], [\"a1\", \"a2\"], [\"b1\", \"b2\"], [\"a1\", \"n1\"]],"     \
    " \"keys\": {\"blue\": {\"red\": 2}}}, \"rules\": {\"key_buff_per_key\": 1}"

static json_int_t int_at(const json_t *o, const char *a, const char *b) {
    return json_integer_value(json_object_get(json_object_get(o, a), b));
}

Test(board_http, the_worked_example_over_http) {
    /* 32 vs 33 (docs/rules.md D2 with 1 per key): the attack fails, a1 and a2 lose everything, b1
     * keeps its center (D7), b2 one of its 4 tanks (26 damage: 15 on b1, then 3 of b2's). */
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/duper/board/battle",
                                BOARD ", \"attacks\": [{\"from\": \"a1\", \"to\": \"b1\"}],"
                                      " \"seed\": 7}",
                                &r),
                 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/json");
    const json_t *battle = json_array_get(json_object_get(r.json, "battles"), 0);
    cr_expect_eq(json_integer_value(json_object_get(battle, "attack_power")), 32);
    cr_expect_eq(json_integer_value(json_object_get(battle, "defense_power")), 33);
    cr_expect(json_is_false(json_object_get(battle, "captured")));
    const json_t *tiles = json_object_get(json_object_get(r.json, "board"), "tiles");
    cr_expect_eq(json_object_size(json_object_get(json_object_get(tiles, "a1"), "units")), 0);
    cr_expect_eq(json_object_size(json_object_get(json_object_get(tiles, "a2"), "units")), 0);
    cr_expect_eq(int_at(json_object_get(tiles, "b1"), "units", "center"), 1);
    cr_expect_eq(json_object_size(json_object_get(json_object_get(tiles, "b1"), "units")), 1);
    cr_expect_eq(int_at(json_object_get(tiles, "b2"), "units", "tank"), 1);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "seed")), 7);
    test_response_free(&r);
}

Test(board_http, options_over_http) {
    /* The best option is a1 on the NPCs: 32 against 3 larvae (D9: no buffs), margin 29. */
    test_response r;
    cr_assert_eq(
        test_post_json(test_port, "/duper/board/options", BOARD ", \"player\": \"red\"}", &r), 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *best = json_array_get(json_object_get(r.json, "options"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(best, "to")), "n1");
    cr_expect_eq(json_integer_value(json_object_get(best, "margin")), 29);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "count")), 5);
    test_response_free(&r);
}

Test(board_http, a_bad_board_is_422_problem_json_naming_the_field) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/duper/board/battle",
                                BOARD ", \"attacks\": [{\"from\": \"a2\", \"to\": \"b1\"}]}", &r),
                 0);
    cr_expect_eq(r.status, 422);
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/problem+json");
    const json_t *e = json_array_get(json_object_get(r.json, "errors"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(e, "pointer")), "/attacks/0/to");
    test_response_free(&r);
}

Test(board_http, get_is_405_and_each_route_has_its_metrics_label) {
    test_response r;
    cr_assert_eq(test_request(test_port, "GET", "/duper/board/options", NULL, NULL, 0, NULL, &r),
                 0);
    cr_expect_eq(r.status, 405);
    char allow[64];
    cr_expect_str_eq(test_header(&r, "Allow", allow, sizeof allow), "POST, OPTIONS");
    test_response_free(&r);
    cr_assert_eq(test_post_json(test_port, "/duper/board/battle", "{}", &r), 0);
    cr_expect_eq(r.status, 422);
    test_response_free(&r);
    static const char *const labels[] = {"route=\"/duper/board/battle\"",
                                         "route=\"/duper/board/options\"", NULL};
    cr_assert_eq(test_metrics_with(test_port, labels, 5.0, &r), 0);
    cr_expect(strstr(r.body, "route=\"/duper/board/battle\""), "%s", r.body);
    cr_expect(strstr(r.body, "route=\"/duper/board/options\""), "%s", r.body);
    test_response_free(&r);
}
