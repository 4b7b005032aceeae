/*
 * The cost estimates the http layer compares with server.inline_cost_ns (api.h): 20 µs to
 * parse, 10 ns a binomial term, 4 ns an answer byte. A small /analyze-attack battle (at most
 * 1,000 armies a side, no graph, no targets) is bounded without reading the request: a side's
 * kill window has at most n + 1 terms and each survivor distribution at most n + 1 items of 64
 * bytes, plus 1,024 bytes for the rest.
 */
#include <criterion/criterion.h>

#include "api.h"

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
