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
#include "api/duper/duper_rules_json.h"
#include "json/json_alloc.h"
#include "json/json_reader.h"
#include "api/warapp/warapp_settings.h"

/* The config file itself is small; a larger one is a mistake, not a config. */
#define CONFIG_FILE_MAX (1024 * 1024)

/* The server keys, shared by the file, the environment and the flags so that each is
 * described (type, range) once. A row's offset is in cbd_settings: most keys are the daemon's
 * (SK), the limits of one request the api's (LK); the lists sit in the server's part with
 * their counts (SL, config_keys.h). */
#define SK(field, type, lo, hi)                                                                    \
    {                                                                                              \
#field, type, offsetof(cbd_settings, server.field),                                        \
            sizeof(((cbd_settings *)0)->server.field), lo, hi                                      \
    }
#define LK(field, lo, hi)                                                                          \
    {                                                                                              \
#field, CBD_KEY_UINT, offsetof(cbd_settings, api.limits.field),                            \
            sizeof(((cbd_settings *)0)->api.limits.field), lo, hi                                  \
    }
#define SL(field, type)                                                                            \
    { #field, type, offsetof(cbd_settings, server), sizeof(cbd_server_config), 0, 0 }
/* errno's text without strerror, which may write into one static that every thread shares.
 * strerror_r is the GNU one (returns the text, maybe not in buf) under glibc's _GNU_SOURCE and
 * the XSI one (returns 0 and fills buf) elsewhere (musl): _Generic takes whichever this libc
 * declares, so both build and neither is misread. */
static const char *gnu_error_text(const char *r, const char *buf) {
    (void)buf;
    return r;
}
static const char *xsi_error_text(int r, const char *buf) {
    return r == 0 ? buf : "unknown error";
}
static const char *error_text(int err, char *buf, size_t size) {
    buf[0] = '\0';
    return _Generic(strerror_r(err, buf, size), char *: gnu_error_text,
                    default: xsi_error_text)(strerror_r(err, buf, size), buf);
}

static const cbd_config_key server_keys[] = {
    SK(bind, CBD_KEY_STRING, 0, 0),
    SK(port, CBD_KEY_UINT, 0, 65535),
    SK(threads, CBD_KEY_UINT, 0, 256),
    SK(body_limit, CBD_KEY_UINT, 64, 64 * 1024 * 1024),
    SK(board_body_limit, CBD_KEY_UINT, 64, 64 * 1024 * 1024),
    SK(connection_timeout, CBD_KEY_UINT, 1, 3600),
    SK(request_deadline, CBD_KEY_UINT, 1, 3600),
    SK(connection_limit, CBD_KEY_UINT, 1, 1000000),
    SK(per_ip_connection_limit, CBD_KEY_UINT, 0, 1000000),
    SK(connection_memory_limit, CBD_KEY_UINT, 4096, 64 * 1024 * 1024),
    SK(drain_deadline, CBD_KEY_UINT, 0, 3600),
    SK(access_log, CBD_KEY_BOOL, 0, 1),
    SL(cors_origins, CBD_KEY_ORIGINS),
    /* Restarts and proxies. */
    SK(drain_delay, CBD_KEY_UINT, 0, 3600),
    SL(trusted_proxies, CBD_KEY_NETS),
    /* One request's cost and slow clients. */
    LK(inline_cost_ns, 0, UINT64_C(60000000000)),
    SK(workers, CBD_KEY_UINT, 0, 256),
    SK(worker_queue, CBD_KEY_UINT, 0, 100000),
    SK(worker_share, CBD_KEY_UINT, 0, 100000),
    SK(send_deadline, CBD_KEY_UINT, 1, 3600),
    SK(scratch_keep_bytes, CBD_KEY_UINT, 0, UINT64_C(1) << 40),
    LK(max_answer_bytes, 4096, UINT64_C(1) << 32),
    LK(work_budget_ms, 1, 3600000),
    LK(inline_work_us, 1, 1000000),
    LK(memory_budget, 1024 * 1024, UINT64_C(1) << 40),
    LK(answer_deadline, 1, 3600),
};
#undef SK
#undef LK
#undef SL
#define N_SERVER_KEYS (sizeof server_keys / sizeof server_keys[0])

/* The warapp section's limits; its `defaults` object is read by warapp_settings.c. */
#define WK(field, lo, hi) CBD_CONFIG_KEY(cbd_warapp_config, field, CBD_KEY_UINT, lo, hi)
/* W26: decimal keys, in millionths. */
#define WD(field, lo, hi) CBD_CONFIG_KEY(cbd_warapp_config, field, CBD_KEY_DECIMAL, lo, hi)
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
    WD(blockade_multiplier, 0, CBD_TURN_MAX_BLOCKADE_MULTIPLIER),
    WD(emergency_blockade_multiplier, 0, CBD_TURN_MAX_BLOCKADE_MULTIPLIER),
};
#undef WK
#undef WD
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

void cbd_settings_defaults(cbd_settings *cfg) {
    cbd_server_config_defaults(&cfg->server);
    cbd_config_defaults(&cfg->api);
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

bool cbd_config_set_server_key(cbd_settings *cfg, const char *key, const char *value,
                               const char *source, cbd_problem *problem) {
    if (strncmp(key, "mcp_", 4) == 0) {
        const cbd_config_key *m = find_key(mcp_keys, N_MCP_KEYS, key + 4);
        if (m) {
            return cbdp_config_key_set_text(m, &cfg->api.mcp, value, source, problem);
        }
    }
    const cbd_config_key *k = find_key(server_keys, N_SERVER_KEYS, key);
    if (!k) {
        cbd_problem_field(problem, source, "is not a known setting");
        return false;
    }
    return cbdp_config_key_set_text(k, cfg, value, source, problem);
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

static bool read_server(const json_t *value, cbd_settings *cfg, cbd_problem *problem) {
    const char *names[N_SERVER_KEYS + 1];
    key_names(server_keys, N_SERVER_KEYS, NULL, names);
    cbd_reader r;
    if (!cbd_reader_open(&r, value, "/server", names, problem)) {
        return false;
    }
    return cbdp_config_keys_read(&r, server_keys, N_SERVER_KEYS, cfg);
}

static void read_duper(const cbd_reader *root, cbd_settings *cfg) {
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
        cbd_duper_rules_read(&duper, &cfg->api.duper);
        (void)cbdp_config_keys_read(&duper, duper_board_keys, N_DUPER_BOARD_KEYS,
                                    &cfg->api.duper_board);
    }
}

static bool read_mcp(const json_t *value, cbd_settings *cfg, cbd_problem *problem) {
    const char *names[N_MCP_KEYS + 1];
    key_names(mcp_keys, N_MCP_KEYS, NULL, names);
    cbd_reader r;
    if (!cbd_reader_open(&r, value, "/mcp", names, problem)) {
        return false;
    }
    return cbdp_config_keys_read(&r, mcp_keys, N_MCP_KEYS, &cfg->api.mcp);
}

static bool read_warapp(const json_t *value, cbd_settings *cfg, cbd_problem *problem) {
    const char *names[N_WARAPP_KEYS + 2];
    key_names(warapp_keys, N_WARAPP_KEYS, "defaults", names);
    cbd_reader r, settings;
    if (!cbd_reader_open(&r, value, "/warapp", names, problem)) {
        return false;
    }
    bool ok = true;
    cbd_field f = cbd_read_object(&r, "defaults", cbd_warapp_settings_keys, &settings);
    if (f == CBD_FIELD_OK) {
        ok = cbd_warapp_settings_read(&settings, &cfg->api.warapp.defaults);
    }
    ok &= f != CBD_FIELD_BAD;
    return cbdp_config_keys_read(&r, warapp_keys, N_WARAPP_KEYS, &cfg->api.warapp) && ok;
}

/*
 * No cbd_read_status here, unlike a request's readers: the one caller (main) stops the start on
 * any false and prints the problem, so the status tells memory apart instead (a 500 in the
 * words of cbd_status_str, as the file's buffer says it). Memory runs out only in jansson's
 * parse, which can also drop a digit without an error (json_alloc.h): its note is checked.
 */
bool cbd_config_load_text(cbd_settings *cfg, const char *text, size_t len, cbd_problem *problem) {
    json_error_t err;
    cbd_json_alloc_reset();
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (cbd_json_alloc_failed()) {
        json_decref(root);
        cbd_problem_set(problem, 500, "%s reading the configuration",
                        cbd_status_str(CBD_ERR_NOMEM));
        return false;
    }
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

bool cbd_config_load_file(cbd_settings *cfg, const char *path, cbd_problem *problem) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        char why[128];
        cbd_problem_set(problem, 500, "cannot open config file %s: %s", path,
                        error_text(errno, why, sizeof why));
        return false;
    }
    char *buf = malloc(CONFIG_FILE_MAX + 1);
    if (!buf) {
        fclose(f);
        cbd_problem_set(problem, 500, "%s reading %s", cbd_status_str(CBD_ERR_NOMEM), path);
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

/* Takes no memory (keys and values are read in place), so a false is always a refusal. */
bool cbd_config_apply_env(cbd_settings *cfg, char *const *envp, cbd_problem *problem) {
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
