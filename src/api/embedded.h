#ifndef COMBATD_API_EMBEDDED_H
#define COMBATD_API_EMBEDDED_H

/*
 * Files the api layer embeds at build time, each also NUL-terminated (implemented by embedded.c,
 * which cmake/embed.cmake writes into the build directory): the
 * contract (served at GET /openapi.yaml and as an MCP resource), the MCP tool schemas generated
 * from it (tests/contract/mcp-schemas.mjs) and the rules document, which is empty (length 0)
 * when the tree that was built had none.
 */
extern const unsigned char cbd_asset_openapi_yaml[];
extern const unsigned long cbd_asset_openapi_yaml_len;
extern const unsigned char cbd_asset_mcp_tool_schemas[];
extern const unsigned long cbd_asset_mcp_tool_schemas_len;
extern const unsigned char cbd_asset_rules_md[];
extern const unsigned long cbd_asset_rules_md_len;

#endif
