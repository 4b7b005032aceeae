/*
 * libFuzzer harness for one game endpoint: raw bytes in as the request body, through
 * cbd_api_run (parse, validate, compute, render), the full reply out. FUZZ_ENDPOINT names the
 * endpoint at build time (tests/fuzz/build.sh builds one binary per endpoint).
 *
 * Besides ASan, UBSan and LeakSanitizer, the harness checks the reply itself: always a body,
 * of the stated length, that is a JSON object; a problem for every non-200 with a matching
 * status; never a 500 (that is a bug, not bad input).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "config.h"

#ifndef FUZZ_ENDPOINT
#error "define FUZZ_ENDPOINT, e.g. -DFUZZ_ENDPOINT=\"/analyze-attack\""
#endif

static cbd_config cfg;
static const cbd_api_endpoint *endpoint;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed: %s: ", #cond);                                     \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    json_object_seed(1);
    cbd_config_defaults(&cfg);
    /* The army cap stays at W10's 10^9 so that the big-number paths are explored; only the
     * per-request work lists are bounded, so one input costs microseconds, not seconds. */
    cfg.warapp.max_distribution_points = 1000;
    cfg.warapp.max_graph_points = 100;
    cfg.warapp.max_targets = 8;
    cfg.warapp.max_trials = 1000;
    cfg.warapp.max_listed_battles = 10;
    cfg.warapp.max_turn_states = 10000;
    cfg.warapp.max_turn_simulated_orders = 100000;
    cfg.warapp.max_listed_turns = 10;
    endpoint = cbd_api_find_endpoint(FUZZ_ENDPOINT);
    if (!endpoint) {
        fprintf(stderr, "no endpoint %s\n", FUZZ_ENDPOINT);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cbd_api_reply reply;
    memset(&reply, 0, sizeof reply);
    cbd_api_run(endpoint, &cfg, (const char *)data, size, &reply);

    CHECK(reply.body != NULL, "no body");
    CHECK(strlen(reply.body) == reply.body_len, "body_len %zu, strlen %zu", reply.body_len,
          strlen(reply.body));
    CHECK(reply.content_type != NULL, "no content type");
    CHECK(reply.status == 200 || reply.status == 400 || reply.status == 422, "status %d: %s",
          reply.status, reply.body);
    json_error_t err;
    json_t *doc = json_loadb(reply.body, reply.body_len, JSON_REJECT_DUPLICATES, &err);
    CHECK(json_is_object(doc), "reply is not a JSON object (%s): %s", err.text, reply.body);
    if (reply.status == 200) {
        CHECK(strcmp(reply.content_type, "application/json") == 0, "%s", reply.content_type);
    } else {
        CHECK(strcmp(reply.content_type, "application/problem+json") == 0, "%s",
              reply.content_type);
        CHECK(json_integer_value(json_object_get(doc, "status")) == reply.status, "%s", reply.body);
        CHECK(json_is_string(json_object_get(doc, "detail")), "%s", reply.body);
        CHECK(json_is_array(json_object_get(doc, "errors")), "%s", reply.body);
        if (reply.status == 422) {
            CHECK(json_array_size(json_object_get(doc, "errors")) > 0, "422 names no field: %s",
                  reply.body);
        }
    }
    json_decref(doc);
    cbd_api_reply_free(&reply);
    return 0;
}
