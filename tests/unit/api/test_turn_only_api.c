/*
 * W33 in POST /analyze-turn and /simulate-turn: an attack/transfer order's `only` (attack or
 * transfer) and `attack_teammates`, with numbers worked out by hand (0 % luck, 60/70, W1), and
 * the 422 of a bad member with its pointer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static char *last_body;

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

/* Alice and bob on team t, carol alone. Alice holds A (7), bob B (3), carol C (4). */
#define BOARD                                                                                      \
    "\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 7}, \"B\": {\"owner\": \"bob\", " \
    "\"armies\": 3}, \"C\": {\"owner\": \"carol\", \"armies\": 4}}, \"teams\": {\"alice\": "       \
    "\"t\", \"bob\": \"t\", \"carol\": \"u\"}"

/*
 * A → B 6 attacking teammates: 6 kill round(3.6) = 4 ≥ 3, lose round(2.1) = 2 < 6: B alice's with
 * 4. Attack-only without it: skipped (B stays bob's with 3). A → C 6 transfer-only: skipped.
 */
Test(turn_only_api, w33_only_and_attack_teammates_in_both_endpoints) {
    struct {
        const char *order;
        const char *b_owner;
        double b_armies;
        double skipped;
    } cases[] = {
        {"\"to\": \"B\", \"attack_teammates\": true", "alice", 4, 0},
        {"\"to\": \"B\", \"only\": \"attack\"", "bob", 3, 1},
        {"\"to\": \"B\", \"only\": \"transfer\"", "bob", 9, 0},
        {"\"to\": \"C\", \"only\": \"transfer\"", "bob", 3, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[1024];
        snprintf(body, sizeof body,
                 "{" BOARD ", \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"armies\": "
                 "6, %s}]}",
                 cases[i].order);
        json_t *doc;
        cr_assert_eq(run("/analyze-turn", body, &doc), 200, "%s", last_body);
        char path[64];
        snprintf(path, sizeof path, "territories/B/owner/%s", cases[i].b_owner);
        cr_expect_float_eq(json_number_at(doc, path), 1.0, 1e-12, "case %zu", i);
        cr_expect_float_eq(json_number_at(doc, "territories/B/armies/mean"), cases[i].b_armies,
                           1e-12, "case %zu", i);
        cr_expect_float_eq(json_number_at(doc, "orders/0/skipped_probability"), cases[i].skipped,
                           1e-12, "case %zu", i);
        json_decref(doc);
        snprintf(body, sizeof body,
                 "{\"seed\": 5, \"trials\": 3, " BOARD ", \"orders\": [{\"player\": \"alice\", "
                 "\"from\": \"A\", \"armies\": 6, %s}]}",
                 cases[i].order);
        cr_assert_eq(run("/simulate-turn", body, &doc), 200, "%s", last_body);
        cr_expect_float_eq(json_number_at(doc, "orders/0/skipped"), 3 * cases[i].skipped, 1e-12,
                           "case %zu", i);
        cr_expect_float_eq(json_number_at(doc, "territories/B/armies/mean"), cases[i].b_armies,
                           1e-12, "case %zu", i);
        json_decref(doc);
    }
}

Test(turn_only_api, w33_bad_members_name_their_pointer) {
    const char *bad[][2] = {
        {"\"only\": \"sideways\"", "/orders/0/only"},
        {"\"only\": 1", "/orders/0/only"},
        {"\"attack_teammates\": \"yes\"", "/orders/0/attack_teammates"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[1024];
        snprintf(body, sizeof body,
                 "{" BOARD ", \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", "
                 "\"armies\": 6, %s}]}",
                 bad[i][0]);
        json_t *doc;
        cr_assert_eq(run("/analyze-turn", body, &doc), 422, "%s", last_body);
        cr_expect(has_error(doc, bad[i][1], NULL), "case %zu: %s", i, last_body);
        json_decref(doc);
    }
}
