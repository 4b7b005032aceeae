/*
 * POST /simulate's answer (warapp_simulate_render.h): integer counts over the trials, so the
 * same seed always renders the same bytes. Without units and fog it is the answer /simulate has
 * always given; units (W17–W20) and fog (W23) only add members.
 */
#include "warapp_simulate_render.h"

#include "warapp_fog_json.h"
#include "warapp_settings.h"
#include "warapp_units_json.h"

uint64_t cbdp_sim_render_units(const cbd_sim_request *q) {
    const cbd_warapp_battle *b = &q->battle;
    /* Each unit echoed with its tally; each count read (W23), echoed with its probability,
     * and tallied. */
    return cbd_work_times(CBD_WORK_LISTED_UNIT, b->attacking.n + b->defending.n) +
           cbd_work_times(CBD_WORK_FOG_POINT + 2 * CBD_WORK_DIST_POINT, b->fog.n);
}

/* {"mean": x, "histogram": [{"armies": k, "count": c}, ...]} with only non-zero counts. */
static void hist_json(cbd_jw *w, const char *key, const cbd_hist *h) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    cbd_jw_key_real(w, "mean", cbd_hist_mean(h));
    cbd_jw_key(w, "histogram");
    cbd_jw_array_open(w);
    for (size_t k = 0; k < h->w.n; k++) {
        const cbd_window *win = &h->w.w[k];
        for (size_t i = 0; i < win->len; i++) {
            if (win->s[i].n == 0) {
                continue;
            }
            cbd_jw_object_open(w);
            cbd_jw_key_uint(w, "armies", win->lo + i);
            cbd_jw_key_uint(w, "count", win->s[i].n);
            cbd_jw_object_close(w);
        }
    }
    cbd_jw_array_close(w);
    cbd_jw_object_close(w);
}

/* W23: how many trials drew each count, in the distribution's order (every count listed). */
static void drawn_json(cbd_jw *w, const cbd_sim_plan *plan, const cbd_sim_stats *st) {
    cbd_jw_key(w, "defenders_drawn");
    cbd_jw_array_open(w);
    for (size_t k = 0; k < plan->n_counts; k++) {
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "armies", plan->armies[k]);
        cbd_jw_key_uint(w, "count", k < st->n_drawn ? st->drawn[k] : 0);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

/* Each unit as the request gave it, with the trials in which it lived (W19, W20). */
static void units_json(cbd_jw *w, const char *key, const cbd_warapp_units *u,
                       const uint64_t *survived) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    for (size_t i = 0; i < u->n; i++) {
        cbd_jw_object_open(w);
        cbdp_warapp_unit_members(w, u, i);
        cbd_jw_key_uint(w, "survived", survived[i]);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

/* The units of one side that died in one battle: each by its id, or by its index in the
 * request's array when it has none. */
static void dead_json(cbd_jw *w, const char *key, const cbd_warapp_units *u, uint64_t dead) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    for (size_t i = 0; i < u->n; i++) {
        if (!((dead >> i) & 1u)) {
            continue;
        }
        if (u->ids[i]) {
            cbd_jw_string(w, u->ids[i]);
        } else {
            cbd_jw_uint(w, i);
        }
    }
    cbd_jw_array_close(w);
}

/* One battle shaped as /analyze-attack's `outcome`, plus the raw kills before capping (W4) and
 * what units and fog add: the defenders drawn, the units that died. */
static void battle_json(cbd_jw *w, const cbd_sim_request *q, const cbd_sim_plan *plan,
                        const cbd_sim_record *r) {
    cbd_jw_object_open(w);
    cbd_warapp_outcome_members(w, &r->battle.outcome);
    cbd_jw_key_uint(w, "attacker_kills", r->battle.attacker_kills);
    cbd_jw_key_uint(w, "defender_kills", r->battle.defender_kills);
    if (q->battle.fog.n > 0) {
        cbd_jw_key_uint(w, "defenders", plan->armies[r->count]);
    }
    if (q->battle.attacking.given) {
        dead_json(w, "attacking_units_died", &q->battle.attacking, r->attacking_dead);
    }
    if (q->battle.defending.given) {
        dead_json(w, "defending_units_died", &q->battle.defending, r->defending_dead);
    }
    cbd_jw_object_close(w);
}

void cbdp_sim_render(cbd_jw *w, const cbd_sim_request *q, const cbd_sim_plan *plan,
                     const cbd_sim_stats *st, const cbd_sim_record *battles) {
    const cbd_warapp_battle *b = &q->battle;
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "seed", q->seed);
    cbd_jw_key_uint(w, "trials", q->trials);
    cbd_jw_key_uint(w, "attackers", b->attackers);
    if (b->fog.n > 0) {
        cbd_jw_blame(w, "/defenders");
        cbd_fog_write(w, "defenders", &b->fog); /* W23: the distribution drawn from */
    } else {
        cbd_jw_key_uint(w, "defenders", b->defenders);
    }
    cbdp_warapp_settings_write(w, "settings", &b->settings);
    /* The histograms grow with the trials (up to the spread of the outcomes). */
    cbd_jw_blame(w, "/trials");
    cbd_jw_key_uint(w, "captures", st->captures);
    cbd_jw_key_real(w, "capture_rate", (double)st->captures / (double)st->trials);
    cbd_jw_key_uint(w, "mutual_destructions", st->mutual_destructions);
    hist_json(w, "attackers_left", &st->attackers_left);
    hist_json(w, "defenders_left", &st->defenders_left);
    if (b->fog.n > 0) {
        cbd_jw_blame(w, "/defenders");
        drawn_json(w, plan, st);
    }
    if (b->attacking.given) {
        cbd_jw_blame(w, "/attacking_units");
        units_json(w, "attacking_units", &b->attacking, st->attacking_survived);
    }
    if (b->defending.given) {
        cbd_jw_blame(w, "/defending_units");
        units_json(w, "defending_units", &b->defending, st->defending_survived);
    }
    if (battles) {
        cbd_jw_blame(w, "/include_battles");
        cbd_jw_key(w, "battles");
        cbd_jw_array_open(w);
        for (uint64_t t = 0; t < q->trials; t++) {
            battle_json(w, q, plan, &battles[t]);
        }
        cbd_jw_array_close(w);
    }
    cbd_jw_object_close(w);
}
