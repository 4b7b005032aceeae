/*
 * Cards over HTTP (W24–W30): docs/api/turns.md's card examples sent to a real combatd, with the
 * numbers worked by hand there (0 % luck, 60/70, straight round: W1, W2, W5); the bodies here are
 * the docs'. And a 422 naming a card's member.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "http_client.h"

TestSuite(cards_http, .init = test_suite_start, .fini = test_suite_stop);

static const json_t *at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert_not_null(v, "no %s", path);
    return v;
}

static double num(const json_t *doc, const char *path) {
    return json_number_value(at(doc, path));
}

/* Posts body to path; the answer must be a 200. */
static void post_ok(const char *path, const char *body, test_response *r) {
    cr_assert_eq(test_post_json(test_port, path, body, r), 0);
    cr_assert_eq(r->status, 200, "%s", r->body);
}

/* Territory id owned by `owner` with certainty and `armies` armies. */
static void expect_territory(const json_t *d, const char *id, const char *owner, double armies) {
    char path[96];
    snprintf(path, sizeof path, "territories/%s/owner/%s", id, owner);
    cr_expect_eq(num(d, path), 1.0, "%s", path);
    snprintf(path, sizeof path, "territories/%s/armies/mean", id);
    cr_expect_eq(num(d, path), armies, "%s", path);
}

/* W24, W25: the bomb runs before the attack listed before it: B keeps floor(6 / 2) = 3, and
 * the 9 kill round(5.4) = 5 >= 3 and lose round(2.1) = 2 < 9: B alice's with 7, A keeps 1. */
Test(cards_http, w24_w25_readme_bomb) {
    test_response r;
    post_ok("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10, \"neighbors\": "
            "[\"B\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 6, \"neighbors\": [\"C\"]}, \"C\": "
            "{\"owner\": \"neutral\", \"armies\": 2}}, \"orders\": [{\"player\": \"alice\", "
            "\"from\": \"A\", \"to\": \"B\", \"armies\": 9}, {\"type\": \"bomb\", \"player\": "
            "\"alice\", \"target\": \"B\"}]}",
            &r);
    expect_territory(r.json, "B", "alice", 7);
    expect_territory(r.json, "A", "alice", 1);
    cr_expect_eq(num(r.json, "orders/0/capture_probability"), 1.0);
    cr_expect_str_eq(json_string_value(at(r.json, "orders/1/type")), "bomb");
    cr_expect_eq(num(r.json, "orders/1/skipped_probability"), 0.0);
    cr_expect_eq(json_object_size(at(r.json, "orders/1")), 2, "type and skipped_probability only");
    test_response_free(&r);
}

/* W26: A neutral with 4 · 3 = 12 before the attacks; bob's 4 kill 2 and all die on B's 6;
 * alice's order from A skipped; B neutral with floor(4 · 2.5) = 10 after them. */
Test(cards_http, w26_readme_blockades) {
    test_response r;
    post_ok("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4}, \"B\": {\"owner\": "
            "\"alice\", \"armies\": 6}, \"C\": {\"owner\": \"bob\", \"armies\": 5}}, \"orders\": "
            "[{\"type\": \"blockade\", \"player\": \"alice\", \"target\": \"B\"}, {\"player\": "
            "\"bob\", \"from\": \"C\", \"to\": \"B\", \"armies\": 5}, {\"player\": \"alice\", "
            "\"from\": \"A\", \"to\": \"B\", \"armies\": 3}, {\"type\": \"emergency_blockade\", "
            "\"player\": \"alice\", \"target\": \"A\"}], \"settings\": {\"blockade_multiplier\": "
            "2.5}}",
            &r);
    expect_territory(r.json, "A", "neutral", 12);
    expect_territory(r.json, "B", "neutral", 10);
    expect_territory(r.json, "C", "bob", 1);
    cr_expect_eq(num(r.json, "orders/0/skipped_probability"), 0.0);
    cr_expect_eq(num(r.json, "orders/2/skipped_probability"), 1.0);
    cr_expect_eq(num(r.json, "orders/3/skipped_probability"), 0.0);
    test_response_free(&r);
}

/* W27: the airlift leaves A 4 and brings C to 8, of which 2 are eligible: C -> B sends 2, who
 * kill 1 and die (B's 7 deal round(4.9) = 5). */
Test(cards_http, w27_readme_airlift) {
    test_response r;
    post_ok("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10, \"neighbors\": "
            "[\"B\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 7, \"neighbors\": [\"C\"]}, \"C\": "
            "{\"owner\": \"alice\", \"armies\": 2}}, \"orders\": [{\"type\": \"airlift\", "
            "\"player\": \"alice\", \"from\": \"A\", \"to\": \"C\", \"armies\": 6}, {\"player\": "
            "\"alice\", \"from\": \"C\", \"to\": \"B\", \"armies\": 7}]}",
            &r);
    expect_territory(r.json, "A", "alice", 4);
    expect_territory(r.json, "B", "bob", 6);
    expect_territory(r.json, "C", "alice", 6);
    cr_expect_eq(num(r.json, "orders/0/skipped_probability"), 0.0);
    cr_expect_eq(num(r.json, "orders/1/attack_probability"), 1.0);
    cr_expect_eq(num(r.json, "orders/1/capture_probability"), 0.0);
    test_response_free(&r);
}

/* W28: A bob's with its 5 and alice's Commander; both orders from A skipped; nobody out. */
Test(cards_http, w28_readme_gift) {
    test_response r;
    post_ok("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 5, \"units\": [{\"id\": "
            "\"alice-cmdr\", \"type\": \"commander\"}]}, \"B\": {\"owner\": \"bob\", \"armies\": "
            "3}}, \"orders\": [{\"type\": \"gift\", \"player\": \"alice\", \"target\": \"A\", "
            "\"to_player\": \"bob\"}, {\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", "
            "\"armies\": 4}, {\"player\": \"bob\", \"from\": \"A\", \"to\": \"B\", \"armies\": "
            "4}]}",
            &r);
    expect_territory(r.json, "A", "bob", 5);
    expect_territory(r.json, "B", "bob", 3);
    cr_expect_eq(num(r.json, "units/alice-cmdr/territories/A"), 1.0);
    cr_expect_eq(num(r.json, "orders/0/skipped_probability"), 0.0);
    cr_expect_eq(num(r.json, "orders/1/skipped_probability"), 1.0);
    cr_expect_eq(num(r.json, "orders/2/skipped_probability"), 1.0);
    cr_expect_eq(num(r.json, "players/alice/eliminated_probability"), 0.0);
    test_response_free(&r);
}

/* W29: alice's attack on her peace partner's B skipped; carol's 6 kill round(3.6) = 4 >= 3
 * and lose round(2.1) = 2: B carol's with 4, C keeps 1. */
Test(cards_http, w29_readme_diplomacy) {
    test_response r;
    post_ok("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10}, \"B\": {\"owner\": "
            "\"bob\", \"armies\": 3}, \"C\": {\"owner\": \"carol\", \"armies\": 7}}, \"orders\": "
            "[{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 9}, "
            "{\"player\": \"carol\", \"from\": \"C\", \"to\": \"B\", \"armies\": 6}], "
            "\"diplomacy\": [[\"alice\", \"bob\"]]}",
            &r);
    cr_expect_eq(num(r.json, "orders/0/skipped_probability"), 1.0);
    expect_territory(r.json, "A", "alice", 10);
    expect_territory(r.json, "B", "carol", 4);
    expect_territory(r.json, "C", "carol", 1);
    test_response_free(&r);
}

/* W30 on W13's duel: the first mover's 9 fail on 10 (kill 5, lose 7) and go home as 2; the
 * other's 4 then fail on 3 (kill 2, lose 2). Alice first (priority): A 1, B 3, one outcome. */
Test(cards_http, w30_readme_order_priority) {
    test_response r;
    post_ok("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10}, \"B\": {\"owner\": "
            "\"bob\", \"armies\": 10}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", "
            "\"to\": \"B\", \"armies\": 9}, {\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\", "
            "\"armies\": 9}, {\"type\": \"order_priority\", \"player\": \"alice\"}], "
            "\"move_order\": \"random\"}",
            &r);
    cr_expect(json_is_true(at(r.json, "deterministic")));
    expect_territory(r.json, "A", "alice", 1);
    expect_territory(r.json, "B", "bob", 3);
    cr_expect_str_eq(json_string_value(at(r.json, "orders/2/type")), "order_priority");
    cr_expect_eq(json_object_size(at(r.json, "orders/2")), 1, "its type only");
    test_response_free(&r);
}

/* W30: alice's order after her delay card runs after bob's: bob first, A 3, B 1, in every one
 * of the 3 seeded turns. */
Test(cards_http, w30_readme_order_delay) {
    test_response r;
    post_ok("/simulate-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10}, \"B\": {\"owner\": "
            "\"bob\", \"armies\": 10}}, \"orders\": [{\"type\": \"order_delay\", \"player\": "
            "\"alice\"}, {\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 9}, "
            "{\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\", \"armies\": 9}], \"trials\": 3, "
            "\"seed\": 1}",
            &r);
    cr_expect_eq(num(r.json, "territories/A/armies/mean"), 3.0);
    cr_expect_eq(num(r.json, "territories/B/armies/mean"), 1.0);
    cr_expect_eq(num(r.json, "territories/A/owner/alice"), 3);
    cr_expect_str_eq(json_string_value(at(r.json, "orders/0/type")), "order_delay");
    cr_expect_eq(json_object_size(at(r.json, "orders/0")), 1, "its type only");
    test_response_free(&r);
}

/* W28: docs/api/turns.md's gift to neutral, a 422 naming the member. */
Test(cards_http, w28_readme_gift_to_neutral_is_422) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/analyze-turn",
                                "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 3}, "
                                "\"B\": {\"owner\": \"bob\", \"armies\": 1}}, \"orders\": "
                                "[{\"type\": \"gift\", \"player\": \"alice\", \"target\": \"A\", "
                                "\"to_player\": \"neutral\"}]}",
                                &r),
                 0);
    cr_assert_eq(r.status, 422, "%s", r.body);
    cr_expect(has_error(r.json, "/orders/0/to_player", "not to neutral"), "%s", r.body);
    test_response_free(&r);
}
