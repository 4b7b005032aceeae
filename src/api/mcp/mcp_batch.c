/*
 * /mcp's JSON-RPC batches (revision 2025-03-26; mcp_internal.h): each element answered as a
 * body of its own would be (mcp_message.c) but with every refusal in-band, the responses in one
 * array under one budget and one answer cap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp.h"
#include "mcp_internal.h"

/* The 422 of a batch whose answer passed the cap at the element at `at` even with that
 * element's response the short error it is given when it does not fit. NULL, for returning. */
static char *batch_too_large(const cbd_config *cfg, const char *at, cbd_problem *problem) {
    cbd_problem_init(problem);
    cbd_problem_set(problem, 422,
                    "The batch's answer would pass server.max_answer_bytes; send its messages in "
                    "smaller batches.");
    (void)cbd_api_answer_too_large(cfg, 0, at, problem);
    return NULL;
}

/*
 * One element of a batch (at `at`), answered as the body of a request of its own would be but
 * with every refusal in-band (cbdp_mcp_refusal_of), its response capped at `room`: its text
 * (malloc'd; empty for a notification or a response) and length. NULL, with `problem` set, when the
 * batch cannot be answered: memory ran out, the service failed, or not even the element's error
 * fits in `room`.
 */
static char *answer_element(const cbd_config *cfg, cbd_budget *budget, const json_t *message,
                            const char *at, size_t room, size_t *len, cbd_problem *problem) {
    cbd_jw one;
    cbd_jw_init(&one);
    cbd_jw_set_limit(&one, room);
    cbd_problem_init(problem);
    bool ok = cbdp_mcp_answer_message(cfg, budget, message, at, room, &one, problem);
    char *text = ok ? cbd_jw_finish(&one, len) : NULL;
    if (text) {
        return text;
    }
    cbd_jw_discard(&one);
    if (!cbd_api_settle_problem(ok, &one, cfg, budget, problem)) {
        (void)cbd_api_oom_problem(problem);
        return NULL;
    }
    cbd_mcp_call call;
    cbd_mcp_refusal kind = cbdp_mcp_refusal_of(message, problem, true, &call);
    if (kind == REFUSAL_HTTP) {
        return NULL; /* the batch's answer is the problem */
    }
    cbd_jw_init(&one);
    cbd_jw_set_limit(&one, room);
    text = cbdp_mcp_write_refusal(&one, kind, &call, problem) ? cbd_jw_finish(&one, len) : NULL;
    if (!text) {
        bool over = one.over;
        cbd_jw_discard(&one);
        if (over) {
            return batch_too_large(cfg, at, problem);
        }
        (void)cbd_api_oom_problem(problem);
    }
    return text;
}

/* The most bytes the next response of a batch may take when `used` bytes of its answer are
 * written: one more goes before it ('[' or ','), one after the last (']'). A cap of 0 (none)
 * stays 0; a batch without room left gives 1, which no response fits in. */
static size_t room_left(size_t cap, size_t used) {
    if (cap == 0) {
        return 0;
    }
    return cap > used + 2 ? cap - used - 2 : 1;
}

/*
 * A JSON-RPC batch (2025-03-26 only; 2025-06-18 removed them): every element is answered on
 * its own, in order, and the responses (none for notifications and responses) make one array;
 * a batch without a request is accepted with 202 and no body. An empty batch is an Invalid
 * Request (JSON-RPC 2.0, 6).
 *
 * The batch is one request to the budget: its tool calls run one after another on the one
 * budget the request has, so a call after the budget is spent is a tool error that says so,
 * and a batch costs at most what one request may, whatever its length. That is what a length
 * limit would not give (one costly call uses up a budget alone), and a budget does not refuse
 * the batches that are cheap however long (a thousand pings), which a length limit would;
 * server.body_limit bounds the length anyway. The answer cap holds for the whole array: each
 * response may take what the ones before it left (room_left).
 */
bool cbdp_mcp_answer_batch(const cbd_config *cfg, cbd_budget *budget, const json_t *batch,
                           const char *protocol, cbd_jw *out, cbd_problem *problem) {
    if (protocol && strcmp(protocol, CBD_MCP_BATCH_VERSION) != 0) {
        cbd_problem_set(problem, 422, "MCP %s takes one JSON-RPC message per request.", protocol);
        cbd_problem_field(problem, "",
                          "is a JSON-RPC batch, which MCP %s does not take (only revision "
                          "%s did): send one message per request",
                          protocol, CBD_MCP_BATCH_VERSION);
        return false;
    }
    size_t n = json_array_size(batch);
    if (n == 0) {
        cbd_problem_set(problem, 422, "The batch is empty; see `errors`.");
        cbd_problem_field(problem, "",
                          "is an empty batch: a JSON-RPC batch holds at least one message");
        return false;
    }
    size_t cap = (size_t)cfg->limits.max_answer_bytes, answered = 0;
    for (size_t i = 0; i < n; i++) {
        char at[24];
        snprintf(at, sizeof at, "/%zu", i);
        size_t len = 0;
        char *text = answer_element(cfg, budget, json_array_get(batch, i), at,
                                    room_left(cap, out->len), &len, problem);
        if (!text) {
            return false;
        }
        if (len > 0) {
            if (answered++ == 0) {
                cbd_jw_array_open(out);
            }
            cbd_jw_raw(out, text, len);
            /* Writing a response and copying it here is work that no core call meters: charged,
             * so that a long batch of cheap messages spends an HTTP thread's budget as a costly
             * request does and goes on to a worker. What a spent budget means is the next tool
             * call's to say (it is refused), so the result is not needed here. */
            (void)cbd_charge(budget, cbd_work_times(CBD_COST_NS_PER_BYTE, len));
        }
        free(text);
    }
    if (answered > 0) {
        cbd_jw_array_close(out);
    }
    cbd_problem_init(problem);
    return true;
}
