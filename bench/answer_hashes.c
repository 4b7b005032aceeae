/*
 * The answers of the api layer, one hash per input, so that a refactoring can prove it
 * changed no answer (every answer stays byte-identical except on purpose).
 *
 *     answer_hashes SEEDS_DIR
 *
 * SEEDS_DIR (tests/fuzz/seeds, or the corpora that tests/fuzz/make_corpus.py writes) holds a
 * folder per fuzz harness. Every POST endpoint of CBD_ENDPOINT_TABLE has one, named as
 * scripts/endpoints.sh names it (fuzz_ and the path with '/' and '-' as '_'), and each of its
 * files is sent as a request body through cbd_api_run; fuzz_config's files are loaded as a
 * config file and, for KEY=VALUE files, set one server key. One line per input:
 *
 *     <harness>/<file> <status> <FNV-1a 64 of status, content type and body>
 *
 * sorted by name, then "overall <hash of the lines>". Answers must be deterministic: a 200
 * that differs when the same body is sent again (a seed drawn from the OS) is run again with
 * "seed": 1 added (the line then ends in "+seed"). The check fails (exit 2) when an endpoint
 * has no folder, or its seeds do not include both a 200 and a refusal, so that every endpoint's
 * successful answers are pinned. The limits are the fuzzers' (tests/fuzz/fuzz_endpoint.c), so
 * the large corpora run in seconds.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/api.h"
#include "config/config.h"

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

/* The reply's hash: status, content type and body. */
static uint64_t reply_hash(const cbd_api_reply *reply) {
    fnv f = {UINT64_C(0xcbf29ce484222325)};
    char status[16];
    snprintf(status, sizeof status, "%d", reply->status);
    fnv_str(&f, status);
    fnv_str(&f, reply->content_type ? reply->content_type : "");
    fnv_add(&f, reply->body ? reply->body : "", reply->body_len);
    return f.h;
}

static const cbd_config *fuzz_config(void) {
    static cbd_config cfg;
    static bool ready;
    if (!ready) {
        fuzz_limits(&cfg);
        ready = true;
    }
    return &cfg;
}

/* The line of one body; *status gets the answer's status. */
static void endpoint_line(const cbd_api_endpoint *ep, const char *body, size_t len, char *line,
                          size_t size, const char *name, int *status) {
    cbd_api_reply reply;
    cbd_api_run(ep, fuzz_config(), body, len, &reply);
    uint64_t h = reply_hash(&reply);
    const char *tag = "";
    if (reply.status == 200) {
        cbd_api_reply again;
        cbd_api_run(ep, fuzz_config(), body, len, &again);
        char *seeded = reply_hash(&again) != h ? with_seed(body, len) : NULL;
        cbd_api_reply_free(&again);
        if (seeded) { /* a seed drawn from the OS: pin one instead */
            cbd_api_reply_free(&reply);
            cbd_api_run(ep, fuzz_config(), seeded, strlen(seeded), &reply);
            h = reply_hash(&reply);
            free(seeded);
            tag = " +seed";
        }
    }
    *status = reply.status;
    snprintf(line, size, "%s %d %016" PRIx64 "%s", name, reply.status, h, tag);
    cbd_api_reply_free(&reply);
}

static void config_summary(fnv *f, bool ok, const cbd_settings *cfg, const cbd_problem *p) {
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
    const cbd_warapp_config *w = &cfg->api.warapp;
    snprintf(buf, sizeof buf,
             "%" PRId64 " %" PRId64 " %" PRId64 " %d %d %" PRIu64 " %u %u %" PRIu64 " %u %" PRIu64
             " %" PRIu64,
             (int64_t)w->defaults.offense_kill_rate, (int64_t)w->defaults.defense_kill_rate,
             (int64_t)w->defaults.luck_modifier, (int)w->defaults.rounding,
             (int)w->defaults.one_army_must_stand_guard, w->army_cap, w->max_distribution_points,
             w->max_graph_points, w->max_graph_terms, w->max_targets, w->max_trials,
             w->max_listed_battles);
    fnv_str(f, buf);
    fnv_add(f, &cfg->api.duper, sizeof cfg->api.duper);
}

static void config_line(const char *body, size_t len, char *line, size_t size, const char *name) {
    fnv f = {UINT64_C(0xcbf29ce484222325)};
    cbd_settings cfg;
    cbd_problem p;
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    bool ok = cbd_config_load_text(&cfg, body, len, &p);
    config_summary(&f, ok, &cfg, &p);
    const char *eq = memchr(body, '=', len);
    if (eq && len < 4096) {
        char *key = strndup(body, (size_t)(eq - body));
        char *value = strndup(eq + 1, len - (size_t)(eq - body) - 1);
        if (key && value) {
            cbd_settings_defaults(&cfg);
            cbd_problem_init(&p);
            ok = cbd_config_set_server_key(&cfg, key, value, "fuzz", &p);
            config_summary(&f, ok, &cfg, &p);
        }
        free(key);
        free(value);
    }
    snprintf(line, size, "%s %s %016" PRIx64, name, ok ? "ok" : "bad", f.h);
}

/* The POST endpoint whose harness folder is `harness` (scripts/endpoints.sh's naming). */
static const cbd_api_endpoint *endpoint_of(const char *harness) {
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        char name[128];
        snprintf(name, sizeof name, "fuzz%s", ep->path);
        for (char *c = name; *c; c++) {
            *c = *c == '/' || *c == '-' ? '_' : *c;
        }
        if (ep->handle && strcmp(name, harness) == 0) {
            return ep;
        }
    }
    return NULL;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
    char **lines;
    size_t n, cap;
} line_list;

static bool add_line(line_list *l, const char *line) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        char **grown = realloc(l->lines, cap * sizeof *grown);
        if (!grown) {
            return false;
        }
        l->lines = grown;
        l->cap = cap;
    }
    return (l->lines[l->n++] = strdup(line)) != NULL;
}

/* The lines of one harness folder; false when it cannot be read or an endpoint's seeds do not
 * hold both a 200 and a refusal. */
static bool harness_lines(const char *root, const char *harness, line_list *out) {
    const cbd_api_endpoint *ep = endpoint_of(harness);
    bool config = strcmp(harness, "fuzz_config") == 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, harness);
    DIR *d = opendir(dir);
    if (!d || (!ep && !config)) {
        fprintf(stderr, "answer_hashes: cannot use %s (no such folder, or no such endpoint)\n",
                dir);
        if (d) {
            closedir(d);
        }
        return false;
    }
    unsigned ok = 0, refused = 0;
    struct dirent *e;
    bool good = true;
    while (good && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "json.dict") == 0) {
            continue;
        }
        char path[8192], name[512], line[768];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(name, sizeof name, "%s/%s", harness, e->d_name);
        size_t len = 0;
        char *body = read_all(path, &len);
        if (!body) {
            fprintf(stderr, "answer_hashes: cannot read %s\n", path);
            good = false;
            break;
        }
        int status = 0;
        if (config) {
            config_line(body, len, line, sizeof line, name);
        } else {
            endpoint_line(ep, body, len, line, sizeof line, name, &status);
            ok += status == 200;
            refused += status != 200;
        }
        free(body);
        good = add_line(out, line);
    }
    closedir(d);
    if (good && ep && (ok == 0 || refused == 0)) {
        fprintf(stderr, "answer_hashes: %s needs seeds answered 200 and refused (has %u, %u)\n",
                harness, ok, refused);
        good = false;
    }
    return good;
}

int main(int argc, char **argv) {
    json_object_seed(1);
    if (argc != 2) {
        fprintf(stderr, "usage: answer_hashes SEEDS_DIR\n");
        return 2;
    }
    line_list l = {0};
    bool good = harness_lines(argv[1], "fuzz_config", &l);
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; good && ep->path; ep++) {
        if (!ep->handle) {
            continue;
        }
        char harness[128];
        snprintf(harness, sizeof harness, "fuzz%s", ep->path);
        for (char *c = harness; *c; c++) {
            *c = *c == '/' || *c == '-' ? '_' : *c;
        }
        good = harness_lines(argv[1], harness, &l);
    }
    if (!good) {
        return 2;
    }
    qsort(l.lines, l.n, sizeof *l.lines, cmp_str);
    fnv all = {UINT64_C(0xcbf29ce484222325)};
    for (size_t i = 0; i < l.n; i++) {
        printf("%s\n", l.lines[i]);
        fnv_str(&all, l.lines[i]);
        free(l.lines[i]);
    }
    free(l.lines);
    printf("overall %016" PRIx64 " (%zu inputs)\n", all.h, l.n);
    return 0;
}
