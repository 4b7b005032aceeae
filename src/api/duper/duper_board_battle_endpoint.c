/*
 * POST /duper/board/battle: a board and a list of attacks. The core finds each
 * battle's support (D14), resolves the attacks in order on the board each left (D15, D16);
 * this file reads the request and writes every battle as /duper/battle would answer it, then
 * the board after the last one.
 */
#include <string.h>

#include "api/api.h"
#include "duper_board_json.h"
#include "duper_battle_render.h"

static const char *const root_keys[] = {"board", "attacks", "rules", "seed", NULL};
static const char *const attack_keys[] = {"from", "to", "kind", NULL};
static const char *const kind_names[] = {"normal", "long_distance", NULL};

/* D16's reasons, as the answer spells them (cbd_duper_skip's order). */
static const char *const skip_names[] = {NULL, "source_lost", "nothing_to_attack", "target_gone",
                                         "target_own"};

static void read_attack(const cbd_reader *root, const cbd_board_read *br, size_t i,
                        cbd_duper_attack_spec *a) {
    cbd_reader r;
    if (!cbd_reader_open_item(&r, root, "attacks", i, attack_keys)) {
        return;
    }
    if (cbd_read_string(&r, "from", 64, &a->from) == CBD_FIELD_ABSENT) {
        cbd_reader_error(&r, "from", "is required: the attacking tile's id");
    }
    if (cbd_read_string(&r, "to", 64, &a->to) == CBD_FIELD_ABSENT) {
        cbd_reader_error(&r, "to", "is required: the attacked tile's id");
    }
    int kind = 0;
    (void)cbd_read_enum(&r, "kind", kind_names, &kind);
    a->kind = kind == 1 ? CBD_DUPER_LONG_DISTANCE : CBD_DUPER_NORMAL;
    if (br->tiles) { /* the board's tiles were read: the attack can be checked against them */
        cbdp_board_check_attack(br, &r, a->from, a->to);
    }
}

/* The attacks (NULL with the problem filled when absent, bad or out of memory). */
static cbd_duper_attack_spec *read_attacks(const cbd_reader *root, const cbd_board_read *br,
                                           const cbd_config *cfg, cbd_budget *budget, size_t *n) {
    uint32_t most = cfg->duper_board.max_board_attacks;
    const json_t *arr;
    cbd_field f = cbd_read_array(root, "attacks", most, &arr);
    if (f == CBD_FIELD_ABSENT) {
        cbd_reader_error(root, "attacks", "is required: the attacks, in the order they run (D16)");
    }
    if (f != CBD_FIELD_OK) {
        return NULL;
    }
    *n = json_array_size(arr);
    cbd_duper_attack_spec *a = cbd_mem_calloc(budget, *n ? *n : 1, sizeof *a);
    if (!a) {
        (void)cbd_api_core_problem(cfg, budget, cbd_budget_nomem(budget), "/attacks",
                                   root->problem);
        return NULL;
    }
    for (size_t i = 0; i < *n; i++) {
        read_attack(root, br, i, &a[i]);
    }
    return a;
}

static void id_list(cbd_jw *w, const char *key, const cbd_duper_board *board, const size_t *tiles,
                    size_t n) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    for (size_t i = 0; i < n; i++) {
        cbd_jw_string(w, cbd_duper_board_tile_at(board, tiles[i])->id);
    }
    cbd_jw_array_close(w);
}

static void battle_json(cbd_jw *w, const cbd_duper_board *board, const cbd_duper_board_battle *bb,
                        const cbd_duper_rules *rules) {
    cbd_jw_object_open(w);
    cbd_jw_key(w, "skipped");
    if (bb->skipped != CBD_DUPER_RAN) {
        cbd_jw_string(w, skip_names[bb->skipped]);
        cbd_jw_object_close(w);
        return;
    }
    cbd_jw_bool(w, false);
    cbd_jw_key(w, "support");
    cbd_jw_object_open(w);
    id_list(w, "attack", board, bb->support[CBD_DUPER_ATTACK], bb->n_support[CBD_DUPER_ATTACK]);
    id_list(w, "defense", board, bb->support[CBD_DUPER_DEFENSE], bb->n_support[CBD_DUPER_DEFENSE]);
    cbd_jw_object_close(w);
    const char *defender = bb->defender == CBD_DUPER_BOARD_NPC
                               ? NULL
                               : cbd_duper_board_player_name(board, bb->defender);
    cbdp_duper_write_battle(w, &bb->battle, &bb->result, rules,
                            cbd_duper_board_player_name(board, bb->attacker), defender);
    cbd_jw_key_uint(w, "seed", bb->seed);
    cbd_jw_object_close(w);
}

/* The answer: every battle, then the board they left. Each part is charged before it is
 * written, and blamed on the member whose size decides it. */
static bool write_answer(cbd_duper_board *board, const cbd_board_read *br, const cbd_reader *root,
                         const cbd_duper_rules *rules, const cbd_duper_board_battle *battles,
                         size_t n, uint64_t seed, cbd_jw *out) {
    if (!cbd_charge(br->budget, cbd_work_times(CBD_WORK_DUPER_BATTLE_JSON, n))) {
        return cbd_api_core_problem(br->cfg, br->budget, CBD_ERR_BUDGET, "/attacks", root->problem);
    }
    cbd_jw_object_open(out);
    cbd_jw_key(out, "battles");
    cbd_jw_blame(out, "/attacks");
    cbd_jw_array_open(out);
    for (size_t i = 0; i < n; i++) {
        battle_json(out, board, &battles[i], rules);
    }
    cbd_jw_array_close(out);
    cbd_jw_key(out, "board");
    cbd_jw_blame(out, "/board");
    bool ok = cbdp_board_write(out, board, br, root->problem);
    cbd_jw_key_uint(out, "seed", seed);
    cbd_jw_object_close(out);
    return ok;
}

/* Runs the attacks on the built board and writes the answer. */
static bool run(cbd_duper_board *board, const cbd_board_read *br, const cbd_reader *root,
                const cbd_duper_rules *rules, const cbd_duper_attack_spec *attacks, size_t n,
                uint64_t seed, cbd_jw *out) {
    cbd_duper_board_battle *battles = cbd_mem_calloc(br->budget, n ? n : 1, sizeof *battles);
    if (!battles) {
        return cbd_api_core_problem(br->cfg, br->budget, cbd_budget_nomem(br->budget), "/attacks",
                                    root->problem);
    }
    cbd_duper_board_error err;
    cbd_status st = cbd_duper_board_run(board, rules, attacks, n, seed, br->budget, battles, &err);
    bool ok = st == CBD_OK;
    if (st == CBD_ERR_INVALID && err.fault != CBD_BOARD_FINE) {
        cbdp_board_fault(br, root, &err);
    } else if (st == CBD_ERR_NOMEM || st == CBD_ERR_BUDGET) {
        /* The run's work is its attacks: each battle and the walks around its tiles. */
        (void)cbd_api_core_problem(br->cfg, br->budget, st, "/attacks", root->problem);
    } else if (!ok) {
        cbd_problem_set(root->problem, 422, "A battle breaks the rules' limits: %s.",
                        cbd_status_str(st));
    }
    if (ok) {
        ok = write_answer(board, br, root, rules, battles, n, seed, out);
    }
    cbd_mem_free(battles);
    return ok;
}

bool cbd_api_duper_board_battle(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                                cbd_jw *out, cbd_problem *problem) {
    cbd_reader root;
    if (!cbd_reader_open(&root, request, "", root_keys, problem)) {
        return false;
    }
    cbd_board_read br;
    size_t n = 0;
    cbd_read_status st = cbdp_board_json_read(&root, cfg, budget, &br);
    /* A board past the budget (or past memory) is the whole answer: its attacks are not read. */
    cbd_duper_attack_spec *attacks = st == CBD_READ_NO_MEMORY || cbd_budget_spent(budget)
                                         ? NULL
                                         : read_attacks(&root, &br, cfg, budget, &n);
    cbd_duper_rules rules;
    cbdp_board_read_rules(&root, cfg, &rules);
    uint64_t seed = 0;
    cbd_field seeded = cbd_read_seed(&root, "seed", &seed);
    /* The board's outcome with what the attacks, rules and seed recorded (a 500 of the attacks'
     * memory among them): told apart in one place. */
    st = cbd_api_read_status(st != CBD_READ_NO_MEMORY, problem);
    cbd_duper_board *board = NULL;
    bool ok = st == CBD_READ_OK && (seeded == CBD_FIELD_OK || cbd_api_fresh_seed(&seed, problem)) &&
              cbdp_board_build(&br, &board, problem) &&
              run(board, &br, &root, &rules, attacks, n, seed, out);
    cbd_duper_board_destroy(board);
    cbd_mem_free(attacks);
    cbdp_board_read_free(&br);
    return ok;
}
