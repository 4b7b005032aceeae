#include "router.h"

#include <string.h>

#define ROUTE_ROW(path, allow, post, cost, envelope, get, guard, label, tool, kind)                \
    {{path, post, cost, envelope, tool}, allow, get, guard, label, kind},

const cbd_route cbdp_routes[CBD_ROUTE_COUNT] = {
    CBD_ENDPOINT_TABLE(ROUTE_ROW){
        {"", NULL, NULL, NULL, CBD_NO_TOOL}, NULL, NULL, NULL, "other", CBD_KIND_BATTLE},
};

const cbd_route *cbdp_route_find(const char *url) {
    for (const cbd_route *r = cbdp_routes; r < CBD_ROUTE_OTHER; r++) {
        if (strcmp(url, r->api.path) == 0) {
            return r;
        }
    }
    return CBD_ROUTE_OTHER;
}

bool cbdp_route_allows(const cbd_route *route, const char *method) {
    /* The row's Allow header is the list of methods: a method is allowed when it is one of
     * its comma-separated tokens. */
    size_t n = strlen(method);
    for (const char *t = route->allow; t && *t;) {
        size_t len = strcspn(t, ",");
        if (len == n && strncmp(t, method, n) == 0) {
            return true;
        }
        t += len;
        t += strspn(t, ", ");
    }
    return false;
}
