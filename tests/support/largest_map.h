#ifndef COMBATD_TEST_LARGEST_MAP_H
#define COMBATD_TEST_LARGEST_MAP_H

/*
 * A board the size of the game's largest maps (Imperator Rome: 4,000 territories, 820
 * bonuses) with 6 players and 1,000 orders, written as JSON text both in combatd's shape
 * (/analyze-turn, /simulate-turn, /plan-turn) and in the game's (/warzone/...). Header-only and
 * without Criterion, so that a benchmark can use it too.
 *
 * The map is a grid of LM_ROWS x LM_COLS territories, id r * LM_COLS + c + 1 (the game's ids;
 * combatd's are "t" and the number), each bordering the territories left, right, above, below
 * and the two of one diagonal (a hex map's six). Bonuses: 5 territories in a row each (800),
 * and 20 of 10 (two rows of 5, overlapping the small ones, as a map's super-bonuses do).
 * Player 1 holds rows 0-12 (1,040 territories); players 2-6 hold 7 rows each (rows 13-47);
 * rows 48-49 are neutral. Every territory has 3 armies, but the last row of players 2-6, with 6.
 * Orders (players 2-6 only, so that the board is also one to plan on for player 1): each
 * deploys 1 army on 120 territories of its second and third rows, and attacks from each of its
 * last row's 80 territories the territory below with 5: 5 v 3 at luck 0 kills
 * round(5 · 0.6) = 3, every defender, and loses round(3 · 0.7) = 2 (W1, W2, W4), so every
 * attack captures, surely, leaving 3 on the target and 1 on the source.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LM_ROWS        50
#define LM_COLS        80
#define LM_TERRITORIES (LM_ROWS * LM_COLS)
#define LM_PLAYERS     6
#define LM_OWN_ROWS    13 /* player 1's */
#define LM_ROWS_EACH   7  /* players 2-6's */

typedef struct {
    char *text;
    size_t len, cap;
} lm_buf;

static void lm_put(lm_buf *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n =
            vsnprintf(b->text ? b->text + b->len : NULL, b->text ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            abort();
        }
        if (b->text && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->text = realloc(b->text, b->cap);
        if (!b->text) {
            abort();
        }
    }
}

/* The owner of row r: 1..6, or 0 for neutral. */
static int lm_owner(int r) {
    if (r < LM_OWN_ROWS) {
        return 1;
    }
    if (r < LM_OWN_ROWS + (LM_PLAYERS - 1) * LM_ROWS_EACH) {
        return 2 + (r - LM_OWN_ROWS) / LM_ROWS_EACH;
    }
    return 0;
}

static int lm_first_row(int player) {
    return player == 1 ? 0 : LM_OWN_ROWS + (player - 2) * LM_ROWS_EACH;
}

static int lm_last_row(int player) {
    return player == 1 ? LM_OWN_ROWS - 1 : lm_first_row(player) + LM_ROWS_EACH - 1;
}

static int lm_armies(int r) {
    int p = lm_owner(r);
    return p >= 2 && r == lm_last_row(p) ? 6 : 3;
}

static int lm_id(int r, int c) {
    return r * LM_COLS + c + 1;
}

/* The up to six neighbours of (r, c), as ids; their number. */
static int lm_neighbors(int r, int c, int out[6]) {
    static const int dr[6] = {0, 0, -1, 1, -1, 1}, dc[6] = {-1, 1, 0, 0, 1, -1};
    int n = 0;
    for (int k = 0; k < 6; k++) {
        int rr = r + dr[k], cc = c + dc[k];
        if (rr >= 0 && rr < LM_ROWS && cc >= 0 && cc < LM_COLS) {
            out[n++] = lm_id(rr, cc);
        }
    }
    return n;
}

/* Bonus b's territories (ids) into out[10]; their number. */
static int lm_bonus(int b, int out[10]) {
    if (b < 800) {
        int r = b / 16, c0 = (b % 16) * 5;
        for (int i = 0; i < 5; i++) {
            out[i] = lm_id(r, c0 + i);
        }
        return 5;
    }
    int k = b - 800, r = (k / 16) * 2 + 1, c0 = (k % 16) * 5;
    for (int i = 0; i < 10; i++) {
        out[i] = lm_id(r + i / 5, c0 + i % 5);
    }
    return 10;
}
#define LM_BONUSES 820

/* Calls emit(order kind, player, from id, to id, armies) for the 1,000 orders in list order:
 * kind 'd' a deploy (from unused), 'a' an attack. */
#define LM_FOR_EACH_ORDER(EMIT)                                                                    \
    for (int p_ = 2; p_ <= LM_PLAYERS; p_++) {                                                     \
        int f_ = lm_first_row(p_);                                                                 \
        for (int i_ = 0; i_ < 120; i_++) {                                                         \
            EMIT('d', p_, 0, lm_id(f_ + 1 + i_ / 60, i_ % 60), 1);                                 \
        }                                                                                          \
        for (int c_ = 0; c_ < LM_COLS; c_++) {                                                     \
            EMIT('a', p_, lm_id(lm_last_row(p_), c_), lm_id(lm_last_row(p_) + 1, c_), 5);          \
        }                                                                                          \
    }
#define LM_ORDERS ((LM_PLAYERS - 1) * (120 + LM_COLS))

/* ---- combatd's shape ---- */

static void lm_combatd_territories(lm_buf *b) {
    lm_put(b, "\"territories\": {");
    for (int r = 0; r < LM_ROWS; r++) {
        for (int c = 0; c < LM_COLS; c++) {
            int nb[6], n = lm_neighbors(r, c, nb), p = lm_owner(r);
            char owner[16];
            snprintf(owner, sizeof owner, p ? "p%d" : "neutral", p);
            lm_put(b, "%s\"t%d\": {\"owner\": \"%s\", \"armies\": %d, \"neighbors\": [",
                   r || c ? ", " : "", lm_id(r, c), owner, lm_armies(r));
            for (int k = 0; k < n; k++) {
                lm_put(b, "%s\"t%d\"", k ? ", " : "", nb[k]);
            }
            lm_put(b, "]}");
        }
    }
    lm_put(b, "}, \"bonuses\": {");
    for (int k = 0; k < LM_BONUSES; k++) {
        int ids[10], n = lm_bonus(k, ids);
        lm_put(b, "%s\"b%d\": {\"value\": %d, \"territories\": [", k ? ", " : "", k + 1,
               n == 5 ? 3 : 7);
        for (int i = 0; i < n; i++) {
            lm_put(b, "%s\"t%d\"", i ? ", " : "", ids[i]);
        }
        lm_put(b, "]}");
    }
    lm_put(b, "}");
}

static bool lm_first_order_;
#define LM_COMBATD_ORDER(kind, p, from, to, armies)                                                \
    do {                                                                                           \
        if (kind == 'd') {                                                                         \
            lm_put(&b,                                                                             \
                   "%s{\"type\": \"deploy\", \"player\": \"p%d\", \"to\": \"t%d\", "               \
                   "\"armies\": %d}",                                                              \
                   lm_first_order_ ? "" : ", ", p, to, armies);                                    \
        } else {                                                                                   \
            lm_put(&b,                                                                             \
                   "%s{\"player\": \"p%d\", \"from\": \"t%d\", \"to\": \"t%d\", "                  \
                   "\"armies\": %d}",                                                              \
                   lm_first_order_ ? "" : ", ", p, from, to, armies);                              \
        }                                                                                          \
        lm_first_order_ = false;                                                                   \
    } while (0)

/* The turn in combatd's shape, its 1,000 orders, then `extra` (members after a comma, or ""). */
static char *lm_combatd_turn(const char *extra) {
    lm_buf b = {0};
    lm_put(&b, "{");
    lm_combatd_territories(&b);
    lm_put(&b, ", \"orders\": [");
    lm_first_order_ = true;
    LM_FOR_EACH_ORDER(LM_COMBATD_ORDER);
    lm_put(&b, "]%s%s}", *extra ? ", " : "", extra);
    return b.text;
}

/* ---- the game's shape (the bot API's GetBotGameSettings and a standing) ---- */

#define LM_GAME_ORDER(kind, p, from, to, armies)                                                   \
    do {                                                                                           \
        if (kind == 'd') {                                                                         \
            lm_put(&b,                                                                             \
                   "%s{\"type\": \"GameOrderDeploy\", \"playerID\": \"%d\", "                      \
                   "\"deployOn\": %d, \"armies\": \"%d\"}",                                        \
                   lm_first_order_ ? "" : ", ", 100 * p, to, armies);                              \
        } else {                                                                                   \
            lm_put(&b,                                                                             \
                   "%s{\"type\": \"GameOrderAttackTransfer\", \"playerID\": \"%d\", "              \
                   "\"from\": %d, \"to\": %d, \"numArmies\": \"%d\", "                             \
                   "\"attackTransfer\": \"AttackTransfer\", \"byPercent\": \"False\"}",            \
                   lm_first_order_ ? "" : ", ", 100 * p, from, to, armies);                        \
        }                                                                                          \
        lm_first_order_ = false;                                                                   \
    } while (0)

/* The turn in the game's JSON (player p is "100·p"), then `extra` (members, or ""). */
static char *lm_game_turn(const char *extra) {
    lm_buf b = {0};
    lm_put(&b, "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": \"70\", "
               "\"LuckModifier\": \"0\", \"MinimumArmyBonus\": \"5\"}, \"map\": "
               "{\"territories\": [");
    for (int r = 0; r < LM_ROWS; r++) {
        for (int c = 0; c < LM_COLS; c++) {
            int nb[6], n = lm_neighbors(r, c, nb);
            lm_put(&b, "%s{\"id\": \"%d\", \"name\": \"Territory %d\", \"connectedTo\": [",
                   r || c ? ", " : "", lm_id(r, c), lm_id(r, c));
            for (int k = 0; k < n; k++) {
                lm_put(&b, "%s\"%d\"", k ? ", " : "", nb[k]);
            }
            lm_put(&b, "]}");
        }
    }
    lm_put(&b, "], \"bonuses\": [");
    for (int k = 0; k < LM_BONUSES; k++) {
        int ids[10], n = lm_bonus(k, ids);
        lm_put(&b,
               "%s{\"id\": \"%d\", \"name\": \"Bonus %d\", \"value\": \"%d\", "
               "\"territoryIDs\": [",
               k ? ", " : "", k + 1, k + 1, n == 5 ? 3 : 7);
        for (int i = 0; i < n; i++) {
            lm_put(&b, "%s\"%d\"", i ? ", " : "", ids[i]);
        }
        lm_put(&b, "]}");
    }
    lm_put(&b, "]}, \"standing\": [");
    for (int r = 0; r < LM_ROWS; r++) {
        for (int c = 0; c < LM_COLS; c++) {
            int p = lm_owner(r);
            char owner[16];
            snprintf(owner, sizeof owner, p ? "%d" : "Neutral", 100 * p);
            lm_put(&b, "%s{\"terrID\": \"%d\", \"ownedBy\": \"%s\", \"armies\": \"%d\"}",
                   r || c ? ", " : "", lm_id(r, c), owner, lm_armies(r));
        }
    }
    lm_put(&b, "], \"players\": [");
    for (int p = 1; p <= LM_PLAYERS; p++) {
        lm_put(&b, "%s{\"id\": \"%d\"}", p > 1 ? ", " : "", 100 * p);
    }
    lm_put(&b, "], \"orders\": [");
    lm_first_order_ = true;
    LM_FOR_EACH_ORDER(LM_GAME_ORDER);
    lm_put(&b, "]%s%s}", *extra ? ", " : "", extra);
    return b.text;
}

#endif
