/*
 * One JSON-RPC message of a /mcp body or batch: read (a request, a notification or response to
 * accept, or neither, with each member at fault named), dispatched to its method, and the
 * response of a refusal. Members the protocol adds later (`_meta`, fields of newer revisions)
 * are ignored rather than refused, as MCP expects of both sides; the members read are checked
 * strictly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_reader.h"
#include "mcp_internal.h"

/* MCP's request ids are strings or numbers and never null; a real is refused too, since the
 * answer could not echo it digit for digit. */
static bool valid_id(const json_t *id) {
    return json_is_string(id) || json_is_integer(id);
}

bool cbdp_mcp_read_call(const json_t *message, cbd_mcp_call *call) {
    const char *version = cbdp_mcp_plain_string(json_object_get(message, "jsonrpc"));
    const char *method = cbdp_mcp_plain_string(json_object_get(message, "method"));
    const json_t *id = json_object_get(message, "id");
    if (!version || strcmp(version, "2.0") != 0 || !method || !valid_id(id)) {
        return false;
    }
    const json_t *params = json_object_get(message, "params");
    call->id = id;
    call->method = method;
    call->params = json_is_object(params) ? params : NULL;
    return true;
}

typedef enum { MESSAGE_REQUEST, MESSAGE_ACCEPTED, MESSAGE_INVALID } message_kind;

/* A member of the message at `at` ("" for a body, "/3" for a batch's fourth), as a pointer. */
static const char *member_at(char *buf, size_t size, const char *at, const char *member) {
    snprintf(buf, size, "%s/%s", at, member);
    return buf;
}

/*
 * What the message at `at` is: a request (read into *call), a notification or a response to
 * be accepted without an answer, or none of them, with the problem naming each member at fault
 * (a 422, which the envelope answers as -32600 Invalid Request).
 */
static message_kind read_message(const json_t *m, const char *at, cbd_mcp_call *call,
                                 cbd_problem *problem) {
    if (cbdp_mcp_read_call(m, call)) {
        return MESSAGE_REQUEST;
    }
    const char *version = cbdp_mcp_plain_string(json_object_get(m, "jsonrpc"));
    const json_t *method = json_object_get(m, "method"), *id = json_object_get(m, "id");
    bool answer = json_object_get(m, "result") || json_object_get(m, "error");
    bool bad_version = !version || strcmp(version, "2.0") != 0;
    bool bad_method = method ? !cbdp_mcp_plain_string(method) : !(id && answer);
    bool bad_id = id && !valid_id(id);
    if (!bad_version && !bad_method && !bad_id) {
        return MESSAGE_ACCEPTED; /* a notification (no id), or a response (no method) */
    }
    cbd_problem_set(problem, 422, "%s is not a JSON-RPC 2.0 message; see `errors`.",
                    at[0] ? "This element of the batch" : "The body");
    if (!json_is_object(m)) { /* only in a batch: cbd_api_parse refuses such a body */
        cbd_problem_field(problem, at, "must be a JSON-RPC message (an object), not %s",
                          cbd_json_type_name(m));
        return MESSAGE_INVALID;
    }
    char pointer[40];
    if (bad_version) {
        cbd_problem_field(problem, member_at(pointer, sizeof pointer, at, "jsonrpc"),
                          "must be \"2.0\"");
    }
    if (bad_method) {
        cbd_problem_field(problem, member_at(pointer, sizeof pointer, at, "method"),
                          method ? "must be a string"
                                 : "is required (a response has an id and a result or error)");
    }
    if (bad_id) {
        cbd_problem_field(problem, member_at(pointer, sizeof pointer, at, "id"),
                          "must be a string or an integer (not null)");
    }
    return MESSAGE_INVALID;
}

/* A tools/call's result that says isError, whose one text item is the problem+json document
 * the endpoint would have answered over HTTP; false when memory ran out. */
static bool write_tool_error(cbd_jw *out, const cbd_mcp_call *call, const cbd_problem *problem) {
    size_t len = 0;
    char *text = cbd_api_problem_text(problem, &len);
    if (!text) {
        return false;
    }
    cbdp_mcp_tool_result(out, call, text, len, true);
    free(text);
    return true;
}

static const struct {
    const char *name;
    cbd_mcp_method_fn fn;
} methods[] = {
    {"initialize", cbdp_mcp_initialize},
    {"ping", cbdp_mcp_ping},
    {"tools/list", cbdp_mcp_tools_list},
    {"tools/call", cbdp_mcp_tools_call},
    {"resources/list", cbdp_mcp_resources_list},
    {"resources/read", cbdp_mcp_resources_read},
    {"resources/templates/list", cbdp_mcp_resource_templates_list},
};

/*
 * Answers one message to `out`: a body's (`at` "") or one element of a batch's (`at` its
 * pointer, "/3"), whose response may take `cap` bytes. As a method returns: true with the
 * response written (nothing for a notification), or false with `problem`.
 */
bool cbdp_mcp_answer_message(const cbd_config *cfg, cbd_budget *budget, const json_t *message,
                             const char *at, size_t cap, cbd_jw *out, cbd_problem *problem) {
    cbd_mcp_call call;
    switch (read_message(message, at, &call, problem)) {
        case MESSAGE_INVALID:
            return false;
        case MESSAGE_ACCEPTED:
            return true; /* nothing written: 202 Accepted, or no response in a batch */
        case MESSAGE_REQUEST:
            break;
    }
    /* 2025-03-26, the one revision with batches: "The initialize request MUST NOT be part of
     * a JSON-RPC batch". */
    if (at[0] != '\0' && strcmp(call.method, "initialize") == 0) {
        return cbdp_mcp_error(out, &call, CBD_MCP_INVALID_REQUEST,
                              "Invalid Request: initialize may not be part of a JSON-RPC batch");
    }
    const json_t *params = json_object_get(message, "params");
    if (params && !json_is_object(params)) {
        return cbdp_mcp_error(out, &call, CBD_MCP_INVALID_PARAMS,
                              "Invalid params: params must be an object");
    }
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (strcmp(call.method, methods[i].name) == 0) {
            cbd_mcp_ctx ctx = {cfg, budget, &call, cap};
            return methods[i].fn(&ctx, out, problem);
        }
    }
    /* A method name is the client's text: echoed only when it is short. */
    size_t n = strlen(call.method);
    return n <= 64 ? cbdp_mcp_error(out, &call, CBD_MCP_METHOD_NOT_FOUND, "Method not found: %s",
                                    call.method)
                   : cbdp_mcp_error(out, &call, CBD_MCP_METHOD_NOT_FOUND, "Method not found");
}

/* A JSON-RPC error whose `data` is the problem document, which names each member at fault,
 * with `status` the HTTP status the message would be answered with alone (RFC 9457: the
 * document's status is its answer's); false when memory ran out. */
static bool write_problem_error(cbd_jw *out, const json_t *id, int code, const char *message,
                                const cbd_problem *problem, int status) {
    cbd_problem *as_sent = malloc(sizeof *as_sent);
    if (!as_sent) {
        return false;
    }
    *as_sent = *problem;
    as_sent->status = status;
    size_t len = 0;
    char *text = cbd_api_problem_text(as_sent, &len);
    free(as_sent);
    if (!text) {
        return false;
    }
    cbdp_mcp_error_begin(out, id, code, message);
    cbd_jw_key(out, "data");
    cbd_jw_raw(out, text, len);
    cbd_jw_object_close(out);
    cbd_jw_object_close(out);
    free(text);
    return true;
}

cbd_mcp_refusal cbdp_mcp_refusal_of(const json_t *message, const cbd_problem *problem,
                                    bool in_batch, cbd_mcp_call *call) {
    bool is_call = message && cbdp_mcp_read_call(message, call);
    bool client = problem->status >= 400 && problem->status < 500;
    if (is_call && strcmp(call->method, "tools/call") == 0 &&
        (client || problem->status == 503 || problem->status == 504)) {
        return REFUSAL_TOOL_ERROR;
    }
    if (client && !is_call) {
        return REFUSAL_NO_REQUEST;
    }
    return client && in_batch ? REFUSAL_TOO_LARGE : REFUSAL_HTTP;
}

/* The response of a refusal that has one (not REFUSAL_HTTP); false when memory ran out. */
bool cbdp_mcp_write_refusal(cbd_jw *out, cbd_mcp_refusal kind, const cbd_mcp_call *call,
                            const cbd_problem *problem) {
    switch (kind) {
        case REFUSAL_TOOL_ERROR:
            return write_tool_error(out, call, problem);
        case REFUSAL_NO_REQUEST:
            return problem->status == 400 ? write_problem_error(out, NULL, CBD_MCP_PARSE_ERROR,
                                                                "Parse error", problem, 400)
                                          : write_problem_error(out, NULL, CBD_MCP_INVALID_REQUEST,
                                                                "Invalid Request", problem, 400);
        case REFUSAL_TOO_LARGE:
            return write_problem_error(out, call->id, CBD_MCP_ANSWER_TOO_LARGE, "Answer too large",
                                       problem, problem->status);
        case REFUSAL_HTTP:
            break;
    }
    return false;
}
