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
} ranked;

typedef struct {
    ranked *items;
    size_t n, cap;
    size_t n_unlisted;
} option_list;

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

static cbd_status add_option(const cbd_duper_board *b, const cbd_duper_rules *rules, size_t from,
                             size_t to, cbd_duper_kind kind, option_list *list) {
    cbd_duper_board_battle bb;
    if (cbd_duper_board_prepare(b, from, to, kind, &bb) != CBD_OK) {
        list->n_unlisted++;
        return CBD_OK;
    }
    cbd_status st = cbd_duper_resolve(rules, &bb.battle, 0, &bb.result);
    if (st != CBD_OK) {
        return st;
    }
    if (list->n == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 64;
        ranked *grown = realloc(list->items, cap * sizeof *grown);
        if (!grown) {
            return CBD_ERR_NOMEM;
        }
        list->items = grown;
        list->cap = cap;
    }
    const cbd_duper_result *r = &bb.result;
    uint64_t attack = r->power[CBD_DUPER_ATTACK].total, defense = r->power[CBD_DUPER_DEFENSE].total;
    list->items[list->n++] = (ranked){
        {from,
         to,
         kind,
         attack,
         defense,
         (int64_t)attack - (int64_t)defense,
         r->captured,
         {r->eliminated[CBD_DUPER_ATTACK], r->eliminated[CBD_DUPER_DEFENSE]},
         bb.defender,
         r->card_steal_eligible},
        b->tiles[from].id,
        b->tiles[to].id,
    };
    return CBD_OK;
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
static cbd_status long_distance(const cbd_duper_board *b, const cbd_duper_rules *rules, size_t from,
                                uint32_t range, size_t *reach, uint32_t *dist, bool *seen,
                                option_list *list) {
    int32_t player = b->tiles[from].owner;
    cbd_status st = CBD_OK;
    if (range == 0) {
        for (size_t t = 0; t < b->n_tiles && st == CBD_OK; t++) {
            if (target(b, t, player)) {
                st = add_option(b, rules, from, t, CBD_DUPER_LONG_DISTANCE, list);
            }
        }
        return st;
    }
    size_t n;
    within_range(b, from, range, reach, dist, seen, &n);
    for (size_t i = 0; i < n && st == CBD_OK; i++) {
        if (target(b, reach[i], player)) {
            st = add_option(b, rules, from, reach[i], CBD_DUPER_LONG_DISTANCE, list);
        }
    }
    return st;
}

static int best_first(const void *pa, const void *pb) {
    const ranked *a = pa, *b = pb;
    if (a->option.margin != b->option.margin) {
        return a->option.margin > b->option.margin ? -1 : 1;
    }
    int by_from = strcmp(a->from_id, b->from_id);
    if (by_from != 0) {
        return by_from;
    }
    int by_to = strcmp(a->to_id, b->to_id);
    if (by_to != 0) {
        return by_to;
    }
    return (int)a->option.kind - (int)b->option.kind;
}

static cbd_status list_all(const cbd_duper_board *b, const cbd_duper_rules *rules, int32_t player,
                           uint32_t range, option_list *list) {
    size_t n = b->n_tiles ? b->n_tiles : 1;
    size_t *reach = malloc(n * sizeof *reach);
    uint32_t *dist = malloc(n * sizeof *dist);
    bool *seen = calloc(n, sizeof *seen);
    cbd_status st = reach && dist && seen ? CBD_OK : CBD_ERR_NOMEM;
    for (size_t s = 0; s < b->n_tiles && st == CBD_OK; s++) {
        const cbd_duper_board_tile *tile = &b->tiles[s];
        if (!tile->present || tile->owner != player || !has_troops(tile)) {
            continue;
        }
        for (size_t k = b->adj_start[s]; k < b->adj_start[s + 1] && st == CBD_OK; k++) {
            if (target(b, b->adj[k], player)) {
                st = add_option(b, rules, s, b->adj[k], CBD_DUPER_NORMAL, list);
            }
        }
        if (st == CBD_OK && tile->units[CBD_DUPER_PLANE] > 0) {
            st = long_distance(b, rules, s, range, reach, dist, seen, list);
        }
    }
    free(reach);
    free(dist);
    free(seen);
    return st;
}

cbd_status cbd_duper_board_options(const cbd_duper_board *b, const cbd_duper_rules *rules,
                                   int32_t player, uint32_t range, cbd_duper_options *out) {
    memset(out, 0, sizeof *out);
    if (!cbd_duper_rules_valid(rules) || player < 0 || (size_t)player >= b->n_players) {
        return CBD_ERR_INVALID;
    }
    option_list list = {NULL, 0, 0, 0};
    cbd_status st = list_all(b, rules, player, range, &list);
    if (st != CBD_OK) {
        free(list.items);
        return st;
    }
    qsort(list.items, list.n, sizeof *list.items, best_first);
    out->items = malloc((list.n ? list.n : 1) * sizeof *out->items);
    if (!out->items) {
        free(list.items);
        return CBD_ERR_NOMEM;
    }
    for (size_t i = 0; i < list.n; i++) {
        out->items[i] = list.items[i].option;
    }
    out->n = list.n;
    out->n_unlisted = list.n_unlisted;
    free(list.items);
    return CBD_OK;
}

void cbd_duper_options_free(cbd_duper_options *options) {
    free(options->items);
    options->items = NULL;
    options->n = 0;
}
