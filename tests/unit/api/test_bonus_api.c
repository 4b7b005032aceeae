/*
 * W32 bonuses on /analyze-turn, /simulate-turn and /plan-turn, and W35 (a bonus spanning fronts
 * joins them), on boards worked out by hand (W1–W7 at the luck given; the reasoning beside
 * each), and the refusals' pointers.
 *
 * Reference values used (docs/rules.md, "Reference values for W1–W10", 60/70 rates): at 100 %
 * luck 2 attackers capture 2 defenders with probability 0.1836; at 0 % luck a attackers kill
 * round(0.6 a), so 3 take 2 defenders (they kill round(1.4) = 1 < 3) and 6 take 4 (3.6 → 4;
 * the 4 kill round(2.8) = 3 < 6), while 5 do not take 4 (round(3.0) = 3 < 4).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

static json_t *run(const char *path, const char *body, int want) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    json_t *doc = NULL;
    char *raw = NULL;
    int status = api_test_run(&cfg, path, body, &doc, &raw);
    cr_assert_eq(status, want, "%s: %.900s", path, raw);
    free(raw);
    return doc;
}

/* A (alice 4) sends 2 at the neutral B (2) at 100 % luck: B falls with 0.1836 and nothing
 * reaches A, so alice owns the bonus {A, B} whole exactly when B falls: 0.1836. Bob's C is
 * untouched: his bonus {C} is certain; the neutral's bonus {N} has no player owner. */
Test(bonuses, w32_one_attack_into_a_half_owned_bonus_owns_it_with_the_capture_chance) {
    json_t *doc =
        run("/analyze-turn",
            "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4}, \"B\": "
            "{\"owner\": \"neutral\", \"armies\": 2}, \"C\": {\"owner\": \"bob\", "
            "\"armies\": 1}, \"N\": {\"owner\": \"neutral\", \"armies\": 1}}, "
            "\"orders\": [{\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", "
            "\"armies\": 2}], \"settings\": {\"luck_modifier\": 1}, \"bonuses\": "
            "{\"AB\": {\"value\": 3, \"territories\": [\"A\", \"B\"]}, \"C\": {\"value\": "
            "-1, \"territories\": [\"C\"]}, \"N\": {\"value\": 2, \"territories\": "
            "[\"N\"]}}}",
            200);
    cr_expect_float_eq(json_number_at(doc, "bonuses/AB/owner/alice"), 0.1836, 1e-15);
    cr_expect_eq(json_number_at(doc, "bonuses/AB/value"), 3);
    cr_expect_null(json_walk(doc, "bonuses/AB/owner/bob"));
    cr_expect_float_eq(json_number_at(doc, "bonuses/C/owner/bob"), 1.0, 0);
    cr_expect_eq(json_number_at(doc, "bonuses/C/value"), -1);
    cr_expect_eq(json_object_size(json_walk(doc, "bonuses/N/owner")), 0);
    json_decref(doc);
}

/* Two independent attacks of 2 on 2 at 100 % luck (A → B, C → D): the bonus {B, D} needs both,
 * 0.1836² = 0.03370896; {A, B, C, D} the same (A and C are certain); {B} one, 0.1836. Both of
 * {B, D}'s territories are uncertain, so its chance is the joint one, analysed again. */
Test(bonuses, w32_two_uncertain_territories_take_the_joint_chance) {
    json_t *doc = run(
        "/analyze-turn",
        "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 3}, \"B\": {\"owner\": "
        "\"neutral\", \"armies\": 2}, \"C\": {\"owner\": \"alice\", \"armies\": 3}, \"D\": "
        "{\"owner\": \"neutral\", \"armies\": 2}}, \"orders\": [{\"player\": \"alice\", \"from\": "
        "\"A\", \"to\": \"B\", \"armies\": 2}, {\"player\": \"alice\", \"from\": \"C\", \"to\": "
        "\"D\", \"armies\": 2}], \"settings\": {\"luck_modifier\": 1}, \"bonuses\": {\"BD\": "
        "{\"value\": 4, \"territories\": [\"B\", \"D\"]}, \"all\": {\"value\": 9, \"territories\": "
        "[\"A\", \"B\", \"C\", \"D\"]}, \"B\": {\"value\": 1, \"territories\": [\"B\"]}}}",
        200);
    cr_expect_float_eq(json_number_at(doc, "bonuses/BD/owner/alice"), 0.1836 * 0.1836, 1e-15);
    cr_expect_float_eq(json_number_at(doc, "bonuses/all/owner/alice"), 0.1836 * 0.1836, 1e-15);
    cr_expect_float_eq(json_number_at(doc, "bonuses/B/owner/alice"), 0.1836, 1e-15);
    json_decref(doc);
}

/* At 0 % luck A (4) sends 3 at B (2) and takes it surely: every trial ends with alice owning
 * {A, B}; nobody owns {B, X} (X stays neutral). */
Test(bonuses, w32_simulate_counts_the_trials_owning_each_bonus) {
    json_t *doc = run("/simulate-turn",
                      "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4}, \"B\": "
                      "{\"owner\": \"neutral\", \"armies\": 2}, \"X\": {\"owner\": \"neutral\", "
                      "\"armies\": 2}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\", "
                      "\"to\": \"B\", \"armies\": 3}], \"trials\": 50, \"seed\": 7, \"bonuses\": "
                      "{\"AB\": {\"value\": 2, \"territories\": [\"A\", \"B\"]}, \"BX\": "
                      "{\"value\": 1, \"territories\": [\"B\", \"X\"]}}}",
                      200);
    cr_expect_eq(json_number_at(doc, "bonuses/AB/owner/alice"), 50);
    cr_expect_eq(json_object_size(json_walk(doc, "bonuses/BX/owner")), 0);
    json_decref(doc);
}

/*
 * Income by hand: alice's A (1) borders the neutrals B (2) and D (4), 0 % luck; bonuses AB
 * (value 3: A and B), AD (5: A and D) and the penalty A (-2: A alone, which she keeps: the
 * guard stays, nobody attacks). With an income of i, A holds 1 + i and sends at most i (W7): B
 * needs 3, D needs 6. Income 5: B only, 3 − 2 = 1. Income 6: D (6) beats B (3 + 3 failing at
 * D), 5 − 2 = 3: the plan takes the bonus worth more. Income 8: still one of them (3 + 6 > 8),
 * 3. Income 9: both, 3 + 5 − 2 = 6. Each the most a plan can have for its income: small
 * spaces, proven.
 */
static json_t *income_plan(int income) {
    char *b = NULL;
    int n = asprintf(
        &b,
        "{\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": [\"B\", "
        "\"D\"]}, \"B\": {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": []}, \"D\": "
        "{\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}}, \"bonuses\": {\"AB\": "
        "{\"value\": 3, \"territories\": [\"A\", \"B\"]}, \"AD\": {\"value\": 5, \"territories\": "
        "[\"A\", \"D\"]}, \"A\": {\"value\": -2, \"territories\": [\"A\"]}}, \"player\": \"me\", "
        "\"income\": %d, \"objective\": \"income\", \"settings\": {\"luck_modifier\": 0}}",
        income);
    cr_assert_gt(n, 0);
    json_t *doc = run("/plan-turn", b, 200);
    free(b);
    return doc;
}

/* The attack of the plan into `to`, or NULL. */
static const json_t *attack_on(const json_t *doc, const char *to) {
    const json_t *orders = json_object_get(doc, "orders");
    for (size_t i = 0; i < json_array_size(orders); i++) {
        const json_t *o = json_array_get(orders, i);
        if (json_object_get(o, "from") &&
            strcmp(json_string_value(json_object_get(o, "to")), to) == 0) {
            return o;
        }
    }
    return NULL;
}

Test(bonuses, w32_income_objective_values_worked_by_hand) {
    static const struct {
        int income;
        double value;
    } cases[] = {{5, 1}, {6, 3}, {8, 3}, {9, 6}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *doc = income_plan(cases[i].income);
        cr_expect_float_eq(json_number_at(doc, "value"), cases[i].value, 1e-15, "income %d",
                           cases[i].income);
        cr_expect(json_is_true(json_walk(doc, "optimal")), "income %d", cases[i].income);
        cr_expect_str_eq(json_string_value(json_walk(doc, "objective")), "income");
        json_decref(doc);
    }
}

Test(bonuses, w32_the_plan_takes_the_bonus_that_pays_more) {
    json_t *doc = income_plan(6);
    const json_t *d = attack_on(doc, "D");
    cr_assert_not_null(d, "no attack on D (the bonus worth 5)");
    cr_expect_eq(json_integer_value(json_object_get(d, "armies")), 6);
    cr_expect_float_eq(json_number_at(doc, "analysis/bonuses/AD/owner/me"), 1.0, 0);
    cr_expect_null(json_walk(doc, "analysis/bonuses/AB/owner/me"));
    json_decref(doc);
}

/*
 * W35: A (1) beside B (2) and C (1) beside D (4), 0 % luck, are two fronts (W34), but the bonus
 * BD (10) needs B and D together. With 9 both fall (3 on A, 6 on C): 10. Valued front by front
 * the bonus would be worth 0 on either (each front sees the other's territory untaken); joined
 * it is 10, proven. With 8 only one falls: 0. Two bonuses B (3) and D (5) stay two fronts and
 * add up: 8 with 9.
 */
static json_t *two_front_plan(int income, const char *bonuses) {
    char *b = NULL;
    int n = asprintf(&b,
                     "{\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": "
                     "[\"B\"]}, \"B\": {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": "
                     "[]}, \"C\": {\"owner\": \"me\", \"armies\": 1, \"neighbors\": [\"D\"]}, "
                     "\"D\": {\"owner\": \"neutral\", \"armies\": 4, \"neighbors\": []}}, "
                     "\"bonuses\": %s, \"player\": \"me\", \"income\": %d, \"objective\": "
                     "\"income\", \"settings\": {\"luck_modifier\": 0}}",
                     bonuses, income);
    cr_assert_gt(n, 0);
    json_t *doc = run("/plan-turn", b, 200);
    free(b);
    return doc;
}

Test(bonuses, w35_a_bonus_spanning_two_fronts_is_valued_whole) {
    static const char joint[] = "{\"BD\": {\"value\": 10, \"territories\": [\"B\", \"D\"]}}";
    static const char apart[] = "{\"B\": {\"value\": 3, \"territories\": [\"B\"]}, \"D\": "
                                "{\"value\": 5, \"territories\": [\"D\"]}}";
    json_t *doc = two_front_plan(9, joint);
    cr_expect_float_eq(json_number_at(doc, "value"), 10, 1e-15);
    cr_expect(json_is_true(json_walk(doc, "optimal")));
    json_decref(doc);
    doc = two_front_plan(8, joint);
    cr_expect_float_eq(json_number_at(doc, "value"), 0, 1e-15);
    json_decref(doc);
    doc = two_front_plan(9, apart);
    cr_expect_float_eq(json_number_at(doc, "value"), 8, 1e-15);
    cr_expect(json_is_true(json_walk(doc, "optimal")));
    json_decref(doc);
}

/* goal.bonuses is the bonus's territories as a goal: capture what the player lacks (B, C), hold
 * what it has (A); the same plan and value as the goal written out. */
Test(bonuses, w32_goal_bonuses_is_capture_and_hold_of_its_territories) {
    static const char board[] =
        "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4, \"neighbors\": [\"B\", "
        "\"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 3, \"neighbors\": [\"C\"]}, \"C\": "
        "{\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": []}}, \"bonuses\": {\"ABC\": "
        "{\"value\": 5, \"territories\": [\"A\", \"B\", \"C\"]}}, \"player\": \"alice\", "
        "\"income\": 5, \"settings\": {\"luck_modifier\": 0.5}, \"goal\": ";
    char *by_bonus = NULL, *by_hand = NULL;
    cr_assert_gt(asprintf(&by_bonus, "%s{\"bonuses\": [\"ABC\"]}}", board), 0);
    cr_assert_gt(asprintf(&by_hand, "%s{\"capture\": [\"B\", \"C\"], \"hold\": [\"A\"]}}", board),
                 0);
    json_t *a = run("/plan-turn", by_bonus, 200), *b = run("/plan-turn", by_hand, 200);
    cr_expect(json_equal(json_object_get(a, "orders"), json_object_get(b, "orders")));
    cr_expect_float_eq(json_number_at(a, "value"), json_number_at(b, "value"), 0);
    json_decref(a);
    json_decref(b);
    free(by_bonus);
    free(by_hand);
}

static void expect_refused(const char *path, const char *body, const char *pointer,
                           const char *needle) {
    json_t *doc = run(path, body, 422);
    cr_expect(has_error(doc, pointer, needle), "%s: no error at %s (%s)", path, pointer,
              json_dumps(doc, 0));
    json_decref(doc);
}

#define BOARD                                                                                      \
    "\"territories\": {\"A\": {\"owner\": \"me\", \"armies\": 3, \"neighbors\": [\"B\"]}, \"B\": " \
    "{\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}}"

Test(bonuses, w32_bad_bonuses_name_the_member) {
    expect_refused("/analyze-turn",
                   "{" BOARD ", \"orders\": [], \"bonuses\": {\"X\": {\"value\": 1, "
                   "\"territories\": [\"Z\"]}}}",
                   "/bonuses/X/territories/0", "territory of this board");
    expect_refused("/simulate-turn",
                   "{" BOARD ", \"orders\": [], \"bonuses\": {\"X\": {\"value\": 1, "
                   "\"territories\": [\"A\", \"A\"]}}}",
                   "/bonuses/X/territories/1", "already");
    expect_refused("/analyze-turn",
                   "{" BOARD ", \"orders\": [], \"bonuses\": {\"X\": {\"value\": 1.5, "
                   "\"territories\": [\"A\"]}}}",
                   "/bonuses/X/value", "whole number");
    expect_refused("/analyze-turn",
                   "{" BOARD ", \"orders\": [], \"bonuses\": {\"X\": {\"value\": 1, "
                   "\"territories\": []}}}",
                   "/bonuses/X/territories", "no territory");
    expect_refused("/analyze-turn",
                   "{" BOARD ", \"orders\": [], \"bonuses\": {\"X\": {\"territories\": [\"A\"], "
                   "\"extra\": 1}}}",
                   "/bonuses/X/value", "required");
    expect_refused("/plan-turn",
                   "{" BOARD ", \"bonuses\": {\"X\": {\"value\": 1, \"territories\": [\"B\"]}}, "
                   "\"player\": \"me\", \"income\": 1, \"goal\": {\"bonuses\": [\"Y\"]}}",
                   "/goal/bonuses/0", "bonus of this board");
    expect_refused("/plan-turn",
                   "{" BOARD ", \"player\": \"me\", \"income\": 1, \"objective\": \"income\"}",
                   "/objective", "bonuses");
    expect_refused("/plan-turn",
                   "{" BOARD ", \"bonuses\": {\"X\": {\"value\": 1, \"territories\": [\"B\"]}}, "
                   "\"player\": \"me\", \"income\": 1, \"objective\": \"income\", \"goal\": "
                   "{\"capture\": [\"B\"]}}",
                   "/goal", "bonuses only");
}
