/*
 * The docs' metrics and endpoints: every metric docs/operations.md's "Metrics" names is exposed
 * with its type (`# TYPE name counter|gauge|histogram`), no other combatd_ metric is exposed
 * undocumented, README's endpoint table lists every row of the endpoint table
 * (src/api/endpoints.h) and no other, docs/api/mcp.md's table every row's tool, and after one
 * request to each row (a POST with its sample, tests/support/endpoint_samples.h)
 * combatd_requests_total has the row's label as a route with the request counted once. The
 * docs are read from COMBATD_SOURCE_DIR, so an endpoint added without its rows or its sample
 * fails here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api/api.h"
#include "endpoint_samples.h"
#include "http_client.h"
#include "raw_http.h"

/* A file of the source tree (README.md, docs/...), whole; each call overwrites the last. */
static char *read_doc(const char *name) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The text of the section of a doc that starts with `heading`, up to the next heading. */
static void section(const char *readme, const char *heading, char *out, size_t size) {
    const char *p = strstr(readme, heading);
    cr_assert_not_null(p, "the doc has no %s", heading);
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

static char *get_metrics(uint16_t port) {
    test_response r;
    cr_assert_eq(test_request(port, "GET", "/metrics", NULL, NULL, 0, NULL, &r), 0);
    cr_assert_eq(r.status, 200);
    char *text = strdup(r.body);
    test_response_free(&r);
    return text;
}

/* Whether the exposition counts exactly one 200 on route `label` (at least one for /metrics,
 * which the polling below asks again and again). */
static bool counted_once(const char *text, const char *label) {
    char line[160];
    snprintf(line, sizeof line, "\ncombatd_requests_total{route=\"%s\",status=\"200\"} ", label);
    const char *p = strstr(text, line);
    if (!p) {
        return false;
    }
    long v = strtol(p + strlen(line), NULL, 10);
    return strcmp(label, "/metrics") == 0 ? v >= 1 : v == 1;
}

/* README's endpoint table lists the endpoint table's rows, each once, and nothing else. */
Test(metrics_docs, readmes_endpoint_table_lists_every_endpoint_of_the_table) {
    endpoint eps[32];
    size_t n = readme_endpoints(read_doc("README.md"), eps, 32);
    for (size_t i = 0; i < ENDPOINT_ROWS; i++) {
        const endpoint_row *row = &endpoint_rows[i];
        const char *method = endpoint_is_post(row) ? "POST" : "GET";
        size_t found = 0;
        for (size_t k = 0; k < n; k++) {
            found += strcmp(eps[k].method, method) == 0 && strcmp(eps[k].path, row->path) == 0;
        }
        cr_expect_eq(found, 1, "README's endpoint table lists `%s %s` %zu times", method, row->path,
                     found);
    }
    cr_expect_eq(n, ENDPOINT_ROWS, "README lists %zu endpoints, the table has %zu", n,
                 ENDPOINT_ROWS);
}

/* docs/api/mcp.md's table has a row `| `tool` | `POST path` |` for each row of the table with a
 * tool, the tool named after the path (without the leading '/', '/' and '-' as '_'). */
Test(metrics_docs, readmes_mcp_table_lists_every_tool) {
    static char text[16384];
    section(read_doc("docs/api/mcp.md"), "# MCP", text, sizeof text);
    size_t tools = 0, rows = 0;
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        if (!ep->tool.title) {
            continue;
        }
        char row[160];
        int n = snprintf(row, sizeof row, "\n| `");
        for (const char *p = ep->path + 1; *p && n + 1 < (int)sizeof row; p++) {
            row[n++] = *p == '/' || *p == '-' ? '_' : *p;
        }
        snprintf(row + n, sizeof row - (size_t)n, "` | `POST %s` |", ep->path);
        cr_expect_not_null(strstr(text, row), "docs/api/mcp.md's table has no row \"%s\"", row + 1);
        tools++;
    }
    for (const char *p = strstr(text, "\n| `"); p; p = strstr(p + 1, "\n| `")) {
        rows++;
    }
    cr_expect_eq(rows, tools, "docs/api/mcp.md's table has %zu rows, the table %zu tools", rows,
                 tools);
}

Test(metrics_docs, every_endpoint_is_its_route_label_after_one_request) {
    cbd_server *s = test_server_start_default();
    uint16_t port = cbd_server_port(s);
    for (size_t i = 0; i < ENDPOINT_ROWS; i++) {
        const endpoint_row *row = &endpoint_rows[i];
        const char *body = endpoint_is_post(row) ? endpoint_sample_of(row->path) : NULL;
        cr_assert(!endpoint_is_post(row) || body,
                  "no sample for POST %s in tests/support/endpoint_samples.h", row->path);
        test_response r;
        test_request(port, body ? "POST" : "GET", row->path, body ? "application/json" : NULL, body,
                     body ? strlen(body) : 0, NULL, &r);
        cr_expect_eq(r.status, 200, "%s: %ld %s", row->path, r.status, r.body);
        test_response_free(&r);
    }
    /* A request is counted when it has been sent: ask until every count shows (5 s). */
    char *text = NULL;
    bool all = false;
    for (double end = raw_now() + 5; !all && raw_now() < end;) {
        free(text);
        text = get_metrics(port);
        all = true;
        for (size_t i = 0; i < ENDPOINT_ROWS; i++) {
            all &= counted_once(text, endpoint_rows[i].label);
        }
        if (!all) {
            raw_sleep(0.02);
        }
    }
    for (size_t i = 0; i < ENDPOINT_ROWS; i++) {
        cr_expect(counted_once(text, endpoint_rows[i].label), "no route=\"%s\" counted once:\n%s",
                  endpoint_rows[i].label, text);
    }
    free(text);
    cbd_server_stop(s);
}

/* The type docs/operations.md gives a metric: "a histogram" in the words after it, a counter for a
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
    const char *readme = read_doc("docs/operations.md");
    static char text[8192];
    section(readme, "\n## Metrics\n", text, sizeof text);
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
    cr_expect_geq(documented, 5, "docs/operations.md names %zu metrics", documented);
    /* Every exposed combatd_ metric is one of them. */
    for (const char *t = strstr(exposed, "# TYPE "); t; t = strstr(t + 1, "# TYPE ")) {
        char name[96], plain[100], labelled[100];
        cr_assert_eq(sscanf(t + 7, "%95s", name), 1);
        snprintf(plain, sizeof plain, "`%s`", name);
        snprintf(labelled, sizeof labelled, "`%s{", name);
        cr_expect(strstr(text, plain) || strstr(text, labelled),
                  "%s is exposed but docs/operations.md does not name it", name);
    }
    free(exposed);
    cbd_server_stop(s);
}
