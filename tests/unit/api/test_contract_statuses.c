/*
 * The statuses openapi.yaml declares against the endpoint table (src/api/endpoints.h): an
 * endpoint with a cost estimate may run on the worker pool, where a full pool answers 503 and
 * the answer deadline (server.answer_deadline) a 504; one without runs on the HTTP thread and
 * answers neither of the pool's. Read from the contract the server serves (embedded.h), so that
 * a row that gains or loses its estimate, or a path that drops a status, fails here. /mcp
 * answers its problems in JSON-RPC (its envelope) and is not counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api/api.h"
#include "api/api_config.h"
#include "api/embedded.h"
#include "api/endpoint_support.h"

#define DEADLINE_REF "\"504\": {$ref: \"#/components/responses/DeadlinePassed\"}"

/* A copy of the contract's text from the path's line to the next path's (NUL-terminated; the
 * caller frees it), or NULL when the path is not there. */
static char *path_block(const char *path) {
    static char text[1 << 21];
    cr_assert_lt(cbd_asset_openapi_yaml_len, sizeof text);
    memcpy(text, cbd_asset_openapi_yaml, cbd_asset_openapi_yaml_len);
    text[cbd_asset_openapi_yaml_len] = '\0';
    char head[128];
    snprintf(head, sizeof head, "\n  %s:\n", path);
    char *at = strstr(text, head);
    if (!at) {
        return NULL;
    }
    char *end = strstr(at + strlen(head), "\n  /");
    size_t n = end ? (size_t)(end - at) : strlen(at);
    return strndup(at, n);
}

Test(contract_statuses, pool_endpoints_declare_503_and_504_the_rest_neither) {
    int pooled = 0, inline_only = 0;
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        if (!ep->handle || ep->envelope) {
            continue;
        }
        char *block = path_block(ep->path);
        cr_assert_not_null(block, "openapi.yaml has no path %s", ep->path);
        bool busy = strstr(block, "\n        \"503\":") != NULL;
        bool late = strstr(block, "\n        " DEADLINE_REF) != NULL;
        if (ep->cost) {
            pooled++;
            cr_expect(busy, "%s runs on the pool: openapi.yaml must declare its 503", ep->path);
            cr_expect(late, "%s runs on the pool: openapi.yaml must declare its 504", ep->path);
        } else {
            inline_only++;
            cr_expect(!late, "%s never runs on the pool: it has no 504", ep->path);
        }
        free(block);
    }
    /* The table as it is: 10 POST endpoints with an estimate, /duper/battle without one. */
    cr_expect_eq(pooled, 10);
    cr_expect_eq(inline_only, 1);
}

/* The 504's example is what a stop at the deadline answers with the shipped config. */
Test(contract_statuses, the_504_example_is_the_deadlines_problem) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_budget budget;
    cbd_budget_init(&budget, 1000, 1u << 20);
    cbd_budget_mark_stopped(&budget, CBD_BUDGET_DEADLINE, 0);
    cbd_problem problem;
    cbd_problem_init(&problem);
    cr_assert_not(cbd_api_core_problem(&cfg, &budget, CBD_ERR_BUDGET, "/trials", &problem));
    cr_expect_eq(problem.status, 504);
    cr_expect_eq(problem.n_errors, 0, "a deadline names no member");
    char example[700];
    snprintf(example, sizeof example,
             "example: {type: about:blank, title: Gateway Timeout, status: 504, detail: \"%s\", "
             "errors: []}",
             problem.detail);
    cr_expect(memmem(cbd_asset_openapi_yaml, cbd_asset_openapi_yaml_len, example,
                     strlen(example)) != NULL,
              "openapi.yaml's DeadlinePassed example is not %s", example);
    cr_expect(strstr(problem.detail, "(30 s)") != NULL, "%s", problem.detail);
}
