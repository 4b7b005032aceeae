/* Building Duper boards in tests: a tile per line, pairs and keys as literals. */
#ifndef COMBATD_TEST_DUPER_BOARD_FIXTURE_H
#define COMBATD_TEST_DUPER_BOARD_FIXTURE_H

#include <criterion/criterion.h>
#include <string.h>

#include "combatd/duper_board.h"
#include "duper_names.h"

static inline cbd_duper_tile_spec tile(const char *id, const char *owner, uint32_t level) {
    cbd_duper_tile_spec t;
    memset(&t, 0, sizeof t);
    t.id = id;
    t.owner = owner;
    t.level = level;
    return t;
}

static inline cbd_duper_board *make_board(const cbd_duper_tile_spec *tiles, size_t n_tiles,
                                          const cbd_duper_pair_spec *pairs, size_t n_pairs,
                                          const cbd_duper_keys_spec *keys, size_t n_keys) {
    cbd_duper_board_spec spec = {tiles, n_tiles, pairs, n_pairs, keys, n_keys};
    cbd_duper_board *b;
    cbd_duper_board_error err;
    cbd_status st = cbd_duper_board_create(&spec, NULL, &b, &err);
    cr_assert_eq(st, CBD_OK, "board refused: fault %d at %zu: %s", (int)err.fault, err.index,
                 err.detail ? err.detail : "");
    return b;
}

static inline const cbd_duper_board_tile *at(const cbd_duper_board *b, const char *id) {
    size_t i = cbd_duper_board_find(b, id);
    cr_assert_neq(i, CBD_DUPER_BOARD_NONE, "no tile %s", id);
    return cbd_duper_board_tile_at(b, i);
}

#endif
