#ifndef COMBATD_HTTP_ROUTER_H
#define COMBATD_HTTP_ROUTER_H

/* The fixed routes; the index doubles as the metrics label. */
typedef enum {
    CBD_ROUTE_ANALYZE = 0,
    CBD_ROUTE_SIMULATE,
    CBD_ROUTE_DUPER,
    CBD_ROUTE_LIVEZ,
    CBD_ROUTE_READYZ,
    CBD_ROUTE_METRICS,
    CBD_ROUTE_OPENAPI,
    CBD_ROUTE_PAGE,
    CBD_ROUTE_NOT_FOUND,
    CBD_ROUTE_COUNT
} cbd_route;

typedef enum { CBD_ROUTE_POST_JSON, CBD_ROUTE_GET } cbd_route_kind;

typedef struct {
    const char *path;
    cbd_route_kind kind;
} cbd_route_info;

/* The route of a path (query strings are not part of `url` in MHD). */
cbd_route cbd_route_find(const char *url);

const cbd_route_info *cbd_route_info_of(cbd_route route);

/* The metrics labels, indexed by cbd_route. */
extern const char *const cbd_route_names[CBD_ROUTE_COUNT];

#endif
