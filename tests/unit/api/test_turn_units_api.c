/*
 * Special units in POST /analyze-turn and /simulate-turn at the JSON layer (W21, W22): the
 * answers' shape with the numbers worked out by hand (0 % luck: one outcome per battle), that
 * answers without units carry no unit members, and every 422 of a bad unit with its pointer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "chi_square.h"

static char *last_body;

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

static const json_t *at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert_not_null(v, "no %s in %s", path, last_body);
    return v;
}

static double num(const json_t *doc, const char *path) {
    const json_t *v = at(doc, path);
    cr_assert(json_is_number(v), "%s is not a number in %s", path, last_body);
    return json_number_value(v);
}

/*
 * W22 by hand (as test_warapp_turn_units.c): Alice sends 16 from T0 into Bob's T1 (3 armies
 * and his only Commander): 16 deal round(9.6) = 10, the 3 armies die and the 7 left kill the
 * Commander (damage to kill 7); Bob's power 10 deals 7; T1 is Alice's with 9. Bob is
 * eliminated: T2 turns neutral with 5, and his order from T2 is skipped. Alice's Commander
 * stays on T3 (no order lists it).
 */
#define ELIMINATION_TURN(extra)                                                                    \
    "{\"territories\": {\"T0\": {\"owner\": \"alice\", \"armies\": 17},"                           \
    " \"T1\": {\"owner\": \"bob\", \"armies\": 3,"                                                 \
    "  \"units\": [{\"id\": \"bob-cmdr\", \"type\": \"commander\"}]},"                             \
    " \"T2\": {\"owner\": \"bob\", \"armies\": 5},"                                                \
    " \"T3\": {\"owner\": \"alice\", \"armies\": 2,"                                               \
    "  \"units\": [{\"id\": \"alice-cmdr\", \"type\": \"commander\"}]}},"                          \
    " \"orders\": [{\"player\": \"alice\", \"from\": \"T0\", \"to\": \"T1\", \"armies\": 100},"    \
    " {\"player\": \"bob\", \"from\": \"T2\", \"to\": \"T3\", \"armies\": 100}],"                  \
    " \"settings\": {\"luck_modifier\": 0}" extra "}"

Test(turn_units_api, analyze_turn_answers_units_and_players) {
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", ELIMINATION_TURN(""), &doc), 200, "%s", last_body);
    cr_expect_eq(num(doc, "territories/T1/owner/alice"), 1.0);
    cr_expect_eq(num(doc, "territories/T1/armies/mean"), 9.0);
    cr_expect_eq(num(doc, "territories/T2/owner/neutral"), 1.0);
    cr_expect_eq(num(doc, "territories/T2/armies/mean"), 5.0);
    cr_expect_eq(num(doc, "territories/T3/owner/alice"), 1.0);
    cr_expect_eq(num(doc, "orders/1/skipped_probability"), 1.0);
    cr_expect_eq(num(doc, "units/bob-cmdr/alive_probability"), 0.0);
    cr_expect_eq(json_object_size(at(doc, "units/bob-cmdr/territories")), 0);
    cr_expect_eq(num(doc, "units/alice-cmdr/alive_probability"), 1.0);
    cr_expect_eq(num(doc, "units/alice-cmdr/territories/T3"), 1.0);
    cr_expect_eq(num(doc, "players/bob/eliminated_probability"), 1.0);
    cr_expect_eq(num(doc, "players/alice/eliminated_probability"), 0.0);
    json_decref(doc);
}

Test(turn_units_api, simulate_turn_counts_units_and_lists_them) {
    json_t *doc;
    cr_assert_eq(run("/simulate-turn", ELIMINATION_TURN(", \"trials\": 3, \"seed\": 5"), &doc), 200,
                 "%s", last_body);
    cr_expect_eq(num(doc, "units/bob-cmdr/alive"), 0);
    cr_expect_eq(num(doc, "units/alice-cmdr/alive"), 3);
    cr_expect_eq(num(doc, "units/alice-cmdr/territories/T3"), 3);
    cr_expect_eq(num(doc, "players/bob/eliminated"), 3);
    cr_expect_eq(num(doc, "players/alice/eliminated"), 0);
    cr_expect_eq(num(doc, "territories/T2/owner/neutral"), 3);
    const json_t *first = at(doc, "turns/0/orders/0");
    cr_expect_eq(json_array_size(at(first, "units_sent")), 0);
    cr_expect_str_eq(json_string_value(at(first, "units_died/0")), "bob-cmdr");
    /* T1 was Bob's when the battle began (Alice's after it): his are the defending units */
    cr_expect_str_eq(json_string_value(at(first, "defender")), "bob");
    cr_expect_str_eq(json_string_value(at(doc, "turns/2/orders/1/result")), "skipped");
    /* W21: each listed turn's territories list their living units; the dead are gone. */
    for (int t = 0; t < 3; t++) {
        char path[64];
        snprintf(path, sizeof path, "turns/%d/territories/T3/units", t);
        cr_expect_eq(json_array_size(at(doc, path)), 1);
        snprintf(path, sizeof path, "turns/%d/territories/T3/units/0", t);
        cr_expect_str_eq(json_string_value(at(doc, path)), "alice-cmdr");
        snprintf(path, sizeof path, "turns/%d/territories/T1", t);
        cr_expect_null(json_object_get(at(doc, path), "units"));
    }
    json_decref(doc);
}

/* A Commander sent with 4 armies into a neutral T1 of 4: power 11 deals round(6.6) = 7, the 4
 * deal round(2.8) = 3 (spent on the armies, W19); 1 army and the Commander take T1. */
#define SENT_TURN(extra)                                                                           \
    "{\"territories\": {\"T0\": {\"owner\": \"alice\", \"armies\": 5,"                             \
    " \"units\": [{\"id\": \"c\", \"type\": \"commander\"}]},"                                     \
    " \"T1\": {\"owner\": \"neutral\", \"armies\": 4}},"                                           \
    " \"orders\": [{\"player\": \"alice\", \"from\": \"T0\", \"to\": \"T1\", \"armies\": 4,"       \
    " \"units\": [\"c\"]}], \"settings\": {\"luck_modifier\": 0}" extra "}"

Test(turn_units_api, commander_sent_with_an_attack) {
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", SENT_TURN(""), &doc), 200, "%s", last_body);
    cr_expect_eq(num(doc, "orders/0/capture_probability"), 1.0);
    cr_expect_eq(num(doc, "units/c/territories/T1"), 1.0);
    cr_expect_eq(num(doc, "territories/T1/armies/mean"), 1.0);
    json_decref(doc);
    cr_assert_eq(run("/simulate-turn", SENT_TURN(", \"trials\": 1, \"seed\": 1"), &doc), 200, "%s",
                 last_body);
    cr_expect_str_eq(json_string_value(at(doc, "turns/0/orders/0/units_sent/0")), "c");
    cr_expect_eq(json_array_size(at(doc, "turns/0/orders/0/units_died")), 0);
    cr_expect_str_eq(json_string_value(at(doc, "turns/0/orders/0/defender")), "neutral");
    cr_expect_eq(num(doc, "units/c/territories/T1"), 1);
    cr_expect_str_eq(json_string_value(at(doc, "turns/0/territories/T1/units/0")), "c");
    cr_expect_null(json_object_get(at(doc, "turns/0/territories/T0"), "units"));
    json_decref(doc);
}

/*
 * W19, W21: a listed turn's territory lists its units as the board would for the next turn:
 * those there at the start in the board's order, then the arrivals as they came. A and C stand
 * on T1, B on T0; Alice transfers 2 of T0's 3 armies and B to T1, so T1 lists A, C, B.
 */
Test(turn_units_api, w21_listed_turn_units_in_listed_order) {
    const char *body = "{\"territories\": {\"T0\": {\"owner\": \"alice\", \"armies\": 3,"
                       " \"units\": [{\"id\": \"B\", \"type\": \"commander\"}]},"
                       " \"T1\": {\"owner\": \"alice\", \"armies\": 2, \"units\": ["
                       " {\"id\": \"A\", \"type\": \"commander\"},"
                       " {\"id\": \"C\", \"type\": \"commander\"}]}},"
                       " \"orders\": [{\"player\": \"alice\", \"from\": \"T0\", \"to\": \"T1\","
                       " \"armies\": 2, \"units\": [\"B\"]}], \"seed\": 1}";
    json_t *doc;
    cr_assert_eq(run("/simulate-turn", body, &doc), 200, "%s", last_body);
    const json_t *t1 = at(doc, "turns/0/territories/T1/units");
    cr_assert_eq(json_array_size(t1), 3, "%s", last_body);
    cr_expect_str_eq(json_string_value(json_array_get(t1, 0)), "A");
    cr_expect_str_eq(json_string_value(json_array_get(t1, 1)), "C");
    cr_expect_str_eq(json_string_value(json_array_get(t1, 2)), "B");
    cr_expect_eq(num(doc, "turns/0/territories/T1/armies"), 4);
    cr_expect_null(json_object_get(at(doc, "turns/0/territories/T0"), "units"));
    json_decref(doc);
}

Test(turn_units_api, no_unit_members_without_units) {
    const char *body = "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 5},"
                       " \"B\": {\"owner\": \"neutral\", \"armies\": 1}},"
                       " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\","
                       " \"armies\": 4}], \"seed\": 3}";
    json_t *doc;
    cr_assert_eq(run("/simulate-turn", body, &doc), 200, "%s", last_body);
    cr_expect_null(json_object_get(doc, "units"));
    cr_expect_null(json_object_get(doc, "players"));
    cr_expect_null(json_object_get(at(doc, "turns/0/orders/0"), "units_sent"));
    cr_expect_null(json_object_get(at(doc, "turns/0/territories/A"), "units"));
    json_decref(doc);
}

typedef struct {
    const char *territories; /* the members of "territories" */
    const char *orders;      /* the items of "orders" */
    const char *pointer, *needle;
} bad_case;

static const bad_case bad[] = {
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"x\", \"type\": "
     "\"general\"}]}",
     "", "/territories/A/units/0/type", NULL},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"x\", \"type\": "
     "\"custom\", \"attack_power\": 1, \"defense_power\": 1, \"combat_order\": 0, "
     "\"damage_to_kill\": 2}]}",
     "", "/territories/A/units/0/name", NULL},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"x\", \"type\": "
     "\"custom\", \"name\": \"S\", \"attack_power\": 1, \"defense_power\": 1, \"combat_order\": "
     "0, \"damage_to_kill\": 2, \"health\": 3}]}",
     "", "/territories/A/units/0/health", "exactly one"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"type\": \"commander\"}]}", "",
     "/territories/A/units/0/id", "required in a turn"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"a\\\"b\", \"type\": "
     "\"commander\"}]}",
     "", "/territories/A/units/0/id", NULL},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"x\", \"type\": "
     "\"commander\"}]}, \"B\": {\"owner\": \"bob\", \"armies\": 1, \"units\": [{\"id\": \"x\", "
     "\"type\": \"commander\"}]}",
     "", "/territories/B/units/0/id", "already the id of a unit on A"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3}, \"B\": {\"owner\": \"bob\", \"armies\": 1}",
     "{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1, \"units\": "
     "[\"ghost\"]}",
     "/orders/0/units/0", "not a unit of this board"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3}, \"B\": {\"owner\": \"bob\", \"armies\": 1, "
     "\"units\": [{\"id\": \"bc\", \"type\": \"commander\"}]}",
     "{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1, \"units\": [\"bc\"]}",
     "/orders/0/units/0", "a unit of bob"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"c\", \"type\": "
     "\"commander\"}]}, \"B\": {\"owner\": \"bob\", \"armies\": 1}",
     "{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1, \"units\": [\"c\", "
     "\"c\"]}",
     "/orders/0/units/1", "again"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"c\", \"type\": "
     "\"commander\"}]}",
     "{\"type\": \"deploy\", \"player\": \"alice\", \"to\": \"A\", \"armies\": 1, \"units\": "
     "[\"c\"]}",
     "/orders/0/units", "deploy"},
    {"\"A\": {\"owner\": \"alice\", \"armies\": 3}, \"B\": {\"owner\": \"bob\", \"armies\": 1}",
     "{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 1, \"units\": [7]}",
     "/orders/0/units/0", "unit id"},
};

Test(turn_units_api, bad_units_are_422_naming_the_field) {
    const char *paths[2] = {"/analyze-turn", "/simulate-turn"};
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

/* The limits: warapp.max_units on one territory (32 by default), 64 units on the board. */
static void units_of(char *out, size_t cap, const char *prefix, int n) {
    size_t len = 0;
    for (int k = 0; k < n; k++) {
        len +=
            (size_t)snprintf(out + len, cap - len, "%s{\"id\": \"%s%d\", \"type\": \"commander\"}",
                             k ? ", " : "", prefix, k);
    }
}

Test(turn_units_api, unit_limits) {
    static char units[3][4096], body[16384];
    units_of(units[0], sizeof units[0], "a", 33);
    snprintf(body, sizeof body,
             "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 1, \"units\": [%s]}},"
             " \"orders\": []}",
             units[0]);
    json_t *doc;
    cr_assert_eq(run("/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories/A/units", NULL), "%s", last_body);
    json_decref(doc);

    units_of(units[0], sizeof units[0], "a", 32);
    units_of(units[1], sizeof units[1], "b", 32);
    units_of(units[2], sizeof units[2], "c", 1);
    snprintf(body, sizeof body,
             "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 1, \"units\": [%s]},"
             " \"B\": {\"owner\": \"bob\", \"armies\": 1, \"units\": [%s]},"
             " \"C\": {\"owner\": \"carol\", \"armies\": 1, \"units\": [%s]}}, \"orders\": []}",
             units[0], units[1], units[2]);
    cr_assert_eq(run("/analyze-turn", body, &doc), 422, "%s", last_body);
    cr_expect(has_error(doc, "/territories/C/units/0", "at most 64"), "%s", last_body);
    json_decref(doc);
}

/* /simulate-turn's counts against /analyze-turn's probabilities through the endpoints (fixed
 * seed, chi-square at 0.1 %): where each Commander ends and whether each player is
 * eliminated, at 100 % luck under the random move order. */
#define CHI_TURN(extra)                                                                            \
    "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 12},"                            \
    " \"B\": {\"owner\": \"bob\", \"armies\": 2, \"units\": [{\"id\": \"bc\", \"type\": "          \
    "\"commander\"}]},"                                                                            \
    " \"C\": {\"owner\": \"bob\", \"armies\": 4},"                                                 \
    " \"D\": {\"owner\": \"alice\", \"armies\": 3, \"units\": [{\"id\": \"ac\", \"type\": "        \
    "\"commander\"}]}},"                                                                           \
    " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 11},"       \
    " {\"player\": \"bob\", \"from\": \"C\", \"to\": \"D\", \"armies\": 3},"                       \
    " {\"player\": \"alice\", \"from\": \"D\", \"to\": \"C\", \"armies\": 2, \"units\": "          \
    "[\"ac\"]}],"                                                                                  \
    " \"settings\": {\"luck_modifier\": 1, \"rounding_mode\": \"weighted_random\"},"               \
    " \"move_order\": \"random\"" extra "}"

static double member_or_zero(const json_t *obj, const char *key) {
    const json_t *v = json_object_get(obj, key);
    return v ? json_number_value(v) : 0.0;
}

Test(turn_units_api, simulated_counts_agree_with_the_analysis) {
    json_t *an, *sim;
    cr_assert_eq(run("/analyze-turn", CHI_TURN(""), &an), 200, "%s", last_body);
    enum { TRIALS = 20000 };
    cr_assert_eq(run("/simulate-turn", CHI_TURN(", \"trials\": 20000, \"seed\": 77"), &sim), 200,
                 "%s", last_body);
    const char *units[2] = {"ac", "bc"}, *terr[4] = {"A", "B", "C", "D"};
    for (int u = 0; u < 2; u++) {
        char path[64];
        uint64_t obs[5] = {0};
        long double prob[5] = {0};
        snprintf(path, sizeof path, "units/%s/territories", units[u]);
        const json_t *pa = at(an, path), *ps = at(sim, path);
        uint64_t alive = 0;
        for (int t = 0; t < 4; t++) {
            prob[t] = member_or_zero(pa, terr[t]);
            obs[t] = (uint64_t)member_or_zero(ps, terr[t]);
            alive += obs[t];
        }
        snprintf(path, sizeof path, "units/%s/alive", units[u]);
        cr_expect_eq(alive, (uint64_t)num(sim, path));
        snprintf(path, sizeof path, "units/%s/alive_probability", units[u]);
        prob[4] = 1.0L - num(an, path);
        obs[4] = TRIALS - alive;
        chi_square_result r = chi_square_test(obs, prob, 5, TRIALS);
        cr_log_info("unit %s: chi-square %.3f on %d df (critical %.3f)", units[u], r.statistic,
                    r.df, r.critical);
        cr_expect_lt(r.statistic, r.critical, "unit %s: %g on %d df", units[u], r.statistic, r.df);
        cr_expect_gt(r.df, 0, "unit %s", units[u]);
    }
    const char *players[2] = {"alice", "bob"};
    for (int p = 0; p < 2; p++) {
        char path[64];
        snprintf(path, sizeof path, "players/%s/eliminated_probability", players[p]);
        long double prob[2];
        prob[1] = num(an, path);
        prob[0] = 1.0L - prob[1];
        snprintf(path, sizeof path, "players/%s/eliminated", players[p]);
        uint64_t obs[2] = {TRIALS - (uint64_t)num(sim, path), (uint64_t)num(sim, path)};
        chi_square_result r = chi_square_test(obs, prob, 2, TRIALS);
        cr_log_info("player %s: chi-square %.3f on %d df (P = %.6f)", players[p], r.statistic, r.df,
                    (double)prob[1]);
        cr_expect_lt(r.statistic, r.critical, "player %s: %g on %d df", players[p], r.statistic,
                     r.df);
    }
    cr_expect_gt(num(an, "players/bob/eliminated_probability"), 0.05);
    json_decref(an);
    json_decref(sim);
}
