/*
 * The request budget's calibration (include/combatd/budget.h): for the costliest legal request
 * of each endpoint, the CPU time it takes against the work units it was charged, so that a unit
 * can be read as about a nanosecond of one core. Each row runs through the api as a worker runs
 * it (cbd_api_answer_within), with the config's memory budget and a work budget large enough
 * to finish; it prints one line: the status, CPU ns (the fastest of the runs), units spent,
 * ns per unit and the most memory the budget held at once.
 *
 *   taskset -c 1 build/bench/bench_budget [runs [label-prefix]]   (default 3 runs a row)
 *
 * One table of {label, path, body}: add a row for every endpoint and every request that is
 * costly in its own way.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_config.h"

typedef struct {
    const char *label;
    const char *path;
    const char *body; /* NULL: too long to write out, made by long_body() */
} budget_row;

/* 32 Commanders a side (warapp.max_units), for the units' rows. */
#define COMMANDERS_32 "[" COMMANDERS_8 ", " COMMANDERS_8 ", " COMMANDERS_8 ", " COMMANDERS_8 "]"
#define COMMANDERS_8                                                                               \
    "{\"type\": \"commander\"}, {\"type\": \"commander\"}, {\"type\": \"commander\"}, "            \
    "{\"type\": \"commander\"}, {\"type\": \"commander\"}, {\"type\": \"commander\"}, "            \
    "{\"type\": \"commander\"}, {\"type\": \"commander\"}"

#define LUCK_02  "\"settings\": {\"luck_modifier\": 0.2, \"rounding_mode\": \"weighted_random\"}"
#define LUCK_016 "\"settings\": {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"}"

/* 10^6 attackers against a distribution of warapp.max_fog_points (1000) counts around 10^6,
 * at luck 0.2: the costliest fog the default limits allow, 10^6 trials. */
static char *long_body(void) {
    size_t cap = 64 * 1000 + 512, used = 0;
    char *body = malloc(cap);
    if (!body) {
        return NULL;
    }
    used += (size_t)snprintf(body, cap,
                             "{\"attackers\": 1000000, \"trials\": 1000000, "
                             "\"seed\": 1, " LUCK_02 ", \"defenders\": [");
    for (int k = 0; k < 1000; k++) {
        used +=
            (size_t)snprintf(body + used, cap - used, "%s{\"armies\": %d, \"probability\": 0.001}",
                             k ? ", " : "", 999500 + k);
    }
    snprintf(body + used, cap - used, "]}");
    return body;
}

/*
 * At the default limits: a graph of 10^9 attackers at luck 0.2 costs 20·√(10^9·0.24) + 2 =
 * 309,840 terms a point, so max_graph_terms (2·10^7) allows 64 points; armies_needed near 10^9
 * attackers costs about 40.5 evaluations of as many terms, so max_needed_terms allows one
 * target. Against 10^9 defenders no count up to army_cap captures (it would take 1.67·10^9), so
 * the search ends at once; against 5.9·10^8 it searches near 9.8·10^8 attackers.
 */
static const budget_row rows[] = {
    {"analyze 1e9 v 1e9 L0.2", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02 "}"},
    {"analyze 1e9 v 1e9 L1", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"settings\": {\"luck_modifier\": "
     "1}}"},
    {"analyze 1e9 v 1e9 L0.2 graph 64 target 1", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02
     ", \"graph\": {\"from\": 999999937, \"to\": 1000000000}, \"targets\": [0.5]}"},
    {"analyze 1e9 v 5.9e8 L0.2 graph 64 target 1", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 590000000, " LUCK_02
     ", \"graph\": {\"from\": 999999937, \"to\": 1000000000}, \"targets\": [0.99]}"},
    {"analyze 1000 v 1000 L0.2 graph 10000", "/analyze-attack",
     "{\"attackers\": 1000, \"defenders\": 1000, " LUCK_02
     ", \"graph\": {\"from\": 1, \"to\": 10000}}"},
    {"analyze 1e9 v 1e9 L0 graph 10000", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"graph\": {\"from\": 999990001, "
     "\"to\": 1000000000}}"},
    /* max_trials; 50 a side draws the slowest variates (BTRS near its threshold rejects most),
     * no luck draws none; a listing is at most max_listed_battles. */
    {"simulate 1e7 trials 1e9 v 1e9 L0.2", "/simulate",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02
     ", \"trials\": 10000000, \"seed\": 1}"},
    {"simulate 1e7 trials 50 v 50 L0.16", "/simulate",
     "{\"attackers\": 50, \"defenders\": 50, " LUCK_016 ", \"trials\": 10000000, \"seed\": 1}"},
    {"simulate 1e7 trials 1e9 v 1e9 L0", "/simulate",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"trials\": 10000000, "
     "\"seed\": 1}"},
    {"simulate 1000 listed 1e9 v 1e9 L0.2", "/simulate",
     "{\"attackers\": 999999999, \"defenders\": 999999999, " LUCK_02
     ", \"trials\": 1000, \"seed\": 1, \"include_battles\": true}"},
    {"simulate 1000 unlisted 1e9 v 1e9 L0.2", "/simulate",
     "{\"attackers\": 999999999, \"defenders\": 999999999, " LUCK_02
     ", \"trials\": 1000, \"seed\": 1, \"include_battles\": false}"},
    /* Units and fog: the most units a side, each walked by W19 in every battle; the most
     * counts, each battle drawing one and its sampler; the most listed battles with units. */
    {"simulate 1e6 trials 50+32 v 50+32 L0.16", "/simulate",
     "{\"attackers\": 50, \"defenders\": 50, " LUCK_016 ", \"trials\": 1000000, \"seed\": 1, "
     "\"attacking_units\": " COMMANDERS_32 ", \"defending_units\": " COMMANDERS_32 "}"},
    {"simulate 1e6 trials 1e6 v fog 1000 L0.2", "/simulate", NULL},
    {"simulate 1000 listed 1000 v 10+32 dying", "/simulate",
     "{\"attackers\": 1000, \"defenders\": 10, " LUCK_016 ", \"trials\": 1000, \"seed\": 1, "
     "\"include_battles\": true, \"defending_units\": " COMMANDERS_32 "}"},
    {"simulate 1000 listed 50+32 v 50+32 L0.16", "/simulate",
     "{\"attackers\": 50, \"defenders\": 50, " LUCK_016 ", \"trials\": 1000, \"seed\": 1, "
     "\"include_battles\": true, \"attacking_units\": " COMMANDERS_32
     ", \"defending_units\": " COMMANDERS_32 "}"},
};

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct {
    int status;
    double ns;
    cbd_budget spent;
} row_run;

/* One run of a row: parse and answer, timed together (parsing is a few microseconds). */
static row_run run_once(const cbd_config *cfg, const budget_row *row, const char *body) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(row->path);
    if (!ep) {
        fprintf(stderr, "no endpoint %s\n", row->path);
        exit(1);
    }
    row_run r;
    memset(&r, 0, sizeof r);
    cbd_api_limits limits = cbd_api_full_limits(cfg);
    /* Enough to finish: what is measured is the cost, not where the default budget stops. */
    limits.work_limit = UINT64_MAX;
    limits.report = &r.spent;
    cbd_api_reply reply;
    cbd_api_request req;
    double t0 = cpu_ns();
    if (cbd_api_parse(ep, body, strlen(body), &req, &reply)) {
        (void)cbd_api_answer_within(&req, cfg, &limits, &reply);
    }
    r.ns = cpu_ns() - t0;
    r.status = reply.status;
    if (reply.status != 200) {
        fprintf(stderr, "%s: %d %.400s\n", row->label, reply.status, reply.body);
    }
    cbd_api_reply_free(&reply);
    return r;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 3;
    const char *only = argc > 2 ? argv[2] : NULL;
    if (runs <= 0) {
        fprintf(stderr, "usage: %s [runs [label-prefix]]\n", argv[0]);
        return 2;
    }
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    printf("%-46s %-16s %6s %14s %14s %8s %12s\n", "request", "path", "status", "cpu ns", "units",
           "ns/unit", "peak bytes");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (only && strncmp(rows[i].label, only, strlen(only)) != 0) {
            continue;
        }
        char *built = rows[i].body ? NULL : long_body();
        const char *body = rows[i].body ? rows[i].body : built;
        if (!body) {
            fprintf(stderr, "%s: no memory for the body\n", rows[i].label);
            return 1;
        }
        row_run best = run_once(&cfg, &rows[i], body);
        for (int k = 1; k < runs; k++) {
            row_run r = run_once(&cfg, &rows[i], body);
            if (r.ns < best.ns) {
                best = r;
            }
        }
        free(built);
        uint64_t units = best.spent.work_spent;
        printf("%-46s %-16s %6d %14.0f %14" PRIu64 " %8.3f %12zu\n", rows[i].label, rows[i].path,
               best.status, best.ns, units, units ? best.ns / (double)units : 0.0,
               best.spent.mem_peak);
    }
    return 0;
}
