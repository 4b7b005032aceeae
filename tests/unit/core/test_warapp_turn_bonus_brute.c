/*
 * W32: a bonus's owner chance (cbd_turn_bonus_chance and cbd_turn_analyze_bonuses) against the
 * brute force of warapp_turn_brute.h, which shares no code with the core: on random small turns
 * (units, Commanders' eliminations, teams, the random move order among them), for every set of
 * two territories or more and every player, the chance that the player owns all of them at the
 * end is the brute force's share of final boards where it does, to 1e-12.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_turn_brute.h"

/* The brute force's chance that player p owns every territory of the set `mask`. */
static double brute_owner(bcase *c, unsigned mask, cbd_turn_player p) {
    cbd_turn_goal goals[BT];
    size_t n = 0;
    for (uint32_t t = 0; t < c->turn.n_territories; t++) {
        if (mask & (1u << t)) {
            goals[n++] = (cbd_turn_goal){t, p};
        }
    }
    cbd_turn with = c->turn;
    c->turn.goals = goals;
    c->turn.n_goals = n;
    static bres r;
    brute(c, &r);
    c->turn = with;
    return (double)r.goals;
}

Test(turn_bonus_brute, w32_owner_chances_match_the_brute_force, .timeout = 240) {
    uint64_t seed = 32;
    int joint = 0, between = 0;
    for (int k = 0; k < 1000; k++) {
        bcase c;
        random_case(&c, &seed);
        c.turn.goals = NULL;
        c.turn.n_goals = 0;
        size_t nt = c.turn.n_territories, nb = 0;
        cbd_turn_bonus bonus[1u << BT];
        uint32_t cells[1u << BT][BT];
        unsigned masks[1u << BT];
        for (unsigned mask = 1; mask < (1u << nt); mask++) {
            if (__builtin_popcount(mask) < 2) {
                continue;
            }
            size_t n = 0;
            for (uint32_t t = 0; t < nt; t++) {
                if (mask & (1u << t)) {
                    cells[nb][n++] = t;
                }
            }
            bonus[nb] = (cbd_turn_bonus){(int64_t)nb - 3, n, cells[nb]};
            masks[nb++] = mask;
        }
        c.turn.bonuses = bonus;
        c.turn.n_bonuses = nb;
        cbd_turn_limits lim = cbd_turn_default_limits();
        cbd_turn_analysis a;
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_analyze(&c.turn, &lim, NULL, &a, &err), CBD_OK, "case %d", k);
        cr_assert_eq(cbd_turn_analyze_bonuses(&c.turn, &lim, NULL, &a, &err), CBD_OK, "case %d", k);
        for (size_t b = 0; b < nb; b++) {
            for (cbd_turn_player p = 0; p < c.turn.n_players; p++) {
                double want = brute_owner(&c, masks[b], p);
                double got = a.bonus_owner[b * c.turn.n_players + p];
                cr_assert_float_eq(got, want, 1e-12, "case %d bonus %zu player %u", k, b, p);
                /* the joint chance where it is neither a marginal's nor their product's */
                double product = 1;
                for (size_t i = 0; i < bonus[b].n_territories; i++) {
                    product *= a.territories[bonus[b].territories[i]].owner[p];
                }
                joint += fabs(want - product) > 1e-9;
                between += want > 1e-9 && want < 1 - 1e-9;
            }
        }
        cbd_turn_analysis_free(&a);
    }
    /* The cases must reach what they test: joint chances that are no product, and uncertain
     * ones. */
    cr_expect_gt(joint, 30, "%d", joint);
    cr_expect_gt(between, 200, "%d", between);
    cr_log_info("joint %d, between %d", joint, between);
}
