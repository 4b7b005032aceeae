/*
 * Every endpoint of CBD_ENDPOINT_TABLE (src/api/endpoints.h) for the tests and tools that mean
 * "every endpoint", and one sample request for each POST endpoint: the one place a new
 * endpoint's sample goes. The sample is valid and answered 200 at the default configuration,
 * carries its seeds as 16 digits (so that a lexer that drops a digit renders another number,
 * tests/alloc/driver.c) and names every member an ordinary request would, so that its
 * allocations are those of a real request. /mcp's is a ping: a tools/call would be counted on its
 * tool's route (tests/integration/test_metrics_docs.c). Header-only, without Criterion.
 *
 * Read by the allocation-failure sweep (tests/alloc/driver.c) and the metrics-docs test, which
 * fail naming a POST endpoint that has no sample here.
 */
#ifndef COMBATD_TEST_ENDPOINT_SAMPLES_H
#define COMBATD_TEST_ENDPOINT_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "api/endpoints.h"

/* An endpoint's row as the tests need it: the handler columns are dropped, so that the table
 * expands without any layer's declarations. */
typedef struct {
    const char *path;
    const char *allow; /* CBD_ALLOW_POST or CBD_ALLOW_GET */
    const char *label; /* the route label of combatd_requests_total */
} endpoint_row;

#define ENDPOINT_ROW_(path, allow, post, cost, envelope, get, guard, label, tool, kind)            \
    {path, allow, label},
static const endpoint_row endpoint_rows[] = {CBD_ENDPOINT_TABLE(ENDPOINT_ROW_)};
#undef ENDPOINT_ROW_
#define ENDPOINT_ROWS (sizeof endpoint_rows / sizeof endpoint_rows[0])

typedef struct {
    const char *path, *body;
} endpoint_sample;

static const endpoint_sample endpoint_samples[] = {
    {"/analyze-attack", "{\"attackers\": 10, \"defenders\": 5, \"source_armies\": 11,"
                        " \"settings\": {\"luck_modifier\": 0.5}}"},
    {"/simulate",
     "{\"attackers\": 12, \"defenders\": 8, \"trials\": 50, \"seed\": 1000000000000001,"
     " \"include_battles\": true}"},
    {"/analyze-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4}, \"B\": {\"owner\":"
     " \"bob\", \"armies\": 2}, \"C\": {\"owner\": \"alice\", \"armies\": 3}}, \"orders\":"
     " [{\"type\": \"deploy\", \"player\": \"alice\", \"to\": \"A\", \"armies\": 1},"
     " {\"player\": \"alice\", \"from\": \"A\", \"to\": \"B\", \"armies\": 3},"
     " {\"player\": \"alice\", \"from\": \"C\", \"to\": \"B\", \"percent\": 1}],"
     " \"settings\": {\"luck_modifier\": 0.5}, \"goals\": [{\"territory\": \"B\","
     " \"owner\": \"alice\"}]}"},
    {"/simulate-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4}, \"B\": {\"owner\":"
     " \"bob\", \"armies\": 2}}, \"orders\": [{\"player\": \"alice\", \"from\": \"A\","
     " \"to\": \"B\", \"armies\": 3}, {\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\","
     " \"armies\": 1}], \"move_order\": \"random\", \"settings\": {\"luck_modifier\": 1},"
     " \"trials\": 20, \"seed\": 1000000000000001}"},
    {"/plan-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4, \"neighbors\": [\"B\","
     " \"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 3, \"neighbors\": [\"C\"]}, \"C\":"
     " {\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": []}}, \"player\": \"alice\","
     " \"income\": 5, \"goal\": {\"capture\": [\"B\"], \"hold\": [\"A\"]}, \"objective\":"
     " \"expected\", \"orders\": [{\"player\": \"bob\", \"from\": \"B\", \"to\": \"A\","
     " \"armies\": 2}], \"settings\": {\"luck_modifier\": 0.5}, \"max_plans\": 1000}"},
    {"/warzone/analyze-turn",
     "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70,"
     " \"LuckModifier\": \"0.16\", \"MoveOrder\": \"Random\", \"MinimumArmyBonus\": \"5\","
     " \"OverriddenBonuses\": [{\"bonusID\": 1, \"value\": \"4\"}], \"Mods\": []}, \"map\":"
     " {\"territories\": [{\"id\": 1, \"connectedTo\": [2]}, {\"id\": \"2\", \"connectedTo\":"
     " []}, {\"id\": 3, \"connectedTo\": \"null\"}], \"bonuses\": [{\"id\": 1, \"value\": 2,"
     " \"territoryIDs\": [1, 2]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\","
     " \"armies\": \"7\"}, {\"terrID\": \"2\", \"ownedBy\": 200, \"armies\":"
     " \"4|cmdr,g1,200\"}, {\"terrID\": 3, \"ownedBy\": \"Neutral\", \"armies\": 2}],"
     " \"players\": [{\"id\": \"100\", \"team\": \"null\"}, {\"id\": 200}], \"orders\":"
     " [{\"type\": \"GameOrderPlayCardSpy\", \"playerID\": 100}, {\"type\":"
     " \"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": \"1\", \"to\": 2,"
     " \"numArmies\": \"6\", \"attackTransfer\": \"AttackTransfer\", \"byPercent\":"
     " \"False\"}]}"},
    {"/warzone/simulate-turn",
     "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70,"
     " \"LuckModifier\": \"0.16\", \"MoveOrder\": \"Random\"}, \"map\": {\"territories\":"
     " [{\"id\": 1, \"connectedTo\": [2]}, {\"id\": 2}]}, \"standing\": [{\"terrID\": 1,"
     " \"ownedBy\": \"100\", \"armies\": \"7\"}, {\"terrID\": 2, \"ownedBy\": \"200\","
     " \"armies\": \"4|cmdr,g1,200\"}], \"orders\": [{\"type\": \"GameOrderAttackTransfer\","
     " \"playerID\": \"100\", \"from\": 1, \"to\": 2, \"numArmies\": \"6\"}],"
     " \"seed\": 1000000000000001}"},
    {"/warzone/plan-turn",
     "{\"settings\": {\"OffensiveKillRate\": 60, \"DefensiveKillRate\": 70, \"LuckModifier\":"
     " \"0.16\", \"MinimumArmyBonus\": \"4\"}, \"map\": {\"territories\": [{\"id\": 1,"
     " \"connectedTo\": [2, 3]}, {\"id\": 2}, {\"id\": 3}], \"bonuses\": [{\"id\": 7,"
     " \"value\": 3, \"territoryIDs\": [1, 3]}]}, \"standing\": [{\"terrID\": 1, \"ownedBy\":"
     " \"100\", \"armies\": \"3\"}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": \"9\"},"
     " {\"terrID\": 3, \"ownedBy\": \"Neutral\", \"armies\": \"1\"}], \"orders\": [{\"type\":"
     " \"GameOrderAttackTransfer\", \"playerID\": \"200\", \"from\": 2, \"to\": 1,"
     " \"numArmies\": \"8\"}], \"playerID\": \"100\", \"goal\": {\"bonuses\": [7]},"
     " \"objective\": \"expected\", \"max_plans\": 1000}"},
    {"/duper/battle",
     "{\"attack\": {\"player\": \"red\", \"kind\": \"normal\", \"tile\": {\"units\":"
     " {\"soldier\": 8, \"plane\": 2, \"fort\": 1}, \"loaded\": {\"tank\": 2}},"
     " \"support\": [{\"tanks\": 3}]}, \"defense\": {\"player\": \"blue\", \"keys\": 2,"
     " \"tile\": {\"level\": 3, \"units\": {\"tank\": 5, \"center\": 1}},"
     " \"support\": [{\"tanks\": 4}]}, \"seed\": 1000000000000001}"},
    {"/duper/board/battle",
     "{\"board\": {\"tiles\": {\"a1\": {\"owner\": \"red\", \"units\": {\"soldier\": 8,"
     " \"plane\": 2}, \"loaded\": {\"tank\": 2}}, \"a2\": {\"owner\": \"red\", \"units\":"
     " {\"tank\": 3}}, \"b1\": {\"owner\": \"blue\", \"level\": 3, \"units\": {\"capital_lv1\":"
     " 1}}, \"b2\": {\"owner\": \"blue\", \"units\": {\"tank\": 4}}}, \"adjacent\": [[\"a1\","
     " \"b1\"], [\"a1\", \"a2\"], [\"b1\", \"b2\"]], \"keys\": {\"blue\": {\"red\": 2}}},"
     " \"attacks\": [{\"from\": \"a1\", \"to\": \"b1\"}, {\"from\": \"a2\", \"to\": \"b2\","
     " \"kind\": \"long_distance\"}], \"seed\": 1000000000000001}"},
    {"/duper/board/options",
     "{\"board\": {\"tiles\": {\"a1\": {\"owner\": \"red\", \"units\": {\"soldier\": 8,"
     " \"plane\": 2}}, \"a2\": {\"owner\": \"red\", \"units\": {\"tank\": 3}}, \"b1\":"
     " {\"owner\": \"blue\", \"units\": {\"tank\": 5}}, \"n1\": {\"owner\": \"npc\","
     " \"units\": {\"larva\": 3}}}, \"adjacent\": [[\"a1\", \"b1\"], [\"a1\", \"a2\"]]},"
     " \"player\": \"red\"}"},
    {"/mcp", "{\"jsonrpc\": \"2.0\", \"id\": 1000000000000001, \"method\": \"ping\"}"},
};

/* Whether the row is a POST endpoint (else a GET resource). */
static inline bool endpoint_is_post(const endpoint_row *row) {
    return strcmp(row->allow, CBD_ALLOW_POST) == 0;
}

/* The sample of POST endpoint `path`, or NULL when it has none. */
static inline const char *endpoint_sample_of(const char *path) {
    for (size_t i = 0; i < sizeof endpoint_samples / sizeof endpoint_samples[0]; i++) {
        if (strcmp(endpoint_samples[i].path, path) == 0) {
            return endpoint_samples[i].body;
        }
    }
    return NULL;
}

#endif
