/*
 * The HTTP rules of POST /mcp that the api layer cannot see (the Streamable HTTP transport's
 * security section): the endpoint can be switched off (mcp.enabled), and a request that names
 * an Origin is served only from an origin that server.cors_origins lists by name, so that a
 * web page cannot reach a local combatd through DNS rebinding; `*` does not count here, since
 * it lets every page in. Requests without Origin (SDK clients, curl, agents) are served. An
 * MCP-Protocol-Version header must name a revision the service speaks (mcp.h); the revision
 * it names goes to the api with the body, which it decides the shape of (batches).
 */
#include <stdio.h>
#include <string.h>

#include "api/mcp/mcp.h"
#include "mcp_guard.h"
#include "http/server_internal.h"

/* The header a count is taken of, and what was seen: its (last) value without the optional
 * whitespace RFC 9110 (5.5) lets a field value have around it. */
typedef struct {
    const char *name;
    unsigned count;
    char value[512];
} header_count;

static bool ows(char c) {
    return c == ' ' || c == '\t';
}

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value) {
    (void)kind;
    header_count *c = cls;
    if (key && strcasecmp(key, c->name) == 0) {
        c->count++;
        const char *v = value ? value : "";
        size_t n = strlen(v);
        while (n > 0 && ows(*v)) {
            v++;
            n--;
        }
        while (n > 0 && ows(v[n - 1])) {
            n--;
        }
        /* Longer than any origin or revision served: kept empty, which matches none. */
        n = n < sizeof c->value ? n : 0;
        memcpy(c->value, v, n);
        c->value[n] = '\0';
    }
    return MHD_YES;
}

/* How often `name` is in the request's header, and its (last) value. */
static header_count count_of(struct MHD_Connection *con, const char *name) {
    header_count c = {name, 0, ""};
    (void)MHD_get_connection_values(con, MHD_HEADER_KIND, count_header, &c);
    return c;
}

static bool origin_listed(const cbd_server_config *cfg, const char *origin) {
    for (size_t i = 0; i < cfg->n_cors_origins; i++) {
        if (strcmp(cfg->cors_origins[i], "*") != 0 && strcmp(cfg->cors_origins[i], origin) == 0) {
            return true;
        }
    }
    return false;
}

static int check_mcp(const cbd_server *s, struct MHD_Connection *con, char *why, size_t size) {
    if (!s->api.mcp.enabled) {
        return 404;
    }
    header_count origin = count_of(con, "Origin");
    if (origin.count > 1) {
        snprintf(why, size, "A request to /mcp may name one Origin, not %u.", origin.count);
        return 403;
    }
    if (origin.count == 1 && !origin_listed(&s->server, origin.value)) {
        snprintf(why, size,
                 "Origin %.120s may not use /mcp: list it by name in server.cors_origins (a * "
                 "does not count for /mcp).",
                 origin.value);
        return 403;
    }
    header_count version = count_of(con, "MCP-Protocol-Version");
    if (version.count > 1 || (version.count == 1 && !cbd_mcp_version_supported(version.value))) {
        char served[128] = "";
        for (size_t i = 0, used = 0; cbd_mcp_versions[i] && used < sizeof served; i++) {
            used += (size_t)snprintf(served + used, sizeof served - used, "%s%s", i ? ", " : "",
                                     cbd_mcp_versions[i]);
        }
        snprintf(why, size, "MCP-Protocol-Version %.40s is not a revision this server speaks (%s).",
                 version.count > 1 ? "(sent twice)" : version.value, served);
        return 400;
    }
    return 0;
}

/* The revision MCP-Protocol-Version names (check_mcp has refused any other value), or NULL
 * when the request has none: the api then reads the body as 2025-03-26, as MCP says. */
static const char *mcp_protocol(struct MHD_Connection *con) {
    header_count version = count_of(con, "MCP-Protocol-Version");
    return version.count == 1 ? cbd_mcp_version_named(version.value) : NULL;
}

/* A browser client at a listed origin sends the protocol version with every request after
 * initialize, so its preflight must allow that header. */
const cbd_guard cbd_http_mcp_guard = {
    check_mcp, "Content-Type, X-Request-Id, MCP-Protocol-Version, Mcp-Session-Id", mcp_protocol};
