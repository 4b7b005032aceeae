/*
 * The most expensive legal requests an attacker can send each POST endpoint at the default
 * configuration (bodies within the default 64 KiB server.body_limit), and the ones the
 * budget's issue reported, as one table: what tests/integration/test_budget_attacks.c measures
 * from /proc and tests/integration/test_starvation.c floods with. Header-only, without
 * Criterion. What each row is expected to end with is in the row: a 200 (it fits the budget),
 * a 422 naming a given member, or either (where the work budget may or may not be enough).
 */
#ifndef COMBATD_TEST_COSTLY_REQUESTS_H
#define COMBATD_TEST_COSTLY_REQUESTS_H

#include <stdbool.h>

#include "costly_text.h"

typedef enum {
    COSTLY_200,       /* answered within the budget */
    COSTLY_422,       /* refused, naming `member` */
    COSTLY_200_OR_422 /* either; a 422 names a member (`member`, when not NULL) */
} costly_outcome;

typedef struct {
    const char *label;
    const char *path;
    char *body; /* malloc'd */
    costly_outcome outcome;
    const char *member; /* the JSON pointer a 422 names */
} costly_request;

/*
 * The turn the budget's issue found first: 700,000,000 armies capture 299,000,000 at luck
 * `luck` with multi_attack, then 99 % of what stands on the captured territory attacks on.
 * The capture leaves some 10^4 possible stacks, each of which the next order fights from.
 * Unmetered it took 11-12 s and 544 MB at luck 0.05, 67.6 s and 8.6 GB at luck 0.2.
 */
static inline char *costly_turn_capture_onwards(const char *luck) {
    costly_buf b = {0};
    costly_add(&b,
               "{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 700000000}, \"B\": "
               "{\"owner\": \"b\", \"armies\": 299000000}, \"C\": {\"owner\": \"c\", \"armies\": "
               "1}}, \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", \"armies\": "
               "700000000}, {\"player\": \"a\", \"from\": \"B\", \"to\": \"C\", \"percent\": "
               "0.99}], \"settings\": {\"luck_modifier\": %s, \"multi_attack\": true}}",
               luck);
    return b.p;
}

/*
 * The attacker's review's chain into a neutral: 3·10^7 capture 1.281·10^7 at luck 0.05 with
 * multi_attack, then 99 % of what stands on B attacks a neutral of 1: every stack the capture
 * leaves fights on (200 after 2.6-3.2 s of CPU while under-charged).
 */
static inline char *costly_turn_chain_neutral(void) {
    return costly_strdup(
        "{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 30000000}, \"B\": "
        "{\"owner\": \"b\", \"armies\": 12810000}, \"C\": {\"owner\": \"neutral\", "
        "\"armies\": 1}}, \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", "
        "\"armies\": 30000000}, {\"player\": \"a\", \"from\": \"B\", \"to\": \"C\", "
        "\"percent\": 0.99}], \"settings\": {\"luck_modifier\": 0.05, \"multi_attack\": true}}");
}

/*
 * The same chain in the game's own JSON (W40), beside two attacks of 9 on neutrals of 6 (at luck
 * 0.05, 9 of 10 sent kill 5.4 ± 0.27: 5 or 6, so each capture is uncertain), with 32 map bonuses
 * over those two neutrals: each bonus's joint chance is a second analysis of the whole turn (W32),
 * so the request asks for 33 analyses of a 0.8 s turn. `tail` ends the document: the seed of
 * /warzone/simulate-turn, the player and goal of /warzone/plan-turn (whose board gives player 100
 * a territory 4 beside 2 to plan with).
 */
static inline char *warzone_chain_of(const char *attackers, const char *defenders,
                                     const char *tail) {
    costly_buf b = {0};
    costly_add(&b, "{\"settings\": {\"OffensiveKillRate\": \"60\", \"DefensiveKillRate\": 70, "
                   "\"LuckModifier\": \"0.05\", \"MultiAttack\": \"True\"}, \"map\": "
                   "{\"territories\": [{\"id\": 1, \"connectedTo\": [2]}, {\"id\": 2, "
                   "\"connectedTo\": [3, 4]}, {\"id\": 3}, {\"id\": 4}, {\"id\": 5}, {\"id\": 6, "
                   "\"connectedTo\": [5]}, {\"id\": 7, \"connectedTo\": [8]}, {\"id\": 8}], "
                   "\"bonuses\": [");
    for (int i = 0; i < 32; i++) {
        costly_add(&b, "%s{\"id\": %d, \"value\": %d, \"territoryIDs\": [5, 8]}", i ? ", " : "",
                   i + 1, i + 1);
    }
    costly_add(&b,
               "]}, \"standing\": [{\"terrID\": 1, \"ownedBy\": \"100\", \"armies\": "
               "\"%s\"}, {\"terrID\": 2, \"ownedBy\": \"200\", \"armies\": \"%s\"}, "
               "{\"terrID\": 3, \"ownedBy\": \"Neutral\", \"armies\": \"1\"}, {\"terrID\": 4, "
               "\"ownedBy\": \"200\", \"armies\": \"5\"}, {\"terrID\": 5, \"ownedBy\": "
               "\"Neutral\", \"armies\": \"6\"}, {\"terrID\": 6, \"ownedBy\": \"100\", "
               "\"armies\": \"10\"}, {\"terrID\": 7, \"ownedBy\": \"100\", \"armies\": \"10\"}, "
               "{\"terrID\": 8, \"ownedBy\": \"Neutral\", \"armies\": \"6\"}], \"players\": "
               "[{\"id\": \"100\"}, "
               "{\"id\": \"200\"}], \"orders\": [{\"type\": \"GameOrderAttackTransfer\", "
               "\"playerID\": \"100\", \"from\": 1, \"to\": 2, \"numArmies\": \"%s\", "
               "\"attackTransfer\": \"AttackTransfer\"}, {\"type\": "
               "\"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": 2, \"to\": 3, "
               "\"numArmies\": \"99\", \"byPercent\": \"True\", \"attackTransfer\": "
               "\"AttackTransfer\"}, {\"type\": \"GameOrderAttackTransfer\", \"playerID\": "
               "\"100\", \"from\": 6, \"to\": 5, \"numArmies\": \"9\"}, {\"type\": "
               "\"GameOrderAttackTransfer\", \"playerID\": \"100\", \"from\": 7, \"to\": 8, "
               "\"numArmies\": \"9\"}]%s}",
               attackers, defenders, attackers, tail);
    return b.p;
}
static inline char *costly_warzone_chain(const char *tail) {
    return warzone_chain_of("30000000", "12810000", tail);
}

/* `random` move order with 7 players giving 0-army orders beside one big battle (400,000 a
 * side at luck 0.16: some 770,000 board states, within warapp.max_turn_states): every order
 * of the 8 players' first moves is weighed (W13). Unmetered: 4.3-6.5 s for a smaller one. */
static inline char *costly_turn_random_order(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\": {\"A\": {\"owner\": \"a\", \"armies\": 400000}, \"B\": "
                   "{\"owner\": \"b\", \"armies\": 400000}");
    for (int i = 1; i <= 7; i++) {
        costly_add(&b, ", \"P%d\": {\"owner\": \"p%d\", \"armies\": 1}", i, i);
    }
    costly_add(&b, "}, \"orders\": [{\"player\": \"a\", \"from\": \"A\", \"to\": \"B\", "
                   "\"armies\": 399999}");
    for (int i = 1; i <= 7; i++) {
        costly_add(&b, ", {\"player\": \"p%d\", \"from\": \"P%d\", \"to\": \"P%d\", \"armies\": 0}",
                   i, i, i % 7 + 1);
    }
    costly_add(&b, "], \"settings\": {\"luck_modifier\": 0.16}, \"move_order\": \"random\"}");
    return b.p;
}

/*
 * A large answer from a 17 KB request, one that passed the answer cap before the budget: 128
 * battles in which 6·10^6 armies surely take a territory of 10^6 at full luck; the stack that moves
 * in is set by the defenders' kills alone (about 9,200 values), each listed
 * (max_distribution_points 10,000): 364 KB of answer a battle, 46 MB in all. The analysis itself is
 * quick (12 ms a battle).
 */
static inline char *costly_turn_large_answer(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\": {");
    for (int i = 0; i < 128; i++) {
        costly_add(&b,
                   "%s\"A%d\": {\"owner\": \"a\", \"armies\": 6000000}, \"B%d\": {\"owner\": "
                   "\"b\", \"armies\": 1000000}",
                   i ? ", " : "", i, i);
    }
    costly_add(&b, "}, \"orders\": [");
    for (int i = 0; i < 128; i++) {
        costly_add(&b,
                   "%s{\"player\": \"a\", \"from\": \"A%d\", \"to\": \"B%d\", \"armies\": "
                   "5999999}",
                   i ? ", " : "", i, i);
    }
    costly_add(&b, "], \"settings\": {\"luck_modifier\": 1}, \"max_distribution_points\": 10000}");
    return b.p;
}

/* A ring of `n` territories sharing the 10^9 armies a board may hold (W10), owned in turn by
 * up to 64 players (a turn's most), each attacking the next territory with all it may move, at luck
 * 0.2 in random move order: every order a battle of two large variates. */
static inline void costly_turn_ring(costly_buf *b, int n) {
    costly_add(b, "\"territories\": {");
    for (int i = 0; i < n; i++) {
        costly_add(b, "%s\"T%d\": {\"owner\": \"p%d\", \"armies\": %d}", i ? ", " : "", i, i % 64,
                   1000000000 / n);
    }
    costly_add(b, "}, \"orders\": [");
    for (int i = 0; i < n; i++) {
        costly_add(b, "%s{\"player\": \"p%d\", \"from\": \"T%d\", \"to\": \"T%d\", \"percent\": 1}",
                   i ? ", " : "", i % 64, i, (i + 1) % n);
    }
    costly_add(b, "], \"settings\": {\"luck_modifier\": 0.2, \"rounding_mode\": "
                  "\"weighted_random\"}, \"move_order\": \"random\"");
}

/* A board of 256 territories (two players in turn, 3 armies each) with one order, for
 * `trials` trials: every trial counts all 256 territories. */
static inline char *costly_turn_wide_board(long trials) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\":{");
    for (int i = 0; i < 256; i++) {
        costly_add(&b, "%s\"t%d\":{\"owner\":\"p%d\",\"armies\":3}", i ? "," : "", i, i % 2);
    }
    costly_add(&b,
               "},\"orders\":[{\"player\":\"p0\",\"from\":\"t0\",\"to\":\"t1\",\"armies\":2}],"
               "\"trials\":%ld,\"seed\":1}",
               trials);
    return b.p;
}

/*
 * /plan-turn at its most (W31): 8 own territories of 10^6 armies in a ring, each bordering two
 * of 8 enemy territories of 10^6 and the next own one, income 10^6, luck 0.2, every enemy
 * territory to capture (expected), max_plans 100000: every plan analysed costs several battles
 * of 10^6 a side, so the search's half of the work budget ends it (an answer, optimal false) or
 * the first plan does not fit (a 422 or 503 naming what to reduce).
 */
static inline char *costly_plan_turn(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\": {");
    for (int i = 0; i < 8; i++) {
        costly_add(&b,
                   "%s\"M%d\": {\"owner\": \"me\", \"armies\": 1000000, \"neighbors\": "
                   "[\"E%d\", \"E%d\", \"M%d\"]}, \"E%d\": {\"owner\": \"bob\", \"armies\": "
                   "1000000, \"neighbors\": []}",
                   i ? ", " : "", i, i, (i + 1) % 8, (i + 1) % 8, i);
    }
    costly_add(&b, "}, \"player\": \"me\", \"income\": 1000000, \"goal\": {\"capture\": [");
    for (int i = 0; i < 8; i++) {
        costly_add(&b, "%s\"E%d\"", i ? ", " : "", i);
    }
    costly_add(&b, "]}, \"objective\": \"expected\", \"max_plans\": 100000, \"settings\": "
                   "{\"luck_modifier\": 0.2}}");
    return b.p;
}

/*
 * /plan-turn requests that once ran for ever: `n` own territories of 2 armies, each
 * beside a neutral of 1 of its own (and in a ring, beside the next own one), goal: capture N0.
 * The plans' count walked every ordering of the orders (n!) uncharged: 12 pairs took 17 s of
 * CPU, 13 pairs 186 s, a ring of 16 never ended; with max_plans 1 two of them held both HTTP
 * threads for a minute. `mcp` wraps it in a tools/call of plan_turn.
 */
static inline char *costly_plan_pairs(int n, bool ring, int max_plans, unsigned long long income,
                                      bool mcp) {
    costly_buf b = {0};
    if (mcp) {
        costly_add(&b, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", "
                       "\"params\": {\"name\": \"plan_turn\", \"arguments\": ");
    }
    costly_add(&b, "{\"territories\": {");
    for (int i = 0; i < n; i++) {
        costly_add(&b, "%s\"M%d\": {\"owner\": \"me\", \"armies\": 2, \"neighbors\": [\"N%d\"",
                   i ? ", " : "", i, i);
        if (ring) {
            costly_add(&b, ", \"M%d\"", (i + 1) % n);
        }
        costly_add(&b, "]}, \"N%d\": {\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}",
                   i);
    }
    costly_add(&b, "}, \"player\": \"me\", \"income\": %llu, \"goal\": {\"capture\": [\"N0\"]}",
               income);
    if (max_plans > 0) {
        costly_add(&b, ", \"max_plans\": %d", max_plans);
    }
    costly_add(&b, mcp ? "}}}" : "}");
    return b.p;
}

/* The other players' capture-then-onwards battle (4·10^7 armies at 1.708·10^7, luck
 * 0.05, multi_attack, then 99 % of the stack onwards) beside the planner's own small front:
 * analysed up to three times (3.3-8 s), or a 500 when the search's budget ended it. */
static inline char *costly_plan_others_onwards(void) {
    return costly_strdup(
        "{\"territories\": {\"M\": {\"owner\": \"me\", \"armies\": 5, \"neighbors\": [\"N\"]}, "
        "\"N\": {\"owner\": \"neutral\", \"armies\": 1, \"neighbors\": []}, \"X\": {\"owner\": "
        "\"x\", \"armies\": 40000000, \"neighbors\": [\"Y\"]}, \"Y\": {\"owner\": \"y\", "
        "\"armies\": 17080000, \"neighbors\": [\"Z\"]}, \"Z\": {\"owner\": \"z\", \"armies\": 1, "
        "\"neighbors\": []}}, \"orders\": [{\"player\": \"x\", \"from\": \"X\", \"to\": \"Y\", "
        "\"armies\": 40000000}, {\"player\": \"x\", \"from\": \"Y\", \"to\": \"Z\", \"percent\": "
        "0.99}], \"settings\": {\"luck_modifier\": 0.05, \"multi_attack\": true}, \"player\": "
        "\"me\", \"income\": 3, \"goal\": {\"capture\": [\"N\"]}}");
}

/* /simulate-turn at its limit: 10^7 trials of 5 orders (warapp.max_turn_simulated_orders). */
static inline char *costly_simulate_turn(void) {
    costly_buf b = {0};
    costly_add(&b, "{");
    costly_turn_ring(&b, 5);
    costly_add(&b, ", \"trials\": 10000000, \"seed\": 1}");
    return b.p;
}

/* 100 listed turns (max_listed_turns) of the largest ring the defaults allow (256 territories
 * and orders): each turn lists the board and every order's battle, megabytes in all. */
static inline char *costly_simulate_turn_listed(void) {
    costly_buf b = {0};
    costly_add(&b, "{");
    costly_turn_ring(&b, 256);
    costly_add(&b, ", \"trials\": 100, \"seed\": 1, \"include_turns\": true}");
    return b.p;
}

/*
 * Special units at their limits (W21, W22): a ring of `n` territories of `armies` each, owned
 * in turn by `players` players, each holding `per` Commanders (warapp.max_units 32 on one
 * territory, 64 on the board), and each territory's owner attacking the next with everything
 * it holds, its Commanders listed: every battle walks its units (W19), every death may
 * eliminate a player (W22). `settings` and `extra` are members added as they are.
 */
static inline char *costly_turn_units(int n, int players, int per, long armies,
                                      const char *settings, const char *extra) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\": {");
    for (int i = 0; i < n; i++) {
        costly_add(&b, "%s\"T%d\": {\"owner\": \"p%d\", \"armies\": %ld, \"units\": [",
                   i ? ", " : "", i, i % players, armies);
        for (int k = 0; k < per; k++) {
            costly_add(&b, "%s{\"id\": \"c%d_%d\", \"type\": \"commander\"}", k ? ", " : "", i, k);
        }
        costly_add(&b, "]}");
    }
    costly_add(&b, "}, \"orders\": [");
    for (int i = 0; i < n; i++) {
        costly_add(&b,
                   "%s{\"player\": \"p%d\", \"from\": \"T%d\", \"to\": \"T%d\", "
                   "\"percent\": 1, \"units\": [",
                   i ? ", " : "", i % players, i, (i + 1) % n);
        for (int k = 0; k < per; k++) {
            costly_add(&b, "%s\"c%d_%d\"", k ? ", " : "", i, k);
        }
        costly_add(&b, "]}");
    }
    costly_add(&b, "], \"settings\": %s%s}", settings, extra);
    return b.p;
}

/* The costliest turn with units: 8 players on 8 territories of 8 Commanders each (the board's
 * 64) under the random move order, 8! schedules, at luck 0.16 on 20 armies a territory.
 * Unmetered it ran 11.4 s and stopped at the 128 MiB memory budget; the default work budget
 * refuses it (a 422 naming an order) after about 1.7 s. */
static inline char *costly_turn_units_random(void) {
    return costly_turn_units(8, 8, 8, 20, "{\"luck_modifier\": 0.16}",
                             ", \"move_order\": \"random\"");
}

/* /duper/battle with every side at its fullest: 10^9 of each class a tile may hold, loaded
 * planes, 8 supporting tiles of 10^9 tanks and forts, 1000 keys, a capital (the card draw). */
static inline char *costly_duper_battle(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"attack\": {\"player\": \"red\", \"kind\": \"normal\", \"tile\": {\"units\": "
                   "{\"soldier\": 1000000000, \"plane\": 1000000000, \"fort\": 1}, \"loaded\": "
                   "{\"tank\": 1000000000}}, \"support\": [");
    for (int i = 0; i < 8; i++) {
        costly_add(&b, "%s{\"tanks\": 1000000000, \"fort\": true}", i ? ", " : "");
    }
    costly_add(&b, "]}, \"defense\": {\"player\": \"blue\", \"keys\": 1000, \"tile\": {\"level\": "
                   "3, \"units\": {\"tank\": 1000000000, \"capital_lv3\": 1}}, \"support\": [");
    for (int i = 0; i < 8; i++) {
        costly_add(&b, "%s{\"tanks\": 999999999, \"fort\": true}", i ? ", " : "");
    }
    costly_add(&b, "]}, \"seed\": 9007199254740991}");
    return b.p;
}

/*
 * /duper/board/options on the largest board that fits the default body limit: red holds 480
 * tiles with planes, 5 other players 480 tiles, every red tile next to one of theirs. At the
 * default long-distance range (0: anywhere) each red tile may attack every other tile: some
 * 230,000 options to resolve and rank, the best 1,000 listed.
 */
static inline char *costly_board_options(void) {
    static const char *const others[] = {"blue", "green", "white", "black", "pink"};
    costly_buf b = {0};
    costly_add(&b, "{\"board\":{\"tiles\":{");
    for (int i = 0; i < 480; i++) {
        costly_add(&b, "%s\"r%d\":{\"owner\":\"red\",\"units\":{\"soldier\":%d,\"plane\":%d}}",
                   i ? "," : "", i, 1 + i % 9, 1000 + 7 * i);
    }
    for (int i = 0; i < 480; i++) {
        costly_add(&b, ",\"o%d\":{\"owner\":\"%s\",\"level\":%d,\"units\":{\"tank\":%d}}", i,
                   others[i % 5], 1 + i % 3, 2000 - 3 * i);
    }
    costly_add(&b, "},\"adjacent\":[");
    for (int i = 0; i < 480; i++) {
        costly_add(&b, "%s[\"r%d\",\"o%d\"]", i ? "," : "", i, (i * 7) % 480);
    }
    costly_add(&b, "]},\"player\":\"red\"}");
    return b.p;
}

/*
 * /duper/board/battle at max_board_attacks (64) on a board within the body limit: each attack
 * from its own red tile on a tile of its own player, each side with 4 supporting tank tiles
 * with forts, every tile with 10^9 of its classes.
 */
static inline char *costly_board_battle(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"board\":{\"tiles\":{");
    for (int k = 0; k < 64; k++) {
        costly_add(&b,
                   "%s\"s%d\":{\"owner\":\"red\",\"units\":{\"soldier\":1000000000,\"plane\":"
                   "1000000000,\"fort\":1}},\"t%d\":{\"owner\":\"p%d\",\"level\":3,\"units\":{"
                   "\"soldier\":999999999,\"capital_lv1\":1}}",
                   k ? "," : "", k, k, k);
        for (int j = 0; j < 4; j++) {
            costly_add(&b,
                       ",\"a%d_%d\":{\"owner\":\"red\",\"units\":{\"tank\":1000000000,\"fort\":"
                       "1}},\"d%d_%d\":{\"owner\":\"p%d\",\"units\":{\"tank\":1000000000,"
                       "\"fort\":1}}",
                       k, j, k, j, k);
        }
    }
    costly_add(&b, "},\"adjacent\":[");
    for (int k = 0; k < 64; k++) {
        costly_add(&b, "%s[\"s%d\",\"t%d\"]", k ? "," : "", k, k);
        for (int j = 0; j < 4; j++) {
            costly_add(&b, ",[\"s%d\",\"a%d_%d\"],[\"t%d\",\"d%d_%d\"]", k, k, j, k, k, j);
        }
    }
    costly_add(&b, "]},\"attacks\":[");
    for (int k = 0; k < 64; k++) {
        costly_add(&b, "%s{\"from\":\"s%d\",\"to\":\"t%d\"}", k ? "," : "", k, k);
    }
    costly_add(&b, "],\"seed\":1}");
    return b.p;
}

#define COSTLY_L02 "\"settings\": {\"luck_modifier\": 0.2, \"rounding_mode\": \"weighted_random\"}"

/* armies_needed for 32 targets near 10^9 attackers: refused before any work. */
static inline char *costly_needed_32(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"attackers\": 1, \"defenders\": 590000000, \"settings\": {\"luck_modifier\": "
                   "0.5}, \"targets\": [");
    for (int i = 0; i < 32; i++) {
        costly_add(&b, "%s%.6f", i ? ", " : "", i == 31 ? 0.999999 : 0.01 + 0.03 * i);
    }
    costly_add(&b, "]}");
    return b.p;
}

/* `n` equally likely counts, `first` and then `step` apart: a fog's items (W23), without the
 * brackets. */
static inline void costly_add_fog(costly_buf *b, int n, int first, int step) {
    for (int k = 0; k < n; k++) {
        costly_add(b, "%s{\"armies\": %d, \"probability\": %.17g}", k ? "," : "", first + step * k,
                   1.0 / n);
    }
}

/* W23's costly fogs (the budget's second issue): 10^9 attackers against `n` counts from
 * 5·10^8, 10^5 apart, at full luck with weighted rounding: the mixture's defenders run over
 * every count's window, 5·10^7 values for 500 counts. Unmetered: 3.6-4.4 s. */
static inline char *costly_fog_far_attack(int n) {
    costly_buf b = {0};
    costly_add(&b, "{\"attackers\": 1000000000, \"settings\": {\"luck_modifier\": 1, "
                   "\"rounding_mode\": \"weighted_random\"}, \"defenders\": [");
    costly_add_fog(&b, n, 500000000, 100000);
    costly_add(&b, "]}");
    return b.p;
}

/* 1,000 counts over 0..10^6 at full luck with a 1,000-point graph: each point's window read
 * against every count (once +144 MiB of resident memory). */
static inline char *costly_fog_graph(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"attackers\": 1000000, \"settings\": {\"luck_modifier\": 1}, \"graph\": "
                   "{\"from\": 1, \"to\": 1000}, \"defenders\": [");
    costly_add_fog(&b, 1000, 0, 1000);
    costly_add(&b, "]}");
    return b.p;
}

/* 256 territories, each with a 3-count fog, `battles` battles among them (at most 128), 10^6
 * trials: every trial draws every territory's count (with 50 battles once 5.9-6.6 s before its
 * 422; with none, 3.3-4.2 s under the 2 s budget while the draws were charged their points
 * only). */
static inline char *costly_fog_turns(int battles) {
    costly_buf b = {0};
    costly_add(&b, "{\"territories\": {");
    for (int i = 0; i < 128; i++) {
        costly_add(
            &b,
            "%s\"A%d\": {\"owner\": \"a\", \"armies\": [{\"armies\": 10, \"probability\": "
            "0.25}, {\"armies\": 11, \"probability\": 0.5}, {\"armies\": 12, "
            "\"probability\": 0.25}]}, \"B%d\": {\"owner\": \"b\", \"armies\": [{\"armies\": "
            "5, \"probability\": 0.25}, {\"armies\": 6, \"probability\": 0.5}, {\"armies\": "
            "7, \"probability\": 0.25}]}",
            i ? ", " : "", i, i);
    }
    costly_add(&b, "}, \"orders\": [");
    for (int i = 0; i < battles; i++) {
        costly_add(&b, "%s{\"player\": \"a\", \"from\": \"A%d\", \"to\": \"B%d\", \"armies\": 9}",
                   i ? ", " : "", i, i);
    }
    costly_add(&b, "], \"trials\": 1000000, \"seed\": 1, \"settings\": {\"luck_modifier\": "
                   "0.16}}");
    return b.p;
}

/* A fog of `counts` counts from 10^6, 1,000 apart, at full luck, each side holding 32 custom
 * units of health 10^9, and `targets` targets: every count's battle walks 64 units over its
 * window (requests of this shape once ran 6.0-7.5 s, 8.6 s through /mcp, before the budget
 * stopped them). `tool` wraps it in an MCP tools/call of analyze_attack. */
static inline char *costly_fog_units(int counts, int targets, bool tool) {
    costly_buf b = {0};
    if (tool) {
        costly_add(&b, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", "
                       "\"params\": {\"name\": \"analyze_attack\", \"arguments\": ");
    }
    costly_add(&b,
               "{\"attackers\": 1000000, \"settings\": {\"luck_modifier\": 1}, \"defenders\": [");
    costly_add_fog(&b, counts, 1000000, 1000);
    costly_add(&b, "]");
    for (int side = 0; side < 2; side++) {
        costly_add(&b, ", \"%s\": [", side ? "defending_units" : "attacking_units");
        for (int u = 0; u < 32; u++) {
            costly_add(&b,
                       "%s{\"type\": \"custom\", \"name\": \"u%d\", \"attack_power\": "
                       "1000, \"defense_power\": 1000, \"combat_order\": %d, "
                       "\"health\": 1000000000}",
                       u ? ", " : "", u, u);
        }
        costly_add(&b, "]");
    }
    if (targets > 0) {
        costly_add(&b, ", \"targets\": [");
        for (int i = 0; i < targets; i++) {
            costly_add(&b, "%s%.6f", i ? ", " : "", 0.01 + 0.03 * i);
        }
        costly_add(&b, "]");
    }
    costly_add(&b, tool ? "}}}" : "}");
    return b.p;
}

/* The table; *n its rows. Free with costly_requests_free. */
static inline costly_request *costly_requests(size_t *n) {
    const costly_request rows[] = {
        {"analyze 1e9 v 1e9 L0.2 graph 64, target 0.5", "/analyze-attack",
         costly_strdup("{\"attackers\": 1000000000, \"defenders\": 1000000000, " COSTLY_L02
                       ", \"graph\": {\"from\": 999999937, \"to\": 1000000000}, \"targets\": "
                       "[0.5]}"),
         COSTLY_200_OR_422, NULL},
        {"analyze 1000 v 1000 L0.2 graph 10000", "/analyze-attack",
         costly_strdup("{\"attackers\": 1000, \"defenders\": 1000, " COSTLY_L02
                       ", \"graph\": {\"from\": 1, \"to\": 10000}}"),
         COSTLY_200_OR_422, NULL},
        {"analyze armies_needed 32 targets at 5.9e8", "/analyze-attack", costly_needed_32(),
         COSTLY_422, "/targets"},
        {"simulate 1e7 trials 50 v 50 L0.16", "/simulate",
         costly_strdup("{\"attackers\": 50, \"defenders\": 50, \"settings\": {\"luck_modifier\": "
                       "0.16, \"rounding_mode\": \"weighted_random\"}, \"trials\": 10000000, "
                       "\"seed\": 1}"),
         COSTLY_200_OR_422, NULL},
        {"simulate 1e7 trials 1e9 v 1e9 L0.2", "/simulate",
         costly_strdup("{\"attackers\": 1000000000, \"defenders\": 1000000000, " COSTLY_L02
                       ", \"trials\": 10000000, \"seed\": 1}"),
         COSTLY_200_OR_422, NULL},
        {"simulate 1000 listed battles", "/simulate",
         costly_strdup("{\"attackers\": 999999999, \"defenders\": 999999999, " COSTLY_L02
                       ", \"trials\": 1000, \"seed\": 1, \"include_battles\": true}"),
         COSTLY_200, NULL},
        {"analyze-turn capture then 99 % onwards, L0.05", "/analyze-turn",
         costly_turn_capture_onwards("0.05"), COSTLY_200_OR_422, NULL},
        {"analyze-turn capture then 99 % onwards, L0.2", "/analyze-turn",
         costly_turn_capture_onwards("0.2"), COSTLY_200_OR_422, NULL},
        {"analyze-turn 3e7 capture 1.281e7 then on to a neutral", "/analyze-turn",
         costly_turn_chain_neutral(), COSTLY_200_OR_422, NULL},
        {"warzone analyze-turn chain, 32 bonuses", "/warzone/analyze-turn",
         costly_warzone_chain(""), COSTLY_200_OR_422, NULL},
        {"warzone simulate-turn chain, 32 bonuses", "/warzone/simulate-turn",
         costly_warzone_chain(", \"seed\": 1"), COSTLY_200_OR_422, NULL},
        {"warzone plan-turn beside the chain", "/warzone/plan-turn",
         costly_warzone_chain(", \"playerID\": \"200\", \"goal\": {\"territories\": [3]}"),
         COSTLY_200_OR_422, NULL},
        {"analyze-turn random order, 8 players", "/analyze-turn", costly_turn_random_order(),
         COSTLY_200_OR_422, NULL},
        {"analyze-turn 128 battles listed", "/analyze-turn", costly_turn_large_answer(), COSTLY_422,
         "/max_distribution_points"},
        {"analyze-turn 64 Commanders, 8 players random", "/analyze-turn",
         costly_turn_units_random(), COSTLY_422, NULL},
        {"simulate-turn 1e7 trials x 5 orders", "/simulate-turn", costly_simulate_turn(),
         COSTLY_200_OR_422, NULL},
        {"simulate-turn 100 listed turns of 256", "/simulate-turn", costly_simulate_turn_listed(),
         COSTLY_200_OR_422, "/include_turns"},
        {"plan-turn 8 own of 1e6 in a ring, L0.2", "/plan-turn", costly_plan_turn(),
         COSTLY_200_OR_422, NULL},
        {"plan-turn 12 separate pairs", "/plan-turn", costly_plan_pairs(12, false, 0, 0, false),
         COSTLY_200, NULL},
        {"plan-turn 13 separate pairs", "/plan-turn", costly_plan_pairs(13, false, 0, 0, false),
         COSTLY_200, NULL},
        {"plan-turn 11 pairs, max_plans 1", "/plan-turn", costly_plan_pairs(11, false, 1, 0, false),
         COSTLY_200, NULL},
        {"plan-turn a ring of 16", "/plan-turn", costly_plan_pairs(16, true, 0, 0, false),
         COSTLY_200, NULL},
        {"plan-turn income 999,999,966", "/plan-turn",
         costly_plan_pairs(1, false, 0, 999999966ULL, false), COSTLY_200, NULL},
        {"mcp: plan-turn 12 pairs, income 1e8", "/mcp",
         costly_plan_pairs(12, false, 0, 100000000ULL, true), COSTLY_200, NULL},
        {"plan-turn others capture 4e7 then onwards, L0.05", "/plan-turn",
         costly_plan_others_onwards(), COSTLY_422, NULL},
        {"analyze 1e9 v fog of 500 from 5e8, L1", "/analyze-attack", costly_fog_far_attack(500),
         COSTLY_422, "/attackers"},
        {"analyze 1e9 v fog of 1000 from 5e8, L1", "/analyze-attack", costly_fog_far_attack(1000),
         COSTLY_422, "/attackers"},
        {"analyze fog of 1000 over 1e6, graph 1000", "/analyze-attack", costly_fog_graph(),
         COSTLY_422, "/graph"},
        {"analyze fog of 100, 32+32 units of health 1e9", "/analyze-attack",
         costly_fog_units(100, 0, false), COSTLY_200_OR_422, NULL},
        {"analyze fog of 600, 32+32 units, 32 targets", "/analyze-attack",
         costly_fog_units(600, 32, false), COSTLY_200_OR_422, NULL},
        {"mcp: analyze fog of 600, 32+32 units, 32 targets", "/mcp",
         costly_fog_units(600, 32, true), COSTLY_200_OR_422, NULL},
        {"simulate 10 trials 10 v fog {5, 1e9}", "/simulate",
         costly_strdup("{\"attackers\": 10, \"defenders\": [{\"armies\": 5, \"probability\": "
                       "0.5}, {\"armies\": 1000000000, \"probability\": 0.5}], \"trials\": 10, "
                       "\"seed\": 1}"),
         COSTLY_200, NULL},
        {"simulate-turn 256 fogs, 50 battles, 1e6 trials", "/simulate-turn", costly_fog_turns(50),
         COSTLY_200_OR_422, "/trials"},
        {"simulate-turn 256 fogs, no orders, 1e6 trials", "/simulate-turn", costly_fog_turns(0),
         COSTLY_422, "/trials"},
        {"duper battle, every side full", "/duper/battle", costly_duper_battle(), COSTLY_200, NULL},
        {"duper board battle, 64 attacks", "/duper/board/battle", costly_board_battle(),
         COSTLY_200_OR_422, NULL},
        {"duper board options, 960 tiles", "/duper/board/options", costly_board_options(),
         COSTLY_200_OR_422, NULL},
    };
    *n = sizeof rows / sizeof rows[0];
    costly_request *copy = malloc(sizeof rows);
    if (!copy) {
        abort();
    }
    memcpy(copy, rows, sizeof rows);
    return copy;
}

static inline void costly_requests_free(costly_request *rows, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(rows[i].body);
    }
    free(rows);
}

#endif
