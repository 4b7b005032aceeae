#ifndef COMBATD_TEST_DUPER_COSTLY_H
#define COMBATD_TEST_DUPER_COSTLY_H

/*
 * The costliest legal requests of the Duper endpoints at the default limits (duper.max_board_
 * tiles 2000, max_board_pairs 8000, max_board_attacks 64, long_distance_range 0: anywhere),
 * written as JSON text. Shared by tests/unit/api/test_duper_budget_api.c, which shows each one
 * ends within its budget, and bench/bench_budget.c, which prints what each one spends.
 * Header-only and without Criterion, so a benchmark can use it.
 *
 * The board bodies are larger than the default server.body_limit (64 KiB): an operator may
 * raise that limit, and the budget must hold whatever it is.
 */
#include "costly_text.h"

#define COSTLY_TILES   2000
#define COSTLY_PAIRS   8000
#define COSTLY_ATTACKS 64

/*
 * /duper/battle: every side at its fullest. 10^9 of each class a tile may hold, planes loaded
 * with 10^9 soldiers and 10^9 tanks, 8 supporting tiles of 10^9 tanks and a fort on each side,
 * 1000 keys and a capital on the defending tile (the card-steal draw).
 */
static inline char *duper_fullest_battle(void) {
    costly_buf t = {NULL, 0, 0};
    costly_add(&t, "{\"attack\": {\"player\": \"red\", \"tile\": {\"units\": {\"soldier\": "
                   "1000000000, \"plane\": 1000000000, \"fort\": 1}, \"loaded\": {\"soldier\": "
                   "1000000000, \"tank\": 1000000000}}, \"support\": [");
    for (int i = 0; i < 8; i++) {
        costly_add(&t, "{\"tanks\": 1000000000, \"fort\": true}%s", i < 7 ? ", " : "");
    }
    costly_add(&t, "]}, \"defense\": {\"player\": \"blue\", \"keys\": 1000, \"tile\": {\"level\": "
                   "3, \"units\": {\"tank\": 1000000000, \"plane\": 1000000000, \"capital_lv3\": "
                   "1}, \"loaded\": {\"soldier\": 1000000000, \"supercapital\": 1}}, "
                   "\"support\": [");
    for (int i = 0; i < 8; i++) {
        costly_add(&t, "{\"tanks\": 999999999, \"fort\": true}%s", i < 7 ? ", " : "");
    }
    costly_add(&t, "]}, \"seed\": 9007199254740991}");
    return t.p;
}

/* A tile with the most a board tile may hold: one ground class, planes, a building, loaded
 * troops (D12, D5). */
static inline void costly_tile(costly_buf *t, const char *id, const char *owner, int level,
                               const char *ground, unsigned long long count,
                               unsigned long long planes, const char *building) {
    costly_add(t,
               "\"%s\": {\"owner\": \"%s\", \"level\": %d, \"units\": {\"%s\": %llu, \"plane\": "
               "%llu%s%s%s}, \"loaded\": {\"%s\": %llu}}, ",
               id, owner, level, ground, count, planes, building ? ", \"" : "",
               building ? building : "", building ? "\": 1" : "",
               strcmp(owner, "npc") == 0 ? "larva" : "soldier", planes);
}

/*
 * /duper/board/battle: 64 attacks, each from its own red tile on a tile of its own player (64
 * players, each holding 1000 red keys, each target a level-3 tile with a capital), each side
 * with 8 supporting tiles of 10^9 tanks and a fort (the most D14 allows), and the source and
 * target tiles each adjacent to 54 NPC tiles, so that every battle walks long adjacency lists:
 * 64 + 64 + 2 · 512 battle and support tiles, 848 NPC tiles, 8000 pairs. Every tile holds
 * 10^9 of its classes, so that the board read and written back is as long as a board can be.
 */
static inline char *duper_fullest_board_battle(void) {
    costly_buf t = {NULL, 0, 0};
    char id[32], owner[32];
    costly_add(&t, "{\"board\": {\"tiles\": {");
    for (int k = 0; k < COSTLY_ATTACKS; k++) {
        snprintf(id, sizeof id, "s%d", k);
        costly_tile(&t, id, "red", 1, "soldier", 1000000000ull, 1000000000ull, "fort");
        snprintf(id, sizeof id, "t%d", k);
        snprintf(owner, sizeof owner, "p%d", k);
        costly_tile(&t, id, owner, 3, "soldier", 1000000000ull - (unsigned long long)k,
                    1000000000ull, "capital_lv1");
        for (int j = 0; j < 8; j++) {
            snprintf(id, sizeof id, "sa%d_%d", k, j);
            costly_tile(&t, id, "red", 2, "tank", 1000000000ull, 1000000000ull, "fort");
            snprintf(id, sizeof id, "sd%d_%d", k, j);
            costly_tile(&t, id, owner, 2, "tank", 1000000000ull, 1000000000ull, "fort");
        }
    }
    int n_npc = COSTLY_TILES - COSTLY_ATTACKS * 18;
    for (int i = 0; i < n_npc; i++) {
        snprintf(id, sizeof id, "n%d", i);
        costly_tile(&t, id, "npc", 1, "larva", 1000000000ull, 1000000000ull, NULL);
    }
    costly_unadd_comma(&t);
    costly_add(&t, "}, \"adjacent\": [");
    int pairs = 0;
    for (int k = 0; k < COSTLY_ATTACKS; k++) {
        costly_add(&t, "[\"s%d\", \"t%d\"], ", k, k);
        pairs++;
        for (int j = 0; j < 8; j++) {
            costly_add(&t, "[\"s%d\", \"sa%d_%d\"], [\"t%d\", \"sd%d_%d\"], ", k, k, j, k, k, j);
            pairs += 2;
        }
    }
    /* The rest joins every source and target to NPC tiles, round the NPC tiles in turn. */
    for (int i = 0; pairs < COSTLY_PAIRS; i++, pairs++) {
        int battle_tile = i % (2 * COSTLY_ATTACKS);
        costly_add(&t, "[\"%c%d\", \"n%d\"], ", battle_tile % 2 ? 't' : 's', battle_tile / 2,
                   i % n_npc);
    }
    costly_unadd_comma(&t);
    costly_add(&t, "], \"keys\": {");
    for (int k = 0; k < COSTLY_ATTACKS; k++) {
        costly_add(&t, "\"p%d\": {\"red\": 1000}%s", k, k + 1 < COSTLY_ATTACKS ? ", " : "");
    }
    costly_add(&t, "}}, \"attacks\": [");
    for (int k = 0; k < COSTLY_ATTACKS; k++) {
        costly_add(&t, "{\"from\": \"s%d\", \"to\": \"t%d\"}%s", k, k,
                   k + 1 < COSTLY_ATTACKS ? ", " : "");
    }
    costly_add(&t, "], \"seed\": 1}");
    return t.p;
}

/*
 * /duper/board/options: red holds 1000 tiles, each with planes, a soldier and a fort, and 1000
 * other players hold one tile each, every one of them holding red keys; at range 0 each red tile
 * attacks every other tile long-distance (10^6 options) and its 8 neighbours normally (8000
 * pairs, each between a red tile and another's). The red tiles come in order of rising power,
 * each 4000 above the one before (more than the spread of the targets' defense, and than what
 * a normal attack adds: the soldier and the fort), and the
 * targets in order of falling defense, so that from the second red tile on every option found
 * is the best so far: it enters the list of the best kept and walks all the way down it (the
 * most ranking work an option can cost).
 */
static inline char *duper_fullest_board_options(int range) {
    costly_buf t = {NULL, 0, 0};
    char id[32], owner[32];
    const int half = COSTLY_TILES / 2;
    costly_add(&t, "{\"board\": {\"tiles\": {");
    for (int i = 0; i < half; i++) {
        snprintf(id, sizeof id, "r%d", i);
        costly_tile(&t, id, "red", 1, "soldier", 1, 1000000ull + 1000ull * (unsigned long long)i,
                    "fort");
    }
    for (int i = 0; i < half; i++) {
        snprintf(id, sizeof id, "o%d", i);
        snprintf(owner, sizeof owner, "p%d", i);
        costly_tile(&t, id, owner, 1 + i % 3, "soldier", 9000000ull - (unsigned long long)i,
                    9000000ull - (unsigned long long)i, "fort");
    }
    costly_unadd_comma(&t);
    costly_add(&t, "}, \"adjacent\": [");
    for (int p = 0; p < COSTLY_PAIRS; p++) {
        int r = p / 8, o = (r * 8 + p % 8 * 125) % half;
        costly_add(&t, "[\"r%d\", \"o%d\"]%s", r, o, p + 1 < COSTLY_PAIRS ? ", " : "");
    }
    costly_add(&t, "], \"keys\": {");
    for (int i = 0; i < half; i++) {
        costly_add(&t, "\"p%d\": {\"red\": %d}%s", i, i % 1001, i + 1 < half ? ", " : "");
    }
    costly_add(&t, "}}, \"player\": \"red\", \"long_distance_range\": %d}", range);
    return t.p;
}

#endif
