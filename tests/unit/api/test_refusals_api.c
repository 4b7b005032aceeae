/*
 * Refusals that name the member to change, and say the limit that holds: units given as null
 * (the contract's units are an array, W17), unit names and ids counted in characters as the
 * contract's maxLength counts them, and /analyze-turn's state limit as it applies to the group
 * at hand (warapp.max_turn_states, or fewer for a group of large states).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "api/warapp/turn/warapp_turn_json.h"

static cbd_config cfg;

static void setup(void) {
    cbd_config_defaults(&cfg);
}

TestSuite(refusals, .init = setup);

static void expect_422_at(const char *path, const char *body, const char *pointer,
                          const char *needle) {
    json_t *doc;
    char *raw = NULL;
    cr_assert_eq(api_test_run(&cfg, path, body, &doc, &raw), 422, "%s: %s", path, raw);
    cr_expect(has_error(doc, pointer, needle), "%s: want %s (%s) in %s", path, pointer, needle,
              raw);
    json_decref(doc);
    free(raw);
}

Test(refusals, units_given_as_null_are_the_wrong_type) {
    const char *paths[] = {"/analyze-attack", "/simulate"};
    for (int i = 0; i < 2; i++) {
        expect_422_at(paths[i], "{\"attackers\": 3, \"defenders\": 2, \"attacking_units\": null}",
                      "/attacking_units", "not null");
        expect_422_at(paths[i], "{\"attackers\": 3, \"defenders\": 2, \"defending_units\": null}",
                      "/defending_units", "not null");
    }
    expect_422_at("/analyze-turn",
                  "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 3, \"units\": "
                  "null}}, \"orders\": []}",
                  "/territories/A/units", "not null");
}

/* n copies of a character of `bytes` bytes in UTF-8 (é: 2, 😀: 4), as a JSON string's text. */
static char *repeated(const char *ch, int n) {
    size_t len = strlen(ch);
    char *s = malloc(len * (size_t)n + 1);
    for (int i = 0; i < n; i++) {
        memcpy(s + len * (size_t)i, ch, len);
    }
    s[len * (size_t)n] = '\0';
    return s;
}

static int unit_named(const char *name, const char *id, json_t **doc) {
    char body[1024];
    snprintf(body, sizeof body,
             "{\"attackers\": 3, \"defenders\": 2, \"attacking_units\": [{\"type\": \"custom\", "
             "\"name\": \"%s\", \"id\": \"%s\", \"attack_power\": 1, \"defense_power\": 1, "
             "\"combat_order\": 0, \"health\": 2}]}",
             name, id);
    return api_test_run(&cfg, "/analyze-attack", body, doc, NULL);
}

Test(refusals, unit_names_and_ids_are_counted_in_characters) {
    /* 64 emoji are 256 bytes and 64 characters: within maxLength 64; 65 are one past it. */
    char *emoji64 = repeated("\xF0\x9F\x98\x80", 64), *emoji65 = repeated("\xF0\x9F\x98\x80", 65);
    char *e64 = repeated("\xC3\xA9", 64);
    json_t *doc;
    cr_assert_eq(unit_named(emoji64, e64, &doc), 200);
    cr_expect_str_eq(json_string_value(json_walk(doc, "attacking_units/0/name")), emoji64);
    cr_expect_str_eq(json_string_value(json_walk(doc, "attacking_units/0/id")), e64);
    json_decref(doc);
    cr_assert_eq(unit_named(emoji65, "a", &doc), 422);
    cr_expect(has_error(doc, "/attacking_units/0/name", "at most 64 characters"));
    json_decref(doc);
    cr_assert_eq(unit_named("a", emoji65, &doc), 422);
    cr_expect(has_error(doc, "/attacking_units/0/id", "at most 64 characters"));
    json_decref(doc);
    free(emoji64);
    free(emoji65);
    free(e64);
}

/* The limit a refusal states is the one that stopped it: a group whose states are large holds
 * fewer than warapp.max_turn_states (2^24 words of states, 58 a state: 289262). */
Test(refusals, the_state_limit_stated_is_the_one_that_holds) {
    cbd_turn_request q;
    memset(&q, 0, sizeof q);
    q.limits.max_states = 1000000;
    cbd_turn_error err = {
        .kind = CBD_TURN_ERR_STATES, .index = 2, .needed = 300000, .limit = 289262};
    cbd_problem p;
    cbd_problem_init(&p);
    cbd_turn_error_problem(&q, CBD_ERR_TOO_LARGE, &err, &p);
    cr_assert_eq(p.n_errors, 1);
    cr_expect_str_eq(p.errors[0].pointer, "/orders");
    cr_expect_not_null(strstr(p.errors[0].detail, "at order 2"), "%s", p.errors[0].detail);
    cr_expect_not_null(strstr(p.errors[0].detail, "at most 289262 fit for states this large "
                                                  "(warapp.max_turn_states: 1000000)"),
                       "%s", p.errors[0].detail);
    cr_expect_not_null(strstr(p.errors[0].detail, "POST /simulate-turn instead"), "%s",
                       p.errors[0].detail);
    /* At the configured limit it is the configured limit that is named. */
    err.limit = 1000000;
    err.needed = 1000001;
    cbd_problem_init(&p);
    cbd_turn_error_problem(&q, CBD_ERR_TOO_LARGE, &err, &p);
    cr_expect_not_null(
        strstr(p.errors[0].detail, "at most 1000000 are allowed (warapp.max_turn_states)"), "%s",
        p.errors[0].detail);
}
