/*
 * POST /warzone/simulate-turn (W40): one seeded turn in the game's shapes, the same for the same
 * seed, and over many seeds its captures and armies agree with /warzone/analyze-turn (Pearson's
 * chi-square, tests/support/chi_square.h, at the 0.1 % level).
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

/* 6 of 100's attack 200's 4 at 16 % luck (captured with 0.8208, docs/rules.md's W40). */
#define TURN(seed)                                                                                 \
    "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70, \"LuckModifier\": " \
    "\"0.16\", \"MoveOrder\": \"Random\"}, \"map\": {\"territories\": [{\"id\": 1, "               \
    "\"connectedTo\": [2]}, {\"id\": 2}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\", "  \
    "\"armies\": \"7\"}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": \"4\"}], \"orders\": "  \
    "[{\"type\": \"GameOrderPlayCardSpy\", \"playerID\": 100}, {\"type\": "                        \
    "\"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": 1, \"to\": 2, \"numArmies\": "  \
    "\"6\"}]" seed "}"

/* The game's shapes, and the same answer for the same seed. With 6 attackers a capture leaves
 * 6 − (the defenders' kills) on 2 and 1 on 1; the result's numbers must say the same. */
Test(warzone_simulate_api, w40_shapes_and_reproducible) {
    json_t *a, *b;
    cr_assert_eq(run("/warzone/simulate-turn", TURN(", \"seed\": 12"), &a), 200, "%s", last_body);
    cr_assert_eq(run("/warzone/simulate-turn", TURN(", \"seed\": 12"), &b), 200, "%s", last_body);
    cr_expect(json_equal(a, b));
    cr_expect_eq(json_integer_value(json_walk(a, "seed")), 12);
    cr_expect(json_is_true(json_walk(a, "orders/1/result/isAttack")));
    cr_expect_str_eq(json_string_value(json_walk(a, "orders/1/result/armies")), "6");
    cr_expect_str_eq(json_string_value(json_walk(a, "orders/0/type")), "GameOrderPlayCardSpy");
    cr_expect_null(json_walk(a, "orders/0/result"));
    cr_expect_str_eq(json_string_value(json_walk(a, "standing/0/armies")), "1");
    bool won = json_is_true(json_walk(a, "orders/1/result/isSuccessful"));
    long lost = atol(json_string_value(json_walk(a, "orders/1/result/attackingArmiesKilled")));
    long left = atol(json_string_value(json_walk(a, "standing/1/armies")));
    cr_expect_str_eq(json_string_value(json_walk(a, "standing/1/ownedBy")), won ? "100" : "200");
    cr_expect_eq(left, won ? 6 - lost : 0, "%s", last_body);
    json_decref(a);
    json_decref(b);
}

/* 4000 seeds: territory 2's (owner, armies) outcomes against the exact analysis. */
Test(warzone_simulate_api, w40_captures_agree_with_analysis_chi_square) {
    json_t *exact;
    cr_assert_eq(run("/warzone/analyze-turn", TURN(""), &exact), 200, "%s", last_body);
    const json_t *dist = json_walk(exact, "territories/2/armies/distribution");
    double captured = json_number_at(exact, "territories/2/owner/100");
    cr_assert_float_eq(captured, 0.8208, 1e-12);
    /* Cells: each army count 2 may end with (the analysis's distribution, both owners'), and
     * separately the capture against its chance. */
    enum { N = 4000, CELLS = 16 };
    uint64_t observed[CELLS] = {0};
    long double prob[CELLS] = {0};
    size_t cells = json_array_size(dist);
    cr_assert(cells + 1 <= CELLS);
    for (uint64_t s = 1; s <= N; s++) {
        char seed[48];
        snprintf(seed, sizeof seed, ", \"seed\": %llu", (unsigned long long)s);
        char body[2048];
        snprintf(body, sizeof body, TURN("%s"), seed);
        json_t *t;
        cr_assert_eq(run("/warzone/simulate-turn", body, &t), 200, "%s", last_body);
        long armies = atol(json_string_value(json_walk(t, "standing/1/armies")));
        bool won = json_is_true(json_walk(t, "orders/1/result/isSuccessful"));
        for (size_t k = 0; k < cells; k++) {
            const json_t *pt = json_array_get(dist, k);
            observed[k] += json_integer_value(json_object_get(pt, "armies")) == armies;
        }
        observed[cells] += won;
        json_decref(t);
    }
    for (size_t k = 0; k < cells; k++) {
        prob[k] = json_number_value(json_object_get(json_array_get(dist, k), "probability"));
    }
    chi_square_result armies = chi_square_test(observed, prob, cells, N);
    cr_expect(armies.statistic < armies.critical, "armies: %g >= %g (df %d)", armies.statistic,
              armies.critical, armies.df);
    uint64_t owner[2] = {observed[cells], N - observed[cells]};
    long double p_owner[2] = {captured, 1.0L - captured};
    chi_square_result won = chi_square_test(owner, p_owner, 2, N);
    cr_expect(won.statistic < won.critical, "captures: %g >= %g", won.statistic, won.critical);
    json_decref(exact);
}
