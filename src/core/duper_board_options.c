/*
 * A player's attack options on a Duper board (D17): every legal attack, each resolved on the
 * board as it stands, without the card draw, best margin first.
 */
#include <stdlib.h>
#include <string.h>

#include "duper_board_internal.h"

typedef struct {
    cbd_duper_option option;
    const char *from_id, *to_id; /* for the tie order: byte order of ids */
    uint32_t from_rank, to_rank; /* the same order as ranks, when the list is long */
} ranked;

typedef struct {
    ranked *items;
    size_t n, cap;
    size_t n_unlisted;
} option_list;

/* What every option of one request shares: each side of a battle depends only on its own tile
 * (D14: the support of S is the attacker's tiles around S, that of T the defender's around T),
 * so the attacking side is built once per source and the defending side once per target. */
typedef struct {
    const cbd_duper_board *b;
    const cbd_duper_rules *rules;
    int32_t player;
    cbd_duper_side attack; /* the current source's side */
    bool attack_ok;        /* false: over CBD_DUPER_MAX_SUPPORT supporting tiles */
    cbd_duper_side *defense;
    uint8_t *defense_state; /* per tile: 0 not built yet, 1 built, 2 over the support limit */
    option_list list;
} options_ctx;

/* D17: buildings alone do not attack; a tile needs a troop (soldiers, tanks, planes or a
 * supercapital; larvae are NPC units). */
static bool has_troops(const cbd_duper_board_tile *t) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (t->units[c] > 0 && cbd_duper_class_layer((cbd_duper_class)c) != CBD_DUPER_BUILDING) {
            return true;
        }
    }
    return false;
}

static bool target(const cbd_duper_board *b, size_t t, int32_t player) {
    return b->tiles[t].present && b->tiles[t].owner != player;
}

/* A side as cbd_duper_board_prepare builds it: the tile's units and their support (D14; no
 * support for NPCs, D9). The other tile of the fight is never `owner`'s, so nothing is
 * skipped. */
static bool build_side(const cbd_duper_board *b, size_t tile, cbd_duper_side *side) {
    const cbd_duper_board_tile *t = &b->tiles[tile];
    size_t list[CBD_DUPER_MAX_SUPPORT], n = 0;
    memset(side, 0, sizeof *side);
    memcpy(side->units, t->units, sizeof side->units);
    memcpy(side->loaded, t->loaded, sizeof side->loaded);
    return t->owner == CBD_DUPER_BOARD_NPC ||
           cbd_duper_board_support(b, tile, t->owner, CBD_DUPER_BOARD_NONE, list, &n, side) ==
               CBD_OK;
}

static cbd_status push(option_list *list, const ranked *item) {
    if (list->n == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 64;
        ranked *grown = realloc(list->items, cap * sizeof *grown);
        if (!grown) {
            return CBD_ERR_NOMEM;
        }
        list->items = grown;
        list->cap = cap;
    }
    list->items[list->n++] = *item;
    return CBD_OK;
}

static cbd_status add_option(options_ctx *c, size_t from, size_t to, cbd_duper_kind kind) {
    const cbd_duper_board *b = c->b;
    if (c->defense_state[to] == 0) {
        c->defense_state[to] = build_side(b, to, &c->defense[to]) ? 1 : 2;
    }
    if (!c->attack_ok || c->defense_state[to] == 2) {
        c->list.n_unlisted++; /* a side with over 8 supporting tiles (cbd_duper_board_prepare) */
        return CBD_OK;
    }
    const cbd_duper_board_tile *t = &b->tiles[to];
    cbd_duper_battle battle;
    battle.kind = kind;
    battle.npc = t->owner == CBD_DUPER_BOARD_NPC;
    battle.level = t->level;
    battle.keys = battle.npc ? 0 : cbd_duper_board_keys(b, t->owner, c->player); /* D2 */
    battle.attack = c->attack;
    battle.defense = c->defense[to];
    cbd_duper_result r;
    cbd_status st = cbd_duper_resolve(c->rules, &battle, 0, &r);
    if (st != CBD_OK) {
        return st;
    }
    uint64_t attack = r.power[CBD_DUPER_ATTACK].total, defense = r.power[CBD_DUPER_DEFENSE].total;
    ranked item = {
        {from,
         to,
         kind,
         attack,
         defense,
         (int64_t)attack - (int64_t)defense,
         r.captured,
         {r.eliminated[CBD_DUPER_ATTACK], r.eliminated[CBD_DUPER_DEFENSE]},
         t->owner,
         r.card_steal_eligible},
        b->tiles[from].id,
        b->tiles[to].id,
        0,
        0,
    };
    return push(&c->list, &item);
}

/* Tiles within `range` steps of `from` (breadth first over the tiles still on the board),
 * into reach[0..*n); seen[] is all false on entry and on return. */
static void within_range(const cbd_duper_board *b, size_t from, uint32_t range, size_t *reach,
                         uint32_t *dist, bool *seen, size_t *n) {
    size_t head = 0;
    *n = 0;
    reach[(*n)++] = from;
    seen[from] = true;
    dist[from] = 0;
    while (head < *n) {
        size_t x = reach[head++];
        if (dist[x] == range) {
            continue;
        }
        for (size_t k = b->adj_start[x]; k < b->adj_start[x + 1]; k++) {
            size_t y = b->adj[k];
            if (!seen[y] && b->tiles[y].present) {
                seen[y] = true;
                dist[y] = dist[x] + 1;
                reach[(*n)++] = y;
            }
        }
    }
    for (size_t i = 0; i < *n; i++) {
        seen[reach[i]] = false;
    }
}

/* D11, D17: long-distance attacks from a tile with planes. */
static cbd_status long_distance(options_ctx *c, size_t from, uint32_t range, size_t *reach,
                                uint32_t *dist, bool *seen) {
    const cbd_duper_board *b = c->b;
    int32_t player = c->player;
    cbd_status st = CBD_OK;
    if (range == 0) {
        for (size_t t = 0; t < b->n_tiles && st == CBD_OK; t++) {
            if (target(b, t, player)) {
                st = add_option(c, from, t, CBD_DUPER_LONG_DISTANCE);
            }
        }
        return st;
    }
    size_t n;
    within_range(b, from, range, reach, dist, seen, &n);
    for (size_t i = 0; i < n && st == CBD_OK; i++) {
        if (target(b, reach[i], player)) {
            st = add_option(c, from, reach[i], CBD_DUPER_LONG_DISTANCE);
        }
    }
    return st;
}

static int by_margin(const ranked *a, const ranked *b) {
    if (a->option.margin != b->option.margin) {
        return a->option.margin > b->option.margin ? -1 : 1;
    }
    return 0;
}

/* Best margin first; ties by the byte order of from's id, then to's, normal first. */
static int best_first(const void *pa, const void *pb) {
    const ranked *a = pa, *b = pb;
    int m = by_margin(a, b);
    if (m != 0) {
        return m;
    }
    int by_from = a->option.from == b->option.from ? 0 : strcmp(a->from_id, b->from_id);
    if (by_from != 0) {
        return by_from;
    }
    int by_to = a->option.to == b->option.to ? 0 : strcmp(a->to_id, b->to_id);
    if (by_to != 0) {
        return by_to;
    }
    return (int)a->option.kind - (int)b->option.kind;
}

/* The same order with the ids' ranks (ids are unique, so ranks order as strcmp does). */
static int best_first_ranked(const void *pa, const void *pb) {
    const ranked *a = pa, *b = pb;
    int m = by_margin(a, b);
    if (m != 0) {
        return m;
    }
    if (a->from_rank != b->from_rank) {
        return a->from_rank < b->from_rank ? -1 : 1;
    }
    if (a->to_rank != b->to_rank) {
        return a->to_rank < b->to_rank ? -1 : 1;
    }
    return (int)a->option.kind - (int)b->option.kind;
}

static int tile_id_cmp(const void *pa, const void *pb) {
    const cbd_duper_board_tile *a = *(const cbd_duper_board_tile *const *)pa;
    const cbd_duper_board_tile *b = *(const cbd_duper_board_tile *const *)pb;
    return strcmp(a->id, b->id);
}

/* Sorts the options. A long list (more options than tiles) is sorted by the ranks of the ids,
 * found once by sorting the tiles, rather than by comparing ids at every step. */
static cbd_status sort_options(const cbd_duper_board *b, option_list *list) {
    if (list->n < 2) {
        return CBD_OK; /* nothing to order; an empty list has no array for qsort (UB on NULL) */
    }
    if (list->n <= b->n_tiles) {
        qsort(list->items, list->n, sizeof *list->items, best_first);
        return CBD_OK;
    }
    const cbd_duper_board_tile **order = malloc(b->n_tiles * sizeof *order);
    uint32_t *rank = malloc(b->n_tiles * sizeof *rank);
    if (!order || !rank) {
        free(order);
        free(rank);
        return CBD_ERR_NOMEM;
    }
    for (size_t i = 0; i < b->n_tiles; i++) {
        order[i] = &b->tiles[i];
    }
    qsort(order, b->n_tiles, sizeof *order, tile_id_cmp);
    for (size_t i = 0; i < b->n_tiles; i++) {
        rank[order[i] - b->tiles] = (uint32_t)i;
    }
    for (size_t i = 0; i < list->n; i++) {
        list->items[i].from_rank = rank[list->items[i].option.from];
        list->items[i].to_rank = rank[list->items[i].option.to];
    }
    qsort(list->items, list->n, sizeof *list->items, best_first_ranked);
    free(order);
    free(rank);
    return CBD_OK;
}

static cbd_status list_all(options_ctx *c, uint32_t range) {
    const cbd_duper_board *b = c->b;
    size_t n = b->n_tiles ? b->n_tiles : 1;
    size_t *reach = malloc(n * sizeof *reach);
    uint32_t *dist = malloc(n * sizeof *dist);
    bool *seen = calloc(n, sizeof *seen);
    c->defense = malloc(n * sizeof *c->defense);
    c->defense_state = calloc(n, sizeof *c->defense_state);
    cbd_status st =
        reach && dist && seen && c->defense && c->defense_state ? CBD_OK : CBD_ERR_NOMEM;
    for (size_t s = 0; s < b->n_tiles && st == CBD_OK; s++) {
        const cbd_duper_board_tile *tile = &b->tiles[s];
        if (!tile->present || tile->owner != c->player || !has_troops(tile)) {
            continue;
        }
        c->attack_ok = build_side(b, s, &c->attack);
        for (size_t k = b->adj_start[s]; k < b->adj_start[s + 1] && st == CBD_OK; k++) {
            if (target(b, b->adj[k], c->player)) {
                st = add_option(c, s, b->adj[k], CBD_DUPER_NORMAL);
            }
        }
        if (st == CBD_OK && tile->units[CBD_DUPER_PLANE] > 0) {
            st = long_distance(c, s, range, reach, dist, seen);
        }
    }
    free(reach);
    free(dist);
    free(seen);
    free(c->defense);
    free(c->defense_state);
    return st;
}

cbd_status cbd_duper_board_options(const cbd_duper_board *b, const cbd_duper_rules *rules,
                                   int32_t player, uint32_t range, cbd_duper_options *out) {
    memset(out, 0, sizeof *out);
    if (!cbd_duper_rules_valid(rules) || player < 0 || (size_t)player >= b->n_players) {
        return CBD_ERR_INVALID;
    }
    options_ctx c = {.b = b, .rules = rules, .player = player};
    cbd_status st = list_all(&c, range);
    if (st == CBD_OK) {
        st = sort_options(b, &c.list);
    }
    if (st == CBD_OK) {
        out->items = malloc((c.list.n ? c.list.n : 1) * sizeof *out->items);
        st = out->items ? CBD_OK : CBD_ERR_NOMEM;
    }
    if (st != CBD_OK) {
        free(c.list.items);
        return st;
    }
    for (size_t i = 0; i < c.list.n; i++) {
        out->items[i] = c.list.items[i].option;
    }
    out->n = c.list.n;
    out->n_unlisted = c.list.n_unlisted;
    free(c.list.items);
    return CBD_OK;
}

void cbd_duper_options_free(cbd_duper_options *options) {
    free(options->items);
    options->items = NULL;
    options->n = 0;
}
