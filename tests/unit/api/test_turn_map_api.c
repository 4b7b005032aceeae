/*
 * The board's map in POST /analyze-turn and /simulate-turn (W24): the `neighbors` lists read
 * into the core's symmetric adjacency, the orders on a map that must cross a border, and every
 * 422 of a bad list or order with its pointer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "api/warapp/turn/warapp_turn_json.h"

static char *last_body;

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

static const char *const paths[2] = {"/analyze-turn", "/simulate-turn"};

/* Reads a turn request's board directly, for the adjacency the core gets. */
static bool read_turn(const char *body, cbd_turn_request *q, cbd_problem *problem) {
    static const char *const keys[] = {CBD_TURN_KEYS, NULL};
    json_t *doc = json_loads(body, 0, NULL);
    cr_assert_not_null(doc, "%s", body);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_problem_init(problem);
    cbd_reader r;
    cr_assert(cbd_reader_open(&r, doc, "", keys, problem));
    bool ok = cbd_turn_read_request(&r, &cfg.warapp, q) == CBD_READ_OK;
    json_decref(doc); /* the test reads only indices after this */
    return ok;
}

/*
 * W24: borders listed on one side (A lists B and C; C lists D), on both (B and D list each
 * other, D lists B again from its side) come out as one symmetric, ascending list each: A: B C;
 * B: A D; C: A D; D: B C. E lists nothing, so it borders nothing.
 */
Test(turn_map_api, neighbors_become_symmetric_ascending_lists) {
    const char *body = "{\"territories\": {\"A\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": "
                       "[\"C\", \"B\"]},"
                       " \"B\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [\"D\"]},"
                       " \"C\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [\"D\"]},"
                       " \"D\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [\"B\"]},"
                       " \"E\": {\"owner\": \"p\", \"armies\": 1}}, \"orders\": []}";
    cbd_turn_request q;
    cbd_problem problem;
    cr_assert(read_turn(body, &q, &problem));
    const uint32_t want_off[6] = {0, 2, 4, 6, 8, 8};
    const uint32_t want[8] = {1, 2, 0, 3, 0, 3, 1, 2};
    cr_assert_not_null(q.turn.neighbor_off);
    for (size_t i = 0; i < 6; i++) {
        cr_expect_eq(q.turn.neighbor_off[i], want_off[i], "offset %zu", i);
    }
    for (size_t i = 0; i < 8; i++) {
        cr_expect_eq(q.turn.neighbors[i], want[i], "entry %zu", i);
    }
    cbd_turn_request_free(&q);
}

/* No territory lists neighbors: no map, and the core gets none (W11: any move may be ordered). */
Test(turn_map_api, a_board_without_lists_is_no_map) {
    const char *body = "{\"territories\": {\"A\": {\"owner\": \"p\", \"armies\": 3},"
                       " \"B\": {\"owner\": \"q\", \"armies\": 1}},"
                       " \"orders\": [{\"player\": \"p\", \"from\": \"A\", \"to\": \"B\", "
                       "\"armies\": 2}]}";
    cbd_turn_request q;
    cbd_problem problem;
    cr_assert(read_turn(body, &q, &problem));
    cr_expect_null(q.turn.neighbor_off);
    cr_expect_null(q.turn.neighbors);
    cbd_turn_request_free(&q);
}

/* Every list empty: a map without borders (W24), each territory's list empty; a deploy still
 * runs (W12 needs no border), so A ends with 3 + 2 = 5. */
Test(turn_map_api, a_map_of_empty_lists_has_no_borders) {
    const char *body = "{\"territories\": {\"A\": {\"owner\": \"p\", \"armies\": 3, "
                       "\"neighbors\": []}}, \"orders\": [{\"type\": \"deploy\", \"player\": "
                       "\"p\", \"to\": \"A\", \"armies\": 2}]}";
    cbd_turn_request q;
    cbd_problem problem;
    cr_assert(read_turn(body, &q, &problem));
    cr_assert_not_null(q.turn.neighbor_off);
    cr_expect_eq(q.turn.neighbor_off[0], 0);
    cr_expect_eq(q.turn.neighbor_off[1], 0);
    cbd_turn_request_free(&q);
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 200, "%s", last_body);
    const json_t *a = json_object_get(json_object_get(doc, "territories"), "A");
    cr_expect_eq(
        json_integer_value(json_object_get(
            json_array_get(json_object_get(json_object_get(a, "armies"), "distribution"), 0),
            "armies")),
        5);
    json_decref(doc);
}

/*
 * A border listed only on B's side carries an order from A to B (W24: either side counts both
 * ways). By hand at 0 % luck (W1–W6): 10 attack 2: 10 × 0.6 = 6 kills, 2 × 0.7 = 1.4 → 1; B is
 * taken with 10 − 1 = 9 armies, so the analysis answers owner p with probability 1.
 */
Test(turn_map_api, an_order_across_a_border_listed_on_one_side_runs) {
    const char *body =
        "{\"territories\": {\"A\": {\"owner\": \"p\", \"armies\": 11, \"neighbors\": []},"
        " \"B\": {\"owner\": \"q\", \"armies\": 2, \"neighbors\": [\"A\"]}},"
        " \"orders\": [{\"player\": \"p\", \"from\": \"A\", \"to\": \"B\", \"armies\": 10}],"
        " \"settings\": {\"luck_modifier\": 0}}";
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 200, "%s", last_body);
    cr_expect_eq(json_number_at(doc, "territories/B/owner/p"), 1.0, "%s", last_body);
    cr_expect_eq(json_number_at(doc, "territories/B/armies/mean"), 9.0, "%s", last_body);
    cr_expect_eq(json_number_at(doc, "territories/A/armies/mean"), 1.0, "%s", last_body);
    json_decref(doc);
    char sim[1024];
    snprintf(sim, sizeof sim, "%.*s, \"trials\": 2, \"seed\": 1}", (int)strlen(body) - 1, body);
    cr_assert_eq(run("/simulate-turn", sim, &doc), 200, "%s", last_body);
    json_decref(doc);
}

typedef struct {
    const char *territories; /* the members of "territories" */
    const char *orders;      /* the items of "orders" */
    const char *pointer, *needle;
} bad_case;

#define AB_MAP                                                                                     \
    "\"A\": {\"owner\": \"p\", \"armies\": 5, \"neighbors\": [\"B\"]},"                            \
    " \"B\": {\"owner\": \"q\", \"armies\": 1, \"neighbors\": []},"                                \
    " \"C\": {\"owner\": \"q\", \"armies\": 1, \"neighbors\": []}"

static const bad_case bad[] = {
    {"\"A\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [\"Z\"]}", "",
     "/territories/A/neighbors/0", "territory of this board"},
    {"\"A\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [\"B\", \"A\"]},"
     " \"B\": {\"owner\": \"p\", \"armies\": 1}",
     "", "/territories/A/neighbors/1", "itself"},
    {"\"A\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [\"B\", \"B\"]},"
     " \"B\": {\"owner\": \"p\", \"armies\": 1}",
     "", "/territories/A/neighbors/1", "twice"},
    {"\"A\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": [3]}", "",
     "/territories/A/neighbors/0", "territory of this board"},
    {"\"A\": {\"owner\": \"p\", \"armies\": 1, \"neighbors\": \"B\"},"
     " \"B\": {\"owner\": \"p\", \"armies\": 1}",
     "", "/territories/A/neighbors", "array"},
    /* W24: on a map, an order between territories that do not border. */
    {AB_MAP, "{\"player\": \"p\", \"from\": \"A\", \"to\": \"C\", \"armies\": 1}", "/orders/0/to",
     "border"},
    /* A territory listing nothing on a map borders nothing it does not list, nor anyone lists. */
    {AB_MAP,
     "{\"player\": \"p\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1},"
     " {\"player\": \"q\", \"from\": \"C\", \"to\": \"B\", \"armies\": 1}",
     "/orders/1/to", "border"},
    /* One empty list makes the board a map: A and B border nowhere. */
    {"\"A\": {\"owner\": \"p\", \"armies\": 5, \"neighbors\": []},"
     " \"B\": {\"owner\": \"q\", \"armies\": 1}",
     "{\"player\": \"p\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1}", "/orders/0/to",
     "border"},
};

Test(turn_map_api, bad_maps_and_orders_are_422_naming_the_field) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (size_t e = 0; e < 2; e++) {
            char body[2048];
            snprintf(body, sizeof body, "{\"territories\": {%s}, \"orders\": [%s]}",
                     bad[i].territories, bad[i].orders);
            json_t *doc;
            cr_assert_eq(run(paths[e], body, &doc), 422, "case %zu: %s", i, last_body);
            cr_expect(has_error(doc, bad[i].pointer, bad[i].needle), "case %zu: want %s (%s) in %s",
                      i, bad[i].pointer, bad[i].needle ? bad[i].needle : "", last_body);
            json_decref(doc);
        }
    }
}

/* Deploys need no border (W12), and a transfer across one is an order like an attack (W24):
 * D holds 1 + 2 after the deploy, sends 3 of which 2 may move (W7's guard): A ends with 7. */
Test(turn_map_api, deploys_need_no_border_and_transfers_cross_one) {
    const char *body =
        "{\"territories\": {" AB_MAP ", \"D\": {\"owner\": \"p\", \"armies\": 1, "
        "\"neighbors\": [\"A\"]}}, \"orders\": [{\"type\": \"deploy\", \"player\": \"p\", "
        "\"to\": \"D\", \"armies\": 2}, {\"player\": \"p\", \"from\": \"D\", \"to\": \"A\", "
        "\"armies\": 3}], \"settings\": {\"luck_modifier\": 0}}";
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 200, "%s", last_body);
    cr_expect_eq(json_number_at(doc, "territories/A/armies/mean"), 7.0, "%s", last_body);
    cr_expect_eq(json_number_at(doc, "orders/1/transfer_probability"), 1.0, "%s", last_body);
    json_decref(doc);
}
