/*
 * MCP's resources: the documents embedded in the build (embedded.h), so that an agent can read
 * the rules it applies and the contract of the service it calls. A document the build lacks
 * (the rules document of a tree that has none) is empty and not listed.
 */
#include <string.h>

#include "api/embedded.h"
#include "mcp.h"
#include "mcp_internal.h"

typedef struct {
    const char *uri, *name, *title, *description, *mime_type;
    const unsigned char *text;
    const unsigned long *len;
} document;

static const document documents[] = {
    {CBD_MCP_RULES_URI, "rules.md", "The game rules",
     "The rules of War.app and Duper battles as the service applies them, with the rule ids "
     "(W1.., D1..) that the tools' descriptions and answers cite.",
     "text/markdown", cbd_asset_rules_md, &cbd_asset_rules_md_len},
    {"combatd://openapi.yaml", "openapi.yaml", "The HTTP contract",
     "combatd's OpenAPI 3.1 contract: every endpoint behind the tools, every field of their "
     "requests and answers, with worked examples.",
     "application/yaml", cbd_asset_openapi_yaml, &cbd_asset_openapi_yaml_len},
};
#define N_DOCUMENTS (sizeof documents / sizeof documents[0])

static const document *document_at(const char *uri) {
    for (size_t i = 0; i < N_DOCUMENTS; i++) {
        if (*documents[i].len > 0 && strcmp(documents[i].uri, uri) == 0) {
            return &documents[i];
        }
    }
    return NULL;
}

bool cbdp_mcp_has_resource(const char *uri) {
    return document_at(uri) != NULL;
}

bool cbdp_mcp_resources_list(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    if (json_object_get(ctx->call->params, "cursor")) {
        return cbdp_mcp_error(out, ctx->call, CBD_MCP_INVALID_PARAMS,
                              "Invalid params: no such cursor (every resource is on one page)");
    }
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_key(out, "resources");
    cbd_jw_array_open(out);
    for (size_t i = 0; i < N_DOCUMENTS; i++) {
        const document *d = &documents[i];
        if (*d->len == 0) {
            continue;
        }
        cbd_jw_object_open(out);
        cbd_jw_key_string(out, "uri", d->uri);
        cbd_jw_key_string(out, "name", d->name);
        cbd_jw_key_string(out, "title", d->title);
        cbd_jw_key_string(out, "description", d->description);
        cbd_jw_key_string(out, "mimeType", d->mime_type);
        cbd_jw_key_uint(out, "size", *d->len);
        cbd_jw_object_close(out);
    }
    cbd_jw_array_close(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}

bool cbdp_mcp_resources_read(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    const json_t *uri = json_object_get(ctx->call->params, "uri");
    const char *text = json_string_value(uri);
    if (!text || strlen(text) != json_string_length(uri)) {
        return cbdp_mcp_error(out, ctx->call, CBD_MCP_INVALID_PARAMS,
                              "Invalid params: params.uri must be a string");
    }
    const document *d = document_at(text);
    if (!d) {
        return strlen(text) <= 128 ? cbdp_mcp_error(out, ctx->call, CBD_MCP_RESOURCE_NOT_FOUND,
                                                    "Resource not found: %s", text)
                                   : cbdp_mcp_error(out, ctx->call, CBD_MCP_RESOURCE_NOT_FOUND,
                                                    "Resource not found");
    }
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_key(out, "contents");
    cbd_jw_array_open(out);
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "uri", d->uri);
    cbd_jw_key_string(out, "mimeType", d->mime_type);
    cbd_jw_key(out, "text");
    cbd_jw_string_n(out, (const char *)d->text, *d->len);
    cbd_jw_object_close(out);
    cbd_jw_array_close(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}

/* Every document has a fixed URI: there are no templates, and the list says so. */
bool cbdp_mcp_resource_templates_list(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_key(out, "resourceTemplates");
    cbd_jw_array_open(out);
    cbd_jw_array_close(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}
