/*
 * POST /analyze-attack (issue 3): War.app's Analyze Attack and Analyze Graphs, exactly.
 * The request is read and checked here; the numbers come from the core (warapp_odds.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "api.h"
#include "combatd/warapp_odds.h"
#include "warapp_request.h"
#include "warapp_settings.h"

/* Values below this probability are not listed in a distribution (the contract's 1e-15). */
#define LISTED_MIN_PROBABILITY 1e-15

/* The most targets one request may carry, whatever max_targets says. */
#define TARGETS_HELD 100

static const char *const request_keys[] = {CBD_WARAPP_BATTLE_KEYS, "graph", "targets",
                                           "max_distribution_points", NULL};
static const char *const graph_keys[] = {"from", "to", NULL};

typedef struct {
    cbd_warapp_battle battle;
    bool has_graph;
    uint64_t graph_from, graph_to;
    size_t n_targets;
    double targets[TARGETS_HELD]; /* at most min(max_targets, TARGETS_HELD) */
    uint32_t max_points;
} analyze_request;

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

static void read_graph(const cbd_reader *r, const cbd_warapp_config *cfg, analyze_request *q) {
    cbd_reader g;
    if (cbd_read_object(r, "graph", graph_keys, &g) != CBD_FIELD_OK) {
        return;
    }
    cbd_field from = cbd_read_u64(&g, "from", 1, cfg->army_cap, &q->graph_from);
    cbd_field to = cbd_read_u64(&g, "to", 1, cfg->army_cap, &q->graph_to);
    if (from == CBD_FIELD_ABSENT) {
        cbd_problem_field(r->problem, "/graph/from", "is required");
    }
    if (to == CBD_FIELD_ABSENT) {
        cbd_problem_field(r->problem, "/graph/to", "is required");
    }
    if (from != CBD_FIELD_OK || to != CBD_FIELD_OK) {
        return;
    }
    if (q->graph_from > q->graph_to) {
        cbd_problem_field(r->problem, "/graph/from",
                          "must not exceed graph.to (%" PRIu64 "), not %" PRIu64, q->graph_to,
                          q->graph_from);
    } else if (q->graph_to - q->graph_from >= cfg->max_graph_points) {
        cbd_problem_field(r->problem, "/graph",
                          "spans %" PRIu64 " points; at most %" PRIu32 " are allowed",
                          q->graph_to - q->graph_from + 1, cfg->max_graph_points);
    } else if ((double)(q->graph_to - q->graph_from + 1) *
                   graph_point_terms(q->graph_to, &q->battle.settings) >
               (double)cfg->max_graph_terms) {
        /* A graph of thousands of points near 10^9 armies with luck would take seconds of
         * CPU; the budget keeps any one request near a tenth of a second. */
        cbd_problem_field(r->problem, "/graph",
                          "needs about %.3g binomial terms at this luck and size; at most %" PRIu64
                          " are allowed per request: ask for fewer points",
                          (double)(q->graph_to - q->graph_from + 1) *
                              graph_point_terms(q->graph_to, &q->battle.settings),
                          cfg->max_graph_terms);
    } else {
        q->has_graph = true;
    }
}

static void read_targets(const cbd_reader *r, const cbd_warapp_config *cfg, analyze_request *q) {
    const json_t *arr;
    size_t cap = sizeof q->targets / sizeof q->targets[0];
    size_t most = cfg->max_targets < cap ? cfg->max_targets : cap;
    if (cbd_read_array(r, "targets", most, &arr) != CBD_FIELD_OK) {
        return;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        double t = json_is_number(v) ? json_number_value(v) : 0.0;
        if (!json_is_number(v) || !(t > 0.0 && t <= 1.0)) {
            char ptr[64];
            snprintf(ptr, sizeof ptr, "/targets/%zu", i);
            cbd_problem_field(r->problem, ptr,
                              "must be a probability greater than 0 and at most 1");
            continue;
        }
        q->targets[q->n_targets++] = t;
    }
}

static int read_request(const cbd_config *cfg, const json_t *request, analyze_request *q,
                        cbd_problem *problem) {
    cbd_reader r;
    const cbd_warapp_config *w = &cfg->warapp;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return -1;
    }
    (void)cbd_warapp_request_read(&r, w, &q->battle);
    read_graph(&r, w, q);
    read_targets(&r, w, q);
    uint64_t points = w->max_distribution_points;
    (void)cbd_read_u64(&r, "max_distribution_points", 1, w->max_distribution_points, &points);
    q->max_points = (uint32_t)points;
    return problem->status != 0 ? -1 : 0;
}

/* Sets key to a new value, failing on NULL (out of memory). */
static bool put(json_t *obj, const char *key, json_t *value) {
    return value && json_object_set_new(obj, key, value) == 0;
}

/*
 * The listed part of a distribution: every value of probability >= 1e-15, and when there are
 * more than max_points of them, the run of max_points consecutive listed values that holds the
 * most mass. The mass not listed is reported as omitted_probability.
 */
static json_t *dist_json(const cbd_dist *d, uint32_t max_points) {
    static const struct {
        const char *name;
        double q;
    } pct[] = {{"p1", 0.01},  {"p5", 0.05},  {"p10", 0.10}, {"p25", 0.25}, {"p50", 0.50},
               {"p75", 0.75}, {"p90", 0.90}, {"p95", 0.95}, {"p99", 0.99}};
    json_t *out = json_object();
    json_t *percentiles = json_object();
    json_t *list = json_array();
    size_t *idx = malloc(d->len * sizeof *idx);
    bool ok = out && percentiles && list && idx;
    for (size_t i = 0; ok && i < sizeof pct / sizeof pct[0]; i++) {
        ok =
            put(percentiles, pct[i].name, json_integer((json_int_t)cbd_dist_quantile(d, pct[i].q)));
    }
    size_t n = 0;
    for (size_t i = 0; ok && i < d->len; i++) {
        if (d->p[i] >= LISTED_MIN_PROBABILITY) {
            idx[n++] = i;
        }
    }
    size_t first = 0, count = n;
    if (ok && n > max_points) {
        double run = 0.0, best = -1.0;
        for (size_t i = 0; i < n; i++) {
            run += d->p[idx[i]];
            if (i >= max_points) {
                run -= d->p[idx[i - max_points]];
            }
            if (i + 1 >= max_points && run > best) {
                best = run;
                first = i + 1 - max_points;
            }
        }
        count = max_points;
    }
    /* The mass not listed, summed directly (1 − listed would report rounding noise). */
    double omitted = 0.0;
    for (size_t i = 0; i < d->len; i++) {
        omitted += d->p[i] < LISTED_MIN_PROBABILITY ? d->p[i] : 0.0;
    }
    for (size_t j = 0; j < n; j++) {
        omitted += j < first || j >= first + count ? d->p[idx[j]] : 0.0;
    }
    for (size_t j = first; ok && j < first + count; j++) {
        size_t i = idx[j];
        json_t *pt = json_object();
        ok = pt && put(pt, "armies", json_integer((json_int_t)(d->lo + i))) &&
             put(pt, "probability", json_real(d->p[i])) && json_array_append_new(list, pt) == 0;
        if (!ok) {
            json_decref(pt);
        }
    }
    free(idx);
    ok = ok && put(out, "mean", json_real(cbd_dist_mean(d))) &&
         json_object_set_new(out, "percentiles", percentiles) == 0;
    percentiles = NULL;
    ok = ok && json_object_set_new(out, "distribution", list) == 0;
    list = NULL;
    ok = ok && put(out, "omitted_probability", json_real(omitted));
    json_decref(percentiles);
    json_decref(list);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static json_t *outcome_json(const cbd_warapp_outcome *o) {
    return json_pack("{s:b, s:I, s:I, s:I, s:I}", "captured", o->captured, "attackers_lost",
                     (json_int_t)o->attackers_lost, "defenders_lost", (json_int_t)o->defenders_lost,
                     "attackers_left", (json_int_t)o->attackers_left, "defenders_left",
                     (json_int_t)o->defenders_left);
}

static json_t *graph_json(const analyze_request *q, cbd_status *st) {
    size_t n = (size_t)(q->graph_to - q->graph_from + 1);
    cbd_warapp_graph_point *pts = malloc(n * sizeof *pts);
    if (!pts) {
        *st = CBD_ERR_NOMEM;
        return NULL;
    }
    *st =
        cbd_warapp_graph(q->battle.defenders, q->graph_from, q->graph_to, &q->battle.settings, pts);
    json_t *arr = *st == CBD_OK ? json_array() : NULL;
    for (size_t i = 0; arr && i < n; i++) {
        json_t *pt = json_pack("{s:I, s:f, s:f, s:f}", "attackers", (json_int_t)pts[i].attackers,
                               "capture_probability", pts[i].capture_probability,
                               "expected_attackers_lost", pts[i].expected_attackers_lost,
                               "expected_defenders_lost", pts[i].expected_defenders_lost);
        if (!pt || json_array_append_new(arr, pt) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    free(pts);
    return arr;
}

static json_t *needed_json(const cbd_config *cfg, const analyze_request *q, cbd_status *st) {
    uint64_t got[sizeof q->targets / sizeof q->targets[0]];
    *st = cbd_warapp_armies_needed(q->battle.defenders, &q->battle.settings, q->targets,
                                   q->n_targets, cfg->warapp.army_cap, got);
    json_t *arr = *st == CBD_OK ? json_array() : NULL;
    for (size_t i = 0; arr && i < q->n_targets; i++) {
        json_t *pt = json_pack("{s:f, s:o}", "probability", q->targets[i], "attackers",
                               got[i] ? json_integer((json_int_t)got[i]) : json_null());
        if (!pt || json_array_append_new(arr, pt) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return arr;
}

static json_t *transfer_json(const cbd_warapp_battle *b) {
    /* W8: no combat; every moving army arrives. */
    return json_pack("{s:b, s:{s:I}}", "transfer", 1, "outcome", "armies_arriving",
                     (json_int_t)b->attackers);
}

static json_t *analysis_json(const cbd_config *cfg, const analyze_request *q,
                             const cbd_warapp_analysis *a, cbd_status *st) {
    json_t *out = json_object();
    bool ok =
        out && put(out, "attackers", json_integer((json_int_t)a->attackers)) &&
        put(out, "defenders", json_integer((json_int_t)a->defenders)) &&
        put(out, "settings", cbd_warapp_settings_to_json(&q->battle.settings)) &&
        put(out, "deterministic", json_boolean(a->deterministic)) &&
        put(out, "capture_probability", json_real(a->capture_probability)) &&
        put(out, "mutual_destruction_probability", json_real(a->mutual_destruction_probability));
    if (ok && a->deterministic) {
        ok = put(out, "outcome", outcome_json(&a->outcome));
    }
    ok = ok && put(out, "attackers_left", dist_json(&a->attackers_left, q->max_points)) &&
         put(out, "defenders_left", dist_json(&a->defenders_left, q->max_points));
    if (ok && q->has_graph) {
        ok = put(out, "graph", graph_json(q, st));
    }
    if (ok && q->n_targets > 0) {
        ok = put(out, "armies_needed", needed_json(cfg, q, st));
    }
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

int cbd_api_analyze_attack(const cbd_config *cfg, const json_t *request, json_t **response,
                           cbd_problem *problem) {
    analyze_request *q = calloc(1, sizeof *q);
    if (!q) {
        cbd_problem_set(problem, 500, "The service ran out of memory; try again.");
        return -1;
    }
    int rc = -1;
    if (read_request(cfg, request, q, problem) != 0) {
        goto done;
    }
    if (q->battle.transfer) {
        *response = transfer_json(&q->battle);
    } else {
        cbd_warapp_analysis a;
        cbd_status st =
            cbd_warapp_analyze(q->battle.attackers, q->battle.defenders, &q->battle.settings, &a);
        if (st == CBD_OK) {
            *response = analysis_json(cfg, q, &a, &st);
            cbd_warapp_analysis_free(&a);
        }
        if (st != CBD_OK) {
            json_decref(*response);
            *response = NULL;
            cbd_problem_set(problem, 500, "The analysis failed: %s.", cbd_status_str(st));
            goto done;
        }
    }
    if (!*response) {
        cbd_problem_set(problem, 500, "The service ran out of memory; try again.");
        goto done;
    }
    rc = 0;
done:
    free(q);
    return rc;
}
