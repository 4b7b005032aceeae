/*
 * POST /mcp: the JSON-RPC 2.0 envelope of the Model Context Protocol (mcp.h). A body is one
 * message (mcp_message.c): a request is answered with one response in a JSON body, a
 * notification or a client's response is accepted with 202 and no body (the handler writes
 * nothing), and a body that is not a message is a JSON-RPC error without an id
 * (cbd_api_mcp_envelope). In revision 2025-03-26 (and when the request names none) a body may
 * also be a batch, an array of messages, each answered as a body of its own would be but every
 * refusal in-band, in one array of the responses (mcp_batch.c). This file is the endpoint:
 * which of the two a body is, what it costs, and how a refused body is answered.
 */
#include "mcp.h"

#include <string.h>

#include "mcp_internal.h"

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
    if (!request || !cbdp_mcp_read_call(request, &call) || strcmp(call.method, "tools/call") != 0 ||
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
