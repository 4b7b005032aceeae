/*
 * The api layer's rows of endpoints.h: the path -> handler table of every endpoint, and its
 * lookup for callers without a server. Apart from api.c, which parses and answers a request of
 * any endpoint, so that the endpoints that call others (/mcp) can use api.c without a circle
 * through the table that names them.
 */
#include <string.h>

#include "api.h"
#include "endpoints.h"

/* The api columns of every row of endpoints.h; a GET resource's row has no handler. */
#define API_ROW(path, allow, post, cost, envelope, get, guard, label, tool, kind)                  \
    {path, post, cost, envelope, tool},
const cbd_api_endpoint cbd_api_endpoints[] = {
    CBD_ENDPOINT_TABLE(API_ROW){NULL, NULL, NULL, NULL, CBD_NO_TOOL},
};

const cbd_api_endpoint *cbd_api_find_endpoint(const char *path) {
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        if (ep->handle && strcmp(ep->path, path) == 0) {
            return ep;
        }
    }
    return NULL;
}
