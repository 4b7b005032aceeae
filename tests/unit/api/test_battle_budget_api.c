/*
 * The request budget stops /analyze-attack and /simulate where they grow: the work meter at
 * server.work_budget_ms, the memory meter at server.memory_budget, the answer cap at
 * server.max_answer_bytes, each with a 422 naming the member to reduce; and a request just
 * inside each limit is answered. The figures are worked out by hand from the documented
 * reach of a binomial window (binomial.c: 10σ + 64 values each side of the mode, clamped to
 * [0, n]) and the weights of budget.h.
 */
#include <inttypes.h>

#include "api_test.h"
#include "combatd/budget.h"
#include "combatd/warapp_simulate.h"
#include "warm_scratch.h"

/* 1 ms: the smallest work budget a config may set. */
#define ONE_MS_UNITS UINT64_C(1000000)

/* What every request is charged before its endpoint's steps (cbd_api_answer_within): a body of
 * `len` bytes parsed, and the answer set up. */
static uint64_t request_units(size_t len) {
    return CBD_WORK_REQUEST + len * CBD_WORK_BODY_BYTE;
}
#define ONE_MIB (1024u * 1024u)

#define LUCK_02 "\"settings\": {\"luck_modifier\": 0.2}"
#define LUCK_016_WEIGHTED                                                                          \
    "\"settings\": {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"}"

typedef struct {
    int status;
    json_t *doc;
    char *text;
    cbd_budget spent; /* the budget as the request left it */
    uint64_t request; /* what its body and answer were charged besides the endpoint's steps */
} answer;

/* Runs a body as a worker would (the config's full limits), keeping the spent budget. */
static answer ask(const cbd_config *cfg, const char *path, const char *body) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(path);
    cr_assert_not_null(ep);
    answer a;
    memset(&a, 0, sizeof a);
    a.request = request_units(strlen(body));
    cbd_api_limits limits = cbd_api_full_limits(cfg);
    limits.report = &a.spent;
    limits.scratch = warm_scratch(); /* steps only: the tests count them by hand */
    cbd_api_request req;
    cbd_api_reply reply;
    cr_assert(cbd_api_parse(ep, body, strlen(body), &req, &reply), "%s", reply.body);
    cr_assert(cbd_api_answer_within(&req, cfg, &limits, &reply));
    a.status = reply.status;
    a.text = strdup(reply.body);
    a.doc = json_loadb(reply.body, reply.body_len, 0, NULL);
    cr_assert_not_null(a.doc, "%s", reply.body);
    cbd_api_reply_free(&reply);
    return a;
}

static void answer_free(answer *a) {
    json_decref(a->doc);
    free(a->text);
}

/* The first field error's pointer and detail (NULL when there is none). */
static const char *error_pointer(const answer *a) {
    return json_string_value(json_walk(a->doc, "errors/0/pointer"));
}

static const char *error_detail(const answer *a) {
    return json_string_value(json_walk(a->doc, "errors/0/detail"));
}

/* A 422 of the work meter at `pointer`, stating the budget in units and what was spent (the
 * spent figure as the budget recorded it; `spent` when the test knows the endpoint's steps by
 * hand, else 0: the request's own units come on top). */
static void expect_work_stop(const answer *a, const char *pointer, uint64_t spent) {
    cr_assert_eq(a->status, 422, "%s", a->text);
    cr_expect_eq(a->spent.stopped, CBD_BUDGET_WORK, "%s", a->text);
    cr_expect_str_eq(error_pointer(a), pointer, "%s", a->text);
    const char *detail = error_detail(a);
    cr_assert_not_null(detail, "%s", a->text);
    cr_expect_not_null(strstr(detail, "work budget of 1000000 units"), "%s", detail);
    char said[64];
    snprintf(said, sizeof said, "spent %" PRIu64 " units", a->spent.work_spent);
    cr_expect_not_null(strstr(detail, said), "%s", detail);
    cr_expect_gt(a->spent.work_spent, ONE_MS_UNITS);
    if (spent) {
        cr_expect_eq(a->spent.work_spent, a->request + spent, "%" PRIu64, a->spent.work_spent);
    }
    cr_expect_eq(a->spent.mem_held, 0, "everything the core took was given back");
}

/* Answered, within the budget, having spent more than `floor` of it (so: just inside). */
static void expect_inside(const answer *a, uint64_t floor) {
    cr_assert_eq(a->status, 200, "%.400s", a->text);
    cr_expect_leq(a->spent.work_spent, a->spent.work_limit);
    cr_expect_geq(a->spent.work_spent, floor, "%" PRIu64, a->spent.work_spent);
    cr_expect_eq(a->spent.mem_held, 0);
}

static cbd_config one_ms(void) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.work_budget_ms = 1;
    return cfg;
}

/* ---- /analyze-attack: the work meter ---- */

Test(analyze_budget, a_big_battle_stops_at_its_first_window) {
    cbd_config cfg = one_ms();
    /* The attackers' roll, Binomial(10^9, 0.6): σ = √(2.4·10^8) = 15491.9, reach 154919 + 64,
     * so room for 2·154983 + 1 = 309967 terms at 4 units: 1239868 units, charged before the
     * first term is computed. */
    answer a = ask(&cfg, "/analyze-attack",
                   "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02 "}");
    expect_work_stop(&a, "/attackers", 309967u * CBD_WORK_BINOM_TERM);
    answer_free(&a);
    /*
     * The larger side is named. The 10 attackers' roll has room for its whole support (mode
     * floor(11·0.6) = 6, clamped to 6 below and 4 above: 11 terms, 44 units), all 11 above the
     * cut-off and folded (33 units); then the defenders' Binomial(10^9, 0.7), σ = 14491.4, has
     * room for 2·(144913 + 64) + 1 = 289955 terms: 1159820 units more.
     */
    a = ask(&cfg, "/analyze-attack", "{\"attackers\": 10, \"defenders\": 1000000000, " LUCK_02 "}");
    expect_work_stop(&a, "/defenders",
                     11u * CBD_WORK_BINOM_TERM + 11u * CBD_WORK_KILL_TERM +
                         289955u * CBD_WORK_BINOM_TERM);
    answer_free(&a);
    /* A battle just inside the budget: 10^7 a side, listed in 100 points (the test below). */
}

/*
 * 10^7 a side: the windows have room for 2·(15491 + 64) + 1 = 31111 and 2·(14491 + 64) + 1 =
 * 29111 terms (σ = 1549.2 and 1449.1), 240888 units, and each is folded into kills (3 units a
 * term that passes the cut-off, about 9σ each side) and scanned: some 4.5·10^5 units. The
 * survivor distributions then span the kills, 0.2 of the rolls' spread: about 5600 and 5300
 * values, summarised at CBD_WORK_DIST_VALUE a value (some 1.7·10^5 units) and listed at
 * CBD_WORK_DIST_POINT a point: 8·10^5 units more at the default 10000 points, which the 1 ms
 * budget cannot hold, 15000 at 100 points, which it can.
 */
Test(analyze_budget, a_long_listing_stops_naming_max_distribution_points) {
    cbd_config cfg = one_ms();
    answer a = ask(&cfg, "/analyze-attack",
                   "{\"attackers\": 10000000, \"defenders\": 10000000, " LUCK_02 "}");
    expect_work_stop(&a, "/max_distribution_points", 0);
    answer_free(&a);
    a = ask(&cfg, "/analyze-attack",
            "{\"attackers\": 10000000, \"defenders\": 10000000, " LUCK_02
            ", \"max_distribution_points\": 100}");
    expect_inside(&a, 500000);
    answer_free(&a);
}

Test(analyze_budget, a_graph_stops_naming_graph) {
    cbd_config cfg = one_ms();
    /* Each point near 1000 attackers computes a window of room 2·(154 + 64) + 1 = 437 (σ =
     * 15.49) at 4 units and folds it (3 units a term): about 3000 units a point, so 1000
     * points need about 3·10^6. The battle itself needs some 6000. */
    answer a = ask(&cfg, "/analyze-attack",
                   "{\"attackers\": 1000, \"defenders\": 1000, " LUCK_02
                   ", \"graph\": {\"from\": 1, \"to\": 1000}}");
    expect_work_stop(&a, "/graph", 0);
    answer_free(&a);
    /* 201 points from 800 to 1000: about 2600 units each, some 5·10^5 in all. */
    a = ask(&cfg, "/analyze-attack",
            "{\"attackers\": 1000, \"defenders\": 1000, " LUCK_02
            ", \"graph\": {\"from\": 800, \"to\": 1000}}");
    expect_inside(&a, 400000);
    answer_free(&a);
}

Test(analyze_budget, targets_stop_naming_targets) {
    cbd_config cfg = one_ms();
    /* Capturing 10^7 defenders takes about 1.67·10^7 attackers: each evaluation of the search
     * is a window of room 2·(20000 + 64) + 1 (σ = 2000) at 4 units, some 1.6·10^5 units with
     * its fold, and the search makes dozens of them. The battle itself fits (about 4·10^5). */
    answer a = ask(&cfg, "/analyze-attack",
                   "{\"attackers\": 10, \"defenders\": 10000000, " LUCK_02
                   ", \"targets\": [0.5, 0.9, 0.99]}");
    expect_work_stop(&a, "/targets", 0);
    answer_free(&a);
    /* 1000 defenders: windows of room 529 (σ = 20 near 1667 attackers), about 3000 units an
     * evaluation with its fold, a few dozen evaluations: some 1.5·10^5 units. */
    a = ask(&cfg, "/analyze-attack",
            "{\"attackers\": 10, \"defenders\": 1000, " LUCK_02 ", \"targets\": [0.5, 0.9, 0.99]}");
    expect_inside(&a, 100000);
    answer_free(&a);
}

/*
 * A fog (W23) costs each count's windows, and its refusal names what makes them large: the
 * one count whose window is half the defenders' work or more (10^9 at luck 0.2: 289955 terms,
 * 1159820 units, past the budget alone), else the distribution; the attackers when their
 * window, read once per count, is the larger part (10^9 attackers against three small counts).
 */
Test(analyze_budget, a_fog_names_the_count_or_the_distribution) {
    cbd_config cfg = one_ms();
    answer a = ask(&cfg, "/analyze-attack",
                   "{\"attackers\": 10, \"defenders\": [{\"armies\": 5, \"probability\": 0.5}, "
                   "{\"armies\": 1000000000, \"probability\": 0.5}], " LUCK_02 "}");
    expect_work_stop(&a, "/defenders/1", 0);
    answer_free(&a);
    /* Eight counts near 10^8 (367124 units a window): no one of them is half the work. */
    char body[1024];
    int used = snprintf(body, sizeof body, "{\"attackers\": 10, " LUCK_02 ", \"defenders\": [");
    for (int k = 0; k < 8; k++) {
        used += snprintf(body + used, sizeof body - (size_t)used,
                         "%s{\"armies\": %d, \"probability\": 0.125}", k ? ", " : "",
                         100000000 + 1000000 * k);
    }
    snprintf(body + used, sizeof body - (size_t)used, "]}");
    a = ask(&cfg, "/analyze-attack", body);
    expect_work_stop(&a, "/defenders", 0);
    answer_free(&a);
    a = ask(&cfg, "/analyze-attack",
            "{\"attackers\": 1000000000, \"defenders\": [{\"armies\": 5, \"probability\": "
            "0.5}, {\"armies\": 6, \"probability\": 0.25}, {\"armies\": 7, \"probability\": "
            "0.25}], " LUCK_02 "}");
    /* The three counts read, then the attackers' window charged before any term of it. */
    expect_work_stop(&a, "/attackers", 3u * CBD_WORK_FOG_POINT + 309967u * CBD_WORK_BINOM_TERM);
    answer_free(&a);
}

/* ---- /simulate: the work meter ---- */

/*
 * 10 against 10 at luck 0.16: both rolls are drawn, so a battle costs CBD_WORK_BATTLE; a run
 * of one block charges its battles, then one jump (CBD_WORK_RNG_JUMP), then each histogram's
 * first window: [0, v + 32) for a first value v of at most 10, at most 84 slots in all.
 */
Test(simulate_budget, trials_stop_naming_trials) {
    cbd_config cfg = one_ms();
    uint64_t over = ONE_MS_UNITS / CBD_WORK_BATTLE + 1;
    char body[256];
    uint64_t inside =
        (ONE_MS_UNITS - request_units(sizeof body) - CBD_WORK_RNG_JUMP - 84 * CBD_WORK_HIST_SLOT) /
        CBD_WORK_BATTLE;
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5}",
             over);
    answer a = ask(&cfg, "/simulate", body);
    /* The block's battles are charged before any is played. */
    expect_work_stop(&a, "/trials", over * CBD_WORK_BATTLE);
    answer_free(&a);
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5}",
             inside);
    a = ask(&cfg, "/simulate", body);
    expect_inside(&a, inside * CBD_WORK_BATTLE + CBD_WORK_RNG_JUMP);
    cr_expect_eq(json_integer_value(json_object_get(a.doc, "trials")), (json_int_t)inside);
    answer_free(&a);
}

/* The listing is charged CBD_WORK_LISTED_BATTLE a battle before any battle is fought. */
Test(simulate_budget, a_listing_stops_naming_include_battles) {
    cbd_config cfg = one_ms();
    cfg.warapp.max_listed_battles = 100000;
    uint64_t over = ONE_MS_UNITS / CBD_WORK_LISTED_BATTLE + 1;
    char body[256];
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5, \"include_battles\": true}",
             over);
    answer a = ask(&cfg, "/simulate", body);
    expect_work_stop(&a, "/include_battles", over * CBD_WORK_LISTED_BATTLE);
    answer_free(&a);
    /* Listed and played, with the jump and at most 84 histogram slots. */
    uint64_t inside =
        (ONE_MS_UNITS - request_units(sizeof body) - CBD_WORK_RNG_JUMP - 84 * CBD_WORK_HIST_SLOT) /
        (CBD_WORK_LISTED_BATTLE + CBD_WORK_BATTLE);
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5, \"include_battles\": true}",
             inside);
    a = ask(&cfg, "/simulate", body);
    expect_inside(&a, inside * (CBD_WORK_LISTED_BATTLE + CBD_WORK_BATTLE));
    cr_expect_eq(json_array_size(json_object_get(a.doc, "battles")), inside);
    answer_free(&a);
}

/*
 * Units and fog are charged with each battle. Two Commanders a side add 4 · CBD_WORK_UNIT_DAMAGE
 * to every battle, and their echoes 4 · CBD_WORK_LISTED_UNIT before any is played: the trials
 * that fit a millisecond of plain battles (7143 · 120 < 10^6) no longer fit with them. A
 * distribution of 2 counts adds a uniform and a halving (2 · CBD_WORK_FOG_STEP) to each battle,
 * and first its set-up (CBD_WORK_SIM_COUNT a count), its reading (CBD_WORK_FOG_POINT a count)
 * and its echo and tally (2 · CBD_WORK_DIST_POINT a count).
 */
Test(simulate_budget, units_and_fog_are_charged_with_each_battle) {
    cbd_config cfg = one_ms();
    const char *commanders = "[{\"type\": \"commander\"}, {\"type\": \"commander\"}]";
    uint64_t per = CBD_WORK_BATTLE + 4 * CBD_WORK_UNIT_DAMAGE, first = 4 * CBD_WORK_LISTED_UNIT;
    uint64_t over = (ONE_MS_UNITS - first) / per + 1;
    char body[512];
    cr_assert_lt(over * CBD_WORK_BATTLE + request_units(sizeof body), ONE_MS_UNITS,
                 "plain battles would fit");
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5, \"attacking_units\": %s, \"defending_units\": %s}",
             over, commanders, commanders);
    answer a = ask(&cfg, "/simulate", body);
    expect_work_stop(&a, "/trials", first + over * per);
    answer_free(&a);
    uint64_t inside = (ONE_MS_UNITS - request_units(sizeof body) - first - CBD_WORK_RNG_JUMP -
                       84 * CBD_WORK_HIST_SLOT) /
                      per;
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": 10, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5, \"attacking_units\": %s, \"defending_units\": %s}",
             inside, commanders, commanders);
    a = ask(&cfg, "/simulate", body);
    expect_inside(&a, first + inside * per + CBD_WORK_RNG_JUMP);
    answer_free(&a);

    const char *fog = "[{\"armies\": 10, \"probability\": 0.5}, {\"armies\": 12, "
                      "\"probability\": 0.5}]";
    per = CBD_WORK_BATTLE + 2 * CBD_WORK_FOG_STEP;
    first = 2 * CBD_WORK_SIM_COUNT + 2 * (CBD_WORK_FOG_POINT + 2 * CBD_WORK_DIST_POINT);
    over = (ONE_MS_UNITS - first) / per + 1;
    snprintf(body, sizeof body,
             "{\"attackers\": 10, \"defenders\": %s, " LUCK_016_WEIGHTED ", \"trials\": %" PRIu64
             ", \"seed\": 5}",
             fog, over);
    a = ask(&cfg, "/simulate", body);
    expect_work_stop(&a, "/trials", first + over * per);
    answer_free(&a);
}

/* ---- the memory meter ---- */

Test(memory_budget, a_battle_of_a_billion_at_luck_needs_more_than_a_mebibyte) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.memory_budget = ONE_MIB;
    /* The attackers' window has room for 309967 terms (σ = 15491.9: 2·(154919 + 64) + 1),
     * 309967 doubles = 2479736 bytes, more than the 1048576 of the budget: refused as the first
     * block the request asks for, so nothing was held. */
    answer a = ask(&cfg, "/analyze-attack",
                   "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02 "}");
    cr_assert_eq(a.status, 422, "%s", a.text);
    cr_expect_eq(a.spent.stopped, CBD_BUDGET_MEMORY);
    cr_expect_str_eq(error_pointer(&a), "/attackers", "%s", a.text);
    const char *detail = error_detail(&a);
    cr_assert_not_null(detail);
    cr_expect_not_null(strstr(detail, "memory budget of 1048576 bytes"), "%s", detail);
    cr_expect_not_null(strstr(detail, "held up to 0 bytes and asked for 2479736 more"), "%s",
                       detail);
    cr_expect_eq(a.spent.mem_held, 0);
    answer_free(&a);
    /* 10^8 a side: room for 2·(48989 + 64) + 1 = 98107 terms, 784856 bytes, the most held at
     * once with the kill distributions kept beside it: inside. */
    a = ask(&cfg, "/analyze-attack",
            "{\"attackers\": 100000000, \"defenders\": 100000000, " LUCK_02 "}");
    cr_assert_eq(a.status, 200, "%.300s", a.text);
    cr_expect_geq(a.spent.mem_peak, 784856u);
    cr_expect_leq(a.spent.mem_peak, ONE_MIB);
    cr_expect_eq(a.spent.mem_held, 0);
    answer_free(&a);
}

Test(memory_budget, a_long_listing_needs_more_than_a_mebibyte) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.memory_budget = ONE_MIB;
    cfg.limits.max_answer_bytes = UINT64_C(64) * ONE_MIB;
    cfg.warapp.max_listed_battles = 100000;
    /* 100000 listed battles of sizeof(cbd_sim_record) (80) bytes: 8 MB. */
    answer a = ask(&cfg, "/simulate",
                   "{\"attackers\": 10, \"defenders\": 10, \"trials\": 100000, \"seed\": 1, "
                   "\"include_battles\": true}");
    cr_assert_eq(a.status, 422, "%s", a.text);
    cr_expect_eq(a.spent.stopped, CBD_BUDGET_MEMORY);
    cr_expect_str_eq(error_pointer(&a), "/include_battles", "%s", a.text);
    cr_expect_not_null(strstr(error_detail(&a), "memory budget of 1048576 bytes"));
    answer_free(&a);
    /* 10000 of them: 800000 bytes, and the histograms' few hundred. */
    a = ask(&cfg, "/simulate",
            "{\"attackers\": 10, \"defenders\": 10, \"trials\": 10000, \"seed\": 1, "
            "\"include_battles\": true}");
    cr_assert_eq(a.status, 200, "%.300s", a.text);
    cr_expect_geq(a.spent.mem_peak, 10000 * sizeof(cbd_sim_record));
    cr_expect_eq(a.spent.mem_held, 0);
    answer_free(&a);
}

/* ---- the answer cap ---- */

static void expect_too_large(const answer *a, const char *pointer) {
    cr_assert_eq(a->status, 422, "%s", a->text);
    cr_expect_str_eq(error_pointer(a), pointer, "%s", a->text);
    cr_expect_not_null(strstr(error_detail(a), "past the 4096 bytes of "
                                               "server.max_answer_bytes"),
                       "%s", a->text);
    cr_expect_eq(a->spent.work_spent, a->request, "refused before any of the endpoint's work");
}

Test(answer_cap, distributions_past_the_cap_name_max_distribution_points) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.max_answer_bytes = 4096;
    /* About 20σ + 2 listed values a side (σ = 15.5 and 14.5 at 1000 armies), 64 bytes each:
     * some 38000 bytes. */
    answer a =
        ask(&cfg, "/analyze-attack", "{\"attackers\": 1000, \"defenders\": 1000, " LUCK_02 "}");
    expect_too_large(&a, "/max_distribution_points");
    answer_free(&a);
    /* Ten values a side: 1024 + 20 · 64 bytes at most. */
    a = ask(&cfg, "/analyze-attack",
            "{\"attackers\": 1000, \"defenders\": 1000, " LUCK_02
            ", \"max_distribution_points\": 10}");
    cr_assert_eq(a.status, 200, "%s", a.text);
    cr_expect_leq(strlen(a.text), 4096);
    answer_free(&a);
}

Test(answer_cap, a_listing_past_the_cap_names_include_battles) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.limits.max_answer_bytes = 4096;
    /* 100 listed battles at 230 bytes each: 23000 bytes and more. */
    answer a = ask(&cfg, "/simulate",
                   "{\"attackers\": 10, \"defenders\": 10, \"trials\": 100, \"seed\": 1, "
                   "\"include_battles\": true}");
    expect_too_large(&a, "/include_battles");
    answer_free(&a);
    /* Unlisted, the histograms of a fixed battle fit. */
    a = ask(&cfg, "/simulate",
            "{\"attackers\": 10, \"defenders\": 10, \"trials\": 100, \"seed\": 1, "
            "\"include_battles\": false}");
    cr_assert_eq(a.status, 200, "%s", a.text);
    cr_expect_leq(strlen(a.text), 4096);
    answer_free(&a);
}

/* ---- the request's own units ---- */

/*
 * A document past the malloc policy's threshold (CBD_MALLOC_MAPPED_FROM, 256 KiB) lives partly in
 * blocks that are mappings of their own, whose pages every request that parses it faults in
 * fresh: they are charged CBD_WORK_FRESH_PAGE a page besides the body's bytes. Two bodies of the
 * same length and the same answer (a 422 at the unknown member /x), one holding 100,000 zeros
 * in an array and one a single 0 padded with blanks, differ by those pages alone. By jansson's
 * sizes: a zero is a json_integer_t of 24 bytes, 32 in the arena (16-byte pieces), so the
 * integers alone take 3.2 MB, of which at most the first 256 KiB of blocks is heap: at least
 * (3,200,000 - 262,144) / 4096 = 717 pages. At most, the array's table grown by doubling to
 * 131,072 slots of 8 bytes (every old table kept, 2 MiB in all) and a last block's 1 MiB more:
 * (3,200,000 + 2,097,152 + 1,048,576) / 4096 = 1,549 pages.
 */
Test(request_units, a_large_document_is_charged_the_fresh_pages_of_its_mapped_blocks) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    size_t zeros = 100000, len = 2 * zeros + 64;
    char *big = malloc(len), *flat = malloc(len);
    cr_assert(big && flat);
    int at = snprintf(big, len, "{\"attackers\": 10, \"defenders\": 5, \"x\": [0");
    for (size_t i = 1; i < zeros; i++) {
        at += snprintf(big + at, len - (size_t)at, ",0");
    }
    at += snprintf(big + at, len - (size_t)at, "]}");
    int head = snprintf(flat, len, "{\"attackers\": 10, \"defenders\": 5, \"x\": 0");
    memset(flat + head, ' ', (size_t)(at - head - 1));
    snprintf(flat + at - 1, 2, "}");
    cr_assert_eq(strlen(flat), strlen(big));
    answer a = ask(&cfg, "/analyze-attack", big);
    answer b = ask(&cfg, "/analyze-attack", flat);
    cr_expect_eq(a.status, 422, "%s", a.text);
    cr_expect_eq(b.status, 422, "%s", b.text);
    uint64_t more = a.spent.work_spent - b.spent.work_spent;
    cr_expect_eq(more % CBD_WORK_FRESH_PAGE, 0, "%" PRIu64 " units more", more);
    cr_expect_geq(more / CBD_WORK_FRESH_PAGE, 717);
    cr_expect_leq(more / CBD_WORK_FRESH_PAGE, 1549);
    cr_expect_geq(a.spent.fresh_bytes, 717 * CBD_SCRATCH_PAGE);
    answer_free(&a);
    answer_free(&b);
    free(big);
    free(flat);
}

/* Its body parsed, about 20 ns a byte (CBD_WORK_BODY_BYTE), counts where the request runs:
 * 60,000 bytes of blanks around a battle of 10 against 5 cost 1.2·10^6 units, past the
 * 10^6 of the default inline budget, so the meter hands it to a worker, which answers it. */
Test(request_units, a_body_is_charged_as_parsed_on_an_http_thread_too) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    const char *battle = "{\"attackers\": 10, \"defenders\": 5}";
    size_t pad = 60000;
    char *padded = malloc(strlen(battle) + pad + 1);
    cr_assert_not_null(padded);
    memset(padded, ' ', pad);
    strcpy(padded + pad, battle);
    const cbd_api_endpoint *ep = cbd_api_find_endpoint("/analyze-attack");
    const char *bodies[] = {battle, padded};
    for (int i = 0; i < 2; i++) {
        cbd_api_limits limits = cbd_api_inline_limits(&cfg);
        cr_assert_eq(limits.work_limit, ONE_MS_UNITS);
        cbd_budget spent;
        limits.report = &spent;
        limits.scratch = warm_scratch();
        cbd_api_request req;
        cbd_api_reply reply;
        cr_assert(cbd_api_parse(ep, bodies[i], strlen(bodies[i]), &req, &reply));
        bool answered = cbd_api_answer_within(&req, &cfg, &limits, &reply);
        cr_expect_geq(spent.work_spent, request_units(strlen(bodies[i])));
        if (i == 0) {
            cr_expect(answered, "a small body fits the inline budget");
            cr_expect_eq(reply.status, 200, "%s", reply.body);
            cbd_api_reply_free(&reply);
        } else {
            cr_expect_not(answered, "its parse alone passes the inline budget");
            cr_expect_eq(spent.stopped, CBD_BUDGET_WORK);
            cbd_api_request_release(&req);
        }
    }
    /* On a worker both are answered, the blanks costing their bytes and nothing more. */
    answer small = ask(&cfg, "/analyze-attack", battle);
    answer a = ask(&cfg, "/analyze-attack", padded);
    cr_expect_eq(a.status, 200, "%s", a.text);
    cr_expect_str_eq(a.text, small.text);
    cr_expect_eq(a.spent.work_spent - small.spent.work_spent, pad * CBD_WORK_BODY_BYTE);
    answer_free(&small);
    answer_free(&a);
    free(padded);
}
