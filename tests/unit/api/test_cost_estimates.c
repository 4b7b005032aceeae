/*
 * The cost estimates the http layer compares with server.inline_cost_ns (api.h): 20 µs to
 * parse, 10 ns a binomial term, 4 ns an answer byte. A small /analyze-attack battle (at most
 * 1,000 armies a side, no graph, no targets) is bounded without reading the request: a side's
 * kill window has at most n + 1 terms and each survivor distribution at most n + 1 items of 64
 * bytes, plus 1,024 bytes for the rest.
 */
#include <criterion/criterion.h>

#include <stdio.h>

#include "api/api.h"

static uint64_t cost_of(const char *path, const char *body) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cr_assert_not_null(ep);
    cr_assert_not_null(ep->cost);
    json_t *doc = json_loads(body, 0, NULL);
    cr_assert_not_null(doc);
    uint64_t c = ep->cost(&cfg, doc);
    json_decref(doc);
    return c;
}

Test(cost, a_small_battle_is_bounded_without_reading_it) {
    /* 10 + 5 armies: 20000 + 10 * 2 * 17 + 4 * (1024 + 64 * 17) = 28788 ns. */
    cr_expect_eq(cost_of("/analyze-attack", "{\"attackers\": 10, \"defenders\": 5}"), 28788u);
    /* 1,000 a side: 20000 + 10 * 2 * 2002 + 4 * (1024 + 64 * 2002) = 576648 ns, under 1 ms. */
    uint64_t c = cost_of("/analyze-attack", "{\"attackers\": 1000, \"defenders\": 1000}");
    cr_expect_eq(c, 576648u);
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cr_expect_leq(c, cfg.limits.inline_cost_ns);
}

Test(cost, past_the_small_bound_the_request_is_read) {
    /* 590,000,000 defenders with 32 armies_needed targets at 50 % luck is far past the inline
     * budget (it is the budget's 422 case; an invalid or refused request costs the base). */
    uint64_t big = cost_of("/analyze-attack",
                           "{\"attackers\": 1, \"defenders\": 590000000, \"settings\": "
                           "{\"luck_modifier\": 0.5}, \"graph\": {\"from\": 1, \"to\": 50}}");
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cr_expect_gt(big, cfg.limits.inline_cost_ns);
    /* A negative count is not small: the full read refuses it, and a refused request costs
     * only the base. */
    cr_expect_eq(cost_of("/analyze-attack", "{\"attackers\": -1, \"defenders\": 5}"),
                 CBD_COST_BASE_NS);
}

/*
 * A turn's estimate counts its units' power (W18): with luck each attack's two kill windows
 * are about 10·sqrt(power) + 64 terms of 7 ns for the board's whole power, armies and units.
 * Alice's 3 armies and Commander (7) attack Bob's 1 army and a Wall of defense power
 * 99,999,989: the board's power is 3 + 7 + 1 + 99,999,989 = 10^8.
 */
#define TURN_BOARD(a_units, b_units)                                                               \
    "{\"territories\": {\"a\": {\"owner\": \"alice\", \"armies\": 3" a_units "},"                  \
    " \"b\": {\"owner\": \"bob\", \"armies\": 1" b_units "}},"                                     \
    " \"adjacency\": [[\"a\", \"b\"]],"                                                            \
    " \"orders\": [{\"type\": \"attack_transfer\", \"player\": \"alice\", \"from\": \"a\","        \
    " \"to\": \"b\", \"armies\": 3}"
#define ALICE_CMDR ", \"units\": [{\"id\": \"ac\", \"type\": \"commander\"}]"
#define BOB_WALL                                                                                   \
    ", \"units\": [{\"id\": \"bw\", \"type\": \"custom\", \"name\": \"Wall\", \"attack_power\": "  \
    "0, \"defense_power\": 99999989, \"combat_order\": -1, \"damage_to_kill\": 5}]"

Test(cost, w18_an_analyzed_turn_counts_the_units_power) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    /* Units: 20000 + 1 order x 60000 + 1 attack x 2 x (10 x 10^4 + 64) x 7 = 1,480,896 ns, past
     * the 1 ms inline budget: it goes to a worker at once. */
    uint64_t with =
        cost_of("/analyze-turn",
                TURN_BOARD(ALICE_CMDR, BOB_WALL) "], \"settings\": {\"luck_modifier\": 0.5}}");
    cr_expect_eq(with, UINT64_C(1480896));
    cr_expect_gt(with, cfg.limits.inline_cost_ns);
    /* The armies alone, power 4: 20000 + 60000 + 2 x (10 x 2 + 64) x 7 = 81,176 ns. */
    cr_expect_eq(cost_of("/analyze-turn", TURN_BOARD("", "") "], \"settings\": "
                                                             "{\"luck_modifier\": 0.5}}"),
                 UINT64_C(81176));
    /* Without luck a battle has at most two outcomes whatever its power: 20000 + 60000. */
    cr_expect_eq(cost_of("/analyze-turn", TURN_BOARD(ALICE_CMDR, BOB_WALL) "]}"), UINT64_C(80000));
}

Test(cost, w21_a_simulated_turn_counts_the_units_work_per_battle) {
    /* 1,000 trials of 2 orders on 2 territories, not listed: without units each battle is
     * 100 ns and each territory's tally 8 ns, 20000 + 1000 x (2 x 100 + 2 x 8) = 236,000 ns. */
    const char *second = ", {\"type\": \"attack_transfer\", \"player\": \"bob\", \"from\": "
                         "\"b\", \"to\": \"a\", \"armies\": 1}], \"trials\": 1000, "
                         "\"include_turns\": false}";
    char body[2048];
    snprintf(body, sizeof body, "%s%s", TURN_BOARD("", ""), second);
    cr_expect_eq(cost_of("/simulate-turn", body), UINT64_C(236000));
    /* With the 2 units each battle adds W19's walks (3 ns x 2 x 2 units) and the board's units
     * looked over (1 ns x 2 x 2 units), W22's look (2 x 2 territories) and two samplers
     * (2 x 90): 100 + 12 + 4 + 4 + 180 = 300 ns, so 20000 + 1000 x (2 x 300 + 2 x 8) =
     * 636,000 ns. */
    snprintf(body, sizeof body, "%s%s", TURN_BOARD(ALICE_CMDR, BOB_WALL), second);
    cr_expect_eq(cost_of("/simulate-turn", body), UINT64_C(636000));
}
