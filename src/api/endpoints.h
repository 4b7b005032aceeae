#ifndef COMBATD_API_ENDPOINTS_H
#define COMBATD_API_ENDPOINTS_H

/*
 * Every endpoint of the service, one row each: the one place that says which paths exist,
 * which methods each takes, who answers it and how metrics label it (issue 11).
 *
 *   ROW(path, allow, post, cost, get, label)
 *     path   the URL path, matched exactly (query strings are not part of it in MHD)
 *     allow  the Allow header: CBD_ALLOW_POST or CBD_ALLOW_GET (405 and OPTIONS answer it)
 *     post   the api handler of a POST endpoint (cbd_endpoint_fn, api.h), or NULL
 *     cost   the estimate of a parsed request's cost in nanoseconds of one core (cbd_cost_fn,
 *            api.h), or NULL for an endpoint that is always cheap; above
 *            server.inline_cost_ns a request runs on the worker pool (src/http/worker.c)
 *     get    the http layer's handler of a GET resource (cbd_get_fn, router.h), or NULL
 *     label  the `route` label of combatd_requests_total
 *
 * Each layer expands the rows with the columns it serves: api.c builds the path -> handler
 * table that callers without a server use (fuzzers, benchmarks, tests: cbd_api_find_endpoint),
 * and router.c builds the route table that routing, the api dispatch and the metrics read.
 * The `get` names are only tokens here: api.c drops that column, so the api layer never
 * refers to anything of the http layer (nor includes microhttpd), while the facts stay in one
 * row. Adding an endpoint is one row here, its handler (declared in api.h), tests and the
 * contract (openapi.yaml).
 */
#define CBD_ALLOW_POST "POST, OPTIONS"
#define CBD_ALLOW_GET  "GET, HEAD, OPTIONS"

/* clang-format off */
#define CBD_ENDPOINT_TABLE(ROW)                                                                    \
    ROW("/analyze-attack", CBD_ALLOW_POST, cbd_api_analyze_attack, cbd_api_analyze_attack_cost,    \
        NULL, "/analyze-attack")                                                                   \
    ROW("/simulate", CBD_ALLOW_POST, cbd_api_simulate, cbd_api_simulate_cost, NULL, "/simulate")   \
    ROW("/analyze-turn", CBD_ALLOW_POST, cbd_api_analyze_turn, cbd_api_analyze_turn_cost, NULL,    \
        "/analyze-turn")                                                                           \
    ROW("/simulate-turn", CBD_ALLOW_POST, cbd_api_simulate_turn, cbd_api_simulate_turn_cost, NULL, \
        "/simulate-turn")                                                                          \
    ROW("/duper/battle", CBD_ALLOW_POST, cbd_api_duper_battle, NULL, NULL, "/duper/battle")        \
    ROW("/duper/board/battle", CBD_ALLOW_POST, cbd_api_duper_board_battle,                         \
        cbd_api_duper_board_battle_cost, NULL, "/duper/board/battle")                              \
    ROW("/duper/board/options", CBD_ALLOW_POST, cbd_api_duper_board_options,                       \
        cbd_api_duper_board_options_cost, NULL, "/duper/board/options")                            \
    ROW("/livez", CBD_ALLOW_GET, NULL, NULL, cbd_http_get_livez, "/livez")                         \
    ROW("/readyz", CBD_ALLOW_GET, NULL, NULL, cbd_http_get_readyz, "/readyz")                      \
    ROW("/metrics", CBD_ALLOW_GET, NULL, NULL, cbd_http_get_metrics, "/metrics")                   \
    ROW("/openapi.yaml", CBD_ALLOW_GET, NULL, NULL, cbd_http_get_openapi, "/openapi.yaml")         \
    ROW("/", CBD_ALLOW_GET, NULL, NULL, cbd_http_get_page, "/")
/* clang-format on */

#endif
