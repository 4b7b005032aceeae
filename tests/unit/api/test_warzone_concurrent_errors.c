/*
 * The /warzone/ error pointers under concurrency: combatd's pointers are turned into the game's
 * on every worker thread at once (src/api/warzone/warzone_pointers.c), so nothing there may
 * keep state in a static (strtok did: from 8 threads some pointers were cut from another
 * request's text). Each thread sends its own bad member and must get back its own pointer, every
 * time; mismatches are counted in the threads and asserted once in the test's thread.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "api/warzone/warzone_internal.h"

#define THREADS 8

typedef struct {
    int k;
    int rounds;
    atomic_int *wrong;
    atomic_int *answered;
} job;

/* A turn whose order k+... is bad: k Spy orders (no effect, left out of the translated turn,
 * W40) come before an attack from 1 to 3, which do not border; /analyze-turn names its
 * `/orders/0/to`, which is the game's `/orders/<k>/to`. */
static void bad_body(int k, char *out, size_t size) {
    int n = snprintf(out, size,
                     "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, "
                     "\"LuckModifier\": 0}, \"map\": {\"territories\": [{\"id\": 1, "
                     "\"connectedTo\": [2]}, {\"id\": 2, \"connectedTo\": [3]}, {\"id\": 3}]}, "
                     "\"standing\": [{\"terrID\": 1, \"ownedBy\": 100, \"armies\": 7}, "
                     "{\"terrID\": 2, \"ownedBy\": 200, \"armies\": 4}, {\"terrID\": 3, "
                     "\"ownedBy\": 200, \"armies\": 2}], \"orders\": [");
    for (int i = 0; i < k; i++) {
        n += snprintf(out + n, size - (size_t)n,
                      "{\"type\": \"GameOrderPlayCardSpy\", \"playerID\": 100}, ");
    }
    snprintf(out + n, size - (size_t)n,
             "{\"type\": \"GameOrderAttackTransfer\", \"playerID\": 100, \"from\": 1, \"to\": 3, "
             "\"numArmies\": 6}]}");
}

/* The whole endpoint, from the request's text to the problem's: no Criterion assertion here
 * (they belong to the test's thread). */
static void *requests(void *arg) {
    job *j = arg;
    char body[2048], want[32];
    bad_body(j->k, body, sizeof body);
    snprintf(want, sizeof want, "/orders/%d/to", j->k);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/warzone/analyze-turn");
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    for (int i = 0; i < j->rounds; i++) {
        cbd_api_reply reply;
        cbd_api_run(ep, &cfg, body, strlen(body), &reply);
        json_t *doc = json_loadb(reply.body, reply.body_len, 0, NULL);
        const json_t *errors = json_object_get(doc, "errors");
        const char *p = json_string_value(json_object_get(json_array_get(errors, 0), "pointer"));
        bool right = reply.status == 422 && json_array_size(errors) == 1 && p && !strcmp(p, want);
        atomic_fetch_add(right ? j->answered : j->wrong, 1);
        json_decref(doc);
        cbd_api_reply_free(&reply);
    }
    return NULL;
}

static void run_threads(void *(*fn)(void *), int rounds, int *wrong, int *answered) {
    atomic_int w = 0, a = 0;
    job jobs[THREADS];
    pthread_t th[THREADS];
    for (int k = 0; k < THREADS; k++) {
        jobs[k] = (job){k, rounds, &w, &a};
        cr_assert_eq(pthread_create(&th[k], NULL, fn, &jobs[k]), 0);
    }
    for (int k = 0; k < THREADS; k++) {
        cr_assert_eq(pthread_join(th[k], NULL), 0);
    }
    *wrong = atomic_load(&w);
    *answered = atomic_load(&a);
}

/* 8 threads x 300 requests, each thread's attack at another index: 2,400 422s, each naming
 * its own thread's `/orders/<k>/to`. */
Test(warzone_concurrent_errors, each_request_gets_its_own_pointer) {
    int wrong, answered;
    run_threads(requests, 300, &wrong, &answered);
    cr_expect_eq(wrong, 0, "%d of %d answers named another member", wrong, THREADS * 300);
    cr_expect_eq(answered, THREADS * 300);
}

/* The translation alone, many more times than whole requests allow: thread k turns
 * combatd's `/settings/<k-th setting>` and `/orders/0/armies` of a turn whose first
 * translated order is the game's order k into the game's names. */
static const char *const settings[THREADS][2] = {
    {"offense_kill_rate", "OffensiveKillRate"},
    {"defense_kill_rate", "DefensiveKillRate"},
    {"luck_modifier", "LuckModifier"},
    {"rounding_mode", "RoundingMode"},
    {"one_army_must_stand_guard", "OneArmyStandsGuard"},
    {"multi_attack", "MultiAttack"},
    {"blockade_multiplier", "BlockadeCard/MultiplyAmount"},
    {"emergency_blockade_multiplier", "AbandonCard/MultiplyAmount"},
};

static void *translations(void *arg) {
    job *j = arg;
    cbdp_wz_turn t;
    memset(&t, 0, sizeof t);
    t.order_game = json_pack("[{s:i,s:s}]", "at", j->k + 3, "type", "GameOrderAttackTransfer");
    char given0[64], want0[64], want1[32];
    snprintf(given0, sizeof given0, "/settings/%s", settings[j->k][0]);
    snprintf(want0, sizeof want0, "/settings/%s", settings[j->k][1]);
    snprintf(want1, sizeof want1, "/orders/%d/numArmies", j->k + 3);
    for (int i = 0; i < j->rounds; i++) {
        cbd_problem p;
        cbd_problem_init(&p);
        cbd_problem_field(&p, given0, "x");
        cbd_problem_field(&p, "/orders/0/armies", "y");
        cbdp_wz_problem_to_game(&t, &p);
        bool right = p.n_errors == 2 && !strcmp(p.errors[0].pointer, want0) &&
                     !strcmp(p.errors[1].pointer, want1);
        atomic_fetch_add(right ? j->answered : j->wrong, 1);
    }
    json_decref(t.order_game);
    return NULL;
}

/* 8 threads x 80,000 problems of two pointers: 1,280,000 pointers, each its own thread's. With
 * strtok in the translation this failed 3 runs of 3 on 2 cores (4, 6 and 9 of the 640,000
 * problems wrong), in about 0.4 s each. */
Test(warzone_concurrent_errors, each_translation_is_its_own) {
    int wrong, answered;
    run_threads(translations, 80000, &wrong, &answered);
    cr_expect_eq(wrong, 0, "%d of %d problems got another thread's pointer", wrong,
                 THREADS * 80000);
    cr_expect_eq(answered, THREADS * 80000);
}
