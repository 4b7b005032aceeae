/*
 * MCP's tools (mcp.h): one per row of endpoints.h with a CBD_TOOL column, listed with the
 * row's title and description and the schemas generated from openapi.yaml, and called by
 * running the row's own handler on the arguments, with the request's budget, under the same
 * answer cap, so that structuredContent is byte for byte the body the endpoint answers over
 * HTTP.
 */
#include <stdlib.h>
#include <string.h>

#include "api/embedded.h"
#include "api/endpoints.h"
#include "mcp.h"
#include "mcp_internal.h"

/*
 * The tools: the rows of endpoints.h with a CBD_TOOL column, built here rather than read from
 * the api's table (endpoints.c), which names /mcp's own handler: reading it would make a
 * circle, the table -> /mcp -> the tools -> the table. A row's tool column is CBD_TOOL(...) or
 * CBD_NO_TOOL; pasted to TOOL_ it names the macro that keeps the row (TOOL_ROW_KEPT, which
 * takes the expanded CBD_TOOL braces as its last arguments) or drops it (TOOL_ROW_DROPPED), so
 * /mcp's row and the GET rows leave no trace.
 */
#define TOOL_CBD_TOOL(title, seeded, description) TOOL_ROW_KEPT
#define TOOL_CBD_NO_TOOL                          TOOL_ROW_DROPPED
#define TOOL_ROW_KEPT(path, post, cost, ...)      {path, post, cost, NULL, __VA_ARGS__},
#define TOOL_ROW_DROPPED(path, post, cost, ...)
#define TOOL_ROW(path, allow, post, cost, envelope, get, guard, label, tool, kind)                 \
    TOOL_##tool(path, post, cost, tool)
static const cbd_api_endpoint tools[] = {
    CBD_ENDPOINT_TABLE(TOOL_ROW){NULL, NULL, NULL, NULL, CBD_NO_TOOL},
};

bool cbd_mcp_tool_name(const char *path, char *buf, size_t size) {
    const char *p = path[0] == '/' ? path + 1 : path;
    size_t n = strlen(p);
    if (n >= size) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        buf[i] = p[i] == '/' || p[i] == '-' ? '_' : p[i];
    }
    buf[n] = '\0';
    return true;
}

/* Whether `name` is the tool name of `path`, compared in place. */
static bool is_tool_name(const char *path, const char *name) {
    const char *p = path[0] == '/' ? path + 1 : path;
    for (; *p && *name; p++, name++) {
        char c = *p == '/' || *p == '-' ? '_' : *p;
        if (c != *name) {
            return false;
        }
    }
    return *p == '\0' && *name == '\0';
}

const cbd_api_endpoint *cbd_mcp_tool_named(const char *name) {
    for (const cbd_api_endpoint *ep = tools; ep->path; ep++) {
        if (is_tool_name(ep->path, name)) {
            return ep;
        }
    }
    return NULL;
}

/*
 * The generated file holds one member per line, `"<path> <which>": <compact schema>` and a
 * comma, so that a schema is found by its line's start and taken to the line's end, without
 * parsing the file on every tools/list (tests/contract/mcp-schemas.mjs writes it so).
 */
bool cbd_mcp_tool_schema(const char *path, const char *which, const char **json, size_t *len) {
    const char *text = (const char *)cbd_asset_mcp_tool_schemas;
    const char *end = text + cbd_asset_mcp_tool_schemas_len;
    size_t path_len = strlen(path), which_len = strlen(which);
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *stop = nl ? nl : end;
        size_t n = (size_t)(stop - line);
        if (n > path_len + which_len + 5 && line[0] == '"' &&
            memcmp(line + 1, path, path_len) == 0 && line[1 + path_len] == ' ' &&
            memcmp(line + 2 + path_len, which, which_len) == 0 &&
            memcmp(line + 2 + path_len + which_len, "\": ", 3) == 0) {
            const char *v = line + path_len + which_len + 5;
            size_t v_len = (size_t)(stop - v);
            *json = v;
            *len = v_len > 0 && v[v_len - 1] == ',' ? v_len - 1 : v_len;
            return true;
        }
        line = stop + 1;
    }
    return false;
}

/* One tool of tools/list; false when the schema file has none for it (a 500: the build's
 * file is stale). */
static bool write_tool(cbd_jw *out, const cbd_api_endpoint *ep, cbd_problem *problem) {
    const char *input, *output;
    size_t input_len, output_len;
    char name[64];
    if (!cbd_mcp_tool_name(ep->path, name, sizeof name) ||
        !cbd_mcp_tool_schema(ep->path, "inputSchema", &input, &input_len) ||
        !cbd_mcp_tool_schema(ep->path, "outputSchema", &output, &output_len)) {
        cbd_problem_set(problem, 500, "The tool of %s has no schema in this build.", ep->path);
        return false;
    }
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "name", name);
    cbd_jw_key_string(out, "title", ep->tool.title);
    cbd_jw_key_string(out, "description", ep->tool.description);
    cbd_jw_key(out, "inputSchema");
    cbd_jw_raw(out, input, input_len);
    cbd_jw_key(out, "outputSchema");
    cbd_jw_raw(out, output, output_len);
    /* Pure computations: nothing is changed, nothing outside the service is reached, and the
     * same arguments answer the same unless a seed is drawn for them. */
    cbd_jw_key(out, "annotations");
    cbd_jw_object_open(out);
    cbd_jw_key_bool(out, "readOnlyHint", true);
    cbd_jw_key_bool(out, "destructiveHint", false);
    cbd_jw_key_bool(out, "idempotentHint", !ep->tool.seeded);
    cbd_jw_key_bool(out, "openWorldHint", false);
    cbd_jw_object_close(out);
    cbd_jw_object_close(out);
    return true;
}

bool cbdp_mcp_tools_list(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    /* Every tool fits in one page, so no cursor was ever given out. */
    if (json_object_get(ctx->call->params, "cursor")) {
        return cbdp_mcp_error(out, ctx->call, CBD_MCP_INVALID_PARAMS,
                              "Invalid params: no such cursor (every tool is on one page)");
    }
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_key(out, "tools");
    cbd_jw_array_open(out);
    for (const cbd_api_endpoint *ep = tools; ep->path; ep++) {
        if (!write_tool(out, ep, problem)) {
            return false;
        }
    }
    cbd_jw_array_close(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}

bool cbdp_mcp_tool_call_of(const cbd_mcp_call *call, const cbd_api_endpoint **tool,
                           const json_t **arguments, const char **error) {
    const json_t *name = json_object_get(call->params, "name");
    const json_t *args = json_object_get(call->params, "arguments");
    const char *text = json_string_value(name);
    *tool = text && strlen(text) == json_string_length(name) ? cbd_mcp_tool_named(text) : NULL;
    *arguments = args;
    if (!json_is_string(name)) {
        *error = "Invalid params: params.name must be a string";
    } else if (!*tool) {
        *error = "Unknown tool";
    } else if (args && !json_is_object(args)) {
        *error = "Invalid params: params.arguments must be an object";
    } else {
        return true;
    }
    return false;
}

/* The name of an unknown tool is the client's text: echoed only when it is short. */
static bool unknown_tool(cbd_jw *out, const cbd_mcp_call *call, const char *error) {
    const char *name = json_string_value(json_object_get(call->params, "name"));
    if (strcmp(error, "Unknown tool") == 0 && name && strlen(name) <= 64) {
        return cbdp_mcp_error(out, call, CBD_MCP_INVALID_PARAMS, "Unknown tool: %s", name);
    }
    return cbdp_mcp_error(out, call, CBD_MCP_INVALID_PARAMS, "%s", error);
}

/*
 * The cap (ctx->cap: server.max_answer_bytes, or what a batch has left of it) holds for the
 * JSON-RPC answer: the result holds the tool's answer twice, as it is (structuredContent) and
 * as a string (its text, escaped), around a fixed envelope. NULL when it fits; else the member of
 * the arguments whose part of the answer was being written where the result passed the cap (the
 * answer's cbd_jw_blame marks), as an answer past the cap over HTTP names it.
 */
static const char *past_cap(const cbd_mcp_call *call, const cbd_jw *answer, const char *text,
                            size_t len, size_t cap) {
    if (cap == 0) {
        return NULL;
    }
    cbd_jw fixed;
    cbd_jw_init(&fixed);
    cbdp_mcp_tool_result(&fixed, call, "", 0, false);
    size_t size = fixed.len;
    cbd_jw_discard(&fixed);
    size_t m = 0;
    const char *blame = "";
    char esc[6];
    for (size_t i = 0; i < len; i++) {
        while (m < answer->n_marks && answer->marks[m].at <= i) {
            blame = answer->marks[m++].member;
        }
        size_t escaped = cbd_json_escape_byte((unsigned char)text[i], esc);
        size += 1 + (escaped ? escaped : 1);
        if (size > cap) {
            return blame;
        }
    }
    return NULL;
}

/*
 * Runs the tool's handler as cbd_api_answer_within runs an endpoint's: the same budget (so a
 * call that spends the inline budget on an HTTP thread is handed back to a worker like any
 * request: the budget says so when this returns), a writer capped at server.max_answer_bytes,
 * and the same settling of its problem (cbd_api_settle_problem). A refusal returns false with
 * the endpoint's problem, which the envelope answers as a tool error.
 */
bool cbdp_mcp_tools_call(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    const cbd_api_endpoint *tool;
    const json_t *arguments;
    const char *error;
    if (!cbdp_mcp_tool_call_of(ctx->call, &tool, &arguments, &error)) {
        return unknown_tool(out, ctx->call, error);
    }
    json_t *empty = arguments ? NULL : json_object(); /* in the request's arena */
    if (!arguments && !empty) {
        return cbd_api_oom_problem(problem);
    }
    cbd_jw answer;
    cbd_jw_init(&answer);
    cbd_jw_set_limit(&answer, (size_t)ctx->cfg->limits.max_answer_bytes);
    bool ok = tool->handle(ctx->cfg, ctx->budget, arguments ? arguments : empty, &answer, problem);
    size_t len = 0;
    char *text = ok ? cbd_jw_finish(&answer, &len) : NULL;
    if (!text) {
        cbd_jw_discard(&answer);
        return cbd_api_settle_problem(ok, &answer, ctx->cfg, ctx->budget, problem)
                   ? false
                   : cbd_api_oom_problem(problem);
    }
    const char *blame = past_cap(ctx->call, &answer, text, len, ctx->cap);
    if (blame) {
        free(text);
        cbd_problem_init(problem);
        if (ctx->cap < ctx->cfg->limits.max_answer_bytes) { /* a batch's room, not the cap */
            cbd_problem_set(problem, 422,
                            "The batch's answer would pass server.max_answer_bytes: the responses "
                            "before this call left %zu bytes for its result.",
                            ctx->cap);
        }
        return cbd_api_answer_too_large(ctx->cfg, 0, blame, problem);
    }
    cbdp_mcp_tool_result(out, ctx->call, text, len, false);
    free(text);
    return true;
}
