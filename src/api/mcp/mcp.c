/*
 * POST /mcp: the JSON-RPC 2.0 envelope of the Model Context Protocol (mcp.h). A body is one
 * message: a request is answered with one response in a JSON body, a notification or a
 * client's response is accepted with 202 and no body (the handler writes nothing), and a body
 * that is not a message is a JSON-RPC error without an id (cbd_api_mcp_envelope). In revision
 * 2025-03-26 (and when the request names none) a body may also be a batch, an array of
 * messages, each answered as a body of its own would be but every refusal in-band, in one
 * array of the responses (mcp_batch.c).
 *
 * The service keeps no session: every request stands alone, so initialize only negotiates the
 * revision and says what is here, and any request may come first. Members the protocol adds
 * later (`_meta`, fields of newer revisions) are ignored rather than refused, as MCP expects
 * of both sides; the members read are checked strictly.
 */
#include "mcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_reader.h"
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

/* The text of a JSON string without a NUL inside it ("tools/call\u0000x" is no method), or
 * NULL for anything else. */
static const char *plain_string(const json_t *v) {
    const char *s = json_string_value(v);
    return s && strlen(s) == json_string_length(v) ? s : NULL;
}

/* MCP's request ids are strings or numbers and never null; a real is refused too, since the
 * answer could not echo it digit for digit. */
static bool valid_id(const json_t *id) {
    return json_is_string(id) || json_is_integer(id);
}

/* Reads a request (a message with jsonrpc "2.0", a string or integer id and a string method)
 * into *call; false for anything else. params is NULL unless it is an object. */
static bool read_call(const json_t *message, cbd_mcp_call *call) {
    const char *version = plain_string(json_object_get(message, "jsonrpc"));
    const char *method = plain_string(json_object_get(message, "method"));
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
    if (read_call(m, call)) {
        return MESSAGE_REQUEST;
    }
    const char *version = plain_string(json_object_get(m, "jsonrpc"));
    const json_t *method = json_object_get(m, "method"), *id = json_object_get(m, "id");
    bool answer = json_object_get(m, "result") || json_object_get(m, "error");
    bool bad_version = !version || strcmp(version, "2.0") != 0;
    bool bad_method = method ? !plain_string(method) : !(id && answer);
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

/* ---- the lifecycle ---- */

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
    for (size_t i = 0; cbd_mcp_versions[i]; i++) {
        if (strcmp(asked, cbd_mcp_versions[i]) == 0) {
            return cbd_mcp_versions[i];
        }
    }
    return cbd_mcp_versions[0];
}

static bool initialize(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    const char *asked = plain_string(json_object_get(ctx->call->params, "protocolVersion"));
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

static bool ping(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem) {
    (void)problem;
    cbdp_mcp_result_begin(out, ctx->call);
    cbd_jw_object_open(out);
    cbd_jw_object_close(out);
    cbdp_mcp_result_end(out);
    return true;
}

static const struct {
    const char *name;
    cbd_mcp_method_fn fn;
} methods[] = {
    {"initialize", initialize},
    {"ping", ping},
    {"tools/list", cbdp_mcp_tools_list},
    {"tools/call", cbdp_mcp_tools_call},
    {"resources/list", cbdp_mcp_resources_list},
    {"resources/read", cbdp_mcp_resources_read},
    {"resources/templates/list", cbdp_mcp_resource_templates_list},
};

/* ---- the endpoint ---- */

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
    bool is_call = message && read_call(message, call);
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

/* The envelope's handler: answers in the revision `protocol` (NULL: none named). */
static bool answer_in(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                      const char *protocol, cbd_jw *out, cbd_problem *problem) {
    /* A tool's answer is capped with the result that holds it twice (mcp_tools.c); the cap
     * holds for every other answer as it is, and for a batch's whole array. */
    size_t cap = (size_t)cfg->limits.max_answer_bytes;
    cbd_jw_set_limit(out, cap);
    if (json_is_array(request)) {
        return cbdp_mcp_answer_batch(cfg, budget, request, protocol, out, problem);
    }
    return cbdp_mcp_answer_message(cfg, budget, request, "", cap, out, problem);
}

bool cbd_api_mcp(const cbd_config *cfg, cbd_budget *budget, const json_t *request, cbd_jw *out,
                 cbd_problem *problem) {
    return answer_in(cfg, budget, request, NULL, out, problem);
}

/* The tool a well-formed tools/call runs, with its arguments; NULL for any other message. */
static const cbd_api_endpoint *called_tool(const json_t *request, const json_t **arguments) {
    cbd_mcp_call call;
    const cbd_api_endpoint *tool = NULL;
    const char *error;
    if (!request || !read_call(request, &call) || strcmp(call.method, "tools/call") != 0 ||
        !cbdp_mcp_tool_call_of(&call, &tool, arguments, &error)) {
        return NULL;
    }
    return tool;
}

/* A batch names no one tool: metrics count it as /mcp's. */
static const cbd_api_endpoint *called(const json_t *request) {
    const json_t *arguments;
    return called_tool(request, &arguments);
}

/* A tool call costs what its endpoint's request costs, so a heavy call goes to a worker at
 * once as the same body would over HTTP; the envelope itself is cheap (its answer is copied
 * twice, a few bytes per byte the tool answered). Anything else is CBD_COST_BASE_NS. */
static uint64_t message_cost(const cbd_config *cfg, const json_t *message) {
    const json_t *arguments = NULL;
    const cbd_api_endpoint *tool = called_tool(message, &arguments);
    if (!tool || !tool->cost || !arguments) {
        return CBD_COST_BASE_NS;
    }
    return tool->cost(cfg, arguments);
}

/* A batch runs its tool calls one after another: it costs what they cost together, with one
 * parse (each estimate counts one, CBD_COST_BASE_NS, for its own body). */
uint64_t cbd_api_mcp_cost(const cbd_config *cfg, const json_t *request) {
    if (!json_is_array(request)) {
        return message_cost(cfg, request);
    }
    uint64_t sum = CBD_COST_BASE_NS;
    for (size_t i = 0; i < json_array_size(request); i++) {
        uint64_t cost = message_cost(cfg, json_array_get(request, i));
        uint64_t more = cost > CBD_COST_BASE_NS ? cost - CBD_COST_BASE_NS : 0;
        sum = sum + more < sum ? UINT64_MAX : sum + more;
    }
    return sum;
}

/* How /mcp answers a problem (cbd_api_envelope.refuse): as cbdp_mcp_refusal_of says, for a body. */
static void refuse(const json_t *request, const cbd_problem *problem, cbd_api_reply *reply) {
    cbd_mcp_call call;
    cbd_mcp_refusal kind = cbdp_mcp_refusal_of(request, problem, false, &call);
    if (kind == REFUSAL_HTTP) {
        cbd_api_problem_reply(problem, reply);
        return;
    }
    cbd_jw out;
    cbd_jw_init(&out);
    bool ok = cbdp_mcp_write_refusal(&out, kind, &call, problem);
    size_t len = 0;
    char *text = ok ? cbd_jw_finish(&out, &len) : NULL;
    if (!ok) {
        cbd_jw_discard(&out);
    }
    bool tool = kind == REFUSAL_TOOL_ERROR;
    cbd_api_text_reply(tool ? 200 : 400, "application/json", text, len, reply);
    if (text && tool) {
        reply->call_status = problem->status;
    }
}

const cbd_api_envelope cbd_api_mcp_envelope = {refuse, called, true, answer_in};
