#ifndef COMBATD_API_WARAPP_ANALYZE_READ_H
#define COMBATD_API_WARAPP_ANALYZE_READ_H

/*
 * POST /analyze-attack's request: read, checked and weighed before anything is computed (its
 * answer is written by warapp_analyze.c). The weight is in binomial terms, each count of a
 * fog (W23) at what its own windows cost, so that a distribution over 0..10^9 costs what its
 * counts cost, not what its largest count would cost as many times.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "api/endpoint_support.h"
#include "combatd/warapp_odds.h"
#include "warapp_request.h"

/* The most targets one request may carry, whatever max_targets says. */
#define CBD_ANALYZE_TARGETS_HELD 100

typedef struct {
    cbd_warapp_battle battle;
    bool has_graph;
    uint64_t graph_from, graph_to;
    size_t n_targets;
    double targets[CBD_ANALYZE_TARGETS_HELD]; /* at most min(max_targets, TARGETS_HELD) */
    uint32_t max_points;
    double terms;        /* the binomial terms answering it costs (estimated) */
    double answer_bytes; /* the size of its answer (estimated, from above) */
    char blame[48];      /* the member the battle's own work grows with (a JSON pointer) */
} cbd_analyze_request;

/*
 * Reads every member, so that one 422 lists every bad field; then, for a valid request that
 * is not a transfer, its cost: the targets within warapp.max_needed_terms, the graph within
 * max_graph_terms, the answer within server.max_answer_bytes. CBD_READ_OK, or a refusal or
 * the 500 recorded in the problem (cbd_api_read_status).
 */
/* A request to read into, ready for cbdp_analyze_read (free with free() after
 * cbdp_warapp_battle_free); NULL when out of memory. */
cbd_analyze_request *cbdp_analyze_request_new(void);

cbd_read_status cbdp_analyze_read(const cbd_config *cfg, const json_t *request,
                                  cbd_analyze_request *q, cbd_problem *problem);

/* The defenders' counts: the fog's distribution (W23), or the one count as given (in *one). */
const cbd_warapp_count *cbdp_analyze_counts(const cbd_analyze_request *q, cbd_warapp_count *one,
                                            size_t *n);

#endif
