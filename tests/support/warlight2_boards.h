#ifndef COMBATD_TEST_WARLIGHT2_BOARDS_H
#define COMBATD_TEST_WARLIGHT2_BOARDS_H

/*
 * Eleven /plan-turn requests on a real map: the AI Games warlight2 engine's
 * example map (tests/data/warlight2-example-map.json, Apache-2.0, see tests/data/README.md and
 * NOTICE): 64 regions, 13 super regions with bonuses, borders listed on one side only (W24
 * reads them both ways). Header-only, for the planner's api test and bench/bench_plan.c, so
 * that both search the same boards.
 *
 * Each board is drawn from its own fixed seed: the player "me" and "bob" hold 7-12 regions
 * each, a connected group grown region by region from a random seed region (each step a
 * random unowned region bordering the group), with 1-10 armies each; every other region is
 * neutral with 2-10; income 5-10; luck 0.16, the other settings the defaults; no other order.
 * Territory ids are the map's region ids ("1".."64", in that order), bonus ids its super
 * region ids. The goals:
 *   boards 0-4   the whole frontier (every region not the player's bordering one of its),
 *                `expected` (under `all` such a goal is worth 0 to every plan);
 *   boards 5-8   the rest of a bonus the player partly owns (`goal.bonuses`, the board's
 *                `bonuses` the map's super regions), drawn among those whose rest is within a
 *                turn's reach (at most two regions, each bordering the player's: the players
 *                are drawn again until there is one), two regions where some lack two,
 *                `all` and `expected` in turn;
 *   board 9      `income` over the bonuses the player partly owns (`goal.bonuses`), one of
 *                them within reach as above;
 *   board 10     `income` over every bonus of the board (no goal), likewise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define WL2_BOARDS  11
#define WL2_REGIONS 64
#define WL2_BONUSES 13

typedef struct {
    int super[WL2_REGIONS + 1];                 /* by region id: its super region's id */
    int listed[WL2_REGIONS + 1][8];             /* the neighbours the file lists for it */
    int n_listed[WL2_REGIONS + 1];              /* ... how many */
    bool adj[WL2_REGIONS + 1][WL2_REGIONS + 1]; /* symmetric */
    int bonus_value[WL2_BONUSES + 1];           /* by super region id */
} wl2_map;

/* The map file's path: the source tree from the environment (ctest sets it) or, for the bench,
 * from the build. */
static inline const char *wl2_map_path(char *buf, size_t size) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
#ifdef COMBATD_SOURCE_DIR
    dir = dir ? dir : COMBATD_SOURCE_DIR;
#endif
    snprintf(buf, size, "%s/tests/data/warlight2-example-map.json", dir ? dir : ".");
    return buf;
}

/* Reads the map; false (with a message on stderr) when the file is missing or not the map. */
static inline bool wl2_map_load(wl2_map *m) {
    memset(m, 0, sizeof *m);
    char path[4096];
    json_error_t e;
    json_t *doc = json_load_file(wl2_map_path(path, sizeof path), 0, &e);
    const json_t *regions = json_object_get(doc, "Regions");
    const json_t *supers = json_object_get(doc, "SuperRegions");
    bool ok = json_array_size(regions) == WL2_REGIONS && json_array_size(supers) == WL2_BONUSES;
    for (size_t i = 0; ok && i < WL2_REGIONS; i++) {
        const json_t *r = json_array_get(regions, i);
        json_int_t id = json_integer_value(json_object_get(r, "id"));
        const json_t *nb = json_object_get(r, "neighbors");
        ok = id >= 1 && id <= WL2_REGIONS && json_array_size(nb) <= 8;
        for (size_t k = 0; ok && k < json_array_size(nb); k++) {
            json_int_t n = json_integer_value(json_array_get(nb, k));
            ok = n >= 1 && n <= WL2_REGIONS;
            m->listed[id][m->n_listed[id]++] = (int)n;
            m->adj[id][n] = m->adj[n][id] = ok;
        }
        m->super[ok ? id : 0] = (int)json_integer_value(json_object_get(r, "superRegion"));
    }
    for (size_t i = 0; ok && i < WL2_BONUSES; i++) {
        const json_t *s = json_array_get(supers, i);
        json_int_t id = json_integer_value(json_object_get(s, "id"));
        ok = id >= 1 && id <= WL2_BONUSES;
        m->bonus_value[ok ? id : 0] = (int)json_integer_value(json_object_get(s, "bonus"));
    }
    if (!ok) {
        fprintf(stderr, "%s: not the warlight2 example map (%s)\n", path, doc ? "" : e.text);
    }
    json_decref(doc);
    return ok;
}

/* The boards' own generator (the tests' LCG), one stream per board. */
static inline uint64_t wl2_rnd(uint64_t *state, uint64_t n) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (*state >> 33) % n;
}

/* Whether region r borders a region of `who`. */
static inline bool wl2_borders(const wl2_map *m, const int *owner, int r, int who) {
    for (int u = 1; u <= WL2_REGIONS; u++) {
        if (m->adj[r][u] && owner[u] == who) {
            return true;
        }
    }
    return false;
}

/* Grows a connected group of `size` regions for `who` (1 me, 2 bob) on unowned regions, from a
 * random seed region, each step a random unowned region bordering the group; a seed whose
 * group cannot grow that large (walled in) is undone and another drawn. */
static inline void wl2_grow(const wl2_map *m, uint64_t *rng, int *owner, int who, int size) {
    for (;;) {
        int seed = 1 + (int)wl2_rnd(rng, WL2_REGIONS), have = 1;
        if (owner[seed] != 0) {
            continue;
        }
        owner[seed] = who;
        while (have < size) {
            int cand[WL2_REGIONS], n = 0;
            for (int r = 1; r <= WL2_REGIONS; r++) {
                if (owner[r] == 0 && wl2_borders(m, owner, r, who)) {
                    cand[n++] = r;
                }
            }
            if (n == 0) {
                break;
            }
            owner[cand[wl2_rnd(rng, (uint64_t)n)]] = who;
            have++;
        }
        if (have == size) {
            return;
        }
        for (int r = 1; r <= WL2_REGIONS; r++) {
            owner[r] = owner[r] == who ? 0 : owner[r];
        }
    }
}

/* The board's `bonuses`: every super region, its regions ascending. */
static inline json_t *wl2_bonuses(const wl2_map *m) {
    json_t *bonuses = json_object();
    for (int s = 1; s <= WL2_BONUSES; s++) {
        json_t *terr = json_array();
        for (int r = 1; r <= WL2_REGIONS; r++) {
            if (m->super[r] == s) {
                char id[8];
                snprintf(id, sizeof id, "%d", r);
                json_array_append_new(terr, json_string(id));
            }
        }
        char id[8];
        snprintf(id, sizeof id, "%d", s);
        json_object_set_new(
            bonuses, id, json_pack("{s:i,s:o}", "value", m->bonus_value[s], "territories", terr));
    }
    return bonuses;
}

/* How a bonus stands for the player ("me"): 0 none of it, 1 part of it, 2 part of it with what it
 * lacks within a turn's reach (at most two regions, each bordering one of the player's),
 * 3 the whole of it. */
static inline int wl2_held(const wl2_map *m, const int *owner, int s) {
    int mine = 0, lack = 0, near = 0;
    for (int r = 1; r <= WL2_REGIONS; r++) {
        if (m->super[r] == s) {
            mine += owner[r] == 1;
            lack += owner[r] != 1;
            near += owner[r] != 1 && wl2_borders(m, owner, r, 1);
        }
    }
    return mine == 0 ? 0 : lack == 0 ? 3 : lack <= 2 && near == lack ? 2 : 1;
}

/* How many regions of super region s the player lacks. */
static inline int wl2_lacks(const wl2_map *m, const int *owner, int s) {
    int lack = 0;
    for (int r = 1; r <= WL2_REGIONS; r++) {
        lack += m->super[r] == s && owner[r] != 1;
    }
    return lack;
}

/* The board's `territories`: the map's regions in id order with their listed neighbours, the
 * owners' and the armies drawn (the players' 1-10, the neutrals' 2-10). */
static inline json_t *wl2_territories(const wl2_map *m, uint64_t *rng, const int *owner) {
    static const char *const owners[3] = {"neutral", "me", "bob"};
    json_t *terr = json_object();
    for (int r = 1; r <= WL2_REGIONS; r++) {
        json_t *nb = json_array();
        for (int k = 0; k < m->n_listed[r]; k++) {
            char id[8];
            snprintf(id, sizeof id, "%d", m->listed[r][k]);
            json_array_append_new(nb, json_string(id));
        }
        json_int_t armies =
            owner[r] == 0 ? 2 + (json_int_t)wl2_rnd(rng, 9) : 1 + (json_int_t)wl2_rnd(rng, 10);
        char id[8];
        snprintf(id, sizeof id, "%d", r);
        json_object_set_new(terr, id,
                            json_pack("{s:s,s:I,s:o}", "owner", owners[owner[r]], "armies", armies,
                                      "neighbors", nb));
    }
    return terr;
}

/* Board b (0 <= b < WL2_BOARDS) as a /plan-turn request; the caller decrefs it. */
static inline json_t *wl2_board(const wl2_map *m, int b) {
    uint64_t rng = UINT64_C(0x57A12) + UINT64_C(7919) * (uint64_t)b;
    int owner[WL2_REGIONS + 1]; /* 0 neutral, 1 me, 2 bob */
    int near[WL2_BONUSES], n_near;
    do { /* a bonus goal needs a bonus whose rest is within reach, or every plan is worth 0 */
        memset(owner, 0, sizeof owner);
        wl2_grow(m, &rng, owner, 1, 7 + (int)wl2_rnd(&rng, 6));
        wl2_grow(m, &rng, owner, 2, 7 + (int)wl2_rnd(&rng, 6));
        n_near = 0; /* those whose rest is two regions, else one */
        for (int lack = 2; lack >= 1 && n_near == 0; lack--) {
            for (int s = 1; s <= WL2_BONUSES; s++) {
                near[n_near] = s;
                n_near += wl2_held(m, owner, s) == 2 && wl2_lacks(m, owner, s) == lack;
            }
        }
    } while (b >= 5 && n_near == 0);
    json_t *req =
        json_pack("{s:o,s:s,s:I,s:{s:f},s:[]}", "territories", wl2_territories(m, &rng, owner),
                  "player", "me", "income", (json_int_t)(5 + wl2_rnd(&rng, 6)), "settings",
                  "luck_modifier", 0.16, "orders");
    json_t *goal = json_object(), *list = json_array();
    char id[8];
    if (b < 5) {
        for (int r = 1; r <= WL2_REGIONS; r++) {
            if (owner[r] != 1 && wl2_borders(m, owner, r, 1)) {
                snprintf(id, sizeof id, "%d", r);
                json_array_append_new(list, json_string(id));
            }
        }
        json_object_set_new(goal, "capture", list);
        json_object_set_new(req, "objective", json_string("expected"));
    } else if (b < 9) {
        snprintf(id, sizeof id, "%d", near[wl2_rnd(&rng, (uint64_t)n_near)]);
        json_array_append_new(list, json_string(id));
        json_object_set_new(goal, "bonuses", list);
        json_object_set_new(req, "objective", json_string(b % 2 ? "all" : "expected"));
    } else {
        for (int s = 1; s <= WL2_BONUSES; s++) {
            if (wl2_held(m, owner, s) == 1 || wl2_held(m, owner, s) == 2) {
                snprintf(id, sizeof id, "%d", s);
                json_array_append_new(list, json_string(id));
            }
        }
        json_object_set_new(goal, "bonuses", list);
        json_object_set_new(req, "objective", json_string("income"));
    }
    if (b >= 5) {
        json_object_set_new(req, "bonuses", wl2_bonuses(m));
    }
    if (b == 10) {
        json_decref(goal); /* every bonus of the board is valued */
    } else {
        json_object_set_new(req, "goal", goal);
    }
    return req;
}

#endif
