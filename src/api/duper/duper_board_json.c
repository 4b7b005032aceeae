/*
 * A Duper board on the way in and out (D13, D15): the request's board read into the core's
 * specs, the core's faults named by their JSON pointers, and the board written back in the
 * request's shape. Shared by /duper/board/battle and /duper/board/options.
 */
#include "duper_board_json.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "duper_battle_render.h"
#include "duper_tile_json.h"
#include "duper_rules_json.h"

/* Tile ids: short names, in bytes, as the contract says of them (member names have no
 * maxLength); player colours are CBD_DUPER_NAME_MAX characters. */
#define TILE_ID_MAX_BYTES 64

static const char *const board_keys[] = {"tiles", "adjacent", "keys", NULL};
static const char *const tile_keys[] = {"owner", "level", "units", "loaded", NULL};

/* An allocation of the budget failed: the 422 of a spent budget naming `member`, or the 500
 * of out-of-memory. Returns false. */
static bool no_memory(const cbd_board_read *b, const char *member) {
    return cbd_api_core_problem(b->cfg, b->budget, cbd_budget_nomem(b->budget), member,
                                b->board.problem);
}

/* Charges `n` items of `weight` units; false with the 422 naming `member` when that spends
 * the budget (and nothing more recorded when an earlier part spent it). */
static bool charge(const cbd_board_read *b, uint64_t weight, size_t n, const char *member) {
    if (cbd_budget_spent(b->budget)) {
        return false;
    }
    if (cbd_charge(b->budget, cbd_work_times(weight, n))) {
        return true;
    }
    return cbd_api_core_problem(b->cfg, b->budget, CBD_ERR_BUDGET, member, b->board.problem);
}

/* A member that must be an object whose names are the caller's (tile ids, players): *at is
 * the reader there; false when absent (nothing recorded) or not an object (recorded). */
static bool open_map(cbd_reader *at, const cbd_reader *r, const char *key, const char *what) {
    cbd_reader_at(at, r, key);
    if (!at->obj || json_is_null(at->obj)) {
        return false;
    }
    if (!json_is_object(at->obj)) {
        cbd_reader_error(r, key, "must be an object %s, not %s", what, cbd_json_type_name(at->obj));
        return false;
    }
    return true;
}

static void read_tile(const cbd_reader *tiles, const char *id, cbd_duper_tile_spec *t) {
    t->id = id;
    t->level = 1; /* D13: a level-1 tile unless said */
    size_t len = strlen(id);
    if (len == 0 || len > TILE_ID_MAX_BYTES) {
        cbd_reader_error(tiles, id, "a tile id is a non-empty string of at most %d bytes (D13)",
                         TILE_ID_MAX_BYTES);
    }
    cbd_reader tr;
    if (cbd_read_object(tiles, id, tile_keys, &tr) != CBD_FIELD_OK) {
        return;
    }
    const char *owner = NULL;
    if (cbd_read_text(&tr, "owner", CBD_DUPER_NAME_MAX, &owner) == CBD_FIELD_ABSENT) {
        cbd_reader_error(&tr, "owner",
                         "is required: a player's colour, or \"" CBD_DUPER_NPC_NAME "\" (D13)");
    }
    bool npc = owner && strcmp(owner, CBD_DUPER_NPC_NAME) == 0;
    t->owner = npc ? NULL : owner;
    uint64_t level = 1;
    if (cbd_read_u64(&tr, "level", 1, 3, &level) == CBD_FIELD_OK) {
        t->level = (uint32_t)level;
    }
    cbdp_duper_read_counts(&tr, "units", false, t->units);
    cbdp_duper_read_counts(&tr, "loaded", true, t->loaded);
    cbd_duper_side side;
    memset(&side, 0, sizeof side);
    memcpy(side.units, t->units, sizeof side.units);
    memcpy(side.loaded, t->loaded, sizeof side.loaded);
    /* D5, D8, D9, D12, each named by its pointer; a board tile may be a battle's leftovers. */
    cbdp_duper_check_tile(&tr, &side, npc, CBD_DUPER_CARRYING_PLANES);
}

static bool read_tiles(cbd_board_read *b, const cbd_duper_board_config *limits) {
    cbd_reader tiles;
    if (!open_map(&tiles, &b->board, "tiles", "of tiles by id")) {
        if (!tiles.obj || json_is_null(tiles.obj)) {
            cbd_reader_error(&b->board, "tiles", "is required: the board's tiles by id (D13)");
        }
        return false;
    }
    size_t n = json_object_size(tiles.obj);
    if (n > limits->max_board_tiles) {
        cbd_reader_error(&b->board, "tiles",
                         "has %zu tiles; at most %u are allowed (duper.max_board_tiles)", n,
                         limits->max_board_tiles);
        return false;
    }
    if (!charge(b, CBD_WORK_BOARD_READ_TILE, n, "/board/tiles")) {
        return false;
    }
    b->tiles = cbd_mem_calloc(b->budget, n ? n : 1, sizeof *b->tiles);
    if (!b->tiles) {
        return no_memory(b, "/board/tiles");
    }
    const char *id;
    const json_t *v;
    size_t i = 0;
    json_object_foreach((json_t *)tiles.obj, id, v) {
        (void)v;
        read_tile(&tiles, id, &b->tiles[i++]);
    }
    b->spec.tiles = b->tiles;
    b->spec.n_tiles = n;
    return true;
}

/* The request's tile `id` (a JSON object, or NULL when there is none). */
static const json_t *tile_of(const cbd_board_read *b, const char *id) {
    const json_t *tiles = cbd_reader_member(&b->board, "tiles");
    return json_is_object(tiles) ? json_object_get(tiles, id) : NULL;
}

/* The references the core would refuse one at a time, checked here so that one answer lists
 * every bad pair (the core stays the backstop). */
static void check_pair(const cbd_board_read *b, size_t i, const char *const id[2]) {
    cbd_reader at;
    cbd_reader_at_item(&at, &b->board, "adjacent", i);
    for (size_t m = 0; m < 2; m++) {
        if (!tile_of(b, id[m])) {
            cbd_reader_item_error(&at, NULL, m, "names no tile of the board (D13)");
        }
    }
    if (strcmp(id[0], id[1]) == 0) {
        cbd_reader_item_error(&b->board, "adjacent", i, "a tile is not adjacent to itself");
    }
}

static bool read_pairs(cbd_board_read *b, const cbd_duper_board_config *limits) {
    const json_t *arr;
    if (cbd_read_array(&b->board, "adjacent", limits->max_board_pairs, &arr) != CBD_FIELD_OK) {
        return true; /* absent: no pairs; bad: recorded */
    }
    size_t n = json_array_size(arr);
    if (!charge(b, CBD_WORK_BOARD_READ_PAIR, n, "/board/adjacent")) {
        return false;
    }
    b->pairs = cbd_mem_calloc(b->budget, n ? n : 1, sizeof *b->pairs);
    if (!b->pairs) {
        return no_memory(b, "/board/adjacent");
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *pair = json_array_get(arr, i);
        const json_t *a = json_array_get(pair, 0), *z = json_array_get(pair, 1);
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_string(a) ||
            !json_is_string(z)) {
            cbd_reader_item_error(&b->board, "adjacent", i,
                                  "must be a pair of tile ids, such as [\"a1\", \"b1\"] (D13)");
            continue;
        }
        b->pairs[i].tile[0] = json_string_value(a);
        b->pairs[i].tile[1] = json_string_value(z);
        check_pair(b, i, b->pairs[i].tile);
    }
    b->spec.pairs = b->pairs;
    b->spec.n_pairs = n;
    return true;
}

/* {holder: {colour: count}}: every holder's object is checked, then the counts read. */
static bool read_keys(cbd_board_read *b) {
    cbd_reader keys;
    if (!open_map(&keys, &b->board, "keys", "of keys by holder")) {
        return true;
    }
    size_t n = 0;
    const char *holder;
    const json_t *v;
    json_object_foreach((json_t *)keys.obj, holder, v) {
        cbd_reader hr;
        if (open_map(&hr, &keys, holder, "of key counts by colour")) {
            n += json_object_size(v);
        } else if (!v || json_is_null(v)) {
            cbd_reader_error(&keys, holder, "must be an object of key counts by colour (D13)");
        }
    }
    if (!charge(b, 2 * CBD_WORK_BOARD_READ_PAIR, n, "/board/keys")) {
        return false;
    }
    b->keys = cbd_mem_calloc(b->budget, n ? n : 1, sizeof *b->keys);
    if (!b->keys) {
        return no_memory(b, "/board/keys");
    }
    json_object_foreach((json_t *)keys.obj, holder, v) {
        if (!json_is_object(v)) {
            continue;
        }
        cbd_reader hr;
        cbd_reader_at(&hr, &keys, holder);
        const char *colour;
        const json_t *count;
        json_object_foreach((json_t *)v, colour, count) {
            (void)count;
            uint64_t c = 0;
            if (cbd_read_u64(&hr, colour, 0, CBD_DUPER_MAX_KEYS, &c) != CBD_FIELD_BAD) {
                b->keys[b->spec.n_keys++] = (cbd_duper_keys_spec){holder, colour, c};
            }
        }
    }
    b->spec.keys = b->keys;
    return true;
}

/* The member of /board whose size drives the work of building the board: its tiles or its
 * adjacency pairs, for the 422 of a spent budget. */
static const char *costly_member(const cbd_board_read *b) {
    uint64_t tiles =
        cbd_work_times(CBD_WORK_BOARD_TILE + CBD_WORK_BOARD_READ_TILE, b->spec.n_tiles);
    uint64_t pairs =
        cbd_work_times(CBD_WORK_BOARD_PAIR + CBD_WORK_BOARD_READ_PAIR, b->spec.n_pairs);
    return tiles >= pairs ? "/board/tiles" : "/board/adjacent";
}

cbd_read_status cbdp_board_json_read(const cbd_reader *root, const cbd_config *cfg,
                                     cbd_budget *budget, cbd_board_read *out) {
    memset(out, 0, sizeof *out);
    out->cfg = cfg;
    out->budget = budget;
    const cbd_duper_board_config *limits = &cfg->duper_board;
    cbd_field f = cbd_read_object(root, "board", board_keys, &out->board);
    if (f == CBD_FIELD_ABSENT) {
        cbd_reader_error(root, "board", "is required: tiles, adjacent and keys (D13)");
    }
    if (f != CBD_FIELD_OK) {
        return cbd_api_read_status(false, root->problem);
    }
    /* Each part is read even when another failed, so one answer lists every bad field. */
    bool ok = read_tiles(out, limits);
    ok &= read_pairs(out, limits);
    ok &= read_keys(out);
    if (cbd_budget_spent(budget) && root->problem->status == 0) {
        /* A block taken from the budget charges its fresh pages as work (budget.c), which can
         * spend the budget with no charge here failing: the next part then stops unnamed. It is
         * named as the build names it. */
        (void)cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, costly_member(out), root->problem);
    }
    return cbd_api_read_status(ok, root->problem);
}

void cbdp_board_read_free(cbd_board_read *b) {
    cbd_mem_free(b->tiles);
    cbd_mem_free(b->pairs);
    cbd_mem_free(b->keys);
    b->tiles = NULL;
    b->pairs = NULL;
    b->keys = NULL;
}

static const char *owner_json(const json_t *tile) {
    return json_string_value(json_object_get(tile, "owner"));
}

void cbdp_board_check_attack(const cbd_board_read *b, const cbd_reader *attack, const char *from,
                             const char *to) {
    const json_t *s = from ? tile_of(b, from) : NULL, *t = to ? tile_of(b, to) : NULL;
    if (from && !s) {
        cbd_reader_error(attack, "from", "names no tile of the board");
    }
    if (to && !t) {
        cbd_reader_error(attack, "to", "names no tile of the board");
    }
    const char *attacker = owner_json(s), *defender = owner_json(t);
    if (attacker && strcmp(attacker, CBD_DUPER_NPC_NAME) == 0) {
        cbd_reader_error(attack, "from", "is an NPC tile: NPC tiles never attack (D9)");
    } else if (attacker && defender && strcmp(attacker, defender) == 0) {
        cbd_reader_error(attack, "to",
                         "is the attacker's own tile: an attack needs another owner's");
    }
}

bool cbdp_board_build(const cbd_board_read *b, cbd_duper_board **out, cbd_problem *problem) {
    cbd_duper_board_error err;
    cbd_status st = cbd_duper_board_create(&b->spec, b->budget, out, &err);
    if (st == CBD_ERR_NOMEM || st == CBD_ERR_BUDGET) {
        return cbd_api_core_problem(b->cfg, b->budget, st, costly_member(b), problem);
    }
    if (st != CBD_OK) {
        cbdp_board_fault(b, NULL, &err);
        return false;
    }
    return true;
}

static void tile_fault(const cbd_board_read *b, const cbd_duper_board_error *err) {
    cbd_reader tiles, tile, part;
    cbd_reader_at(&tiles, &b->board, "tiles");
    const char *id = b->tiles[err->index].id;
    cbd_reader_at(&tile, &tiles, id);
    if (err->fault == CBD_BOARD_TILE_ID) {
        cbd_reader_error(&tiles, id, "%s", err->detail);
    } else if (err->fault == CBD_BOARD_TILE_LEVEL) {
        cbd_reader_error(&tile, "level", "%s", err->detail);
    } else {
        cbd_reader_at(&part, &tile, err->loaded ? "loaded" : "units");
        cbd_reader_error(&part, cbd_duper_class_name((cbd_duper_class)err->cls), "%s", err->detail);
    }
}

static void keys_fault(const cbd_board_read *b, const cbd_duper_board_error *err) {
    cbd_reader keys, holder;
    const cbd_duper_keys_spec *k = &b->keys[err->index];
    cbd_reader_at(&keys, &b->board, "keys");
    if (err->member == 0) {
        cbd_reader_error(&keys, k->holder, "%s", err->detail);
    } else {
        cbd_reader_at(&holder, &keys, k->holder);
        cbd_reader_error(&holder, k->colour, "%s", err->detail);
    }
}

void cbdp_board_fault(const cbd_board_read *b, const cbd_reader *root,
                      const cbd_duper_board_error *err) {
    cbd_reader at;
    switch (err->fault) {
        case CBD_BOARD_FINE:
            return;
        case CBD_BOARD_TILE_ID:
        case CBD_BOARD_TILE_SHAPE:
        case CBD_BOARD_TILE_COUNT:
        case CBD_BOARD_TILE_LEVEL:
            tile_fault(b, err);
            return;
        case CBD_BOARD_PAIR_UNKNOWN_TILE:
            cbd_reader_at_item(&at, &b->board, "adjacent", err->index);
            cbd_reader_item_error(&at, NULL, (size_t)err->member, "%s", err->detail);
            return;
        case CBD_BOARD_PAIR_SELF:
            cbd_reader_item_error(&b->board, "adjacent", err->index, "%s", err->detail);
            return;
        case CBD_BOARD_KEYS_UNKNOWN_PLAYER:
        case CBD_BOARD_KEYS_COUNT:
            keys_fault(b, err);
            return;
        case CBD_BOARD_ATTACK_SUPPORT:
            cbd_reader_item_error(root, "attacks", err->index, "%s (D14)", err->detail);
            return;
        case CBD_BOARD_ATTACK_UNKNOWN_TILE:
        case CBD_BOARD_ATTACK_NPC_SOURCE:
        case CBD_BOARD_ATTACK_OWN_TARGET:
        case CBD_BOARD_ATTACK_NOT_ADJACENT:
            cbd_reader_at_item(&at, root, "attacks", err->index);
            cbd_reader_error(&at, err->member ? "to" : "from", "%s", err->detail);
            return;
    }
}

const char *cbdp_board_owner_name(const cbd_duper_board *board, int32_t owner) {
    return owner == CBD_DUPER_BOARD_NPC ? CBD_DUPER_NPC_NAME
                                        : cbd_duper_board_player_name(board, owner);
}

void cbdp_board_read_rules(const cbd_reader *root, const cbd_config *cfg, cbd_duper_rules *rules) {
    *rules = cfg->duper;
    cbd_reader rr;
    if (cbd_read_object(root, "rules", cbd_duper_rules_keys, &rr) == CBD_FIELD_OK) {
        cbd_duper_rules_read(&rr, rules);
    }
}

/* {class: count} for the classes present, in class order. */
static void counts_json(cbd_jw *w, const char *key, const uint64_t *counts) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (counts[c] > 0) {
            cbd_jw_key_uint(w, cbd_duper_class_name((cbd_duper_class)c), counts[c]);
        }
    }
    cbd_jw_object_close(w);
}

static void tile_json(cbd_jw *w, const cbd_duper_board *board, const cbd_duper_board_tile *t) {
    cbd_jw_key_any(w, t->id);
    cbd_jw_object_open(w);
    cbd_jw_key(w, "owner");
    cbd_jw_string(w, cbdp_board_owner_name(board, t->owner));
    cbd_jw_key_uint(w, "level", t->level);
    counts_json(w, "units", t->units);
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->loaded[c] > 0) {
            counts_json(w, "loaded", t->loaded);
            break;
        }
    }
    cbd_jw_object_close(w);
}

/* The request's keys between players that still hold a tile, grouped by holder as sent. */
static void keys_json(cbd_jw *w, const cbd_duper_board *board, const cbd_board_read *b,
                      const bool *holds) {
    cbd_jw_key(w, "keys");
    cbd_jw_object_open(w);
    const char *open_holder = NULL;
    for (size_t k = 0; k < b->spec.n_keys; k++) {
        const cbd_duper_keys_spec *ks = &b->keys[k];
        int32_t h = cbd_duper_board_player_find(board, ks->holder);
        int32_t c = cbd_duper_board_player_find(board, ks->colour);
        if (h < 0 || c < 0 || !holds[h] || !holds[c]) {
            continue;
        }
        if (open_holder != ks->holder) {
            if (open_holder) {
                cbd_jw_object_close(w);
            }
            cbd_jw_key_any(w, ks->holder);
            cbd_jw_object_open(w);
            open_holder = ks->holder;
        }
        cbd_jw_key_any(w, ks->colour);
        cbd_jw_uint(w, ks->count);
    }
    if (open_holder) {
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
}

bool cbdp_board_write(cbd_jw *w, const cbd_duper_board *board, const cbd_board_read *b,
                      cbd_problem *problem) {
    size_t np = cbd_duper_board_player_count(board);
    uint64_t tiles = cbd_work_times(CBD_WORK_BOARD_WRITE_TILE, b->spec.n_tiles);
    uint64_t pairs = cbd_work_times(CBD_WORK_BOARD_WRITE_PAIR, b->spec.n_pairs + b->spec.n_keys);
    if (!cbd_charge(b->budget, tiles + pairs < tiles ? UINT64_MAX : tiles + pairs)) {
        return cbd_api_core_problem(b->cfg, b->budget, CBD_ERR_BUDGET, "/board", problem);
    }
    bool *holds = cbd_mem_calloc(b->budget, np ? np : 1, sizeof *holds);
    if (!holds) {
        return cbd_api_core_problem(b->cfg, b->budget, cbd_budget_nomem(b->budget), "/board",
                                    problem);
    }
    cbd_jw_object_open(w);
    cbd_jw_key(w, "tiles");
    cbd_jw_object_open(w);
    for (size_t i = 0; i < cbd_duper_board_tile_count(board); i++) {
        const cbd_duper_board_tile *t = cbd_duper_board_tile_at(board, i);
        if (t->present) { /* D15: an eliminated player's tiles leave the board */
            tile_json(w, board, t);
            if (t->owner != CBD_DUPER_BOARD_NPC) {
                holds[t->owner] = true;
            }
        }
    }
    cbd_jw_object_close(w);
    cbd_jw_key(w, "adjacent");
    cbd_jw_array_open(w);
    for (size_t p = 0; p < b->spec.n_pairs; p++) {
        if (cbd_duper_board_pair_present(board, p)) {
            cbd_jw_array_open(w);
            cbd_jw_string(w, b->pairs[p].tile[0]);
            cbd_jw_string(w, b->pairs[p].tile[1]);
            cbd_jw_array_close(w);
        }
    }
    cbd_jw_array_close(w);
    keys_json(w, board, b, holds);
    cbd_jw_object_close(w);
    cbd_mem_free(holds);
    return true;
}
