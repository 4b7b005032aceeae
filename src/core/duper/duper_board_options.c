/*
 * A player's attack options on a Duper board (D17): every legal attack, each resolved on the
 * board as it stands, without the card draw, best margin first.
 */
#include <stdlib.h>
#include <string.h>

#include "duper_board_internal.h"

/* An option with the ranks of its tiles' ids (ids are unique, so ranks order as strcmp
 * does): the tie order of D17 without comparing strings at every step. */
typedef struct {
    cbd_duper_option option;
    uint32_t from_rank, to_rank;
} ranked;

/*
 * The best `keep` options found so far. Until `keep` are found they are appended; from then
 * on they form a heap with the worst on top, and an option better than the worst replaces it,
 * so that a million options cost the memory of `keep`.
 */
typedef struct {
    ranked *items;
    size_t n, cap, keep;
    bool heap;
    size_t n_found, n_unlisted;
} option_list;

/* What every option of one request shares: each side of a battle depends only on its own tile
 * (D14: the support of S is the attacker's tiles around S, that of T the defender's around T),
 * so the attacking side is built once per source and the defending side once per target. */
typedef struct {
    const cbd_duper_board *b;
    const cbd_duper_rules *rules;
    cbd_budget *budget;
    int32_t player;
    cbd_duper_side attack; /* the current source's side */
    bool attack_ok;        /* false: over CBD_DUPER_MAX_SUPPORT supporting tiles */
    cbd_duper_side *defense;
    uint8_t *defense_state; /* per tile: 0 not built yet, 1 built, 2 over the support limit */
    uint32_t *rank;         /* per tile: the rank of its id in byte order */
    uint64_t option_work;   /* the units charged for each option found */
    option_list list;
} options_ctx;

/* The number of halvings that bring n to 1: the depth of a sort or a heap of n items. */
static uint64_t depth(size_t n) {
    uint64_t d = 1;
    while (n > 1) {
        n >>= 1;
        d++;
    }
    return d;
}

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
 * skipped. *ok is false when the side has over CBD_DUPER_MAX_SUPPORT supporting tiles. */
static cbd_status build_side(const options_ctx *c, size_t tile, cbd_duper_side *side, bool *ok) {
    const cbd_duper_board_tile *t = &c->b->tiles[tile];
    size_t list[CBD_DUPER_MAX_SUPPORT], n = 0;
    memset(side, 0, sizeof *side);
    memcpy(side->units, t->units, sizeof side->units);
    memcpy(side->loaded, t->loaded, sizeof side->loaded);
    *ok = true;
    if (t->owner == CBD_DUPER_BOARD_NPC) {
        return CBD_OK;
    }
    cbd_status st = cbdp_duper_board_support(c->b, tile, t->owner, CBD_DUPER_BOARD_NONE, c->budget,
                                             list, &n, side);
    *ok = st != CBD_ERR_INVALID;
    return st == CBD_ERR_INVALID ? CBD_OK : st;
}

/* Whether option a ranks before option b: best margin first; ties by the byte order of
 * from's id, then to's, normal first. (No two options share from, to and kind.) */
static bool before(const ranked *a, const ranked *b) {
    if (a->option.margin != b->option.margin) {
        return a->option.margin > b->option.margin;
    }
    if (a->from_rank != b->from_rank) {
        return a->from_rank < b->from_rank;
    }
    if (a->to_rank != b->to_rank) {
        return a->to_rank < b->to_rank;
    }
    return a->option.kind < b->option.kind;
}

/* Restores the heap below slot i: every option ranks before its parent. */
static void sift_down(ranked *h, size_t n, size_t i) {
    for (;;) {
        size_t worst = i, l = 2 * i + 1, r = l + 1;
        if (l < n && before(&h[worst], &h[l])) {
            worst = l;
        }
        if (r < n && before(&h[worst], &h[r])) {
            worst = r;
        }
        if (worst == i) {
            return;
        }
        ranked x = h[i];
        h[i] = h[worst];
        h[worst] = x;
        i = worst;
    }
}

static cbd_status push(option_list *list, const ranked *item, cbd_budget *budget) {
    list->n_found++;
    if (list->n < list->keep) {
        if (list->n == list->cap) {
            size_t cap = list->cap ? 2 * list->cap : 64;
            cap = cap < list->keep ? cap : list->keep;
            ranked *grown = cbd_mem_realloc(budget, list->items, cap * sizeof *grown);
            if (!grown) {
                return cbd_budget_nomem(budget);
            }
            list->items = grown;
            list->cap = cap;
        }
        list->items[list->n++] = *item;
        return CBD_OK;
    }
    if (list->keep == 0) {
        return CBD_OK;
    }
    if (!list->heap) {
        /* Making the heap takes under two comparisons an option. */
        if (!cbd_charge(budget, cbd_work_times(2 * CBD_WORK_COMPARE, list->n))) {
            return CBD_ERR_BUDGET;
        }
        for (size_t i = list->n / 2; i-- > 0;) {
            sift_down(list->items, list->n, i);
        }
        list->heap = true;
    }
    /* One comparison with the worst kept is in every option's charge; an option that takes
     * its place walks down the heap, as far as its depth at most. */
    if (before(item, &list->items[0])) {
        if (!cbd_charge(budget, cbd_work_times(2 * CBD_WORK_COMPARE, depth(list->n)))) {
            return CBD_ERR_BUDGET;
        }
        list->items[0] = *item;
        sift_down(list->items, list->n, 0);
    }
    return CBD_OK;
}

/* One option, resolved and ranked; its work was charged with the loop that found it. */
static cbd_status add_option(options_ctx *c, size_t from, size_t to, cbd_duper_kind kind) {
    const cbd_duper_board *b = c->b;
    if (c->defense_state[to] == 0) {
        bool ok;
        cbd_status built = build_side(c, to, &c->defense[to], &ok);
        if (built != CBD_OK) {
            return built;
        }
        c->defense_state[to] = ok ? 1 : 2;
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
        c->rank[from],
        c->rank[to],
    };
    return push(&c->list, &item, c->budget);
}

/* Charges `n` options (each resolved and ranked) and `steps` steps of a walk. */
static bool charge_options(const options_ctx *c, size_t n, size_t steps) {
    uint64_t options = cbd_work_times(c->option_work, n);
    uint64_t walk = cbd_work_times(CBD_WORK_BOARD_STEP, steps);
    return cbd_charge(c->budget, options + walk < options ? UINT64_MAX : options + walk);
}

/* Tiles within `range` steps of `from` (breadth first over the tiles still on the board),
 * into reach[0..*n); seen[] is all false on entry and on return. Each tile's neighbours are
 * charged when it is taken (how far the walk goes is not known before it runs). */
static cbd_status within_range(const options_ctx *c, size_t from, uint32_t range, size_t *reach,
                               uint32_t *dist, bool *seen, size_t *n) {
    const cbd_duper_board *b = c->b;
    size_t head = 0;
    *n = 0;
    reach[(*n)++] = from;
    seen[from] = true;
    dist[from] = 0;
    cbd_status st = CBD_OK;
    while (head < *n && st == CBD_OK) {
        size_t x = reach[head++];
        if (dist[x] == range) {
            continue;
        }
        /* The step of taking x and those over its neighbours. */
        if (!charge_options(c, 0, 1 + cbdp_duper_board_degree(b, x))) {
            st = CBD_ERR_BUDGET;
            break;
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
    return st;
}

/* D11, D17: long-distance attacks from a tile with planes, on every one of `n_targets`
 * targets of the board (range 0) or on those within `range` steps. */
static cbd_status long_distance(options_ctx *c, size_t from, uint32_t range, size_t n_targets,
                                size_t *reach, uint32_t *dist, bool *seen) {
    const cbd_duper_board *b = c->b;
    int32_t player = c->player;
    if (range == 0) {
        if (!charge_options(c, n_targets, b->n_tiles)) {
            return CBD_ERR_BUDGET;
        }
        cbd_status st = CBD_OK;
        for (size_t t = 0; t < b->n_tiles && st == CBD_OK; t++) {
            if (target(b, t, player)) {
                st = add_option(c, from, t, CBD_DUPER_LONG_DISTANCE);
            }
        }
        return st;
    }
    size_t n;
    cbd_status st = within_range(c, from, range, reach, dist, seen, &n);
    size_t targets = 0;
    for (size_t i = 0; i < n && st == CBD_OK; i++) {
        targets += target(b, reach[i], player);
    }
    if (st == CBD_OK && !charge_options(c, targets, 3 * n)) { /* clearing, counting, adding */
        st = CBD_ERR_BUDGET;
    }
    for (size_t i = 0; i < n && st == CBD_OK; i++) {
        if (target(b, reach[i], player)) {
            st = add_option(c, from, reach[i], CBD_DUPER_LONG_DISTANCE);
        }
    }
    return st;
}

static int tile_id_cmp(const void *pa, const void *pb) {
    const cbd_duper_board_tile *a = *(const cbd_duper_board_tile *const *)pa;
    const cbd_duper_board_tile *b = *(const cbd_duper_board_tile *const *)pb;
    return strcmp(a->id, b->id);
}

/* The rank of every tile's id in byte order, found once by sorting the tiles. */
static cbd_status rank_tiles(options_ctx *c) {
    const cbd_duper_board *b = c->b;
    size_t n = b->n_tiles ? b->n_tiles : 1;
    if (!cbd_charge(c->budget, cbd_work_times(CBD_WORK_COMPARE, b->n_tiles * depth(b->n_tiles)))) {
        return CBD_ERR_BUDGET;
    }
    const cbd_duper_board_tile **order = cbd_mem_alloc(c->budget, n * sizeof *order);
    c->rank = cbd_mem_alloc(c->budget, n * sizeof *c->rank);
    if (!order || !c->rank) {
        cbd_mem_free(order);
        return cbd_budget_nomem(c->budget);
    }
    for (size_t i = 0; i < b->n_tiles; i++) {
        order[i] = &b->tiles[i];
    }
    qsort(order, b->n_tiles, sizeof *order, tile_id_cmp);
    for (size_t i = 0; i < b->n_tiles; i++) {
        c->rank[order[i] - b->tiles] = (uint32_t)i;
    }
    cbd_mem_free(order);
    return CBD_OK;
}

static int best_first(const void *pa, const void *pb) {
    const ranked *a = pa, *b = pb;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

/* The targets of the player on the board: present tiles of another player or the NPCs. */
static size_t count_targets(const cbd_duper_board *b, int32_t player) {
    size_t n = 0;
    for (size_t t = 0; t < b->n_tiles; t++) {
        n += target(b, t, player);
    }
    return n;
}

/* Every option of one source tile: normal ones on its neighbours, long-distance ones with
 * its planes. */
static cbd_status from_source(options_ctx *c, size_t s, uint32_t range, size_t n_targets,
                              size_t *reach, uint32_t *dist, bool *seen) {
    const cbd_duper_board *b = c->b;
    cbd_status st = build_side(c, s, &c->attack, &c->attack_ok);
    /* Every neighbour may be a target (the player's own are not). */
    size_t degree = cbdp_duper_board_degree(b, s);
    if (st == CBD_OK && !charge_options(c, degree, degree)) {
        st = CBD_ERR_BUDGET;
    }
    for (size_t k = b->adj_start[s]; k < b->adj_start[s + 1] && st == CBD_OK; k++) {
        if (target(b, b->adj[k], c->player)) {
            st = add_option(c, s, b->adj[k], CBD_DUPER_NORMAL);
        }
    }
    if (st == CBD_OK && b->tiles[s].units[CBD_DUPER_PLANE] > 0) {
        st = long_distance(c, s, range, n_targets, reach, dist, seen);
    }
    return st;
}

static cbd_status list_all(options_ctx *c, uint32_t range) {
    const cbd_duper_board *b = c->b;
    size_t n = b->n_tiles ? b->n_tiles : 1;
    /* The walk over the sources and the count of the targets. */
    if (!charge_options(c, 0, 2 * b->n_tiles)) {
        return CBD_ERR_BUDGET;
    }
    size_t *reach = cbd_mem_alloc(c->budget, n * sizeof *reach);
    uint32_t *dist = cbd_mem_alloc(c->budget, n * sizeof *dist);
    bool *seen = cbd_mem_calloc(c->budget, n, sizeof *seen);
    c->defense = cbd_mem_alloc(c->budget, n * sizeof *c->defense);
    c->defense_state = cbd_mem_calloc(c->budget, n, sizeof *c->defense_state);
    cbd_status st = reach && dist && seen && c->defense && c->defense_state
                        ? rank_tiles(c)
                        : cbd_budget_nomem(c->budget);
    size_t n_targets = count_targets(b, c->player);
    for (size_t s = 0; s < b->n_tiles && st == CBD_OK; s++) {
        const cbd_duper_board_tile *tile = &b->tiles[s];
        if (tile->present && tile->owner == c->player && has_troops(tile)) {
            st = from_source(c, s, range, n_targets, reach, dist, seen);
        }
    }
    cbd_mem_free(reach);
    cbd_mem_free(dist);
    cbd_mem_free(seen);
    cbd_mem_free(c->defense);
    cbd_mem_free(c->defense_state);
    cbd_mem_free(c->rank);
    return st;
}

/* The kept options, best first, into out. */
static cbd_status sorted_out(options_ctx *c, cbd_duper_options *out) {
    option_list *list = &c->list;
    if (!cbd_charge(c->budget, cbd_work_times(CBD_WORK_COMPARE, list->n * depth(list->n)))) {
        return CBD_ERR_BUDGET;
    }
    if (list->n > 1) { /* an empty list has no array for qsort (UB on NULL) */
        qsort(list->items, list->n, sizeof *list->items, best_first);
    }
    out->items = cbd_mem_alloc(c->budget, (list->n ? list->n : 1) * sizeof *out->items);
    if (!out->items) {
        return cbd_budget_nomem(c->budget);
    }
    for (size_t i = 0; i < list->n; i++) {
        out->items[i] = list->items[i].option;
    }
    out->n = list->n;
    out->n_found = list->n_found;
    out->n_unlisted = list->n_unlisted;
    return CBD_OK;
}

cbd_status cbd_duper_board_options(const cbd_duper_board *b, const cbd_duper_rules *rules,
                                   int32_t player, uint32_t range, size_t keep, cbd_budget *budget,
                                   cbd_duper_options *out) {
    memset(out, 0, sizeof *out);
    if (!cbd_duper_rules_valid(rules) || player < 0 || (size_t)player >= b->n_players) {
        return CBD_ERR_INVALID;
    }
    options_ctx c = {.b = b, .rules = rules, .budget = budget, .player = player};
    c.list.keep = keep;
    /* Each option: its battle resolved and one comparison with the worst kept. */
    c.option_work = CBD_WORK_DUPER_BATTLE + CBD_WORK_COMPARE;
    cbd_status st = list_all(&c, range);
    if (st == CBD_OK) {
        st = sorted_out(&c, out);
    }
    cbd_mem_free(c.list.items);
    if (st != CBD_OK) {
        cbd_duper_options_free(out);
    }
    return st;
}

uint64_t cbd_duper_board_option_work(size_t keep) {
    return CBD_WORK_DUPER_BATTLE + CBD_WORK_COMPARE +
           cbd_work_times(2 * CBD_WORK_COMPARE, depth(keep));
}

void cbd_duper_options_free(cbd_duper_options *options) {
    cbd_mem_free(options->items);
    options->items = NULL;
    options->n = 0;
}
