/* The strict reader: every offending member is named by its JSON pointer. */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "json/json_reader.h"

static const char *const keys[] = {"n", "rate", "flag", "mode", "name", "inner", "list", NULL};
static const char *const modes[] = {"straight_round", "weighted_random", NULL};

typedef struct {
    json_t *doc;
    cbd_reader r;
    cbd_problem p;
} fixture;

static void open_doc(fixture *f, const char *text) {
    json_error_t err;
    f->doc = json_loads(text, 0, &err);
    cr_assert_not_null(f->doc, "%s", err.text);
    cbd_problem_init(&f->p);
    cbd_reader_open(&f->r, f->doc, "", keys, &f->p);
}

Test(json_reader, reads_valid_members_and_reports_absent_ones) {
    fixture f;
    open_doc(&f, "{\"n\": 12, \"rate\": 0.7, \"flag\": true, \"mode\": \"weighted_random\", "
                 "\"name\": \"red\", \"inner\": null}");
    uint64_t n = 0;
    cbd_micro rate = 0;
    bool flag = false;
    int mode = -1;
    const char *name = NULL;
    cr_expect_eq(cbd_read_u64(&f.r, "n", 1, 100, &n), CBD_FIELD_OK);
    cr_expect_eq(n, 12);
    cr_expect_eq(cbd_read_micro(&f.r, "rate", &rate), CBD_FIELD_OK);
    cr_expect_eq(rate, 700000);
    cr_expect_eq(cbd_read_bool(&f.r, "flag", &flag), CBD_FIELD_OK);
    cr_expect(flag);
    cr_expect_eq(cbd_read_enum(&f.r, "mode", modes, &mode), CBD_FIELD_OK);
    cr_expect_eq(mode, 1);
    cr_expect_eq(cbd_read_string(&f.r, "name", 16, &name), CBD_FIELD_OK);
    cr_expect_str_eq(name, "red");
    cbd_reader child;
    cr_expect_eq(cbd_read_object(&f.r, "inner", keys, &child), CBD_FIELD_ABSENT, "null is absent");
    cr_expect_eq(cbd_read_u64(&f.r, "list", 0, 1, &n), CBD_FIELD_ABSENT);
    cr_expect_eq(f.p.status, 0);
    json_decref(f.doc);
}

Test(json_reader, unknown_members_are_errors_with_escaped_pointers) {
    fixture f;
    open_doc(&f, "{\"n\": 1, \"a/b~c\": 2}");
    cr_assert_eq(f.p.n_errors, 1);
    /* RFC 6901: "/" is written ~1 and "~" is written ~0. */
    cr_expect_str_eq(f.p.errors[0].pointer, "/a~1b~0c");
    cr_expect(strstr(f.p.errors[0].detail, "allowed here: n, rate") != NULL, "%s",
              f.p.errors[0].detail);
    json_decref(f.doc);
}

Test(json_reader, integers_refuse_reals_strings_negatives_and_out_of_range) {
    const char *bad[] = {"{\"n\": 3.0}", "{\"n\": \"3\"}", "{\"n\": -1}",
                         "{\"n\": 101}", "{\"n\": true}",  "{\"n\": 1e2}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fixture f;
        open_doc(&f, bad[i]);
        uint64_t n = 77;
        cr_expect_eq(cbd_read_u64(&f.r, "n", 0, 100, &n), CBD_FIELD_BAD, "%s", bad[i]);
        cr_expect_eq(n, 77, "a refused value is not written");
        cr_assert_eq(f.p.n_errors, 1);
        cr_expect_str_eq(f.p.errors[0].pointer, "/n");
        cr_expect_eq(f.p.status, 422);
        json_decref(f.doc);
    }
}

Test(json_reader, decimals_take_six_places_and_no_more) {
    struct {
        const char *text;
        cbd_field want;
        cbd_micro value;
    } cases[] = {
        {"{\"rate\": 0.123456}", CBD_FIELD_OK, 123456},
        {"{\"rate\": 1}", CBD_FIELD_OK, 1000000},
        {"{\"rate\": 0}", CBD_FIELD_OK, 0},
        {"{\"rate\": 0.000001}", CBD_FIELD_OK, 1},
        {"{\"rate\": 0.1234567}", CBD_FIELD_BAD, 0},
        {"{\"rate\": 0.0000001}", CBD_FIELD_BAD, 0},
        {"{\"rate\": 1.000001}", CBD_FIELD_BAD, 0},
        {"{\"rate\": -0.1}", CBD_FIELD_BAD, 0},
        {"{\"rate\": \"0.5\"}", CBD_FIELD_BAD, 0},
        /* W3 at the edges: within a rounding error of a millionth is not a millionth. */
        {"{\"rate\": 1e-12}", CBD_FIELD_BAD, 0},
        {"{\"rate\": 0.000000000001}", CBD_FIELD_BAD, 0},
        {"{\"rate\": 0.7000000000005}", CBD_FIELD_BAD, 0},
        {"{\"rate\": 0.9999999999999}", CBD_FIELD_BAD, 0},
        {"{\"rate\": 0.0000009999999}", CBD_FIELD_BAD, 0},
        /* The same double as 0.7 (the nearest double to both texts): it cannot be told apart. */
        {"{\"rate\": 0.70000000000000001}", CBD_FIELD_OK, 700000},
        {"{\"rate\": 7e-1}", CBD_FIELD_OK, 700000},
        {"{\"rate\": 0.999999}", CBD_FIELD_OK, 999999},
        {"{\"rate\": 1.0}", CBD_FIELD_OK, 1000000},
        {"{\"rate\": 0.0}", CBD_FIELD_OK, 0},
        {"{\"rate\": 0.1}", CBD_FIELD_OK, 100000},
        {"{\"rate\": 0.3}", CBD_FIELD_OK, 300000},
        {"{\"rate\": 1.0000000000001}", CBD_FIELD_BAD, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        open_doc(&f, cases[i].text);
        cbd_micro v = 0;
        cr_expect_eq(cbd_read_micro(&f.r, "rate", &v), cases[i].want, "%s", cases[i].text);
        if (cases[i].want == CBD_FIELD_OK) {
            cr_expect_eq(v, cases[i].value, "%s", cases[i].text);
        }
        json_decref(f.doc);
    }
}

/* Every 6-place decimal in [0, 1], written as text and parsed by jansson as a client would send
 * it, is accepted as exactly its millionths; one more digit is refused (W3). */
Test(json_reader, every_millionth_is_accepted_and_a_seventh_place_is_not) {
    for (unsigned m = 0; m <= 1000000; m += 997) {
        char text[64];
        snprintf(text, sizeof text, "{\"rate\": %u.%06u, \"n\": %u.%06u3}", m / 1000000,
                 m % 1000000, m / 1000000, m % 1000000);
        json_t *doc = json_loads(text, 0, NULL);
        cr_assert_not_null(doc, "%s", text);
        cbd_problem p;
        cbd_problem_init(&p);
        cbd_reader r;
        cbd_reader_open(&r, doc, "", keys, &p);
        cbd_micro v = 0, w = 0;
        cr_expect_eq(cbd_read_micro(&r, "rate", &v), CBD_FIELD_OK, "%s", text);
        cr_expect_eq(v, m, "%s", text);
        if (m < 1000000) {
            cr_expect_eq(cbd_read_micro(&r, "n", &w), CBD_FIELD_BAD, "%s", text);
        }
        json_decref(doc);
    }
}

Test(json_reader, a_near_millionth_is_a_422_naming_the_field) {
    fixture f;
    open_doc(&f, "{\"inner\": {\"rate\": 1e-12}}");
    cbd_reader inner;
    static const char *const inner_keys[] = {"rate", NULL};
    cr_assert_eq(cbd_read_object(&f.r, "inner", inner_keys, &inner), CBD_FIELD_OK);
    cbd_micro v = 0;
    cr_expect_eq(cbd_read_micro(&inner, "rate", &v), CBD_FIELD_BAD);
    cr_expect_eq(f.p.status, 422);
    cr_assert_eq(f.p.n_errors, 1);
    cr_expect_str_eq(f.p.errors[0].pointer, "/inner/rate");
    cr_expect_str_eq(f.p.errors[0].detail, "must be a number from 0 to 1 with at most 6 decimal "
                                           "places (W3), not 9.9999999999999998e-13");
    json_decref(f.doc);
}

Test(json_reader, enum_error_lists_the_choices) {
    fixture f;
    open_doc(&f, "{\"mode\": \"round_up\"}");
    int mode;
    cr_expect_eq(cbd_read_enum(&f.r, "mode", modes, &mode), CBD_FIELD_BAD);
    cr_expect_str_eq(f.p.errors[0].detail, "must be one of: straight_round, weighted_random");
    json_decref(f.doc);
}

Test(json_reader, nested_objects_carry_their_pointer) {
    fixture f;
    open_doc(&f, "{\"inner\": {\"n\": -5, \"zzz\": 1}}");
    cbd_reader child;
    uint64_t n;
    cr_assert_eq(cbd_read_object(&f.r, "inner", keys, &child), CBD_FIELD_OK);
    cr_expect_eq(cbd_read_u64(&child, "n", 0, 9, &n), CBD_FIELD_BAD);
    cr_assert_eq(f.p.n_errors, 2);
    cr_expect_str_eq(f.p.errors[0].pointer, "/inner/zzz");
    cr_expect_str_eq(f.p.errors[1].pointer, "/inner/n");
    json_decref(f.doc);
}

Test(json_reader, a_non_object_is_named) {
    fixture f;
    open_doc(&f, "{\"inner\": [1]}");
    cbd_reader child;
    cr_expect_eq(cbd_read_object(&f.r, "inner", keys, &child), CBD_FIELD_BAD);
    cr_expect_str_eq(f.p.errors[0].pointer, "/inner");
    cr_expect_str_eq(f.p.errors[0].detail, "must be an object, not an array");
    json_decref(f.doc);
}

/* A reader finds members by a scan of the ones it holds up to CBD_READER_INDEXED, and through
 * jansson past it or when built by hand: every way finds each present member, with its own
 * value, and no absent one (names that share a first letter or a prefix included). */
static void expect_members(const cbd_reader *r, size_t n) {
    char key[16];
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        const json_t *v = cbd_reader_member(r, key);
        cr_assert_not_null(v, "%s of %zu", key, n);
        cr_expect_eq(json_integer_value(v), (json_int_t)(100 + i), "%s of %zu", key, n);
    }
    snprintf(key, sizeof key, "k%zu", n);
    cr_expect_null(cbd_reader_member(r, key), "%s is absent from %zu members", key, n);
    cr_expect_null(cbd_reader_member(r, "k"), "a prefix of every name is not one");
    cr_expect_null(cbd_reader_member(r, "k00"), "nor is a longer name");
}

Test(json_reader, members_are_found_below_at_and_past_the_index_bound) {
    static const char *const names[] = {"k0", "k1", "k2", "k3",  "k4",  "k5", "k6",
                                        "k7", "k8", "k9", "k10", "k11", NULL};
    for (size_t n = 0; n <= 12; n++) {
        json_t *doc = json_object();
        char key[16];
        for (size_t i = 0; i < n; i++) {
            snprintf(key, sizeof key, "k%zu", i);
            json_object_set_new(doc, key, json_integer((json_int_t)(100 + i)));
        }
        cbd_problem p;
        cbd_problem_init(&p);
        cbd_reader r;
        cr_assert(cbd_reader_open(&r, doc, "", names, &p));
        cr_expect_eq(r.indexed, n <= CBD_READER_INDEXED, "%zu members", n);
        expect_members(&r, n);
        cbd_reader by_hand = {.obj = doc, .pointer = "", .problem = &p};
        expect_members(&by_hand, n);
        json_t *outer = json_pack("{s:O}", "inner", doc);
        cbd_reader root, at;
        cr_assert(cbd_reader_open(&root, outer, "", (const char *const[]){"inner", NULL}, &p));
        cbd_reader_at(&at, &root, "inner");
        expect_members(&at, n);
        cr_expect_eq(p.status, 0);
        json_decref(outer);
        json_decref(doc);
    }
}
