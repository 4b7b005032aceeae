#ifndef COMBATD_API_API_CONFIG_H
#define COMBATD_API_API_CONFIG_H

/*
 * What the endpoints read of the configuration: the limits every request is held to (keys of
 * the file's "server" section), the War.app and Duper sections and the MCP switch. The loader
 * (src/config/) fills it beside the HTTP server's own part (server_config.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/duper.h"
#include "combatd/warapp.h"

/* One request's cost and budget (budget.h): work and memory metered as they are spent. */
typedef struct {
    uint64_t inline_cost_ns;   /* estimated cost (api.h) above which a request runs on a worker */
    uint64_t max_answer_bytes; /* the largest answer; larger listings are refused up front */
    uint64_t work_budget_ms;   /* a request's work on a worker, in ms of one core (10^6 units) */
    uint64_t inline_work_us;   /* ... on an HTTP thread before it moves to a worker, in µs */
    uint64_t memory_budget;    /* bytes the core may hold for one request */
    uint32_t answer_deadline;  /* seconds from a request's last byte to the start of its answer */
} cbd_request_limits;

typedef struct {
    cbd_warapp_settings defaults;     /* W9, overridable here */
    uint64_t army_cap;                /* W10, at most 10^9 */
    uint32_t max_distribution_points; /* per survivor distribution in /analyze-attack */
    uint32_t max_graph_points;        /* analyze graph points per request */
    uint64_t max_graph_terms;         /* binomial terms a graph may cost (its CPU budget) */
    uint64_t max_needed_terms;        /* binomial terms armies_needed may cost (its budget) */
    uint32_t max_targets;             /* armies_needed targets per request */
    uint64_t max_trials;              /* /simulate trials per request */
    uint64_t max_listed_battles;      /* /simulate include_battles limit */
    /* War.app turns (/analyze-turn, /simulate-turn; W11–W16). */
    uint32_t max_turn_territories;      /* territories per board */
    uint32_t max_turn_orders;           /* orders per turn, deploys included */
    uint64_t max_turn_states;           /* distinct board states of one group (the analysis) */
    uint64_t max_turn_simulated_orders; /* /simulate-turn: trials × orders per request */
    uint64_t max_listed_turns;          /* /simulate-turn include_turns limit */
    uint32_t max_units;                 /* W17: special units on one side or territory */
    uint32_t max_fog_points;            /* W23: counts of one army distribution */
    /* W26: the multipliers a request's settings default to, millionths in [0, 100]. */
    cbd_micro blockade_multiplier;
    cbd_micro emergency_blockade_multiplier;
} cbd_warapp_config;

/* The largest long_distance_range (D17), in the config file and in a request alike. */
#define CBD_MAX_LONG_DISTANCE_RANGE 1000000

/* The board endpoints' limits and D17's range: keys of the file's "duper" section beside the
 * rules (they are not rules, so a request's "rules" does not take them). */
typedef struct {
    uint32_t max_board_tiles;     /* tiles per board */
    uint32_t max_board_pairs;     /* adjacency pairs per board */
    uint32_t max_board_attacks;   /* attacks per /duper/board/battle request */
    uint32_t long_distance_range; /* D17: steps of adjacency; 0 = anywhere on the board */
    uint32_t max_board_options;   /* options listed per answer; the rest are counted */
} cbd_duper_board_config;

/* The Model Context Protocol endpoint (POST /mcp, api.h): the file's "mcp" section. */
typedef struct {
    bool enabled; /* false: /mcp is a 404 like any path the service does not have */
} cbd_mcp_config;

typedef struct {
    cbd_request_limits limits; /* the file's server.inline_cost_ns ... server.answer_deadline */
    cbd_warapp_config warapp;
    cbd_duper_rules duper;
    cbd_duper_board_config duper_board;
    cbd_mcp_config mcp;
} cbd_config;

/* The built-in defaults. */
void cbd_config_defaults(cbd_config *cfg);

#endif
