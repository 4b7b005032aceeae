/*
 * POST /simulate with special units (W17–W20) and fog (W23), through the api layer: the wiki's
 * Commander examples worked by hand, which units a listed battle says died, the distribution
 * echoed and its draws tallied, the frequencies against /analyze-attack's exact answer for the
 * same battle (chi-square at a fixed seed), every bad unit and distribution named by its
 * pointer, and the same seed replaying the same bytes.
 */
#include "api_test.h"
#include "chi_square.h"

static cbd_config cfg;

static void setup(void) {
    cbd_config_defaults(&cfg);
}

TestSuite(simulate_api, .init = setup);

static json_t *simulate(const char *body, int want) {
    json_t *a;
    char *raw;
    int st = api_test_run(&cfg, "/simulate", body, &a, &raw);
    cr_assert_eq(st, want, "%s -> %d %.600s", body, st, raw);
    free(raw);
    return a;
}

static uint64_t count_at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert(json_is_integer(v), "no integer at %s", path);
    return (uint64_t)json_integer_value(v);
}

/* A Commander with 3 armies attacks like 10: 6 damage into 10 at 0 % luck; the 7 it takes kill
 * the 3 armies and leave 4, less than the Commander's 7: it lives every trial. */
Test(simulate_api, a_commander_with_3_armies_attacks_like_10) {
    json_t *a = simulate("{\"attackers\": 3, \"defenders\": 10, \"trials\": 40, \"seed\": 1, "
                         "\"attacking_units\": [{\"type\": \"commander\", \"id\": \"mine\"}]}",
                         200);
    cr_assert_eq(count_at(a, "attackers"), 3);
    cr_assert_eq(count_at(a, "captures"), 0);
    cr_assert_eq(count_at(a, "defenders_left/histogram/0/armies"), 4);
    cr_assert_eq(count_at(a, "defenders_left/histogram/0/count"), 40);
    cr_assert_str_eq(json_string_value(json_walk(a, "attacking_units/0/id")), "mine");
    cr_assert_eq(count_at(a, "attacking_units/0/damage_to_kill"), 7);
    cr_assert_eq(count_at(a, "attacking_units/0/survived"), 40);
    for (int t = 0; t < 40; t++) {
        char path[64];
        snprintf(path, sizeof path, "battles/%d/attacker_kills", t);
        cr_assert_eq(count_at(a, path), 6, "as 10 armies deal");
        snprintf(path, sizeof path, "battles/%d/attacking_units_died", t);
        cr_assert_eq(json_array_size(json_walk(a, path)), 0);
    }
    cr_assert_null(json_walk(a, "battles/0/defending_units_died"), "no defending units given");
    cr_assert_null(json_walk(a, "battles/0/defenders"), "no fog");
    json_decref(a);
}

/* 10 armies into 3 and a Commander: the 3 die, the 3 damage left cannot kill it. */
Test(simulate_api, ten_into_3_and_a_commander_it_survives_every_trial) {
    json_t *a = simulate("{\"attackers\": 10, \"defenders\": 3, \"trials\": 5000, \"seed\": 9, "
                         "\"defending_units\": [{\"type\": \"commander\"}]}",
                         200);
    cr_assert_eq(count_at(a, "defending_units/0/survived"), 5000);
    cr_assert_eq(count_at(a, "captures"), 0);
    cr_assert_null(json_walk(a, "battles"), "not listed past 100 trials");
    json_decref(a);
}

/* A listed battle names the units that died: by id, or by index in the request's array. 20
 * attackers deal 12: 3 armies, then the Commander "bob" (7), then 1 of the 2 left kills the
 * health-1 unit after it (combat order 20000); the defense deals 7 and 13 capture (W19, W20). */
Test(simulate_api, a_listed_battle_names_its_dead_units_by_id_or_index) {
    json_t *a =
        simulate("{\"attackers\": 20, \"defenders\": 3, \"trials\": 2, \"seed\": 3, "
                 "\"attacking_units\": [], \"defending_units\": [{\"type\": \"commander\", "
                 "\"id\": \"bob\"}, {\"type\": \"custom\", \"name\": \"Scout\", \"attack_power\": "
                 "0, \"defense_power\": 0, \"combat_order\": 20000, \"health\": 1}]}",
                 200);
    const json_t *died = json_walk(a, "battles/1/defending_units_died");
    cr_assert_eq(json_array_size(died), 2);
    cr_assert_str_eq(json_string_value(json_array_get(died, 0)), "bob");
    cr_assert_eq(json_integer_value(json_array_get(died, 1)), 1);
    cr_assert(json_is_true(json_walk(a, "battles/1/captured")));
    cr_assert_eq(count_at(a, "battles/1/attackers_left"), 13);
    cr_assert_eq(json_array_size(json_walk(a, "battles/1/attacking_units_died")), 0,
                 "an empty side is listed empty");
    cr_assert_eq(json_array_size(json_walk(a, "attacking_units")), 0);
    cr_assert_eq(count_at(a, "defending_units/0/survived"), 0);
    cr_assert_str_eq(json_string_value(json_walk(a, "defending_units/1/name")), "Scout");
    cr_assert_eq(count_at(a, "defending_units/1/health"), 1);
    cr_assert_eq(count_at(a, "defending_units/1/survived"), 0);
    json_decref(a);
}

/* Fog: the distribution is echoed normalised and ascending, each trial draws its defenders
 * (listed), and the tallies of the draws add up. 10 attackers at 0 % luck capture exactly
 * when they drew 5. */
Test(simulate_api, fog_echoes_the_distribution_and_each_battle_its_defenders) {
    json_t *a = simulate("{\"attackers\": 10, \"defenders\": [{\"armies\": 10, \"probability\": "
                         "0.5000000005}, {\"armies\": 5, \"probability\": 0.5}], \"trials\": 60, "
                         "\"seed\": 12}",
                         200);
    cr_assert_eq(count_at(a, "defenders/0/armies"), 5);
    cr_assert_eq(count_at(a, "defenders/1/armies"), 10);
    double p0 = json_real_value(json_walk(a, "defenders/0/probability"));
    double p1 = json_real_value(json_walk(a, "defenders/1/probability"));
    cr_assert_float_eq(p0 + p1, 1.0, 1e-15);
    cr_assert_lt(p0, 0.5, "divided by their sum");
    uint64_t drawn5 = count_at(a, "defenders_drawn/0/count");
    cr_assert_eq(count_at(a, "defenders_drawn/0/armies"), 5);
    cr_assert_eq(drawn5 + count_at(a, "defenders_drawn/1/count"), 60);
    cr_assert_eq(count_at(a, "captures"), drawn5);
    uint64_t listed5 = 0;
    for (int t = 0; t < 60; t++) {
        char path[64];
        snprintf(path, sizeof path, "battles/%d/defenders", t);
        uint64_t d = count_at(a, path);
        cr_assert(d == 5 || d == 10);
        listed5 += d == 5;
        snprintf(path, sizeof path, "battles/%d/captured", t);
        cr_assert_eq(json_is_true(json_walk(a, path)), d == 5);
    }
    cr_assert_eq(listed5, drawn5);
    json_decref(a);
}

/* ---- the frequencies against /analyze-attack ---- */

/* A histogram of /simulate ([{armies, count}]) against a distribution of /analyze-attack
 * ([{armies, probability}]) over the same values. */
static chi_square_result hist_fit(const json_t *hist, const json_t *dist, uint64_t trials) {
    size_t top = 0;
    const json_t *arrays[2] = {hist, dist};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < json_array_size(arrays[k]); i++) {
            size_t v =
                (size_t)json_integer_value(json_walk(json_array_get(arrays[k], i), "armies"));
            top = v > top ? v : top;
        }
    }
    uint64_t *obs = calloc(top + 1, sizeof *obs);
    long double *p = calloc(top + 1, sizeof *p);
    cr_assert(obs && p);
    for (size_t i = 0; i < json_array_size(hist); i++) {
        const json_t *e = json_array_get(hist, i);
        obs[json_integer_value(json_walk(e, "armies"))] += count_at(e, "count");
    }
    for (size_t i = 0; i < json_array_size(dist); i++) {
        const json_t *e = json_array_get(dist, i);
        p[json_integer_value(json_walk(e, "armies"))] =
            json_real_value(json_walk(e, "probability"));
    }
    chi_square_result r = chi_square_test(obs, p, top + 1, trials);
    free(obs);
    free(p);
    return r;
}

/* k of n trials against probability q: the two cells (k, n − k). */
static chi_square_result two_cells(uint64_t k, uint64_t n, double q) {
    uint64_t obs[2] = {k, n - k};
    long double p[2] = {q, 1.0L - q};
    return chi_square_test(obs, p, 2, n);
}

static void expect_fit(const char *what, chi_square_result r) {
    cr_log_info("%s: chi2 %.2f, critical %.2f, df %d", what, r.statistic, r.critical, r.df);
    cr_expect_lt(r.statistic, r.critical, "%s: chi2 %.2f >= %.2f (df %d)", what, r.statistic,
                 r.critical, r.df);
}

/* The same battle through both endpoints: `battle` is the members they share. */
static void both(const char *battle, uint64_t trials, uint64_t seed, json_t **sim, json_t **exact) {
    char body[2048];
    snprintf(body, sizeof body, "{%s, \"trials\": %llu, \"seed\": %llu}", battle,
             (unsigned long long)trials, (unsigned long long)seed);
    *sim = simulate(body, 200);
    snprintf(body, sizeof body, "{%s}", battle);
    char *raw;
    cr_assert_eq(api_test_run(&cfg, "/analyze-attack", body, exact, &raw), 200, "%s", raw);
    free(raw);
}

static void expect_survivors_fit(const json_t *sim, const json_t *exact, uint64_t trials) {
    expect_fit("captures", two_cells(count_at(sim, "captures"), trials,
                                     json_real_value(json_walk(exact, "capture_probability"))));
    expect_fit("attackers_left", hist_fit(json_walk(sim, "attackers_left/histogram"),
                                          json_walk(exact, "attackers_left/distribution"), trials));
    expect_fit("defenders_left", hist_fit(json_walk(sim, "defenders_left/histogram"),
                                          json_walk(exact, "defenders_left/distribution"), trials));
}

/* 6 armies and a Commander attack 2, a Commander and a Medic (defense power 4, health 3, after
 * the Commander) at 90 % luck, weighted: each unit dies in some trials (the Medic only once
 * both Commander and armies are gone, W19). 10^6 trials against the exact analysis: captures,
 * both survivor distributions, and each unit's survivals. */
Test(simulate_api, units_frequencies_agree_with_analyze_attack) {
    const uint64_t trials = 1000000;
    json_t *sim, *exact;
    both("\"attackers\": 6, \"defenders\": 2, \"settings\": {\"luck_modifier\": 0.9, "
         "\"rounding_mode\": \"weighted_random\"}, \"attacking_units\": [{\"type\": "
         "\"commander\", \"id\": \"mine\"}], \"defending_units\": [{\"type\": \"commander\", "
         "\"id\": \"theirs\"}, {\"type\": \"custom\", \"name\": \"Medic\", \"attack_power\": 1, "
         "\"defense_power\": 4, \"combat_order\": 20000, \"health\": 3}]",
         trials, 20240612, &sim, &exact);
    expect_survivors_fit(sim, exact, trials);
    cr_assert_gt(count_at(sim, "captures"), 1000, "captures the trials can tell");
    const char *units[] = {"attacking_units/0", "defending_units/0", "defending_units/1"};
    for (int i = 0; i < 3; i++) {
        char path[64], survival[64];
        snprintf(path, sizeof path, "%s/survived", units[i]);
        snprintf(survival, sizeof survival, "%s/survival_probability", units[i]);
        double q = json_real_value(json_walk(exact, survival));
        cr_assert(q > 0.001 && q < 0.999, "%s: a survival the trials can tell, not %g", units[i],
                  q);
        expect_fit(units[i], two_cells(count_at(sim, path), trials, q));
    }
    json_decref(sim);
    json_decref(exact);
}

/* 12 attackers against 4, 8 or 12 (1/4, 1/2, 1/4) at 20 % luck: captures and survivors against
 * the exact mixture, and the drawn counts against the distribution itself. */
Test(simulate_api, fog_frequencies_agree_with_analyze_attack) {
    const uint64_t trials = 1000000;
    json_t *sim, *exact;
    both("\"attackers\": 12, \"defenders\": [{\"armies\": 4, \"probability\": 0.25}, "
         "{\"armies\": 8, \"probability\": 0.5}, {\"armies\": 12, \"probability\": 0.25}], "
         "\"settings\": {\"luck_modifier\": 0.2}",
         trials, 777, &sim, &exact);
    expect_survivors_fit(sim, exact, trials);
    const json_t *drawn = json_walk(sim, "defenders_drawn");
    cr_assert_eq(json_array_size(drawn), 3);
    uint64_t obs[3];
    long double p[3];
    for (size_t k = 0; k < 3; k++) {
        obs[k] = count_at(json_array_get(drawn, k), "count");
        p[k] = json_real_value(
            json_walk(json_array_get(json_walk(exact, "defenders"), k), "probability"));
        cr_assert_eq(count_at(json_array_get(drawn, k), "armies"),
                     count_at(json_array_get(json_walk(exact, "defenders"), k), "armies"));
    }
    expect_fit("defenders_drawn", chi_square_test(obs, p, 3, trials));
    json_decref(sim);
    json_decref(exact);
}

/* ---- bad input, replay, transfers ---- */

Test(simulate_api, every_bad_unit_and_distribution_is_named_by_its_pointer) {
    json_t *a = simulate(
        "{\"attackers\": 1, \"defenders\": 3, \"attacking_units\": [{\"type\": \"tank\"}, "
        "{\"type\": \"custom\", \"attack_power\": 1, \"defense_power\": 1, \"combat_order\": 0, "
        "\"damage_to_kill\": 3}], \"defending_units\": [{\"type\": \"commander\"}, {\"type\": "
        "\"custom\", \"name\": \"Z\", \"attack_power\": 0, \"defense_power\": 4, \"combat_order\": "
        "-5, \"damage_to_kill\": 0}, {\"type\": \"custom\", \"name\": \"Y\", \"attack_power\": 1, "
        "\"defense_power\": 1, \"combat_order\": 0, \"health\": 2, \"damage_to_kill\": 2}]}",
        422);
    cr_assert(has_error(a, "/attacking_units/0/type", "commander, custom"));
    cr_assert(has_error(a, "/attacking_units/1/name", "required"));
    cr_assert(has_error(a, "/defending_units/1/damage_to_kill", "from 1 to"));
    cr_assert(has_error(a, "/defending_units/2/health", "exactly one"));
    json_decref(a);
    a = simulate("{\"attackers\": 0, \"defenders\": 3, \"attacking_units\": []}", 422);
    cr_assert(has_error(a, "/attackers", "W20"));
    json_decref(a);
    a = simulate("{\"attackers\": 1, \"defenders\": 3, \"defending_units\": [{\"type\": "
                 "\"commander\", \"id\": \"c\"}, {\"type\": \"commander\", \"id\": \"c\"}]}",
                 422);
    cr_assert(has_error(a, "/defending_units/1", "unique"));
    json_decref(a);
    a = simulate("{\"attackers\": 999999995, \"defenders\": 3, \"attacking_units\": [{\"type\": "
                 "\"commander\"}]}",
                 422);
    cr_assert(has_error(a, "/attacking_units", "power"));
    json_decref(a);
    a = simulate("{\"source_armies\": 5, \"transfer\": true, \"defending_units\": [{\"type\": "
                 "\"commander\"}]}",
                 422);
    cr_assert(has_error(a, "/defending_units", "transfer"));
    json_decref(a);
    a = simulate("{\"attackers\": 3, \"defenders\": [{\"armies\": 2, \"probability\": 0}, "
                 "{\"armies\": 1000000001, \"probability\": 1.5}, {\"armies\": 1, "
                 "\"probability\": 0.5, \"seen\": true}]}",
                 422);
    cr_assert(has_error(a, "/defenders/0/probability", "greater than 0"));
    cr_assert(has_error(a, "/defenders/1/armies", "from 0 to"));
    cr_assert(has_error(a, "/defenders/1/probability", "at most 1"));
    cr_assert(has_error(a, "/defenders/2/seen", "not a known field"));
    json_decref(a);
    const char *bodies[] = {
        "{\"attackers\": 3, \"defenders\": []}",
        "{\"attackers\": 3, \"defenders\": [{\"armies\": 2, \"probability\": 0.5}, {\"armies\": "
        "2, \"probability\": 0.5}]}",
        "{\"attackers\": 3, \"defenders\": [{\"armies\": 2, \"probability\": 0.5}, {\"armies\": "
        "4, \"probability\": 0.4999}]}",
    };
    const char *needles[] = {"at least one", "twice", "sum to 1"};
    const char *pointers[] = {"/defenders", "/defenders/1", "/defenders"}; /* the second 2 */
    for (int i = 0; i < 3; i++) {
        a = simulate(bodies[i], 422);
        cr_assert(has_error(a, pointers[i], needles[i]), "%s", bodies[i]);
        json_decref(a);
    }
    cfg.warapp.max_units = 1;
    cfg.warapp.max_fog_points = 2;
    a = simulate("{\"attackers\": 1, \"defenders\": [{\"armies\": 1, \"probability\": 0.25}, "
                 "{\"armies\": 2, \"probability\": 0.25}, {\"armies\": 3, \"probability\": 0.5}], "
                 "\"defending_units\": [{\"type\": \"commander\"}, {\"type\": \"commander\"}]}",
                 422);
    cr_assert(has_error(a, "/defenders", NULL));
    cr_assert(has_error(a, "/defending_units", NULL));
    json_decref(a);
}

/* The same seed gives the same bytes with units and fog; another seed other battles. */
Test(simulate_api, the_same_seed_replays_the_same_bytes) {
    const char *fmt =
        "{\"attackers\": 6, \"defenders\": [{\"armies\": 3, \"probability\": 0.4}, {\"armies\": "
        "7, \"probability\": 0.6}], \"trials\": 100, \"seed\": %d, \"settings\": "
        "{\"luck_modifier\": 0.5, \"rounding_mode\": \"weighted_random\"}, \"attacking_units\": "
        "[{\"type\": \"commander\", \"id\": \"a\"}], \"defending_units\": [{\"type\": "
        "\"commander\"}]}";
    char body[1024];
    char *raw[3];
    for (int i = 0; i < 3; i++) {
        snprintf(body, sizeof body, fmt, i < 2 ? 5 : 6);
        json_t *a;
        cr_assert_eq(api_test_run(&cfg, "/simulate", body, &a, &raw[i]), 200, "%s", raw[i]);
        json_decref(a);
    }
    cr_assert_str_eq(raw[0], raw[1]);
    cr_assert_str_neq(raw[0], raw[2]);
    for (int i = 0; i < 3; i++) {
        free(raw[i]);
    }
}

/* A transfer moves its units with the armies (W21): nothing can kill them. */
Test(simulate_api, a_transfer_moves_its_units) {
    json_t *a = simulate("{\"source_armies\": 11, \"transfer\": true, \"attacking_units\": "
                         "[{\"type\": \"commander\", \"id\": \"c\"}]}",
                         200);
    cr_assert_eq(count_at(a, "outcome/armies_arriving"), 10);
    cr_assert_str_eq(json_string_value(json_walk(a, "attacking_units/0/id")), "c");
    cr_assert_eq(json_real_value(json_walk(a, "attacking_units/0/survival_probability")), 1.0);
    json_decref(a);
}

/* The answer's size counts the units: 10 listed battles with 32 units of 64-byte ids pass 4096
 * bytes at the listing; unlisted, the units' own echoes (32 · (200 + 64) bytes) are what is too
 * large, named by their member. */
Test(simulate_api, units_count_in_the_answers_size) {
    cfg.limits.max_answer_bytes = 4096;
    char units[32 * 128 + 64] = "[";
    for (int i = 0; i < 32; i++) {
        char one[128];
        snprintf(one, sizeof one, "%s{\"type\": \"commander\", \"id\": \"%062d%02d\"}",
                 i ? ", " : "", 0, i);
        strcat(units, one);
    }
    strcat(units, "]");
    char body[32 * 128 + 256];
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, \"trials\": 10, \"seed\": 1, "
             "\"include_battles\": true, \"defending_units\": %s}",
             units);
    json_t *a = simulate(body, 422);
    cr_assert(has_error(a, "/include_battles", "server.max_answer_bytes"));
    json_decref(a);
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, \"trials\": 10, \"seed\": 1, "
             "\"include_battles\": false, \"defending_units\": %s}",
             units);
    a = simulate(body, 422);
    cr_assert(has_error(a, "/defending_units", "server.max_answer_bytes"));
    json_decref(a);
    /* Without the units the same listing fits. */
    a = simulate("{\"attackers\": 10, \"defenders\": 10, \"trials\": 10, \"seed\": 1, "
                 "\"include_battles\": true}",
                 200);
    json_decref(a);
}
