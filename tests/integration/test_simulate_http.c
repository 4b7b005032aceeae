/* POST /simulate over HTTP: replay, parallel identity, restart identity, bad input. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"

/* One client sends 8 long requests at once here: its share of the worker pool (by default
 * max(1, workers / 4)) is raised so that all 8 are computed, not refused with a 503. */
static void start_sharing(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.worker_share = 16;
    test_suite_start_with(&cfg);
}

TestSuite(simulate_http, .init = start_sharing, .fini = test_suite_stop);

static const char big_body[] =
    "{\"attackers\": 100, \"defenders\": 60, \"trials\": 200000, \"seed\": 9007199254740991,"
    " \"settings\": {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"}}";

typedef struct {
    uint16_t port;
    test_response r;
    int rc;
} call;

static void *post_big(void *arg) {
    call *c = arg;
    c->rc = test_post_json(c->port, "/simulate", big_body, &c->r);
    return NULL;
}

/* 8 identical requests at once (they spread over the pool's threads) answer byte for byte the
 * same, and so does a new server after a restart. */
Test(simulate_http, same_seed_same_bytes_in_parallel_and_after_restart) {
    call calls[8];
    pthread_t th[8];
    for (int i = 0; i < 8; i++) {
        calls[i].port = test_port;
        cr_assert_eq(pthread_create(&th[i], NULL, post_big, &calls[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        cr_assert_eq(calls[i].rc, 0);
        cr_assert_eq(calls[i].r.status, 200, "%s", calls[i].r.body);
    }
    for (int i = 1; i < 8; i++) {
        cr_expect_eq(calls[i].r.body_len, calls[0].r.body_len);
        cr_expect_eq(memcmp(calls[i].r.body, calls[0].r.body, calls[0].r.body_len), 0);
    }
    /* The answer is about these battles: 200000 trials, the seed echoed, counts adding up. */
    json_t *doc = calls[0].r.json;
    cr_expect_eq(json_integer_value(json_object_get(doc, "seed")), 9007199254740991LL);
    cr_expect_eq(json_integer_value(json_object_get(doc, "trials")), 200000);
    cr_expect_null(json_object_get(doc, "battles"), "not listed by default above 100 trials");
    json_t *hist = json_object_get(json_object_get(doc, "attackers_left"), "histogram");
    json_int_t sum = 0;
    size_t i;
    json_t *row;
    json_array_foreach(hist, i, row) {
        sum += json_integer_value(json_object_get(row, "count"));
    }
    cr_expect_eq(sum, 200000);

    test_suite_stop();
    start_sharing();
    test_response again;
    cr_assert_eq(test_post_json(test_port, "/simulate", big_body, &again), 0);
    cr_expect_eq(again.body_len, calls[0].r.body_len);
    cr_expect_eq(memcmp(again.body, calls[0].r.body, again.body_len), 0);
    test_response_free(&again);
    for (int k = 0; k < 8; k++) {
        test_response_free(&calls[k].r);
    }
}

/* Without a seed the service draws one and returns it; sending it back replays the answer. */
Test(simulate_http, drawn_seed_replays) {
    test_response a, b;
    const char *body = "{\"attackers\": 12, \"defenders\": 8, \"trials\": 50,"
                       " \"settings\": {\"luck_modifier\": 1}}";
    cr_assert_eq(test_post_json(test_port, "/simulate", body, &a), 0);
    cr_assert_eq(a.status, 200, "%s", a.body);
    json_int_t seed = json_integer_value(json_object_get(a.json, "seed"));
    cr_expect(seed >= 0 && seed <= 9007199254740991LL);
    char replay[256];
    snprintf(replay, sizeof replay,
             "{\"attackers\": 12, \"defenders\": 8, \"trials\": 50, \"seed\": %lld,"
             " \"settings\": {\"luck_modifier\": 1}}",
             (long long)seed);
    cr_assert_eq(test_post_json(test_port, "/simulate", replay, &b), 0);
    cr_expect_str_eq(b.body, a.body);
    /* 50 trials are listed by default, each battle consistent with W4–W6. */
    json_t *battles = json_object_get(a.json, "battles");
    cr_assert_eq(json_array_size(battles), 50);
    size_t i;
    json_t *bt;
    json_array_foreach(battles, i, bt) {
        json_int_t al = json_integer_value(json_object_get(bt, "attackers_lost"));
        json_int_t aleft = json_integer_value(json_object_get(bt, "attackers_left"));
        json_int_t dk = json_integer_value(json_object_get(bt, "defender_kills"));
        cr_expect_eq(al + aleft, 12);
        cr_expect_eq(al, dk < 12 ? dk : 12); /* W4: capped at the attackers */
    }
    test_response_free(&a);
    test_response_free(&b);
}

/* 0 % luck, straight round: 10 vs 5 always kills 6 (capped to 5) and loses 4 (5·0.7 = 3.5
 * rounds up, W2) — the basic rules' "10 attack 5" example: 6 survivors capture. */
Test(simulate_http, deterministic_battle_at_zero_luck) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/simulate",
                                "{\"source_armies\": 11, \"defenders\": 5, \"trials\": 3,"
                                " \"seed\": 0}",
                                &r),
                 0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "attackers")), 10); /* W7: 11 − 1 */
    cr_expect_eq(json_integer_value(json_object_get(r.json, "captures")), 3);
    json_t *b0 = json_array_get(json_object_get(r.json, "battles"), 0);
    cr_expect_eq(json_integer_value(json_object_get(b0, "attacker_kills")), 6);
    cr_expect_eq(json_integer_value(json_object_get(b0, "defender_kills")), 4);
    cr_expect_eq(json_integer_value(json_object_get(b0, "attackers_left")), 6);
    cr_expect_eq(json_integer_value(json_object_get(b0, "defenders_lost")), 5);
    test_response_free(&r);
}

/* W8: a transfer moves every army, no combat. */
Test(simulate_http, transfer_moves_everyone) {
    test_response r;
    cr_assert_eq(
        test_post_json(test_port, "/simulate", "{\"source_armies\": 11, \"transfer\": true}", &r),
        0);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect_str_eq(r.body, "{\"transfer\":true,\"outcome\":{\"armies_arriving\":10}}");
    test_response_free(&r);
}

/* Each bad field is a 422 naming it. */
static void expect_422(const char *body, const char *pointer) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/simulate", body, &r), 0);
    cr_expect_eq(r.status, 422, "%s -> %ld %s", body, r.status, r.body);
    bool found = false;
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r.json, "errors"), i, e) {
        found |= strcmp(json_string_value(json_object_get(e, "pointer")), pointer) == 0;
    }
    cr_expect(found, "%s: no error at %s in %s", body, pointer, r.body);
    test_response_free(&r);
}

Test(simulate_http, bad_input_names_the_field) {
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"trials\": 0}", "/trials");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"trials\": 10000001}", "/trials");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"trials\": 2.5}", "/trials");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"trials\": \"9\"}", "/trials");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"seed\": -1}", "/seed");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"seed\": 9007199254740992}", "/seed");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"seed\": 1.5}", "/seed");
    expect_422("{\"attackers\": 5, \"defenders\": 5, \"trials\": 1001, \"include_battles\": true}",
               "/include_battles");
    expect_422("{\"attackers\": 11, \"source_armies\": 11, \"defenders\": 5}", "/attackers");
    expect_422("{\"source_armies\": 1, \"defenders\": 5}", "/source_armies");
    expect_422("{\"defenders\": 5}", "/attackers");
    expect_422("{\"attackers\": 0, \"defenders\": 5}", "/attackers");
    expect_422("{\"attackers\": 3}", "/defenders");
    expect_422("{\"attackers\": 3, \"defenders\": 1, \"bogus\": 1}", "/bogus");
    expect_422("{\"attackers\": 3, \"defenders\": 1, \"settings\": {\"luck_modifier\": 1.5}}",
               "/settings/luck_modifier");
}

/* Units and fog (W17–W20, W23) named by pointer as /analyze-attack names them. */
Test(simulate_http, bad_units_and_distributions_name_the_field) {
    expect_422("{\"attackers\": 5, \"defenders\": 3, \"defending_units\": [{\"type\": "
               "\"commander\"}, {\"type\": \"custom\", \"name\": \"S\", \"attack_power\": 0, "
               "\"defense_power\": 4, \"combat_order\": -5, \"damage_to_kill\": 0}]}",
               "/defending_units/1/damage_to_kill");
    expect_422("{\"attackers\": 0, \"defenders\": 3, \"attacking_units\": []}", "/attackers");
    expect_422("{\"attackers\": 5, \"defenders\": [{\"armies\": 2, \"probability\": 0.5}, "
               "{\"armies\": 3, \"probability\": 0.5}, {\"armies\": 4, \"probability\": 1.5}]}",
               "/defenders/2/probability");
    expect_422("{\"attackers\": 5, \"defenders\": []}", "/defenders");
}

/* With units and fog the same seed gives the same bytes: sequentially and 4 at once. */
static const char units_fog_body[] =
    "{\"attackers\": 20, \"defenders\": [{\"armies\": 8, \"probability\": 0.3}, "
    "{\"armies\": 14, \"probability\": 0.7}], \"trials\": 150000, \"seed\": 77, "
    "\"settings\": {\"luck_modifier\": 0.5, \"rounding_mode\": \"weighted_random\"}, "
    "\"attacking_units\": [{\"type\": \"commander\", \"id\": \"mine\"}], "
    "\"defending_units\": [{\"type\": \"commander\", \"id\": \"theirs\"}]}";

static void *post_units_fog(void *arg) {
    call *c = arg;
    c->rc = test_post_json(c->port, "/simulate", units_fog_body, &c->r);
    return NULL;
}

Test(simulate_http, units_and_fog_replay_the_same_bytes) {
    call calls[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        calls[i].port = test_port;
        cr_assert_eq(pthread_create(&th[i], NULL, post_units_fog, &calls[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        cr_assert_eq(calls[i].rc, 0);
        cr_assert_eq(calls[i].r.status, 200, "%s", calls[i].r.body);
    }
    test_response again;
    cr_assert_eq(test_post_json(test_port, "/simulate", units_fog_body, &again), 0);
    for (int i = 0; i < 4; i++) {
        cr_expect_str_eq(calls[i].r.body, again.body);
    }
    /* The tallies add up: every trial drew one count, each unit lived or died. */
    json_t *doc = again.json;
    json_int_t drawn = 0;
    for (size_t k = 0; k < 2; k++) {
        drawn += json_integer_value(
            json_object_get(json_array_get(json_object_get(doc, "defenders_drawn"), k), "count"));
    }
    cr_expect_eq(drawn, 150000);
    json_int_t mine = json_integer_value(
        json_object_get(json_array_get(json_object_get(doc, "attacking_units"), 0), "survived"));
    cr_expect(mine > 0 && mine <= 150000);
    test_response_free(&again);
    for (int i = 0; i < 4; i++) {
        test_response_free(&calls[i].r);
    }
}

/* Stand guard off: all 11 may attack (W7). */
Test(simulate_http, stand_guard_off_allows_all) {
    test_response r;
    cr_assert_eq(test_post_json(test_port, "/simulate",
                                "{\"source_armies\": 11, \"defenders\": 5, \"seed\": 3,"
                                " \"settings\": {\"one_army_must_stand_guard\": false}}",
                                &r),
                 0);
    cr_expect_eq(r.status, 200, "%s", r.body);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "attackers")), 11);
    test_response_free(&r);
}

/* ---- fairness: long requests run off the HTTP thread ---- */

typedef struct {
    uint16_t port;
    const char *body;
    test_response r;
    atomic_bool done;
} long_call;

static void *post_long(void *arg) {
    long_call *c = arg;
    (void)test_post_json(c->port, "/simulate", c->body, &c->r);
    atomic_store(&c->done, true);
    return NULL;
}

/*
 * With a single MHD thread, a 10^7-trial request computed inline would hold every other
 * connection until it ends (about a second). On its worker thread it does not: 5 requests to
 * /livez all answer while it is still running.
 */
Test(simulate_fair, long_request_does_not_stall_one_thread_server) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.threads = 1;
    cbd_server *one = test_server_start(&cfg);
    long_call c = {.port = cbd_server_port(one),
                   .body = "{\"attackers\": 100, \"defenders\": 100, \"trials\": 10000000,"
                           " \"seed\": 1, \"settings\": {\"luck_modifier\": 0.16,"
                           " \"rounding_mode\": \"weighted_random\"}}"};
    atomic_init(&c.done, false);
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, post_long, &c), 0);
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL); /* let it start */
    for (int i = 0; i < 5; i++) {
        test_response r;
        cr_assert_eq(test_request(c.port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
        cr_expect_eq(r.status, 200);
        test_response_free(&r);
    }
    cr_expect(!atomic_load(&c.done), "the long request ended before /livez was served");
    pthread_join(th, NULL);
    cr_expect_eq(c.r.status, 200, "%s", c.r.body);
    cr_expect_eq(json_integer_value(json_object_get(c.r.json, "trials")), 10000000);
    test_response_free(&c.r);
    cbd_server_stop(one);
}
