/*
 * docs/configuration.md's tables (sections "server", "warapp", "duper") against the code: every
 * key docs/configuration.md lists is a row of src/config/config.c (or warapp's `defaults`, or a
 * Duper rule) and every row is listed; each default is what cbd_config_defaults gives; each range
 * is the row's min and max and is what the loader enforces; each environment variable is accepted;
 * and warapp's `defaults` row is the W9 settings. The Duper rule rows and the shipped file are
 * test_config_docs_shipped.c's. docs/configuration.md is read from COMBATD_SOURCE_DIR, so editing
 * either side alone fails here.
 */
#include <jansson.h>

#include "config_docs.h"
#include "api/duper/duper_rules_json.h"
#include "api/warapp/warapp_settings.h"

/* A decimal key (W3, W26): docs/configuration.md's default is its value, its range the row's in
 * whole numbers, and the file takes the range's ends, refuses past them and a seventh decimal. */
static void check_decimal_row(const char *section, const cbd_config_key *k, const doc_row *r,
                              const void *base) {
    cbd_micro v;
    memcpy(&v, (const char *)base + k->offset, sizeof v);
    uint64_t def, lo, hi;
    cr_expect(parse_number(r->def, &def) && def * 1000000 == v,
              "%s.%s: docs/configuration.md's default \"%s\"", section, k->name, r->def);
    cr_expect(parse_range(r->range, NULL, &lo, &hi) && lo * 1000000 == k->min &&
                  hi * 1000000 == k->max,
              "%s.%s: docs/configuration.md's range \"%s\"", section, k->name, r->range);
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)hi);
    expect_loads(section, k->name, text, true);
    expect_loads(section, k->name, "2.5", true);
    expect_loads(section, k->name, "2.1234567", false);
    snprintf(text, sizeof text, "%llu.000001", (unsigned long long)hi);
    expect_loads(section, k->name, text, false);
}

/* Every row of the code's table is in docs/configuration.md's, with its default and range. */
static void check_table_rows(const char *section, const doc_table *t) {
    size_t n;
    const cbd_config_key *keys = cbd_config_key_table(section, &n);
    cr_assert_not_null(keys);
    cbd_settings defaults;
    cbd_settings_defaults(&defaults);
    const void *base = section_of(&defaults, section);
    for (size_t i = 0; i < n; i++) {
        const cbd_config_key *k = &keys[i];
        const doc_row *r = find_row(t, k->name);
        cr_expect_not_null(r, "docs/configuration.md's ## %s table has no row for `%s`", section,
                           k->name);
        if (r && k->type == CBD_KEY_BOOL && strcmp(section, "server") != 0) {
            bool v;
            memcpy(&v, (const char *)base + k->offset, sizeof v);
            cr_expect_str_eq(r->def, v ? "true" : "false", "%s.%s: default", section, k->name);
            cr_expect(strncmp(r->range, "true, false", 11) == 0, "%s.%s: %s", section, k->name,
                      r->range);
            expect_loads(section, k->name, v ? "false" : "true", true);
            expect_loads(section, k->name, "1", false);
        }
        if (r && k->type == CBD_KEY_DECIMAL) {
            check_decimal_row(section, k, r, base);
        }
        if (!r || k->type != CBD_KEY_UINT) {
            continue;
        }
        uint64_t def, lo, hi;
        cr_expect(parse_number(r->def, &def) && def == uint_field(k, base),
                  "%s.%s: docs/configuration.md's default \"%s\", the code's %llu", section,
                  k->name, r->def, (unsigned long long)uint_field(k, base));
        cr_expect(parse_range(r->range, NULL, &lo, &hi), "%s.%s: no range in \"%s\"", section,
                  k->name, r->range);
        cr_expect(lo == k->min && hi == k->max,
                  "%s.%s: docs/configuration.md's range \"%s\", the row's %llu-%llu", section,
                  k->name, r->range, (unsigned long long)k->min, (unsigned long long)k->max);
        expect_range_enforced(section, k->name, lo, hi);
    }
}

/* Every row of docs/configuration.md is a key of the code: the table's, or one of `others`. */
static void check_no_unknown_rows(const char *section, const doc_table *t,
                                  const char *const *others) {
    size_t n;
    const cbd_config_key *keys = cbd_config_key_table(section, &n);
    for (size_t i = 0; i < t->n; i++) {
        bool known = false;
        for (size_t j = 0; j < n; j++) {
            known |= strcmp(keys[j].name, t->rows[i].key) == 0;
        }
        for (size_t j = 0; others && others[j]; j++) {
            known |= strcmp(others[j], t->rows[i].key) == 0;
        }
        cr_expect(known, "docs/configuration.md's ## %s lists `%s`, which the code does not read",
                  section, t->rows[i].key);
    }
}

Test(config_docs, the_sections_list_exactly_the_code_keys_with_their_defaults_and_ranges) {
    char *readme = read_source_file("docs/configuration.md");
    static const char *const warapp_others[] = {"defaults", NULL};
    static const char *const sections[] = {"server", "warapp", "duper", "mcp"};
    for (size_t s = 0; s < 4; s++) {
        doc_table t;
        parse_table(readme, sections[s], &t);
        check_table_rows(sections[s], &t);
        const char *const *others = s == 1 ? warapp_others : s == 2 ? cbd_duper_rules_keys : NULL;
        check_no_unknown_rows(sections[s], &t, others);
        for (size_t i = 0; others && others[i]; i++) {
            cr_expect_not_null(find_row(&t, others[i]),
                               "docs/configuration.md's ## %s has no row for `%s`", sections[s],
                               others[i]);
        }
    }
    free(readme);
}

/* The value an environment variable of this kind takes, for the check that its name works. */
static const char *sample_text(const cbd_config_key *k, const char *lo) {
    switch (k->type) {
        case CBD_KEY_UINT:
            return lo;
        case CBD_KEY_DECIMAL:
            return "2.5";
        case CBD_KEY_BOOL:
            return "false";
        case CBD_KEY_STRING:
            return "127.0.0.1";
        case CBD_KEY_ORIGINS:
            return "https://a.example,*";
        case CBD_KEY_NETS:
            return "10.0.0.0/8,fd00::/8";
    }
    return "";
}

/* The environment column names COMBATD_<KEY>, and that variable is read. */
static void check_environment(const cbd_config_key *k, const doc_row *r) {
    char env[64] = "COMBATD_";
    for (size_t i = 0; k->name[i] && i + 9 < sizeof env; i++) {
        env[8 + i] = (char)(k->name[i] >= 'a' && k->name[i] <= 'z' ? k->name[i] - 32 : k->name[i]);
        env[9 + i] = '\0';
    }
    cr_expect_str_eq(r->env, env, "server.%s: docs/configuration.md's variable", k->name);
    uint64_t lo = 0, hi = 0;
    char lo_text[32];
    (void)parse_range(r->range, NULL, &lo, &hi);
    snprintf(lo_text, sizeof lo_text, "%llu", (unsigned long long)lo);
    char entry[256];
    snprintf(entry, sizeof entry, "%s=%s", r->env, sample_text(k, lo_text));
    char *envp[] = {entry, NULL};
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cbd_problem p;
    cbd_problem_init(&p);
    cr_expect(cbd_config_apply_env(&cfg, envp, &p), "%s: %s", entry, p.detail);
    if (k->type == CBD_KEY_UINT) {
        cr_expect_eq(uint_field(k, &cfg.server), lo, "%s did not set server.%s", entry, k->name);
    }
}

/* Defaults and limits of the keys that are not whole numbers. */
static void check_other_kinds(const cbd_config_key *k, const doc_row *r, const cbd_settings *d) {
    const cbd_server_config *s = &d->server;
    if (k->type == CBD_KEY_BOOL) {
        bool v;
        memcpy(&v, (const char *)s + k->offset, sizeof v);
        cr_expect_eq(v, strcmp(r->def, "true") == 0, "server.%s: default \"%s\"", k->name, r->def);
        cr_expect(strncmp(r->range, "true, false", 11) == 0, "server.%s: %s", k->name, r->range);
    } else if (k->type == CBD_KEY_STRING) {
        cr_expect_str_eq(r->def, (const char *)s + k->offset, "server.%s: default", k->name);
        cr_expect_eq(at_most(r->range, "bytes"), (long)k->size - 1, "server.%s", k->name);
    } else if (k->type == CBD_KEY_ORIGINS) {
        cr_expect(strncmp(r->def, "none", 4) == 0 && s->n_cors_origins == 0, "%s", r->def);
        cr_expect_eq(at_most(r->range, "origins"), CBD_MAX_CORS_ORIGINS, "%s", r->range);
        cr_expect_eq(at_most(r->range, "bytes"), (long)sizeof s->cors_origins[0] - 1);
    } else if (k->type == CBD_KEY_NETS) {
        cr_expect(strncmp(r->def, "none", 4) == 0 && s->n_trusted_proxies == 0, "%s", r->def);
        cr_expect_eq(at_most(r->range, "addresses"), CBD_MAX_TRUSTED_PROXIES, "%s", r->range);
    }
}

Test(config_docs, server_rows_name_their_variable_flag_and_the_other_kinds_of_default) {
    char *readme = read_source_file("docs/configuration.md");
    doc_table t;
    parse_table(readme, "server", &t);
    size_t n;
    const cbd_config_key *keys = cbd_config_key_table("server", &n);
    cbd_settings d;
    cbd_settings_defaults(&d);
    int flags = 0;
    for (size_t i = 0; i < n; i++) {
        const doc_row *r = find_row(&t, keys[i].name);
        if (!r) {
            continue; /* reported by the test above */
        }
        check_environment(&keys[i], r);
        check_other_kinds(&keys[i], r, &d);
        if (r->flag[0]) {
            char want[80];
            snprintf(want, sizeof want, "--%s ", keys[i].name);
            cr_expect(strncmp(r->flag, want, strlen(want)) == 0, "%s: flag %s", r->key, r->flag);
            flags++;
        }
    }
    cr_expect(strstr(readme, "three have flags") != NULL && flags == 3, "%d flags", flags);
    free(readme);
}

Test(config_docs, the_warapp_defaults_row_is_the_w9_settings) {
    char *readme = read_source_file("docs/configuration.md");
    doc_table t;
    parse_table(readme, "warapp", &t);
    const doc_row *r = find_row(&t, "defaults");
    cr_assert_not_null(r);
    /* The cell is the object itself, with every member a request's settings take. */
    json_error_t err;
    json_t *cell = json_loads(r->def, 0, &err);
    cr_assert(json_is_object(cell), "warapp.defaults: \"%s\": %s", r->def, err.text);
    size_t members = 0;
    for (; cbd_warapp_settings_keys[members]; members++) {
        cr_expect_not_null(json_object_get(cell, cbd_warapp_settings_keys[members]), "%s",
                           cbd_warapp_settings_keys[members]);
    }
    cr_expect_eq(json_object_size(cell), members);
    json_decref(cell);
    /* Loaded over other values, the cell gives cbd_config_defaults' settings. */
    cbd_settings cfg, d;
    cbd_settings_defaults(&d);
    cbd_settings_defaults(&cfg);
    cfg.api.warapp.defaults = (cbd_warapp_settings){1, 2, 3, CBD_ROUND_WEIGHTED, false};
    char json[1024];
    snprintf(json, sizeof json, "{\"warapp\": {\"defaults\": %s}}", r->def);
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_config_load_text(&cfg, json, strlen(json), &p), "%s", p.detail);
    const cbd_warapp_settings *a = &cfg.api.warapp.defaults, *b = &d.api.warapp.defaults;
    cr_expect_eq(a->offense_kill_rate, b->offense_kill_rate);
    cr_expect_eq(a->defense_kill_rate, b->defense_kill_rate);
    cr_expect_eq(a->luck_modifier, b->luck_modifier);
    cr_expect_eq(a->rounding, b->rounding);
    cr_expect_eq(a->one_army_must_stand_guard, b->one_army_must_stand_guard);
    /* "decimals in [0, 1], at most 6 places" (W3). */
    cr_expect(strstr(r->range, "decimals in [0, 1], at most 6 places") != NULL, "%s", r->range);
    expect_loads("warapp", "defaults", "{\"luck_modifier\": 1}", true);
    expect_loads("warapp", "defaults", "{\"luck_modifier\": 0.000001}", true);
    expect_loads("warapp", "defaults", "{\"luck_modifier\": 1.000001}", false);
    expect_loads("warapp", "defaults", "{\"offense_kill_rate\": 0.1234567}", false);
    free(readme);
}
