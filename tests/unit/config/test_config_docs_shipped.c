/*
 * docs/configuration.md's "duper" table's rule rows against the default rules and what the loader
 * enforces, and config/combatd.json against the defaults: the shipped file holds every default
 * except where docs/configuration.md's table names a shipped value of its own (none does now), and
 * its unit table is the default one ("see config/combatd.json"). docs/configuration.md is read from
 * COMBATD_SOURCE_DIR.
 */
#include "config_docs.h"
#include "api/duper/duper_rules_json.h"

/* The units row's ranges: "power A–B, death priority C–D", the fort without a priority. */
static void check_units_row(const doc_row *r) {
    uint64_t lo, hi;
    char v[96];
    cr_assert(parse_range(r->range, "power ", &lo, &hi), "duper.units: %s", r->range);
    cr_expect_eq(hi, CBD_DUPER_MAX_POWER);
    snprintf(v, sizeof v, "{\"tank\": {\"power\": %llu}}", (unsigned long long)hi);
    expect_loads("duper", "units", v, true);
    snprintf(v, sizeof v, "{\"tank\": {\"power\": %llu}}", (unsigned long long)hi + 1);
    expect_loads("duper", "units", v, false);
    cr_assert(parse_range(r->range, "death priority ", &lo, &hi), "duper.units: %s", r->range);
    cr_expect_eq(lo, 0);
    snprintf(v, sizeof v, "{\"tank\": {\"death_priority\": %llu}}", (unsigned long long)hi);
    expect_loads("duper", "units", v, true);
    snprintf(v, sizeof v, "{\"tank\": {\"death_priority\": %llu}}", (unsigned long long)hi + 1);
    expect_loads("duper", "units", v, false);
    cr_expect(strstr(r->range, "the fort takes only `power`") ||
              strstr(r->range, "fort takes only"));
    expect_loads("duper", "units", "{\"fort\": {\"power\": 7}}", true);
    expect_loads("duper", "units", "{\"fort\": {\"death_priority\": 3}}", false);
}

Test(config_docs, the_duper_rule_rows_are_the_default_rules_and_their_ranges) {
    char *readme = read_source_file("docs/configuration.md");
    doc_table t;
    parse_table(readme, "duper", &t);
    /* Every rule's default in docs/configuration.md, loaded over other values, gives the default
     * rules. */
    char json[2048] = "{\"duper\": {";
    for (size_t i = 0; cbd_duper_rules_keys[i]; i++) {
        const doc_row *r = find_row(&t, cbd_duper_rules_keys[i]);
        cr_assert_not_null(r, "%s", cbd_duper_rules_keys[i]);
        if (strcmp(r->key, "units") == 0) {
            cr_expect_str_eq(r->def, "see config/combatd.json"); /* the shipped-file test */
            check_units_row(r);
            continue;
        }
        size_t used = strlen(json);
        snprintf(json + used, sizeof json - used, "%s\"%s\": %s", used > 11 ? ", " : "", r->key,
                 r->def);
    }
    strcat(json, "}}");
    cbd_settings cfg, d;
    cbd_settings_defaults(&d);
    cbd_settings_defaults(&cfg);
    cfg.api.duper.key_buff_per_key = 999;
    cfg.api.duper.supporting_tank_death_priority = 99;
    cfg.api.duper.card_steal_probability = 1;
    cfg.api.duper.tile_buff[0] = cfg.api.duper.tile_buff[1] = cfg.api.duper.tile_buff[2] = 999;
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_config_load_text(&cfg, json, strlen(json), &p), "%s: %s", json, p.detail);
    cr_expect_eq(cfg.api.duper.key_buff_per_key, d.api.duper.key_buff_per_key);
    cr_expect_eq(cfg.api.duper.supporting_tank_death_priority,
                 d.api.duper.supporting_tank_death_priority);
    cr_expect_eq(cfg.api.duper.card_steal_probability, d.api.duper.card_steal_probability);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(cfg.api.duper.tile_buff[i], d.api.duper.tile_buff[i], "tile_buff[%d]", i);
    }
    /* Their ranges, as the loader enforces them. */
    uint64_t lo, hi;
    static const char *const whole[] = {"key_buff_per_key", "supporting_tank_death_priority"};
    for (size_t i = 0; i < 2; i++) {
        const doc_row *r = find_row(&t, whole[i]);
        cr_assert(parse_range(r->range, NULL, &lo, &hi), "%s: %s", whole[i], r->range);
        expect_range_enforced("duper", whole[i], lo, hi);
    }
    const doc_row *card = find_row(&t, "card_steal_probability");
    cr_expect(strstr(card->range, "a decimal in [0, 1], at most 6 places") != NULL);
    expect_loads("duper", "card_steal_probability", "0", true);
    expect_loads("duper", "card_steal_probability", "1", true);
    expect_loads("duper", "card_steal_probability", "1.000001", false);
    expect_loads("duper", "card_steal_probability", "0.1234567", false);
    const doc_row *buff = find_row(&t, "tile_buff");
    cr_assert(strncmp(buff->range, "three numbers ", 14) == 0 &&
                  parse_range(buff->range, NULL, &lo, &hi),
              "%s", buff->range);
    char v[96];
    snprintf(v, sizeof v, "[%llu, %llu, %llu]", (unsigned long long)lo, (unsigned long long)lo,
             (unsigned long long)hi);
    expect_loads("duper", "tile_buff", v, true);
    snprintf(v, sizeof v, "[%llu, %llu, %llu]", (unsigned long long)lo, (unsigned long long)lo,
             (unsigned long long)hi + 1);
    expect_loads("duper", "tile_buff", v, false);
    expect_loads("duper", "tile_buff", "[1, 2]", false);
    free(readme);
}

/* Whether key k holds the same value in sections a and b. */
static bool same_value(const cbd_config_key *k, const void *a, const void *b) {
    if (k->type == CBD_KEY_UINT) {
        return uint_field(k, a) == uint_field(k, b);
    }
    if (k->type == CBD_KEY_DECIMAL) {
        return *(const cbd_micro *)((const char *)a + k->offset) ==
               *(const cbd_micro *)((const char *)b + k->offset);
    }
    if (k->type == CBD_KEY_BOOL || k->type == CBD_KEY_STRING) {
        const char *x = (const char *)a + k->offset, *y = (const char *)b + k->offset;
        return k->type == CBD_KEY_BOOL ? *(const bool *)x == *(const bool *)y : strcmp(x, y) == 0;
    }
    const cbd_server_config *x = a, *y = b;
    if (k->type == CBD_KEY_ORIGINS) {
        bool same = x->n_cors_origins == y->n_cors_origins;
        for (size_t i = 0; same && i < x->n_cors_origins; i++) {
            same = strcmp(x->cors_origins[i], y->cors_origins[i]) == 0;
        }
        return same;
    }
    return x->n_trusted_proxies == y->n_trusted_proxies &&
           memcmp(x->trusted_proxies, y->trusted_proxies,
                  x->n_trusted_proxies * sizeof x->trusted_proxies[0]) == 0;
}

/* What docs/configuration.md says the shipped file holds for a row: the default, or the value its
 * default cell names "in the shipped file", loaded over the defaults. */
static void expected_shipped(const char *section, const doc_row *r, cbd_settings *out) {
    cbd_settings_defaults(out);
    const char *shipped = strstr(r->def, " in the shipped file");
    const char *start = strstr(r->def, "; ");
    if (!shipped || !start || start > shipped) {
        return;
    }
    char json[640];
    snprintf(json, sizeof json, "{\"%s\": {\"%s\": %.*s}}", section, r->key,
             (int)(shipped - start - 2), start + 2);
    cbd_problem p;
    cr_assert(load_over_defaults(json, out, &p), "%s: %s", json, p.detail);
}

Test(config_docs, the_shipped_file_holds_the_defaults_except_where_the_readme_says) {
    char *readme = read_source_file("docs/configuration.md");
    char *file = read_source_file("config/combatd.json");
    cbd_settings shipped, d;
    cbd_problem p;
    cr_assert(load_over_defaults(file, &shipped, &p), "config/combatd.json: %s", p.detail);
    json_t *doc = json_loads(file, 0, NULL);
    cr_assert_not_null(doc);
    static const char *const sections[] = {"server", "warapp", "duper", "mcp"};
    for (size_t s = 0; s < 4; s++) {
        doc_table t;
        parse_table(readme, sections[s], &t);
        size_t n;
        const cbd_config_key *keys = cbd_config_key_table(sections[s], &n);
        for (size_t i = 0; i < n; i++) {
            const doc_row *r = find_row(&t, keys[i].name);
            cr_assert_not_null(r, "%s.%s", sections[s], keys[i].name);
            /* Every key is written out, so that an operator sees each one to change. */
            cr_expect_not_null(json_object_get(json_object_get(doc, sections[s]), keys[i].name),
                               "config/combatd.json does not list %s.%s", sections[s],
                               keys[i].name);
            expected_shipped(sections[s], r, &d);
            cr_expect(same_value(&keys[i], section_of(&shipped, sections[s]),
                                 section_of(&d, sections[s])),
                      "config/combatd.json's %s.%s is not what docs/configuration.md's table says",
                      sections[s], keys[i].name);
        }
    }
    cbd_settings_defaults(&d);
    /* CORS is an opt-in: the playground is served by combatd itself (same origin). */
    cr_expect_eq(shipped.server.n_cors_origins, 0, "the shipped file lists no CORS origin");
    const cbd_warapp_settings *a = &shipped.api.warapp.defaults, *b = &d.api.warapp.defaults;
    cr_expect(a->offense_kill_rate == b->offense_kill_rate &&
              a->defense_kill_rate == b->defense_kill_rate &&
              a->luck_modifier == b->luck_modifier && a->rounding == b->rounding &&
              a->one_army_must_stand_guard == b->one_army_must_stand_guard);
    /* The units row says "see config/combatd.json": the file's table is the default one. */
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        cr_expect_eq(shipped.api.duper.units[c].power, d.api.duper.units[c].power, "class %d", c);
        cr_expect_eq(shipped.api.duper.units[c].death_priority, d.api.duper.units[c].death_priority,
                     "class %d", c);
    }
    cr_expect(shipped.api.duper.key_buff_per_key == d.api.duper.key_buff_per_key &&
              shipped.api.duper.supporting_tank_death_priority ==
                  d.api.duper.supporting_tank_death_priority &&
              shipped.api.duper.card_steal_probability == d.api.duper.card_steal_probability &&
              memcmp(shipped.api.duper.tile_buff, d.api.duper.tile_buff,
                     sizeof d.api.duper.tile_buff) == 0);
    json_decref(doc);
    free(file);
    free(readme);
}
