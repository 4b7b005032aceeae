/* The endpoints' built-in configuration (api_config.h). */
#include "api_config.h"

#include <string.h>

#include "combatd/warapp_turn.h"

void cbd_config_defaults(cbd_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    /* One request's cost: docs/security.md, "Long requests and fairness". */
    cbd_request_limits *l = &cfg->limits;
    l->inline_cost_ns = 1000000; /* 1 ms: longer work would hold up the thread's connections */
    l->max_answer_bytes = 8u * 1024u * 1024u;
    /* docs/security.md, "One budget for every request": about 2 s of one core on a worker, 1 ms on
     * an HTTP thread (so that its other connections wait at most that long), 128 MiB. */
    l->work_budget_ms = 2000;
    l->inline_work_us = 1000;
    l->memory_budget = UINT64_C(128) * 1024 * 1024;
    /* 15 times the work budget: a request that waited for a worker behind a few long ones,
     * or computed on a core shared with others, still gets its answer; past it the client
     * has likely given up (docs/security.md, "Deadlines and slow clients"). */
    l->answer_deadline = 30;

    cbd_warapp_config *w = &cfg->warapp;
    w->defaults = cbd_warapp_default_settings();
    w->army_cap = CBD_WARAPP_MAX_ARMIES;
    w->max_distribution_points = 10000;
    w->max_graph_points = 10000;
    w->max_graph_terms = 20000000;  /* about 0.2 s of one core */
    w->max_needed_terms = 20000000; /* the same for armies_needed */
    w->max_targets = 32;
    w->max_trials = 10000000;
    w->max_listed_battles = 1000;
    /* The game's largest maps: 4,000 territories (Imperator Rome; 820 bonuses), and the orders
     * of 6 players on them. The work a turn does is bounded by the budget, not by these. */
    w->max_turn_territories = 4096;
    w->max_turn_orders = 4096;
    w->max_turn_states = CBD_TURN_DEFAULT_MAX_STATES;
    w->max_turn_simulated_orders = 50000000; /* a few seconds of one core at most */
    w->max_listed_turns = 100;
    w->max_units = 32;                                             /* W17 */
    w->blockade_multiplier = CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER; /* W26 */
    w->emergency_blockade_multiplier = CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER;
    w->max_fog_points = 1000; /* W23 */

    cfg->duper = cbd_duper_default_rules();
    /* A real match has tens to a few hundred tiles, each with a handful of neighbours, and a
     * turn's few attacks; these leave room for large custom maps. */
    cbd_duper_board_config *d = &cfg->duper_board;
    d->max_board_tiles = 2000;
    d->max_board_pairs = 8000;
    d->max_board_attacks = 64;
    d->long_distance_range = 0; /* the rules give no range (D17) */
    d->max_board_options = 1000;

    /* On by default: it answers what the HTTP endpoints answer, under their limits, and
     * refuses browsers from origins not listed by name (docs/api/mcp.md). */
    cfg->mcp.enabled = true;
}
