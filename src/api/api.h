#ifndef COMBATD_API_API_H
#define COMBATD_API_API_H

/*
 * The shared header of src/api/: the endpoint contract every endpoint file implements (its
 * handler and cost estimate are declared at the end), the endpoint row, and parsing and
 * answering a request (api.c). The rows themselves are endpoints.h's (endpoints.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "combatd/budget.h"
#include "api_config.h"
#include "endpoint_support.h"
#include "json/json_write.h"
#include "json/problem.h"
#include "reply.h"

/*
 * The JSON face of the game endpoints. The http layer hands over a request body and gets a
 * complete reply back (cbd_api_reply, reply.h); this layer never sees a socket, so the fuzzers
 * and unit tests drive it directly. The table of endpoints is endpoints.h's, built in
 * endpoints.c; parsing and answering a request of any endpoint is api.c's.
 */

/*
 * The api layer's one result convention: a function that can fail returns bool,
 * true when it succeeded, and on false has filled the cbd_problem it was given (a status, a
 * detail, and for 422 one field error per offending member, named by JSON pointer through
 * cbd_reader_error). Every caller checks the bool. Readers that go on after an error, so that
 * one answer lists every bad field, combine the results (`ok &= ...`) and still return false.
 * Field getters (json_reader.h) say more than yes or no, so they return cbd_field (present,
 * absent, bad); a bad field has already been recorded in the problem. Out of memory is a 500
 * problem, entropy trouble (cbd_api_fresh_seed) a 503.
 *
 * An endpoint: reads the parsed request (always a JSON object), and either writes its answer
 * (one JSON value) to *out and returns true, or fills *problem and returns false; what it wrote
 * by then is dropped. Answers are streamed rather than built as jansson trees (json_write.h).
 * Every core call it makes gets `budget` (budget.h), which meters the request's work and memory;
 * when a core call stops on it the endpoint says which member to reduce with
 * cbd_api_core_problem. `out` is capped at server.max_answer_bytes: an endpoint names the member
 * that makes its answer large with cbd_jw_blame, and refuses with cbd_api_answer_too_large
 * before working where it can tell the size in advance.
 */
typedef bool (*cbd_endpoint_fn)(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                cbd_jw *out, cbd_problem *problem);

/*
 * The estimated cost of answering a parsed request, in nanoseconds of one core:
 * about CBD_COST_NS_PER_TERM a binomial term, CBD_COST_NS_PER_BATTLE a simulated battle,
 * CBD_COST_NS_PER_BYTE an answer byte, plus CBD_COST_BASE_NS for parsing. The http layer answers a
 * request on its own thread when the estimate is at most server.inline_cost_ns, and on the worker
 * pool otherwise. An estimator never fails: a request it cannot read, or one past its endpoint's
 * budget, is answered by a cheap 422, so it returns CBD_COST_BASE_NS for it. NULL in a row means
 * the endpoint always costs CBD_COST_BASE_NS.
 */
typedef uint64_t (*cbd_cost_fn)(const cbd_config *cfg, const json_t *request);

#define CBD_COST_BASE_NS       UINT64_C(20000)
#define CBD_COST_NS_PER_TERM   UINT64_C(10)
#define CBD_COST_NS_PER_BATTLE UINT64_C(100)
#define CBD_COST_NS_PER_BYTE   UINT64_C(4) /* rendering the answer */

typedef struct cbd_api_endpoint cbd_api_endpoint;

/*
 * An endpoint that wraps other endpoints' answers in a protocol of its own (/mcp: JSON-RPC 2.0)
 * answers its problems in that protocol's words too: a body that is not JSON, a refused
 * request, a request the worker pool had no room for.
 */
typedef struct {
    /* The reply for `problem`. `request` is the parsed request when there is one (NULL when
     * the body did not parse), so that the reply can name it (JSON-RPC's id). Out of memory
     * is the constant 500 (cbd_api_text_reply with NULL text). */
    void (*refuse)(const json_t *request, const cbd_problem *problem, cbd_api_reply *reply);
    /* The endpoint whose handler the request runs (a tools/call's tool), or NULL; metrics
     * count the calls by it. */
    const cbd_api_endpoint *(*called)(const json_t *request);
    /* The body may be any JSON value, not only an object: the protocol says what a value that
     * is not one of its messages is (JSON-RPC: an Invalid Request, not a Parse error), and a
     * number too large to hold is such a value too. An array reaches the handler (JSON-RPC: a
     * batch); any other value that is not an object is refused as not being one. */
    bool any_value;
    /* Answers in place of the row's handler, told the revision of the protocol that the
     * transport named (cbd_api_request.protocol; NULL when it named none), which decides what
     * a body may be (MCP: a batch in revision 2025-03-26 only). NULL: the row's handler. */
    bool (*handle)(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                   const char *protocol, cbd_jw *out, cbd_problem *problem);
} cbd_api_envelope;

/* An endpoint as an MCP tool (endpoints.h, CBD_TOOL): title NULL for one that is not. */
typedef struct {
    const char *title;
    const char *description;
    bool seeded; /* a seed is drawn when none is sent: the same arguments may answer otherwise */
} cbd_api_tool;

/*
 * The api layer's columns of an endpoint's row (endpoints.h holds the rows; the http layer's
 * route table embeds this struct, so a request is looked up once).
 */
struct cbd_api_endpoint {
    const char *path;
    cbd_endpoint_fn handle;           /* NULL for a resource the http layer serves (GET) */
    cbd_cost_fn cost;                 /* NULL: CBD_COST_BASE_NS, always on the HTTP thread */
    const cbd_api_envelope *envelope; /* NULL: problems are RFC 9457 problem+json */
    cbd_api_tool tool;
};

/* The POST endpoint served at `path`, or NULL (for callers without a server: fuzzers,
 * benchmarks, tests; the server routes through its own table, router.h). In endpoints.c. */
const cbd_api_endpoint *cbd_api_find_endpoint(const char *path);

/* Every row of endpoints.h (GET rows with handle NULL), ending with an entry whose path is
 * NULL. In endpoints.c. */
extern const cbd_api_endpoint cbd_api_endpoints[];

/* A parsed request, between cbd_api_parse and cbd_api_answer. */
typedef struct {
    const cbd_api_endpoint *ep;
    json_t *doc;                  /* the request's JSON object, made in `arena` */
    struct cbd_json_arena *arena; /* owned until cbd_api_answer or _release (json_alloc.h) */
    size_t body_len;              /* the bytes parsed, charged with the answer (budget.h) */
    /* The revision of its envelope's protocol that the transport named (/mcp: the
     * MCP-Protocol-Version header, checked and set by the http layer after cbd_api_parse, as
     * a string that outlives the request), or NULL when it named none. */
    const char *protocol;
} cbd_api_request;

/*
 * Parses a body for `ep`. Returns true with *req set, or false with the 400 (not JSON, naming
 * line and column) or 422 (not an object) reply filled. The body is parsed once: the http
 * layer asks cbd_api_cost of the parsed request, then answers it here or on a worker.
 */
bool cbd_api_parse(const cbd_api_endpoint *ep, const char *body, size_t len, cbd_api_request *req,
                   cbd_api_reply *reply);

/* The estimated nanoseconds of one core that answering the request costs (cbd_cost_fn). */
uint64_t cbd_api_cost(const cbd_api_request *req, const cbd_config *cfg);

/*
 * Where a request runs decides how much it may spend there (server.work_budget_ms on a worker,
 * server.inline_work_us on an HTTP thread; server.memory_budget on both). `hand_back`: a request
 * that spends `work_limit` is handed back to be run again elsewhere rather than refused.
 * `progress` (may be NULL) is called about every millisecond of work (budget.h's
 * cbd_budget_progress_fn): CBD_BUDGET_DEADLINE stops the request with a 504 (the caller's
 * deadline; /plan-turn answers its best plan so far instead), an abandon with what
 * `refuse_cancelled` says.
 */
typedef struct {
    uint64_t work_limit; /* units (budget.h) */
    size_t mem_limit;    /* bytes */
    bool hand_back;
    cbd_budget_progress_fn progress;
    void *progress_arg;
    /* When `progress` abandoned the request (CBD_BUDGET_CANCELLED), the caller refuses it in
     * its own words: true with `problem` set (the server is stopping: a 503; the client gone: a
     * refusal never sent), and the answer is that refusal in the endpoint's words,
     * as cbd_api_refuse makes it. May be NULL; called with `progress_arg`. */
    bool (*refuse_cancelled)(void *arg, cbd_problem *problem);
    cbd_scratch *scratch; /* where the large blocks come from (scratch.h); may be NULL */
    /* May be NULL: the request's budget, as it runs (a progress callback given this pointer
     * reads what the request has spent so far) and as the request left it (benchmarks, tests). */
    cbd_budget *report;
} cbd_api_limits;

/* The full limits of the config (a worker's, and every caller's without a server). */
cbd_api_limits cbd_api_full_limits(const cbd_config *cfg);
/* The limits of a request answered on an HTTP thread: a small work budget, handed back. */
cbd_api_limits cbd_api_inline_limits(const cbd_config *cfg);

/*
 * Validates (422 with pointers), computes and renders the answer within `limits`, and releases
 * the request. Returns true with a reply (500 only on out-of-memory); false, with the request
 * kept and no reply, when `limits->hand_back` and the work budget was spent: the caller runs it
 * again with more (cbd_api_answer).
 */
bool cbd_api_answer_within(cbd_api_request *req, const cbd_config *cfg,
                           const cbd_api_limits *limits, cbd_api_reply *reply);

/* cbd_api_answer_within at the full limits: always produces a reply. */
void cbd_api_answer(cbd_api_request *req, const cbd_config *cfg, cbd_api_reply *reply);

/* Releases a parsed request that will not be answered. */
void cbd_api_request_release(cbd_api_request *req);

/*
 * Answers a parsed request with `problem` without running it (the worker pool had no room,
 * the server is stopping), in its endpoint's words (cbd_api_envelope), and releases it.
 */
void cbd_api_refuse(cbd_api_request *req, const cbd_problem *problem, cbd_api_reply *reply);

/* The endpoint whose handler a parsed request runs when its own wraps others' (/mcp's
 * tools/call), or NULL (cbd_api_envelope.called). */
const cbd_api_endpoint *cbd_api_called(const cbd_api_request *req);

/* Parse and answer in one call, for callers without a worker (fuzzers, benchmarks, tests). */
void cbd_api_run(const cbd_api_endpoint *ep, const cbd_config *cfg, const char *body, size_t len,
                 cbd_api_reply *reply);

/* The endpoints. */
bool cbd_api_analyze_attack(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                            cbd_jw *out, cbd_problem *problem);
bool cbd_api_simulate(const cbd_config *cfg, cbd_budget *budget, const json_t *request, cbd_jw *out,
                      cbd_problem *problem);
uint64_t cbd_api_simulate_cost(const cbd_config *cfg, const json_t *request);
uint64_t cbd_api_analyze_attack_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_analyze_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                          cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_analyze_turn_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_simulate_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                           cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_simulate_turn_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_plan_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                       cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_plan_turn_cost(const cbd_config *cfg, const json_t *request);
/* POST /warzone/analyze-turn, /warzone/simulate-turn, /warzone/plan-turn: the turn endpoints
 * for the game's own JSON (src/api/warzone/, W40). */
bool cbd_api_warzone_analyze_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                  cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_warzone_analyze_turn_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_warzone_simulate_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                   cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_warzone_simulate_turn_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_warzone_plan_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                               cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_warzone_plan_turn_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_duper_battle(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                          cbd_jw *out, cbd_problem *problem);
bool cbd_api_duper_board_battle(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_duper_board_battle_cost(const cbd_config *cfg, const json_t *request);
bool cbd_api_duper_board_options(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                 cbd_jw *out, cbd_problem *problem);
uint64_t cbd_api_duper_board_options_cost(const cbd_config *cfg, const json_t *request);
/* The Model Context Protocol over JSON-RPC 2.0 (mcp.h): the endpoints above as tools. The
 * envelope's handler answers in the revision the request names (cbd_api_request.protocol);
 * cbd_api_mcp, the row's, answers as when it names none, which MCP reads as 2025-03-26. */
bool cbd_api_mcp(const cbd_config *cfg, cbd_budget *budget, const json_t *request, cbd_jw *out,
                 cbd_problem *problem);
uint64_t cbd_api_mcp_cost(const cbd_config *cfg, const json_t *request);
extern const cbd_api_envelope cbd_api_mcp_envelope;

#endif
