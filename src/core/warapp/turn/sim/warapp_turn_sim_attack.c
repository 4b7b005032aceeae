/*
 * W14, W15: one attack/transfer order on the board of one seeded turn (the sampled step of its
 * row in warapp_turn_kinds.c), drawing as /simulate does per battle (warapp_simulate.h), with
 * units (W17–W22) through warapp_turn_sim_units.c.
 */
#include <string.h>

#include "combatd/warapp_simulate.h"
#include "warapp_turn_sim_internal.h"

/* The sampler of one side for n armies, from the cache or set up in *tmp; NULL when the
 * budget would not pay for setting one up. */
static const cbd_sim_side *side_for(cbd_turn_sim *sim, cbd_budget *budget, int which, uint64_t n,
                                    cbd_sim_side *tmp) {
    bool cached = n < sim->cache_n && sim->ready[n];
    if (!cached && !cbd_charge(budget, CBD_WORK_SIM_SETUP)) {
        return NULL;
    }
    if (n < sim->cache_n) {
        if (!sim->ready[n]) {
            cbd_warapp_sim s;
            cbd_warapp_sim_init(&s, n, n, &sim->plan.turn->battle);
            sim->side[0][n] = s.side[0];
            sim->side[1][n] = s.side[1];
            sim->ready[n] = 1;
        }
        return &sim->side[which][n];
    }
    cbd_warapp_sim s;
    cbd_warapp_sim_init(&s, which == 0 ? n : 0, which == 0 ? 0 : n, &sim->plan.turn->battle);
    *tmp = s.side[which];
    return tmp;
}

static inline uint64_t side_kills(const cbd_sim_side *s, uint64_t x, cbd_rounding r, cbd_rng *rng) {
    cbd_kill_value v = cbd_sim_side_blend(s, x);
    if (r == CBD_ROUND_STRAIGHT || v.frac == 0) {
        return cbd_round_straight(v); /* W2; with no fraction both modes agree */
    }
    return cbd_round_weighted(v, cbd_rng_bounded(rng, CBD_KILL_FRAC_ONE));
}

/*
 * One battle, drawing exactly as cbd_warapp_sim_one (warapp_simulate.h): both rolls, then both
 * rounding draws. It takes the two cached sides instead of a cbd_warapp_sim so that a turn
 * does not set up a sampler per battle; test_warapp_turn checks the two agree draw for draw.
 */
static void battle(const cbd_sim_side *a, const cbd_sim_side *d, cbd_rounding r, cbd_rng *rng,
                   cbd_turn_event *ev) {
    uint64_t xa = a->rolls ? cbd_binomial_draw(&a->roll, rng) : a->fixed_x;
    uint64_t xd = d->rolls ? cbd_binomial_draw(&d->roll, rng) : d->fixed_x;
    ev->attacker_kills = side_kills(a, xa, r, rng);
    ev->defender_kills = side_kills(d, xd, r, rng);
    ev->outcome = cbd_warapp_resolve(a->n, d->n, ev->attacker_kills, ev->defender_kills);
}

/* The survivors of list (by left[]) in their order. */
static size_t alive_of(const uint32_t *list, size_t n, const uint64_t *left, uint32_t *out) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (left[i] > 0) {
            out[m++] = list[i];
        }
    }
    return m;
}

/*
 * W17–W22: a battle with units. It draws as battle() does, for the sides' powers (W18); the
 * damage is spent in combat order (W19), W20 decides, the survivors move (W21), and a player
 * whose last Commander died is eliminated (W22). false when the budget stopped it.
 */
static bool battle_units(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                         cbd_turn_territory *b, const uint32_t *sent_units, size_t n_sent,
                         cbd_rng *rng, cbd_turn_event *ev) {
    uint32_t def_list[CBD_TURN_MAX_UNITS];
    size_t n_def = cbdp_turn_sim_units_on(sim, o->to, def_list);
    cbd_warapp_unit au[CBD_TURN_MAX_UNITS], du[CBD_TURN_MAX_UNITS];
    cbd_warapp_side att, def;
    cbdp_turn_sim_side_with_units(sim, ev->sent, sent_units, n_sent, au, &att);
    cbdp_turn_sim_side_with_units(sim, b[o->to].armies, def_list, n_def, du, &def);
    cbd_sim_side ta, td;
    const cbd_sim_side *sa, *sd;
    /* W19's walks of both sides (their order, damage and survivors, about 4.4 ns a unit), and
     * the board's units and territories looked over to place them again and for W22. */
    uint64_t walk = cbd_work_times(CBD_WORK_UNIT_DAMAGE, 2 * (n_sent + n_def)) +
                    cbd_work_times(CBD_WORK_SIM_UNIT, 2 * sim->plan.turn->n_units) +
                    cbd_work_times(CBD_WORK_SCAN_TERM, 2 * sim->plan.n_terr);
    if (!cbd_charge(budget, CBD_WORK_BATTLE + walk) ||
        !(sa = side_for(sim, budget, 0, cbd_warapp_side_power(&att, true), &ta)) ||
        !(sd = side_for(sim, budget, 1, cbd_warapp_side_power(&def, false), &td))) {
        return false;
    }
    battle(sa, sd, sim->plan.turn->battle.rounding, rng, ev);
    size_t ao[CBD_WARAPP_MAX_UNITS], dor[CBD_WARAPP_MAX_UNITS], ab, db;
    uint64_t aleft[CBD_WARAPP_MAX_UNITS], dleft[CBD_WARAPP_MAX_UNITS];
    cbd_warapp_side_state as = {0, aleft}, ds = {0, dleft};
    cbd_warapp_damage_order(&att, ao, &ab);
    cbd_warapp_damage_order(&def, dor, &db);
    cbd_warapp_take_damage(&att, ao, ab, ev->defender_kills, &as);
    cbd_warapp_take_damage(&def, dor, db, ev->attacker_kills, &ds);
    ev->outcome =
        cbd_warapp_decide(att.armies, def.armies, as.armies_left, cbd_warapp_side_empty(&att, &as),
                          ds.armies_left, cbd_warapp_side_empty(&def, &ds)); /* W20 */
    const cbd_warapp_outcome *out = &ev->outcome;
    cbd_turn_player defender = b[o->to].owner;
    bool att_cmdr = cbdp_turn_sim_units_take(sim, sent_units, n_sent, aleft, ev);
    bool def_cmdr = cbdp_turn_sim_units_take(sim, def_list, n_def, dleft, ev);
    uint32_t back[CBD_TURN_MAX_UNITS];
    size_t n_back = alive_of(sent_units, n_sent, aleft, back);
    if (out->captured) {
        b[o->to].owner = o->player;
        b[o->to].armies = out->attackers_left;
        sim->eligible[o->to] = 0;
        cbdp_turn_sim_arrive(sim, back, n_back, o->to);
    } else {
        b[o->from].armies += out->attackers_left;
        b[o->to].armies = out->defenders_left;
        if (sim->eligible[o->to] > out->defenders_left) {
            sim->eligible[o->to] = out->defenders_left;
        }
        cbdp_turn_sim_arrive(sim, back, n_back, o->from);
    }
    if (att_cmdr) {
        cbdp_turn_sim_eliminate_if_last(sim, b, o->player);
    }
    if (def_cmdr) {
        cbdp_turn_sim_eliminate_if_last(sim, b, defender);
    }
    return true;
}

/* W14: one attack/transfer order on the board; false when the budget stopped its battle. */
bool cbdp_turn_sim_attack(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                          cbd_turn_territory *b, cbd_rng *rng, cbd_turn_event *ev) {
    const cbd_turn *t = sim->plan.turn;
    uint64_t *elig = sim->eligible;
    ev->kind = CBD_TURN_SKIPPED;
    if (b[o->from].owner != o->player ||
        cbdp_turn_at_peace(&sim->plan, o->player, b[o->to].owner)) {
        return true; /* W14.1; W29: no battle with a player at peace */
    }
    bool own = cbdp_turn_moves_own(&sim->plan, o, b[o->to].owner);
    if (cbdp_turn_move_refused(o, own)) {
        return true; /* W33: an attack-only order on its own side, a transfer-only one elsewhere */
    }
    uint64_t sent = cbdp_turn_sent(t, o, b[o->from].armies, elig[o->from]);
    uint32_t units[CBD_TURN_MAX_UNITS];
    size_t n_units = o->n_units ? cbdp_turn_sim_sendable(sim, o, b[o->to].owner, units) : 0;
    if (sent == 0 && n_units == 0) {
        return true; /* W14.3, W21: neither an army nor a unit to send */
    }
    ev->sent = sent;
    for (size_t i = 0; i < n_units; i++) {
        ev->units_sent |= UINT64_C(1) << units[i];
        sim->unit_at[units[i]] = CBD_TURN_UNIT_DEAD; /* on the move: on no territory */
    }
    b[o->from].armies -= sent;
    elig[o->from] = elig[o->from] > sent ? elig[o->from] - sent : 0;
    if (own) {
        ev->kind = CBD_TURN_TRANSFERRED; /* W8: arrivals are not eligible (W15) */
        b[o->to].armies += sent;
        cbdp_turn_sim_arrive(sim, units, n_units, o->to);
        return true;
    }
    ev->kind = CBD_TURN_ATTACKED;
    ev->defender = b[o->to].owner;
    ev->defenders = b[o->to].armies;
    if (t->n_units > 0 &&
        (n_units > 0 || cbdp_turn_sim_units_on(sim, o->to, units + n_units) > 0)) {
        return battle_units(sim, budget, o, b, units, n_units, rng, ev);
    }
    cbd_sim_side ta, td;
    const cbd_sim_side *sa, *sd;
    if (!cbd_charge(budget, CBD_WORK_BATTLE) || !(sa = side_for(sim, budget, 0, sent, &ta)) ||
        !(sd = side_for(sim, budget, 1, b[o->to].armies, &td))) {
        return false;
    }
    battle(sa, sd, t->battle.rounding, rng, ev);
    if (ev->outcome.captured) {
        b[o->to].owner = o->player; /* W6; a new owner has no eligible armies (W15) */
        b[o->to].armies = ev->outcome.attackers_left;
        elig[o->to] = 0;
    } else {
        b[o->from].armies += ev->outcome.attackers_left; /* back home, not eligible */
        b[o->to].armies = ev->outcome.defenders_left;    /* W5 */
        if (elig[o->to] > ev->outcome.defenders_left) {
            elig[o->to] = ev->outcome.defenders_left;
        }
    }
    return true;
}
