/* Queuing answers with the headers every answer carries (response.h). */
#include "response.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/guards/conns.h"

/* The Origin to echo in Access-Control-Allow-Origin, or NULL when CORS does not allow it. */
static const char *allowed_origin(const cbd_answer_policy *policy, struct MHD_Connection *con) {
    const char *origin = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Origin");
    if (!origin) {
        return NULL;
    }
    for (size_t i = 0; i < policy->server->n_cors_origins; i++) {
        const char *allowed = policy->server->cors_origins[i];
        if (strcmp(allowed, "*") == 0) {
            return "*";
        }
        if (strcmp(allowed, origin) == 0) {
            return origin;
        }
    }
    return NULL;
}

/* The CORS headers; true when every header could be added. */
static bool add_cors(struct MHD_Response *resp, const char *origin,
                     const cbd_extra_headers *extra) {
    bool ok = MHD_add_response_header(resp, "Access-Control-Allow-Origin", origin) == MHD_YES;
    ok &= MHD_add_response_header(resp, "Access-Control-Expose-Headers", "X-Request-Id") == MHD_YES;
    ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Origin") == MHD_YES;
    if (extra && extra->preflight) {
        ok &= MHD_add_response_header(resp, "Access-Control-Allow-Methods",
                                      "GET, HEAD, POST, OPTIONS") == MHD_YES;
        const char *headers =
            extra->allow_headers ? extra->allow_headers : "Content-Type, X-Request-Id";
        ok &= MHD_add_response_header(resp, "Access-Control-Allow-Headers", headers) == MHD_YES;
        ok &= MHD_add_response_header(resp, "Access-Control-Max-Age", "600") == MHD_YES;
    }
    return ok;
}

/* The headers of one answer, in the order clients have always seen them. */
static bool add_headers(const cbd_answer_policy *policy, struct MHD_Connection *con,
                        const cbd_answer *answer, struct MHD_Response *resp,
                        const char *content_type, const cbd_extra_headers *extra) {
    bool ok = true;
    if (content_type) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type) == MHD_YES;
    }
    ok &= MHD_add_response_header(resp, "X-Request-Id", answer->request_id) == MHD_YES;
    ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store") == MHD_YES;
    /* No answer is to be sniffed into something else: JSON stays data, never a script. */
    ok &= MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff") == MHD_YES;
    bool no_cors = answer->no_cors || (extra && extra->no_cors);
    const char *origin = no_cors ? NULL : allowed_origin(policy, con);
    if (origin) {
        ok &= add_cors(resp, origin, extra);
    }
    if (extra && extra->csp) {
        ok &= MHD_add_response_header(resp, "Content-Security-Policy", extra->csp) == MHD_YES;
        /* The page links nowhere that needs to know where a visitor came from. */
        ok &= MHD_add_response_header(resp, "Referrer-Policy", "no-referrer") == MHD_YES;
    }
    if (extra && extra->retry_after) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, extra->retry_after) ==
              MHD_YES;
    }
    if (extra && extra->allow) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, extra->allow) == MHD_YES;
    }
    /* While draining every answer ends its connection. */
    if ((extra && extra->close) || atomic_load(policy->draining)) {
        ok &= MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close") == MHD_YES;
    }
    return ok;
}

/* One attempt to queue an answer; MHD_NO when MHD could not (out of memory, mostly). */
static enum MHD_Result queue_once(const cbd_answer_policy *policy, struct MHD_Connection *con,
                                  cbd_answer *answer, unsigned status, const char *content_type,
                                  void *body, size_t len, bool must_free,
                                  const cbd_extra_headers *extra) {
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        len, body, must_free ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        if (must_free) {
            free(body);
        }
        return MHD_NO;
    }
    bool ok = add_headers(policy, con, answer, resp, content_type, extra);
    enum MHD_Result rc = ok ? MHD_queue_response(con, status, resp) : MHD_NO;
    MHD_destroy_response(resp);
    if (rc == MHD_YES) {
        answer->status = status;
        answer->bytes_out = len;
        /* The send deadline runs from here: a client that reads its answer too slowly is
         * cut (watchdog.h); the request deadline has stopped. */
        cbd_watch_sending(cbd_watch_of(con));
    }
    return rc;
}

enum MHD_Result cbd_http_send(const cbd_answer_policy *policy, struct MHD_Connection *con,
                              cbd_answer *answer, unsigned status, const char *content_type,
                              void *body, size_t len, bool must_free,
                              const cbd_extra_headers *extra) {
    bool oom = body == cbd_api_oom_body;
    enum MHD_Result rc =
        queue_once(policy, con, answer, status, content_type, body, len, must_free, extra);
    if (rc == MHD_NO && !oom) {
        /* Under memory pressure a large answer's response or one of its headers may not be
         * made: the constant 500 needs less (no body copy, fewer headers), so try it once
         * before the connection is closed without an answer. */
        cbd_extra_headers close = {.close = true};
        rc = queue_once(policy, con, answer, 500, "application/problem+json",
                        (void *)cbd_api_oom_body, cbd_api_oom_body_len, false, &close);
    }
    return rc;
}

enum MHD_Result cbdp_http_send_reply(const cbd_answer_policy *policy, struct MHD_Connection *con,
                                     cbd_answer *answer, cbd_api_reply *reply,
                                     const cbd_extra_headers *extra) {
    if (!reply->body) {
        return MHD_NO; /* not even the out-of-memory body could be made */
    }
    answer->call_status = reply->call_status; /* a wrapped call's own outcome, for the metrics */
    enum MHD_Result rc =
        cbd_http_send(policy, con, answer, (unsigned)reply->status, reply->content_type,
                      reply->body, reply->body_len, true, extra);
    reply->body = NULL; /* MHD owns it now, or cbd_http_send freed it */
    return rc;
}

enum MHD_Result cbd_http_send_problem(const cbd_answer_policy *policy, struct MHD_Connection *con,
                                      cbd_answer *answer, int status,
                                      const cbd_extra_headers *extra, const char *fmt, ...) {
    cbd_problem p;
    cbd_problem_init(&p);
    p.status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p.detail, sizeof p.detail, fmt, ap);
    va_end(ap);
    cbd_api_reply reply;
    cbd_api_problem_reply(&p, &reply);
    return cbdp_http_send_reply(policy, con, answer, &reply, extra);
}
