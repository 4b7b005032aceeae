/*
 * Reading docs/configuration.md's tables for test_config_docs*.c: the rows of the table under
 * "## <section>", the numbers and ranges its cells write ("1–10^9", "at most 32 addresses"),
 * and loading a config text to see a value accepted or refused at its pointer. Header-only,
 * static inline, so each test file takes what it uses.
 */
#ifndef COMBATD_TEST_CONFIG_DOCS_H
#define COMBATD_TEST_CONFIG_DOCS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "config/config.h"
#include "config/config_keys.h"

#define EN_DASH "\xe2\x80\x93"

typedef struct {
    char key[64], flag[64], env[64], def[512], range[512];
} doc_row;

typedef struct {
    doc_row rows[64];
    size_t n;
} doc_table;

static inline char *read_source_file(const char *name) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    cr_assert_gt(size, 0);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

/* Copies a cell without backticks and surrounding blanks. */
static inline void copy_cell(char *out, size_t size, const char *start, size_t len) {
    while (len > 0 && *start == ' ') {
        start++, len--;
    }
    while (len > 0 && start[len - 1] == ' ') {
        len--;
    }
    size_t used = 0;
    for (size_t i = 0; i < len && used + 1 < size; i++) {
        if (start[i] != '`') {
            out[used++] = start[i];
        }
    }
    out[used] = '\0';
}

/* The key rows of the table under "## <section>": `| key | ... |` lines, split on `|`. The
 * server table has flag and environment columns before the default; the others do not. */
static inline void parse_table(const char *readme, const char *section, doc_table *t) {
    char heading[64];
    snprintf(heading, sizeof heading, "\n## %s\n", section);
    const char *p = strstr(readme, heading);
    cr_assert_not_null(p, "docs/configuration.md has no \"## %s\" section", section);
    bool server = strcmp(section, "server") == 0;
    t->n = 0;
    p = strstr(p, "\n|");
    cr_assert_not_null(p);
    for (p++; *p == '|'; p = strchr(p, '\n') + 1) {
        if (strncmp(p, "| `", 3) != 0) {
            continue; /* the header row and the separator */
        }
        cr_assert_lt(t->n, sizeof t->rows / sizeof t->rows[0]);
        doc_row *r = &t->rows[t->n++];
        memset(r, 0, sizeof *r);
        char *cells[] = {r->key, server ? r->flag : NULL, server ? r->env : NULL, r->def, r->range};
        size_t sizes[] = {sizeof r->key, sizeof r->flag, sizeof r->env, sizeof r->def,
                          sizeof r->range};
        const char *cell = p + 1;
        for (size_t c = 0; c < 5; c++) {
            if (!cells[c]) {
                continue;
            }
            const char *bar = strchr(cell, '|');
            cr_assert_not_null(bar, "a short row in ## %s", section);
            copy_cell(cells[c], sizes[c], cell, (size_t)(bar - cell));
            cell = bar + 1;
        }
    }
    cr_assert_gt(t->n, 0, "no rows under ## %s", section);
}

static inline const doc_row *find_row(const doc_table *t, const char *key) {
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->rows[i].key, key) == 0) {
            return &t->rows[i];
        }
    }
    return NULL;
}

/* A number as docs/configuration.md writes one: digits, or 10^N. */
static inline const char *parse_number(const char *s, uint64_t *out) {
    char *end;
    uint64_t v = strtoull(s, &end, 10);
    if (end == s) {
        return NULL;
    }
    if (v == 10 && *end == '^') {
        unsigned long e = strtoul(end + 1, &end, 10);
        for (v = 1; e > 0; e--) {
            v *= 10;
        }
    }
    *out = v;
    return end;
}

/* The first "A–B" in `cell` (after `after` when not NULL); false when there is none. */
static inline bool parse_range(const char *cell, const char *after, uint64_t *lo, uint64_t *hi) {
    const char *s = after ? strstr(cell, after) : cell;
    for (s = s ? s : ""; *s; s++) {
        if (*s < '0' || *s > '9' || (s > cell && s[-1] >= '0' && s[-1] <= '9')) {
            continue;
        }
        const char *end = parse_number(s, lo);
        if (end && strncmp(end, EN_DASH, 3) == 0 && parse_number(end + 3, hi)) {
            return true;
        }
    }
    return false;
}

/* "at most N" in a cell, or -1. */
static inline long at_most(const char *cell, const char *what) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "at most %%ld %s", what);
    for (const char *s = strstr(cell, "at most "); s; s = strstr(s + 1, "at most ")) {
        long v;
        if (sscanf(s, pattern, &v) == 1) {
            char probe[128];
            snprintf(probe, sizeof probe, "at most %ld %s", v, what);
            if (strncmp(s, probe, strlen(probe)) == 0) {
                return v;
            }
        }
    }
    return -1;
}

static inline uint64_t uint_field(const cbd_config_key *k, const void *base) {
    const char *field = (const char *)base + k->offset;
    if (k->size == sizeof(uint32_t)) {
        uint32_t v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    uint64_t v;
    memcpy(&v, field, sizeof v);
    return v;
}

static inline void *section_of(cbd_settings *cfg, const char *section) {
    if (strcmp(section, "server") == 0) {
        return cfg; /* the server rows' offsets are in cbd_settings (config.c) */
    }
    if (strcmp(section, "mcp") == 0) {
        return &cfg->api.mcp;
    }
    return strcmp(section, "warapp") == 0 ? (void *)&cfg->api.warapp
                                          : (void *)&cfg->api.duper_board;
}

/* Loads `json` over the defaults; true when it loaded. *p keeps what went wrong. */
static inline bool load_over_defaults(const char *json, cbd_settings *cfg, cbd_problem *p) {
    cbd_settings_defaults(cfg);
    cbd_problem_init(p);
    return cbd_config_load_text(cfg, json, strlen(json), p);
}

/* {"section": {"key": value}} loads, or is refused naming /section/key. */
static inline void expect_loads(const char *section, const char *key, const char *value, bool ok) {
    char json[1024], pointer[160];
    snprintf(json, sizeof json, "{\"%s\": {\"%s\": %s}}", section, key, value);
    snprintf(pointer, sizeof pointer, "/%s/%s", section, key);
    cbd_settings cfg;
    cbd_problem p;
    bool loaded = load_over_defaults(json, &cfg, &p);
    cr_expect_eq(loaded, ok, "%s: %s (%s)", json, ok ? "refused" : "accepted", p.detail);
    if (!ok && !loaded) {
        cr_expect(p.n_errors >= 1 && strncmp(p.errors[0].pointer, pointer, strlen(pointer)) == 0,
                  "%s: the error names %s, not %s", json, pointer,
                  p.n_errors ? p.errors[0].pointer : "nothing");
    }
}

/* docs/configuration.md's range is enforced: both ends load, one past either end is refused. */
static inline void expect_range_enforced(const char *section, const char *key, uint64_t lo,
                                         uint64_t hi) {
    char v[32];
    snprintf(v, sizeof v, "%llu", (unsigned long long)lo);
    expect_loads(section, key, v, true);
    snprintf(v, sizeof v, "%llu", (unsigned long long)hi);
    expect_loads(section, key, v, true);
    snprintf(v, sizeof v, "%llu", (unsigned long long)hi + 1);
    expect_loads(section, key, v, false);
    if (lo > 0) {
        snprintf(v, sizeof v, "%llu", (unsigned long long)lo - 1);
        expect_loads(section, key, v, false);
    }
}

#endif
