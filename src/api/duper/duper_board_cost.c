/*
 * The estimates of the board endpoints (cbd_cost_fn, api.h), which decide whether a request is
 * answered on an HTTP thread or on the worker pool. They count what the meter will charge (the
 * weights of budget.h are about a nanosecond each, so units read as nanoseconds), from the
 * sizes of the request's parts, taking the bound wherever the exact figure would need the
 * board built: an estimate only routes a request, the meter is what bounds it.
 */
#include <string.h>

#include "api/api.h"
#include "combatd/duper_board.h"

static uint64_t add(uint64_t a, uint64_t b) {
    return a + b < a ? UINT64_MAX : a + b;
}

/* The sizes of a request's board; false when it is past the limits (a cheap 422). */
typedef struct {
    const json_t *tiles;
    size_t n_tiles, n_pairs, n_keys;
} board_size;

static bool size_board(const cbd_config *cfg, const json_t *request, board_size *s) {
    const json_t *board = json_object_get(request, "board");
    const json_t *tiles = json_object_get(board, "tiles");
    const json_t *keys = json_object_get(board, "keys");
    s->tiles = json_is_object(tiles) ? tiles : NULL;
    s->n_tiles = json_is_object(tiles) ? json_object_size(tiles) : 0;
    s->n_pairs = json_array_size(json_object_get(board, "adjacent"));
    s->n_keys = 0;
    const char *holder;
    const json_t *colours;
    json_object_foreach((json_t *)keys, holder, colours) {
        s->n_keys += json_is_object(colours) ? json_object_size(colours) : 0;
    }
    return s->n_tiles <= cfg->duper_board.max_board_tiles &&
           s->n_pairs <= cfg->duper_board.max_board_pairs;
}

/* Reading the board, building it, and (`written`) writing it back. */
static uint64_t board_work(const board_size *s, bool written) {
    uint64_t tile = CBD_WORK_BOARD_READ_TILE + CBD_WORK_BOARD_TILE + 3 * CBD_WORK_BOARD_STEP;
    uint64_t pair = CBD_WORK_BOARD_READ_PAIR + CBD_WORK_BOARD_PAIR;
    uint64_t key = 2 * CBD_WORK_BOARD_READ_PAIR + CBD_WORK_BOARD_PAIR;
    if (written) {
        tile += CBD_WORK_BOARD_WRITE_TILE;
        pair += CBD_WORK_BOARD_WRITE_PAIR;
        key += CBD_WORK_BOARD_WRITE_PAIR;
    }
    uint64_t work = add(cbd_work_times(tile, s->n_tiles), cbd_work_times(pair, s->n_pairs));
    return add(work, cbd_work_times(key, s->n_keys));
}

/* The most tiles a walk around one tile can step over: its neighbours, each once. */
static uint64_t most_neighbours(const board_size *s) {
    return s->n_tiles < 2 * s->n_pairs ? s->n_tiles : 2 * s->n_pairs;
}

/*
 * /duper/board/battle: the board read, built and written back, and per attack its battle, its
 * answer, three walks around its tiles (adjacency, each side's support) and the walks over
 * the board of the two players it may eliminate.
 */
uint64_t cbd_api_duper_board_battle_cost(const cbd_config *cfg, const json_t *request) {
    board_size s;
    size_t n_attacks = json_array_size(json_object_get(request, "attacks"));
    if (!size_board(cfg, request, &s) || n_attacks > cfg->duper_board.max_board_attacks) {
        return CBD_COST_BASE_NS;
    }
    uint64_t walks = add(3 * most_neighbours(&s), 2 * (uint64_t)s.n_tiles);
    uint64_t attack = add(CBD_WORK_DUPER_BATTLE + CBD_WORK_DUPER_BATTLE_JSON,
                          cbd_work_times(CBD_WORK_BOARD_STEP, walks));
    return add(add(CBD_COST_BASE_NS, board_work(&s, true)), cbd_work_times(attack, n_attacks));
}

/* What the tiles of a board hold for a player's options (D17). */
typedef struct {
    uint64_t sources; /* the player's tiles with planes */
    uint64_t targets; /* everyone else's tiles */
} options_tiles;

static options_tiles count_tiles(const json_t *tiles, const char *player) {
    options_tiles n = {0, 0};
    const char *id;
    const json_t *tile;
    json_object_foreach((json_t *)tiles, id, tile) {
        const char *owner = json_string_value(json_object_get(tile, "owner"));
        if (!owner || !player || strcmp(owner, player) != 0) {
            n.targets++;
        } else {
            json_int_t planes =
                json_integer_value(json_object_get(json_object_get(tile, "units"), "plane"));
            n.sources += planes > 0;
        }
    }
    return n;
}

/* The number of halvings that bring n to 1 (as the core counts a sort of n items). */
static uint64_t depth(uint64_t n) {
    uint64_t d = 1;
    while (n > 1) {
        n >>= 1;
        d++;
    }
    return d;
}

/* The mean number of neighbours of a tile, rounded up. */
static uint64_t mean_degree(const board_size *s) {
    return s->n_tiles ? (2 * (uint64_t)s->n_pairs + s->n_tiles - 1) / s->n_tiles : 0;
}

/* The tiles within `range` steps of a tile (0: all of them), from the board's mean degree:
 * 1 + d + d^2 + ... + d^range, at most every tile. */
static uint64_t reach(const board_size *s, uint64_t range) {
    if (range == 0) {
        return s->n_tiles;
    }
    uint64_t degree = mean_degree(s);
    uint64_t sum = 1, layer = 1;
    for (uint64_t r = 0; r < range && sum < s->n_tiles; r++) {
        layer = cbd_work_times(layer, degree ? degree : 1);
        sum = add(sum, layer);
    }
    return sum < s->n_tiles ? sum : s->n_tiles;
}

/*
 * /duper/board/options: the board read and built, the tiles ranked, every normal option (at
 * most one per pair and direction) and every long-distance one (each plane tile on every
 * target within reach, with the walk to find them), each resolved and ranked, and the kept
 * ones written. `sources` and `targets` are the exact counts when the tiles are read, else
 * bounds.
 */
static uint64_t options_work(const cbd_config *cfg, const board_size *s, uint64_t range,
                             options_tiles n) {
    size_t keep = cfg->duper_board.max_board_options;
    uint64_t rank = cbd_work_times(CBD_WORK_COMPARE, depth(keep));
    uint64_t within = reach(s, range);
    uint64_t targets = within < n.targets ? within : n.targets;
    uint64_t options = add(2 * (uint64_t)s->n_pairs, cbd_work_times(n.sources, targets));
    /* The tiles walked and ranked; each walk to the targets of a plane tile. */
    uint64_t steps = add(cbd_work_times(s->n_tiles, 2 + depth(s->n_tiles)), 2 * s->n_pairs);
    uint64_t per_reached = range == 0 ? 1 : 2 + mean_degree(s);
    steps = add(steps, cbd_work_times(n.sources, cbd_work_times(within, per_reached)));
    uint64_t shown = options < keep ? options : keep;
    uint64_t work = add(board_work(s, false), cbd_work_times(CBD_WORK_BOARD_STEP, steps));
    work = add(work, cbd_work_times(cbd_duper_board_option_work(keep), options));
    /* The kept ones sorted and written. */
    return add(work, cbd_work_times(CBD_WORK_DUPER_OPTION_JSON + rank, shown));
}

/*
 * First with bounds that need no reading of the tiles (every tile a plane tile of the player's
 * and a target at once): a request within server.inline_cost_ns by them is inline whatever
 * its tiles hold. Past it the tiles are counted, so that the estimate tracks the real cost.
 */
uint64_t cbd_api_duper_board_options_cost(const cbd_config *cfg, const json_t *request) {
    board_size s;
    if (!size_board(cfg, request, &s)) {
        return CBD_COST_BASE_NS;
    }
    uint64_t range = cfg->duper_board.long_distance_range;
    const json_t *asked = json_object_get(request, "long_distance_range");
    if (json_is_integer(asked) && json_integer_value(asked) >= 0) {
        range = (uint64_t)json_integer_value(asked);
    }
    options_tiles bound = {s.n_tiles / 2, s.n_tiles - s.n_tiles / 2};
    uint64_t cost = add(CBD_COST_BASE_NS, options_work(cfg, &s, range, bound));
    if (cost <= cfg->limits.inline_cost_ns || !s.tiles) {
        return cost;
    }
    const char *player = json_string_value(json_object_get(request, "player"));
    return add(CBD_COST_BASE_NS, options_work(cfg, &s, range, count_tiles(s.tiles, player)));
}
