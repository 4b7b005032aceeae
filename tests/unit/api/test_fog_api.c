/*
 * /analyze-attack with defenders as a distribution (W23) through the api layer: the mixture
 * worked by hand, the echo of the normalised distribution, an integer still answered as before,
 * and every bad distribution named by its pointer.
 */
#include "api_test.h"

static cbd_config cfg;

static void setup(void) {
    cbd_config_defaults(&cfg);
}

TestSuite(fog_api, .init = setup);

Test(fog_api, ten_attackers_against_5_or_10_and_the_fewest_on_the_mixture) {
    json_t *a;
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 10, \"defenders\": [{\"armies\": 10, \"probability\": "
                          "0.5}, {\"armies\": 5, \"probability\": 0.5}], \"targets\": [0.5, 0.9]}",
                          &a, NULL);
    cr_assert_eq(st, 200);
    /* 6 damage kills 5 but not 10: captured exactly half the time. */
    cr_assert_eq(json_number_at(a, "capture_probability"), 0.5);
    cr_assert(json_is_false(json_walk(a, "deterministic")));
    cr_assert_null(json_walk(a, "outcome"));
    /* Echoed in ascending order of armies, normalised. */
    cr_assert_eq(json_number_at(a, "defenders/0/armies"), 5.0);
    cr_assert_eq(json_number_at(a, "defenders/1/armies"), 10.0);
    cr_assert_eq(json_number_at(a, "defenders/1/probability"), 0.5);
    /* 8 armies capture against 5, 16 against 10 (worked in test_warapp_fog.c). */
    cr_assert_eq(json_number_at(a, "armies_needed/0/attackers"), 8.0);
    cr_assert_eq(json_number_at(a, "armies_needed/1/attackers"), 16.0);
    json_decref(a);
}

Test(fog_api, probabilities_are_normalised_and_one_count_is_deterministic) {
    json_t *a;
    /* 0.3 + 0.7 + 1e-10 is within 1e-9 of 1: accepted, each divided by the sum. */
    int st = api_test_run(&cfg, "/analyze-attack",
                          "{\"attackers\": 10, \"defenders\": [{\"armies\": 5, \"probability\": "
                          "0.3000000001}, {\"armies\": 6, \"probability\": 0.7}]}",
                          &a, NULL);
    cr_assert_eq(st, 200);
    cr_assert_float_eq(json_number_at(a, "defenders/0/probability") +
                           json_number_at(a, "defenders/1/probability"),
                       1.0, 1e-15);
    /* 5 and 6 both die to 6 damage, with 4 or 4.2 -> 4 back: one outcome... except the
     * defenders lost differ (5 or 6), so two outcomes remain. */
    cr_assert(json_is_false(json_walk(a, "deterministic")));
    cr_assert_eq(json_number_at(a, "capture_probability"), 1.0);
    json_decref(a);
    st = api_test_run(&cfg, "/analyze-attack",
                      "{\"attackers\": 10, \"defenders\": [{\"armies\": 5, \"probability\": 1}]}",
                      &a, NULL);
    cr_assert_eq(st, 200);
    cr_assert(json_is_true(json_walk(a, "deterministic")));
    cr_assert_eq(json_number_at(a, "outcome/defenders_lost"), 5.0);
    json_decref(a);
}

Test(fog_api, every_bad_distribution_is_named) {
    json_t *a;
    cr_assert_eq(
        api_test_run(&cfg, "/analyze-attack", "{\"attackers\": 3, \"defenders\": []}", &a, NULL),
        422);
    cr_assert(has_error(a, "/defenders", "at least one"));
    json_decref(a);
    cr_assert_eq(api_test_run(&cfg, "/analyze-attack",
                              "{\"attackers\": 3, \"defenders\": [{\"armies\": 2, \"probability\": "
                              "0.5}, {\"armies\": 2, \"probability\": 0.5}]}",
                              &a, NULL),
                 422);
    cr_assert(has_error(a, "/defenders/1", "twice (item 0 has them)"));
    json_decref(a);
    /* Named where it comes the second time in the request, whatever the counts' order. */
    cr_assert_eq(api_test_run(&cfg, "/analyze-attack",
                              "{\"attackers\": 3, \"defenders\": [{\"armies\": 7, \"probability\": "
                              "0.25}, {\"armies\": 2, \"probability\": 0.5}, {\"armies\": 7, "
                              "\"probability\": 0.25}]}",
                              &a, NULL),
                 422);
    cr_assert(has_error(a, "/defenders/2", "lists 7 armies twice (item 0 has them)"));
    json_decref(a);
    cr_assert_eq(api_test_run(&cfg, "/analyze-attack",
                              "{\"attackers\": 3, \"defenders\": [{\"armies\": 2, \"probability\": "
                              "0.5}, {\"armies\": 4, \"probability\": 0.4999}]}",
                              &a, NULL),
                 422);
    cr_assert(has_error(a, "/defenders", "sum to 1"));
    json_decref(a);
    cr_assert_eq(api_test_run(&cfg, "/analyze-attack",
                              "{\"attackers\": 3, \"defenders\": [{\"armies\": 2, \"probability\": "
                              "0}, {\"armies\": 1000000001, \"probability\": 1.5}, {\"armies\": 1, "
                              "\"probability\": 0.5, \"seen\": true}]}",
                              &a, NULL),
                 422);
    cr_assert(has_error(a, "/defenders/0/probability", "greater than 0"));
    cr_assert(has_error(a, "/defenders/1/armies", "from 0 to"));
    cr_assert(has_error(a, "/defenders/1/probability", "at most 1"));
    cr_assert(has_error(a, "/defenders/2/seen", "not a known field"));
    json_decref(a);
    cfg.warapp.max_fog_points = 2;
    cr_assert_eq(api_test_run(&cfg, "/analyze-attack",
                              "{\"attackers\": 3, \"defenders\": [{\"armies\": 1, \"probability\": "
                              "0.25}, {\"armies\": 2, \"probability\": 0.25}, {\"armies\": 3, "
                              "\"probability\": 0.5}]}",
                              &a, NULL),
                 422);
    cr_assert(has_error(a, "/defenders", NULL));
    json_decref(a);
}
