#ifndef COMBATD_API_API_H
#define COMBATD_API_API_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "config.h"
#include "problem.h"

/*
 * The JSON face of the game endpoints. The http layer hands over a request body and gets a
 * complete reply back (status, content type, body); this layer never sees a socket, so the
 * fuzzers and unit tests drive it directly.
 */
typedef struct {
    int status;
    const char *content_type; /* a static string */
    char *body;               /* malloc'd, NUL-terminated; free with cbd_api_reply_free */
    size_t body_len;
} cbd_api_reply;

/*
 * An endpoint: reads the parsed request (always a JSON object), and either sets *response
 * (a new reference) and returns 0, or fills *problem and returns non-zero.
 */
typedef int (*cbd_endpoint_fn)(const cbd_config *cfg, const json_t *request, json_t **response,
                               cbd_problem *problem);

typedef struct {
    const char *path;
    cbd_endpoint_fn handle;
} cbd_api_endpoint;

/* The POST endpoint served at `path`, or NULL. */
const cbd_api_endpoint *cbd_api_find_endpoint(const char *path);

/* Every endpoint, ending with a {NULL, NULL} entry. */
extern const cbd_api_endpoint cbd_api_endpoints[];

/*
 * Runs one request body through an endpoint: parse (400 naming line and column), schema
 * (422 with pointers), compute, render. Always produces a reply; 500 only on out-of-memory.
 */
void cbd_api_run(const cbd_api_endpoint *ep, const cbd_config *cfg, const char *body, size_t len,
                 cbd_api_reply *reply);

/* A problem+json reply for a problem (also used by the http layer for 404, 405, 413, ...). */
void cbd_api_problem_reply(const cbd_problem *problem, cbd_api_reply *reply);

/* Renders a JSON value as a reply with the given status; falls back to a 500 problem. */
void cbd_api_json_reply(int status, const json_t *value, cbd_api_reply *reply);

void cbd_api_reply_free(cbd_api_reply *reply);

/* A seed from the OS (getrandom) in [0, 2^53 − 1], so that it survives JSON clients' doubles. */
int cbd_api_os_seed(uint64_t *seed);

/*
 * True when a request to `ep` is long enough to run off the HTTP thread (issue 4: /simulate
 * with more than one block of trials). A cheap pre-parse; the real validation happens in
 * cbd_api_run. Always false for other endpoints.
 */
bool cbd_api_wants_worker(const cbd_api_endpoint *ep, const cbd_config *cfg, const char *body,
                          size_t len);

/* The endpoints. */
int cbd_api_analyze_attack(const cbd_config *cfg, const json_t *request, json_t **response,
                           cbd_problem *problem);
int cbd_api_simulate(const cbd_config *cfg, const json_t *request, json_t **response,
                     cbd_problem *problem);
int cbd_api_duper_battle(const cbd_config *cfg, const json_t *request, json_t **response,
                         cbd_problem *problem);

#endif
