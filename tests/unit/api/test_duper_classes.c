/*
 * The Duper class table (src/core/duper/duper_classes.c) against docs/rules.md's unit table written
 * out by hand, and against the other places that list classes for clients: openapi.yaml (the
 * contract), config/combatd.json (the shipped unit table, D1) and the playground page
 * (web/index.html).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combatd/duper.h"

#define MAX_LINES 4000

/* docs/rules.md's unit table and D5, D6, D8, by hand. */
static const struct {
    const char *name;
    cbd_duper_layer layer;
    uint32_t power, death_priority;
    bool loadable, capital, priority_setting;
} expected[] = {
    {"soldier", CBD_DUPER_GROUND, 1, 1, true, false, true},
    {"larva", CBD_DUPER_GROUND, 1, 1, true, false, true},
    {"tank", CBD_DUPER_GROUND, 3, 2, true, false, true},
    {"plane", CBD_DUPER_AIR, 4, 3, false, false, true},
    {"fort", CBD_DUPER_BUILDING, 7, 5, false, false, false},
    {"center", CBD_DUPER_BUILDING, 0, 0, false, false, true},
    {"capital_lv1", CBD_DUPER_BUILDING, 9, 6, false, true, true},
    {"capital_lv2", CBD_DUPER_BUILDING, 16, 6, false, true, true},
    {"capital_lv3", CBD_DUPER_BUILDING, 20, 6, false, true, true},
    {"supercapital", CBD_DUPER_GROUND, 21, 4, true, true, true},
};

Test(duper_classes, the_table_is_the_rulings_unit_table) {
    cr_assert_eq(sizeof expected / sizeof expected[0], CBD_DUPER_CLASS_COUNT);
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        const cbd_duper_class_info *row = cbd_duper_class_row((cbd_duper_class)c);
        cr_assert(row != NULL);
        cr_expect_str_eq(row->name, expected[c].name);
        cr_expect_eq(row->layer, expected[c].layer, "%s", expected[c].name);
        cr_expect_eq(row->defaults.power, expected[c].power, "%s", expected[c].name);
        cr_expect_eq(row->defaults.death_priority, expected[c].death_priority, "%s",
                     expected[c].name);
        cr_expect_eq(row->loadable, expected[c].loadable, "%s", expected[c].name);
        cr_expect_eq(row->capital, expected[c].capital, "%s", expected[c].name);
        cr_expect_eq(row->death_priority_setting, expected[c].priority_setting, "%s",
                     expected[c].name);
        cr_expect_eq(cbd_duper_is_capital((cbd_duper_class)c), expected[c].capital);
        cr_expect_eq(cbd_duper_is_loadable((cbd_duper_class)c), expected[c].loadable);
    }
    cr_expect_null(cbd_duper_class_row(CBD_DUPER_CLASS_COUNT));
    cr_expect_null(cbd_duper_class_name(CBD_DUPER_CLASS_COUNT));
    const char *names[CBD_DUPER_CLASS_COUNT + 1];
    cr_expect_eq(cbd_duper_class_names(false, names), 10);
    cr_expect_str_eq(names[9], "supercapital");
    cr_expect_null(names[10]);
    /* D5: planes carry the ground troops, in class order. */
    cr_expect_eq(cbd_duper_class_names(true, names), 4);
    cr_expect_str_eq(names[0], "soldier");
    cr_expect_str_eq(names[1], "larva");
    cr_expect_str_eq(names[2], "tank");
    cr_expect_str_eq(names[3], "supercapital");
    cr_expect_null(names[4]);
}

typedef struct {
    char *text[MAX_LINES];
    size_t n;
} lines;

static void read_lines(const char *relative, lines *out) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", relative);
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot open %s", path);
    char buf[4096];
    out->n = 0;
    while (fgets(buf, sizeof buf, f) && out->n < MAX_LINES) {
        buf[strcspn(buf, "\n")] = '\0';
        out->text[out->n++] = strdup(buf);
    }
    fclose(f);
}

static size_t indent(const char *s) {
    return strspn(s, " ");
}

/* The YAML key of a line ("  soldier: {...}" -> "soldier"), copied into key; false if none. */
static bool line_key(const char *s, char *key, size_t size) {
    s += indent(s);
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (n == 0 || s[n] != ':' || n >= size) {
        return false;
    }
    memcpy(key, s, n);
    key[n] = '\0';
    return true;
}

/* Finds key at exactly `want` spaces inside the block of lines [from, to); returns its line. */
static size_t find_child(const lines *l, size_t from, size_t to, size_t want, const char *key) {
    char k[128];
    for (size_t i = from; i < to; i++) {
        if (indent(l->text[i]) == want && line_key(l->text[i], k, sizeof k) &&
            strcmp(k, key) == 0) {
            return i;
        }
    }
    return (size_t)-1;
}

/* The end of the block that starts at line i (the next line at its indent or less). */
static size_t block_end(const lines *l, size_t i) {
    size_t base = indent(l->text[i]);
    for (size_t j = i + 1; j < l->n; j++) {
        const char *t = l->text[j];
        if (t[indent(t)] != '\0' && t[indent(t)] != '#' && indent(t) <= base) {
            return j;
        }
    }
    return l->n;
}

/* The member names under components/schemas/<path...>, in the file's order. */
static size_t schema_keys(const lines *l, const char *const *path, char keys[][32], size_t max) {
    size_t at = find_child(l, 0, l->n, 2, "schemas");
    cr_assert(at != (size_t)-1, "openapi.yaml has no components/schemas");
    size_t want = 4;
    for (size_t p = 0; path[p]; p++, want += 2) {
        size_t next = find_child(l, at + 1, block_end(l, at), want, path[p]);
        cr_assert(next != (size_t)-1, "openapi.yaml: no %s under line %zu", path[p], at + 1);
        at = next;
    }
    size_t n = 0, end = block_end(l, at);
    for (size_t i = at + 1; i < end && n < max; i++) {
        if (indent(l->text[i]) == want && line_key(l->text[i], keys[n], sizeof keys[n])) {
            n++;
        }
    }
    return n;
}

static void expect_names(char keys[][32], size_t n, bool loadable_only, const char *where) {
    const char *names[CBD_DUPER_CLASS_COUNT + 1];
    size_t want = cbd_duper_class_names(loadable_only, names);
    cr_expect_eq(n, want, "%s lists %zu classes, the table %zu", where, n, want);
    for (size_t i = 0; i < n && i < want; i++) {
        cr_expect_str_eq(keys[i], names[i], "%s, member %zu", where, i);
    }
}

Test(duper_classes, openapi_lists_the_tables_classes_in_order) {
    static lines l;
    read_lines("openapi.yaml", &l);
    char keys[32][32];
    size_t n = schema_keys(&l, (const char *const[]){"DuperCounts", "properties", NULL}, keys, 32);
    expect_names(keys, n, false, "DuperCounts");
    n = schema_keys(&l, (const char *const[]){"DuperLoaded", "properties", NULL}, keys, 32);
    expect_names(keys, n, true, "DuperLoaded");
    n = schema_keys(&l,
                    (const char *const[]){"DuperRules", "properties", "units", "properties", NULL},
                    keys, 32);
    expect_names(keys, n, false, "DuperRules/units");
    /* A class whose death priority is no setting takes power alone in the contract too. */
    size_t fort = find_child(&l, 0, l.n, 12, "fort");
    cr_assert(fort != (size_t)-1);
    n = 0;
    for (size_t i = fort + 1; i < block_end(&l, fort); i++) {
        cr_expect_null(strstr(l.text[i], "death_priority"), "line %zu", i + 1);
        n++;
    }
    cr_expect_gt(n, 0);
    /* Every enum that lists a class name lists the table's names (none does today). */
    for (size_t i = 0; i < l.n; i++) {
        const char *e = strstr(l.text[i], "enum: [");
        if (e && strstr(e, "soldier")) {
            const char *names[CBD_DUPER_CLASS_COUNT + 1];
            cbd_duper_class_names(false, names);
            char want[512] = "enum: [";
            for (int c = 0; names[c]; c++) {
                strcat(want, c ? ", " : "");
                strcat(want, names[c]);
            }
            strcat(want, "]");
            cr_expect(strncmp(e, want, strlen(want)) == 0, "line %zu: %s", i + 1, e);
        }
    }
}

Test(duper_classes, the_shipped_config_lists_every_class_with_its_default) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/config/combatd.json", dir ? dir : ".");
    json_error_t err;
    json_t *doc = json_load_file(path, 0, &err);
    cr_assert(doc != NULL, "%s: %s", path, err.text);
    json_t *units = json_object_get(json_object_get(doc, "duper"), "units");
    cr_assert(json_is_object(units));
    cr_expect_eq(json_object_size(units), CBD_DUPER_CLASS_COUNT);
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        const cbd_duper_class_info *row = cbd_duper_class_row((cbd_duper_class)c);
        json_t *u = json_object_get(units, row->name);
        cr_assert(json_is_object(u), "config lists no %s", row->name);
        cr_expect_eq(json_integer_value(json_object_get(u, "power")), row->defaults.power, "%s",
                     row->name);
        json_t *priority = json_object_get(u, "death_priority");
        if (row->death_priority_setting) {
            cr_expect_eq(json_integer_value(priority), row->defaults.death_priority, "%s",
                         row->name);
        } else {
            cr_expect_null(priority, "%s takes no death_priority", row->name);
        }
    }
    json_decref(doc);
}

/* The quoted names ('a' or "a", split by `sep`) between `open` and the `close` after it in
 * line s, into keys; their number. */
static size_t quoted_names(const char *s, const char *open, char close, char keys[][32],
                           size_t max) {
    const char *p = strstr(s, open);
    cr_assert_not_null(p, "no %s in: %s", open, s);
    p += strlen(open);
    const char *end = strchr(p, close);
    cr_assert_not_null(end);
    size_t n = 0;
    while (p < end && n < max) {
        size_t skip = strspn(p, " ,'\"");
        p += skip;
        size_t len = strcspn(p, " ,'\"");
        if (p + len > end) {
            len = (size_t)(end - p);
        }
        if (len == 0 || len >= 32) {
            break;
        }
        memcpy(keys[n], p, len);
        keys[n++][len] = '\0';
        p += len;
    }
    return n;
}

/* The playground page (web/index.html and its script web/page.js) keeps the class names its
 * unit grids offer: all of them, in the table's order (the script's UNIT_CLASSES), and the
 * classes planes carry (D5) on a grid of loaded troops (the page's data-classes). */
Test(duper_classes, the_page_lists_the_tables_classes_in_order) {
    static lines files[2]; /* each its own: read_lines keeps the lines it reads */
    size_t lists = 0, loaded = 0;
    for (int file = 0; file < 2; file++) {
        lines *l = &files[file];
        read_lines(file ? "web/index.html" : "web/page.js", l);
        for (size_t i = 0; i < l->n; i++) {
            char keys[32][32];
            if (strstr(l->text[i], "const UNIT_CLASSES = [")) {
                size_t n = quoted_names(l->text[i], "const UNIT_CLASSES = [", ']', keys, 32);
                expect_names(keys, n, false, "web/page.js's UNIT_CLASSES");
                lists++;
            }
            if (strstr(l->text[i], "data-classes=\"")) {
                cr_expect_not_null(strstr(l->text[i], "/loaded\""), "a grid of other classes: %s",
                                   l->text[i]);
                size_t n = quoted_names(l->text[i], "data-classes=\"", '"', keys, 32);
                expect_names(keys, n, true, "web/index.html's loaded grid");
                loaded++;
            }
        }
    }
    cr_expect_eq(lists, 1, "web/page.js declares UNIT_CLASSES %zu times", lists);
    cr_expect_geq(loaded, 1, "web/index.html has no grid of loaded troops");
}
