#ifndef COMBATD_API_MCP_H
#define COMBATD_API_MCP_H

/*
 * The Model Context Protocol (MCP) face of the service: POST /mcp speaks JSON-RPC 2.0 in JSON
 * bodies (the Streamable HTTP transport without SSE streams), and lists every endpoint of
 * endpoints.h that has a CBD_TOOL column as a tool whose call runs that endpoint's own handler
 * under the same budget and answer cap. The handler, its cost estimate and its envelope are
 * declared in api.h beside the other endpoints'; this header, the shared face of src/api/mcp/
 * (mcp.c, mcp_lifecycle.c and mcp_tools.c), holds what the http layer and the tests also need; what
 * the folder's files share among themselves is mcp_internal.h.
 */
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "api/api.h"

/* The protocol revisions served, newest first, NULL-terminated: a client asking for one of
 * them is answered in it, any other request gets the newest. */
extern const char *const cbd_mcp_versions[];

/* Whether `version` is one of cbd_mcp_versions (the MCP-Protocol-Version header's check). */
bool cbd_mcp_version_supported(const char *version);

/* The entry of cbd_mcp_versions equal to `version` (a string that outlives any request, which
 * the http layer hands to the api as cbd_api_request.protocol), or NULL. */
const char *cbd_mcp_version_named(const char *version);

/* The one revision that takes JSON-RPC batches (2025-06-18 removed them); a request that
 * names no revision is read as this one, as the Streamable HTTP transport says. */
#define CBD_MCP_BATCH_VERSION "2025-03-26"

/* The tool name of an endpoint's path, as tools/list gives it: "/duper/board/options" is
 * "duper_board_options" ('/' and '-' become '_', the leading '/' goes). False when it does
 * not fit in `size`. */
bool cbd_mcp_tool_name(const char *path, char *buf, size_t size);

/* The tool called `name`, or NULL: its row's path, handler, cost and tool columns (mcp_tools.c
 * keeps its own rows, so this is no pointer into cbd_api_endpoints). */
const cbd_api_endpoint *cbd_mcp_tool_named(const char *name);

/*
 * The input or output schema of the tool at `path` (`which`: "inputSchema" or
 * "outputSchema"), as compact JSON text in the embedded src/api/mcp/mcp_tool_schemas.json: a
 * slice, not NUL-terminated. False when the file has none (the file is stale; the contract
 * stage and tests/unit/api/test_mcp_api.c say so).
 */
bool cbd_mcp_tool_schema(const char *path, const char *which, const char **json, size_t *len);

#endif
