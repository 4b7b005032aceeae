#ifndef COMBATD_HTTP_ROUTER_H
#define COMBATD_HTTP_ROUTER_H

#include <stddef.h>

#include <microhttpd.h>

#include "api/api.h"
#include "api/endpoints.h"

typedef struct cbd_server cbd_server;
typedef struct cbd_http_request cbd_http_request;

/* Answers a GET (or HEAD) of a resource the http layer serves itself. */
typedef enum MHD_Result (*cbd_get_fn)(cbd_server *s, struct MHD_Connection *con,
                                      cbd_http_request *req);

/*
 * A route's own checks of a request's headers, made before its body is read and before
 * OPTIONS and 405 are answered (so that they hold for every method): `check` returns 0 to go
 * on, or the status of its refusal with `why` filled; 404 says that the route is switched off
 * in the config, and the request is answered as for a path the service does not have.
 * `allow_headers` is the CORS preflight's Access-Control-Allow-Headers for the route.
 * `protocol` (may be NULL) gives the revision of the route's protocol that the headers name,
 * once `check` has passed them, as a string that outlives the request, or NULL when they name
 * none: the api reads the body in it (cbd_api_request.protocol).
 */
typedef struct {
    int (*check)(const cbd_server *s, struct MHD_Connection *con, char *why, size_t size);
    const char *allow_headers;
    const char *(*protocol)(struct MHD_Connection *con);
} cbd_guard;

/*
 * A route: one row of CBD_ENDPOINT_TABLE (endpoints.h). A POST endpoint has api.handle set
 * and is answered by the api layer; a GET resource has `get` set. The row after the
 * endpoints, "other", stands for every path that is none of them (404, and requests MHD
 * refused before routing).
 */
typedef struct {
    cbd_api_endpoint api; /* path, POST handler, cost estimate, envelope, tool */
    const char *allow;    /* the Allow header */
    cbd_get_fn get;
    const cbd_guard *guard; /* NULL: none */
    const char *label;      /* the metrics label */
    int kind;               /* CBD_KIND_*: its body limit and CORS (endpoints.h) */
} cbd_route;

#define CBD_ROUTE_COUNT_ROW(path, allow, post, cost, envelope, get, guard, label, tool, kind) 1 +
/* The routes with "other"; the metrics arrays are sized by it. */
enum { CBD_ROUTE_COUNT = CBD_ENDPOINT_TABLE(CBD_ROUTE_COUNT_ROW) 1 };

extern const cbd_route cbdp_routes[CBD_ROUTE_COUNT];

/* The route of "other". */
#define CBD_ROUTE_OTHER (&cbdp_routes[CBD_ROUTE_COUNT - 1])

/* The route of a path, or CBD_ROUTE_OTHER: the one lookup a request makes. */
const cbd_route *cbdp_route_find(const char *url);

/* Whether `method` is one `route` answers (OPTIONS is answered before this is asked). */
bool cbdp_route_allows(const cbd_route *route, const char *method);

/* The `get` and `guard` columns' names, declared where they are implemented. */
#include "http/guards/mcp_guard.h"
#include "http/ops/resources.h"

#endif
