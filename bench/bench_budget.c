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
#include "config.h"

typedef struct {
    const char *label;
    const char *path;
    const char *body;
} budget_row;

#define LUCK_02  "\"settings\": {\"luck_modifier\": 0.2, \"rounding_mode\": \"weighted_random\"}"
#define LUCK_016 "\"settings\": {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"}"

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
static row_run run_once(const cbd_config *cfg, const budget_row *row) {
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
    if (cbd_api_parse(ep, row->body, strlen(row->body), &req, &reply)) {
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
        row_run best = run_once(&cfg, &rows[i]);
        for (int k = 1; k < runs; k++) {
            row_run r = run_once(&cfg, &rows[i]);
            if (r.ns < best.ns) {
                best = r;
            }
        }
        uint64_t units = best.spent.work_spent;
        printf("%-46s %-16s %6d %14.0f %14" PRIu64 " %8.3f %12zu\n", rows[i].label, rows[i].path,
               best.status, best.ns, units, units ? best.ns / (double)units : 0.0,
               best.spent.mem_peak);
    }
    return 0;
}
