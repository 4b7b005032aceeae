#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combatd/warapp_turn.h"
#include "combatd/warapp_units.h"
#include "config_keys.h"
#include "duper_rules_json.h"
#include "json_reader.h"
#include "warapp_settings.h"

/* The config file itself is small; a larger one is a mistake, not a config. */
#define CONFIG_FILE_MAX (1024 * 1024)

/* The server keys, shared by the file, the environment and the flags so that each is
 * described (type, range) once. */
#define SK(field, type, lo, hi) CBD_CONFIG_KEY(cbd_server_config, field, type, lo, hi)
static const cbd_config_key server_keys[] = {
    SK(bind, CBD_KEY_STRING, 0, 0),
    SK(port, CBD_KEY_UINT, 0, 65535),
    SK(threads, CBD_KEY_UINT, 0, 256),
    SK(body_limit, CBD_KEY_UINT, 64, 64 * 1024 * 1024),
    SK(connection_timeout, CBD_KEY_UINT, 1, 3600),
    SK(request_deadline, CBD_KEY_UINT, 1, 3600),
    SK(connection_limit, CBD_KEY_UINT, 1, 1000000),
    SK(per_ip_connection_limit, CBD_KEY_UINT, 0, 1000000),
    SK(connection_memory_limit, CBD_KEY_UINT, 4096, 64 * 1024 * 1024),
    SK(drain_deadline, CBD_KEY_UINT, 0, 3600),
    SK(access_log, CBD_KEY_BOOL, 0, 1),
    SK(cors_origins, CBD_KEY_ORIGINS, 0, 0),
    /* Restarts and proxies. */
    SK(drain_delay, CBD_KEY_UINT, 0, 3600),
    SK(trusted_proxies, CBD_KEY_NETS, 0, 0),
    /* One request's cost and slow clients. */
    SK(inline_cost_ns, CBD_KEY_UINT, 0, UINT64_C(60000000000)),
    SK(workers, CBD_KEY_UINT, 0, 256),
    SK(worker_queue, CBD_KEY_UINT, 0, 100000),
    SK(worker_share, CBD_KEY_UINT, 0, 100000),
    SK(send_deadline, CBD_KEY_UINT, 1, 3600),
    SK(max_answer_bytes, CBD_KEY_UINT, 4096, UINT64_C(1) << 32),
    SK(work_budget_ms, CBD_KEY_UINT, 1, 3600000),
    SK(inline_work_us, CBD_KEY_UINT, 1, 1000000),
    SK(memory_budget, CBD_KEY_UINT, 1024 * 1024, UINT64_C(1) << 40),
    SK(answer_deadline, CBD_KEY_UINT, 1, 3600),
};
#undef SK
#define N_SERVER_KEYS (sizeof server_keys / sizeof server_keys[0])

/* The warapp section's limits; its `defaults` object is read by warapp_settings.c. */
#define WK(field, lo, hi) CBD_CONFIG_KEY(cbd_warapp_config, field, CBD_KEY_UINT, lo, hi)
static const cbd_config_key warapp_keys[] = {
    WK(army_cap, 1, CBD_WARAPP_MAX_ARMIES),
    WK(max_distribution_points, 1, 1000000),
    WK(max_graph_points, 1, 10000),
    WK(max_graph_terms, 1000, UINT64_C(10000000000)),
    WK(max_needed_terms, 1000, UINT64_C(10000000000)),
    WK(max_targets, 1, 100),
    WK(max_trials, 1, 1000000000),
    WK(max_listed_battles, 0, 100000),
    WK(max_turn_territories, 1, 100000),
    WK(max_turn_orders, 1, 100000),
    WK(max_turn_states, 1, 100000000),
    WK(max_turn_simulated_orders, 1, UINT64_C(100000000000)),
    WK(max_listed_turns, 0, 100000),
    WK(max_units, 0, CBD_WARAPP_MAX_UNITS),
    WK(max_fog_points, 1, 100000),
};
#undef WK
#define N_WARAPP_KEYS (sizeof warapp_keys / sizeof warapp_keys[0])

/* The duper section's board keys (its rules are read by duper_rules_json.c). */
#define DK(field, lo, hi) CBD_CONFIG_KEY(cbd_duper_board_config, field, CBD_KEY_UINT, lo, hi)
static const cbd_config_key duper_board_keys[] = {
    DK(max_board_tiles, 2, 100000),    DK(max_board_pairs, 0, 1000000),
    DK(max_board_attacks, 1, 10000),   DK(long_distance_range, 0, CBD_MAX_LONG_DISTANCE_RANGE),
    DK(max_board_options, 1, 1000000),
};
#undef DK
#define N_DUPER_BOARD_KEYS (sizeof duper_board_keys / sizeof duper_board_keys[0])

/* The mcp section's keys; COMBATD_MCP_<KEY> sets them too. */
#define MK(field, type, lo, hi) CBD_CONFIG_KEY(cbd_mcp_config, field, type, lo, hi)
static const cbd_config_key mcp_keys[] = {
    MK(enabled, CBD_KEY_BOOL, 0, 1),
};
#undef MK
#define N_MCP_KEYS (sizeof mcp_keys / sizeof mcp_keys[0])

void cbd_config_defaults(cbd_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cbd_server_config *s = &cfg->server;
    snprintf(s->bind, sizeof s->bind, "0.0.0.0");
    s->port = 8080;
    s->threads = 0; /* one per online CPU */
    s->body_limit = 64 * 1024;
    s->connection_timeout = 10;
    s->request_deadline = 15;
    s->connection_limit = 4096;
    /* 256 per address: one client (or bot) can hold at most 1/16 of connection_limit, while a
     * reverse proxy's pool or a load test from one host (wrk -c 64..256) still fits. Behind a
     * proxy that funnels many more clients through one address, raise it or set 0 (none). */
    s->per_ip_connection_limit = 256;
    s->connection_memory_limit = 64 * 1024;
    s->drain_deadline = 10;
    s->access_log = true;
    s->n_cors_origins = 0;
    s->drain_delay = 0; /* no lame duck unless asked: a plain SIGTERM drains at once */
    s->n_trusted_proxies = 0;
    /* One request's cost and slow clients: README, "Fairness" and "Slow and idle
     * clients". */
    s->inline_cost_ns = 1000000; /* 1 ms: longer work would hold up the thread's connections */
    s->workers = 0;
    s->worker_queue = 64;
    s->worker_share = 0;
    s->send_deadline = 30;
    s->max_answer_bytes = 8u * 1024u * 1024u;
    /* README, "One budget for every request": about 2 s of one core on a worker, 1 ms on an
     * HTTP thread (so that its other connections wait at most that long), 128 MiB. */
    s->work_budget_ms = 2000;
    s->inline_work_us = 1000;
    s->memory_budget = UINT64_C(128) * 1024 * 1024;
    /* 15 times the work budget: a request that waited for a worker behind a few long ones,
     * or computed on a core shared with others, still gets its answer; past it the client
     * has likely given up (README, "Deadlines and slow clients"). */
    s->answer_deadline = 30;

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
    w->max_turn_territories = 256;
    w->max_turn_orders = 256;
    w->max_turn_states = CBD_TURN_DEFAULT_MAX_STATES;
    w->max_turn_simulated_orders = 50000000; /* a few seconds of one core at most */
    w->max_listed_turns = 100;
    w->max_units = 32;        /* W17 */
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
     * refuses browsers from origins not listed by name (README, "MCP"). */
    cfg->mcp.enabled = true;
}

const cbd_config_key *cbd_config_key_table(const char *section, size_t *n) {
    static const struct {
        const char *name;
        const cbd_config_key *keys;
        size_t n;
    } tables[] = {{"server", server_keys, N_SERVER_KEYS},
                  {"warapp", warapp_keys, N_WARAPP_KEYS},
                  {"duper", duper_board_keys, N_DUPER_BOARD_KEYS},
                  {"mcp", mcp_keys, N_MCP_KEYS}};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (strcmp(section, tables[i].name) == 0) {
            *n = tables[i].n;
            return tables[i].keys;
        }
    }
    *n = 0;
    return NULL;
}

static const cbd_config_key *find_key(const cbd_config_key *keys, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(keys[i].name, name) == 0) {
            return &keys[i];
        }
    }
    return NULL;
}

bool cbd_config_set_server_key(cbd_config *cfg, const char *key, const char *value,
                               const char *source, cbd_problem *problem) {
    if (strncmp(key, "mcp_", 4) == 0) {
        const cbd_config_key *m = find_key(mcp_keys, N_MCP_KEYS, key + 4);
        if (m) {
            return cbd_config_key_set_text(m, &cfg->mcp, value, source, problem);
        }
    }
    const cbd_config_key *k = find_key(server_keys, N_SERVER_KEYS, key);
    if (!k) {
        cbd_problem_field(problem, source, "is not a known setting");
        return false;
    }
    return cbd_config_key_set_text(k, &cfg->server, value, source, problem);
}

/* The member names of a section: `first` (when not NULL), then every key's. */
static void key_names(const cbd_config_key *keys, size_t n, const char *first, const char **out) {
    size_t used = 0;
    if (first) {
        out[used++] = first;
    }
    for (size_t i = 0; i < n; i++) {
        out[used++] = keys[i].name;
    }
    out[used] = NULL;
}

static bool read_server(const json_t *value, cbd_config *cfg, cbd_problem *problem) {
    const char *names[N_SERVER_KEYS + 1];
    key_names(server_keys, N_SERVER_KEYS, NULL, names);
    cbd_reader r;
    if (!cbd_reader_open(&r, value, "/server", names, problem)) {
        return false;
    }
    return cbd_config_keys_read(&r, server_keys, N_SERVER_KEYS, &cfg->server);
}

static void read_duper(const cbd_reader *root, cbd_config *cfg) {
    size_t n_rules = 0;
    while (cbd_duper_rules_keys[n_rules]) {
        n_rules++;
    }
    const char *names[32];
    for (size_t i = 0; i < n_rules; i++) {
        names[i] = cbd_duper_rules_keys[i];
    }
    key_names(duper_board_keys, N_DUPER_BOARD_KEYS, NULL, names + n_rules);
    cbd_reader duper;
    if (cbd_read_object(root, "duper", names, &duper) == CBD_FIELD_OK) {
        cbd_duper_rules_read(&duper, &cfg->duper);
        (void)cbd_config_keys_read(&duper, duper_board_keys, N_DUPER_BOARD_KEYS, &cfg->duper_board);
    }
}

static bool read_mcp(const json_t *value, cbd_config *cfg, cbd_problem *problem) {
    const char *names[N_MCP_KEYS + 1];
    key_names(mcp_keys, N_MCP_KEYS, NULL, names);
    cbd_reader r;
    if (!cbd_reader_open(&r, value, "/mcp", names, problem)) {
        return false;
    }
    return cbd_config_keys_read(&r, mcp_keys, N_MCP_KEYS, &cfg->mcp);
}

static bool read_warapp(const json_t *value, cbd_config *cfg, cbd_problem *problem) {
    const char *names[N_WARAPP_KEYS + 2];
    key_names(warapp_keys, N_WARAPP_KEYS, "defaults", names);
    cbd_reader r, settings;
    if (!cbd_reader_open(&r, value, "/warapp", names, problem)) {
        return false;
    }
    bool ok = true;
    cbd_field f = cbd_read_object(&r, "defaults", cbd_warapp_settings_keys, &settings);
    if (f == CBD_FIELD_OK) {
        ok = cbd_warapp_settings_read(&settings, &cfg->warapp.defaults);
    }
    ok &= f != CBD_FIELD_BAD;
    return cbd_config_keys_read(&r, warapp_keys, N_WARAPP_KEYS, &cfg->warapp) && ok;
}

bool cbd_config_load_text(cbd_config *cfg, const char *text, size_t len, cbd_problem *problem) {
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        cbd_problem_set(problem, 400, "line %d, column %d: %s", err.line, err.column, err.text);
        return false;
    }
    static const char *const names[] = {"server", "warapp", "duper", "mcp", NULL};
    cbd_reader r;
    if (cbd_reader_open(&r, root, "", names, problem)) {
        const json_t *section;
        /* Every section is read, each failure recorded, so one run lists every error. */
        if ((section = json_object_get(root, "server")) != NULL) {
            (void)read_server(section, cfg, problem);
        }
        if ((section = json_object_get(root, "warapp")) != NULL) {
            (void)read_warapp(section, cfg, problem);
        }
        read_duper(&r, cfg);
        if ((section = json_object_get(root, "mcp")) != NULL) {
            (void)read_mcp(section, cfg, problem);
        }
    }
    json_decref(root);
    return problem->status == 0;
}

bool cbd_config_load_file(cbd_config *cfg, const char *path, cbd_problem *problem) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        cbd_problem_set(problem, 500, "cannot open config file %s: %s", path, strerror(errno));
        return false;
    }
    char *buf = malloc(CONFIG_FILE_MAX + 1);
    if (!buf) {
        fclose(f);
        cbd_problem_set(problem, 500, "out of memory reading %s", path);
        return false;
    }
    size_t len = fread(buf, 1, CONFIG_FILE_MAX + 1, f);
    bool read_error = ferror(f) != 0;
    fclose(f);
    bool ok = false;
    if (read_error) {
        cbd_problem_set(problem, 500, "cannot read config file %s", path);
    } else if (len > CONFIG_FILE_MAX) {
        cbd_problem_set(problem, 500, "config file %s is larger than %d bytes", path,
                        CONFIG_FILE_MAX);
    } else {
        ok = cbd_config_load_text(cfg, buf, len, problem);
    }
    free(buf);
    return ok;
}

bool cbd_config_apply_env(cbd_config *cfg, char *const *envp, cbd_problem *problem) {
    static const char prefix[] = "COMBATD_";
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *entry = envp[i];
        if (strncmp(entry, prefix, sizeof prefix - 1) != 0) {
            continue;
        }
        const char *name = entry + sizeof prefix - 1;
        const char *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        char key[64];
        if (!eq || name_len >= sizeof key) {
            continue;
        }
        for (size_t j = 0; j < name_len; j++) {
            key[j] = (char)tolower((unsigned char)name[j]);
        }
        key[name_len] = '\0';
        if (strcmp(key, "config") == 0) {
            continue; /* the config file's path: main reads it before the file */
        }
        char source[96];
        snprintf(source, sizeof source, "environment COMBATD_%.*s", (int)name_len, name);
        (void)cbd_config_set_server_key(cfg, key, eq + 1, source, problem);
    }
    return problem->status == 0;
}
