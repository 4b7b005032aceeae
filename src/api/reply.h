#ifndef COMBATD_API_REPLY_H
#define COMBATD_API_REPLY_H

/*
 * What the api answers the http layer (and /mcp's envelope) with: a complete reply, built from
 * a rendered text or from a problem. Apart from api.c so that /mcp, which api.c runs like any
 * endpoint, can build replies without depending on api.c in turn.
 */
#include <stddef.h>

#include "json/problem.h"

/* A complete reply: status, content type, body. */
typedef struct {
    int status;
    const char *content_type; /* a static string; NULL for a 202 without a body */
    char *body;               /* malloc'd, NUL-terminated; free with cbd_api_reply_free */
    size_t body_len;
    /* For a reply that wraps another endpoint's answer (/mcp's tools/call), the status that
     * endpoint would have answered over HTTP: a tool's 422 travels as a 200 whose result says
     * isError. 0 for every other reply, whose own status is the outcome. */
    int call_status;
} cbd_api_reply;

/* A problem+json reply for a problem (also used by the http layer for 404, 405, 413, ...). */
void cbd_api_problem_reply(const cbd_problem *problem, cbd_api_reply *reply);

/* The problem+json text of a problem (malloc'd, NUL-terminated), or NULL when memory ran out:
 * the body cbd_api_problem_reply answers. */
char *cbd_api_problem_text(const cbd_problem *problem, size_t *len);

/* A reply of a rendered text, taken over; NULL text (out of memory) makes it the constant 500.
 * call_status is 0. */
void cbd_api_text_reply(int status, const char *content_type, char *text, size_t len,
                        cbd_api_reply *reply);

void cbd_api_reply_free(cbd_api_reply *reply);

/* The constant 500 problem body (not NUL-counted) and the reply of it, for when nothing can be
 * allocated. */
extern const char cbd_api_oom_body[];
extern const size_t cbd_api_oom_body_len;
void cbdp_api_oom_reply(cbd_api_reply *reply);

#endif
