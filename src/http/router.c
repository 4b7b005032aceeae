#include "router.h"

#include <string.h>

static const cbd_route_info routes[CBD_ROUTE_COUNT] = {
    [CBD_ROUTE_ANALYZE] = {"/analyze-attack", CBD_ROUTE_POST_JSON},
    [CBD_ROUTE_SIMULATE] = {"/simulate", CBD_ROUTE_POST_JSON},
    [CBD_ROUTE_DUPER] = {"/duper/battle", CBD_ROUTE_POST_JSON},
    [CBD_ROUTE_LIVEZ] = {"/livez", CBD_ROUTE_GET},
    [CBD_ROUTE_READYZ] = {"/readyz", CBD_ROUTE_GET},
    [CBD_ROUTE_METRICS] = {"/metrics", CBD_ROUTE_GET},
    [CBD_ROUTE_OPENAPI] = {"/openapi.yaml", CBD_ROUTE_GET},
    [CBD_ROUTE_PAGE] = {"/", CBD_ROUTE_GET},
    [CBD_ROUTE_NOT_FOUND] = {"", CBD_ROUTE_GET},
};

const char *const cbd_route_names[CBD_ROUTE_COUNT] = {
    "/analyze-attack", "/simulate", "/duper/battle", "/livez", "/readyz", "/metrics",
    "/openapi.yaml",   "/",         "other",
};

cbd_route cbd_route_find(const char *url) {
    for (int r = 0; r < CBD_ROUTE_NOT_FOUND; r++) {
        if (strcmp(url, routes[r].path) == 0) {
            return (cbd_route)r;
        }
    }
    return CBD_ROUTE_NOT_FOUND;
}

const cbd_route_info *cbd_route_info_of(cbd_route route) {
    return &routes[route];
}
