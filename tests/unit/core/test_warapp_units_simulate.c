/*
 * Seeded battles with special units (W17–W20): the wiki's Commander examples worked by hand,
 * trial by trial; units add no draws (a Commander with 3 armies draws as 10 armies do); and a
 * chi-square test of the joint outcome (armies left on each side, which units died) against
 * the exact distribution enumerated here by the brute force written from the rules' text
 * (warapp_brute.h: its own binomial, blend, rounding and damage order).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chi_square.h"
#include "combatd/warapp_simulate.h"
#include "warapp_brute.h"

static cbd_warapp_settings settings(cbd_micro off, cbd_micro def, cbd_micro luck, cbd_rounding r) {
    cbd_warapp_settings s = cbd_warapp_default_settings();
    s.offense_kill_rate = off;
    s.defense_kill_rate = def;
    s.luck_modifier = luck;
    s.rounding = r;
    return s;
}

static cbd_sim_plan plan_of(const cbd_warapp_side *a, const cbd_warapp_side *d,
                            const cbd_warapp_settings *s) {
    cbd_sim_plan plan;
    cr_assert_eq(cbd_sim_plan_init(&plan, a, d, NULL, 0, s, NULL), CBD_OK);
    return plan;
}

/* Runs `trials` trials of the plan (one block or more), with every battle listed. */
static cbd_sim_record *run(const cbd_sim_plan *plan, uint64_t seed, uint64_t trials,
                           cbd_sim_stats *st) {
    cbd_sim_record *battles = calloc(trials, sizeof *battles);
    cr_assert(battles);
    cbd_sim_stats_init(st);
    cr_assert_eq(cbd_warapp_sim_blocks(plan, seed, trials, 0, cbd_sim_block_count(trials), NULL, st,
                                       battles),
                 CBD_OK);
    cr_assert_eq(st->trials, trials);
    return battles;
}

static const cbd_warapp_settings *zero_luck(void) {
    static cbd_warapp_settings s;
    s = settings(600000, 700000, 0, CBD_ROUND_STRAIGHT);
    return &s;
}

/*
 * The wiki: a Commander with 3 armies attacks like 10. Against 10 at 0 % luck every trial deals
 * 10 · 0.6 = 6 damage, as 10 armies do (3 armies alone would deal round(1.8) = 2), and takes the
 * defense's 10 · 0.7 = 7: the 3 armies die first, and the 4 left are less than the Commander's
 * damage to kill of 7, so it lives and the attack fails with 4 defenders left.
 */
Test(units_simulate, a_commander_with_3_armies_attacks_like_10_every_trial) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {3, 1, &c}, defense = {10, 0, NULL};
    cbd_sim_plan plan = plan_of(&attack, &defense, zero_luck());
    cbd_sim_stats st;
    const uint64_t trials = 1000;
    cbd_sim_record *b = run(&plan, 7, trials, &st);
    for (uint64_t t = 0; t < trials; t++) {
        cr_assert_eq(b[t].battle.attacker_kills, 6);
        cr_assert_eq(b[t].battle.defender_kills, 7);
        cr_assert_not(b[t].battle.outcome.captured);
        cr_assert_eq(b[t].battle.outcome.attackers_lost, 3);
        cr_assert_eq(b[t].battle.outcome.attackers_left, 0);
        cr_assert_eq(b[t].battle.outcome.defenders_lost, 6);
        cr_assert_eq(b[t].battle.outcome.defenders_left, 4);
        cr_assert_eq(b[t].attacking_dead, 0, "the Commander lives");
        cr_assert_not(b[t].mutual);
    }
    cr_assert_eq(st.captures, 0);
    cr_assert_eq(st.attacking_survived[0], trials);
    cr_assert_eq(cbd_hist_get(&st.attackers_left, 0), trials);
    cr_assert_eq(cbd_hist_get(&st.defenders_left, 4), trials);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(b);
}

/* 10 armies into 3 and a Commander: 6 damage kill the 3, the 3 left cannot kill the Commander
 * (7 at once, W19), so it survives every trial; the defense's power 3 + 7 = 10 deals 7. */
Test(units_simulate, ten_into_3_and_a_commander_it_survives_every_trial) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {10, 0, NULL}, defense = {3, 1, &c};
    cbd_sim_plan plan = plan_of(&attack, &defense, zero_luck());
    cbd_sim_stats st;
    const uint64_t trials = CBD_SIM_BLOCK + 100; /* two blocks */
    cbd_sim_record *b = run(&plan, 11, trials, &st);
    cr_assert_eq(st.defending_survived[0], trials);
    cr_assert_eq(st.captures, 0);
    cr_assert_eq(st.mutual_destructions, 0);
    cr_assert_eq(cbd_hist_get(&st.attackers_left, 3), trials);
    cr_assert_eq(cbd_hist_get(&st.defenders_left, 0), trials);
    cr_assert_eq(b[trials - 1].defending_dead, 0);
    cr_assert_eq(b[trials - 1].battle.outcome.defenders_lost, 3);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(b);
}

/* W19's second example: 20 attackers deal 12; 3 armies die, the 9 left reach 7 and the
 * Commander dies, the last 2 are lost. The defense deals 7: 13 attackers left capture (W20). */
Test(units_simulate, twenty_into_3_and_a_commander_kill_it_and_capture) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {20, 0, NULL}, defense = {3, 1, &c};
    cbd_sim_plan plan = plan_of(&attack, &defense, zero_luck());
    cbd_sim_stats st;
    cbd_sim_record *b = run(&plan, 3, 50, &st);
    cr_assert_eq(st.captures, 50);
    cr_assert_eq(st.defending_survived[0], 0);
    cr_assert_eq(b[0].defending_dead, 1);
    cr_assert_eq(b[0].battle.outcome.attackers_left, 13);
    cr_assert_eq(b[0].battle.outcome.defenders_left, 0);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(b);
}

/* W20: a Commander alone captures when the defense keeps nothing, with 0 armies moving in; and
 * when neither side keeps anything the attack fails and one defending army is resurrected. At
 * kill rates 1 and 1 a lone Commander (power 7) against 7 armies deals 7 and takes 7: both
 * sides are wiped out. Against 3 armies at 60/70 it deals round(4.2) = 4 >= 3 and takes
 * round(2.1) = 2 < 7: captured. */
Test(units_simulate, a_commander_alone_captures_or_dies_with_the_defense) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_side attack = {0, 1, &c}, seven = {7, 0, NULL}, three = {3, 0, NULL};
    cbd_warapp_settings sure = settings(1000000, 1000000, 0, CBD_ROUND_STRAIGHT);
    cbd_sim_plan plan = plan_of(&attack, &seven, &sure);
    cbd_sim_stats st;
    cbd_sim_record *b = run(&plan, 5, 20, &st);
    cr_assert_eq(st.mutual_destructions, 20);
    cr_assert_eq(st.captures, 0);
    cr_assert(b[0].mutual);
    cr_assert_eq(b[0].attacking_dead, 1);
    cr_assert_eq(b[0].battle.outcome.defenders_left, 1, "one army resurrected (W5)");
    cr_assert_eq(b[0].battle.outcome.defenders_lost, 6);
    cr_assert_eq(b[0].battle.outcome.attackers_lost, 0, "no army attacked");
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(b);

    plan = plan_of(&attack, &three, zero_luck());
    b = run(&plan, 5, 20, &st);
    cr_assert_eq(st.captures, 20);
    cr_assert_eq(st.attacking_survived[0], 20);
    cr_assert_eq(b[0].battle.outcome.attackers_left, 0);
    cr_assert_eq(b[0].battle.outcome.defenders_lost, 3);
    cbd_sim_stats_free(&st);
    cbd_sim_plan_free(&plan);
    free(b);
}

/* Units add no draws: each side rolls once per point of power (W18), so at 16 % luck with
 * weighted rounding a Commander with 3 armies against 2 armies and a Shield (defense power 4)
 * draws exactly as 10 armies against 6, battle for battle, over two blocks. */
Test(units_simulate, units_add_no_draws) {
    cbd_warapp_unit c = cbd_warapp_commander();
    cbd_warapp_unit shield = {0, 4, -5, false, 10};
    cbd_warapp_side attack = {3, 1, &c}, defense = {2, 1, &shield};
    cbd_warapp_side ten = {10, 0, NULL}, six = {6, 0, NULL};
    cbd_warapp_settings s = settings(600000, 700000, 160000, CBD_ROUND_WEIGHTED);
    cbd_sim_plan with = plan_of(&attack, &defense, &s), without = plan_of(&ten, &six, &s);
    const uint64_t trials = CBD_SIM_BLOCK + 500;
    cbd_sim_stats st1, st2;
    cbd_sim_record *a = run(&with, 99, trials, &st1), *b = run(&without, 99, trials, &st2);
    for (uint64_t t = 0; t < trials; t++) {
        cr_assert_eq(a[t].battle.attacker_kills, b[t].battle.attacker_kills, "trial %llu",
                     (unsigned long long)t);
        cr_assert_eq(a[t].battle.defender_kills, b[t].battle.defender_kills, "trial %llu",
                     (unsigned long long)t);
    }
    cbd_sim_stats_free(&st1);
    cbd_sim_stats_free(&st2);
    cbd_sim_plan_free(&with);
    cbd_sim_plan_free(&without);
    free(a);
    free(b);
}

/* ---- the joint outcome against the brute force ---- */

#define MAX_ARMIES 16

typedef struct {
    cbd_warapp_side attack, defense;
    cbd_warapp_settings s;
} unit_case;

/* A cell per (attackers left, defenders left, attacking units dead, defending units dead). */
static size_t cell(const unit_case *c, uint64_t a_left, uint64_t d_left, uint64_t a_dead,
                   uint64_t d_dead) {
    size_t na = c->attack.n_units, nd = c->defense.n_units;
    return (((size_t)a_left * (MAX_ARMIES + 2) + d_left) << (na + nd)) | (size_t)(a_dead << nd) |
           (size_t)d_dead;
}

static size_t cells_of(const unit_case *c) {
    return (size_t)(MAX_ARMIES + 1) * (MAX_ARMIES + 2) << (c->attack.n_units + c->defense.n_units);
}

static uint64_t dead_bits(const cbd_warapp_side *s, const uint64_t *left) {
    uint64_t m = 0;
    for (size_t i = 0; i < s->n_units && i < CBD_WARAPP_MAX_UNITS; i++) {
        m |= (uint64_t)(left[i] == 0) << i;
    }
    return m;
}

/* Every pair of damage values with its probability, through bf_take and W20 (written here). */
static long double *exact(const unit_case *c) {
    long double *p = calloc(cells_of(c), sizeof *p);
    cr_assert(p);
    bf_dist da, dd;
    bf_damage(cbd_warapp_side_power(&c->attack, true), c->s.offense_kill_rate, c->s.luck_modifier,
              c->s.rounding, &da);
    bf_damage(cbd_warapp_side_power(&c->defense, false), c->s.defense_kill_rate, c->s.luck_modifier,
              c->s.rounding, &dd);
    for (uint64_t ka = 0; ka <= BF_MAX_DAMAGE; ka++) {
        for (uint64_t kd = 0; da.p[ka] > 0 && kd <= BF_MAX_DAMAGE; kd++) {
            if (dd.p[kd] == 0) {
                continue;
            }
            uint64_t al[CBD_WARAPP_MAX_UNITS], dl[CBD_WARAPP_MAX_UNITS];
            uint64_t a_armies = bf_take(&c->attack, kd, al);
            uint64_t d_armies = bf_take(&c->defense, ka, dl);
            if (bf_empty(&c->attack, a_armies, al) && bf_empty(&c->defense, d_armies, dl)) {
                d_armies = 1; /* W20: mutual destruction resurrects one defending army */
            }
            p[cell(c, a_armies, d_armies, dead_bits(&c->attack, al), dead_bits(&c->defense, dl))] +=
                da.p[ka] * dd.p[kd];
        }
    }
    return p;
}

static chi_square_result fit(const unit_case *c, uint64_t seed, uint64_t trials) {
    cbd_sim_plan plan = plan_of(&c->attack, &c->defense, &c->s);
    uint64_t *obs = calloc(cells_of(c), sizeof *obs);
    cr_assert(obs);
    cbd_rng rng;
    cbd_rng_seed(&rng, seed);
    for (uint64_t t = 0; t < trials; t++) {
        cbd_sim_record r = cbd_sim_plan_one(&plan, &rng);
        obs[cell(c, r.battle.outcome.attackers_left, r.battle.outcome.defenders_left,
                 r.attacking_dead, r.defending_dead)]++;
    }
    long double *p = exact(c);
    chi_square_result res = chi_square_test(obs, p, cells_of(c), trials);
    free(p);
    free(obs);
    cbd_sim_plan_free(&plan);
    return res;
}

/*
 * At 75 % luck and weighted rounding: a Commander and a health unit (health 4, combat order 5)
 * beside 6 armies attack 5 armies behind a Shield (combat order −5, damage to kill 3) and a
 * Commander. Every clause of W19 is in play: the Shield before the armies, the Commander after
 * them, the health unit losing part of its health. 10^6 trials, α = 0.001.
 */
Test(units_simulate, the_joint_outcome_fits_the_brute_force) {
    cbd_warapp_unit att[2] = {cbd_warapp_commander(), {1, 1, 5, true, 4}};
    cbd_warapp_unit def[2] = {{0, 2, -5, false, 3}, cbd_warapp_commander()};
    unit_case c = {{6, 2, att}, {5, 2, def}, settings(600000, 700000, 750000, CBD_ROUND_WEIGHTED)};
    chi_square_result r = fit(&c, 20240611, 1000000);
    cr_log_info("units joint: chi2 %.1f, critical %.1f, df %d", r.statistic, r.critical, r.df);
    cr_expect_lt(r.statistic, r.critical, "chi2 %.1f >= %.1f (df %d)", r.statistic, r.critical,
                 r.df);
    cr_expect_gt(r.df, 10, "enough outcomes to tell");
}

/* The same test has power: with the Shield's damage to kill taken as 4 in the brute force
 * (the simulation keeps 3), the fit is rejected. */
Test(units_simulate, the_fit_rejects_a_wrong_damage_to_kill) {
    cbd_warapp_unit att[2] = {cbd_warapp_commander(), {1, 1, 5, true, 4}};
    cbd_warapp_unit def[2] = {{0, 2, -5, false, 3}, cbd_warapp_commander()};
    unit_case c = {{6, 2, att}, {5, 2, def}, settings(600000, 700000, 750000, CBD_ROUND_WEIGHTED)};
    cbd_sim_plan plan = plan_of(&c.attack, &c.defense, &c.s);
    uint64_t *obs = calloc(cells_of(&c), sizeof *obs);
    cr_assert(obs);
    cbd_rng rng;
    cbd_rng_seed(&rng, 20240611);
    for (uint64_t t = 0; t < 1000000; t++) {
        cbd_sim_record r = cbd_sim_plan_one(&plan, &rng);
        obs[cell(&c, r.battle.outcome.attackers_left, r.battle.outcome.defenders_left,
                 r.attacking_dead, r.defending_dead)]++;
    }
    def[0].toughness = 4;
    long double *p = exact(&c);
    chi_square_result res = chi_square_test(obs, p, cells_of(&c), 1000000);
    cr_log_info("wrong damage to kill: chi2 %.1f, critical %.1f", res.statistic, res.critical);
    cr_expect_gt(res.statistic, res.critical);
    free(p);
    free(obs);
    cbd_sim_plan_free(&plan);
}

/* ---- the budget ---- */

/* A battle is charged CBD_WORK_UNIT_DAMAGE for each unit W19 walks, on both sides. */
Test(units_simulate, a_battle_is_charged_for_its_units) {
    cbd_warapp_unit c[3] = {cbd_warapp_commander(), cbd_warapp_commander(), cbd_warapp_commander()};
    cbd_warapp_side attack = {3, 1, c}, defense = {10, 2, c + 1}, plain = {10, 0, NULL};
    cbd_warapp_settings s = settings(600000, 700000, 160000, CBD_ROUND_WEIGHTED);
    cbd_sim_plan with = plan_of(&attack, &defense, &s), without = plan_of(&plain, &plain, &s);
    cr_expect_eq(cbd_sim_plan_battle_units(&without), CBD_WORK_BATTLE);
    cr_expect_eq(cbd_sim_plan_battle_units(&with), CBD_WORK_BATTLE + 3 * CBD_WORK_UNIT_DAMAGE);
    cbd_sim_plan_free(&with);
    cbd_sim_plan_free(&without);
    /* Nothing to attack with is refused (W20). */
    cbd_warapp_side nothing = {0, 0, NULL};
    cbd_sim_plan p;
    cr_expect_eq(cbd_sim_plan_init(&p, &nothing, &plain, NULL, 0, &s, NULL), CBD_ERR_INVALID);
}
