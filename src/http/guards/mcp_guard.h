#ifndef COMBATD_HTTP_MCP_GUARD_H
#define COMBATD_HTTP_MCP_GUARD_H

/* /mcp's checks of a request's headers before its body is read: the `guard` column of its row
 * in endpoints.h (cbd_guard, router.h). */
#include "http/router.h"

/* The guard of /mcp (mcp_guard.c): mcp.enabled, the Origin and MCP-Protocol-Version headers. */
extern const cbd_guard cbd_http_mcp_guard;

#endif
