#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duper_rules_json.h"
#include "json_reader.h"
#include "warapp_settings.h"

/* The config file itself is small; a larger one is a mistake, not a config. */
#define CONFIG_FILE_MAX (1024 * 1024)

typedef enum { KEY_U32, KEY_U64, KEY_BOOL, KEY_STRING, KEY_ORIGINS } key_type;

/* The server keys, shared by the file, the environment and the flags so that each is
 * described (type, range) once. */
typedef struct {
    const char *name;
    key_type type;
    size_t offset;
    uint64_t min, max;
} server_key;

#define SK(field, type, lo, hi)                                                                    \
    { #field, type, offsetof(cbd_server_config, field), lo, hi }
static const server_key server_keys[] = {
    SK(bind, KEY_STRING, 0, 0),
    SK(port, KEY_U32, 0, 65535),
    SK(threads, KEY_U32, 0, 256),
    SK(body_limit, KEY_U64, 64, 64 * 1024 * 1024),
    SK(connection_timeout, KEY_U32, 1, 3600),
    SK(request_deadline, KEY_U32, 1, 3600),
    SK(connection_limit, KEY_U32, 1, 1000000),
    SK(per_ip_connection_limit, KEY_U32, 0, 1000000),
    SK(connection_memory_limit, KEY_U64, 4096, 64 * 1024 * 1024),
    SK(drain_deadline, KEY_U32, 0, 3600),
    SK(access_log, KEY_BOOL, 0, 1),
    SK(cors_origins, KEY_ORIGINS, 0, 0),
};
#undef SK
#define N_SERVER_KEYS (sizeof server_keys / sizeof server_keys[0])

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

    cbd_warapp_config *w = &cfg->warapp;
    w->defaults = cbd_warapp_default_settings();
    w->army_cap = CBD_WARAPP_MAX_ARMIES;
    w->max_distribution_points = 10000;
    w->max_graph_points = 10000;
    w->max_graph_terms = 20000000; /* about 0.2 s of one core */
    w->max_targets = 32;
    w->max_trials = 10000000;
    w->max_listed_battles = 1000;

    cfg->duper = cbd_duper_default_rules();
}

static const server_key *find_server_key(const char *name) {
    for (size_t i = 0; i < N_SERVER_KEYS; i++) {
        if (strcmp(server_keys[i].name, name) == 0) {
            return &server_keys[i];
        }
    }
    return NULL;
}

static bool add_origin(cbd_server_config *s, const char *origin, size_t len) {
    if (len == 0 || len >= sizeof s->cors_origins[0] || s->n_cors_origins == CBD_MAX_CORS_ORIGINS) {
        return false;
    }
    memcpy(s->cors_origins[s->n_cors_origins], origin, len);
    s->cors_origins[s->n_cors_origins][len] = '\0';
    s->n_cors_origins++;
    return true;
}

static void store_number(cbd_server_config *s, const server_key *k, uint64_t v) {
    char *field = (char *)s + k->offset;
    if (k->type == KEY_U32) {
        *(uint32_t *)(void *)field = (uint32_t)v;
    } else {
        *(uint64_t *)(void *)field = v;
    }
}

bool cbd_config_set_server_key(cbd_config *cfg, const char *key, const char *value,
                               const char *source, cbd_problem *problem) {
    const server_key *k = find_server_key(key);
    cbd_server_config *s = &cfg->server;
    if (!k) {
        cbd_problem_field(problem, source, "is not a known setting");
        return false;
    }
    switch (k->type) {
        case KEY_STRING:
            if (value[0] == '\0' || strlen(value) >= sizeof s->bind) {
                cbd_problem_field(problem, source,
                                  "must be a non-empty address of at most %zu bytes",
                                  sizeof s->bind - 1);
                return false;
            }
            snprintf(s->bind, sizeof s->bind, "%s", value);
            return true;
        case KEY_BOOL:
            if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0) {
                s->access_log = true;
            } else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0) {
                s->access_log = false;
            } else {
                cbd_problem_field(problem, source, "must be true or false, not \"%s\"", value);
                return false;
            }
            return true;
        case KEY_ORIGINS: {
            s->n_cors_origins = 0;
            const char *start = value;
            while (*start) {
                const char *end = strchr(start, ',');
                size_t len = end ? (size_t)(end - start) : strlen(start);
                if (!add_origin(s, start, len)) {
                    cbd_problem_field(problem, source,
                                      "must be a comma-separated list of at most %d origins",
                                      CBD_MAX_CORS_ORIGINS);
                    return false;
                }
                start += len + (end ? 1 : 0);
            }
            return true;
        }
        case KEY_U32:
        case KEY_U64: {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(value, &end, 10);
            if (!isdigit((unsigned char)value[0]) || *end != '\0' || errno != 0 || v < k->min ||
                v > k->max) {
                cbd_problem_field(problem, source,
                                  "must be a whole number from %" PRIu64 " to %" PRIu64
                                  ", not \"%s\"",
                                  k->min, k->max, value);
                return false;
            }
            store_number(s, k, (uint64_t)v);
            return true;
        }
    }
    return false;
}

static void read_server(const json_t *value, cbd_config *cfg, cbd_problem *problem) {
    const char *names[N_SERVER_KEYS + 1];
    for (size_t i = 0; i < N_SERVER_KEYS; i++) {
        names[i] = server_keys[i].name;
    }
    names[N_SERVER_KEYS] = NULL;
    cbd_reader r;
    if (!cbd_reader_open(&r, value, "/server", names, problem)) {
        return;
    }
    cbd_server_config *s = &cfg->server;
    for (size_t i = 0; i < N_SERVER_KEYS; i++) {
        const server_key *k = &server_keys[i];
        uint64_t v;
        const char *str;
        const json_t *arr;
        switch (k->type) {
            case KEY_U32:
            case KEY_U64:
                if (cbd_read_u64(&r, k->name, k->min, k->max, &v) == CBD_FIELD_OK) {
                    store_number(s, k, v);
                }
                break;
            case KEY_BOOL:
                (void)cbd_read_bool(&r, k->name, &s->access_log);
                break;
            case KEY_STRING:
                if (cbd_read_string(&r, k->name, sizeof s->bind - 1, &str) == CBD_FIELD_OK) {
                    snprintf(s->bind, sizeof s->bind, "%s", str);
                }
                break;
            case KEY_ORIGINS:
                if (cbd_read_array(&r, k->name, CBD_MAX_CORS_ORIGINS, &arr) == CBD_FIELD_OK) {
                    s->n_cors_origins = 0;
                    for (size_t j = 0; j < json_array_size(arr); j++) {
                        const json_t *o = json_array_get(arr, j);
                        if (!json_is_string(o) ||
                            !add_origin(s, json_string_value(o), json_string_length(o))) {
                            char ptr[64];
                            snprintf(ptr, sizeof ptr, "/server/cors_origins/%zu", j);
                            cbd_problem_field(problem, ptr,
                                              "must be an origin such as \"https://example.org\" "
                                              "or \"*\", of at most 127 bytes");
                        }
                    }
                }
                break;
        }
    }
}

static void read_warapp(const json_t *value, cbd_config *cfg, cbd_problem *problem) {
    static const char *const names[] = {
        "defaults",         "army_cap",           "max_distribution_points",
        "max_graph_points", "max_graph_terms",    "max_targets",
        "max_trials",       "max_listed_battles", NULL};
    cbd_reader r, settings;
    if (!cbd_reader_open(&r, value, "/warapp", names, problem)) {
        return;
    }
    cbd_warapp_config *w = &cfg->warapp;
    if (cbd_read_object(&r, "defaults", cbd_warapp_settings_keys, &settings) == CBD_FIELD_OK) {
        cbd_warapp_settings_read(&settings, &w->defaults);
    }
    uint64_t v;
    (void)cbd_read_u64(&r, "army_cap", 1, CBD_WARAPP_MAX_ARMIES, &w->army_cap);
    if (cbd_read_u64(&r, "max_distribution_points", 1, 1000000, &v) == CBD_FIELD_OK) {
        w->max_distribution_points = (uint32_t)v;
    }
    if (cbd_read_u64(&r, "max_graph_points", 1, 10000, &v) == CBD_FIELD_OK) {
        w->max_graph_points = (uint32_t)v;
    }
    (void)cbd_read_u64(&r, "max_graph_terms", 1000, UINT64_C(10000000000), &w->max_graph_terms);
    if (cbd_read_u64(&r, "max_targets", 1, 100, &v) == CBD_FIELD_OK) {
        w->max_targets = (uint32_t)v;
    }
    (void)cbd_read_u64(&r, "max_trials", 1, 1000000000, &w->max_trials);
    (void)cbd_read_u64(&r, "max_listed_battles", 0, 100000, &w->max_listed_battles);
}

bool cbd_config_load_text(cbd_config *cfg, const char *text, size_t len, cbd_problem *problem) {
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        cbd_problem_set(problem, 400, "line %d, column %d: %s", err.line, err.column, err.text);
        return false;
    }
    static const char *const names[] = {"server", "warapp", "duper", NULL};
    cbd_reader r, duper;
    if (cbd_reader_open(&r, root, "", names, problem)) {
        const json_t *section;
        if ((section = json_object_get(root, "server")) != NULL) {
            read_server(section, cfg, problem);
        }
        if ((section = json_object_get(root, "warapp")) != NULL) {
            read_warapp(section, cfg, problem);
        }
        if (cbd_read_object(&r, "duper", cbd_duper_rules_keys, &duper) == CBD_FIELD_OK) {
            cbd_duper_rules_read(&duper, &cfg->duper);
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
