/*
 * A Duper board (RULINGS.md D13): building it from a spec, checking the spec (D12's tile shape,
 * levels, pairs, keys) and reading it back. Battles on it are in duper_board_battle.c, the
 * options in duper_board_options.c.
 */
#include <stdlib.h>
#include <string.h>

#include "duper_board_internal.h"

static int by_id_cmp(const void *a, const void *b) {
    /* strcmp compares as unsigned char: the byte order D14 names. */
    return strcmp(((const id_entry *)a)->id, ((const id_entry *)b)->id);
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

/* D5: a stack of 2+ planes carries the tile's ground troops; D8: one supercapital. */
static cbd_status check_loaded(const cbd_duper_tile_spec *t, size_t i, cbd_duper_board_error *err) {
    bool npc = t->owner == NULL;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->loaded[c] == 0) {
            continue;
        }
        if (!cbd_duper_is_loadable((cbd_duper_class)c)) {
            return shape_fail(err, i, c, true, "planes carry ground troops only (D5)");
        }
        if (t->units[CBD_DUPER_PLANE] < 2) {
            return shape_fail(err, i, c, true,
                              "needs a stack of at least 2 planes to carry troops (D5)");
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

static bool alloc_all(cbd_duper_board *b, size_t n_tiles, size_t n_pairs) {
    b->tiles = calloc(n_tiles ? n_tiles : 1, sizeof *b->tiles);
    b->by_id = calloc(n_tiles ? n_tiles : 1, sizeof *b->by_id);
    b->rank = calloc(n_tiles ? n_tiles : 1, sizeof *b->rank);
    b->adj_start = calloc(n_tiles + 1, sizeof *b->adj_start);
    b->adj = calloc(2 * n_pairs + 1, sizeof *b->adj);
    b->pairs = calloc(n_pairs ? n_pairs : 1, sizeof *b->pairs);
    b->players = calloc(n_tiles ? n_tiles : 1, sizeof *b->players);
    return b->tiles && b->by_id && b->rank && b->adj_start && b->adj && b->pairs && b->players;
}

/* The tiles, their ids in byte order, and the players (every distinct owner). */
static cbd_status load_tiles(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                             cbd_duper_board_error *err) {
    for (size_t i = 0; i < spec->n_tiles; i++) {
        const cbd_duper_tile_spec *t = &spec->tiles[i];
        cbd_status st = check_tile(t, i, err);
        if (st != CBD_OK) {
            return st;
        }
        b->by_id[i] = (id_entry){t->id, i};
        if (t->owner) {
            b->players[b->n_players++] = t->owner;
        }
    }
    qsort(b->by_id, b->n_tiles, sizeof *b->by_id, by_id_cmp);
    for (size_t r = 0; r < b->n_tiles; r++) {
        if (r > 0 && strcmp(b->by_id[r - 1].id, b->by_id[r].id) == 0) {
            size_t later = b->by_id[r].index > b->by_id[r - 1].index ? b->by_id[r].index
                                                                     : b->by_id[r - 1].index;
            return fail(err, CBD_BOARD_TILE_ID, later, 0, "tile ids are unique (D13)");
        }
        b->rank[b->by_id[r].index] = r;
    }
    qsort(b->players, b->n_players, sizeof *b->players, string_cmp);
    size_t n = 0;
    for (size_t i = 0; i < b->n_players; i++) {
        if (n == 0 || strcmp(b->players[n - 1], b->players[i]) != 0) {
            b->players[n++] = b->players[i];
        }
    }
    b->n_players = n;
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

static int size_cmp(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Adjacency lists from the pairs: ranks sorted and deduplicated, then turned into indices. */
static cbd_status load_pairs(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                             cbd_duper_board_error *err) {
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
    size_t *fill = calloc(b->n_tiles ? b->n_tiles : 1, sizeof *fill);
    if (!fill) {
        return CBD_ERR_NOMEM;
    }
    for (size_t p = 0; p < spec->n_pairs; p++) {
        size_t x = b->pairs[p][0], y = b->pairs[p][1];
        b->adj[b->adj_start[x] + fill[x]++] = b->rank[y];
        b->adj[b->adj_start[y] + fill[y]++] = b->rank[x];
    }
    free(fill);
    /* Compact each list in place: sorted by rank, each neighbour once. */
    size_t out = 0;
    for (size_t i = 0; i < b->n_tiles; i++) {
        size_t lo = b->adj_start[i], hi = b->adj_start[i + 1];
        qsort(b->adj + lo, hi - lo, sizeof *b->adj, size_cmp);
        b->adj_start[i] = out;
        for (size_t k = lo; k < hi; k++) {
            if (k == lo || b->adj[k] != b->adj[k - 1]) {
                b->adj[out++] = b->adj[k];
            }
        }
    }
    b->adj_start[b->n_tiles] = out;
    for (size_t k = 0; k < out; k++) {
        b->adj[k] = b->by_id[b->adj[k]].index;
    }
    return CBD_OK;
}

static cbd_status load_keys(cbd_duper_board *b, const cbd_duper_board_spec *spec,
                            cbd_duper_board_error *err) {
    size_t np = b->n_players;
    b->eliminated = calloc(np ? np : 1, sizeof *b->eliminated);
    b->keys = calloc(np ? np * np : 1, sizeof *b->keys);
    if (!b->eliminated || !b->keys) {
        return CBD_ERR_NOMEM;
    }
    for (size_t k = 0; k < spec->n_keys; k++) {
        const cbd_duper_keys_spec *ks = &spec->keys[k];
        int32_t holder = ks->holder ? cbd_duper_board_player_find(b, ks->holder) : -1;
        int32_t colour = ks->colour ? cbd_duper_board_player_find(b, ks->colour) : -1;
        if (holder < 0 || colour < 0) {
            return fail(err, CBD_BOARD_KEYS_UNKNOWN_PLAYER, k, holder < 0 ? 0 : 1,
                        "names no player that owns a tile of the board (D13)");
        }
        if (ks->count > CBD_DUPER_MAX_KEYS) {
            return fail(err, CBD_BOARD_KEYS_COUNT, k, 1, "at most 1000 keys of a colour");
        }
        b->keys[(size_t)holder * np + (size_t)colour] = ks->count;
    }
    return CBD_OK;
}

cbd_status cbd_duper_board_create(const cbd_duper_board_spec *spec, cbd_duper_board **out,
                                  cbd_duper_board_error *err) {
    *out = NULL;
    *err = (cbd_duper_board_error){CBD_BOARD_FINE, 0, 0, -1, false, NULL};
    cbd_duper_board *b = calloc(1, sizeof *b);
    if (!b) {
        return CBD_ERR_NOMEM;
    }
    b->n_tiles = spec->n_tiles;
    b->n_pairs = spec->n_pairs;
    cbd_status st = alloc_all(b, spec->n_tiles, spec->n_pairs) ? CBD_OK : CBD_ERR_NOMEM;
    if (st == CBD_OK) {
        st = load_tiles(b, spec, err);
    }
    if (st == CBD_OK) {
        st = load_pairs(b, spec, err);
    }
    if (st == CBD_OK) {
        st = load_keys(b, spec, err);
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
    free(b->tiles);
    free(b->by_id);
    free(b->rank);
    free(b->adj_start);
    free(b->adj);
    free(b->pairs);
    free(b->players);
    free(b->eliminated);
    free(b->keys);
    free(b);
}

size_t cbd_duper_board_tile_count(const cbd_duper_board *b) {
    return b->n_tiles;
}

const cbd_duper_board_tile *cbd_duper_board_tile_at(const cbd_duper_board *b, size_t index) {
    return index < b->n_tiles ? &b->tiles[index] : NULL;
}

size_t cbd_duper_board_find(const cbd_duper_board *b, const char *id) {
    id_entry key = {id, 0};
    const id_entry *e = bsearch(&key, b->by_id, b->n_tiles, sizeof *b->by_id, by_id_cmp);
    return e ? e->index : CBD_DUPER_BOARD_NONE;
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
    if (holder < 0 || colour < 0 || (size_t)holder >= b->n_players ||
        (size_t)colour >= b->n_players) {
        return 0;
    }
    return b->keys[(size_t)holder * b->n_players + (size_t)colour];
}

bool cbd_duper_board_can_attack(const cbd_duper_board_tile *t, cbd_duper_kind kind) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->units[c] > 0 && cbd_duper_takes_part(kind, (cbd_duper_class)c)) {
            return true;
        }
    }
    return false;
}
