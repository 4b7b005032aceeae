/*
 * POST /analyze-turn and /simulate-turn at the JSON layer (no socket): every 422 of a bad turn with
 * its exact pointer, the limits (warapp.max_turn_*), the answers' shape, and turns
 * whose results are worked out by hand below from W1–W16.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

/* The last reply's text, for the messages of failed assertions. */
static char *last_body;

static int run_cfg(const cbd_config *cfg, const char *path, const char *body, json_t **out) {
    free(last_body);
    last_body = NULL;
    return api_test_run(cfg, path, body, out, &last_body);
}

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return run_cfg(&cfg, path, body, out);
}

static const json_t *at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert_not_null(v, "no %s in %s", path, last_body);
    return v;
}

static double num(const json_t *doc, const char *path) {
    const json_t *v = at(doc, path);
    cr_assert(json_is_number(v), "%s is not a number", path);
    return json_number_value(v);
}

/* Board: A alice 10, B bob 3, C bob 5; 0 % luck, 60/70, straight round (W9). By hand:
 *  0 deploy alice A +2 (W12)                    A = 12
 *  1 alice A->B 6: kills R(3.6) = 4 >= 3, B kills R(2.1) = 2 < 6: captured, B = alice 4, A = 6
 *  2 bob C->B 4: kills R(2.4) = 2 < 4: fails; B kills R(2.8) = 3: 1 back, C = 2, B = 2
 *  3 alice A->C 50 %: movable min(6 - 1, eligible 6) = 5, floor(2.5) = 2; kills R(1.2) = 1 < 2,
 *    C kills R(1.4) = 1: fails, 1 back: A = 5, C = 1
 *  4 alice B->A 1: B changed owner, so none of its armies are eligible (W15): skipped;
 *    with multi_attack: movable 2 - 1 = 1: a transfer (W8), B = 1, A = 6
 *  5 bob B->C 1: bob does not own B any more (W14.1): skipped */
#define DET_TURN(multi)                                                                            \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10},"                            \
    " \"B\": {\"owner\": \"bob\", \"armies\": 3}, \"C\": {\"owner\": \"bob\", \"armies\": 5}},"    \
    " \"orders\": [{\"type\": \"deploy\", \"player\": \"alice\", \"to\": \"A\", \"armies\": 2},"   \
    " {\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 6},"                     \
    " {\"player\": \"bob\", \"from\": \"C\", \"to\": \"B\", \"armies\": 4},"                       \
    " {\"player\": \"alice\", \"from\": \"A\", \"to\": \"C\", \"percent\": 0.5},"                  \
    " {\"player\": \"alice\", \"from\": \"B\", \"to\": \"A\", \"armies\": 1},"                     \
    " {\"type\": \"attack_transfer\", \"player\": \"bob\", \"from\": \"B\", \"to\": \"C\","        \
    " \"armies\": 1}],"                                                                            \
    " \"settings\": {\"luck_modifier\": 0, \"multi_attack\": " multi "},"                          \
    " \"goals\": [{\"territory\": \"B\", \"owner\": \"alice\"}]}"

static void expect_single(const json_t *doc, const char *terr, const char *owner, double armies) {
    char p[96];
    snprintf(p, sizeof p, "territories/%s/owner/%s", terr, owner);
    cr_expect_eq(num(doc, p), 1.0, "%s owner", terr);
    snprintf(p, sizeof p, "territories/%s/owner", terr);
    cr_expect_eq(json_object_size(at(doc, p)), 1);
    snprintf(p, sizeof p, "territories/%s/armies/mean", terr);
    cr_expect_eq(num(doc, p), armies, "%s armies", terr);
    snprintf(p, sizeof p, "territories/%s/armies/percentiles/p50", terr);
    cr_expect_eq(num(doc, p), armies);
    snprintf(p, sizeof p, "territories/%s/armies/distribution", terr);
    cr_expect_eq(json_array_size(at(doc, p)), 1);
}

static void expect_order(const json_t *doc, int i, double skipped, double attack, double transfer,
                         double capture) {
    char p[96];
    snprintf(p, sizeof p, "orders/%d/skipped_probability", i);
    cr_expect(fabs(num(doc, p) - skipped) < 1e-12, "order %d skipped", i);
    snprintf(p, sizeof p, "orders/%d/attack_probability", i);
    cr_expect(fabs(num(doc, p) - attack) < 1e-12, "order %d attack", i);
    snprintf(p, sizeof p, "orders/%d/transfer_probability", i);
    cr_expect(fabs(num(doc, p) - transfer) < 1e-12, "order %d transfer", i);
    snprintf(p, sizeof p, "orders/%d/capture_probability", i);
    cr_expect(fabs(num(doc, p) - capture) < 1e-12, "order %d capture", i);
}

Test(analyze_turn, deterministic_turn_by_hand) { /* W12, W14, W15 */
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", DET_TURN("false"), &doc), 200, "%s", last_body);
    cr_expect(json_is_true(at(doc, "deterministic")));
    expect_single(doc, "A", "alice", 5);
    expect_single(doc, "B", "alice", 2);
    expect_single(doc, "C", "bob", 1);
    cr_expect_str_eq(json_string_value(at(doc, "orders/0/type")), "deploy");
    cr_expect_eq(json_object_size(at(doc, "orders/0")), 1, "a deploy has no probabilities");
    expect_order(doc, 1, 0, 1, 0, 1);
    expect_order(doc, 2, 0, 1, 0, 0);
    expect_order(doc, 3, 0, 1, 0, 0);
    expect_order(doc, 4, 1, 0, 0, 0);
    expect_order(doc, 5, 1, 0, 0, 0);
    cr_expect_eq(num(doc, "goals_probability"), 1.0);
    cr_expect(json_is_false(at(doc, "settings/multi_attack")));
    cr_expect_str_eq(json_string_value(at(doc, "move_order")), "listed");
    json_decref(doc);

    cr_assert_eq(run("/analyze-turn", DET_TURN("true"), &doc), 200, "%s", last_body);
    expect_single(doc, "A", "alice", 6);
    expect_single(doc, "B", "alice", 1);
    expect_single(doc, "C", "bob", 1);
    expect_order(doc, 4, 0, 0, 1, 0); /* W15 with multi_attack: the transfer runs */
    json_decref(doc);
}

/* 100 % luck, 1 vs 1 captures with 0.6 · 0.3 = 0.18 (docs/rules.md, reference values). Two attacks
 * on B: order 1 from A (2 armies) sends 1; order 2 from C (2 armies) sends 1, and is a transfer
 * when B fell to order 1 (W14.4), else a second 1 vs 1 attack (B holds 1 either way: the defender
 * survives or is resurrected, W5). So P(B alice) = 0.18 + 0.82 · 0.18 = 0.3276; B holds 2
 * after the transfer (0.18), else 1. A keeps 1, plus its attacker back when neither side
 * kills (0.4 · 0.3 = 0.12). */
static const char two_attacks[] =
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 2},"
    " \"B\": {\"owner\": \"bob\", \"armies\": 1}, \"C\": {\"owner\": \"alice\", \"armies\": 2}},"
    " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1},"
    " {\"player\": \"alice\", \"from\": \"C\", \"to\": \"B\", \"armies\": 1}],"
    " \"settings\": {\"luck_modifier\": 1}, \"goals\": [{\"territory\": \"B\", \"owner\": "
    "\"alice\"}]}";

Test(analyze_turn, two_attacks_on_one_territory_by_hand) { /* W5, W8, W14 */
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", two_attacks, &doc), 200, "%s", last_body);
    cr_expect(json_is_false(at(doc, "deterministic")));
    cr_expect(fabs(num(doc, "territories/B/owner/alice") - 0.3276) < 1e-12);
    cr_expect(fabs(num(doc, "territories/B/owner/bob") - 0.6724) < 1e-12);
    cr_expect(fabs(num(doc, "goals_probability") - 0.3276) < 1e-12);
    cr_expect_eq(num(doc, "territories/B/armies/distribution/0/armies"), 1);
    cr_expect(fabs(num(doc, "territories/B/armies/distribution/0/probability") - 0.82) < 1e-12);
    cr_expect_eq(num(doc, "territories/B/armies/distribution/1/armies"), 2);
    cr_expect(fabs(num(doc, "territories/B/armies/mean") - 1.18) < 1e-12);
    cr_expect_eq(num(doc, "territories/B/armies/percentiles/p50"), 1);
    cr_expect_eq(num(doc, "territories/B/armies/percentiles/p90"), 2);
    cr_expect(fabs(num(doc, "territories/A/armies/mean") - 1.12) < 1e-12);
    expect_order(doc, 0, 0, 1, 0, 0.18);
    expect_order(doc, 1, 0, 0.82, 0.18, 0.82 * 0.18);
    json_decref(doc);
}

/* 0 % luck, A alice 10, B bob 10, each sends 9 at the other. The first mover fails
 * (kills R(5.4) = 5 < 10; loses R(7) = 7, 2 back): its own territory 1 + 2 = 3, the other 5.
 * The second may move at most its eligible 5 less the guard: 4 (W14, W15), against 3: kills
 * R(2.4) = 2 < 3, loses R(2.1) = 2: 2 back. Alice first: A 1, B 3; bob first: A 3, B 1. */
#define DUEL(order)                                                                                \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10}, \"B\": {\"owner\": "        \
    "\"bob\", \"armies\": 10}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": "    \
    "\"B\", \"armies\": 9}, {\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\", \"armies\": "    \
    "9}], " order "}"

Test(analyze_turn, cycle_and_random_with_two_players) { /* W13 */
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", DUEL("\"move_order\": \"listed\""), &doc), 200);
    expect_single(doc, "A", "alice", 1);
    expect_single(doc, "B", "bob", 3);
    json_decref(doc);
    cr_assert_eq(run("/analyze-turn",
                     DUEL("\"move_order\": \"cycle\", \"player_order\": [\"bob\", \"alice\"]"),
                     &doc),
                 200, "%s", last_body);
    expect_single(doc, "A", "alice", 3);
    expect_single(doc, "B", "bob", 1);
    cr_expect_str_eq(json_string_value(at(doc, "move_order")), "cycle");
    json_decref(doc);
    cr_assert_eq(run("/analyze-turn", DUEL("\"move_order\": \"random\""), &doc), 200);
    cr_expect(json_is_false(at(doc, "deterministic")));
    cr_expect(fabs(num(doc, "territories/A/armies/mean") - 2.0) < 1e-12);
    cr_expect(fabs(num(doc, "territories/A/armies/distribution/0/probability") - 0.5) < 1e-12);
    cr_expect(fabs(num(doc, "territories/B/armies/distribution/1/probability") - 0.5) < 1e-12);
    json_decref(doc);
}

/* Each bad input with its exact pointer. */
static const struct {
    const char *body, *pointer, *needle;
} bad[] = {
#define BOARD                                                                                      \
    "\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 3}, \"B\": {\"owner\": \"b\", "       \
    "\"armies\": 1}, \"N\": {\"owner\": \"neutral\", \"armies\": 1}}"
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1},"
     " {\"player\": \"a\", \"from\": \"A\", \"to\": \"Z\", \"armies\": 1}]}",
     "/orders/1/to", "not a territory"},
    {"{" BOARD
     ", \"orders\": [{\"player\": \"a\", \"from\": \"Q\", \"to\": \"B\", \"armies\": 1}]}",
     "/orders/0/from", "not a territory"},
    {"{" BOARD
     ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"A\", \"armies\": 1}]}",
     "/orders/0/to", "another territory"},
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1,"
     " \"percent\": 0.5}]}",
     "/orders/0", "both"},
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\"}]}", "/orders/0",
     "needs armies or percent"},
    {"{" BOARD
     ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"percent\": 0}]}",
     "/orders/0/percent", "greater than 0"},
    {"{" BOARD
     ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"percent\": 1.01}]}",
     "/orders/0/percent", "at most 1"},
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"percent\":"
     " 0.1234567}]}",
     "/orders/0/percent", "6 decimal places"},
    {"{" BOARD ", \"orders\": [{\"type\": \"deploy\", \"player\": \"a\", \"to\": \"B\", \"armies\":"
     " 2}]}",
     "/orders/0/to", "W12"},
    {"{" BOARD ", \"orders\": [{\"type\": \"deploy\", \"player\": \"c\", \"to\": \"N\", \"armies\":"
     " 2}]}",
     "/orders/0/to", "W12"},
    {"{" BOARD ", \"orders\": [{\"player\": \"neutral\", \"from\": \"N\", \"to\": \"B\","
     " \"armies\": 1}]}",
     "/orders/0/player", "neutral"},
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1}],"
     " \"move_order\": \"cycle\"}",
     "/player_order", "required"},
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1},"
     " {\"player\": \"b\", \"from\": \"B\", \"to\": \"A\", \"armies\": 1}], \"move_order\": "
     "\"cycle\", \"player_order\": [\"a\"]}",
     "/player_order", "\"b\" is missing"},
    {"{" BOARD
     ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": -1}]}",
     "/orders/0/armies", "whole number"},
    {"{" BOARD
     ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1.5}]}",
     "/orders/0/armies", "whole number"},
    {"{" BOARD ", \"orders\": [], \"player_order\": [\"a\", \"b\", \"a\"]}", "/player_order/2",
     "second time"},
    {"{" BOARD ", \"orders\": [], \"player_order\": [\"zed\"]}", "/player_order/0", "player"},
    {"{" BOARD ", \"orders\": [{\"type\": \"move\", \"player\": \"a\", \"to\": \"B\", \"armies\":"
     " 1}]}",
     "/orders/0/type", "deploy, attack_transfer"},
    {"{" BOARD ", \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1,"
     " \"speed\": 2}]}",
     "/orders/0/speed", "not a known field"},
    {"{" BOARD ", \"orders\": [{\"type\": \"deploy\", \"player\": \"a\", \"from\": \"B\", \"to\": "
     "\"A\", \"armies\": 1}]}",
     "/orders/0/from", "no from"},
    {"{" BOARD ", \"orders\": [], \"goals\": [{\"territory\": \"X\", \"owner\": \"a\"}]}",
     "/goals/0/territory", "not a territory"},
    {"{" BOARD ", \"orders\": [], \"goals\": [{\"territory\": \"A\", \"owner\": \"zed\"}]}",
     "/goals/0/owner", "player"},
    {"{" BOARD ", \"orders\": [], \"teams\": {\"zed\": \"red\"}}", "/teams/zed", "not a player"},
    {"{" BOARD ", \"orders\": [], \"settings\": {\"multi_attack\": 1}}", "/settings/multi_attack",
     "true or false"},
    {"{" BOARD ", \"orders\": [], \"settings\": {\"luck_modifier\": 0.1234567}}",
     "/settings/luck_modifier", "6 decimal places"},
    {"{" BOARD ", \"orders\": [], \"move_order\": \"alphabetical\"}", "/move_order", "listed"},
    {"{\"territories\": {\"A\": {\"owner\": \"a\"}}, \"orders\": []}", "/territories/A/armies",
     "required"},
    {"{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 1, \"x\": 1}}, \"orders\": []}",
     "/territories/A/x", "not a known field"},
    {"{\"territories\": {\"A/B\": {\"owner\": \"a\\\"q\", \"armies\": 1}}, \"orders\": []}",
     "/territories/A~1B/owner", "id"},
    {"{\"territories\": {}, \"orders\": []}", "/territories", "1 to 4096"},
    {"{\"orders\": []}", "/territories", "required"},
    {"{" BOARD "}", "/orders", "required"},
    {"{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 1000000000}, \"B\": {\"owner\": "
     "\"b\", \"armies\": 1}}, \"orders\": []}",
     "/territories", "10^9"},
    {"{" BOARD ", \"orders\": [], \"trials\": 3}", "/trials", "not a known field"},
#undef BOARD
};

Test(analyze_turn, bad_input_names_the_field) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *doc;
        int status = run("/analyze-turn", bad[i].body, &doc);
        cr_expect_eq(status, 422, "case %zu: %s", i, last_body);
        cr_expect(has_error(doc, bad[i].pointer, bad[i].needle), "case %zu: want %s (%s) in %s", i,
                  bad[i].pointer, bad[i].needle, last_body);
        json_decref(doc);
    }
}

Test(analyze_turn, duplicate_ids_are_a_parse_error) {
    json_t *doc;
    cr_expect_eq(run("/analyze-turn",
                     "{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 1}, \"A\": "
                     "{\"owner\": \"b\", \"armies\": 1}}, \"orders\": []}",
                     &doc),
                 400);
    json_decref(doc);
}

Test(analyze_turn, limits_are_configurable_422s) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cr_expect_geq(cfg.warapp.max_turn_territories, 200);
    cr_expect_geq(cfg.warapp.max_turn_orders, 100);
    json_t *doc;
    cfg.warapp.max_turn_territories = 2;
    cr_expect_eq(run_cfg(&cfg, "/analyze-turn", two_attacks, &doc), 422);
    cr_expect(has_error(doc, "/territories", "warapp.max_turn_territories"), "%s", last_body);
    json_decref(doc);
    cbd_config_defaults(&cfg);
    cfg.warapp.max_turn_orders = 1;
    cr_expect_eq(run_cfg(&cfg, "/analyze-turn", two_attacks, &doc), 422);
    cr_expect(has_error(doc, "/orders", "warapp.max_turn_orders"), "%s", last_body);
    json_decref(doc);
    /* The 1 vs 1 battle at 100 % luck has three outcomes, so no turn with one fits in one
     * state; the refusal names /orders, the states needed, and the sampling endpoint. */
    cbd_config_defaults(&cfg);
    cfg.warapp.max_turn_states = 1;
    cr_expect_eq(run_cfg(&cfg, "/analyze-turn", two_attacks, &doc), 422);
    cr_expect(has_error(doc, "/orders", "/simulate-turn"), "%s", last_body);
    cr_expect(has_error(doc, "/orders", "needs at least"), "%s", last_body);
    cr_expect(has_error(doc, "/orders", "warapp.max_turn_states"), "%s", last_body);
    json_decref(doc);
    cfg.warapp.max_turn_states = 16; /* the same turn fits when its states do */
    cr_expect_eq(run_cfg(&cfg, "/analyze-turn", two_attacks, &doc), 200, "%s", last_body);
    json_decref(doc);
}

#define SIM(extra)                                                                                 \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 2}, \"B\": {\"owner\": "         \
    "\"bob\", \"armies\": 1}, \"C\": {\"owner\": \"alice\", \"armies\": 2}}, \"orders\": "         \
    "[{\"type\": \"deploy\", \"player\": \"alice\", \"to\": \"A\", \"armies\": 1}, {\"player\": "  \
    "\"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1}, {\"player\": \"alice\", "          \
    "\"from\": "                                                                                   \
    "\"C\", \"to\": \"B\", \"armies\": 1}], \"settings\": {\"luck_modifier\": 1}, \"goals\": "     \
    "[{\"territory\": \"B\", \"owner\": \"alice\"}]" extra "}"

Test(simulate_turn, shape_counts_and_listed_turns) {
    json_t *doc;
    cr_assert_eq(run("/simulate-turn", SIM(", \"trials\": 50, \"seed\": 11"), &doc), 200, "%s",
                 last_body);
    cr_expect_eq(num(doc, "seed"), 11);
    cr_expect_eq(num(doc, "trials"), 50);
    double alice = json_is_number(json_object_get(at(doc, "territories/B/owner"), "alice"))
                       ? num(doc, "territories/B/owner/alice")
                       : 0;
    double bob = num(doc, "territories/B/owner/bob");
    cr_expect_eq(alice + bob, 50);
    cr_expect_eq(num(doc, "goals_met"), alice);
    cr_expect_eq(num(doc, "orders/1/attacks"), 50); /* order 1 always attacks */
    cr_expect_eq(num(doc, "orders/2/transfers"), num(doc, "orders/1/captures")); /* W14.4 */
    cr_expect_eq(num(doc, "orders/2/attacks") + num(doc, "orders/2/transfers"), 50);
    cr_expect_eq(json_object_size(at(doc, "orders/0")), 1);
    const json_t *turns = at(doc, "turns");
    cr_assert_eq(json_array_size(turns), 50);
    size_t captured = 0;
    uint64_t armies_b = 0;
    for (size_t t = 0; t < 50; t++) {
        const json_t *turn = json_array_get(turns, t);
        const json_t *o1 = json_array_get(json_object_get(turn, "orders"), 1);
        cr_expect_str_eq(json_string_value(json_object_get(o1, "result")), "attack");
        cr_expect_eq(json_integer_value(json_object_get(o1, "sent")), 1);
        const char *owner = json_string_value(
            json_object_get(json_object_get(json_object_get(turn, "territories"), "B"), "owner"));
        captured += strcmp(owner, "alice") == 0;
        armies_b += (uint64_t)json_integer_value(
            json_object_get(json_object_get(json_object_get(turn, "territories"), "B"), "armies"));
        cr_expect_str_eq(json_string_value(json_object_get(
                             json_array_get(json_object_get(turn, "orders"), 0), "result")),
                         "deploy");
    }
    cr_expect_eq((double)captured, alice);
    cr_expect(fabs(num(doc, "territories/B/armies/mean") - (double)armies_b / 50.0) < 1e-12);
    json_decref(doc);
}

Test(simulate_turn, same_seed_same_bytes_and_fresh_seeds) {
    json_t *doc;
    cr_assert_eq(run("/simulate-turn", SIM(", \"trials\": 500, \"seed\": 99"), &doc), 200);
    char *first = strdup(last_body);
    json_decref(doc);
    cr_assert_eq(run("/simulate-turn", SIM(", \"trials\": 500, \"seed\": 99"), &doc), 200);
    cr_expect_str_eq(first, last_body);
    cr_expect_null(json_object_get(doc, "turns"), "turns are listed only up to 100 trials");
    json_decref(doc);
    free(first);
    cr_assert_eq(run("/simulate-turn", SIM(""), &doc), 200);
    cr_expect(json_is_integer(at(doc, "seed")));
    cr_expect_eq(num(doc, "trials"), 1);
    cr_expect_eq(json_array_size(at(doc, "turns")), 1);
    json_decref(doc);
}

Test(simulate_turn, budgets_are_422s) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    json_t *doc;
    cfg.warapp.max_turn_simulated_orders = 29; /* 10 trials × 3 orders = 30 */
    cr_expect_eq(run_cfg(&cfg, "/simulate-turn", SIM(", \"trials\": 10"), &doc), 422);
    cr_expect(has_error(doc, "/trials", "warapp.max_turn_simulated_orders"), "%s", last_body);
    json_decref(doc);
    cfg.warapp.max_turn_simulated_orders = 30;
    cr_expect_eq(run_cfg(&cfg, "/simulate-turn", SIM(", \"trials\": 10"), &doc), 200);
    json_decref(doc);
    cr_expect_eq(run("/simulate-turn", SIM(", \"trials\": 101, \"include_turns\": true"), &doc),
                 422);
    cr_expect(has_error(doc, "/include_turns", "warapp.max_listed_turns"), "%s", last_body);
    json_decref(doc);
    cr_expect_eq(run("/simulate-turn", SIM(", \"trials\": 0"), &doc), 422);
    cr_expect(has_error(doc, "/trials", NULL));
    json_decref(doc);
    cr_expect_eq(run("/simulate-turn", SIM(", \"seed\": 9007199254740992"), &doc), 422);
    cr_expect(has_error(doc, "/seed", NULL));
    json_decref(doc);
}

/* The cost estimate (api.h): 20 µs to parse, 100 ns per resolved order (trials × orders). With
 * the default inline budget of 1 ms, 1,000 turns of 3 orders stay on the HTTP thread (0.32 ms)
 * and 30,000 go to a worker (9.02 ms). */
Test(simulate_turn, heavy_runs_go_to_a_worker) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/simulate-turn");
    cr_assert_not_null(ep->cost);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    json_t *small = json_loads("{\"trials\": 1000, \"orders\": [1, 2, 3]}", 0, NULL);
    json_t *large = json_loads("{\"trials\": 30000, \"orders\": [1, 2, 3]}", 0, NULL);
    cr_expect_eq(ep->cost(&cfg, small), UINT64_C(320000));
    cr_expect_eq(ep->cost(&cfg, large), UINT64_C(9020000));
    cr_expect_leq(ep->cost(&cfg, small), cfg.limits.inline_cost_ns);
    cr_expect_gt(ep->cost(&cfg, large), cfg.limits.inline_cost_ns);
    json_decref(small);
    json_decref(large);
}
