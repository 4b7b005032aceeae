/*
 * Battles on a Duper board: who supports (D14), the battle cbd_duper_resolve takes, the board
 * after it (D15) and several attacks in order (D16).
 */
#include <string.h>

#include "duper_board_internal.h"

#define SEED_MASK ((UINT64_C(1) << 53) - 1)

/*
 * D14: every other tile of `owner` adjacent to `center` that holds tanks supports, with its
 * fort (D6), in the byte order of ids. The two tiles of the
 * fight never support (D12); they are never the owner's other tile on the right side, but
 * `skip` keeps that explicit.
 */
cbd_status cbdp_duper_board_support(const cbd_duper_board *b, size_t center, int32_t owner,
                                    size_t skip, cbd_budget *budget, size_t *list, size_t *n,
                                    cbd_duper_side *side) {
    *n = 0;
    if (!cbd_charge(budget,
                    cbd_work_times(CBD_WORK_BOARD_STEP, cbdp_duper_board_degree(b, center)))) {
        return CBD_ERR_BUDGET;
    }
    for (size_t k = b->adj_start[center]; k < b->adj_start[center + 1]; k++) {
        size_t t = b->adj[k];
        const cbd_duper_board_tile *tile = &b->tiles[t];
        if (t == skip || !tile->present || tile->owner != owner ||
            tile->units[CBD_DUPER_TANK] == 0) {
            continue;
        }
        if (*n == CBD_DUPER_MAX_SUPPORT) {
            return CBD_ERR_INVALID;
        }
        list[(*n)++] = t;
    }
    /* D14: in the byte order of ids (strcmp compares as unsigned char); at most 8 of them. */
    for (size_t i = 1; i < *n; i++) {
        size_t x = list[i], j = i;
        for (; j > 0 && strcmp(b->tiles[list[j - 1]].id, b->tiles[x].id) > 0; j--) {
            list[j] = list[j - 1];
        }
        list[j] = x;
    }
    for (size_t i = 0; i < *n; i++) {
        side->support_tanks[i] = b->tiles[list[i]].units[CBD_DUPER_TANK];
        side->support_fort[i] = b->tiles[list[i]].units[CBD_DUPER_FORT];
    }
    side->n_support = *n;
    return CBD_OK;
}

cbd_status cbd_duper_board_prepare(const cbd_duper_board *b, size_t from, size_t to,
                                   cbd_duper_kind kind, cbd_budget *budget,
                                   cbd_duper_board_battle *out) {
    const cbd_duper_board_tile *s = &b->tiles[from], *t = &b->tiles[to];
    memset(out, 0, sizeof *out);
    out->from = from;
    out->to = to;
    out->attacker = s->owner;
    out->defender = t->owner;
    cbd_duper_battle *battle = &out->battle;
    battle->kind = kind;
    battle->npc = t->owner == CBD_DUPER_BOARD_NPC;
    battle->level = t->level;
    battle->keys = battle->npc ? 0 : cbd_duper_board_keys(b, t->owner, s->owner); /* D2 */
    memcpy(battle->attack.units, s->units, sizeof s->units);
    memcpy(battle->attack.loaded, s->loaded, sizeof s->loaded);
    memcpy(battle->defense.units, t->units, sizeof t->units);
    memcpy(battle->defense.loaded, t->loaded, sizeof t->loaded);
    /* D11, D14: a long-distance attack is supported around its source like any other. */
    cbd_status st =
        cbdp_duper_board_support(b, from, s->owner, to, budget, out->support[CBD_DUPER_ATTACK],
                                 &out->n_support[CBD_DUPER_ATTACK], &battle->attack);
    if (st == CBD_OK && !battle->npc) { /* D9: NPC defenders get no support */
        st =
            cbdp_duper_board_support(b, to, t->owner, from, budget, out->support[CBD_DUPER_DEFENSE],
                                     &out->n_support[CBD_DUPER_DEFENSE], &battle->defense);
    }
    return st;
}

static void remove_counts(uint64_t *have, const uint64_t *lost) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        have[c] -= lost[c];
    }
}

/* D15: a supporting tile keeps what survived. */
static void remove_support_losses(cbd_duper_board *b, const size_t *list, size_t n,
                                  const cbd_duper_side *loss) {
    for (size_t i = 0; i < n; i++) {
        b->tiles[list[i]].units[CBD_DUPER_TANK] -= loss->support_tanks[i];
        b->tiles[list[i]].units[CBD_DUPER_FORT] -= loss->support_fort[i];
    }
}

/* D8, D15: an eliminated player's tiles leave the board, with their adjacency (a walk over
 * every tile, charged by cbd_duper_board_apply). */
static void eliminate(cbd_duper_board *b, int32_t player) {
    if (player == CBD_DUPER_BOARD_NPC) {
        return;
    }
    b->eliminated[player] = true;
    for (size_t i = 0; i < b->n_tiles; i++) {
        if (b->tiles[i].owner == player) {
            b->tiles[i].present = false;
        }
    }
}

cbd_status cbd_duper_board_apply(cbd_duper_board *b, const cbd_duper_board_battle *bb,
                                 cbd_budget *budget) {
    const cbd_duper_result *r = &bb->result;
    /* Charged before the board changes, so that a spent budget leaves it as it was. */
    uint64_t walks = (uint64_t)r->eliminated[CBD_DUPER_ATTACK] + r->eliminated[CBD_DUPER_DEFENSE];
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_BOARD_STEP, walks * b->n_tiles))) {
        return CBD_ERR_BUDGET;
    }
    cbd_duper_board_tile *s = &b->tiles[bb->from], *t = &b->tiles[bb->to];
    /* The losses of D4–D7 leave the tiles they stood on; with a long-distance attack only
     * the planes and their loads took part, so the rest of S stays (D11). */
    remove_counts(s->units, r->losses[CBD_DUPER_ATTACK].units);
    remove_counts(s->loaded, r->losses[CBD_DUPER_ATTACK].loaded);
    remove_counts(t->units, r->losses[CBD_DUPER_DEFENSE].units);
    remove_counts(t->loaded, r->losses[CBD_DUPER_DEFENSE].loaded);
    remove_support_losses(b, bb->support[CBD_DUPER_ATTACK], bb->n_support[CBD_DUPER_ATTACK],
                          &r->losses[CBD_DUPER_ATTACK]);
    remove_support_losses(b, bb->support[CBD_DUPER_DEFENSE], bb->n_support[CBD_DUPER_DEFENSE],
                          &r->losses[CBD_DUPER_DEFENSE]);
    if (r->captured) {
        /* T changes hands with its center (D7); the attackers that moved in stand on it and
         * an attacking fort stays on S (D6: it is never in moved_in). */
        remove_counts(s->units, r->moved_in_units);
        remove_counts(s->loaded, r->moved_in_loaded);
        for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
            t->units[c] += r->moved_in_units[c];
            t->loaded[c] += r->moved_in_loaded[c];
        }
        t->owner = bb->attacker;
    }
    if (r->eliminated[CBD_DUPER_ATTACK]) {
        eliminate(b, bb->attacker);
    }
    if (r->eliminated[CBD_DUPER_DEFENSE]) {
        eliminate(b, bb->defender);
    }
    return CBD_OK;
}

static cbd_status attack_fail(cbd_duper_board_error *err, cbd_duper_board_fault fault, size_t i,
                              int member, const char *detail) {
    *err = (cbd_duper_board_error){fault, i, member, -1, false, detail};
    return CBD_ERR_INVALID;
}

static bool adjacent(const cbd_duper_board *b, size_t x, size_t y) {
    for (size_t k = b->adj_start[x]; k < b->adj_start[x + 1]; k++) {
        if (b->adj[k] == y) {
            return true;
        }
    }
    return false;
}

/* The refusals on the board as given (its 422s); out[i].from/to/attacker are set. */
static cbd_status check_attacks(const cbd_duper_board *b, const cbd_duper_attack_spec *a, size_t n,
                                cbd_budget *budget, cbd_duper_board_battle *out,
                                cbd_duper_board_error *err) {
    for (size_t i = 0; i < n; i++) {
        size_t from = a[i].from ? cbd_duper_board_find(b, a[i].from) : CBD_DUPER_BOARD_NONE;
        size_t to = a[i].to ? cbd_duper_board_find(b, a[i].to) : CBD_DUPER_BOARD_NONE;
        if (from == CBD_DUPER_BOARD_NONE || to == CBD_DUPER_BOARD_NONE) {
            return attack_fail(err, CBD_BOARD_ATTACK_UNKNOWN_TILE, i,
                               from == CBD_DUPER_BOARD_NONE ? 0 : 1, "names no tile of the board");
        }
        int32_t attacker = b->tiles[from].owner;
        if (attacker == CBD_DUPER_BOARD_NPC) {
            return attack_fail(err, CBD_BOARD_ATTACK_NPC_SOURCE, i, 0,
                               "is an NPC tile: NPC tiles never attack (D9)");
        }
        if (b->tiles[to].owner == attacker) {
            return attack_fail(err, CBD_BOARD_ATTACK_OWN_TARGET, i, 1,
                               "is the attacker's own tile: an attack needs another owner's");
        }
        if (a[i].kind == CBD_DUPER_NORMAL &&
            !cbd_charge(budget,
                        cbd_work_times(CBD_WORK_BOARD_STEP, cbdp_duper_board_degree(b, from)))) {
            return CBD_ERR_BUDGET;
        }
        if (a[i].kind == CBD_DUPER_NORMAL && !adjacent(b, from, to)) {
            return attack_fail(err, CBD_BOARD_ATTACK_NOT_ADJACENT, i, 1,
                               "is not adjacent to from: a normal attack needs adjacent tiles "
                               "(D14); a long-distance one does not");
        }
        out[i].from = from;
        out[i].to = to;
        out[i].attacker = attacker;
        out[i].defender = b->tiles[to].owner;
    }
    return CBD_OK;
}

/* D16: why an attack cannot run on the board as it stands now, if it cannot. */
static cbd_duper_skip skip_reason(const cbd_duper_board *b, const cbd_duper_board_battle *bb,
                                  cbd_duper_kind kind) {
    const cbd_duper_board_tile *s = &b->tiles[bb->from], *t = &b->tiles[bb->to];
    if (!s->present || s->owner != bb->attacker) {
        return CBD_DUPER_SKIP_SOURCE_LOST;
    }
    if (!cbdp_duper_board_can_attack(s, kind)) {
        return CBD_DUPER_SKIP_NOTHING;
    }
    if (!t->present) {
        return CBD_DUPER_SKIP_TARGET_GONE;
    }
    return t->owner == bb->attacker ? CBD_DUPER_SKIP_TARGET_OWN : CBD_DUPER_RAN;
}

cbd_status cbd_duper_board_run(cbd_duper_board *b, const cbd_duper_rules *rules,
                               const cbd_duper_attack_spec *attacks, size_t n_attacks,
                               uint64_t seed, cbd_budget *budget, cbd_duper_board_battle *out,
                               cbd_duper_board_error *err) {
    *err = (cbd_duper_board_error){CBD_BOARD_FINE, 0, 0, -1, false, NULL};
    memset(out, 0, n_attacks * sizeof *out);
    /* Each attack: its tiles looked up, its battle resolved (the walks are charged apart). */
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_DUPER_BATTLE, n_attacks))) {
        return CBD_ERR_BUDGET;
    }
    cbd_status st = check_attacks(b, attacks, n_attacks, budget, out, err);
    for (size_t i = 0; st == CBD_OK && i < n_attacks; i++) {
        out[i].seed = (seed + i) & SEED_MASK;
        out[i].skipped = skip_reason(b, &out[i], attacks[i].kind);
        if (out[i].skipped != CBD_DUPER_RAN) {
            continue;
        }
        uint64_t battle_seed = out[i].seed;
        int32_t attacker = out[i].attacker;
        st = cbd_duper_board_prepare(b, out[i].from, out[i].to, attacks[i].kind, budget, &out[i]);
        if (st == CBD_ERR_INVALID) {
            return attack_fail(err, CBD_BOARD_ATTACK_SUPPORT, i, 0,
                               "a side would have more than 8 supporting tiles");
        }
        if (st != CBD_OK) {
            return st;
        }
        out[i].seed = battle_seed;
        out[i].attacker = attacker;
        st = cbd_duper_resolve(rules, &out[i].battle, battle_seed, &out[i].result);
        if (st == CBD_OK) {
            st = cbd_duper_board_apply(b, &out[i], budget);
        }
    }
    return st;
}
