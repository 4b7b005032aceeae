/*
 * POST /duper/board/options (issue 14): every legal attack of a player on a board (D17) with
 * its result, without the card draw, best margin first. The core lists and sorts them; this
 * file reads the request and writes at most duper.max_board_options of them, saying how many
 * there were (`count`) and whether the list was cut (`truncated`): the best options are what
 * a bot wants, so a long list is cut rather than refused.
 */
#include <string.h>

#include "api.h"
#include "duper_board_json.h"

static const char *const root_keys[] = {"board", "player", "rules", "long_distance_range", NULL};

static void option_json(cbd_jw *w, const cbd_duper_board *board, int32_t player,
                        const cbd_duper_option *o) {
    cbd_jw_object_open(w);
    cbd_jw_key(w, "from");
    cbd_jw_string(w, cbd_duper_board_tile_at(board, o->from)->id);
    cbd_jw_key(w, "to");
    cbd_jw_string(w, cbd_duper_board_tile_at(board, o->to)->id);
    cbd_jw_key_string(w, "kind", o->kind == CBD_DUPER_LONG_DISTANCE ? "long_distance" : "normal");
    cbd_jw_key(w, "defender");
    cbd_jw_string(w, cbd_board_owner_name(board, o->defender));
    cbd_jw_key_uint(w, "attack_power", o->attack_power);
    cbd_jw_key_uint(w, "defense_power", o->defense_power);
    cbd_jw_key_bool(w, "captured", o->captured);
    cbd_jw_key_int(w, "margin", o->margin);
    cbd_jw_key(w, "eliminated");
    cbd_jw_array_open(w);
    if (o->eliminated[0]) {
        cbd_jw_string(w, cbd_duper_board_player_name(board, player));
    }
    if (o->eliminated[1] && o->defender != CBD_DUPER_BOARD_NPC) {
        cbd_jw_string(w, cbd_duper_board_player_name(board, o->defender));
    }
    cbd_jw_array_close(w);
    cbd_jw_key_bool(w, "card_steal_possible", o->card_steal_possible);
    cbd_jw_object_close(w);
}

static bool list(const cbd_duper_board *board, const cbd_duper_rules *rules, int32_t player,
                 uint32_t range, uint32_t most, cbd_jw *out, cbd_problem *problem) {
    cbd_duper_options opts = {0};
    cbd_status st = cbd_duper_board_options(board, rules, player, range, &opts);
    if (st != CBD_OK) {
        if (st == CBD_ERR_NOMEM) {
            cbd_problem_set(problem, 500, "The service ran out of memory; try again.");
        } else {
            cbd_problem_set(problem, 422, "The options break the rules' limits: %s.",
                            cbd_status_str(st));
        }
        cbd_duper_options_free(&opts);
        return false;
    }
    size_t shown = opts.n < most ? opts.n : most;
    cbd_jw_object_open(out);
    cbd_jw_key(out, "player");
    cbd_jw_string(out, cbd_duper_board_player_name(board, player));
    cbd_jw_key(out, "options");
    cbd_jw_array_open(out);
    for (size_t i = 0; i < shown; i++) {
        option_json(out, board, player, &opts.items[i]);
    }
    cbd_jw_array_close(out);
    cbd_jw_key_uint(out, "count", opts.n);
    cbd_jw_key_bool(out, "truncated", shown < opts.n);
    cbd_jw_key_uint(out, "unlisted", opts.n_unlisted);
    cbd_jw_object_close(out);
    cbd_duper_options_free(&opts);
    return true;
}

/* The player, once the board is built: one that holds a tile of it (D17). */
static bool find_player(const cbd_reader *root, const cbd_duper_board *board, const char *name,
                        int32_t *player) {
    *player = cbd_duper_board_player_find(board, name);
    if (*player == CBD_DUPER_BOARD_NPC) {
        cbd_reader_error(root, "player",
                         "must be a player holding a tile of the board (NPCs never attack, D9)");
        return false;
    }
    return true;
}

bool cbd_api_duper_board_options(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                 cbd_jw *out, cbd_problem *problem) {
    (void)budget; /* BUDGET-TODO: charge the core calls */
    cbd_reader root;
    if (!cbd_reader_open(&root, request, "", root_keys, problem)) {
        return false;
    }
    cbd_board_read br;
    (void)cbd_board_read_json(&root, &cfg->duper_board, &br);
    const char *name = NULL;
    if (cbd_read_string(&root, "player", 64, &name) == CBD_FIELD_ABSENT) {
        cbd_reader_error(&root, "player", "is required: the player whose attacks are listed");
    }
    uint64_t range = cfg->duper_board.long_distance_range;
    (void)cbd_read_u64(&root, "long_distance_range", 0, 1000000, &range);
    cbd_duper_rules rules;
    cbd_board_read_rules(&root, cfg, &rules);
    cbd_duper_board *board = NULL;
    int32_t player = CBD_DUPER_BOARD_NPC;
    bool ok = problem->status == 0 && cbd_board_build(&br, &board, problem) &&
              find_player(&root, board, name, &player) &&
              list(board, &rules, player, (uint32_t)range, cfg->duper_board.max_board_options, out,
                   problem);
    cbd_duper_board_destroy(board);
    cbd_board_read_free(&br);
    return ok;
}

/*
 * The estimate the http layer compares with server.inline_cost_ns (api.h). Listing options
 * costs about CBD_BOARD_OPTIONS_NS_PER_TILE per tile of the board (every plane tile searches the
 * board for long-distance targets; measured: 2 ms for 500 tiles at unlimited range), so a board
 * of more than about 250 tiles is listed on the worker pool. A board past its limits is a cheap
 * 422.
 */
#define CBD_BOARD_OPTIONS_NS_PER_TILE UINT64_C(4000)

uint64_t cbd_api_duper_board_options_cost(const cbd_config *cfg, const json_t *request) {
    const json_t *tiles = json_object_get(json_object_get(request, "board"), "tiles");
    size_t n = json_is_object(tiles) ? json_object_size(tiles) : 0;
    if (n > cfg->duper_board.max_board_tiles) {
        return CBD_COST_BASE_NS;
    }
    return CBD_COST_BASE_NS + (uint64_t)n * CBD_BOARD_OPTIONS_NS_PER_TILE;
}
