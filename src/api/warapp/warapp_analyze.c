/*
 * POST /analyze-attack: War.app's Analyze Attack and Analyze Graphs, exactly.
 * The request is read and checked here; the numbers come from the core (warapp_odds.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "api.h"
#include "dist_json.h"
#include "combatd/warapp_odds.h"
#include "warapp_request.h"
#include "warapp_settings.h"

/* The most targets one request may carry, whatever max_targets says. */
#define TARGETS_HELD 100

static const char *const request_keys[] = {CBD_WARAPP_BATTLE_KEYS,
                                           CBD_WARAPP_UNIT_KEYS,
                                           "graph",
                                           "targets",
                                           "max_distribution_points",
                                           NULL};
static const char *const graph_keys[] = {"from", "to", NULL};

typedef struct {
    cbd_warapp_battle battle;
    bool has_graph;
    uint64_t graph_from, graph_to;
    size_t n_targets;
    double targets[TARGETS_HELD]; /* at most min(max_targets, TARGETS_HELD) */
    uint32_t max_points;
    double terms;        /* the binomial terms answering it costs (estimated) */
    double answer_bytes; /* the size of its answer (estimated, from above) */
} analyze_request;

/* Upper bounds on the rendered size of one listed item, and of everything else. */
#define BYTES_PER_DIST_ITEM  64.0  /* {"armies":983303552,"probability":1.2345678901234567e-05} */
#define BYTES_PER_GRAPH_ITEM 160.0 /* four members, two of them 17-digit reals */
#define BYTES_PER_TARGET     64.0
#define BYTES_FIXED          1024.0

/*
 * The binomial terms one graph point costs at most: the attackers' kill window spans about
 * ±10 standard deviations of Binomial(n, p) (terms below 1e-18 of the peak are skipped), and
 * with no luck the roll does not matter at all. About 10 ns a term on one core.
 */
static double graph_point_terms(uint64_t attackers, const cbd_warapp_settings *s) {
    if (s->luck_modifier == 0) {
        return 2.0;
    }
    double p = cbd_micro_to_double(s->offense_kill_rate);
    return 20.0 * sqrt((double)attackers * p * (1.0 - p)) + 2.0;
}

/* The graph's range, its size and its cost (false with field errors recorded). */
static bool read_graph(const cbd_reader *r, const cbd_warapp_config *cfg, analyze_request *q) {
    cbd_reader g;
    cbd_field f = cbd_read_object(r, "graph", graph_keys, &g);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    /* The graph varies the attacking armies beside the units, which may attack alone (W20). */
    uint64_t least = q->battle.attacking.n > 0 ? 0 : 1;
    cbd_field from = cbd_read_u64(&g, "from", least, cfg->army_cap, &q->graph_from);
    cbd_field to = cbd_read_u64(&g, "to", least, cfg->army_cap, &q->graph_to);
    if (from == CBD_FIELD_ABSENT) {
        cbd_reader_error(&g, "from", "is required");
    }
    if (to == CBD_FIELD_ABSENT) {
        cbd_reader_error(&g, "to", "is required");
    }
    if (from != CBD_FIELD_OK || to != CBD_FIELD_OK) {
        return false;
    }
    if (q->graph_from > q->graph_to) {
        cbd_reader_error(&g, "from", "must not exceed graph.to (%" PRIu64 "), not %" PRIu64,
                         q->graph_to, q->graph_from);
    } else if (q->graph_to - q->graph_from >= cfg->max_graph_points) {
        cbd_reader_error(&g, NULL, "spans %" PRIu64 " points; at most %" PRIu32 " are allowed",
                         q->graph_to - q->graph_from + 1, cfg->max_graph_points);
    } else if ((double)(q->graph_to - q->graph_from + 1) *
                   graph_point_terms(q->graph_to, &q->battle.settings) >
               (double)cfg->max_graph_terms) {
        /* A graph of thousands of points near 10^9 armies with luck would take seconds of
         * CPU; the budget keeps any one request near a tenth of a second. */
        cbd_reader_error(&g, NULL,
                         "needs about %.3g binomial terms at this luck and size; at most %" PRIu64
                         " are allowed per request: ask for fewer points",
                         (double)(q->graph_to - q->graph_from + 1) *
                             graph_point_terms(q->graph_to, &q->battle.settings),
                         cfg->max_graph_terms);
    } else {
        q->has_graph = true;
    }
    return q->has_graph;
}

/*
 * The binomial terms armies_needed costs. Each target is found by galloping up from the first
 * army count that can capture and then bisecting, about 2·log2(w) + 4 evaluations for a kill
 * window of w terms; each evaluation is one attackers' kill distribution at a count near the
 * answer, d / p attackers (the mean kills are a·p at any luck). Measured: 590,000,000
 * defenders at luck 0.5 cost 0.12 s a target, estimated 12.4 million terms.
 */
static double needed_terms(const analyze_request *q, uint64_t cap) {
    const cbd_warapp_settings *s = &q->battle.settings;
    double p = cbd_micro_to_double(s->offense_kill_rate);
    double d = (double)q->battle.defenders;
    double a = p > 0 ? fmin((double)cap, d / p + 1.0) : (double)cap;
    double per_eval = graph_point_terms((uint64_t)a, s);
    double evals = 2.0 * log2(per_eval + 1.0) + 4.0;
    return (double)q->n_targets * evals * per_eval;
}

/* The listed values of one side's survivor distribution: at most its kill window. */
static double dist_items(uint64_t armies, const analyze_request *q) {
    double window = graph_point_terms(armies, &q->battle.settings);
    return fmin(window, (double)q->max_points);
}

/*
 * The request's cost: armies_needed within its budget, naming /targets, and the
 * answer within server.max_answer_bytes, naming the listing that makes it large. Graphs have
 * their own budget (read_graph). Sets q->terms and q->answer_bytes.
 */
static bool check_cost(const cbd_reader *r, const cbd_config *cfg, analyze_request *q) {
    const cbd_warapp_config *w = &cfg->warapp;
    /* Each point of power rolls (W18), so the kill windows follow the powers, not the armies. */
    cbd_warapp_side attack = cbd_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbd_warapp_battle_defense(&q->battle);
    if (q->battle.fog.n > 0) {
        defense.armies = cbd_fog_max(&q->battle.fog); /* the costliest count, n times (W23) */
    }
    double counts = q->battle.fog.n > 0 ? (double)q->battle.fog.n : 1.0;
    uint64_t a = cbd_warapp_side_power(&attack, true), d = cbd_warapp_side_power(&defense, false);
    double graph_terms = q->has_graph ? (double)(q->graph_to - q->graph_from + 1) *
                                            graph_point_terms(q->graph_to, &q->battle.settings)
                                      : 0.0;
    double needed = needed_terms(q, w->army_cap);
    q->terms = counts * (graph_point_terms(a, &q->battle.settings) +
                         graph_point_terms(d, &q->battle.settings) + graph_terms + needed);
    double dist_bytes = (dist_items(a, q) + dist_items(d, q)) * BYTES_PER_DIST_ITEM +
                        (counts > 1.0 ? 2.0 * counts * BYTES_PER_DIST_ITEM : 0.0);
    double graph_bytes =
        q->has_graph ? (double)(q->graph_to - q->graph_from + 1) * BYTES_PER_GRAPH_ITEM : 0.0;
    q->answer_bytes =
        BYTES_FIXED + dist_bytes + graph_bytes + (double)q->n_targets * BYTES_PER_TARGET;
    bool ok = true;
    if (needed > (double)w->max_needed_terms) {
        cbd_reader_error(r, "targets",
                         "needs about %.3g binomial terms for %zu targets at %" PRIu64
                         " defenders and this luck; at most %" PRIu64
                         " are allowed per request: send fewer targets",
                         needed, q->n_targets, d, w->max_needed_terms);
        ok = false;
    }
    if (q->answer_bytes > (double)cfg->limits.max_answer_bytes) {
        ok = cbd_api_answer_too_large(
            cfg, q->answer_bytes, graph_bytes >= dist_bytes ? "/graph" : "/max_distribution_points",
            r->problem);
    }
    return ok;
}

/* The armies_needed targets (false with field errors recorded). */
static bool read_targets(const cbd_reader *r, const cbd_warapp_config *cfg, analyze_request *q) {
    const json_t *arr;
    size_t cap = sizeof q->targets / sizeof q->targets[0];
    size_t most = cfg->max_targets < cap ? cfg->max_targets : cap;
    cbd_field f = cbd_read_array(r, "targets", most, &arr);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    bool ok = true;
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        double t = json_is_number(v) ? json_number_value(v) : 0.0;
        if (!json_is_number(v) || !(t > 0.0 && t <= 1.0)) {
            cbd_reader_item_error(r, "targets", i,
                                  "must be a probability greater than 0 and at most 1");
            ok = false;
            continue;
        }
        q->targets[q->n_targets++] = t;
    }
    return ok;
}

/* Every member is read, so that one 422 lists every bad field. */
static bool read_request(const cbd_config *cfg, const json_t *request, analyze_request *q,
                         cbd_problem *problem) {
    cbd_reader r;
    const cbd_warapp_config *w = &cfg->warapp;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return false;
    }
    bool ok = cbd_warapp_request_read(&r, w, CBD_BATTLE_UNITS | CBD_BATTLE_FOG, &q->battle);
    ok &= read_graph(&r, w, q);
    ok &= read_targets(&r, w, q);
    uint64_t points = w->max_distribution_points;
    ok &= cbd_read_u64(&r, "max_distribution_points", 1, w->max_distribution_points, &points) !=
          CBD_FIELD_BAD;
    q->max_points = (uint32_t)points;
    /* The cost only of a request that is otherwise valid, so that its numbers mean something. */
    ok = ok && problem->status == 0 && (q->battle.transfer || check_cost(&r, cfg, q));
    /* Unknown members were recorded by cbd_reader_open without failing it. */
    return ok && problem->status == 0;
}

/* The defenders' counts: the fog's distribution (W23), or the one count as given. */
static const cbd_warapp_count *defender_counts(const analyze_request *q, cbd_warapp_count *one,
                                               size_t *n) {
    if (q->battle.fog.n > 0) {
        *n = q->battle.fog.n;
        return q->battle.fog.items;
    }
    one->armies = q->battle.defenders;
    one->weight = 1.0;
    *n = 1;
    return one;
}

/*
 * The two survivor distributions charged before either is written: their summaries read every
 * value of their windows a few times (the windows grow with the battle: *blame's side), and up
 * to max_points values of each are listed (/max_distribution_points).
 */
static cbd_status dists_charge(const cbd_warapp_analysis *a, uint32_t max_points,
                               cbd_budget *budget, const char **blame) {
    size_t att = cbd_windows_slots(&a->attackers_left), def = cbd_windows_slots(&a->defenders_left);
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_DIST_VALUE, att + def))) {
        return CBD_ERR_BUDGET;
    }
    size_t listed = (att < max_points ? att : max_points) + (def < max_points ? def : max_points);
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_DIST_POINT, listed))) {
        *blame = "/max_distribution_points";
        return CBD_ERR_BUDGET;
    }
    return CBD_OK; /* *blame still names the side: the writing's scratch grows with it */
}

/* The distribution as /analyze-turn writes its armies too (dist_json.h), its entries naming
 * their value `value_key`; its scratch, as long as the window, is held in the budget. */
static cbd_status dist_json(cbd_jw *w, const char *key, const cbd_windows *d, uint32_t max_points,
                            const char *value_key, cbd_budget *budget) {
    size_t *idx = cbd_mem_alloc(budget, cbd_windows_slots(d) * sizeof *idx);
    if (!idx) {
        return cbd_budget_nomem(budget);
    }
    cbd_windows_cursor cursor;
    cbd_dist_view view = cbd_dist_view_windows(d, &cursor);
    view.value_key = value_key;
    cbd_dist_json(w, key, &view, max_points, idx);
    cbd_mem_free(idx);
    return CBD_OK;
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
        cbd_warapp_unit_members(w, u, i);
        cbd_jw_key_real(w, "survival_probability", r[i].survival_probability);
        if (u->units[i].has_health) {
            const cbd_windows *h = &r[i].health_left;
            st = cbd_charge(budget, cbd_work_times(CBD_WORK_DIST_VALUE, cbd_windows_slots(h)))
                     ? dist_json(w, "health_left", h, max_points, "health", budget)
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

static cbd_status graph_json(cbd_jw *w, const analyze_request *q, cbd_budget *budget) {
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
    cbd_warapp_side attack = cbd_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbd_warapp_battle_defense(&q->battle);
    cbd_warapp_count one;
    size_t n_counts;
    const cbd_warapp_count *counts = defender_counts(q, &one, &n_counts);
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

static cbd_status needed_json(cbd_jw *w, const cbd_config *cfg, const analyze_request *q,
                              cbd_budget *budget) {
    uint64_t got[sizeof q->targets / sizeof q->targets[0]];
    cbd_warapp_side attack = cbd_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbd_warapp_battle_defense(&q->battle);
    cbd_warapp_count one;
    size_t n;
    const cbd_warapp_count *counts = defender_counts(q, &one, &n);
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
static cbd_status analysis_json(cbd_jw *w, const cbd_config *cfg, const analyze_request *q,
                                const cbd_warapp_analysis *a, cbd_budget *budget,
                                const char **blame) {
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "attackers", a->attackers);
    if (q->battle.fog.n > 0) {
        cbd_fog_write(w, "defenders", &q->battle.fog); /* W23: the distribution it used */
    } else {
        cbd_jw_key_uint(w, "defenders", a->defenders);
    }
    cbd_warapp_settings_write(w, "settings", &q->battle.settings);
    cbd_jw_key_bool(w, "deterministic", a->deterministic);
    cbd_jw_key_real(w, "capture_probability", a->capture_probability);
    cbd_jw_key_real(w, "mutual_destruction_probability", a->mutual_destruction_probability);
    if (a->deterministic) {
        outcome_json(w, &a->outcome);
    }
    cbd_jw_blame(w, "/max_distribution_points");
    cbd_status st = dists_charge(a, q->max_points, budget, blame);
    if (st == CBD_OK) {
        st = dist_json(w, "attackers_left", &a->attackers_left, q->max_points, "armies", budget);
    }
    if (st == CBD_OK) {
        st = dist_json(w, "defenders_left", &a->defenders_left, q->max_points, "armies", budget);
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
    analyze_request *q = calloc(1, sizeof *q);
    if (!q) {
        return cbd_api_oom_problem(problem);
    }
    bool ok = false;
    if (!read_request(cfg, request, q, problem)) {
        goto done;
    }
    if (q->battle.transfer) {
        cbd_warapp_transfer_write(out, &q->battle);
    } else {
        /* The battle's own work grows with the larger side. */
        const char *blame =
            q->battle.attackers >= q->battle.defenders ? "/attackers" : "/defenders";
        cbd_warapp_side attack = cbd_warapp_battle_attack(&q->battle);
        cbd_warapp_side defense = cbd_warapp_battle_defense(&q->battle);
        cbd_warapp_count one;
        size_t n;
        const cbd_warapp_count *counts = defender_counts(q, &one, &n);
        cbd_warapp_analysis a;
        cbd_status st =
            cbd_warapp_analyze_fog(&attack, &defense, counts, n, &q->battle.settings, budget, &a);
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
    cbd_warapp_battle_free(&q->battle);
    free(q);
    return ok;
}

/*
 * A battle of at most SMALL_ARMIES a side with no graph and no targets, the request most
 * clients send: its cost is bounded without reading it (below), so the estimate does not read
 * and validate the whole request a second time on the hot path.
 */
#define SMALL_ARMIES 1000

static bool small_battle(const json_t *request, uint64_t *armies) {
    static const char *const counts[] = {"attackers", "defenders", "source_armies"};
    if (json_object_get(request, "graph") || json_object_get(request, "targets") ||
        json_object_get(request, "attacking_units") ||
        json_object_get(request, "defending_units")) {
        return false; /* units may add up to 10^9 of power each: read the request (W18) */
    }
    *armies = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        const json_t *v = json_object_get(request, counts[i]);
        if (!v) {
            continue;
        }
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > SMALL_ARMIES) {
            return false;
        }
        *armies += (uint64_t)json_integer_value(v);
    }
    return true;
}

uint64_t cbd_api_analyze_attack_cost(const cbd_config *cfg, const json_t *request) {
    /* An upper bound for a small battle: a side's kill window has at most n + 1 terms, and each
     * survivor distribution at most n + 1 items (576 µs at 1,000 a side: on the HTTP thread). */
    uint64_t armies = 0;
    if (small_battle(request, &armies)) {
        return CBD_COST_BASE_NS + CBD_COST_NS_PER_TERM * 2u * (armies + 2u) +
               CBD_COST_NS_PER_BYTE *
                   (uint64_t)(BYTES_FIXED + BYTES_PER_DIST_ITEM * (double)(armies + 2u));
    }
    /* Otherwise the request is read as the handler reads it, into a problem that is thrown
     * away: a request that is not valid, or past a budget, is answered by a cheap 422. */
    analyze_request *q = calloc(1, sizeof *q);
    cbd_problem *scratch = malloc(sizeof *scratch);
    uint64_t cost = CBD_COST_BASE_NS;
    if (q && scratch) {
        cbd_problem_init(scratch);
        if (read_request(cfg, request, q, scratch) && !q->battle.transfer) {
            cost += (uint64_t)(q->terms * (double)CBD_COST_NS_PER_TERM +
                               q->answer_bytes * (double)CBD_COST_NS_PER_BYTE);
        }
    }
    free(scratch);
    if (q) {
        cbd_warapp_battle_free(&q->battle);
    }
    free(q);
    return cost;
}
