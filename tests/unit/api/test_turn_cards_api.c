/*
 * Cards in POST /analyze-turn and /simulate-turn (W24–W30): each card's members read into the
 * core's order, the board's diplomacy into its peace pairs (W29), the settings' blockade
 * multipliers (W26, the config's by default), and every 422 of a bad card, pair or multiplier
 * with its pointer, in both endpoints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "api/warapp/turn/warapp_turn_json.h"

static char *last_body;

static int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    free(last_body);
    last_body = NULL;
    return api_test_run(&cfg, path, body, out, &last_body);
}

static const char *const paths[2] = {"/analyze-turn", "/simulate-turn"};

/* Reads a turn request directly (the reader alone, not the core's checks: ok is what it gave). */
static bool read_only(const char *body, cbd_turn_request *q, cbd_problem *problem,
                      cbd_config *cfg) {
    static const char *const keys[] = {CBD_TURN_KEYS, NULL};
    json_t *doc = json_loads(body, 0, NULL);
    cr_assert_not_null(doc, "%s", body);
    cbd_problem_init(problem);
    cbd_reader r;
    cr_assert(cbd_reader_open(&r, doc, "", keys, problem));
    (void)cbd_turn_read_request(&r, &cfg->warapp, q);
    json_decref(doc);
    return problem->n_errors == 0;
}

/* Neither the reader nor the core's check recorded an error. */
static void expect_read(const cbd_problem *p) {
    for (size_t i = 0; i < p->n_errors; i++) {
        cr_expect_fail("%s: %s", p->errors[i].pointer, p->errors[i].detail);
    }
}

#define BOARD                                                                                      \
    "\"territories\": {\"A\": {\"owner\": \"p\", \"armies\": 9, \"units\": [{\"id\": \"c\", "      \
    "\"type\": \"commander\"}]}, \"B\": {\"owner\": \"q\", \"armies\": 4}, \"C\": {\"owner\": "    \
    "\"p\", \"armies\": 2}, \"N\": {\"owner\": \"neutral\", \"armies\": 1}}"

/* Every card's members into the core's order (W25–W30): the target as `to`, an airlift's from,
 * to, percent and units, a gift's receiver; diplomacy's pair; the multipliers as millionths. */
Test(turn_cards_api, w25_w30_cards_are_read_into_the_core_orders) {
    const char *body =
        "{" BOARD ", \"orders\": ["
        "{\"type\": \"bomb\", \"player\": \"p\", \"target\": \"B\"},"
        "{\"type\": \"blockade\", \"player\": \"p\", \"target\": \"C\"},"
        "{\"type\": \"emergency_blockade\", \"player\": \"q\", \"target\": \"B\"},"
        "{\"type\": \"airlift\", \"player\": \"p\", \"from\": \"A\", \"to\": \"C\", \"percent\": "
        "0.5, \"units\": [\"c\"]},"
        "{\"type\": \"gift\", \"player\": \"p\", \"target\": \"C\", \"to_player\": \"q\"},"
        "{\"type\": \"order_priority\", \"player\": \"q\"},"
        "{\"type\": \"order_delay\", \"player\": \"p\"}],"
        " \"diplomacy\": [[\"q\", \"p\"]],"
        " \"settings\": {\"blockade_multiplier\": 2.5}}";
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.warapp.emergency_blockade_multiplier = 1500000; /* the config's, when settings omit it */
    cbd_turn_request q;
    cbd_problem problem;
    (void)read_only(body, &q, &problem, &cfg);
    expect_read(&problem);
    const cbd_turn_order *o = q.turn.orders;
    cr_expect_eq(o[0].type, CBD_ORDER_BOMB);
    cr_expect_eq(o[0].to, 1); /* B */
    cr_expect_eq(o[1].type, CBD_ORDER_BLOCKADE);
    cr_expect_eq(o[1].to, 2);
    cr_expect_eq(o[2].type, CBD_ORDER_EMERGENCY_BLOCKADE);
    cr_expect_eq(o[2].player, 1); /* q */
    cr_expect_eq(o[3].type, CBD_ORDER_AIRLIFT);
    cr_expect(o[3].from == 0 && o[3].to == 2 && o[3].by_percent && o[3].percent == 500000);
    cr_expect(o[3].n_units == 1 && o[3].units[0] == 0);
    cr_expect(o[4].type == CBD_ORDER_GIFT && o[4].to == 2 && o[4].to_player == 1);
    cr_expect(o[5].type == CBD_ORDER_PRIORITY && o[5].player == 1);
    cr_expect(o[6].type == CBD_ORDER_DELAY && o[6].player == 0);
    cr_expect_eq(q.turn.n_peace, 1);
    cr_expect(q.turn.peace[0].a == 1 && q.turn.peace[0].b == 0);
    cr_expect_eq(q.turn.blockade_multiplier, 2500000u);
    cr_expect_eq(q.turn.emergency_blockade_multiplier, 1500000u);
    cbd_turn_request_free(&q);
}

/* Without settings the multipliers are the config's (3 by default, W26) and there is no peace. */
Test(turn_cards_api, w26_w29_defaults_are_the_configs_and_no_peace) {
    const char *body = "{" BOARD ", \"orders\": []}";
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cbd_turn_request q;
    cbd_problem problem;
    cr_assert(read_only(body, &q, &problem, &cfg), "%s", problem.detail);
    cr_expect_eq(q.turn.blockade_multiplier, 3000000u);
    cr_expect_eq(q.turn.emergency_blockade_multiplier, 3000000u);
    cr_expect_eq(q.turn.n_peace, 0);
    cbd_turn_request_free(&q);
}

typedef struct {
    const char *orders; /* the items of "orders" */
    const char *extra;  /* more members of the request ("" for none) */
    const char *pointer, *needle;
} bad_case;

static const bad_case bad[] = {
    {"{\"type\": \"spy\", \"player\": \"p\", \"target\": \"B\"}", "", "/orders/0/type", NULL},
    {"{\"type\": \"bomb\", \"player\": \"p\"}", "", "/orders/0/target", "required"},
    {"{\"type\": \"bomb\", \"player\": \"p\", \"target\": \"Z\"}", "", "/orders/0/target",
     "territory of this board"},
    {"{\"type\": \"bomb\", \"player\": \"p\", \"target\": \"B\", \"to\": \"B\"}", "",
     "/orders/0/to", "allowed here: type, player, target"},
    {"{\"type\": \"blockade\", \"player\": \"p\"}", "", "/orders/0/target", "required"},
    {"{\"type\": \"emergency_blockade\", \"player\": \"p\", \"target\": \"A\", \"armies\": 2}", "",
     "/orders/0/armies", "allowed here: type, player, target"},
    {"{\"type\": \"airlift\", \"player\": \"p\", \"to\": \"C\", \"armies\": 2}", "",
     "/orders/0/from", "required"},
    {"{\"type\": \"airlift\", \"player\": \"p\", \"from\": \"A\", \"armies\": 2}", "",
     "/orders/0/to", "required"},
    {"{\"type\": \"airlift\", \"player\": \"p\", \"from\": \"A\", \"to\": \"A\", \"armies\": 2}",
     "", "/orders/0/to", "another territory"},
    {"{\"type\": \"airlift\", \"player\": \"p\", \"from\": \"A\", \"to\": \"C\"}", "", "/orders/0",
     "armies or percent"},
    {"{\"type\": \"airlift\", \"player\": \"p\", \"from\": \"A\", \"to\": \"Z\", \"armies\": 1}",
     "", "/orders/0/to", "territory of this board"},
    {"{\"type\": \"airlift\", \"player\": \"p\", \"from\": \"A\", \"to\": \"C\", \"armies\": 1, "
     "\"units\": [\"nobody\"]}",
     "", "/orders/0/units/0", NULL},
    {"{\"type\": \"gift\", \"player\": \"p\", \"target\": \"C\"}", "", "/orders/0/to_player",
     "required"},
    {"{\"type\": \"gift\", \"player\": \"p\", \"to_player\": \"q\"}", "", "/orders/0/target",
     "required"},
    {"{\"type\": \"gift\", \"player\": \"p\", \"target\": \"C\", \"to_player\": \"neutral\"}", "",
     "/orders/0/to_player", "neutral"},
    {"{\"type\": \"gift\", \"player\": \"p\", \"target\": \"C\", \"to_player\": \"p\"}", "",
     "/orders/0/to_player", "giver"},
    {"{\"type\": \"gift\", \"player\": \"p\", \"target\": \"C\", \"to_player\": \"zed\"}", "",
     "/orders/0/to_player", "owns none"},
    {"{\"type\": \"gift\", \"player\": \"p\", \"target\": \"C\", \"to_player\": \"r\"},"
     " {\"type\": \"order_delay\", \"player\": \"r\"}",
     "", "/orders/0/to_player", "owns none"},
    {"{\"type\": \"order_priority\", \"player\": \"p\", \"target\": \"A\"}", "", "/orders/0/target",
     "allowed here: type, player"},
    {"{\"type\": \"order_delay\"}", "", "/orders/0/player", NULL},
    {"{\"type\": \"bomb\", \"player\": \"neutral\", \"target\": \"B\"}", "", "/orders/0/player",
     "neutral"},
    {"", ", \"settings\": {\"blockade_multiplier\": 100.5}", "/settings/blockade_multiplier",
     "from 0 to 100"},
    {"", ", \"settings\": {\"emergency_blockade_multiplier\": 2.1234567}",
     "/settings/emergency_blockade_multiplier", "6 decimal places"},
    {"", ", \"settings\": {\"blockade_multiplier\": -1}", "/settings/blockade_multiplier", NULL},
    {"", ", \"settings\": {\"blockade_multiplier\": \"3\"}", "/settings/blockade_multiplier", NULL},
    {"", ", \"diplomacy\": [[\"p\", \"p\"]]", "/diplomacy/0", "distinct"},
    {"", ", \"diplomacy\": [[\"p\"]]", "/diplomacy/0", "pair"},
    {"", ", \"diplomacy\": [[\"p\", \"q\", \"p\"]]", "/diplomacy/0", "pair"},
    {"", ", \"diplomacy\": [[\"p\", \"neutral\"]]", "/diplomacy/0", "neutral"},
    {"", ", \"diplomacy\": [[\"p\", \"q\"], [\"p\", \"zed\"]]", "/diplomacy/1", "players"},
    {"", ", \"diplomacy\": {\"p\": \"q\"}", "/diplomacy", NULL},
};

Test(turn_cards_api, w24_w30_bad_cards_are_422_naming_the_member) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (size_t e = 0; e < 2; e++) {
            char body[2048];
            snprintf(body, sizeof body, "{" BOARD ", \"orders\": [%s]%s%s}", bad[i].orders,
                     bad[i].extra, e == 1 ? ", \"trials\": 1, \"seed\": 1" : "");
            json_t *doc;
            cr_assert_eq(run(paths[e], body, &doc), 422, "case %zu: %s", i, last_body);
            cr_expect(has_error(doc, bad[i].pointer, bad[i].needle), "case %zu: want %s (%s) in %s",
                      i, bad[i].pointer, bad[i].needle ? bad[i].needle : "", last_body);
            json_decref(doc);
        }
    }
}
