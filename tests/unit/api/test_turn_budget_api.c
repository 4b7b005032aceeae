/*
 * The turn endpoints against an attacker's requests, at the default config: each ends within
 * the request budget (work and memory, read from the budget the request leaves, limits.report)
 * and within the answer cap, with a 422 naming the member to reduce where it cannot answer:
 *  - a 700,000,000-army battle at 5 % (and 20 %) luck with multi_attack, then a 99 % order on
 *    from the captured territory (it ran 11 s and held 544 MB; 67.6 s and 8.6 GB at 20 %);
 *  - the random move order over 7 players whose 15 orders send nothing, beside one battle of
 *    10^5 and more outcomes (4.3 s: every step of its 5,040 schedules wiped the table the
 *    battle grew);
 *  - a 17 KB /analyze-turn of 128 battles whose answer was 68 MB;
 *  - /simulate-turn listings and histograms past server.max_answer_bytes;
 *  - /simulate-turn of 10^7 trials of a 256-territory board (estimated 1.0 s, ran 6.8 s);
 *  - 251 blockades after a battle of many outcomes: each card's look at every state charged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "budget_test.h"
#include "costly_requests.h"

static char *errors_of(const budget_outcome *o) {
    return json_dumps(json_object_get(o->doc, "errors"), JSON_COMPACT);
}

static budget_outcome run(const char *path, const char *body) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return budget_answer(&cfg, path, body, false);
}

/* Work within the default budget (a refused charge may pass it by at most 1 %), memory under
 * the default 128 MiB, nothing left held, an answer under the default cap. */
static void expect_bounded(const budget_outcome *o) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_api_limits full = cbd_api_full_limits(&cfg);
    cr_expect_leq(o->spent.work_spent, full.work_limit + full.work_limit / 100, "%llu units spent",
                  (unsigned long long)o->spent.work_spent);
    cr_expect_lt(o->spent.mem_peak, full.mem_limit, "peak %zu bytes", o->spent.mem_peak);
    cr_expect_eq(full.mem_limit, (size_t)128 << 20);
    cr_expect_eq(o->spent.mem_held, 0);
    cr_expect_leq(o->answer_bytes, cfg.limits.max_answer_bytes);
}

/* 700,000,000 of the attacker's armies take the defender's 299,000,000 (their kills are about
 * 0.6 · 7·10^8 = 4.2·10^8 > 2.99·10^8, W1), then 99 % of the survivors attack on (W15 with
 * multi_attack): each of the thousands of survivor counts sends a different number of armies,
 * each with its own kill window of 2·10^5 terms. */
static char *huge_battle(const char *luck) {
    costly_buf t = {0};
    costly_add(&t,
               "{\"territories\": {\"A\": {\"owner\": \"attacker\", \"armies\": 700000000}, "
               "\"B\": {\"owner\": \"defender\", \"armies\": 299000000}, "
               "\"C\": {\"owner\": \"neutral\", \"armies\": 1000}}, "
               "\"orders\": [{\"player\": \"attacker\", \"from\": \"A\", \"to\": \"B\", "
               "\"armies\": 700000000}, "
               "{\"player\": \"attacker\", \"from\": \"B\", \"to\": \"C\", \"percent\": 0.99}], "
               "\"settings\": {\"luck_modifier\": %s, \"multi_attack\": true}}",
               luck);
    return t.p;
}

Test(turn_budget_api, a_huge_battle_then_a_percent_order_is_refused_within_the_budget) {
    const char *lucks[] = {"0.05", "0.2"};
    for (size_t i = 0; i < 2; i++) {
        char *body = huge_battle(lucks[i]);
        cr_expect_lt(strlen(body), 400, "an attacker's few hundred bytes");
        budget_outcome o = run("/analyze-turn", body);
        /* Refused by the turn's own limit on terms computed (or by the budget): at the order
         * whose windows add up. */
        budget_expect_422_at(&o, "/orders", "terms");
        expect_bounded(&o);
        cbd_config cfg;
        cbd_config_defaults(&cfg);
        cr_expect_gt(o.estimate, cfg.limits.inline_cost_ns, "it goes to a worker at once");
        json_decref(o.doc);
        /* On an HTTP thread it is handed back after about the inline budget: the first
         * binomial window alone is charged 1.04·10^6 units (259,000 terms of 4). */
        o = budget_answer(&cfg, "/analyze-turn", body, true);
        cr_expect(o.handed_back);
        cr_expect_leq(o.spent.work_spent, 2 * cbd_api_inline_limits(&cfg).work_limit);
        cr_expect_eq(o.spent.mem_held, 0);
        free(body);
    }
}

/* One battle of two territories at full luck, 5,000 a side (some 600,000 outcomes), and in
 * another group of two territories 15 orders by 7 players that send nothing (W14.3). */
static char *random_beside_a_battle(void) {
    costly_buf t = {0};
    costly_add(&t, "{\"territories\": {\"A\": {\"owner\": \"p0\", \"armies\": 5000}, "
                   "\"B\": {\"owner\": \"p1\", \"armies\": 5000}, "
                   "\"T1\": {\"owner\": \"p1\", \"armies\": 1}, "
                   "\"T2\": {\"owner\": \"p2\", \"armies\": 1}}, \"orders\": [{\"player\": \"p0\", "
                   "\"from\": \"A\", \"to\": \"B\", \"armies\": 5000}");
    for (int i = 0; i < 15; i++) {
        costly_add(&t, ", {\"player\": \"p%d\", \"from\": \"T1\", \"to\": \"T2\", \"armies\": 0}",
                   1 + i % 7);
    }
    costly_add(&t, "], \"settings\": {\"luck_modifier\": 1}, \"move_order\": \"random\", "
                   "\"max_distribution_points\": 100}");
    return t.p;
}

Test(turn_budget_api, the_random_move_order_beside_a_large_battle_answers_within_the_budget) {
    char *body = random_beside_a_battle();
    budget_outcome o = run("/analyze-turn", body);
    cr_assert_eq(o.status, 200, "%s", errors_of(&o));
    expect_bounded(&o);
    /* Nothing moves in the second group, whatever the schedule (5,040 weights of 1/5,040
     * add up to 1 within rounding). */
    cr_expect(fabs(json_number_value(json_walk(o.doc, "territories/T1/owner/p1")) - 1) < 1e-12);
    cr_expect(fabs(json_number_value(json_walk(o.doc, "territories/T2/armies/mean")) - 1) < 1e-12);
    for (int i = 1; i <= 15; i++) {
        char p[64];
        snprintf(p, sizeof p, "orders/%d/skipped_probability", i);
        cr_expect(fabs(json_number_value(json_walk(o.doc, p)) - 1) < 1e-12, "order %d", i);
    }
    /* The first battle's work, once; the 5,040 schedules of the others cost little beside it
     * (it was 4.3 s of wiping). A quarter of the budget is ample. */
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cr_expect_lt(o.spent.work_spent, cbd_api_full_limits(&cfg).work_limit / 4);
    cr_expect_gt(o.estimate, cfg.limits.inline_cost_ns, "5,040 schedules go to a worker");
    json_decref(o.doc);
    free(body);
}

/* 128 battles, each in a group of its own: 2,210,000 armies take 1,300,000 for certain at full
 * luck (kills 1,326,000 ± 730), leaving one of some 10,000 survivor counts (the defenders'
 * kills 910,000 ± 520): 128 distributions of up to max_distribution_points (10,000) points. */
static char *many_wide_battles(const char *extra) {
    costly_buf t = {0};
    costly_add(&t, "{\"territories\":{");
    for (int i = 0; i < 128; i++) {
        costly_add(&t,
                   "%s\"A%d\":{\"owner\":\"p0\",\"armies\":2210000},"
                   "\"B%d\":{\"owner\":\"p1\",\"armies\":1300000}",
                   i ? "," : "", i, i);
    }
    costly_add(&t, "},\"orders\":[");
    for (int i = 0; i < 128; i++) {
        costly_add(&t, "%s{\"player\":\"p0\",\"from\":\"A%d\",\"to\":\"B%d\",\"armies\":2210000}",
                   i ? "," : "", i, i);
    }
    costly_add(&t, "],\"settings\":{\"luck_modifier\":1}%s}", extra);
    return t.p;
}

Test(turn_budget_api, an_analysis_answer_past_the_cap_is_refused_before_it_is_rendered) {
    char *body = many_wide_battles("");
    cr_expect(strlen(body) > 16000 && strlen(body) < 18000, "%zu bytes", strlen(body));
    budget_outcome o = run("/analyze-turn", body);
    /* The floor of the listed points, known from the analysis: a size, so refused before
     * anything was written. */
    budget_expect_422_at(&o, "/max_distribution_points", "would be about");
    expect_bounded(&o);
    json_decref(o.doc);
    free(body);
    /* The member named is the one to reduce: 100 points a territory fit. */
    body = many_wide_battles(",\"max_distribution_points\":100");
    o = run("/analyze-turn", body);
    cr_expect_eq(o.status, 200);
    cr_expect_eq(json_array_size(json_walk(o.doc, "territories/B7/armies/distribution")), 100);
    expect_bounded(&o);
    json_decref(o.doc);
    free(body);
}

/* 128 battles of 3,800,000 against 3,250,000 at full luck, captured about half the time: both
 * territories of each end with thousands of army counts over 30,000 trials. */
Test(turn_budget_api, simulated_histograms_past_the_cap_name_the_trials) {
    costly_buf t = {0};
    costly_add(&t, "{\"territories\":{");
    for (int i = 0; i < 128; i++) {
        costly_add(&t,
                   "%s\"A%d\":{\"owner\":\"p0\",\"armies\":3800000},"
                   "\"B%d\":{\"owner\":\"p1\",\"armies\":3250000}",
                   i ? "," : "", i, i);
    }
    costly_add(&t, "},\"orders\":[");
    for (int i = 0; i < 128; i++) {
        costly_add(&t, "%s{\"player\":\"p0\",\"from\":\"A%d\",\"to\":\"B%d\",\"armies\":3800000}",
                   i ? "," : "", i, i);
    }
    costly_add(&t, "],\"settings\":{\"luck_modifier\":1},\"trials\":30000,\"seed\":1}");
    budget_outcome o = run("/simulate-turn", t.p);
    budget_expect_422_at(&o, "/trials", "server.max_answer_bytes");
    expect_bounded(&o);
    json_decref(o.doc);
    free(t.p);
}

/*
 * 100 listed turns (the default for 100 trials) of 128 pairs of territories with 14-byte ids,
 * each pair owned by players of 64-byte ids, and 2 attacks of 1,900,000 armies a pair: each
 * turn lists 256 territories with their owners and 256 battles (8.48 MB in all, past the
 * 8 MiB cap, from a body within the default 64 KiB).
 */
static char *long_listing(const char *extra) {
    costly_buf t = {0};
    char p[65], d[65];
    memset(p, 'p', 64);
    memset(d, 'd', 64);
    p[64] = d[64] = '\0';
    costly_add(&t, "{\"territories\":{");
    for (int i = 0; i < 128; i++) {
        costly_add(&t,
                   "%s\"a%013d\":{\"owner\":\"%s\",\"armies\":3900000},"
                   "\"b%013d\":{\"owner\":\"%s\",\"armies\":3800000}",
                   i ? "," : "", i, p, i, d);
    }
    costly_add(&t, "},\"orders\":[");
    for (int i = 0; i < 256; i++) {
        costly_add(&t,
                   "%s{\"player\":\"%s\",\"from\":\"a%013d\",\"to\":\"b%013d\",\"armies\":1900000}",
                   i ? "," : "", p, i / 2, i / 2);
    }
    costly_add(&t, "],\"seed\":1%s}", extra);
    return t.p;
}

Test(turn_budget_api, simulated_listings_past_the_cap_name_include_turns) {
    char *body = long_listing(",\"trials\":100");
    /* The request itself fits server.body_limit's default (64 KiB; the server's, not the api's). */
    cr_expect_leq(strlen(body), 64u * 1024u, "%zu bytes", strlen(body));
    budget_outcome o = run("/simulate-turn", body);
    /* Its floor (the shortest each turn could be) fits, so it is written, and cut at the cap. */
    budget_expect_422_at(&o, "/include_turns", "server.max_answer_bytes");
    expect_bounded(&o);
    json_decref(o.doc);
    free(body);
    /* Without the listing it answers. */
    body = long_listing(",\"trials\":100,\"include_turns\":false");
    o = run("/simulate-turn", body);
    cr_expect_eq(o.status, 200);
    expect_bounded(&o);
    json_decref(o.doc);
    free(body);
}

Test(turn_budget_api, a_listing_whose_floor_passes_the_cap_is_refused_before_any_turn) {
    /* Where more turns may be listed, 10,000 of them take at least 10,000 × (256 territories ×
     * (14 + 64 + 27) bytes + 256 orders × 21 bytes): 323 MB, refused before one turn is
     * resolved. */
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.warapp.max_listed_turns = 10000;
    char *body = long_listing(",\"trials\":10000,\"include_turns\":true");
    budget_outcome o = budget_answer(&cfg, "/simulate-turn", body, false);
    budget_expect_422_at(&o, "/include_turns", "would be about");
    cr_expect_eq(o.spent.work_spent, budget_request_units(body), "no turn's work was done");
    cr_expect_eq(o.spent.mem_peak, 0);
    json_decref(o.doc);
    free(body);
}

/* 10^7 trials of one order on a 256-territory board: each trial counts all 256 territories,
 * which the old estimate left out (1.0 s estimated, 6.8 to 11.7 s spent). */
Test(turn_budget_api, a_simulation_of_many_territories_stops_on_the_budget) {
    char *body = costly_turn_wide_board(10000000);
    budget_outcome o = run("/simulate-turn", body);
    budget_expect_422_at(&o, "/trials", "work budget");
    expect_bounded(&o);
    cr_expect_eq(o.spent.stopped, CBD_BUDGET_WORK);
    /* The estimate counts the territories: 10^7 × (100 + 256 × 8) ns, past 20 s. */
    cr_expect_geq(o.estimate, UINT64_C(10000000) * (100 + 256 * 8));
    json_decref(o.doc);
    free(body);
}

/* A battle at full luck, 5,000 a side (some 600,000 outcomes), then `cards` blockades of the
 * battle's territory by a player who never owns it (W26: each is skipped). */
static char *blockades_after_a_battle(int cards) {
    costly_buf t = {0};
    costly_add(&t, "{\"territories\": {\"A\": {\"owner\": \"p0\", \"armies\": 5000}, "
                   "\"B\": {\"owner\": \"p1\", \"armies\": 5000}, "
                   "\"C\": {\"owner\": \"p2\", \"armies\": 1}}, \"orders\": [{\"player\": "
                   "\"p0\", \"from\": \"A\", \"to\": \"B\", \"armies\": 5000}");
    for (int i = 0; i < cards; i++) {
        costly_add(&t, ", {\"type\": \"blockade\", \"player\": \"p2\", \"target\": \"B\"}");
    }
    costly_add(&t, "], \"settings\": {\"luck_modifier\": 1}, \"max_distribution_points\": 100}");
    return t.p;
}

/* W24, W26: cards are charged like any other step: each skipped blockade looks at every state
 * the battle left, at least one per armies count B may hold (its distribution lists 100 of
 * them, max_distribution_points), so 250 more blockades cost at least 250 × 100 ×
 * CBD_WORK_TURN_STATE more; the request still ends within the budget (refused at an order, or
 * answered). */
Test(turn_budget_api, w24_w26_blockades_after_a_large_battle_are_charged) {
    char *one = blockades_after_a_battle(1), *many = blockades_after_a_battle(251);
    budget_outcome a = run("/analyze-turn", one);
    cr_assert_eq(a.status, 200);
    size_t counts = json_array_size(json_walk(a.doc, "territories/B/armies/distribution"));
    cr_expect_eq(counts, 100, "B's armies take at least 100 values");
    budget_outcome o = run("/analyze-turn", many);
    expect_bounded(&o);
    if (o.status == 422) {
        char *e = errors_of(&o);
        cr_expect(strstr(e, "\"/orders/") != NULL, "names an order: %s", e);
        free(e);
    } else {
        cr_expect_eq(o.status, 200);
        cr_expect_eq(json_number_value(json_walk(o.doc, "orders/251/skipped_probability")), 1.0);
        cr_expect_gt(o.spent.work_spent, a.spent.work_spent + 250 * 100 * CBD_WORK_TURN_STATE,
                     "%llu units, one blockade %llu", (unsigned long long)o.spent.work_spent,
                     (unsigned long long)a.spent.work_spent);
    }
    cr_log_info("one blockade %llu units, 251 blockades %llu (status %d)",
                (unsigned long long)a.spent.work_spent, (unsigned long long)o.spent.work_spent,
                o.status);
    budget_outcome_free(&a);
    budget_outcome_free(&o);
    free(one);
    free(many);
}

/* ---- the progress check ---- */

/* A request answered as a worker answers it, its progress checks counted (none stops it). */
static cbd_budget_stop count_check(void *arg) {
    (*(uint64_t *)arg)++;
    return CBD_BUDGET_RUNNING;
}

static budget_outcome run_counting_checks(const char *body, uint64_t *checks) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    budget_outcome o = {0};
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/analyze-turn");
    cbd_api_request req;
    cbd_api_reply reply = {0};
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply), "%s", reply.body);
    cbd_api_limits limits = cbd_api_full_limits(&cfg);
    limits.report = &o.spent;
    limits.scratch = warm_scratch();
    *checks = 0;
    limits.progress = count_check;
    limits.progress_arg = checks;
    cr_assert(cbd_api_answer_within(&req, &cfg, &limits, &reply));
    o.status = reply.status;
    o.doc = json_loadb(reply.body, reply.body_len, 0, NULL);
    cbd_api_reply_free(&reply);
    return o;
}

/*
 * The check comes with the charges, once per CBD_BUDGET_PROGRESS_UNITS (2^20) of them however
 * large the charge that crosses it: a step charged at once for all its states or all its
 * battle's pairs ran tens of ms between two checks. Charged in pieces of about 2^20 units
 * (cbd_charge_loop), a request makes a check for every 2^20-2^21 units, so at most 3 · 2^20
 * units a check leaves room for the few charges that stay whole (a table's growth). Before:
 * 4.6·10^6 units a check for 3,000 a side then 40 steps, 6·10^6 for the random order's 2,000.
 */
Test(turn_budget_api, a_turn_checks_its_progress_every_few_million_units) {
    struct {
        int armies, zeros;
        bool random;
    } rows[] = {{3000, 40, false}, {2000, 15, true}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *body = costly_battle_then_zeros(rows[i].armies, rows[i].zeros, rows[i].random, "B");
        uint64_t checks = 0;
        budget_outcome o = run_counting_checks(body, &checks);
        uint64_t units = o.spent.work_spent;
        printf("%d a side, %d orders%s: %llu units, %llu checks, %.0f units a check (%d)\n",
               rows[i].armies, rows[i].zeros, rows[i].random ? " in random order" : "",
               (unsigned long long)units, (unsigned long long)checks,
               checks ? (double)units / (double)checks : 0.0, o.status);
        cr_expect_gt(units, 20 * CBD_BUDGET_PROGRESS_UNITS, "a costly turn");
        cr_expect_geq(checks * 3 * CBD_BUDGET_PROGRESS_UNITS, units, "%llu checks for %llu units",
                      (unsigned long long)checks, (unsigned long long)units);
        json_decref(o.doc);
        free(body);
    }
}
