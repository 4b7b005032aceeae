/*
 * The lengths of names as the contract's maxLength counts them (JSON Schema: characters, that
 * is code points, not bytes): a turn's territory, player and team ids (/analyze-turn,
 * /simulate-turn, /plan-turn) and a Duper player's name (/duper/battle's players, a board
 * tile's owner, /duper/board/options' player) are 1 to 64 characters. An id of 64 emoji
 * (U+1F600, 4 bytes each: 256 bytes) is taken on every endpoint; one of 65 is refused with
 * the pointer to the member, in words that say characters. A Duper tile id stays 1 to 64
 * bytes, as the contract says of it. A pointer too long for a problem is cut between two
 * characters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api_test.h"
#include "json/json_escape.h"

/* U+1F600 GRINNING FACE in UTF-8. */
#define EMOJI "\xF0\x9F\x98\x80"

/* n emoji (malloc'd). */
static char *emoji(size_t n) {
    char *s = malloc(4 * n + 1);
    cr_assert_not_null(s);
    for (size_t i = 0; i < n; i++) {
        memcpy(s + 4 * i, EMOJI, 4);
    }
    s[4 * n] = '\0';
    return s;
}

/* `text` with every '@' replaced by `id` (malloc'd). */
static char *fill(const char *text, const char *id) {
    size_t ats = 0;
    for (const char *c = text; *c; c++) {
        ats += *c == '@';
    }
    char *out = malloc(strlen(text) + ats * strlen(id) + 1);
    cr_assert_not_null(out);
    char *o = out;
    for (const char *c = text; *c; c++) {
        if (*c == '@') {
            o = stpcpy(o, id);
        } else {
            *o++ = *c;
        }
    }
    *o = '\0';
    return out;
}

/* A request whose '@' is the name under test, and where the name is refused ('@' again). */
typedef struct {
    const char *path;
    const char *body;
    const char *pointer;
    bool echoed; /* the answer names it */
} name_case;

#define TURN_BODY(extra)                                                                           \
    "{\"territories\": {\"@\": {\"owner\": \"a\", \"armies\": 5}, \"B\": {\"owner\": \"b\", "      \
    "\"armies\": 1}}, \"orders\": [{\"player\": \"a\", \"from\": \"@\", \"to\": \"B\", "           \
    "\"armies\": 5}]" extra "}"
#define TURN_PLAYER_BODY(extra)                                                                    \
    "{\"territories\": {\"A\": {\"owner\": \"@\", \"armies\": 5}, \"B\": {\"owner\": \"b\", "      \
    "\"armies\": 1}}, \"orders\": [{\"player\": \"@\", \"from\": \"A\", \"to\": \"B\", "           \
    "\"armies\": 5}]" extra "}"
#define TEAM_BODY                                                                                  \
    "{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 5}, \"B\": {\"owner\": \"b\", "      \
    "\"armies\": 1}}, \"orders\": [], \"teams\": {\"a\": \"@\", \"b\": \"@\"}}"
#define PLAN_BODY                                                                                  \
    "{\"territories\": {\"@\": {\"owner\": \"me\", \"armies\": 3, \"neighbors\": [\"B\"]}, "       \
    "\"B\": {\"owner\": \"bob\", \"armies\": 1, \"neighbors\": [\"@\"]}}, \"player\": \"me\", "    \
    "\"income\": 1, \"goal\": {\"capture\": [\"B\"]}}"
#define BOARD(owner)                                                                               \
    "{\"tiles\": {\"a\": {\"owner\": \"" owner "\", \"units\": {\"soldier\": 5}}, \"b\": "         \
    "{\"owner\": \"blue\", \"units\": {\"soldier\": 1}}}, \"adjacent\": [[\"a\", \"b\"]]}"

static const name_case cases[] = {
    {"/analyze-turn", TURN_BODY(""), "/territories/@", true},
    {"/analyze-turn", TURN_PLAYER_BODY(""), "/territories/A/owner", true},
    {"/analyze-turn", TEAM_BODY, "/teams/a", false},
    {"/simulate-turn", TURN_BODY(", \"trials\": 10, \"seed\": 1"), "/territories/@", true},
    {"/simulate-turn", TURN_PLAYER_BODY(", \"trials\": 10, \"seed\": 1"), "/territories/A/owner",
     true},
    {"/plan-turn", PLAN_BODY, "/territories/@", true},
    {"/duper/battle",
     "{\"attack\": {\"player\": \"@\", \"tile\": {\"units\": {\"soldier\": 5}}}, \"defense\": "
     "{\"player\": \"blue\", \"tile\": {\"level\": 1, \"units\": {\"soldier\": 1}}}, \"seed\": 1}",
     "/attack/player", true},
    {"/duper/battle",
     "{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"soldier\": 5}}}, \"defense\": "
     "{\"player\": \"@\", \"tile\": {\"level\": 1, \"units\": {\"soldier\": 1}}}, \"seed\": 1}",
     "/defense/player", false},
    {"/duper/board/battle",
     "{\"board\": " BOARD("@") ", \"attacks\": [{\"from\": \"a\", \"to\": \"b\"}], \"seed\": 1}",
     "/board/tiles/a/owner", true},
    {"/duper/board/options", "{\"board\": " BOARD("@") ", \"player\": \"@\"}",
     "/board/tiles/a/owner", true},
    {"/duper/board/options", "{\"board\": " BOARD("@") ", \"player\": \"@\"}", "/player", true},
};

Test(name_lengths, a_name_of_64_emoji_is_taken_and_65_refused_at_its_member) {
    char *ok = emoji(64), *long_one = emoji(65);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *body = fill(cases[i].body, ok);
        json_t *doc;
        char *raw = NULL;
        cbd_config cfg;
        cbd_config_defaults(&cfg);
        int status = api_test_run(&cfg, cases[i].path, body, &doc, &raw);
        cr_expect_eq(status, 200, "case %zu %s: %.400s", i, cases[i].path, raw);
        /* The answer names it as it was sent (a turn's territories and players, a Duper
         * battle's sides and a board's owners are echoed). */
        if (cases[i].echoed) {
            cr_expect_not_null(strstr(raw, ok), "case %zu: the name is not in the answer", i);
        }
        json_decref(doc);
        free(raw);
        free(body);

        body = fill(cases[i].body, long_one);
        char *pointer = fill(cases[i].pointer, long_one);
        status = api_test_run(&cfg, cases[i].path, body, &doc, &raw);
        cr_expect_eq(status, 422, "case %zu %s: %.400s", i, cases[i].path, raw);
        cr_expect(has_error(doc, pointer, "64 characters"), "case %zu: no error at %s in %.600s", i,
                  cases[i].pointer, raw);
        json_decref(doc);
        free(raw);
        free(pointer);
        free(body);
    }
    free(ok);
    free(long_one);
}

/* 64 characters of one byte each, and 65: the same limit counted the same way. */
Test(name_lengths, ascii_names_keep_their_limit_of_64) {
    char ok[66], long_one[66];
    memset(ok, 'x', 64);
    ok[64] = '\0';
    memset(long_one, 'x', 65);
    long_one[65] = '\0';
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int n = 0; n < 2; n++) {
            char *body = fill(cases[i].body, n ? long_one : ok);
            json_t *doc;
            int status = api_test_run(&cfg, cases[i].path, body, &doc, NULL);
            cr_expect_eq(status, n ? 422 : 200, "case %zu, %d characters", i, 64 + n);
            json_decref(doc);
            free(body);
        }
    }
}

/* A Duper tile id is a member name, which the contract gives no maxLength: it is 1 to 64
 * bytes, as the contract says of it (16 emoji are 64 bytes, 17 are 68). */
Test(name_lengths, a_duper_tile_id_is_64_bytes) {
    static const char board[] =
        "{\"board\": {\"tiles\": {\"@\": {\"owner\": \"red\", \"units\": {\"soldier\": 5}}, "
        "\"b\": {\"owner\": \"blue\", \"units\": {\"soldier\": 1}}}, \"adjacent\": [[\"@\", "
        "\"b\"]]}, \"player\": \"red\"}";
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    for (size_t n = 16; n <= 17; n++) {
        char *id = emoji(n), *body = fill(board, id), *pointer = fill("/board/tiles/@", id);
        json_t *doc;
        int status = api_test_run(&cfg, "/duper/board/options", body, &doc, NULL);
        cr_expect_eq(status, n == 16 ? 200 : 422, "%zu emoji", n);
        if (n == 17) {
            cr_expect(has_error(doc, pointer, "64 bytes"));
        }
        json_decref(doc);
        free(pointer);
        free(body);
        free(id);
    }
}

/* A member name longer than a problem's pointer can hold (200 emoji: 813 bytes with
 * /territories/) is cut between two characters, never inside one: the pointer is the longest
 * prefix of whole characters that fits, with no replacement character in it. */
Test(name_lengths, a_pointer_too_long_is_cut_between_two_characters) {
    char *id = emoji(200);
    char *body = fill(TURN_BODY(""), id);
    json_t *doc;
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cr_assert_eq(api_test_run(&cfg, "/analyze-turn", body, &doc, NULL), 422);
    const char *pointer = json_string_value(
        json_object_get(json_array_get(json_object_get(doc, "errors"), 0), "pointer"));
    cr_assert_not_null(pointer);
    size_t n = strlen(pointer);
    cr_expect_eq(strncmp(pointer, "/territories/", 13), 0, "%s", pointer);
    cr_expect_gt(n, 13 + 4 * 64, "a pointer to a valid id's territory fits: %zu bytes", n);
    cr_expect_eq((n - 13) % 4, 0, "%zu bytes: an emoji was cut", n);
    cr_expect_eq(memcmp(pointer + 13, id, n - 13), 0);
    json_decref(doc);
    free(body);
    free(id);
}

/* The helpers the limits use, on worked strings. */
Test(name_lengths, code_points_and_cuts_of_utf8) {
    const char *s = "a" EMOJI "\xC3\xA9"
                    "b"; /* a, U+1F600, U+00E9, b: 1 + 4 + 2 + 1 bytes */
    cr_expect_eq(cbd_utf8_code_points(s, 8), 4);
    cr_expect_eq(cbdp_utf8_cut(s, 8, 8), 8);
    cr_expect_eq(cbdp_utf8_cut(s, 8, 7), 7);
    cr_expect_eq(cbdp_utf8_cut(s, 8, 6), 5, "inside U+00E9: cut before it");
    cr_expect_eq(cbdp_utf8_cut(s, 8, 4), 1, "inside the emoji: cut before it");
    cr_expect_eq(cbdp_utf8_cut(s, 8, 1), 1);
    cr_expect_eq(cbdp_utf8_cut(s, 8, 0), 0);
}
