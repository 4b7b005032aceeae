/*
 * POST /analyze-attack: War.app's Analyze Attack and Analyze Graphs, exactly.
 * The request is read and weighed in warapp_analyze_read.c; the numbers come from the core
 * (warapp_odds.h); the answer is written here.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "api/api.h"
#include "dist_json.h"
#include "combatd/warapp_odds.h"
#include "warapp_analyze_read.h"
#include "warapp_request.h"
#include "warapp_settings.h"

/*
 * The two survivor distributions' charges: their summaries read every value of their windows a
 * few times (the windows grow with the battle: *blame's side), and up to max_points values of
 * each are listed (/max_distribution_points). When the budget has room for all of it, the
 * listing is charged here and the reading as it runs (*paced: dist_json pays `values` units of
 * each side in pieces, so that the progress checks come during a walk of 10^5-10^6 values, not
 * all before it); else all is charged here, and the stop names what to reduce. A reading of
 * half a check's interval or less is charged here as one piece: a small answer's reads stay
 * direct calls.
 */
#define PACED_MIN_UNITS (CBD_BUDGET_PROGRESS_UNITS / 2)
static cbd_status dists_charge(const cbd_warapp_analysis *a, uint32_t max_points,
                               cbd_budget *budget, const char **blame, bool *paced) {
    size_t att = cbd_windows_slots(&a->attackers_left), def = cbd_windows_slots(&a->defenders_left);
    uint64_t values = cbd_work_times(CBD_WORK_DIST_VALUE, att + def);
    size_t listed = (att < max_points ? att : max_points) + (def < max_points ? def : max_points);
    uint64_t points = cbd_work_times(CBD_WORK_DIST_POINT, listed);
    *paced = values > PACED_MIN_UNITS && values < UINT64_MAX - points &&
             values + points <= cbd_budget_work_left(budget);
    if (!*paced && !cbd_charge(budget, values)) {
        return CBD_ERR_BUDGET;
    }
    if (!cbd_charge(budget, points)) {
        *blame = "/max_distribution_points";
        return CBD_ERR_BUDGET;
    }
    return CBD_OK; /* *blame still names the side: the writing's scratch grows with it */
}

/* The reading of a distribution paid as it runs: every PACED_READS reads of a probability, a
 * piece of the units owed (the summary reads each value about 4 times: CBD_WORK_DIST_VALUE over
 * 4 a read), the rest at the end. */
#define PACED_READS ((size_t)1 << 16)
typedef struct {
    cbd_dist_view inner;
    cbd_budget *budget;
    uint64_t owed;
    size_t reads;
    bool stopped;
} paced_reading;

static double paced_probability(const void *data, size_t i) {
    paced_reading *r = (paced_reading *)data; /* dist_json's own object, not const */
    if (++r->reads % PACED_READS == 0 && !r->stopped) {
        uint64_t piece = PACED_READS * CBD_WORK_DIST_VALUE / 4;
        piece = piece < r->owed ? piece : r->owed;
        r->owed -= piece;
        r->stopped = !(piece > 0 ? cbd_charge(r->budget, piece) : cbd_budget_poll(r->budget));
    }
    return r->inner.probability(r->inner.data, i);
}

static uint64_t paced_value(const void *data, size_t i) {
    const paced_reading *r = data;
    return r->inner.value(r->inner.data, i);
}

/* The distribution as /analyze-turn writes its armies too (dist_json.h), its entries naming
 * their value `value_key`; its scratch, as long as the window, is held in the budget. paced:
 * its reading is charged as it runs (dists_charge). */
static cbd_status dist_json(cbd_jw *w, const char *key, const cbd_windows *d, uint32_t max_points,
                            const char *value_key, cbd_budget *budget, bool paced) {
    size_t *idx = cbd_mem_alloc(budget, cbd_windows_slots(d) * sizeof *idx);
    if (!idx) {
        return cbd_budget_nomem(budget);
    }
    cbd_windows_cursor cursor;
    paced_reading r = {cbdp_dist_view_windows(d, &cursor), budget,
                       cbd_work_times(CBD_WORK_DIST_VALUE, cbd_windows_slots(d)), 0, false};
    r.inner.value_key = value_key;
    cbd_dist_view view = r.inner;
    if (paced) {
        view.data = &r;
        view.value = paced_value;
        view.probability = paced_probability;
    }
    cbd_dist_json(w, key, &view, max_points, idx);
    cbd_mem_free(idx);
    bool ok = !paced || (!r.stopped && cbd_charge(budget, r.owed));
    return ok ? CBD_OK : CBD_ERR_BUDGET;
}

/* W17–W19: each unit as the request gave it, with its survival and, for a health unit, the
 * distribution of the health it keeps (0 when dead). */
static cbd_status units_json(cbd_jw *w, const char *key, const cbd_warapp_units *u,
                             const cbd_warapp_unit_result *r, uint32_t max_points,
                             cbd_budget *budget) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    cbd_status st = CBD_OK;
    for (size_t i = 0; i < u->n && st == CBD_OK; i++) {
        cbd_jw_object_open(w);
        cbdp_warapp_unit_members(w, u, i);
        cbd_jw_key_real(w, "survival_probability", r[i].survival_probability);
        if (u->units[i].has_health) {
            const cbd_windows *h = &r[i].health_left;
            st = cbd_charge(budget, cbd_work_times(CBD_WORK_DIST_VALUE, cbd_windows_slots(h)))
                     ? dist_json(w, "health_left", h, max_points, "health", budget, false)
                     : CBD_ERR_BUDGET;
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
    return st;
}

static void outcome_json(cbd_jw *w, const cbd_warapp_outcome *o) {
    cbd_jw_key(w, "outcome");
    cbd_jw_object_open(w);
    cbd_warapp_outcome_members(w, o);
    cbd_jw_object_close(w);
}

static cbd_status graph_json(cbd_jw *w, const cbd_analyze_request *q, cbd_budget *budget) {
    size_t n = (size_t)(q->graph_to - q->graph_from + 1);
    /* Each point's own steps and its line of the answer, whatever its kill windows cost (the
     * core charges those): at no luck they are all a point costs. */
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_GRAPH_POINT, n))) {
        return CBD_ERR_BUDGET;
    }
    cbd_warapp_graph_point *pts = cbd_mem_alloc(budget, n * sizeof *pts);
    if (!pts) {
        return cbd_budget_nomem(budget);
    }
    cbd_warapp_side attack = cbdp_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
    cbd_warapp_count one;
    size_t n_counts;
    const cbd_warapp_count *counts = cbdp_analyze_counts(q, &one, &n_counts);
    cbd_status st = cbd_warapp_graph_fog(&attack, &defense, counts, n_counts, q->graph_from,
                                         q->graph_to, &q->battle.settings, budget, pts);
    if (st == CBD_OK) {
        cbd_jw_key(w, "graph");
        cbd_jw_array_open(w);
        for (size_t i = 0; i < n; i++) {
            cbd_jw_object_open(w);
            cbd_jw_key_uint(w, "attackers", pts[i].attackers);
            cbd_jw_key_real(w, "capture_probability", pts[i].capture_probability);
            cbd_jw_key_real(w, "expected_attackers_lost", pts[i].expected_attackers_lost);
            cbd_jw_key_real(w, "expected_defenders_lost", pts[i].expected_defenders_lost);
            cbd_jw_object_close(w);
        }
        cbd_jw_array_close(w);
    }
    cbd_mem_free(pts);
    return st;
}

static cbd_status needed_json(cbd_jw *w, const cbd_config *cfg, const cbd_analyze_request *q,
                              cbd_budget *budget) {
    uint64_t got[sizeof q->targets / sizeof q->targets[0]];
    cbd_warapp_side attack = cbdp_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
    cbd_warapp_count one;
    size_t n;
    const cbd_warapp_count *counts = cbdp_analyze_counts(q, &one, &n);
    cbd_status st =
        cbd_warapp_armies_needed_fog(&attack, &defense, counts, n, &q->battle.settings, q->targets,
                                     q->n_targets, cfg->warapp.army_cap, budget, got);
    if (st != CBD_OK) {
        return st;
    }
    cbd_jw_key(w, "armies_needed");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < q->n_targets; i++) {
        cbd_jw_object_open(w);
        cbd_jw_key_real(w, "probability", q->targets[i]);
        cbd_jw_key(w, "attackers");
        if (got[i] != CBD_WARAPP_UNREACHABLE) {
            cbd_jw_uint(w, got[i]);
        } else {
            cbd_jw_null(w); /* not reachable within the army cap */
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
    return CBD_OK;
}

/* The answer; on failure *blame names the member whose part of the work failed. */
static cbd_status analysis_json(cbd_jw *w, const cbd_config *cfg, const cbd_analyze_request *q,
                                const cbd_warapp_analysis *a, cbd_budget *budget,
                                const char **blame) {
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "attackers", a->attackers);
    if (q->battle.fog.n > 0) {
        cbd_fog_write(w, "defenders", &q->battle.fog); /* W23: the distribution it used */
    } else {
        cbd_jw_key_uint(w, "defenders", a->defenders);
    }
    cbdp_warapp_settings_write(w, "settings", &q->battle.settings);
    cbd_jw_key_bool(w, "deterministic", a->deterministic);
    cbd_jw_key_real(w, "capture_probability", a->capture_probability);
    cbd_jw_key_real(w, "mutual_destruction_probability", a->mutual_destruction_probability);
    if (a->deterministic) {
        outcome_json(w, &a->outcome);
    }
    cbd_jw_blame(w, "/max_distribution_points");
    bool paced = false;
    cbd_status st = dists_charge(a, q->max_points, budget, blame, &paced);
    if (st == CBD_OK) {
        st = dist_json(w, "attackers_left", &a->attackers_left, q->max_points, "armies", budget,
                       paced);
    }
    if (st == CBD_OK) {
        st = dist_json(w, "defenders_left", &a->defenders_left, q->max_points, "armies", budget,
                       paced);
    }
    if (st == CBD_OK && q->has_graph) {
        *blame = "/graph";
        cbd_jw_blame(w, "/graph");
        st = graph_json(w, q, budget);
    }
    if (st == CBD_OK && q->n_targets > 0) {
        *blame = "/targets";
        cbd_jw_blame(w, "/targets");
        st = needed_json(w, cfg, q, budget);
    }
    if (st == CBD_OK && q->battle.attacking.given) {
        st = units_json(w, "attacking_units", &q->battle.attacking, a->attacking_units,
                        q->max_points, budget);
    }
    if (st == CBD_OK && q->battle.defending.given) {
        st = units_json(w, "defending_units", &q->battle.defending, a->defending_units,
                        q->max_points, budget);
    }
    cbd_jw_object_close(w);
    return st;
}

bool cbd_api_analyze_attack(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                            cbd_jw *out, cbd_problem *problem) {
    cbd_analyze_request *q = cbdp_analyze_request_new();
    if (!q) {
        return cbd_api_oom_problem(problem);
    }
    bool ok = false;
    if (cbdp_analyze_read(cfg, request, q, problem) != CBD_READ_OK) {
        goto done;
    }
    if (q->battle.transfer) {
        cbdp_warapp_transfer_write(out, &q->battle);
    } else {
        /* The battle's own work grows with the side its estimate named (warapp_analyze_read.c). */
        const char *blame = q->blame;
        cbd_warapp_side attack = cbdp_warapp_battle_attack(&q->battle);
        cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
        cbd_warapp_count one;
        size_t n;
        const cbd_warapp_count *counts = cbdp_analyze_counts(q, &one, &n);
        cbd_warapp_analysis a;
        /* The distribution as read (W23): parsing, checking and sorting its counts. */
        cbd_status st = cbd_charge(budget, cbd_work_times(CBD_WORK_FOG_POINT, q->battle.fog.n))
                            ? cbd_warapp_analyze_fog(&attack, &defense, counts, n,
                                                     &q->battle.settings, budget, &a)
                            : CBD_ERR_BUDGET;
        if (st == CBD_OK) {
            st = analysis_json(out, cfg, q, &a, budget, &blame);
            cbd_warapp_analysis_free(&a);
        }
        if (st != CBD_OK) {
            (void)cbd_api_core_problem(cfg, budget, st, blame, problem);
            goto done;
        }
    }
    ok = true;
done:
    cbdp_warapp_battle_free(&q->battle);
    free(q);
    return ok;
}
