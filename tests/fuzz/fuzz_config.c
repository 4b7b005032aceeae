/*
 * libFuzzer harness for the config loader: raw bytes as a config file's text
 * (cbd_config_load_text, as cbd_config_load_file uses it), and, when the input holds an '=',
 * the part before it as a server key and the rest as its value (cbd_config_set_server_key,
 * as the environment and the flags use it).
 *
 * Checks: a failure always carries a problem that renders as text; a success leaves every
 * server setting inside its documented range.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config/config.h"

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed: %s\n", #cond);                                     \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    json_object_seed(1);
    return 0;
}

static void check_ranges(const cbd_settings *cfg) {
    const cbd_server_config *s = &cfg->server;
    CHECK(s->port <= 65535);
    CHECK(s->threads <= 256);
    CHECK(s->body_limit >= 64 && s->body_limit <= 64 * 1024 * 1024);
    CHECK(s->connection_timeout >= 1 && s->connection_timeout <= 3600);
    CHECK(s->request_deadline >= 1 && s->request_deadline <= 3600);
    CHECK(s->connection_limit >= 1);
    CHECK(s->n_cors_origins <= CBD_MAX_CORS_ORIGINS);
    CHECK(memchr(s->bind, '\0', sizeof s->bind) != NULL);
    for (size_t i = 0; i < s->n_cors_origins; i++) {
        CHECK(memchr(s->cors_origins[i], '\0', sizeof s->cors_origins[i]) != NULL);
    }
    CHECK(cfg->api.warapp.army_cap >= 1 && cfg->api.warapp.army_cap <= 1000000000u);
}

static void check_problem(bool ok, const cbd_problem *p) {
    CHECK(ok == (p->status == 0));
    char text[4096];
    cbd_problem_to_text(p, text, sizeof text);
    CHECK(memchr(text, '\0', sizeof text) != NULL);
    if (!ok) {
        json_t *doc = cbd_problem_to_json(p);
        CHECK(doc != NULL);
        json_decref(doc);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cbd_settings cfg;
    cbd_problem p;
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    bool ok = cbd_config_load_text(&cfg, (const char *)data, size, &p);
    check_problem(ok, &p);
    if (ok) {
        check_ranges(&cfg);
    }

    const uint8_t *eq = memchr(data, '=', size);
    if (eq && size < 4096) {
        char *key = strndup((const char *)data, (size_t)(eq - data));
        char *value = strndup((const char *)eq + 1, size - (size_t)(eq - data) - 1);
        if (key && value) {
            cbd_settings_defaults(&cfg);
            cbd_problem_init(&p);
            ok = cbd_config_set_server_key(&cfg, key, value, "fuzz", &p);
            check_problem(ok, &p);
            check_ranges(&cfg);
        }
        free(key);
        free(value);
    }
    return 0;
}
