#ifndef COMBATD_API_MCP_INTERNAL_H
#define COMBATD_API_MCP_INTERNAL_H

/*
 * What the MCP files share (mcp.c: the endpoint, a body's cost and refusal; mcp_batch.c:
 * JSON-RPC batches; mcp_message.c: reading one message, the dispatch, the refusals;
 * mcp_lifecycle.c: the revisions, initialize and ping; mcp_tools.c: tools/list and tools/call;
 * mcp_resources.c: the embedded documents; mcp_envelope.c: the JSON-RPC strings read and the
 * result and error responses). Nothing outside them includes this. Each file uses only files
 * after it in this list, so that none needs another back.
 */
#include <stdbool.h>

#include <jansson.h>

#include "api/api.h"
#include "json/json_write.h"
#include "json/problem.h"

/* JSON-RPC 2.0's error codes, and MCP's for a resource it does not have. */
#define CBD_MCP_PARSE_ERROR        (-32700)
#define CBD_MCP_INVALID_REQUEST    (-32600)
#define CBD_MCP_METHOD_NOT_FOUND   (-32601)
#define CBD_MCP_INVALID_PARAMS     (-32602)
#define CBD_MCP_RESOURCE_NOT_FOUND (-32002)
/* From JSON-RPC's range for a server's own errors: a request of a batch whose response did not
 * fit in what the batch had left of server.max_answer_bytes (alone, it would be the 422 of an
 * answer past the cap). */
#define CBD_MCP_ANSWER_TOO_LARGE (-32000)

/* A JSON-RPC request as read from a /mcp body: a string or integer id (never null), a method,
 * and params (an object, or NULL when the request has none). */
typedef struct {
    const json_t *id;
    const char *method;
    const json_t *params;
} cbd_mcp_call;

/* One method's context: the endpoint handler's arguments, the request read, and the bytes its
 * response may take: server.max_answer_bytes, or in a batch what the responses before it left
 * of it (0: no cap). */
typedef struct {
    const cbd_config *cfg;
    cbd_budget *budget;
    const cbd_mcp_call *call;
    size_t cap;
} cbd_mcp_ctx;

/* A method: writes its whole response (result or JSON-RPC error) to `out` and returns true, or
 * returns false with `problem` filled, which cbd_api_mcp_envelope answers (a tool's refusal
 * becomes a tool result with isError). */
typedef bool (*cbd_mcp_method_fn)(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);

/* The text of a JSON string without a NUL inside it ("tools/call\u0000x" is no method), or
 * NULL for anything else. */
const char *cbdp_mcp_plain_string(const json_t *v);

/* Reads a request (a message with jsonrpc "2.0", a string or integer id and a string method)
 * into *call; false for anything else. params is NULL unless it is an object. */
bool cbdp_mcp_read_call(const json_t *message, cbd_mcp_call *call);

/* {"jsonrpc":"2.0","id":ID,"result": — the method writes its result value next, then
 * cbdp_mcp_result_end closes the response. */
void cbdp_mcp_result_begin(cbd_jw *out, const cbd_mcp_call *call);
void cbdp_mcp_result_end(cbd_jw *out);

/* A tools/call's whole response: {"content":[{"type":"text","text":TEXT}],
 * "structuredContent":TEXT,"isError":false} for an answer (TEXT, a JSON object, as it is and
 * as the text that clients of older revisions read), or without structuredContent and with
 * "isError":true for a refusal (TEXT its problem+json document). */
void cbdp_mcp_tool_result(cbd_jw *out, const cbd_mcp_call *call, const char *text, size_t len,
                          bool is_error);

/* {"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M — the caller adds members (data) and
 * closes twice. `id` NULL writes null. */
void cbdp_mcp_error_begin(cbd_jw *out, const json_t *id, int code, const char *message);

/* A whole JSON-RPC error response to `call` (a printf-style message). Returns true, for
 * `return cbdp_mcp_error(...)` from a method. */
bool cbdp_mcp_error(cbd_jw *out, const cbd_mcp_call *call, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The methods of mcp_lifecycle.c, mcp_tools.c and mcp_resources.c. */
bool cbdp_mcp_initialize(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);
bool cbdp_mcp_ping(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);
bool cbdp_mcp_tools_list(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);
bool cbdp_mcp_tools_call(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);
bool cbdp_mcp_resources_list(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);
bool cbdp_mcp_resources_read(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);
bool cbdp_mcp_resource_templates_list(const cbd_mcp_ctx *ctx, cbd_jw *out, cbd_problem *problem);

/* Whether the build holds a document at `uri` (the instructions point to the rules only when
 * it does). */
bool cbdp_mcp_has_resource(const char *uri);

/* The URI of the rules document. */
#define CBD_MCP_RULES_URI "combatd://docs/rules.md"

/*
 * A tools/call's tool and arguments: the endpoint named by params.name and params.arguments
 * (NULL when the call sends none). False, with *error a message for -32602, when the name is
 * missing or unknown or the arguments are not an object.
 */
bool cbdp_mcp_tool_call_of(const cbd_mcp_call *call, const cbd_api_endpoint **tool,
                           const json_t **arguments, const char **error);

/*
 * Answers one message to `out`: a body's (`at` "") or one element of a batch's (`at` its
 * pointer, "/3"), whose response may take `cap` bytes. As a method returns: true with the
 * response written (nothing for a notification), or false with `problem`.
 */
bool cbdp_mcp_answer_message(const cbd_config *cfg, cbd_budget *budget, const json_t *message,
                             const char *at, size_t cap, cbd_jw *out, cbd_problem *problem);

/*
 * How a message refused with a problem is answered:
 *  - a tools/call's refusal (the endpoint's 4xx, the deadline's 504, the worker pool's 503): a
 *    tool result that says isError, so that the model reads the problem and can correct its
 *    arguments or retry. The pool's 503 is a tool error too, not the HTTP 503 with Retry-After
 *    that the other endpoints answer: MCP clients report an HTTP error as a failed request,
 *    mostly without its body, while a tool error reaches the model with the problem's words,
 *    which say to retry;
 *  - a message that is not a request (a 4xx): a JSON-RPC error without id whose `data` is the
 *    problem document: -32700 when it is not JSON (cbd_api_parse's 400), -32600 when it is not
 *    a JSON-RPC message (422), answered 400 as a body;
 *  - in a batch, any other request refused by a 4xx (the one there is: its response passed
 *    what the batch had left of the cap): CBD_MCP_ANSWER_TOO_LARGE with its id;
 *  - anything else (the service's own failure, a 500, out of memory mostly; a request of a
 *    body past the cap; a whole batch the worker pool has no room for, which no one call's
 *    tool error could stand for): no response of the protocol, but the problem over HTTP,
 *    as the batch's whole answer in a batch.
 */
typedef enum {
    REFUSAL_TOOL_ERROR,
    REFUSAL_NO_REQUEST,
    REFUSAL_TOO_LARGE,
    REFUSAL_HTTP
} cbd_mcp_refusal;

/* How `message` (NULL: not JSON) refused with `problem` is answered; *call is read from it. */
cbd_mcp_refusal cbdp_mcp_refusal_of(const json_t *message, const cbd_problem *problem,
                                    bool in_batch, cbd_mcp_call *call);

/* The response of a refusal that has one (not REFUSAL_HTTP); false when memory ran out. */
bool cbdp_mcp_write_refusal(cbd_jw *out, cbd_mcp_refusal kind, const cbd_mcp_call *call,
                            const cbd_problem *problem);

/* A JSON-RPC batch, answered in revision `protocol` (NULL: none named) (mcp_batch.c). */
bool cbdp_mcp_answer_batch(const cbd_config *cfg, cbd_budget *budget, const json_t *batch,
                           const char *protocol, cbd_jw *out, cbd_problem *problem);

#endif
