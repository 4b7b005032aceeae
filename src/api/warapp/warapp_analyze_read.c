/* POST /analyze-attack's request and its cost; see warapp_analyze_read.h. */
#include "warapp_analyze_read.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoint_support.h"
#include "warapp_settings.h"

static const char *const request_keys[] = {CBD_WARAPP_BATTLE_KEYS,
                                           CBD_WARAPP_UNIT_KEYS,
                                           "graph",
                                           "targets",
                                           "max_distribution_points",
                                           NULL};
static const char *const graph_keys[] = {"from", "to", NULL};

/* Upper bounds on the rendered size of one listed item, and of everything else. */
#define BYTES_PER_DIST_ITEM  64.0  /* {"armies":983303552,"probability":1.2345678901234567e-05} */
#define BYTES_PER_GRAPH_ITEM 160.0 /* four members, two of them 17-digit reals */
#define BYTES_PER_TARGET     64.0
#define BYTES_FIXED          1024.0

/*
 * The binomial terms one kill window costs at most (a graph point's, or one side's): the
 * window spans about ±10 standard deviations of Binomial(n, p) (terms below 1e-18 of the peak
 * are skipped), and with no luck the roll does not matter at all.
 */
static double window_terms(uint64_t power, cbd_micro rate, const cbd_warapp_settings *s) {
    if (s->luck_modifier == 0) {
        return 2.0;
    }
    double p = cbd_micro_to_double(rate);
    return 20.0 * sqrt((double)power * p * (1.0 - p)) + 2.0;
}

static double graph_point_terms(uint64_t attackers, const cbd_warapp_settings *s) {
    return window_terms(attackers, s->offense_kill_rate, s);
}

/* The counts of defenders: 1 without fog. */
static double n_counts(const cbd_analyze_request *q) {
    return q->battle.fog.n > 0 ? (double)q->battle.fog.n : 1.0;
}

/* The defending power at count k of the fog (W18: its units' defense beside the armies). */
static uint64_t count_power(const cbd_analyze_request *q, size_t k) {
    cbd_warapp_side d = cbdp_warapp_battle_defense(&q->battle);
    d.armies = q->battle.fog.items[k].armies;
    return cbd_warapp_side_power(&d, false);
}

/* A graph's terms: each point's attacking window, read once against every count (W23). */
static double graph_terms(const cbd_analyze_request *q) {
    double points = (double)(q->graph_to - q->graph_from + 1);
    return points * graph_point_terms(q->graph_to, &q->battle.settings) * n_counts(q);
}

/* The graph's range, its size and its cost (false with field errors recorded). */
static bool read_graph(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_analyze_request *q) {
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
    } else if (graph_terms(q) > (double)cfg->max_graph_terms) {
        /* A graph of thousands of points near 10^9 armies with luck would take seconds of
         * CPU, and every count of a fog reads each point's window again. */
        cbd_reader_error(&g, NULL,
                         "needs about %.3g binomial terms at this luck and size%s; at most %" PRIu64
                         " are allowed per request: ask for fewer points",
                         graph_terms(q),
                         q->battle.fog.n > 1 ? " against every count of the defenders" : "",
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
static double needed_terms_one(double d, uint64_t cap, const cbd_warapp_settings *s) {
    double p = cbd_micro_to_double(s->offense_kill_rate);
    double a = p > 0 ? fmin((double)cap, d / p + 1.0) : (double)cap;
    double per_eval = graph_point_terms((uint64_t)a, s);
    double evals = 2.0 * log2(per_eval + 1.0) + 4.0;
    return evals * per_eval;
}

/*
 * Against a fog (W23) the mixture reaches a target q near the count whose cumulative weight
 * (ascending) first reaches q: the search bisects there, reading each evaluation against every
 * count. A target no count within the army cap reaches only gallops up to the cap, its
 * evaluations' windows doubling: about four of the cap's window in all.
 */
static double needed_terms_fog(const cbd_analyze_request *q, double target, uint64_t cap) {
    const cbd_fog *f = &q->battle.fog;
    const cbd_warapp_settings *s = &q->battle.settings;
    double p = cbd_micro_to_double(s->offense_kill_rate), cum = 0.0;
    size_t k = 0;
    while (k + 1 < f->n && cum + f->items[k].weight < target - 1e-12) {
        cum += f->items[k++].weight;
    }
    double d = (double)count_power(q, k), n = (double)f->n;
    if (p == 0 || d / p + 1.0 > (double)cap) {
        return 4.0 * graph_point_terms(cap, s) + 64.0 * n;
    }
    double per_eval = graph_point_terms((uint64_t)(d / p + 1.0), s);
    double evals = 2.0 * log2(per_eval + 1.0) + 4.0;
    return evals * (per_eval + n);
}

static double needed_terms(const cbd_analyze_request *q, uint64_t cap) {
    if (q->battle.fog.n == 0) {
        cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
        double d = (double)cbd_warapp_side_power(&defense, false);
        return (double)q->n_targets * needed_terms_one(d, cap, &q->battle.settings);
    }
    double sum = 0.0;
    for (size_t i = 0; i < q->n_targets; i++) {
        sum += needed_terms_fog(q, q->targets[i], cap);
    }
    return sum;
}

/*
 * The analysis's own terms and the member they grow with, into q->blame: each count of a fog
 * (W23) costs its defending window (the attackers' survivors) and the attacking one again (its
 * defenders' survivors). The attackers are named when their window, read once per count, is
 * the larger part; else the defenders, and the one count whose window is half of theirs or
 * more (/defenders/3) when there is one.
 */
static double battle_terms(cbd_analyze_request *q, double *att_values, double *def_values) {
    const cbd_warapp_settings *s = &q->battle.settings;
    cbd_warapp_side attack = cbdp_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
    double a = window_terms(cbd_warapp_side_power(&attack, true), s->offense_kill_rate, s);
    const cbd_fog *f = &q->battle.fog;
    if (f->n == 0) {
        double d = window_terms(cbd_warapp_side_power(&defense, false), s->defense_kill_rate, s);
        snprintf(q->blame, sizeof q->blame, "%s",
                 q->battle.attackers >= q->battle.defenders ? "/attackers" : "/defenders");
        *att_values = d;
        *def_values = a;
        return a + d;
    }
    double sum = 0.0, most = 0.0;
    size_t costliest = 0;
    for (size_t k = 0; k < f->n; k++) {
        double d = window_terms(count_power(q, k), s->defense_kill_rate, s);
        sum += d;
        if (d > most) {
            most = d;
            costliest = k;
        }
    }
    double att_part = a * (double)(f->n + 1);
    if (att_part > sum) {
        snprintf(q->blame, sizeof q->blame, "/attackers");
    } else if (f->n > 1 && most >= sum / 2.0) {
        snprintf(q->blame, sizeof q->blame, "/defenders/%zu", f->at[costliest]);
    } else {
        snprintf(q->blame, sizeof q->blame, "/defenders");
    }
    *att_values = sum;
    *def_values = a * (double)f->n;
    return att_part + sum;
}

/*
 * The request's cost: armies_needed within its budget, naming /targets, and the answer within
 * server.max_answer_bytes, naming the listing that makes it large. Graphs have their own
 * budget (read_graph). Sets q->terms, q->answer_bytes and q->blame.
 */
static bool check_cost(const cbd_reader *r, const cbd_config *cfg, cbd_analyze_request *q) {
    const cbd_warapp_config *w = &cfg->warapp;
    double att_values, def_values;
    double battle = battle_terms(q, &att_values, &def_values);
    double graph = q->has_graph ? graph_terms(q) : 0.0;
    double needed = needed_terms(q, w->army_cap);
    q->terms = battle + graph + needed;
    /* Each distribution lists at most max_points values; a fog is echoed. */
    double points = (double)q->max_points;
    double dist_bytes =
        (fmin(att_values, points) + fmin(def_values, points)) * BYTES_PER_DIST_ITEM +
        (q->battle.fog.n > 1 ? 2.0 * n_counts(q) * BYTES_PER_DIST_ITEM : 0.0);
    double graph_bytes =
        q->has_graph ? (double)(q->graph_to - q->graph_from + 1) * BYTES_PER_GRAPH_ITEM : 0.0;
    q->answer_bytes =
        BYTES_FIXED + dist_bytes + graph_bytes + (double)q->n_targets * BYTES_PER_TARGET;
    bool ok = true;
    if (needed > (double)w->max_needed_terms) {
        cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
        char at[64];
        if (q->battle.fog.n > 0) {
            snprintf(at, sizeof at, "the defenders' %zu counts", q->battle.fog.n);
        } else {
            snprintf(at, sizeof at, "%" PRIu64 " defenders",
                     cbd_warapp_side_power(&defense, false));
        }
        cbd_reader_error(r, "targets",
                         "needs about %.3g binomial terms for %zu targets at %s and this luck; at "
                         "most %" PRIu64 " are allowed per request: send fewer targets",
                         needed, q->n_targets, at, w->max_needed_terms);
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
static bool read_targets(const cbd_reader *r, const cbd_warapp_config *cfg,
                         cbd_analyze_request *q) {
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

cbd_read_status cbdp_analyze_read(const cbd_config *cfg, const json_t *request,
                                  cbd_analyze_request *q, cbd_problem *problem) {
    cbd_reader r;
    const cbd_warapp_config *w = &cfg->warapp;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return cbd_api_read_status(false, problem);
    }
    bool ok = cbdp_warapp_request_read(&r, w, CBD_BATTLE_UNITS | CBD_BATTLE_FOG, &q->battle);
    ok &= read_graph(&r, w, q);
    ok &= read_targets(&r, w, q);
    uint64_t points = w->max_distribution_points;
    ok &= cbd_read_u64(&r, "max_distribution_points", 1, w->max_distribution_points, &points) !=
          CBD_FIELD_BAD;
    q->max_points = (uint32_t)points;
    /* The cost only of a request that is otherwise valid (unknown members, which
     * cbd_reader_open recorded without failing, included), so that its numbers mean something. */
    cbd_read_status st = cbd_api_read_status(ok, problem);
    if (st == CBD_READ_OK && !q->battle.transfer) {
        st = cbd_api_read_status(check_cost(&r, cfg, q), problem);
    }
    return st;
}

const cbd_warapp_count *cbdp_analyze_counts(const cbd_analyze_request *q, cbd_warapp_count *one,
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
 * A battle of at most SMALL_ARMIES a side with no graph and no targets, the request most
 * clients send: its cost is bounded without reading it (below), so the estimate does not read
 * and validate the whole request a second time on the hot path.
 */
#define SMALL_ARMIES 1000

static bool small_battle(const json_t *request, uint64_t *armies) {
    /* One walk over the members, not a hash of each name looked for: this runs on every
     * request, and a small battle has two or three members. */
    *armies = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)request, key, v) {
        if (strcmp(key, "graph") == 0 || strcmp(key, "targets") == 0 ||
            strcmp(key, "attacking_units") == 0 || strcmp(key, "defending_units") == 0) {
            return false; /* units may add up to 10^9 of power each: read the request (W18) */
        }
        if (strcmp(key, "attackers") != 0 && strcmp(key, "defenders") != 0 &&
            strcmp(key, "source_armies") != 0) {
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

cbd_analyze_request *cbdp_analyze_request_new(void) {
    /* Not calloc: the battle is set by its reader, the target array written up to its count
     * (cbdp_warapp_battle_clear). The members read before they are written: */
    cbd_analyze_request *q = malloc(sizeof *q);
    if (q) {
        cbdp_warapp_battle_clear(&q->battle);
        q->has_graph = false;
        q->graph_from = q->graph_to = 0;
        q->n_targets = 0;
        q->max_points = 0;
        q->terms = 0.0;
        q->answer_bytes = 0.0;
        q->blame[0] = '\0';
    }
    return q;
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
    cbd_analyze_request *q = cbdp_analyze_request_new();
    cbd_problem *scratch = malloc(sizeof *scratch);
    uint64_t cost = CBD_COST_BASE_NS;
    if (q && scratch) {
        cbd_problem_init(scratch);
        if (cbdp_analyze_read(cfg, request, q, scratch) == CBD_READ_OK && !q->battle.transfer) {
            cost += (uint64_t)(q->terms * (double)CBD_COST_NS_PER_TERM +
                               q->answer_bytes * (double)CBD_COST_NS_PER_BYTE);
        }
    }
    free(scratch);
    if (q) {
        cbdp_warapp_battle_free(&q->battle);
    }
    free(q);
    return cost;
}
