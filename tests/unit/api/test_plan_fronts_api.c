/*
 * /plan-turn's fronts (W34) and strength on boards worked out by hand (W1–W7 at the luck
 * given; the reasoning beside each): fronts that cannot interact are valued apart and
 * combined exactly (a sum for `expected`, a product for `all`), the income split between them
 * by the knapsack over their value curves, proven where the income is at most 16; and issue
 * 36's 3×3 board answers value 1, proven.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static json_t *plan(const char *body, int *status) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    json_t *doc = NULL;
    char *raw = NULL;
    *status = api_test_run(&cfg, "/plan-turn", body, &doc, &raw);
    cr_assert_eq(*status, 200, "%.600s", raw);
    free(raw);
    return doc;
}

/*
 * A 3×3 grid: own T00..T12 (3, 4, 5 / 6, 5, 6), neutrals T20 2, T21 5, T22 4, income
 * 8, luck 0.16, capture T20 and T22. Deploy 8 on T12 and send 13 at T22: the attackers kill
 * at least round(0.84 · 0.6 · 13) = round(6.55) = 7 >= 4, the 4 defenders at most
 * round(0.16 · 4 + 0.84 · 2.8) = round(2.99) = 3 < 13: certain. T10 sends 5 at T20: at least
 * round(0.84 · 3) = 3 >= 2 kills, at most round(0.16 · 2 + 0.84 · 1.4) = round(1.50) = 1 < 5:
 * certain. The value is 1, and nothing passes 1: proven.
 */
Test(plan_fronts, issue36_the_3x3_board_answers_1_proven) {
    static const char body[] =
        "{\"territories\": {"
        "\"T00\": {\"owner\": \"me\", \"armies\": 3, \"neighbors\": [\"T10\", \"T01\"]},"
        "\"T01\": {\"owner\": \"me\", \"armies\": 4, \"neighbors\": [\"T11\", \"T00\", \"T02\"]},"
        "\"T02\": {\"owner\": \"me\", \"armies\": 5, \"neighbors\": [\"T12\", \"T01\"]},"
        "\"T10\": {\"owner\": \"me\", \"armies\": 6, \"neighbors\": [\"T20\", \"T00\", \"T11\"]},"
        "\"T11\": {\"owner\": \"me\", \"armies\": 5, \"neighbors\": [\"T21\", \"T01\", \"T10\", "
        "\"T12\"]},"
        "\"T12\": {\"owner\": \"me\", \"armies\": 6, \"neighbors\": [\"T22\", \"T02\", \"T11\"]},"
        "\"T20\": {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": [\"T21\"]},"
        "\"T21\": {\"owner\": \"neutral\", \"armies\": 5, \"neighbors\": [\"T22\"]},"
        "\"T22\": {\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}},"
        "\"player\": \"me\", \"income\": 8, \"goal\": {\"capture\": [\"T20\", \"T22\"]},"
        "\"settings\": {\"luck_modifier\": 0.16}}";
    int status;
    json_t *doc = plan(body, &status);
    cr_expect_float_eq(json_number_at(doc, "value"), 1.0, 1e-15);
    cr_expect(json_is_true(json_walk(doc, "optimal")));
    json_decref(doc);
}

/*
 * Two fronts, A (1) beside B (2) and C (1) beside D (4), at 0 % luck. With d deployed on A it
 * sends d (W7: 1 + d − 1); a attackers kill round(0.6 a), 2 defenders kill round(1.4) = 1: B
 * falls iff round(0.6 d) >= 2, d >= 3 (1.8 → 2). D's 4 defenders kill round(2.8) = 3 < a and
 * fall iff round(0.6 d) >= 4, d >= 6 (3.6 → 4). So B's curve is 0 below 3 and 1 from 3, D's 0
 * below 6 and 1 from 6. Income 9 takes both (3 + 6): `expected` 2, `all` 1; income 8 only one
 * (3 + 5 or 2 + 6): `expected` 1 (either), `all` 0. Every income here is at most 16, each
 * front's space small: proven.
 */
static char *two_fronts(int income, const char *objective) {
    char *b = NULL;
    int n = asprintf(&b,
                     "{\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": "
                     "[\"B\"]}, \"B\": {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": "
                     "[]}, \"C\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": [\"D\"]}, "
                     "\"D\": {\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}}, "
                     "\"player\": \"me\", \"income\": %d, \"objective\": \"%s\", \"goal\": "
                     "{\"capture\": [\"B\", \"D\"]}, \"settings\": {\"luck_modifier\": 0}}",
                     income, objective);
    cr_assert_gt(n, 0);
    return b;
}

Test(plan_fronts, w34_two_fronts_share_the_income_by_their_curves) {
    const struct {
        int income;
        const char *objective;
        double value;
    } rows[] = {{9, "expected", 2.0}, {9, "all", 1.0},      {8, "expected", 1.0}, {8, "all", 0.0},
                {2, "expected", 0.0}, {3, "expected", 1.0}, {6, "expected", 1.0}, {16, "all", 1.0}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *body = two_fronts(rows[i].income, rows[i].objective);
        int status;
        json_t *doc = plan(body, &status);
        cr_expect_float_eq(json_number_at(doc, "value"), rows[i].value, 1e-15, "income %d %s",
                           rows[i].income, rows[i].objective);
        cr_expect(json_is_true(json_walk(doc, "optimal")), "income %d %s", rows[i].income,
                  rows[i].objective);
        /* the deploys total the income (W31) */
        const json_t *orders = json_object_get(doc, "orders");
        json_int_t deployed = 0;
        for (size_t k = 0; k < json_array_size(orders); k++) {
            const json_t *o = json_array_get(orders, k);
            if (strcmp(json_string_value(json_object_get(o, "type")), "deploy") == 0) {
                deployed += json_integer_value(json_object_get(o, "armies"));
            }
        }
        cr_expect_eq(deployed, rows[i].income);
        json_decref(doc);
        free(body);
    }
}

/*
 * A front the player cannot touch: X (enemy, 5) attacks Y (neutral, 1) with 4 at 0 % luck:
 * 4 attackers kill round(2.4) = 2 >= 1, 1 defender kills round(0.7) = 1 < 4: Y is the enemy's.
 * The goal capture B and Y: `expected` is B's front alone (income 3: B falls, 1) plus Y's 0;
 * `all` is the product, 0. The sum and the product are exact (W34), and proven.
 */
Test(plan_fronts, w34_a_fixed_front_combines_by_sum_and_product) {
    const char *objectives[2] = {"expected", "all"};
    const double values[2] = {1.0, 0.0};
    for (int i = 0; i < 2; i++) {
        char *body = NULL;
        cr_assert_gt(
            asprintf(&body,
                     "{\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": "
                     "[\"B\"]}, \"B\": {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": "
                     "[]}, \"X\": {\"owner\": \"x\", \"armies\": 5, \"neighbors\": [\"Y\"]}, "
                     "\"Y\": {\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}}, "
                     "\"orders\": [{\"player\": \"x\", \"from\": \"X\", \"to\": \"Y\", "
                     "\"armies\": 4}], \"player\": \"me\", \"income\": 3, \"objective\": \"%s\", "
                     "\"goal\": {\"capture\": [\"B\", \"Y\"]}}",
                     objectives[i]),
            0);
        int status;
        json_t *doc = plan(body, &status);
        cr_expect_float_eq(json_number_at(doc, "value"), values[i], 1e-15, "%s", objectives[i]);
        cr_expect(json_is_true(json_walk(doc, "optimal")), "%s", objectives[i]);
        /* the answer's analysis has the other player's order too: Y is x's */
        cr_expect_float_eq(json_number_at(doc, "analysis/territories/Y/owner/x"), 1.0, 1e-15);
        json_decref(doc);
        free(body);
    }
}
