#ifndef COMBATD_API_CONFIG_H
#define COMBATD_API_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/duper.h"
#include "combatd/warapp.h"
#include "net_ranges.h"
#include "config_keys.h"
#include "problem.h"

/*
 * The service configuration. Precedence (lowest first): built-in defaults < the config file
 * (config/combatd.json or --config) < COMBATD_* environment < command-line flags.
 */
#define CBD_MAX_CORS_ORIGINS    16
#define CBD_MAX_TRUSTED_PROXIES 32

typedef struct {
    char bind[64];                    /* "0.0.0.0", "127.0.0.1", "::" ... */
    uint32_t port;                    /* 0 = any free port */
    uint32_t threads;                 /* MHD thread pool size */
    uint64_t body_limit;              /* bytes */
    uint32_t connection_timeout;      /* seconds of inactivity */
    uint32_t request_deadline;        /* seconds, absolute, per request */
    uint32_t connection_limit;        /* open connections in all */
    uint32_t per_ip_connection_limit; /* open connections per client address */
    uint64_t connection_memory_limit; /* bytes of MHD memory per connection */
    uint32_t drain_deadline;          /* seconds to finish in-flight requests on SIGTERM */
    bool access_log;                  /* one JSON line per request on stderr */
    /* One request's cost and slow clients. */
    uint64_t inline_cost_ns;   /* estimated cost (api.h) above which a request runs on a worker */
    uint32_t workers;          /* worker threads; 0 = one per online CPU, at least 2 */
    uint32_t worker_queue;     /* requests that may wait for a worker, beyond those running */
    uint32_t worker_share;     /* running + waiting per client address; 0 = max(1, workers/4) */
    uint32_t send_deadline;    /* seconds a client may take to read one answer */
    uint64_t max_answer_bytes; /* the largest answer; larger listings are refused up front */
    /* One budget for every request (budget.h): work and memory metered as they are spent. */
    uint64_t work_budget_ms;  /* a request's work on a worker, in ms of one core (10^6 units) */
    uint64_t inline_work_us;  /* ... on an HTTP thread before it moves to a worker, in µs */
    uint64_t memory_budget;   /* bytes the core may hold for one request */
    uint32_t answer_deadline; /* seconds from a request's last byte to the start of its answer */
    size_t n_cors_origins;
    char cors_origins[CBD_MAX_CORS_ORIGINS][128]; /* "*" allows any origin */
    /* Restarts and proxies. */
    uint32_t drain_delay; /* seconds of lame duck on SIGTERM: /readyz 503, still serving */
    size_t n_trusted_proxies;
    cbd_net_range trusted_proxies[CBD_MAX_TRUSTED_PROXIES]; /* no per-IP limit; XFF believed */
} cbd_server_config;

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
    cbd_server_config server;
    cbd_warapp_config warapp;
    cbd_duper_rules duper;
    cbd_duper_board_config duper_board;
    cbd_mcp_config mcp;
} cbd_config;

/* The built-in defaults. */
void cbd_config_defaults(cbd_config *cfg);

/*
 * Applies a JSON config file over *cfg. Unknown keys and bad values are errors naming the
 * member's JSON pointer. Returns false and fills *problem on any error (including I/O).
 */
bool cbd_config_load_file(cbd_config *cfg, const char *path, cbd_problem *problem);

/* The same from a JSON text in memory (the file loader and the fuzzer use it). */
bool cbd_config_load_text(cbd_config *cfg, const char *text, size_t len, cbd_problem *problem);

/*
 * Applies COMBATD_<KEY> variables (KEY is a server key in upper case, e.g. COMBATD_PORT,
 * COMBATD_BODY_LIMIT, COMBATD_CORS_ORIGINS as a comma-separated list; or MCP_ and a key of the
 * mcp section, COMBATD_MCP_ENABLED) from envp.
 */
bool cbd_config_apply_env(cbd_config *cfg, char *const *envp, cbd_problem *problem);

/* Sets one server key from text, as a flag or a variable gives it; `source` names it. */
bool cbd_config_set_server_key(cbd_config *cfg, const char *key, const char *value,
                               const char *source, cbd_problem *problem);

/* The key table of a config section ("server", "warapp" or "duper": the rows config.c reads,
 * without warapp's `defaults` object and duper's rules) and its length in *n, or NULL for
 * another name. The README's tables are checked against these rows (test_config_docs.c). */
const cbd_config_key *cbd_config_key_table(const char *section, size_t *n);

#endif
