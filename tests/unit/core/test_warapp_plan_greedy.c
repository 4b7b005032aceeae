
/* A plan's value is within the contract: the analysis's sums of many products may pass 1 by a
 * few ulps (1.00000000000009 was answered under `all`); each chance is taken within [0, 1]. */
Test(plan_greedy, value_within_the_contract) {
    double owner[2] = {1.0 + 9e-14, 0}, owner2[2] = {-1e-17, 1};
    cbd_turn_territory_result t[2];
    memset(t, 0, sizeof t);
    t[0].owner = owner;
    t[1].owner = owner2;
    cbd_turn_analysis a;
    memset(&a, 0, sizeof a);
    a.n_territories = 2;
    a.n_players = 2;
    a.territories = t;
    a.goals_probability = 1.0 + 9e-14;
    uint32_t goals[2] = {0, 1};
    cbd_plan_request req = {.player = ME, .n_goals = 2, .goals = goals, .max_plans = 1};
    req.objective = CBD_PLAN_ALL;
    cr_expect_eq(cbd_plan_value(&req, &a), 1.0);
    req.objective = CBD_PLAN_EXPECTED;
    cr_expect_eq(cbd_plan_value(&req, &a), 1.0); /* 1 (not 1 + 9e-14) + 0 (not -1e-17) */
}
