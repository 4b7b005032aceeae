/*
 * Replies (reply.h): a rendered text taken over, a problem as problem+json, and the constant
 * 500 for when not even that can be allocated.
 */
#include "reply.h"

#include <stdlib.h>
#include <string.h>

#include "endpoint_support.h"
#include "json/json_alloc.h"
#include "json/json_write.h"

/* Used when even the problem cannot be built: a constant body needs no allocation. */
const char cbd_api_oom_body[] =
    "{\"type\":\"about:blank\",\"title\":\"Internal Server Error\",\"status\":500,"
    "\"detail\":\"" CBD_API_OOM_DETAIL "\",\"errors\":[]}";
const size_t cbd_api_oom_body_len = sizeof cbd_api_oom_body - 1;

void cbdp_api_oom_reply(cbd_api_reply *reply) {
    reply->status = 500;
    reply->content_type = "application/problem+json";
    reply->body = strdup(cbd_api_oom_body);
    reply->body_len = reply->body ? cbd_api_oom_body_len : 0;
    reply->call_status = 0;
}

/* Takes a rendered body, or answers 500 when rendering ran out of memory (text NULL). */
void cbd_api_text_reply(int status, const char *content_type, char *text, size_t len,
                        cbd_api_reply *reply) {
    if (!text) {
        cbdp_api_oom_reply(reply);
        return;
    }
    reply->status = status;
    reply->content_type = content_type;
    reply->body = text;
    reply->body_len = len;
    reply->call_status = 0;
}

char *cbd_api_problem_text(const cbd_problem *problem, size_t *len) {
    cbd_json_alloc_reset();
    json_t *doc = cbd_problem_to_json(problem);
    char *text = doc ? cbd_json_write(doc, len) : NULL;
    json_decref(doc);
    if (cbd_json_alloc_failed()) { /* a member may be missing: the constant 500 instead */
        free(text);
        text = NULL;
    }
    return text;
}

void cbd_api_problem_reply(const cbd_problem *problem, cbd_api_reply *reply) {
    size_t len = 0;
    char *text = cbd_api_problem_text(problem, &len);
    cbd_api_text_reply(problem->status ? problem->status : 500, "application/problem+json", text,
                       len, reply);
}

void cbd_api_reply_free(cbd_api_reply *reply) {
    free(reply->body);
    reply->body = NULL;
    reply->body_len = 0;
}
