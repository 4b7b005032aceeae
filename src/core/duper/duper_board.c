/*
 * A Duper board (docs/rules.md D13): building it from a spec, checking the spec (D12's tile shape,
 * levels, pairs, keys) and reading it back. Battles on it are in duper_board_battle.c, the
 * options in duper_board_options.c.
 */
#include <stdlib.h>
#include <string.h>

#include "duper_board_internal.h"
#include "core/hash_index.h"

/* The probe's test for the id and owner tables: an empty slot, or one holding spec tile
 * index + 1 whose id (or owner) is `key`. Ids are short strings, and a request's tiles are few
 * enough that a hash index (src/core/hash_index.h) beats sorting them. */
typedef struct {
    const size_t *slots;
    const cbd_duper_tile_spec *tiles;
    const char *key;
    bool by_owner;
} spec_probe;

static bool spec_slot_done(const void *ctx, size_t i) {
    const spec_probe *q = ctx;
    if (q->slots[i] == 0) {
        return true;
    }
    const cbd_duper_tile_spec *t = &q->tiles[q->slots[i] - 1];
    return strcmp(q->by_owner ? t->owner : t->id, q->key) == 0;
}

/* The slot of `key` in a table of mask + 1 slots holding spec tile index + 1, keyed by the
 * tiles' ids (or owners): where it is, or the empty slot where it would go. */
static size_t probe(const size_t *slots, size_t mask, const char *key,
                    const cbd_duper_tile_spec *tiles, bool by_owner) {
    spec_probe q = {slots, tiles, key, by_owner};
    return cbd_hash_probe(cbd_hash_string(key), mask, spec_slot_done, &q);
}

static size_t table_size(size_t n) {
    size_t size = 16;
    while (size < 2 * n) {
        size *= 2;
    }
    return size;
}

static int string_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static cbd_status fail(cbd_duper_board_error *err, cbd_duper_board_fault fault, size_t index,
                       int member, const char *detail) {
    *err = (cbd_duper_board_error){fault, index, member, -1, false, detail};
    return CBD_ERR_INVALID;
}

static cbd_status shape_fail(cbd_duper_board_error *err, size_t index, int c, bool loaded,
                             const char *detail) {
    *err = (cbd_duper_board_error){CBD_BOARD_TILE_SHAPE, index, 0, c, loaded, detail};
    return CBD_ERR_INVALID;
}

/* D12: one ground troop class, one air class and one building (and one of it) on a tile; D9:
 * larvae only on NPC tiles, no capital there. */
static cbd_status check_units(const cbd_duper_tile_spec *t, size_t i, cbd_duper_board_error *err) {
    int ground = -1, building = -1;
    bool npc = t->owner == NULL;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->units[c] == 0) {
            continue;
        }
        cbd_duper_layer layer = cbd_duper_class_layer((cbd_duper_class)c);
        if (layer == CBD_DUPER_GROUND && ground >= 0) {
            return shape_fail(err, i, c, false,
                              "a tile holds at most one ground troop class (D12)");
        }
        if (layer == CBD_DUPER_BUILDING && (building >= 0 || t->units[c] > 1)) {
            return shape_fail(err, i, c, false, "a tile holds at most one building (D12)");
        }
        ground = layer == CBD_DUPER_GROUND ? c : ground;
        building = layer == CBD_DUPER_BUILDING ? c : building;
        if (c == CBD_DUPER_LARVA && !npc) {
            return shape_fail(err, i, c, false, "larvae stand only on NPC tiles (D9)");
        }
        if (cbd_duper_is_capital((cbd_duper_class)c) && npc) {
            return shape_fail(err, i, c, false, "an NPC tile holds no capital (D9)");
        }
    }
    return CBD_OK;
}

/* D5: planes carry the tile's ground troops (a stack of 2+ loads them, and they stay loaded
 * while one plane of the stack survives, so a board, which may be what battles left, needs 1);
 * D8: one supercapital. */
static cbd_status check_loaded(const cbd_duper_tile_spec *t, size_t i, cbd_duper_board_error *err) {
    bool npc = t->owner == NULL;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->loaded[c] == 0) {
            continue;
        }
        if (!cbd_duper_is_loadable((cbd_duper_class)c)) {
            return shape_fail(err, i, c, true, "planes carry ground troops only (D5)");
        }
        if (t->units[CBD_DUPER_PLANE] < 1) {
            return shape_fail(err, i, c, true, "needs a plane on the tile to carry troops (D5)");
        }
        if ((c == CBD_DUPER_LARVA && !npc) || (cbd_duper_is_capital((cbd_duper_class)c) && npc)) {
            return shape_fail(err, i, c, true,
                              "larvae ride only on NPC tiles, capitals never there (D9)");
        }
    }
    if (t->units[CBD_DUPER_SUPERCAPITAL] + t->loaded[CBD_DUPER_SUPERCAPITAL] > 1) {
        return shape_fail(err, i, CBD_DUPER_SUPERCAPITAL, t->loaded[CBD_DUPER_SUPERCAPITAL] > 0,
                          "a player has one supercapital (D8)");
    }
    return CBD_OK;
}

static cbd_status check_tile(const cbd_duper_tile_spec *t, size_t i, cbd_duper_board_error *err) {
    if (t->id == NULL || t->id[0] == '\0') {
        return fail(err, CBD_BOARD_TILE_ID, i, 0, "a tile id is a non-empty string (D13)");
    }
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->units[c] > CBD_DUPER_MAX_COUNT || t->loaded[c] > CBD_DUPER_MAX_COUNT) {
            *err = (cbd_duper_board_error){
                CBD_BOARD_TILE_COUNT,           i, 0, c, t->units[c] <= CBD_DUPER_MAX_COUNT,
                "at most 10^9 units of a class"};
            return CBD_ERR_INVALID;
        }
    }
    if (t->level < 1 || t->level > 3) {
        return fail(err, CBD_BOARD_TILE_LEVEL, i, 0, "a tile's level is 1, 2 or 3 (D13)");
    }
    cbd_status st = check_units(t, i, err);
    return st == CBD_OK ? check_loaded(t, i, err) : st;
}

/* The number of halvings that bring n to 1: the depth of a sort of n items. */
static uint64_t sort_depth(size_t n) {
    uint64_t d = 1;
    while (n > 1) {
        n >>= 1;
        d++;
    }
    return d;
}

static bool alloc_all(cbd_duper_board *b, cbd_budget *budget, size_t n_tiles, size_t n_pairs) {
    b->tiles = cbd_mem_calloc(budget, n_tiles ? n_tiles : 1, sizeof *b->tiles);
    b->id_mask = table_size(n_tiles) - 1;
    b->id_slots = cbd_mem_calloc(budget, b->id_mask + 1, sizeof *b->id_slots);
    b->adj_start = cbd_mem_calloc(budget, n_tiles + 1, sizeof *b->adj_start);
    b->adj = cbd_mem_calloc(budget, 2 * n_pairs + 1, sizeof *b->adj);
    b->pairs = cbd_mem_calloc(budget, n_pairs ? n_pairs : 1, sizeof *b->pairs);
    b->players = cbd_mem_calloc(budget, n_tiles ? n_tiles : 1, sizeof *b->players);
    return b->tiles && b->id_slots && b->adj_start && b->adj && b->pairs && b->players;
}

/* The players: every distinct owner, hashed while the tiles are read, then indexed in the
 * byte order of their colours. */
static cbd_status load_players(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                               cbd_budget *budget) {
    size_t mask = table_size(spec->n_tiles) - 1;
    size_t *slots = cbd_mem_calloc(budget, mask + 1, sizeof *slots);
    if (!slots) {
        return cbd_budget_nomem(budget);
    }
    for (size_t i = 0; i < spec->n_tiles; i++) {
        const char *owner = spec->tiles[i].owner;
        if (owner) {
            size_t slot = probe(slots, mask, owner, spec->tiles, true);
            if (slots[slot] == 0) {
                slots[slot] = i + 1;
                b->players[b->n_players++] = owner;
            }
        }
    }
    cbd_mem_free(slots);
    if (!cbd_charge(budget,
                    cbd_work_times(CBD_WORK_COMPARE, b->n_players * sort_depth(b->n_players)))) {
        return CBD_ERR_BUDGET;
    }
    qsort(b->players, b->n_players, sizeof *b->players, string_cmp);
    return CBD_OK;
}

/* The tiles, checked (D12, D13), and their ids hashed. */
static cbd_status load_tiles(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                             cbd_budget *budget, cbd_duper_board_error *err) {
    for (size_t i = 0; i < spec->n_tiles; i++) {
        const cbd_duper_tile_spec *t = &spec->tiles[i];
        cbd_status st = check_tile(t, i, err);
        if (st != CBD_OK) {
            return st;
        }
        size_t slot = probe(b->id_slots, b->id_mask, t->id, spec->tiles, false);
        if (b->id_slots[slot] != 0) {
            return fail(err, CBD_BOARD_TILE_ID, i, 0, "tile ids are unique (D13)");
        }
        b->id_slots[slot] = i + 1;
    }
    cbd_status st = load_players(b, spec, budget);
    if (st != CBD_OK) {
        return st;
    }
    for (size_t i = 0; i < spec->n_tiles; i++) {
        const cbd_duper_tile_spec *t = &spec->tiles[i];
        cbd_duper_board_tile *bt = &b->tiles[i];
        bt->id = t->id;
        bt->owner = t->owner ? cbd_duper_board_player_find(b, t->owner) : CBD_DUPER_BOARD_NPC;
        bt->level = t->level;
        memcpy(bt->units, t->units, sizeof bt->units);
        memcpy(bt->loaded, t->loaded, sizeof bt->loaded);
        bt->present = true;
    }
    return CBD_OK;
}

static int index_cmp(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* A list this long or shorter is sorted by insertion, whose cost CBD_WORK_BOARD_PAIR covers. */
#define SHORT_LIST 16

/* Sorts an adjacency list. A map's tiles have a handful of neighbours (insertion sort); a hub
 * listed against every tile, or a pair listed many times, gets qsort, charged before it runs
 * (insertion sort would cost the square of its length). */
static bool sort_list(size_t *v, size_t n, cbd_budget *budget) {
    if (n > SHORT_LIST) {
        if (!cbd_charge(budget, cbd_work_times(CBD_WORK_COMPARE, n * sort_depth(n)))) {
            return false;
        }
        qsort(v, n, sizeof *v, index_cmp);
        return true;
    }
    for (size_t i = 1; i < n; i++) {
        size_t x = v[i], j = i;
        for (; j > 0 && v[j - 1] > x; j--) {
            v[j] = v[j - 1];
        }
        v[j] = x;
    }
    return true;
}

/* Adjacency lists from the pairs, each neighbour once. */
static cbd_status load_pairs(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                             cbd_budget *budget, cbd_duper_board_error *err) {
    for (size_t p = 0; p < spec->n_pairs; p++) {
        for (int m = 0; m < 2; m++) {
            const char *id = spec->pairs[p].tile[m];
            b->pairs[p][m] = id ? cbd_duper_board_find(b, id) : CBD_DUPER_BOARD_NONE;
            if (b->pairs[p][m] == CBD_DUPER_BOARD_NONE) {
                return fail(err, CBD_BOARD_PAIR_UNKNOWN_TILE, p, m, "names no tile of the board");
            }
        }
        if (b->pairs[p][0] == b->pairs[p][1]) {
            return fail(err, CBD_BOARD_PAIR_SELF, p, 1, "a tile is not adjacent to itself");
        }
        b->adj_start[b->pairs[p][0] + 1]++;
        b->adj_start[b->pairs[p][1] + 1]++;
    }
    for (size_t i = 0; i < b->n_tiles; i++) {
        b->adj_start[i + 1] += b->adj_start[i];
    }
    size_t *fill = cbd_mem_calloc(budget, b->n_tiles ? b->n_tiles : 1, sizeof *fill);
    if (!fill) {
        return cbd_budget_nomem(budget);
    }
    for (size_t p = 0; p < spec->n_pairs; p++) {
        size_t x = b->pairs[p][0], y = b->pairs[p][1];
        b->adj[b->adj_start[x] + fill[x]++] = y;
        b->adj[b->adj_start[y] + fill[y]++] = x;
    }
    cbd_mem_free(fill);
    /* Compact each list in place: sorted, each neighbour once. */
    size_t out = 0;
    for (size_t i = 0; i < b->n_tiles; i++) {
        size_t lo = b->adj_start[i], hi = b->adj_start[i + 1];
        if (!sort_list(b->adj + lo, hi - lo, budget)) {
            return CBD_ERR_BUDGET;
        }
        b->adj_start[i] = out;
        for (size_t k = lo; k < hi; k++) {
            if (k == lo || b->adj[k] != b->adj[k - 1]) {
                b->adj[out++] = b->adj[k];
            }
        }
    }
    b->adj_start[b->n_tiles] = out;
    return CBD_OK;
}

/* By holder, then colour, then place in the spec (so that the last count given wins). */
typedef struct {
    cbd_duper_board_key key;
    size_t order;
} placed_key;

static int placed_key_cmp(const void *pa, const void *pb) {
    const placed_key *a = pa, *b = pb;
    if (a->key.holder != b->key.holder) {
        return a->key.holder < b->key.holder ? -1 : 1;
    }
    if (a->key.colour != b->key.colour) {
        return a->key.colour < b->key.colour ? -1 : 1;
    }
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Sorts the keys read and keeps the last count of each holder and colour. */
static cbd_status index_keys(cbd_duper_board *b, placed_key *placed, size_t n, cbd_budget *budget) {
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_COMPARE, n * sort_depth(n)))) {
        return CBD_ERR_BUDGET;
    }
    if (n > 1) {
        qsort(placed, n, sizeof *placed, placed_key_cmp);
    }
    b->keys = cbd_mem_alloc(budget, (n ? n : 1) * sizeof *b->keys);
    if (!b->keys) {
        return cbd_budget_nomem(budget);
    }
    for (size_t k = 0; k < n; k++) {
        bool same = k + 1 < n && placed[k + 1].key.holder == placed[k].key.holder &&
                    placed[k + 1].key.colour == placed[k].key.colour;
        if (!same) {
            b->keys[b->n_keys++] = placed[k].key;
        }
    }
    return CBD_OK;
}

static cbd_status load_keys(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                            cbd_budget *budget, cbd_duper_board_error *err) {
    size_t np = b->n_players;
    b->eliminated = cbd_mem_calloc(budget, np ? np : 1, sizeof *b->eliminated);
    placed_key *placed = cbd_mem_alloc(budget, (spec->n_keys ? spec->n_keys : 1) * sizeof *placed);
    cbd_status st = b->eliminated && placed ? CBD_OK : cbd_budget_nomem(budget);
    for (size_t k = 0; k < spec->n_keys && st == CBD_OK; k++) {
        const cbd_duper_keys_spec *ks = &spec->keys[k];
        int32_t holder = ks->holder ? cbd_duper_board_player_find(b, ks->holder) : -1;
        int32_t colour = ks->colour ? cbd_duper_board_player_find(b, ks->colour) : -1;
        if (holder < 0 || colour < 0) {
            st = fail(err, CBD_BOARD_KEYS_UNKNOWN_PLAYER, k, holder < 0 ? 0 : 1,
                      "names no player that owns a tile of the board (D13)");
        } else if (ks->count > CBD_DUPER_MAX_KEYS) {
            st = fail(err, CBD_BOARD_KEYS_COUNT, k, 1, "at most 1000 keys of a colour");
        } else {
            placed[k] = (placed_key){{holder, colour, ks->count}, k};
        }
    }
    if (st == CBD_OK) {
        st = index_keys(b, placed, spec->n_keys, budget);
    }
    cbd_mem_free(placed);
    return st;
}

/* What building the board costs, charged before any of it is done: every tile checked and
 * hashed, every pair looked up and listed, every key looked up. */
static uint64_t build_work(const cbd_duper_board_spec *spec) {
    uint64_t tiles = cbd_work_times(CBD_WORK_BOARD_TILE, spec->n_tiles);
    uint64_t pairs = cbd_work_times(CBD_WORK_BOARD_PAIR, spec->n_pairs);
    uint64_t keys = cbd_work_times(CBD_WORK_BOARD_PAIR, spec->n_keys);
    uint64_t sum = tiles + pairs;
    sum = sum < tiles ? UINT64_MAX : sum;
    return sum + keys < sum ? UINT64_MAX : sum + keys;
}

cbd_status cbd_duper_board_create(const cbd_duper_board_spec *spec, cbd_budget *budget,
                                  cbd_duper_board **out, cbd_duper_board_error *err) {
    *out = NULL;
    *err = (cbd_duper_board_error){CBD_BOARD_FINE, 0, 0, -1, false, NULL};
    if (!cbd_charge(budget, build_work(spec))) {
        return CBD_ERR_BUDGET;
    }
    cbd_duper_board *b = cbd_mem_calloc(budget, 1, sizeof *b);
    if (!b) {
        return cbd_budget_nomem(budget);
    }
    b->n_tiles = spec->n_tiles;
    b->n_pairs = spec->n_pairs;
    cbd_status st =
        alloc_all(b, budget, spec->n_tiles, spec->n_pairs) ? CBD_OK : cbd_budget_nomem(budget);
    if (st == CBD_OK) {
        st = load_tiles(b, spec, budget, err);
    }
    if (st == CBD_OK) {
        st = load_pairs(b, spec, budget, err);
    }
    if (st == CBD_OK) {
        st = load_keys(b, spec, budget, err);
    }
    if (st != CBD_OK) {
        cbd_duper_board_destroy(b);
        return st;
    }
    *out = b;
    return CBD_OK;
}

void cbd_duper_board_destroy(cbd_duper_board *b) {
    if (!b) {
        return;
    }
    cbd_mem_free(b->tiles);
    cbd_mem_free(b->id_slots);
    cbd_mem_free(b->adj_start);
    cbd_mem_free(b->adj);
    cbd_mem_free(b->pairs);
    cbd_mem_free(b->players);
    cbd_mem_free(b->eliminated);
    cbd_mem_free(b->keys);
    cbd_mem_free(b);
}

size_t cbd_duper_board_tile_count(const cbd_duper_board *b) {
    return b->n_tiles;
}

const cbd_duper_board_tile *cbd_duper_board_tile_at(const cbd_duper_board *b, size_t index) {
    return index < b->n_tiles ? &b->tiles[index] : NULL;
}

/* The probe's test for the board's id table: an empty slot, or the tile of id `key`. */
typedef struct {
    const cbd_duper_board *b;
    const char *key;
} board_probe;

static bool board_slot_done(const void *ctx, size_t i) {
    const board_probe *q = ctx;
    return q->b->id_slots[i] == 0 || strcmp(q->b->tiles[q->b->id_slots[i] - 1].id, q->key) == 0;
}

static size_t probe_tiles(const cbd_duper_board *b, const char *id) {
    board_probe q = {b, id};
    return cbd_hash_probe(cbd_hash_string(id), b->id_mask, board_slot_done, &q);
}

size_t cbd_duper_board_find(const cbd_duper_board *b, const char *id) {
    size_t slot = b->id_slots[probe_tiles(b, id)];
    return slot ? slot - 1 : CBD_DUPER_BOARD_NONE;
}

bool cbd_duper_board_pair_present(const cbd_duper_board *b, size_t index) {
    return index < b->n_pairs && b->tiles[b->pairs[index][0]].present &&
           b->tiles[b->pairs[index][1]].present;
}

size_t cbd_duper_board_player_count(const cbd_duper_board *b) {
    return b->n_players;
}

const char *cbd_duper_board_player_name(const cbd_duper_board *b, int32_t player) {
    return player >= 0 && (size_t)player < b->n_players ? b->players[player] : NULL;
}

int32_t cbd_duper_board_player_find(const cbd_duper_board *b, const char *colour) {
    const char **e = bsearch(&colour, b->players, b->n_players, sizeof *b->players, string_cmp);
    return e ? (int32_t)(e - b->players) : CBD_DUPER_BOARD_NPC;
}

bool cbd_duper_board_player_eliminated(const cbd_duper_board *b, int32_t player) {
    return player >= 0 && (size_t)player < b->n_players && b->eliminated[player];
}

uint64_t cbd_duper_board_keys(const cbd_duper_board *b, int32_t holder, int32_t colour) {
    size_t lo = 0, hi = b->n_keys;
    while (lo < hi) { /* the first entry not before (holder, colour) */
        size_t mid = lo + (hi - lo) / 2;
        const cbd_duper_board_key *k = &b->keys[mid];
        if (k->holder < holder || (k->holder == holder && k->colour < colour)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    bool found = lo < b->n_keys && b->keys[lo].holder == holder && b->keys[lo].colour == colour;
    return found ? b->keys[lo].count : 0;
}

bool cbdp_duper_board_can_attack(const cbd_duper_board_tile *t, cbd_duper_kind kind) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->units[c] > 0 && cbd_duper_takes_part(kind, (cbd_duper_class)c)) {
            return true;
        }
    }
    return false;
}
