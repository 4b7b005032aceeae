#ifndef COMBATD_TEST_API_TEST_H
#define COMBATD_TEST_API_TEST_H

/*
 * Helpers shared by the api-layer tests and the HTTP tests that read the same answers:
 * running a body through an endpoint without a socket, walking an answer by a slash-separated
 * path, and finding one entry of a problem's `errors` by its pointer. Header-only, like
 * raw_http.h, so a test needs no build edit to use it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "api/api.h"
#include "api/api_config.h"

/*
 * Runs `body` through the endpoint at `path` with cfg; returns the status and the parsed reply
 * in *out (the test fails when it is not JSON). When `raw` is not NULL it receives a copy of
 * the reply's text, for messages; the caller frees it.
 */
static inline int api_test_run(const cbd_config *cfg, const char *path, const char *body,
                               json_t **out, char **raw) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cr_assert_not_null(ep, "no endpoint %s", path);
    cbd_api_reply reply;
    cbd_api_run(ep, cfg, body, strlen(body), &reply);
    *out = json_loadb(reply.body, reply.body_len, 0, NULL);
    cr_assert_not_null(*out, "reply is not JSON: %s", reply.body);
    if (raw) {
        *raw = strdup(reply.body);
    }
    int status = reply.status;
    cbd_api_reply_free(&reply);
    return status;
}

/* A slash-separated walk over objects and arrays ("orders/2/percent"; the ids in the tests
 * hold no slash, so no escapes); NULL where the path leads nowhere. */
static inline const json_t *json_walk(const json_t *doc, const char *path) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const json_t *v = doc;
    char *save = NULL;
    for (char *tok = strtok_r(buf, "/", &save); tok && v; tok = strtok_r(NULL, "/", &save)) {
        v = json_is_array(v) ? json_array_get(v, (size_t)atoi(tok)) : json_object_get(v, tok);
    }
    return v;
}

/* The number at `path` (the test fails when there is none). */
static inline double json_number_at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert(json_is_number(v), "%s is not a number", path);
    return json_number_value(v);
}

/* True when the problem lists an error at exactly `pointer` whose detail contains `needle`
 * (any detail when needle is NULL). */
static inline bool has_error(const json_t *problem, const char *pointer, const char *needle) {
    const json_t *errors = json_object_get(problem, "errors");
    for (size_t i = 0; i < json_array_size(errors); i++) {
        const json_t *e = json_array_get(errors, i);
        const char *p = json_string_value(json_object_get(e, "pointer"));
        const char *d = json_string_value(json_object_get(e, "detail"));
        if (p && strcmp(p, pointer) == 0 && (!needle || (d && strstr(d, needle)))) {
            return true;
        }
    }
    return false;
}

#endif
