/*
 * The units of one group in the exact engine's states (W21, W22): their words, where they stand,
 * their listed order on each territory, and the elimination of a player whose last Commander
 * died. See warapp_turn_internal.h for the layout.
 */
#include <string.h>

#include "core/warapp/turn/warapp_turn_internal.h"

static uint32_t *unit_words(const cbd_turn_gunits *g, uint32_t *key, size_t gu) {
    return key + g->base + gu * CBD_TURN_UNIT_WORDS;
}

static const uint32_t *unit_words_c(const cbd_turn_gunits *g, const uint32_t *key, size_t gu) {
    return key + g->base + gu * CBD_TURN_UNIT_WORDS;
}

static void add_cmdr_player(cbd_turn_gunits *g, cbd_turn_player p) {
    for (size_t i = 0; i < g->n_cmdr_players; i++) {
        if (g->cmdr_players[i] == p) {
            return;
        }
    }
    g->cmdr_players[g->n_cmdr_players++] = p;
}

size_t cbdp_turn_gunits_init(cbd_turn_gunits *g, const cbd_turn_plan *plan, const uint32_t *local,
                             size_t n_terr, size_t stride) {
    const cbd_turn *t = plan->turn;
    g->plan = plan;
    g->n = 0;
    g->n_cmdr_players = 0;
    g->base = n_terr * stride;
    g->stride = stride;
    for (size_t u = 0; u < t->n_units; u++) {
        g->of_board[u] = UINT32_MAX;
        if (local[t->units[u].territory] == UINT32_MAX) {
            continue; /* another group's */
        }
        cbd_turn_player owner = plan->start[t->units[u].territory].owner;
        g->of_board[u] = (uint32_t)g->n;
        g->owner[g->n] = owner;
        g->board[g->n++] = (uint32_t)u;
        if (t->units[u].commander && owner != CBD_TURN_NEUTRAL) {
            add_cmdr_player(g, owner); /* W22: neutral is never eliminated */
        }
    }
    return g->n * CBD_TURN_UNIT_WORDS;
}

void cbdp_turn_gunits_start(const cbd_turn_gunits *g, const uint32_t *local, uint32_t *key) {
    const cbd_turn *t = g->plan->turn;
    for (size_t gu = 0; gu < g->n; gu++) {
        const cbd_turn_unit *u = &t->units[g->board[gu]];
        uint32_t *w = unit_words(g, key, gu), rank = 0;
        for (size_t before = 0; before < gu; before++) {
            rank += t->units[g->board[before]].territory == u->territory;
        }
        w[CBD_U_LOC] = local[u->territory] + 1;
        w[CBD_U_RANK] = rank; /* the board's order on each territory (W19) */
        w[CBD_U_HEALTH] = u->unit.has_health ? (uint32_t)u->unit.toughness : 0;
        w[CBD_U_MOVED] = 0;
    }
}

/* A stable counting sort of the n units of `out` by rank: ranks on a territory count the units
 * listed before, so each is below g->n <= CBD_TURN_MAX_UNITS. */
static void sort_by_rank(const cbd_turn_gunits *g, const uint32_t *key, uint8_t *out, size_t n,
                         uint32_t max_rank) {
    uint8_t first[CBD_TURN_MAX_UNITS + 1] = {0}, in[CBD_TURN_MAX_UNITS];
    memcpy(in, out, n);
    for (size_t i = 0; i < n; i++) {
        first[unit_words_c(g, key, in[i])[CBD_U_RANK] + 1]++;
    }
    for (uint32_t r = 1; r <= max_rank; r++) {
        first[r] = (uint8_t)(first[r] + first[r - 1]); /* now the place of rank r's first */
    }
    for (size_t i = 0; i < n; i++) {
        out[first[unit_words_c(g, key, in[i])[CBD_U_RANK]]++] = in[i];
    }
}

size_t cbdp_turn_gunits_on(const cbd_turn_gunits *g, const uint32_t *key, size_t l, uint8_t *out) {
    size_t n = 0;
    uint32_t last = 0, max_rank = 0;
    bool sorted = true;
    for (size_t gu = 0; gu < g->n; gu++) {
        const uint32_t *w = unit_words_c(g, key, gu);
        if (w[CBD_U_LOC] != l + 1) {
            continue;
        }
        sorted = sorted && (n == 0 || w[CBD_U_RANK] >= last);
        last = w[CBD_U_RANK];
        max_rank = last > max_rank ? last : max_rank;
        out[n++] = (uint8_t)gu;
    }
    /* Mostly in board order already; else sorted in linear time, not by insertion (units moved
     * onto a territory before those there in board order made that 32 × 32 shifts a state). */
    if (!sorted) {
        sort_by_rank(g, key, out, n, max_rank);
    }
    return n;
}

size_t cbdp_turn_gunits_sendable(const cbd_turn_gunits *g, const uint32_t *key,
                                 const cbd_turn_order *o, size_t lf, uint8_t *out) {
    bool multi = g->plan->turn->multi_attack;
    size_t n = 0;
    for (size_t k = 0; k < o->n_units; k++) {
        uint32_t gu = g->of_board[o->units[k]];
        if (gu == UINT32_MAX) {
            continue; /* it starts in another group: never on this group's territories */
        }
        const uint32_t *w = unit_words_c(g, key, gu);
        if (w[CBD_U_LOC] == lf + 1 && (multi || !w[CBD_U_MOVED])) {
            out[n++] = (uint8_t)gu; /* W21: on `from`, and not moved without multi_attack */
        }
    }
    return n;
}

/* Ranks 0 .. k − 1 again on territory l, in their order (after a unit left or died). */
static void gunits_compact(const cbd_turn_gunits *g, uint32_t *key, size_t l) {
    uint8_t on[CBD_TURN_MAX_UNITS];
    size_t n = cbdp_turn_gunits_on(g, key, l, on);
    for (size_t i = 0; i < n; i++) {
        unit_words(g, key, on[i])[CBD_U_RANK] = (uint32_t)i;
    }
}

void cbdp_turn_gunits_lift(const cbd_turn_gunits *g, uint32_t *key, const uint8_t *list, size_t n,
                           size_t lf) {
    for (size_t i = 0; i < n; i++) {
        uint32_t *w = unit_words(g, key, list[i]);
        w[CBD_U_LOC] = 0;
        w[CBD_U_RANK] = 0;
    }
    gunits_compact(g, key, lf);
}

void cbdp_turn_gunits_place(const cbd_turn_gunits *g, uint32_t *key, const uint8_t *list, size_t n,
                            size_t l) {
    uint8_t on[CBD_TURN_MAX_UNITS];
    size_t there = cbdp_turn_gunits_on(g, key, l, on);
    for (size_t i = 0; i < n; i++) {
        uint32_t *w = unit_words(g, key, list[i]);
        w[CBD_U_LOC] = (uint32_t)l + 1;
        w[CBD_U_RANK] = (uint32_t)(there + i); /* W21: after those there, in listed order */
        w[CBD_U_MOVED] = g->plan->turn->multi_attack ? 0 : 1;
    }
}

/* W22, W28: a Commander's owner now: its start owner's, or the receiver of a gift of its
 * territory (its CBD_U_OWNER word, kept when it dies or retires). */
static cbd_turn_player commander_owner(const cbd_turn_gunits *g, const uint32_t *key, size_t gu) {
    uint32_t gifted = unit_words_c(g, key, gu)[CBD_U_OWNER];
    return gifted ? (cbd_turn_player)(gifted - 1) : g->owner[gu];
}

bool cbdp_turn_gunits_is_commander(const cbd_turn_gunits *g, size_t gu) {
    const cbd_turn_unit *u = &g->plan->turn->units[g->board[gu]];
    return u->commander && !u->unit.has_health;
}

void cbdp_turn_gunits_gift(const cbd_turn_gunits *g, uint32_t *key, size_t l, cbd_turn_player to) {
    bool multi = g->plan->turn->multi_attack;
    for (size_t gu = 0; gu < g->n; gu++) {
        uint32_t *w = unit_words(g, key, gu);
        if (w[CBD_U_LOC] != l + 1) {
            continue;
        }
        w[CBD_U_MOVED] = multi ? 0 : 1; /* W28: a gifted unit has moved this turn */
        if (cbdp_turn_gunits_is_commander(g, gu)) {
            w[CBD_U_OWNER] = to == g->owner[gu] ? 0 : (uint32_t)to + 1;
        }
    }
}

bool cbdp_turn_gunits_eliminated(const cbd_turn_gunits *g, const uint32_t *key, cbd_turn_player p) {
    bool any = false;
    for (size_t gu = 0; gu < g->n; gu++) {
        if (cbdp_turn_gunits_is_commander(g, gu) && commander_owner(g, key, gu) == p) {
            any = true;
            if (unit_words_c(g, key, gu)[CBD_U_LOC] != 0) {
                return false;
            }
        }
    }
    return any; /* W22: a player who started without a Commander is never eliminated */
}

/* W22: every territory of p in `key` becomes neutral with all it holds (none eligible). */
static void gunits_neutralise(const cbd_turn_gunits *g, uint32_t *key, size_t n_terr,
                              cbd_turn_player p) {
    const size_t S = g->stride;
    for (size_t l = 0; l < n_terr; l++) {
        if (key[l * S + W_OWNER] == p) {
            key[l * S + W_OWNER] = CBD_TURN_NEUTRAL; /* its armies and units stay, neutral's */
            if (S == 3) {
                key[l * S + W_ELIG] = 0; /* W15: a new owner has none eligible */
            }
        }
    }
}

cbd_warapp_unit cbdp_turn_gunits_now(const cbd_turn_gunits *g, const uint32_t *key, size_t gu) {
    cbd_warapp_unit u = g->plan->turn->units[g->board[gu]].unit;
    if (u.has_health) {
        u.toughness = unit_words_c(g, key, gu)[CBD_U_HEALTH];
    }
    return u;
}

/* W19: a side's units after the damage (dead: every word 0; a health unit: its health left). */
static void units_after(const cbd_turn_gunits *g, uint32_t *k, const uint8_t *list, size_t n,
                        const cbd_warapp_side_state *st) {
    for (size_t i = 0; i < n; i++) {
        uint32_t *w = k + g->base + (size_t)list[i] * CBD_TURN_UNIT_WORDS;
        if (st->unit_left[i] == 0) {
            /* W22, W28: a dead Commander keeps whose it was, all else 0. */
            uint32_t owner = cbdp_turn_gunits_is_commander(g, list[i]) ? w[CBD_U_OWNER] : 0;
            memset(w, 0, CBD_TURN_UNIT_WORDS * sizeof *w);
            w[CBD_U_OWNER] = owner;
        } else if (g->plan->turn->units[g->board[list[i]]].unit.has_health) {
            w[CBD_U_HEALTH] = (uint32_t)st->unit_left[i];
        }
    }
}

/* The survivors of list (by state st) in their listed order, for placing them. */
static size_t survivors(const uint8_t *list, size_t n, const cbd_warapp_side_state *st,
                        uint8_t *out) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (st->unit_left[i] > 0) {
            if (out) {
                out[m] = list[i];
            }
            m++;
        }
    }
    return m;
}

/* Whether a Commander of list died (by state st). */
static bool commander_died(const cbd_turn_gunits *g, const uint8_t *list, size_t n,
                           const cbd_warapp_side_state *st) {
    for (size_t i = 0; i < n; i++) {
        if (st->unit_left[i] == 0 && g->plan->turn->units[g->board[list[i]]].commander) {
            return true;
        }
    }
    return false;
}

/*
 * W22: the players whose last Commander died in this battle are eliminated at once: every
 * territory they own (in the group: all of a Commander's player's are, see
 * warapp_turn_analyze.c) becomes neutral with what it holds.
 */
static void eliminate(const cbd_turn_gunits *g, uint32_t *k, cbd_turn_player attacker,
                      cbd_turn_player defender, bool att_died, bool def_died) {
    size_t n_terr = g->base / g->stride;
    if (att_died && cbdp_turn_gunits_eliminated(g, k, attacker)) {
        gunits_neutralise(g, k, n_terr, attacker);
    }
    if (def_died && defender != CBD_TURN_NEUTRAL && cbdp_turn_gunits_eliminated(g, k, defender)) {
        gunits_neutralise(g, k, n_terr, defender);
    }
}

bool cbdp_turn_gunits_outcome(const cbd_turn_gunits *g, uint32_t *k2, cbd_turn_player player,
                              size_t lf, size_t lt, const uint8_t *att, size_t n_att,
                              const uint8_t *def, size_t n_def, const cbd_warapp_side_state *st) {
    const size_t S = g->stride;
    cbd_turn_player defender = (cbd_turn_player)k2[lt * S + W_OWNER];
    bool att_empty = st[0].armies_left == 0 && survivors(att, n_att, &st[0], NULL) == 0;
    bool def_empty = st[1].armies_left == 0 && survivors(def, n_def, &st[1], NULL) == 0;
    /* Only the capture and the defenders left are read: the armies before the battle are the
     * defenders' on `to` still, and the attack's are not needed. */
    cbd_warapp_outcome out =
        cbd_warapp_decide(st[0].armies_left, k2[lt * S + W_ARMIES], st[0].armies_left, att_empty,
                          st[1].armies_left, def_empty);
    bool captured = out.captured; /* W20 */
    units_after(g, k2, att, n_att, &st[0]);
    units_after(g, k2, def, n_def, &st[1]);
    uint8_t back[CBD_TURN_MAX_UNITS];
    size_t n_back = survivors(att, n_att, &st[0], back);
    if (captured) {
        k2[lt * S + W_OWNER] = player; /* W6, W20: the survivors and their units move in */
        k2[lt * S + W_ARMIES] = (uint32_t)st[0].armies_left;
        if (S == 3) {
            k2[lt * S + W_ELIG] = 0;
        }
        cbdp_turn_gunits_place(g, k2, back, n_back, lt);
    } else {
        uint64_t dleft = out.defenders_left; /* W5, W20 */
        k2[lf * S + W_ARMIES] += (uint32_t)st[0].armies_left;
        k2[lt * S + W_ARMIES] = (uint32_t)dleft;
        if (S == 3 && k2[lt * S + W_ELIG] > dleft) {
            k2[lt * S + W_ELIG] = (uint32_t)dleft; /* W15 */
        }
        cbdp_turn_gunits_place(g, k2, back, n_back, lf); /* back home, after those there */
        gunits_compact(g, k2, lt);
    }
    eliminate(g, k2, player, defender, commander_died(g, att, n_att, &st[0]),
              commander_died(g, def, n_def, &st[1]));
    return captured;
}
