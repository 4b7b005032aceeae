/*
 * README "Metrics" and "Endpoints": every metric the README names is exposed with its type
 * (`# TYPE name counter|gauge|histogram`), no other combatd_ metric is exposed undocumented,
 * and after one request to each endpoint row of the README's table, combatd_requests_total has
 * that endpoint's path as its route label with the request counted once. README is read from
 * COMBATD_SOURCE_DIR, so a row added there without its route (or a route whose label changes)
 * fails here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"
#include "raw_http.h"

static char *read_readme(void) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", dir ? dir : ".");
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The text of the README section that starts with `heading`, up to the next heading. */
static void section(const char *readme, const char *heading, char *out, size_t size) {
    const char *p = strstr(readme, heading);
    cr_assert_not_null(p, "README has no %s", heading);
    const char *end = strstr(p + strlen(heading), "\n#");
    size_t len = end ? (size_t)(end - p) : strlen(p);
    cr_assert_lt(len, size);
    memcpy(out, p, len);
    out[len] = '\0';
}

typedef struct {
    char method[8], path[64];
} endpoint;

/* The `METHOD /path` tokens of the first cells of README's endpoint table. */
static size_t readme_endpoints(const char *readme, endpoint *out, size_t max) {
    static char text[16384];
    section(readme, "\n## Endpoints\n", text, sizeof text);
    size_t n = 0;
    for (const char *line = strstr(text, "\n| `"); line; line = strstr(line + 1, "\n| `")) {
        const char *cell_end = strchr(line + 2, '|');
        for (const char *t = strchr(line + 2, '`'); t && t < cell_end; t = strchr(t + 1, '`')) {
            endpoint e;
            if (sscanf(t + 1, "%7[A-Z] %63[^`]", e.method, e.path) == 2) {
                cr_assert_lt(n, max);
                out[n++] = e;
            }
            t = strchr(t + 1, '`'); /* the closing tick */
            if (!t) {
                break;
            }
        }
    }
    return n;
}

/* A valid body for each POST endpoint; a POST row with none here fails the test. */
static const struct {
    const char *path, *body;
} post_bodies[] = {
    {"/analyze-attack", "{\"attackers\": 10, \"defenders\": 5}"},
    {"/simulate", "{\"attackers\": 10, \"defenders\": 5, \"seed\": 1}"},
    {"/analyze-turn", "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10},"
                      " \"B\": {\"owner\": \"bob\", \"armies\": 3}},"
                      " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\","
                      " \"armies\": 9}]}"},
    {"/simulate-turn", "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 10},"
                       " \"B\": {\"owner\": \"bob\", \"armies\": 3}},"
                       " \"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\","
                       " \"armies\": 9}], \"seed\": 1}"},
    {"/duper/battle",
     "{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"soldier\": 5}}},"
     " \"defense\": {\"player\": \"blue\", \"tile\": {\"level\": 1, \"units\": {\"soldier\": 1}}},"
     " \"seed\": 1}"},
    {"/duper/board/battle",
     "{\"board\": {\"tiles\": {\"a\": {\"owner\": \"red\", \"units\": {\"soldier\": 5}},"
     " \"b\": {\"owner\": \"blue\", \"units\": {\"soldier\": 1}}}, \"adjacent\": [[\"a\", \"b\"]]},"
     " \"attacks\": [{\"from\": \"a\", \"to\": \"b\"}], \"seed\": 1}"},
    {"/duper/board/options",
     "{\"board\": {\"tiles\": {\"a\": {\"owner\": \"red\", \"units\": {\"soldier\": 5}},"
     " \"b\": {\"owner\": \"blue\", \"units\": {\"soldier\": 1}}}, \"adjacent\": [[\"a\", \"b\"]]},"
     " \"player\": \"red\"}"},
    {"/mcp", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}"},
};

static const char *body_for(const char *path) {
    for (size_t i = 0; i < sizeof post_bodies / sizeof post_bodies[0]; i++) {
        if (strcmp(post_bodies[i].path, path) == 0) {
            return post_bodies[i].body;
        }
    }
    return NULL;
}

static char *get_metrics(uint16_t port) {
    test_response r;
    cr_assert_eq(test_request(port, "GET", "/metrics", NULL, NULL, 0, NULL, &r), 0);
    cr_assert_eq(r.status, 200);
    char *text = strdup(r.body);
    test_response_free(&r);
    return text;
}

/* Whether the exposition counts exactly one 200 on `path` (at least one for /metrics, which
 * the polling below asks again and again). */
static bool counted_once(const char *text, const char *path) {
    char line[160];
    snprintf(line, sizeof line, "\ncombatd_requests_total{route=\"%s\",status=\"200\"} ", path);
    const char *p = strstr(text, line);
    if (!p) {
        return false;
    }
    long v = strtol(p + strlen(line), NULL, 10);
    return strcmp(path, "/metrics") == 0 ? v >= 1 : v == 1;
}

Test(metrics_docs, every_endpoint_row_is_a_route_label_after_one_request) {
    const char *readme = read_readme();
    endpoint eps[32];
    size_t n = readme_endpoints(readme, eps, 32);
    cr_assert_geq(n, 12, "README's endpoint table: %zu endpoints", n);
    cbd_server *s = test_server_start_default();
    uint16_t port = cbd_server_port(s);
    for (size_t i = 0; i < n; i++) {
        const char *body = strcmp(eps[i].method, "POST") == 0 ? body_for(eps[i].path) : NULL;
        cr_assert(strcmp(eps[i].method, "POST") != 0 || body, "no body here for POST %s",
                  eps[i].path);
        test_response r;
        test_request(port, eps[i].method, eps[i].path, body ? "application/json" : NULL, body,
                     body ? strlen(body) : 0, NULL, &r);
        cr_expect_eq(r.status, 200, "%s %s: %ld %s", eps[i].method, eps[i].path, r.status, r.body);
        test_response_free(&r);
    }
    /* A request is counted when it has been sent: ask until every count shows (5 s). */
    char *text = NULL;
    bool all = false;
    for (double end = raw_now() + 5; !all && raw_now() < end;) {
        free(text);
        text = get_metrics(port);
        all = true;
        for (size_t i = 0; i < n; i++) {
            all &= counted_once(text, eps[i].path);
        }
        if (!all) {
            raw_sleep(0.02);
        }
    }
    for (size_t i = 0; i < n; i++) {
        cr_expect(counted_once(text, eps[i].path), "no route=\"%s\" counted once:\n%s", eps[i].path,
                  text);
    }
    free(text);
    cbd_server_stop(s);
}

/* The type README gives a metric: "a histogram" in the words after it, a counter for a
 * `_total` name, a gauge otherwise. */
static const char *documented_type(const char *name, const char *after) {
    const char *next = strstr(after, "`combatd_");
    const char *hist = strstr(after, "a histogram");
    if (hist && (!next || hist < next)) {
        return "histogram";
    }
    size_t len = strlen(name);
    return len > 6 && strcmp(name + len - 6, "_total") == 0 ? "counter" : "gauge";
}

Test(metrics_docs, every_documented_metric_is_exposed_with_its_type_and_no_other) {
    const char *readme = read_readme();
    static char text[8192];
    section(readme, "\n### Metrics\n", text, sizeof text);
    cbd_server *s = test_server_start_default();
    char *exposed = get_metrics(cbd_server_port(s));
    size_t documented = 0;
    for (const char *p = strstr(text, "`combatd_"); p; p = strstr(p + 1, "`combatd_")) {
        char name[96];
        cr_assert_eq(sscanf(p + 1, "%95[a-z_]", name), 1);
        char want[160];
        snprintf(want, sizeof want, "\n# TYPE %s %s\n", name,
                 documented_type(name, p + 1 + strlen(name)));
        cr_expect(strstr(exposed, want) != NULL, "no \"%s\" in:\n%s", want + 1, exposed);
        documented++;
    }
    cr_expect_geq(documented, 5, "README names %zu metrics", documented);
    /* Every exposed combatd_ metric is one of them. */
    for (const char *t = strstr(exposed, "# TYPE "); t; t = strstr(t + 1, "# TYPE ")) {
        char name[96], plain[100], labelled[100];
        cr_assert_eq(sscanf(t + 7, "%95s", name), 1);
        snprintf(plain, sizeof plain, "`%s`", name);
        snprintf(labelled, sizeof labelled, "`%s{", name);
        cr_expect(strstr(text, plain) || strstr(text, labelled),
                  "%s is exposed but README does not name it", name);
    }
    free(exposed);
    cbd_server_stop(s);
}
