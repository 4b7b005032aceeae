#ifndef COMBATD_API_ENDPOINT_SUPPORT_H
#define COMBATD_API_ENDPOINT_SUPPORT_H

/*
 * What every endpoint uses to refuse a request in the same words as every other: the problems
 * of a core call that failed (a spent budget, out of memory), of an answer past the cap, of a
 * handler stopped by either (cbd_api_settle_problem, which api.c and /mcp's tools/call share),
 * and a seed from the OS. Apart from api.c, which routes to the endpoints, so that the endpoints
 * and the table that names them do not depend on each other.
 */
#include <stdbool.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/status.h"
#include "api_config.h"
#include "json/json_write.h"
#include "json/problem.h"

/*
 * The problem for a core call that failed with `st`: CBD_ERR_BUDGET is a 422 naming `member` (a
 * JSON pointer, "" for the whole request) as the one to reduce, with the budget and what was
 * spent (a 504 when the deadline stopped it); CBD_ERR_NOMEM the 500 of out-of-memory; anything
 * else a 500. Returns false, for `return cbd_api_core_problem(...)`.
 */
bool cbd_api_core_problem(const cbd_config *cfg, const cbd_budget *budget, cbd_status st,
                          const char *member, cbd_problem *problem);

/* The words of every out-of-memory 500: the problem's detail here, and the constant body of
 * reply.c that needs no allocation (cbd_api_oom_body, which the http layer sends too). Outside
 * an answer (the logs, starting up) it is cbd_status_str(CBD_ERR_NOMEM). */
#define CBD_API_OOM_DETAIL "The service ran out of memory; try again."

/* The 500 problem of out-of-memory, in the words of every other. Returns false. */
bool cbd_api_oom_problem(cbd_problem *problem);

/* What reading a request came to. A reader's bool cannot tell a refusal from memory running
 * out, and a request opened with an unknown member reads on with its error recorded; this
 * says which, so that no endpoint guesses it from an empty problem. */
typedef enum {
    CBD_READ_OK,        /* read whole, nothing recorded */
    CBD_READ_INVALID,   /* a rule is broken: every offending member is recorded (a 4xx) */
    CBD_READ_NO_MEMORY, /* an allocation failed: the 500 is recorded */
} cbd_read_status;

/* The status of a reading that returned `ok`, the one place that tells the failures apart:
 * any failed jansson allocation of this request (json/json_alloc.h), a false with nothing
 * recorded (the 500 is recorded then), or a 500 recorded is memory; any other problem recorded
 * is a refusal, whatever `ok` says. */
cbd_read_status cbd_api_read_status(bool ok, cbd_problem *problem);

/* The 422 of an answer that would pass server.max_answer_bytes (`bytes` its estimated size, 0
 * when unknown), naming `member`. Returns false. */
bool cbd_api_answer_too_large(const cbd_config *cfg, double bytes, const char *member,
                              cbd_problem *problem);

/* A seed from the OS (getrandom) in [0, CBD_SEED_MAX] (json_reader.h), so that it survives
 * JSON clients' doubles: true, or false with the 503 problem every endpoint answers when the
 * OS has no entropy to give. */
bool cbd_api_fresh_seed(uint64_t *seed, cbd_problem *problem);

/*
 * What a handler's outcome is answered with when it is not an answer: the cap's 422 when the
 * writer passed server.max_answer_bytes, the budget's when it was spent and the handler did not
 * name a member, whatever the handler concluded; a 500 when it recorded no problem. `ok` and
 * `out` as the handler left them (`out` finished or discarded). Returns false when the handler
 * succeeded and only memory ran out finishing its text: that has no problem of its own, the
 * answer is the constant 500.
 */
bool cbd_api_settle_problem(bool ok, const cbd_jw *out, const cbd_config *cfg,
                            const cbd_budget *budget, cbd_problem *problem);

#endif
