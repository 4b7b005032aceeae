/* The JSON-RPC 2.0 envelope of an MCP message: its strings as read, and a response, result or
 * error; see mcp_internal.h. Apart from mcp_message.c, which dispatches to the methods of
 * mcp_lifecycle.c, mcp_tools.c and mcp_resources.c, so that the methods read their params and
 * write their responses without depending on the dispatcher. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mcp_internal.h"

const char *cbdp_mcp_plain_string(const json_t *v) {
    const char *s = json_string_value(v);
    return s && strlen(s) == json_string_length(v) ? s : NULL;
}

void cbdp_mcp_result_begin(cbd_jw *out, const cbd_mcp_call *call) {
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "jsonrpc", "2.0");
    cbd_jw_key(out, "id");
    cbd_jw_value(out, call->id);
    cbd_jw_key(out, "result");
}

void cbdp_mcp_result_end(cbd_jw *out) {
    cbd_jw_object_close(out);
}

void cbdp_mcp_tool_result(cbd_jw *out, const cbd_mcp_call *call, const char *text, size_t len,
                          bool is_error) {
    cbdp_mcp_result_begin(out, call);
    cbd_jw_object_open(out);
    cbd_jw_key(out, "content");
    cbd_jw_array_open(out);
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "type", "text");
    cbd_jw_key(out, "text");
    cbd_jw_string_n(out, text, len);
    cbd_jw_object_close(out);
    cbd_jw_array_close(out);
    if (!is_error) {
        cbd_jw_key(out, "structuredContent");
        cbd_jw_raw(out, text, len);
    }
    cbd_jw_key_bool(out, "isError", is_error);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
}

void cbdp_mcp_error_begin(cbd_jw *out, const json_t *id, int code, const char *message) {
    cbd_jw_object_open(out);
    cbd_jw_key_string(out, "jsonrpc", "2.0");
    cbd_jw_key(out, "id");
    if (id) {
        cbd_jw_value(out, id);
    } else {
        cbd_jw_null(out);
    }
    cbd_jw_key(out, "error");
    cbd_jw_object_open(out);
    cbd_jw_key_int(out, "code", code);
    cbd_jw_key_string(out, "message", message);
}

bool cbdp_mcp_error(cbd_jw *out, const cbd_mcp_call *call, int code, const char *fmt, ...) {
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    cbdp_mcp_error_begin(out, call->id, code, message);
    cbd_jw_object_close(out);
    cbd_jw_object_close(out);
    return true;
}
