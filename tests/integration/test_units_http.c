/*
 * Special units over HTTP (W17–W22): the docs' Commander examples sent to a real combatd and
 * worked out by hand, a seeded /simulate-turn with units replayed to the same bytes, and the
 * 422s that name a bad unit id.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"

TestSuite(units_http, .init = test_suite_start, .fini = test_suite_stop);

static const json_t *at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert_not_null(v, "no %s", path);
    return v;
}

static double num(const json_t *doc, const char *path) {
    return json_number_value(at(doc, path));
}

/* P(Bin(16, 0.6) >= 9), summed exactly in rationals and rounded once. */
#define P_CAPTURE  0.716063352717312
#define P_BOB_LIVE (1.0 - P_CAPTURE)

/* docs/api/turns.md's Commander turn; `order_unit` goes into alice's order, `camp_id` names her
 * unit. */
#define CMDR_TURN(order_unit, camp_id, extra)                                                      \
    "{\"territories\": {\"home\": {\"owner\": \"alice\", \"armies\": 17},"                         \
    " \"keep\": {\"owner\": \"bob\", \"armies\": 3,"                                               \
    " \"units\": [{\"id\": \"bob-cmdr\", \"type\": \"commander\"}]},"                              \
    " \"farm\": {\"owner\": \"bob\", \"armies\": 5},"                                              \
    " \"camp\": {\"owner\": \"alice\", \"armies\": 2,"                                             \
    " \"units\": [{\"id\": \"" camp_id "\", \"type\": \"commander\"}]}},"                          \
    " \"orders\": [{\"player\": \"alice\", \"from\": \"home\", \"to\": \"keep\", \"armies\": "     \
    "16" order_unit "},"                                                                           \
    " {\"player\": \"bob\", \"from\": \"farm\", \"to\": \"camp\", \"armies\": 4}],"                \
    " \"settings\": {\"luck_modifier\": 0.16}" extra "}"

/*
 * By hand (W1, W2, W18–W22). Alice's 16 deal R(0.16·X + 0.84·16·0.6) = R(0.16·X + 8.064),
 * X ~ Bin(16, 0.6): 10 (the 3 armies, then the Commander's 7 at once, W19) iff
 * 0.16·X >= 1.436, X >= 9. Keep's 3 + 7 power deal R(0.16·Y + 5.88) <= 7 < 16: alice keeps
 * armies, so keep is taken iff X >= 9, and bob's Commander dies with it: bob is eliminated
 * (W22), farm turns neutral and his order from it is skipped. Otherwise his 4 deal at most
 * R(0.16·4 + 2.016) = 3 into camp's 2 armies and Commander: the Commander takes at most 1 and
 * lives, and camp's 2 + 7 power deal R(0.16·Y + 5.292) >= 5 >= 4: bob's attack fails.
 */
Test(units_http, readme_commander_turn_by_hand) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-turn", CMDR_TURN("", "alice-cmdr", ""), &r),
                 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    const json_t *d = r.json;
    cr_expect_float_eq(num(d, "orders/0/capture_probability"), P_CAPTURE, 1e-12);
    cr_expect_float_eq(num(d, "orders/1/skipped_probability"), P_CAPTURE, 1e-12);
    cr_expect_float_eq(num(d, "units/bob-cmdr/alive_probability"), P_BOB_LIVE, 1e-12);
    cr_expect_float_eq(num(d, "units/bob-cmdr/territories/keep"), P_BOB_LIVE, 1e-12);
    cr_expect_eq(num(d, "units/alice-cmdr/alive_probability"), 1.0);
    cr_expect_eq(num(d, "units/alice-cmdr/territories/camp"), 1.0);
    cr_expect_eq(num(d, "players/alice/eliminated_probability"), 0.0);
    cr_expect_float_eq(num(d, "players/bob/eliminated_probability"), P_CAPTURE, 1e-12);
    cr_expect_float_eq(num(d, "territories/farm/owner/neutral"), P_CAPTURE, 1e-12);
    cr_expect_float_eq(num(d, "territories/farm/owner/bob"), P_BOB_LIVE, 1e-12);
    cr_expect_float_eq(num(d, "territories/keep/owner/alice"), P_CAPTURE, 1e-12);
    cr_expect_eq(num(d, "territories/camp/owner/alice"), 1.0);
    test_response_free(&r);
}

/*
 * The same turn sampled: one seed gives the same bytes twice, and every trial agrees with
 * itself: bob's Commander lives exactly in the trials where bob is not eliminated, and farm is
 * neutral exactly where he is; alice's Commander never dies.
 */
Test(units_http, simulated_commander_turn_replays_by_seed) {
    test_response a, b;
    const char *body = CMDR_TURN("", "alice-cmdr", ", \"trials\": 3000, \"seed\": 2026120123");
    cr_assert_eq(test_post_json(test_port, "/simulate-turn", body, &a), 0);
    cr_assert_eq(test_post_json(test_port, "/simulate-turn", body, &b), 0);
    cr_assert_eq(a.status, 200, "%s", a.body);
    cr_expect_eq(a.body_len, b.body_len);
    cr_expect_eq(memcmp(a.body, b.body, a.body_len), 0, "the seed replays the same bytes");
    const json_t *d = a.json;
    double eliminated = num(d, "players/bob/eliminated");
    cr_expect_eq(num(d, "units/bob-cmdr/alive") + eliminated, 3000);
    cr_expect_eq(num(d, "territories/farm/owner/neutral"), eliminated);
    cr_expect_eq(num(d, "players/alice/eliminated"), 0);
    cr_expect_eq(num(d, "units/alice-cmdr/alive"), 3000);
    /* 3000 trials at p = 0.716: sd = sqrt(3000·p·(1 − p)) = 24.7; 6 sd either side. */
    cr_expect(fabs(eliminated - 3000 * P_CAPTURE) < 6 * 24.7, "%g eliminations", eliminated);
    test_response_free(&a);
    test_response_free(&b);
}

/* Whether some error of r names `pointer`. */
static bool names(const test_response *r, const char *pointer) {
    const json_t *errors = json_object_get(r->json, "errors");
    for (size_t i = 0; i < json_array_size(errors); i++) {
        const char *p = json_string_value(json_object_get(json_array_get(errors, i), "pointer"));
        if (p && strcmp(p, pointer) == 0) {
            return true;
        }
    }
    return false;
}

/* W21: an order may move only units of the board, and a turn's ids are unique on it. */
Test(units_http, bad_unit_ids_are_422s_naming_the_field) {
    const char *unknown[] = {
        CMDR_TURN(", \"units\": [\"nobody\"]", "alice-cmdr", ""),
        CMDR_TURN(", \"units\": [\"nobody\"]", "alice-cmdr", ", \"trials\": 10")};
    const char *twice[] = {CMDR_TURN("", "bob-cmdr", ""),
                           CMDR_TURN("", "bob-cmdr", ", \"trials\": 10")};
    const char *paths[] = {"/analyze-turn", "/simulate-turn"};
    for (size_t i = 0; i < 2; i++) {
        test_response r;
        cr_assert_eq(test_post_json(test_port, paths[i], unknown[i], &r), 0);
        cr_expect_eq(r.status, 422, "%s: %s", paths[i], r.body);
        cr_expect(names(&r, "/orders/0/units/0"), "%s: %s", paths[i], r.body);
        test_response_free(&r);
        cr_assert_eq(test_post_json(test_port, paths[i], twice[i], &r), 0);
        cr_expect_eq(r.status, 422, "%s: %s", paths[i], r.body);
        /* The territory read second with the id is the one named. */
        cr_expect(names(&r, "/territories/camp/units/0/id") ||
                      names(&r, "/territories/keep/units/0/id"),
                  "%s: %s", paths[i], r.body);
        test_response_free(&r);
    }
}

/*
 * docs/api/battles.md's first Commander example, at the default 0 % luck: 10 armies deal
 * R(6) = 6, which kill the 3 armies; the 3 left are fewer than the Commander's 7 (W19), so it
 * lives and keep is held (W20). The 3 + 7 power deal R(7) = 7: 3 attackers are left.
 */
Test(units_http, readme_commander_defense) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-attack",
                                "{\"attackers\": 10, \"defenders\": 3, \"defending_units\": "
                                "[{\"type\": \"commander\", \"id\": \"bob\"}]}",
                                &r),
                 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(num(r.json, "capture_probability"), 0.0);
    cr_expect_str_eq(json_string_value(at(r.json, "defending_units/0/id")), "bob");
    cr_expect_str_eq(json_string_value(at(r.json, "defending_units/0/type")), "commander");
    cr_expect_eq(num(r.json, "defending_units/0/survival_probability"), 1.0);
    cr_expect_eq(num(r.json, "attackers_left/mean"), 3.0);
    cr_expect_eq(num(r.json, "defenders_left/mean"), 0.0);
    test_response_free(&r);
}

/*
 * Its second: 5 armies and a Commander (power 12) at 16 % luck deal R(0.16·X + 6.048),
 * X ~ Bin(12, 0.6): 6 to 8, never the 3 + 7 that would kill theirs: capture 0, their Commander
 * lives. Theirs (power 10) deal R(0.16·Y + 5.88), 6 or 7: the 5 armies die first and mine
 * takes at most 2 < 7: it lives. For 90 %, a armies and the Commander deal
 * R(0.16·X + 0.504·(a + 7)) >= 10 iff X >= (9.5 − 0.504·(a + 7)) / 0.16: a = 9 needs X >= 9 of
 * 16 (0.716), a = 10 needs X >= 6 of 17 (0.98941): 10 armies.
 */
Test(units_http, readme_commander_against_commander) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-attack",
                                "{\"attackers\": 5, \"defenders\": 3, \"settings\": "
                                "{\"luck_modifier\": 0.16}, \"attacking_units\": [{\"type\": "
                                "\"commander\", \"id\": \"mine\"}], \"defending_units\": "
                                "[{\"type\": \"commander\", \"id\": \"theirs\"}], \"targets\": "
                                "[0.9]}",
                                &r),
                 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(num(r.json, "capture_probability"), 0.0);
    cr_expect_eq(num(r.json, "attacking_units/0/survival_probability"), 1.0);
    cr_expect_eq(num(r.json, "defending_units/0/survival_probability"), 1.0);
    cr_expect_eq(num(r.json, "attackers_left/mean"), 0.0);
    cr_expect_eq(num(r.json, "defenders_left/mean"), 0.0);
    cr_expect_eq(num(r.json, "armies_needed/0/attackers"), 10);
    test_response_free(&r);
}
