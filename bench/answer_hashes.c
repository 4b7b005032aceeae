/*
 * The answers of the api layer, one hash per input, so that a refactoring can prove it
 * changed no answer (issue 11: every answer stays byte-identical except on purpose).
 *
 *     answer_hashes DIR...
 *
 * Each DIR is named after a fuzz harness (tests/fuzz/seeds/<harness>/, or the corpora that
 * tests/fuzz/make_corpus.py writes): fuzz_analyze_attack, fuzz_simulate and fuzz_duper_battle
 * feed every file as a request body to that endpoint through cbd_api_run; fuzz_config loads
 * it as a config file and, for KEY=VALUE files, sets one server key. One line per input:
 *
 *     <harness>/<file> <status> <FNV-1a 64 of status, content type and body>
 *
 * sorted by name, then "overall <hash of the lines>". Answers must be deterministic: a 200
 * from a random endpoint to a request without a seed is run again with "seed": 1 added (the
 * line then ends in "+seed"). The limits are the fuzzers' (tests/fuzz/fuzz_endpoint.c), so
 * the large corpora run in seconds.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "config.h"

typedef struct {
    uint64_t h;
} fnv;

static void fnv_add(fnv *f, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        f->h = (f->h ^ p[i]) * UINT64_C(0x100000001b3);
    }
}

static void fnv_str(fnv *f, const char *s) {
    fnv_add(f, s, strlen(s) + 1); /* with the NUL, so "ab"+"c" differs from "a"+"bc" */
}

static char *read_all(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    fclose(fp);
    *len = n;
    return buf;
}

static void fuzz_limits(cbd_config *cfg) {
    cbd_config_defaults(cfg);
    cfg->warapp.max_distribution_points = 1000;
    cfg->warapp.max_graph_points = 100;
    cfg->warapp.max_targets = 8;
    cfg->warapp.max_trials = 1000;
    cfg->warapp.max_listed_battles = 10;
}

/* The body with "seed": 1 added when it is an object without a seed; NULL otherwise. */
static char *with_seed(const char *body, size_t len) {
    json_t *doc = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
    char *text = NULL;
    if (json_is_object(doc) && !json_object_get(doc, "seed")) {
        json_object_set_new(doc, "seed", json_integer(1));
        text = json_dumps(doc, JSON_COMPACT);
    }
    json_decref(doc);
    return text;
}

static int endpoint_line(const char *ep_path, const char *body, size_t len, char *line, size_t size,
                         const char *name) {
    static cbd_config cfg;
    static bool ready;
    if (!ready) {
        fuzz_limits(&cfg);
        ready = true;
    }
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(ep_path);
    if (!ep) {
        fprintf(stderr, "no endpoint %s\n", ep_path);
        return -1;
    }
    bool random = strcmp(ep_path, "/analyze-attack") != 0;
    cbd_api_reply reply;
    cbd_api_run(ep, &cfg, body, len, &reply);
    const char *tag = "";
    if (random && reply.status == 200) {
        char *seeded = with_seed(body, len);
        if (seeded) {
            cbd_api_reply_free(&reply);
            cbd_api_run(ep, &cfg, seeded, strlen(seeded), &reply);
            free(seeded);
            tag = " +seed";
        }
    }
    fnv f = {UINT64_C(0xcbf29ce484222325)};
    char status[16];
    snprintf(status, sizeof status, "%d", reply.status);
    fnv_str(&f, status);
    fnv_str(&f, reply.content_type ? reply.content_type : "");
    fnv_add(&f, reply.body ? reply.body : "", reply.body_len);
    snprintf(line, size, "%s %d %016" PRIx64 "%s", name, reply.status, f.h, tag);
    cbd_api_reply_free(&reply);
    return 0;
}

static void config_summary(fnv *f, bool ok, const cbd_config *cfg, const cbd_problem *p) {
    char text[4096];
    cbd_problem_to_text(p, text, sizeof text);
    fnv_str(f, ok ? "ok" : "bad");
    fnv_str(f, text);
    if (!ok) {
        return;
    }
    const cbd_server_config *s = &cfg->server;
    char buf[512];
    snprintf(buf, sizeof buf, "%s %u %u %" PRIu64 " %u %u %u %u %" PRIu64 " %u %d %zu", s->bind,
             s->port, s->threads, s->body_limit, s->connection_timeout, s->request_deadline,
             s->connection_limit, s->per_ip_connection_limit, s->connection_memory_limit,
             s->drain_deadline, s->access_log, s->n_cors_origins);
    fnv_str(f, buf);
    for (size_t i = 0; i < s->n_cors_origins; i++) {
        fnv_str(f, s->cors_origins[i]);
    }
    const cbd_warapp_config *w = &cfg->warapp;
    snprintf(buf, sizeof buf,
             "%" PRId64 " %" PRId64 " %" PRId64 " %d %d %" PRIu64 " %u %u %" PRIu64 " %u %" PRIu64
             " %" PRIu64,
             (int64_t)w->defaults.offense_kill_rate, (int64_t)w->defaults.defense_kill_rate,
             (int64_t)w->defaults.luck_modifier, (int)w->defaults.rounding,
             (int)w->defaults.one_army_must_stand_guard, w->army_cap, w->max_distribution_points,
             w->max_graph_points, w->max_graph_terms, w->max_targets, w->max_trials,
             w->max_listed_battles);
    fnv_str(f, buf);
    fnv_add(f, &cfg->duper, sizeof cfg->duper);
}

static void config_line(const char *body, size_t len, char *line, size_t size, const char *name) {
    fnv f = {UINT64_C(0xcbf29ce484222325)};
    cbd_config cfg;
    cbd_problem p;
    cbd_config_defaults(&cfg);
    cbd_problem_init(&p);
    bool ok = cbd_config_load_text(&cfg, body, len, &p);
    config_summary(&f, ok, &cfg, &p);
    const char *eq = memchr(body, '=', len);
    if (eq && len < 4096) {
        char *key = strndup(body, (size_t)(eq - body));
        char *value = strndup(eq + 1, len - (size_t)(eq - body) - 1);
        if (key && value) {
            cbd_config_defaults(&cfg);
            cbd_problem_init(&p);
            ok = cbd_config_set_server_key(&cfg, key, value, "fuzz", &p);
            config_summary(&f, ok, &cfg, &p);
        }
        free(key);
        free(value);
    }
    snprintf(line, size, "%s %s %016" PRIx64, name, ok ? "ok" : "bad", f.h);
}

static const char *endpoint_of(const char *harness) {
    if (strcmp(harness, "fuzz_analyze_attack") == 0) {
        return "/analyze-attack";
    }
    if (strcmp(harness, "fuzz_simulate") == 0) {
        return "/simulate";
    }
    if (strcmp(harness, "fuzz_duper_battle") == 0) {
        return "/duper/battle";
    }
    return NULL;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
    json_object_seed(1);
    size_t n = 0, cap = 1024;
    char **lines = malloc(cap * sizeof *lines);
    for (int a = 1; a < argc && lines; a++) {
        const char *dir = argv[a];
        const char *harness = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
        const char *ep = endpoint_of(harness);
        bool config = strcmp(harness, "fuzz_config") == 0;
        DIR *d = opendir(dir);
        if (!d || (!ep && !config)) {
            fprintf(stderr, "cannot use %s\n", dir);
            return 2;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.' || strcmp(e->d_name, "json.dict") == 0) {
                continue;
            }
            char path[4096], name[512], line[768];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            snprintf(name, sizeof name, "%s/%s", harness, e->d_name);
            size_t len = 0;
            char *body = read_all(path, &len);
            if (!body) {
                fprintf(stderr, "cannot read %s\n", path);
                return 2;
            }
            if (config) {
                config_line(body, len, line, sizeof line, name);
            } else if (endpoint_line(ep, body, len, line, sizeof line, name) != 0) {
                return 2;
            }
            free(body);
            if (n == cap) {
                cap *= 2;
                char **grown = realloc(lines, cap * sizeof *lines);
                if (!grown) {
                    return 2;
                }
                lines = grown;
            }
            lines[n++] = strdup(line);
        }
        closedir(d);
    }
    if (!lines) {
        return 2;
    }
    qsort(lines, n, sizeof *lines, cmp_str);
    fnv all = {UINT64_C(0xcbf29ce484222325)};
    for (size_t i = 0; i < n; i++) {
        printf("%s\n", lines[i]);
        fnv_str(&all, lines[i]);
        free(lines[i]);
    }
    free(lines);
    printf("overall %016" PRIx64 " (%zu inputs)\n", all.h, n);
    return 0;
}
