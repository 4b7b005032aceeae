/*
 * POST /duper/board/options: every legal attack of a player on a board (D17) with
 * its result, without the card draw, best margin first. The core lists and sorts them; this
 * file reads the request and writes at most duper.max_board_options of them, saying how many
 * there were (`count`) and whether the list was cut (`truncated`): the best options are what
 * a bot wants, so a long list is cut rather than refused.
 */
#include <string.h>

#include "api/api.h"
#include "duper_board_json.h"
#include "duper_tile_json.h"

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
    cbd_jw_string(w, cbdp_board_owner_name(board, o->defender));
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

/*
 * The member whose size drives the options' work and their list: with planes and a range
 * past one step, the long-distance attacks (up to every plane tile times every target, D17);
 * else the normal attacks, one per adjacency pair and direction at most.
 */
static const char *costly_member(const cbd_duper_board *board, int32_t player, uint32_t range) {
    for (size_t i = 0; range != 1 && i < cbd_duper_board_tile_count(board); i++) {
        const cbd_duper_board_tile *t = cbd_duper_board_tile_at(board, i);
        if (t->owner == player && t->units[CBD_DUPER_PLANE] > 0) {
            return "/long_distance_range";
        }
    }
    return "/board/adjacent";
}

static void options_json(cbd_jw *out, const cbd_duper_board *board, int32_t player,
                         const cbd_duper_options *opts, size_t shown, const char *member) {
    cbd_jw_object_open(out);
    cbd_jw_key(out, "player");
    cbd_jw_string(out, cbd_duper_board_player_name(board, player));
    cbd_jw_key(out, "options");
    cbd_jw_blame(out, member);
    cbd_jw_array_open(out);
    for (size_t i = 0; i < shown; i++) {
        option_json(out, board, player, &opts->items[i]);
    }
    cbd_jw_array_close(out);
    cbd_jw_key_uint(out, "count", opts->n_found);
    cbd_jw_key_bool(out, "truncated", shown < opts->n_found);
    cbd_jw_key_uint(out, "unlisted", opts->n_unlisted);
    cbd_jw_object_close(out);
}

static bool list(const cbd_config *cfg, cbd_budget *budget, const cbd_duper_board *board,
                 const cbd_duper_rules *rules, int32_t player, uint32_t range, cbd_jw *out,
                 cbd_problem *problem) {
    /* The answer lists the best duper.max_board_options: the core keeps no more than those. */
    size_t most = cfg->duper_board.max_board_options;
    cbd_duper_options opts = {0};
    cbd_status st = cbd_duper_board_options(board, rules, player, range, most, budget, &opts);
    if (st == CBD_OK && !cbd_charge(budget, cbd_work_times(CBD_WORK_DUPER_OPTION_JSON, opts.n))) {
        st = CBD_ERR_BUDGET;
    }
    const char *member = costly_member(board, player, range);
    if (st == CBD_ERR_BUDGET || st == CBD_ERR_NOMEM) {
        cbd_duper_options_free(&opts);
        return cbd_api_core_problem(cfg, budget, st, member, problem);
    }
    if (st != CBD_OK) {
        cbd_problem_set(problem, 422, "The options break the rules' limits: %s.",
                        cbd_status_str(st));
        cbd_duper_options_free(&opts);
        return false;
    }
    options_json(out, board, player, &opts, opts.n, member);
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
    cbd_reader root;
    if (!cbd_reader_open(&root, request, "", root_keys, problem)) {
        return false;
    }
    cbd_board_read br;
    cbd_read_status st = cbdp_board_json_read(&root, cfg, budget, &br);
    const char *name = NULL;
    if (cbd_read_text(&root, "player", CBD_DUPER_NAME_MAX, &name) == CBD_FIELD_ABSENT) {
        cbd_reader_error(&root, "player", "is required: the player whose attacks are listed");
    }
    uint64_t range = cfg->duper_board.long_distance_range;
    (void)cbd_read_u64(&root, "long_distance_range", 0, CBD_MAX_LONG_DISTANCE_RANGE, &range);
    cbd_duper_rules rules;
    cbdp_board_read_rules(&root, cfg, &rules);
    /* The board's outcome with what the other members recorded, told apart in one place. */
    st = cbd_api_read_status(st != CBD_READ_NO_MEMORY, problem);
    cbd_duper_board *board = NULL;
    int32_t player = CBD_DUPER_BOARD_NPC;
    bool ok = st == CBD_READ_OK && cbdp_board_build(&br, &board, problem) &&
              find_player(&root, board, name, &player) &&
              list(cfg, budget, board, &rules, player, (uint32_t)range, out, problem);
    cbd_duper_board_destroy(board);
    cbdp_board_read_free(&br);
    return ok;
}
