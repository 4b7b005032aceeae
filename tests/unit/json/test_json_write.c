/*
 * The fast writer must print exactly what jansson's own json_dumps(JSON_COMPACT |
 * JSON_REAL_PRECISION(15)) prints: jansson is the independent oracle here.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/rng.h"
#include "json/json_write.h"

static void expect_same(const json_t *v) {
    char *want = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
    size_t len = 0;
    char *got = cbd_json_write(v, &len);
    cr_assert_not_null(want);
    cr_assert_not_null(got);
    cr_expect_str_eq(got, want);
    cr_expect_eq(len, strlen(want));
    free(want);
    free(got);
}

Test(json_write, reals_match_jansson) {
    const double reals[] = {0.0,
                            -0.0,
                            0.1,
                            1.0,
                            -1.5,
                            1e-20,
                            1e20,
                            1e-5,
                            1e5,
                            1e15,
                            1e16,
                            1e100,
                            1e-100,
                            123.456,
                            DBL_MAX,
                            DBL_MIN,
                            5e-324,
                            0.9877054464,
                            1.0 / 3,
                            2.0 / 3,
                            -1e-7,
                            6.02e23,
                            999999999999999.0,
                            0.000123};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        json_t *v = json_real(reals[i]);
        expect_same(v);
        json_decref(v);
    }
}

Test(json_write, integers_match_jansson) {
    const json_int_t ints[] = {
        0, 1, -1, 9, 10, 1000000000, -1000000000, 9007199254740991, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        json_t *v = json_integer(ints[i]);
        expect_same(v);
        json_decref(v);
    }
}

/* Every number of digits, at both ends and either side of each power of ten, against the C
 * library's printf: the writer makes its digits two at a time. */
Test(json_write, integers_of_every_length_match_printf) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_array_open(&w);
    char want[8192];
    size_t used = (size_t)snprintf(want, sizeof want, "[");
    uint64_t p = 1;
    for (int k = 0; k <= 19; k++, p *= 10) {
        const uint64_t near[] = {p - 1, p, p + 1, p * 5 + 3};
        for (size_t i = 0; i < 4 && (k < 19 || i < 3); i++) {
            cbd_jw_uint(&w, near[i]);
            cbd_jw_int(&w, -(int64_t)(near[i] % (UINT64_C(1) << 62)));
            used += (size_t)snprintf(want + used, sizeof want - used, "%s%" PRIu64 ",%" PRId64,
                                     used > 1 ? "," : "", near[i],
                                     -(int64_t)(near[i] % (UINT64_C(1) << 62)));
        }
    }
    cbd_jw_uint(&w, UINT64_MAX);
    cbd_jw_int(&w, INT64_MIN);
    used += (size_t)snprintf(want + used, sizeof want - used, ",%" PRIu64 ",%" PRId64 "]",
                             UINT64_MAX, INT64_MIN);
    cbd_jw_array_close(&w);
    size_t len = 0;
    char *text = cbd_jw_finish(&w, &len);
    cr_assert_not_null(text);
    cr_expect_eq(len, used);
    cr_expect_str_eq(text, want);
    free(text);
}

/* A member written in one step is the key and the value written apart, commas included. */
Test(json_write, one_step_members_match_key_then_value) {
    const uint64_t values[] = {0, 7, 42, 100, 65535, UINT64_MAX};
    cbd_jw one, two;
    cbd_jw_init(&one);
    cbd_jw_init(&two);
    cbd_jw_object_open(&one);
    cbd_jw_object_open(&two);
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char key[8];
        snprintf(key, sizeof key, "k%zu", i);
        cbd_jw_key_uint(&one, key, values[i]);
        cbd_jw_key_n(&two, key, strlen(key));
        cbd_jw_uint(&two, values[i]);
        cbd_jw_key_bool(&one, "b", i % 2 == 0);
        cbd_jw_key_n(&two, "b", 1);
        cbd_jw_bool(&two, i % 2 == 0);
    }
    cbd_jw_object_close(&one);
    cbd_jw_object_close(&two);
    size_t n1 = 0, n2 = 0;
    char *a = cbd_jw_finish(&one, &n1), *b = cbd_jw_finish(&two, &n2);
    cr_assert(a && b);
    cr_expect_str_eq(a, "{\"k0\":0,\"b\":true,\"k1\":7,\"b\":false,\"k2\":42,\"b\":true,"
                        "\"k3\":100,\"b\":false,\"k4\":65535,\"b\":true,"
                        "\"k5\":18446744073709551615,\"b\":false}");
    cr_expect_str_eq(a, b);
    free(a);
    free(b);
}

Test(json_write, strings_are_escaped_as_jansson_does) {
    const char *strings[] = {"",
                             "plain",
                             "quote \" and backslash \\",
                             "tab\tnew\nline\r",
                             "\x01\x1f\b\f",
                             "slash / stays",
                             "UTF-8: é ∑ 🎲",
                             "/a~1b"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        json_t *v = json_string(strings[i]);
        cr_assert_not_null(v);
        expect_same(v);
        json_decref(v);
    }
}

Test(json_write, nested_documents_keep_member_order) {
    json_t *doc = json_pack("{s:i, s:[f, b, n, {}, []], s:{s:s, s:{s:f}}, s:b}", "zeta", 1, "alpha",
                            0.25, 1, "middle", "k", "v", "deep", "x", 1e-30, "last", 0);
    cr_assert_not_null(doc);
    expect_same(doc);
    json_decref(doc);
}

/* A random tree of every kind of value, many times: the writer and jansson must agree. */
static json_t *random_value(cbd_rng *rng, int depth) {
    uint64_t kind = cbd_rng_bounded(rng, depth > 3 ? 6 : 8);
    switch (kind) {
        case 0:
            return json_integer((json_int_t)(cbd_rng_next(rng) >> cbd_rng_bounded(rng, 64)));
        case 1: {
            /* Reals across many magnitudes, from the generator's bits. */
            double m = cbd_rng_double(rng) * 2 - 1;
            return json_real(ldexp(m, (int)cbd_rng_bounded(rng, 200) - 100));
        }
        case 2: {
            char s[16];
            size_t n = (size_t)cbd_rng_bounded(rng, sizeof s);
            for (size_t i = 0; i < n; i++) {
                s[i] = (char)(1 + cbd_rng_bounded(rng, 126));
            }
            return json_stringn(s, n);
        }
        case 3:
            return json_true();
        case 4:
            return json_false();
        case 5:
            return json_null();
        case 6: {
            json_t *a = json_array();
            for (uint64_t i = cbd_rng_bounded(rng, 4); i > 0; i--) {
                json_array_append_new(a, random_value(rng, depth + 1));
            }
            return a;
        }
        default: {
            json_t *o = json_object();
            for (uint64_t i = cbd_rng_bounded(rng, 4); i > 0; i--) {
                char key[8];
                snprintf(key, sizeof key, "k%u", (unsigned)cbd_rng_bounded(rng, 100));
                json_object_set_new(o, key, random_value(rng, depth + 1));
            }
            return o;
        }
    }
}

Test(json_write, random_trees_match_jansson) {
    cbd_rng rng;
    cbd_rng_seed(&rng, 2026);
    for (int i = 0; i < 2000; i++) {
        json_t *v = random_value(&rng, 0);
        cr_assert_not_null(v);
        expect_same(v);
        json_decref(v);
    }
}

/* The streaming writer: the same document written call by call and built as a jansson tree
 * must print the same text; the commas are the writer's job, so nesting is what is tested. */
static void expect_stream(cbd_jw *w, json_t *tree) {
    size_t len = 0;
    char *got = cbd_jw_finish(w, &len);
    char *want = json_dumps(tree, JSON_COMPACT | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY);
    cr_assert_not_null(got);
    cr_assert_not_null(want);
    cr_expect_str_eq(got, want);
    cr_expect_eq(len, strlen(want));
    free(got);
    free(want);
    json_decref(tree);
}

Test(json_write, stream_places_commas_in_nested_objects_and_arrays) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_object_open(&w);
    cbd_jw_key_uint(&w, "a", 18446744073709551615ULL);
    cbd_jw_key(&w, "empty_object");
    cbd_jw_object_open(&w);
    cbd_jw_object_close(&w);
    cbd_jw_key(&w, "empty_array");
    cbd_jw_array_open(&w);
    cbd_jw_array_close(&w);
    cbd_jw_key(&w, "list");
    cbd_jw_array_open(&w);
    cbd_jw_int(&w, -3);
    cbd_jw_array_open(&w);
    cbd_jw_null(&w);
    cbd_jw_bool(&w, false);
    cbd_jw_array_close(&w);
    cbd_jw_object_open(&w);
    cbd_jw_key_real(&w, "r", 0.5);
    cbd_jw_key_string(&w, "s", "q\"uote");
    cbd_jw_object_close(&w);
    cbd_jw_string_n(&w, "a\0b", 3);
    cbd_jw_array_close(&w);
    cbd_jw_key_bool(&w, "last", true);
    cbd_jw_object_close(&w);
    /* jansson holds integers as int64, so the largest uint64 is checked by hand. */
    size_t len = 0;
    char *got = cbd_jw_finish(&w, &len);
    cr_assert_not_null(got);
    cr_expect_str_eq(got, "{\"a\":18446744073709551615,\"empty_object\":{},\"empty_array\":[],"
                          "\"list\":[-3,[null,false],{\"r\":0.5,\"s\":\"q\\\"uote\"},"
                          "\"a\\u0000b\"],\"last\":true}");
    cr_expect_eq(len, strlen(got));
    free(got);
}

Test(json_write, stream_of_a_tree_matches_jansson) {
    json_t *tree = json_pack("{s:[i, {s:f, s:[]}, {}], s:{s:s, s:n}, s:b}", "x", 1, "y", 2.25, "z",
                             "w", "v", "text\n", "u", "t", 0);
    cr_assert_not_null(tree);
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_value(&w, tree);
    expect_stream(&w, tree);
}

Test(json_write, a_finished_writer_starts_again_empty) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_array_open(&w);
    cbd_jw_int(&w, 1);
    cbd_jw_discard(&w);
    cbd_jw_array_open(&w);
    cbd_jw_int(&w, 2);
    cbd_jw_array_close(&w);
    expect_stream(&w, json_pack("[i]", 2));
}

Test(json_write, tree_keys_are_escaped_as_jansson_does) {
    /* Streamed keys are combatd's own and written as they are; keys of a jansson tree may hold
     * anything, as problem documents could, and must be escaped. */
    json_t *doc = json_pack("{s:i, s:i, s:i, s:i}", "quote\"d", 1, "back\\slash", 2, "tab\there", 3,
                            "\x01\x1f", 4);
    cr_assert_not_null(doc);
    expect_same(doc);
    json_decref(doc);
}

/* "[1,1,...,1]" of k ones: 2k + 1 bytes. */
static char *ones(size_t limit, size_t k, cbd_jw *w) {
    cbd_jw_init(w);
    cbd_jw_set_limit(w, limit);
    cbd_jw_array_open(w);
    for (size_t i = 0; i < k; i++) {
        cbd_jw_uint(w, 1);
    }
    cbd_jw_array_close(w);
    size_t len = 0;
    char *text = cbd_jw_finish(w, &len);
    if (text) {
        cr_expect_eq(len, 2 * k + 1);
    }
    return text;
}

Test(json_write, the_cap_holds_at_every_size) {
    /* Limits around the writer's doublings from 1,000 bytes (8 MiB lies between 1,000·2^13
     * and 1,000·2^14), each written in 2-byte pieces: the longest text that fits passes, one
     * piece more fails with `over`. */
    const size_t limits[] = {4096, 8191, 64000, 1000 * 1024, (size_t)8 << 20};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        size_t k = (limits[i] - 1) / 2;
        cbd_jw w;
        char *text = ones(limits[i], k, &w);
        cr_expect_not_null(text, "%zu bytes fit a cap of %zu", 2 * k + 1, limits[i]);
        cr_expect_not(w.over);
        free(text);
        text = ones(limits[i], k + 1, &w);
        cr_expect_null(text, "%zu bytes pass a cap of %zu", 2 * k + 3, limits[i]);
        cr_expect(w.over);
        free(text);
    }
}
