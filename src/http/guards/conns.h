#ifndef COMBATD_HTTP_CONNS_H
#define COMBATD_HTTP_CONNS_H

/*
 * Every open connection, for two jobs MHD 0.9.75 cannot do:
 * - the per-IP limit with exemptions: MHD_OPTION_PER_IP_CONNECTION_LIMIT counts every address
 *   alike, so a proxy that carries all the traffic hits it; here it is counted per address with
 *   trusted_proxies exempt. Over the limit a connection is still accepted and its first request
 *   answered 503 with Retry-After and Connection: close; past twice the limit it is closed at
 *   accept without an answer (a flood must not cost more than that).
 * - the drain: which connections hold a request (from its request line to its completion), so
 *   the drain can close the idle ones between requests and knows when none holds one.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "http/server_config.h"
#include "net_ranges.h"
#include "watchdog.h"

struct sockaddr;

typedef struct cbd_conns cbd_conns;

/* One open connection (MHD's socket context). */
typedef struct cbd_conn {
    struct cbd_conn *prev, *next; /* the table's list, under its lock */
    struct cbd_ip_count *count;   /* its address's counter (NULL when not counted) */
    cbd_watch *watch;             /* the request-deadline watchdog's entry (watchdog.h) */
    int fd;
    bool trusted;     /* from trusted_proxies: no per-IP limit, X-Forwarded-For believed */
    bool over_limit;  /* over the per-IP limit: its first request is answered 503 */
    bool shut;        /* the drain shut it down as idle (under the lock) */
    atomic_bool busy; /* a request is in it: request line seen, completion not yet */
    _Atomic uint64_t idle_since_us; /* when it last became idle (open or a completion) */
    char peer[CBD_NET_ADDR_TEXT];   /* the socket peer's address, for the access log */
} cbd_conn;

cbd_conns *cbd_conns_create(uint32_t per_ip_limit, const cbd_net_range *trusted, size_t n);
void cbd_conns_destroy(cbd_conns *t);

/* The accept policy (MHD_AcceptPolicyCallback): false past twice the per-IP limit. */
bool cbd_conns_may_accept(cbd_conns *t, const struct sockaddr *addr);

/* A connection opened (NOTIFY_STARTED) / closed (NOTIFY_CLOSED, before its socket closes).
 * open returns NULL when out of memory (the connection then goes uncounted and unwatched). */
cbd_conn *cbd_conns_open(cbd_conns *t, int fd, const struct sockaddr *addr, cbd_watch *watch,
                         uint64_t now_us);
void cbd_conns_close(cbd_conns *t, cbd_conn *c);

/* A request began (its request line) / completed. */
void cbd_conn_request_begins(cbd_conn *c);
void cbd_conn_request_ends(cbd_conn *c, uint64_t now_us);

typedef struct {
    size_t open;       /* open connections */
    size_t busy;       /* of which hold a request (or part of its request line) */
    size_t shut_total; /* idle connections the drain has shut down so far */
} cbd_conns_state;

/*
 * One step of the drain: shuts down (SHUT_RD) each connection that has been idle for at least
 * idle_us: no request in it, no byte of a new one in the kernel's buffer (FIONREAD), none
 * received in idle_us (TCP_INFO) and no request line arriving in pieces
 * (cbd_watch_holds_partial_request, which counts as busy). Fills *state.
 */
void cbd_conns_drain_step(cbd_conns *t, uint64_t now_us, uint64_t idle_us, cbd_conns_state *state);

/* A connection's entry in the table of open connections (NULL if its allocation failed). */
static inline cbd_conn *cbd_conn_of(struct MHD_Connection *con) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* The watchdog's entry for a connection (NULL if its allocation failed). */
static inline cbd_watch *cbd_watch_of(struct MHD_Connection *con) {
    cbd_conn *c = cbd_conn_of(con);
    return c ? c->watch : NULL;
}

#endif
