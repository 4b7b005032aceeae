/*
 * Seeded battles set up (W1, W17–W20, W23): one side's constants for random battles, and the
 * battle of one /simulate request, set up once (the damage order of each side's units, every
 * count's defending sampler and the running sums a count is drawn against). The battles run
 * in warapp_simulate.c, which calls this file (never the other way). See warapp_simulate.h for
 * the draw order.
 */
#include <string.h>

#include "combatd/warapp_simulate.h"

__extension__ typedef unsigned __int128 cbd_u128;

void cbd_sim_side_init(cbd_sim_side *side, uint64_t n, cbd_micro rate, cbd_micro luck) {
    memset(side, 0, sizeof *side);
    side->n = n;
    side->rate = rate;
    side->luck = luck;
    /* X is random only when luck weighs it in and a roll can go either way. */
    side->rolls = luck > 0 && n > 0 && rate > 0 && rate < CBD_MICRO_ONE;
    side->fixed_x = rate == CBD_MICRO_ONE ? n : 0;
    cbd_binomial_init(&side->roll, side->rolls ? n : 0, rate);
    /* W1: (1 − L)·n·p in units of 10^-12, at most 10^6·10^9·10^6 = 10^21: 128 bits. */
    cbd_u128 base = (cbd_u128)(CBD_MICRO_ONE - luck) * n * rate;
    side->base_whole = (uint64_t)(base / CBD_KILL_FRAC_ONE);
    side->base_frac = (uint64_t)(base % CBD_KILL_FRAC_ONE);
}

/* A record keeps each side's dead units as the bits of one word. */
_Static_assert(CBD_WARAPP_MAX_UNITS <= 64, "cbd_sim_record's dead-unit masks hold 64 units");

void cbd_sim_plan_free(cbd_sim_plan *plan) {
    cbd_mem_free(plan->armies);
    cbd_mem_free(plan->cum);
    cbd_mem_free(plan->def);
    plan->armies = NULL;
    plan->cum = NULL;
    plan->def = NULL;
    plan->n_counts = 0;
}

static cbd_status tables_alloc(cbd_sim_plan *p, size_t n, cbd_budget *budget) {
    p->armies = cbd_mem_alloc(budget, n * sizeof *p->armies);
    p->cum = p->armies ? cbd_mem_alloc(budget, n * sizeof *p->cum) : NULL;
    p->def = p->cum ? cbd_mem_alloc(budget, n * sizeof *p->def) : NULL;
    if (!p->def) {
        cbd_sim_plan_free(p);
        return cbd_budget_nomem(budget);
    }
    p->n_counts = n;
    return CBD_OK;
}

/* Each count's defending sampler for its power (W18) and its running sum (W23: step 0 of the
 * draw order), the last sum exactly 1 so that every uniform double below it finds a count. */
static void fill_counts(cbd_sim_plan *p, const cbd_warapp_count *counts,
                        const cbd_warapp_settings *s) {
    cbd_warapp_side units_only = p->defense;
    units_only.armies = 0;
    uint64_t unit_power = cbd_warapp_side_power(&units_only, false);
    double sum = 0.0;
    p->def_rolls = false;
    for (size_t k = 0; k < p->n_counts; k++) {
        p->armies[k] = counts[k].armies;
        sum += counts[k].weight;
        p->cum[k] = sum;
        cbd_sim_side_init(&p->def[k], counts[k].armies + unit_power, s->defense_kill_rate,
                          s->luck_modifier);
        p->def_rolls |= p->def[k].rolls;
    }
    p->cum[p->n_counts - 1] = 1.0;
}

cbd_status cbd_sim_plan_init(cbd_sim_plan *plan, const cbd_warapp_side *attack,
                             const cbd_warapp_side *defense, const cbd_warapp_count *counts,
                             size_t n_counts, const cbd_warapp_settings *settings,
                             cbd_budget *budget) {
    memset(plan, 0, sizeof *plan);
    if ((attack->armies == 0 && attack->n_units == 0) || attack->n_units > CBD_WARAPP_MAX_UNITS ||
        defense->n_units > CBD_WARAPP_MAX_UNITS || (n_counts > 0 && !counts) ||
        n_counts > UINT32_MAX) {
        return CBD_ERR_INVALID; /* W20: an attack needs an army or a unit */
    }
    plan->attack = *attack;
    plan->defense = *defense;
    cbd_warapp_damage_order(attack, plan->attack_order, &plan->attack_before);
    cbd_warapp_damage_order(defense, plan->defense_order, &plan->defense_before);
    plan->has_units = attack->n_units + defense->n_units > 0;
    plan->rounding = settings->rounding;
    cbd_sim_side_init(&plan->att, cbd_warapp_side_power(attack, true), settings->offense_kill_rate,
                      settings->luck_modifier);
    cbd_warapp_count one = {defense->armies, 1.0};
    if (n_counts == 0) {
        counts = &one; /* a known count: part of the request's fixed work */
        n_counts = 1;
    } else if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SIM_COUNT, n_counts))) {
        return CBD_ERR_BUDGET;
    }
    cbd_status st = tables_alloc(plan, n_counts, budget);
    if (st == CBD_OK) {
        fill_counts(plan, counts, settings);
    }
    return st;
}

uint64_t cbd_sim_plan_battle_units(const cbd_sim_plan *plan) {
    uint64_t units = CBD_WORK_BATTLE;
    units -= plan->att.rolls ? 0 : CBD_WORK_BATTLE_ROLL;
    units -= plan->def_rolls ? 0 : CBD_WORK_BATTLE_ROLL;
    if (plan->n_counts > 1) {
        /* A uniform and a bisection step per halving of the counts. */
        uint64_t steps = 1;
        for (size_t n = plan->n_counts - 1; n > 0; n >>= 1) {
            steps++;
        }
        units += steps * CBD_WORK_FOG_STEP;
        /* Past the cache, each battle reads its count's sampler and the bisection's sums from
         * memory: most of the cost of a large distribution. */
        size_t bytes =
            plan->n_counts * (sizeof *plan->armies + sizeof *plan->cum + sizeof *plan->def);
        units += bytes > CBD_WORK_FOG_CACHED ? CBD_WORK_FOG_MISS : 0;
    }
    return units + CBD_WORK_UNIT_DAMAGE * (plan->attack.n_units + plan->defense.n_units);
}
