/*
 * Random boards: every battle of a run equals cbd_duper_resolve called with the support the
 * board implies, worked out here independently (by scanning the pairs, D14), and the board
 * after each run equals the one this file's own D15/D16 model leaves, member for member.
 */
#include <stdlib.h>

#include "duper_board_fixture.h"

#define MAX_TILES   14
#define MAX_PAIRS   40
#define MAX_ATTACKS 5
#define NPC         CBD_DUPER_BOARD_NPC

static const char *const colours[] = {"blue", "green", "red"}; /* byte order = player index */

typedef struct {
    char ids[MAX_TILES][4];
    cbd_duper_tile_spec tiles[MAX_TILES];
    size_t n_tiles;
    cbd_duper_pair_spec pairs[MAX_PAIRS];
    size_t pair_tiles[MAX_PAIRS][2];
    size_t n_pairs;
    cbd_duper_keys_spec keys[9];
    uint64_t key_count[3][3];
    size_t n_keys;
    /* The model's state. */
    int32_t owner[MAX_TILES];
    bool present[MAX_TILES];
    uint64_t units[MAX_TILES][CBD_DUPER_CLASS_COUNT], loaded[MAX_TILES][CBD_DUPER_CLASS_COUNT];
} world;

static uint64_t rnd(uint64_t *s, uint64_t n) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (*s >> 33) % n;
}

static void random_tile(world *w, size_t i, uint64_t *s) {
    static const char alphabet[] = "aBz0_";
    size_t len = 1 + rnd(s, 3);
    for (size_t k = 0; k < len; k++) {
        w->ids[i][k] = alphabet[rnd(s, 5)];
    }
    w->ids[i][len] = '\0';
    int32_t owner = (int32_t)rnd(s, 4) - 1;
    cbd_duper_tile_spec *t = &w->tiles[i];
    *t = tile(w->ids[i], owner == NPC ? NULL : colours[owner], 1 + (uint32_t)rnd(s, 3));
    static const int ground[] = {SOLDIER, TANK, TANK, SUPER};
    int g = owner == NPC ? LARVA : ground[rnd(s, 4)];
    t->units[g] = g == SUPER ? rnd(s, 2) : rnd(s, 7);
    t->units[PLANE] = rnd(s, 5);
    static const int building[] = {FORT, CENTER, CAP1, -1, -1};
    int bl = building[rnd(s, owner == NPC ? 2 : 5)];
    if (bl >= 0) {
        t->units[bl] = 1;
    }
    if (t->units[PLANE] >= 2 && rnd(s, 2)) {
        t->loaded[owner == NPC ? LARVA : (g == SUPER ? SOLDIER : g)] = 1 + rnd(s, 3);
    }
    w->owner[i] = owner;
    w->present[i] = true;
    memcpy(w->units[i], t->units, sizeof t->units);
    memcpy(w->loaded[i], t->loaded, sizeof t->loaded);
}

static bool id_taken(const world *w, size_t i) {
    for (size_t k = 0; k < i; k++) {
        if (strcmp(w->ids[k], w->ids[i]) == 0) {
            return true;
        }
    }
    return false;
}

static void random_world(world *w, uint64_t *s) {
    memset(w, 0, sizeof *w);
    w->n_tiles = 4 + rnd(s, MAX_TILES - 3);
    for (size_t i = 0; i < w->n_tiles; i++) {
        do {
            random_tile(w, i, s);
        } while (id_taken(w, i));
    }
    /* Few enough pairs that no side has over 8 supporting tiles. */
    w->n_pairs = rnd(s, 2 * w->n_tiles);
    for (size_t p = 0; p < w->n_pairs; p++) {
        size_t x = rnd(s, w->n_tiles), y;
        do {
            y = rnd(s, w->n_tiles);
        } while (y == x);
        w->pair_tiles[p][0] = x, w->pair_tiles[p][1] = y;
        w->pairs[p] = (cbd_duper_pair_spec){{w->ids[x], w->ids[y]}};
    }
    for (int h = 0; h < 3; h++) {
        for (int c = 0; c < 3; c++) {
            if (h != c && rnd(s, 2)) {
                w->key_count[h][c] = rnd(s, 4);
                w->keys[w->n_keys++] =
                    (cbd_duper_keys_spec){colours[h], colours[c], w->key_count[h][c]};
            }
        }
    }
}

static bool owned_by_someone(const world *w, int32_t player) {
    for (size_t i = 0; i < w->n_tiles; i++) {
        if (w->owner[i] == player) {
            return true;
        }
    }
    return false;
}

/* D14 by scanning every pair: the owner's tiles with tanks beside `center`, but not `other`,
 * each once, in the byte order of ids. */
static size_t model_support(const world *w, size_t center, size_t other, int32_t owner,
                            size_t *list) {
    size_t n = 0;
    for (size_t p = 0; p < w->n_pairs; p++) {
        for (int m = 0; m < 2; m++) {
            size_t x = w->pair_tiles[p][m], y = w->pair_tiles[p][1 - m];
            bool listed = false;
            for (size_t k = 0; k < n; k++) {
                listed = listed || list[k] == y;
            }
            if (x == center && y != other && !listed && w->present[y] && w->owner[y] == owner &&
                w->units[y][TANK] > 0) {
                list[n++] = y;
            }
        }
    }
    for (size_t i = 1; i < n; i++) { /* insertion sort by id bytes */
        for (size_t j = i; j > 0 && strcmp(w->ids[list[j - 1]], w->ids[list[j]]) > 0; j--) {
            size_t t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    }
    return n;
}

static void fill_side(cbd_duper_side *side, const world *w, size_t tile, const size_t *support,
                      size_t n) {
    memcpy(side->units, w->units[tile], sizeof side->units);
    memcpy(side->loaded, w->loaded[tile], sizeof side->loaded);
    side->n_support = n;
    for (size_t i = 0; i < n; i++) {
        side->support_tanks[i] = w->units[support[i]][TANK];
        side->support_fort[i] = w->units[support[i]][FORT];
    }
}

static bool can_attack(const world *w, size_t s, cbd_duper_kind kind) {
    if (kind == LONG) {
        return w->units[s][PLANE] > 0;
    }
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (w->units[s][c] > 0 && (c == FORT || cbd_duper_class_layer(c) != CBD_DUPER_BUILDING)) {
            return true;
        }
    }
    return false;
}

/* D15, written out again: losses off their tiles, the capture, the eliminations. */
static void model_apply(world *w, size_t s, size_t t, int32_t attacker, int32_t defender,
                        const size_t support[2][CBD_DUPER_MAX_SUPPORT], const size_t n[2],
                        const cbd_duper_result *r) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        w->units[s][c] -= r->losses[A].units[c] + r->moved_in_units[c];
        w->loaded[s][c] -= r->losses[A].loaded[c] + r->moved_in_loaded[c];
        w->units[t][c] -= r->losses[D].units[c];
        w->loaded[t][c] -= r->losses[D].loaded[c];
        w->units[t][c] += r->moved_in_units[c];
        w->loaded[t][c] += r->moved_in_loaded[c];
    }
    for (int side = 0; side < 2; side++) {
        for (size_t i = 0; i < n[side]; i++) {
            w->units[support[side][i]][TANK] -= r->losses[side].support_tanks[i];
            w->units[support[side][i]][FORT] -= r->losses[side].support_fort[i];
        }
    }
    if (r->captured) {
        w->owner[t] = attacker;
    }
    for (size_t i = 0; i < w->n_tiles; i++) {
        bool gone = (r->eliminated[A] && w->owner[i] == attacker) ||
                    (r->eliminated[D] && defender != NPC && w->owner[i] == defender);
        w->present[i] = w->present[i] && !gone;
    }
}

/* One attack of the run in the model, checked against the board's answer. */
static void model_attack(world *w, const cbd_duper_rules *rules, const cbd_duper_attack_spec *a,
                         int32_t attacker, uint64_t seed, const cbd_duper_board_battle *got) {
    size_t s = got->from, t = got->to;
    cr_assert_str_eq(w->ids[s], a->from);
    cbd_duper_skip want = CBD_DUPER_RAN;
    if (!w->present[s] || w->owner[s] != attacker) {
        want = CBD_DUPER_SKIP_SOURCE_LOST;
    } else if (!can_attack(w, s, a->kind)) {
        want = CBD_DUPER_SKIP_NOTHING;
    } else if (!w->present[t]) {
        want = CBD_DUPER_SKIP_TARGET_GONE;
    } else if (w->owner[t] == attacker) {
        want = CBD_DUPER_SKIP_TARGET_OWN;
    }
    cr_assert_eq(got->skipped, want, "%s -> %s", a->from, a->to);
    if (want != CBD_DUPER_RAN) {
        return;
    }
    size_t support[2][CBD_DUPER_MAX_SUPPORT + MAX_TILES], n[2];
    int32_t defender = w->owner[t];
    n[A] = model_support(w, s, t, attacker, support[A]);
    n[D] = defender == NPC ? 0 : model_support(w, t, s, defender, support[D]);
    cr_assert(n[A] <= CBD_DUPER_MAX_SUPPORT && n[D] <= CBD_DUPER_MAX_SUPPORT);
    cbd_duper_battle b;
    memset(&b, 0, sizeof b);
    b.kind = a->kind;
    b.npc = defender == NPC;
    b.level = w->tiles[t].level;
    b.keys = b.npc ? 0 : w->key_count[defender][attacker];
    fill_side(&b.attack, w, s, support[A], n[A]);
    fill_side(&b.defense, w, t, support[D], n[D]);
    cr_expect_eq(memcmp(&b, &got->battle, sizeof b), 0, "battle %s -> %s", a->from, a->to);
    for (int side = 0; side < 2; side++) {
        cr_assert_eq(got->n_support[side], n[side]);
        for (size_t i = 0; i < n[side]; i++) {
            cr_expect_eq(got->support[side][i], support[side][i]);
        }
    }
    cbd_duper_result r;
    cr_assert_eq(cbd_duper_resolve(rules, &b, seed, &r), CBD_OK);
    cr_expect_eq(memcmp(&r, &got->result, sizeof r), 0, "result %s -> %s", a->from, a->to);
    size_t used[2][CBD_DUPER_MAX_SUPPORT];
    memcpy(used[A], support[A], sizeof used[A]);
    memcpy(used[D], support[D], sizeof used[D]);
    model_apply(w, s, t, attacker, defender, (const size_t(*)[CBD_DUPER_MAX_SUPPORT])used, n, &r);
}

static size_t random_attacks(const world *w, uint64_t *s, cbd_duper_attack_spec *a,
                             int32_t *attacker) {
    size_t n = 0;
    for (int tries = 0; tries < 200 && n < MAX_ATTACKS; tries++) {
        size_t from = rnd(s, w->n_tiles), to = rnd(s, w->n_tiles);
        cbd_duper_kind kind = rnd(s, 3) == 0 ? LONG : NORMAL;
        bool adjacent = false;
        for (size_t p = 0; p < w->n_pairs; p++) {
            adjacent = adjacent || (w->pair_tiles[p][0] == from && w->pair_tiles[p][1] == to) ||
                       (w->pair_tiles[p][1] == from && w->pair_tiles[p][0] == to);
        }
        if (w->owner[from] == NPC || w->owner[to] == w->owner[from] ||
            (kind == NORMAL && !adjacent)) {
            continue;
        }
        attacker[n] = w->owner[from];
        a[n++] = (cbd_duper_attack_spec){w->ids[from], w->ids[to], kind};
    }
    return n;
}

/* Keys name players (D13): keep the entries whose two players own a tile. */
static size_t usable_keys(world *w, cbd_duper_keys_spec *keys) {
    size_t n = 0;
    for (int h = 0; h < 3; h++) {
        for (int c = 0; c < 3; c++) {
            if (!owned_by_someone(w, h) || !owned_by_someone(w, c)) {
                w->key_count[h][c] = 0;
            }
        }
    }
    for (size_t k = 0; k < w->n_keys; k++) {
        int32_t h = -1, c = -1;
        for (int32_t p = 0; p < 3; p++) {
            h = strcmp(w->keys[k].holder, colours[p]) == 0 ? p : h;
            c = strcmp(w->keys[k].colour, colours[p]) == 0 ? p : c;
        }
        if (owned_by_someone(w, h) && owned_by_someone(w, c)) {
            keys[n++] = w->keys[k];
        }
    }
    return n;
}

static void expect_same_board(const world *w, const cbd_duper_board *b) {
    for (size_t i = 0; i < w->n_tiles; i++) {
        const cbd_duper_board_tile *t = cbd_duper_board_tile_at(b, i);
        cr_expect_eq(t->present, w->present[i], "tile %s", w->ids[i]);
        cr_expect_eq(t->owner, w->owner[i] == NPC
                                   ? NPC
                                   : cbd_duper_board_player_find(b, colours[w->owner[i]]));
        cr_expect_eq(memcmp(t->units, w->units[i], sizeof t->units), 0, "tile %s", w->ids[i]);
        cr_expect_eq(memcmp(t->loaded, w->loaded[i], sizeof t->loaded), 0, "tile %s", w->ids[i]);
    }
    for (size_t p = 0; p < w->n_pairs; p++) {
        cr_expect_eq(cbd_duper_board_pair_present(b, p),
                     w->present[w->pair_tiles[p][0]] && w->present[w->pair_tiles[p][1]]);
    }
}

Test(duper_board_random, board_battles_equal_resolve_with_the_support_the_pairs_imply) {
    uint64_t s = 14;
    size_t ran = 0, skipped = 0, captured = 0, eliminations = 0;
    for (int round = 0; round < 3000; round++) {
        static world w;
        random_world(&w, &s);
        cbd_duper_keys_spec keys[9];
        size_t n_keys = usable_keys(&w, keys);
        cbd_duper_board *b = make_board(w.tiles, w.n_tiles, w.pairs, w.n_pairs, keys, n_keys);
        /* The board's players are indexed in byte order, as colours[] is; the model's
         * indices must be the board's for the key counts to line up. */
        int32_t map[3];
        for (int p = 0; p < 3; p++) {
            map[p] = cbd_duper_board_player_find(b, colours[p]);
        }
        cbd_duper_attack_spec a[MAX_ATTACKS];
        int32_t attacker[MAX_ATTACKS];
        size_t n = random_attacks(&w, &s, a, attacker);
        cbd_duper_rules rules = cbd_duper_default_rules();
        rules.key_buff_per_key = (uint32_t)rnd(&s, 3);
        uint64_t seed = rnd(&s, 1000);
        cbd_duper_board_battle out[MAX_ATTACKS];
        cbd_duper_board_error err;
        cr_assert_eq(cbd_duper_board_run(b, &rules, a, n, seed, NULL, out, &err), CBD_OK, "%s",
                     err.detail ? err.detail : "");
        for (size_t i = 0; i < n; i++) {
            cr_assert_eq(out[i].attacker, map[attacker[i]]);
            model_attack(&w, &rules, &a[i], attacker[i], seed + i, &out[i]);
            ran += out[i].skipped == CBD_DUPER_RAN;
            skipped += out[i].skipped != CBD_DUPER_RAN;
            captured += out[i].skipped == CBD_DUPER_RAN && out[i].result.captured;
            eliminations += out[i].skipped == CBD_DUPER_RAN &&
                            (out[i].result.eliminated[A] || out[i].result.eliminated[D]);
        }
        expect_same_board(&w, b);
        cbd_duper_board_destroy(b);
    }
    /* The boards exercise every path: battles won and lost, skips and eliminations. */
    cr_expect_gt(ran, 1000, "%zu battles", ran);
    cr_expect_gt(captured, 100, "%zu captures", captured);
    cr_expect_gt(skipped, 100, "%zu skips", skipped);
    cr_expect_gt(eliminations, 20, "%zu eliminations", eliminations);
}
