/*
 * MCP's lifecycle: the revisions served (mcp.h), initialize, which negotiates one and says what
 * is here, and ping. The service keeps no session, so initialize changes nothing: any request
 * may come first.
 */
#include <stdio.h>
#include <string.h>

#include "mcp.h"
#include "mcp_internal.h"

const char *const cbd_mcp_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", NULL};

const char *cbd_mcp_version_named(const char *version) {
    for (size_t i = 0; cbd_mcp_versions[i]; i++) {
        if (strcmp(version, cbd_mcp_versions[i]) == 0) {
            return cbd_mcp_versions[i];
        }
    }
    return NULL;
}

bool cbd_mcp_version_supported(const char *version) {
    return cbd_mcp_version_named(version) != NULL;
}

/* What an agent reads once it has connected: what the tools are for and where the rules are.
 * The tools describe themselves (endpoints.h), so they are not listed here again. */
static void write_instructions(cbd_jw *out) {
    static const char tools[] =
        "combatd resolves and previews battles of War.app (Warzone-style) and Duper. Every tool "
        "is a read-only computation: the analyze tools give exact probabilities, the simulate "
        "tools play seeded random battles and turns (send a seed to replay one), the duper tools "
        "resolve Duper attacks and list a player's options. A refused call is a tool error whose "
        "text is a problem document naming each bad argument by JSON pointer; fix those and call "
        "again.";
    static const char rules[] = " The rules the tools apply are the resource " CBD_MCP_RULES_URI
                                "; the HTTP contract with examples is combatd://openapi.yaml.";
    static const char contract[] = " The HTTP contract with examples is combatd://openapi.yaml.";
    char text[sizeof tools + sizeof rules];
    snprintf(text, sizeof text, "%s%s", tools,
             cbdp_mcp_has_resource(CBD_MCP_RULES_URI) ? rules : contract);
    cbd_jw_key_string(out, "instructions", text);
}

/* The revision asked for when it is one served, else the newest. */
static const char *negotiated_version(const char *asked) {
    const char *served = cbd_mcp_version_named(asked);
    return served ? served : cbd_mcp_versions[0];
}

bool cbdp_mcp_initialize(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    const char *asked =
        cbdp_mcp_plain_string(json_object_get(ctx->call->params, "protocolVersion"));
    if (!asked) {
        return cbdp_mcp_error(out, ctx->call, CBD_MCP_INVALID_PARAMS,
                              "Invalid params: params.protocolVersion must be a string");
    }
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "protocolVersion", negotiated_version(asked));
    cbd_jw_key(out, "capabilities");
    cbd_jw_object_open(out);
    cbd_jw_key(out, "tools");
    cbd_jw_object_open(out);
    cbd_jw_key_bool(out, "listChanged", false);
    cbd_jw_object_close(out);
    cbd_jw_key(out, "resources");
    cbd_jw_object_open(out);
    cbd_jw_key_bool(out, "subscribe", false);
    cbd_jw_key_bool(out, "listChanged", false);
    cbd_jw_object_close(out);
    cbd_jw_object_close(out);
    cbd_jw_key(out, "serverInfo");
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "name", "combatd");
    cbd_jw_key_string(out, "title", "combatd: War.app and Duper battles");
    cbd_jw_key_string(out, "version", COMBATD_VERSION);
    cbd_jw_object_close(out);
    write_instructions(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}

bool cbdp_mcp_ping(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}
