/* Random War.app battles (W1–W6, W18–W20, W23) from a caller's RNG state; see
 * warapp_simulate.h. The sides' constants and the plans' set-up are in warapp_sim_plan.c. */
#include "combatd/warapp_simulate.h"

#include <string.h>

__extension__ typedef unsigned __int128 cbd_u128;

void cbd_warapp_sim_init(cbd_warapp_sim *sim, uint64_t attackers, uint64_t defenders,
                         const cbd_warapp_settings *settings) {
    sim->attackers = attackers;
    sim->defenders = defenders;
    sim->rounding = settings->rounding;
    cbd_sim_side_init(&sim->side[0], attackers, settings->offense_kill_rate,
                      settings->luck_modifier);
    cbd_sim_side_init(&sim->side[1], defenders, settings->defense_kill_rate,
                      settings->luck_modifier);
}

uint64_t cbd_warapp_sim_battle_units(const cbd_warapp_sim *sim) {
    uint64_t units = CBD_WORK_BATTLE;
    for (int i = 0; i < 2; i++) {
        if (!sim->side[i].rolls) {
            units -= CBD_WORK_BATTLE_ROLL;
        }
    }
    return units;
}

cbd_kill_value cbd_sim_side_blend(const cbd_sim_side *side, uint64_t x) {
    /* L·X in millionths is at most 10^6·10^9 = 10^15, so this half stays in 64 bits (the
     * per-battle path avoids the 128-bit division of cbd_warapp_blend, with the same result). */
    uint64_t lx = (uint64_t)side->luck * x;
    uint64_t frac = side->base_frac + (lx % CBD_MICRO_ONE) * CBD_MICRO_ONE;
    uint64_t whole = side->base_whole + lx / CBD_MICRO_ONE;
    if (frac >= CBD_KILL_FRAC_ONE) {
        frac -= CBD_KILL_FRAC_ONE;
        whole++;
    }
    cbd_kill_value v = {whole, frac};
    return v;
}

static inline uint64_t side_roll(const cbd_sim_side *side, cbd_rng *rng) {
    return side->rolls ? cbd_binomial_draw(&side->roll, rng) : side->fixed_x;
}

static inline uint64_t side_round(cbd_rounding mode, cbd_kill_value v, cbd_rng *rng) {
    if (mode == CBD_ROUND_STRAIGHT) {
        return cbd_round_straight(v);
    }
    /* W2: a draw only when there is a fraction to round. */
    return v.frac == 0 ? v.whole : cbd_round_weighted(v, cbd_rng_bounded(rng, CBD_KILL_FRAC_ONE));
}

/* Steps 1–4 of the draw order: both rolls, then both rounding draws (W1, W2). */
static inline void draw_kills(const cbd_sim_side *a, const cbd_sim_side *d, cbd_rounding mode,
                              cbd_rng *rng, cbd_sim_battle *b) {
    uint64_t xa = side_roll(a, rng);
    uint64_t xd = side_roll(d, rng);
    cbd_kill_value va = cbd_sim_side_blend(a, xa);
    cbd_kill_value vd = cbd_sim_side_blend(d, xd);
    b->attacker_kills = side_round(mode, va, rng);
    b->defender_kills = side_round(mode, vd, rng);
}

cbd_sim_battle cbd_warapp_sim_one(const cbd_warapp_sim *sim, cbd_rng *rng) {
    cbd_sim_battle b;
    draw_kills(&sim->side[0], &sim->side[1], sim->rounding, rng, &b);
    b.outcome =
        cbd_warapp_resolve(sim->attackers, sim->defenders, b.attacker_kills, b.defender_kills);
    return b;
}

/* Step 0 of the draw order (W23): the first count whose running sum passes a uniform double,
 * by bisection over the plan's sums (non-decreasing, the last exactly 1). */
static inline uint32_t draw_count(const cbd_sim_plan *plan, cbd_rng *rng) {
    if (plan->n_counts < 2) {
        return 0;
    }
    double d = cbd_rng_double(rng);
    size_t lo = 0, hi = plan->n_counts - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d < plan->cum[mid]) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return (uint32_t)lo;
}

/* Bit i set for each unit i with nothing left (dead, W19); a side has at most 64 (plan_init). */
static uint64_t dead_units(size_t n, const uint64_t *left) {
    uint64_t dead = 0;
    for (size_t i = 0; i < n && i < CBD_WARAPP_MAX_UNITS; i++) {
        dead |= (uint64_t)(left[i] == 0) << i;
    }
    return dead;
}

/* W18, W19: r's outcome and dead units from its kills, each side's damage dealt, against
 * `defenders` armies beside the plan's defending units; W20 decides (cbd_warapp_decide). */
static void resolve_units(const cbd_sim_plan *plan, uint64_t defenders, cbd_sim_record *r) {
    uint64_t a_left[CBD_WARAPP_MAX_UNITS], d_left[CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side def = plan->defense;
    def.armies = defenders;
    cbd_warapp_side_state a = {0, a_left}, d = {0, d_left};
    /* W18: each side's rounded kills are the damage it deals; W19 spends it in combat order. */
    cbd_warapp_take_damage(&plan->attack, plan->attack_order, plan->attack_before,
                           r->battle.defender_kills, &a);
    cbd_warapp_take_damage(&def, plan->defense_order, plan->defense_before,
                           r->battle.attacker_kills, &d);
    r->battle.outcome = cbd_warapp_decide(plan->attack.armies, defenders, a.armies_left,
                                          cbd_warapp_side_empty(&plan->attack, &a), d.armies_left,
                                          cbd_warapp_side_empty(&def, &d));
    r->mutual = r->battle.outcome.mutual;
    r->attacking_dead = dead_units(plan->attack.n_units, a_left);
    r->defending_dead = dead_units(def.n_units, d_left);
}

/* Armies only: W4–W6; both wiped out is W5's mutual destruction (impossible with 0 defenders:
 * they kill nobody). */
static inline bool armies_battle(const cbd_sim_side *a, const cbd_sim_side *d, cbd_rounding mode,
                                 uint64_t attackers, uint64_t defenders, cbd_rng *rng,
                                 cbd_sim_battle *b) {
    draw_kills(a, d, mode, rng, b);
    b->outcome = cbd_warapp_resolve(attackers, defenders, b->attacker_kills, b->defender_kills);
    return b->outcome.mutual;
}

cbd_sim_record cbd_sim_plan_one(const cbd_sim_plan *plan, cbd_rng *rng) {
    cbd_sim_record r;
    r.count = draw_count(plan, rng);
    uint64_t defenders = plan->armies[r.count];
    r.attacking_dead = r.defending_dead = 0;
    if (!plan->has_units) {
        r.mutual = armies_battle(&plan->att, &plan->def[r.count], plan->rounding,
                                 plan->attack.armies, defenders, rng, &r.battle);
        return r;
    }
    draw_kills(&plan->att, &plan->def[r.count], plan->rounding, rng, &r.battle);
    resolve_units(plan, defenders, &r);
    return r;
}

/* ---- histograms ---- */

void cbd_hist_init(cbd_hist *h) {
    h->lo = 0;
    h->len = 0;
    h->cur = NULL;
    cbd_windows_init(&h->w);
}

void cbd_hist_free(cbd_hist *h) {
    cbd_windows_free(&h->w);
    cbd_hist_init(h);
}

/* A value outside the window found last: another window's, or a window made or grown for it,
 * 64 values around it at first so that its neighbours land in it. */
static cbd_status hist_add_slow(cbd_hist *h, uint64_t v, uint64_t count, cbd_budget *budget) {
    cbd_slot *s = cbd_windows_find(&h->w, v);
    if (!s) {
        uint64_t lo = v >= 32 ? v - 32 : 0, hi = v <= UINT64_MAX - 31 ? v + 31 : UINT64_MAX;
        cbd_status st =
            cbd_windows_cover(&h->w, lo, hi, CBD_WINDOWS_JOIN, CBD_WORK_HIST_SLOT, budget, &s);
        if (st != CBD_OK) {
            return st;
        }
        s += v - lo;
    }
    s->n += count;
    const cbd_window *w = &h->w.w[h->w.last]; /* the window v fell in: the next value's too */
    h->lo = w->lo;
    h->len = w->len;
    h->cur = w->s;
    return CBD_OK;
}

cbd_status cbd_hist_add(cbd_hist *h, uint64_t v, uint64_t count, cbd_budget *budget) {
    if (v - h->lo < h->len) {
        h->cur[v - h->lo].n += count;
        return CBD_OK;
    }
    return hist_add_slow(h, v, count, budget);
}

cbd_status cbd_hist_merge(cbd_hist *dst, const cbd_hist *src, cbd_budget *budget) {
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, cbd_windows_slots(&src->w)))) {
        return CBD_ERR_BUDGET;
    }
    cbd_status st = CBD_OK;
    for (size_t k = 0; k < src->w.n && st == CBD_OK; k++) {
        const cbd_window *w = &src->w.w[k];
        for (size_t i = 0; i < w->len && st == CBD_OK; i++) {
            if (w->s[i].n) {
                st = cbd_hist_add(dst, w->lo + i, w->s[i].n, budget);
            }
        }
    }
    return st;
}

uint64_t cbd_hist_get(const cbd_hist *h, uint64_t v) {
    cbd_windows ws = h->w; /* a copy: the search moves its `last`, not the histogram's */
    const cbd_slot *s = cbd_windows_find(&ws, v);
    return s ? s->n : 0;
}

double cbd_hist_mean(const cbd_hist *h) {
    cbd_u128 sum = 0;
    uint64_t total = 0;
    for (size_t k = 0; k < h->w.n; k++) {
        const cbd_window *w = &h->w.w[k];
        for (size_t i = 0; i < w->len; i++) {
            sum += (cbd_u128)(w->lo + i) * w->s[i].n;
            total += w->s[i].n;
        }
    }
    if (total == 0) {
        return 0.0;
    }
    /* Whole part and remainder separately: exact up to the final division's rounding. */
    cbd_u128 q = sum / total;
    uint64_t r = (uint64_t)(sum % total);
    return (double)q + (double)r / (double)total;
}

/* ---- many battles ---- */

void cbd_sim_stats_init(cbd_sim_stats *st) {
    memset(st, 0, sizeof *st);
    cbd_hist_init(&st->attackers_left);
    cbd_hist_init(&st->defenders_left);
}

void cbd_sim_stats_free(cbd_sim_stats *st) {
    cbd_hist_free(&st->attackers_left);
    cbd_hist_free(&st->defenders_left);
    cbd_mem_free(st->drawn);
    st->drawn = NULL;
    st->n_drawn = 0;
}

/* The per-count tally of a run with fog, zeroed, charged as histogram slots. */
static cbd_status drawn_alloc(cbd_sim_stats *st, size_t n, cbd_budget *budget) {
    if (st->drawn || n < 2) {
        return CBD_OK;
    }
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_HIST_SLOT, n))) {
        return CBD_ERR_BUDGET;
    }
    st->drawn = cbd_mem_calloc(budget, n, sizeof *st->drawn);
    if (!st->drawn) {
        return cbd_budget_nomem(budget);
    }
    st->n_drawn = n;
    return CBD_OK;
}

cbd_status cbd_sim_stats_merge(cbd_sim_stats *dst, const cbd_sim_stats *src, cbd_budget *budget) {
    dst->trials += src->trials;
    dst->captures += src->captures;
    dst->mutual_destructions += src->mutual_destructions;
    for (size_t i = 0; i < CBD_WARAPP_MAX_UNITS; i++) {
        dst->attacking_survived[i] += src->attacking_survived[i];
        dst->defending_survived[i] += src->defending_survived[i];
    }
    cbd_status st = drawn_alloc(dst, src->n_drawn, budget);
    for (size_t i = 0; st == CBD_OK && i < src->n_drawn; i++) {
        dst->drawn[i] += src->drawn[i];
    }
    if (st == CBD_OK) {
        st = cbd_hist_merge(&dst->attackers_left, &src->attackers_left, budget);
    }
    return st == CBD_OK ? cbd_hist_merge(&dst->defenders_left, &src->defenders_left, budget) : st;
}

uint64_t cbd_sim_block_count(uint64_t trials) {
    return trials / CBD_SIM_BLOCK + (trials % CBD_SIM_BLOCK ? 1 : 0);
}

/* Adds to each unit's tally of survivals the units of one side not in `dead` (W19). */
static inline void count_survivors(uint64_t *survived, size_t n, uint64_t dead) {
    for (size_t i = 0; i < n; i++) {
        survived[i] += ((dead >> i) & 1u) ^ 1u;
    }
}

/*
 * Trials [t0, t1) of a plan of armies only against one count: each battle as cbd_sim_plan_one
 * plays it, with the choices it makes per battle (a count to draw, units to walk) made once, so
 * that plain battles cost what they cost before units and fog existed.
 */
static cbd_status play_plain(const cbd_sim_plan *plan, cbd_rng *rng, uint64_t t0, uint64_t t1,
                             cbd_budget *budget, cbd_sim_stats *stats, cbd_sim_record *battles) {
    const cbd_sim_side *a = &plan->att, *d = &plan->def[0];
    uint64_t attackers = plan->attack.armies, defenders = plan->armies[0];
    uint64_t captures = 0, mutual = 0;
    cbd_status st = CBD_OK;
    uint64_t t = t0;
    for (; t < t1 && st == CBD_OK; t++) {
        cbd_sim_battle b;
        bool both = armies_battle(a, d, plan->rounding, attackers, defenders, rng, &b);
        if (battles) {
            cbd_sim_record r = {b, 0, both, 0, 0};
            battles[t] = r;
        }
        captures += b.outcome.captured;
        mutual += both;
        st = cbd_hist_add(&stats->attackers_left, b.outcome.attackers_left, 1, budget);
        if (st == CBD_OK) {
            st = cbd_hist_add(&stats->defenders_left, b.outcome.defenders_left, 1, budget);
        }
    }
    stats->captures += captures;
    stats->mutual_destructions += mutual;
    stats->trials += st == CBD_OK ? t1 - t0 : 0;
    return st;
}

/* Plays trials [t0, t1) of one block on `rng`, adding them to *stats (and to battles[]). */
static cbd_status play_block(const cbd_sim_plan *plan, cbd_rng *rng, uint64_t t0, uint64_t t1,
                             cbd_budget *budget, cbd_sim_stats *stats, cbd_sim_record *battles) {
    for (uint64_t t = t0; t < t1; t++) {
        cbd_sim_record r = cbd_sim_plan_one(plan, rng);
        if (battles) {
            battles[t] = r;
        }
        stats->captures += r.battle.outcome.captured;
        stats->mutual_destructions += r.mutual;
        if (plan->has_units) {
            count_survivors(stats->attacking_survived, plan->attack.n_units, r.attacking_dead);
            count_survivors(stats->defending_survived, plan->defense.n_units, r.defending_dead);
        }
        if (stats->drawn) {
            stats->drawn[r.count]++;
        }
        cbd_status st =
            cbd_hist_add(&stats->attackers_left, r.battle.outcome.attackers_left, 1, budget);
        if (st == CBD_OK) {
            st = cbd_hist_add(&stats->defenders_left, r.battle.outcome.defenders_left, 1, budget);
        }
        if (st != CBD_OK) {
            return st;
        }
    }
    stats->trials += t1 - t0;
    return CBD_OK;
}

/*
 * A block's battles [t0, t1) in slices of about CBD_BUDGET_PROGRESS_UNITS of work (at least one
 * battle), each charged before it runs: the progress check (a deadline, a client gone, a server
 * stopping) comes with the charges, and a block charged at once ran 8-17 ms of CPU between two
 * checks (65,536 battles; more with units or fog). One stream runs on through the slices, so
 * the battles are the block's whatever the slicing.
 */
static cbd_status play_slices(const cbd_sim_plan *plan, cbd_rng *rng, uint64_t t0, uint64_t t1,
                              uint64_t per_battle, cbd_budget *budget, cbd_sim_stats *stats,
                              cbd_sim_record *battles) {
    uint64_t slice = per_battle > 0 ? CBD_BUDGET_PROGRESS_UNITS / per_battle : t1 - t0;
    slice = slice > 0 ? slice : 1;
    bool plain = !plan->has_units && plan->n_counts == 1;
    for (uint64_t s0 = t0; s0 < t1; s0 += slice) {
        uint64_t s1 = t1 - s0 > slice ? s0 + slice : t1;
        if (!cbd_charge(budget, cbd_work_times(per_battle, s1 - s0))) {
            return CBD_ERR_BUDGET;
        }
        cbd_status st = drawn_alloc(stats, plan->n_counts, budget); /* (once) */
        if (st != CBD_OK) {
            return st;
        }
        st = plain ? play_plain(plan, rng, s0, s1, budget, stats, battles)
                   : play_block(plan, rng, s0, s1, budget, stats, battles);
        if (st != CBD_OK) {
            return st;
        }
    }
    return CBD_OK;
}

cbd_status cbd_warapp_sim_blocks(const cbd_sim_plan *plan, uint64_t seed, uint64_t trials,
                                 uint64_t first_block, uint64_t end_block, cbd_budget *budget,
                                 cbd_sim_stats *stats, cbd_sim_record *battles) {
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_RNG_JUMP, first_block))) {
        return CBD_ERR_BUDGET;
    }
    cbd_rng stream;
    cbd_rng_seed(&stream, seed);
    for (uint64_t b = 0; b < first_block; b++) {
        cbd_rng_jump(&stream);
    }
    uint64_t per_battle = cbd_sim_plan_battle_units(plan);
    for (uint64_t b = first_block; b < end_block; b++) {
        cbd_rng rng = stream;
        uint64_t t0 = b * CBD_SIM_BLOCK;
        uint64_t t1 = t0 + CBD_SIM_BLOCK < trials ? t0 + CBD_SIM_BLOCK : trials;
        cbd_status st = play_slices(plan, &rng, t0, t1, per_battle, budget, stats, battles);
        if (st != CBD_OK) {
            return st;
        }
        if (!cbd_charge(budget, CBD_WORK_RNG_JUMP)) { /* the jump to the next block's stream */
            return CBD_ERR_BUDGET;
        }
        cbd_rng_jump(&stream);
    }
    return CBD_OK;
}
