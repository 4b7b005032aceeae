#ifndef COMBATD_TEST_BOARD_API_H
#define COMBATD_TEST_BOARD_API_H

/*
 * Helpers of the board endpoints' api tests (test_duper_board_api.c,
 * test_duper_board_refusals_api.c): running a body through cbd_api_run, walking the answer,
 * expecting a 422 at a pointer, and the worked board of docs/rules.md. Request bodies are written
 * with ' for " (q() swaps them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"

/* The body with every ' turned into ": a static buffer, one body at a time. */
static inline const char *q(const char *s) {
    static char buf[8192];
    size_t n = strlen(s);
    cr_assert_lt(n, sizeof buf);
    for (size_t i = 0; i <= n; i++) {
        buf[i] = s[i] == '\'' ? '"' : s[i];
    }
    return buf;
}

static inline int run_cfg(const cbd_config *cfg, const char *path, const char *body, json_t **out) {
    return api_test_run(cfg, path, body, out, NULL);
}

static inline int run(const char *path, const char *body, json_t **out) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    return run_cfg(&cfg, path, body, out);
}

static inline json_int_t at(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert(json_is_integer(v), "%s is not an integer", path);
    return json_integer_value(v);
}

static inline const char *str(const json_t *doc, const char *path) {
    const json_t *v = json_walk(doc, path);
    cr_assert(json_is_string(v), "%s is not a string", path);
    return json_string_value(v);
}

/* The JSON text of a member, for comparing whole values against a literal. */
static inline void expect_json(const json_t *doc, const char *path, const char *expected) {
    json_t *want = json_loads(q(expected), 0, NULL);
    cr_assert_not_null(want, "bad literal %s", expected);
    const json_t *v = json_walk(doc, path);
    char *got = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    cr_expect(v && json_equal(v, want), "%s: got %s, want %s", path, got ? got : "nothing",
              expected);
    free(got);
    json_decref(want);
}

static inline void expect_422_cfg(const cbd_config *cfg, const char *path, const char *body,
                                  const char *pointer, const char *needle) {
    json_t *doc;
    int status = run_cfg(cfg, path, body, &doc);
    char *text = json_dumps(doc, JSON_COMPACT);
    cr_expect_eq(status, 422, "%s -> %d %s", body, status, text);
    cr_expect(has_error(doc, pointer, needle), "expected %s (%s) in %s", pointer,
              needle ? needle : "", text);
    free(text);
    json_decref(doc);
}

static inline void expect_422(const char *path, const char *body, const char *pointer,
                              const char *needle) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    expect_422_cfg(&cfg, path, body, pointer, needle);
}

/* The worked board, with the tiles, pairs, keys and attacks spliced in by the tests. */
#define EX_TILES                                                                                   \
    "'a1': {'owner': 'red', 'level': 1, 'units': {'soldier': 8, 'plane': 2, 'fort': 1},"           \
    " 'loaded': {'tank': 2}},"                                                                     \
    " 'a2': {'owner': 'red', 'units': {'tank': 3}},"                                               \
    " 'b1': {'owner': 'blue', 'level': 3, 'units': {'tank': 5, 'center': 1}},"                     \
    " 'b2': {'owner': 'blue', 'units': {'tank': 4}},"                                              \
    " 'n1': {'owner': 'npc', 'units': {'larva': 3}}"
#define EX_PAIRS "['a1', 'b1'], ['a1', 'a2'], ['b1', 'b2'], ['a1', 'n1']"
#define EX_BOARD(tiles, pairs, keys)                                                               \
    "{'board': {'tiles': {" tiles "}, 'adjacent': [" pairs "], 'keys': {" keys "}}"
#define EX_ATTACK(attacks)                                                                         \
    ", 'attacks': [" attacks "], 'rules': {'key_buff_per_key': 1}, 'seed': 7}"
#define EXAMPLE(attacks) EX_BOARD(EX_TILES, EX_PAIRS, "'blue': {'red': 2}") EX_ATTACK(attacks)

#define BATTLE  "/duper/board/battle"
#define OPTIONS "/duper/board/options"

#endif
