/*
 * The request budget's calibration (include/combatd/budget.h): for the costliest legal requests
 * of every endpoint, and smaller ones that weigh one kind of step each, the CPU time a request
 * takes against the work units it was charged, so that a unit can be read as about a
 * nanosecond of one core. Each row runs through the api as a worker runs it
 * (cbd_api_answer_within), under the server's malloc policy and with a scratch pool of the
 * default keep size (src/http/scratch_pool.h), with the config's memory budget and a work budget
 * large enough to finish. It prints two lines a row: its first run, on a cold pool as on a
 * server that has just started, and the median of the later runs, on the pool the earlier runs
 * left warm; each with the status, CPU ns, units spent, the units charged per nanosecond of
 * the CPU the run would take where a fresh page costs CBD_WORK_FRESH_PAGE (this machine's CPU
 * plus, per fault, the difference from the first-touch cost measured here at the start; the
 * units of new pages charged past the run's faults left out: judged_units) (OUT
 * outside 0.5-2: then the bench fails; a run under 2 ms is marked small, not judged), the minor
 * page faults of the run (getrusage(RUSAGE_THREAD)), the most memory the budget held at once,
 * the answer's bytes, and the progress checks (a worker's job stops at one when its deadline
 * passes, its client leaves or the server stops): how many, and the longest stretch of the
 * thread's CPU between two (the job's start, once the body is parsed, and its end count as
 * checks), in ms: how late a job can stop; and the most units charged between two, in 2^20s
 * (CBD_BUDGET_PROGRESS_UNITS): past 3, a step was charged whole rather than as it ran.
 *
 *   taskset -c 1 build/bench/bench_budget [runs [label-prefix]]   (default 3 runs a row)
 *
 * One table of {label, path, body or the function that makes it}: add a row for every endpoint
 * and every request that is costly in its own way; a POST endpoint of the endpoint table without
 * a row (but /mcp, whose cost is its tool's) stops the bench before it measures. The Duper rows are
 * tests/support/ duper_costly.h's, which tests/unit/api/test_duper_budget_api.c shows to end within
 * the default budget; the turn rows include costly_requests.h's, which the attack tests measure
 * from /proc.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "api/api.h"
#include "api/api_config.h"
#include "costly_requests.h"
#include "duper_costly.h"
#include "http/scratch_pool.h"
#include "http/server_config.h"

typedef struct {
    const char *label;
    const char *path;
    const char *body;    /* or NULL, and then: */
    char *(*make)(void); /* makes a body too long to write out (malloc'd) */
    int repeat;          /* runs a row makes per run asked for (a quick row needs more) */
    bool at_budget;      /* run within the config's work budget, not to the end (see run_once) */
} budget_row;

/* 32 Commanders a side (warapp.max_units), for the units' rows. */
#define COMMANDERS_32 "[" COMMANDERS_8 ", " COMMANDERS_8 ", " COMMANDERS_8 ", " COMMANDERS_8 "]"
#define COMMANDERS_8                                                                               \
    "{\"type\": \"commander\"}, {\"type\": \"commander\"}, {\"type\": \"commander\"}, "            \
    "{\"type\": \"commander\"}, {\"type\": \"commander\"}, {\"type\": \"commander\"}, "            \
    "{\"type\": \"commander\"}, {\"type\": \"commander\"}"

#define LUCK_02  "\"settings\": {\"luck_modifier\": 0.2, \"rounding_mode\": \"weighted_random\"}"
#define LUCK_016 "\"settings\": {\"luck_modifier\": 0.16, \"rounding_mode\": \"weighted_random\"}"

/* 10^6 attackers against a distribution of warapp.max_fog_points (1000) counts around 10^6,
 * at luck 0.2: the costliest fog the default limits allow, 10^6 trials. */
static char *fog_1000(void) {
    size_t cap = 64 * 1000 + 512, used = 0;
    char *body = malloc(cap);
    if (!body) {
        return NULL;
    }
    used += (size_t)snprintf(body, cap,
                             "{\"attackers\": 1000000, \"trials\": 1000000, "
                             "\"seed\": 1, " LUCK_02 ", \"defenders\": [");
    for (int k = 0; k < 1000; k++) {
        used +=
            (size_t)snprintf(body + used, cap - used, "%s{\"armies\": %d, \"probability\": 0.001}",
                             k ? ", " : "", 999500 + k);
    }
    snprintf(body + used, cap - used, "]}");
    return body;
}

static char *wide_board(void) {
    return costly_turn_wide_board(10000000);
}

/* bench_turn's board (bench/wrk/bodies/simulate_turn_bench.json) with `extra` members. */
static char *ordinary(const char *extra) {
    costly_buf t = {0};
    costly_add(
        &t,
        "{\"territories\": {\"t0\": {\"owner\": \"alice\", \"armies\": 30}, \"t1\": {\"owner\": "
        "\"bob\", \"armies\": 20}, \"t2\": {\"owner\": \"neutral\", \"armies\": 10}, \"t3\": "
        "{\"owner\": \"bob\", \"armies\": 25}, \"t4\": {\"owner\": \"carol\", \"armies\": 18}, "
        "\"t5\": {\"owner\": \"neutral\", \"armies\": 12}, \"t6\": {\"owner\": \"carol\", "
        "\"armies\": 22}, \"t7\": {\"owner\": \"alice\", \"armies\": 15}, \"t8\": {\"owner\": "
        "\"neutral\", \"armies\": 10}}, \"orders\": [{\"player\": \"alice\", \"from\": \"t0\", "
        "\"to\": \"t1\", \"armies\": 29}, {\"player\": \"bob\", \"from\": \"t1\", \"to\": "
        "\"t0\", \"armies\": 15}, {\"player\": \"alice\", \"from\": \"t1\", \"to\": \"t2\", "
        "\"percent\": 1}, {\"player\": \"bob\", \"from\": \"t3\", \"to\": \"t4\", \"armies\": "
        "24}, {\"player\": \"carol\", \"from\": \"t4\", \"to\": \"t3\", \"armies\": 12}, "
        "{\"player\": \"carol\", \"from\": \"t4\", \"to\": \"t5\", \"armies\": 10}, "
        "{\"player\": \"carol\", \"from\": \"t6\", \"to\": \"t7\", \"armies\": 21}, "
        "{\"player\": \"alice\", \"from\": \"t7\", \"to\": \"t8\", \"armies\": 14}], "
        "\"settings\": {\"luck_modifier\": 0.16, \"multi_attack\": true}, \"move_order\": "
        "\"random\"%s}",
        extra);
    return t.p;
}

/* A board of 2000 tiles in a row, each joined to the next `degree` ones, red and blue in turn,
 * every red tile with planes: for weighing walks and options apart. */
static char *row_board(int degree, const char *rest) {
    costly_buf t = {0};
    costly_add(&t, "{\"board\": {\"tiles\": {");
    for (int i = 0; i < 2000; i++) {
        costly_add(&t, "\"x%d\": {\"owner\": \"%s\", \"units\": {\"soldier\": %d, \"plane\": 2}}%s",
                   i, i % 2 ? "blue" : "red", 1 + i % 7, i + 1 < 2000 ? ", " : "");
    }
    costly_add(&t, "}, \"adjacent\": [");
    const char *sep = "";
    for (int i = 0; i < 2000; i++) {
        for (int d = 1; d <= degree && i + d < 2000; d++) {
            costly_add(&t, "%s[\"x%d\", \"x%d\"]", sep, i, i + d);
            sep = ", ";
        }
    }
    costly_add(&t, "]}%s", rest);
    return t.p;
}

/* W23: 10 attackers against 5 or 10^9 with a graph and targets (the budget issue's cheap
 * question), 1,000 counts over 0..10^9, and the costly fogs of costly_requests.h. */
#define FAR_FOG                                                                                    \
    "\"defenders\": [{\"armies\": 1000000000, \"probability\": 0.5}, {\"armies\": 5, "             \
    "\"probability\": 0.5}]"
static char *fog_spread_1000(void) {
    costly_buf b = {0};
    costly_add(&b, "{\"attackers\": 10, \"defenders\": [");
    for (int k = 0; k < 1000; k++) {
        costly_add(&b, "%s{\"armies\": %d, \"probability\": 0.001}", k ? ", " : "", 1001001 * k);
    }
    costly_add(&b, "]}");
    return b.p;
}
static char *fog_far_500(void) {
    return costly_fog_far_attack(500);
}
static char *fog_turns(void) {
    return costly_fog_turns(50);
}
static char *fog_turns_bare(void) {
    return costly_fog_turns(0);
}

/* The rows' makers: each a body of the shapes above. */
static char *turn_capture_l005(void) {
    return costly_turn_capture_onwards("0.05");
}
static char *turn_capture_l02(void) {
    return costly_turn_capture_onwards("0.2");
}
/* The game's JSON (W40): costly_warzone_chain's board at a hundredth of its armies, the plan at a
 * ten-thousandth (the full one is refused at the budget after about 2 s; run to its end it takes 26
 * s here, and its plan 6 minutes), so that the rows weigh the same steps in seconds. */
static char *warzone_chain_analyze(void) {
    return warzone_chain_of("300000", "128100", "");
}
static char *warzone_chain_simulate(void) {
    return warzone_chain_of("300000", "128100", ", \"seed\": 1");
}
static char *warzone_chain_plan(void) {
    return warzone_chain_of("3000", "1281",
                            ", \"playerID\": \"200\", \"goal\": {\"territories\": [3]}");
}
static char *turn_random_beside(void) {
    return costly_battle_then_zeros(8000, 15, true, "T2");
}
static char *turn_random_in_5000(void) {
    return costly_battle_then_zeros(5000, 15, true, "B");
}
static char *turn_random_in_2000(void) {
    return costly_battle_then_zeros(2000, 15, true, "B");
}
static char *turn_states_10_steps(void) {
    return costly_battle_then_zeros(11000, 10, false, "B");
}
static char *turn_states_40_steps(void) {
    return costly_battle_then_zeros(3000, 40, false, "B");
}
static char *turn_wide_battles(void) {
    return costly_many_battles(128, 2210000, 1300000, 1, "");
}
static char *turn_wide_battles_100(void) {
    return costly_many_battles(128, 2210000, 1300000, 1, ",\"max_distribution_points\":100");
}
static char *turn_ordinary(void) {
    return ordinary("");
}
static char *sim_turn_wide_battles(void) {
    return costly_many_battles(128, 3800000, 3250000, 1, ",\"trials\":30000,\"seed\":1");
}
static char *sim_turn_256_battles(void) {
    return costly_many_battles(128, 3800000, 3250000, 2, ",\"trials\":195312,\"seed\":1");
}
static char *sim_turn_ordinary(void) {
    return ordinary(", \"trials\": 1000000, \"seed\": 42");
}
static char *sim_turn_ordinary_1(void) {
    return ordinary(", \"trials\": 1, \"seed\": 42");
}
/* Units at their limits (costly_turn_units): 32 Commanders on each of two territories attacking
 * each other at luck 0.2, and Commanders on the territories of 8 players, random order. */
static char *turn_units_32_a_side(void) {
    return costly_turn_units(2, 2, 32, 300, "{\"luck_modifier\": 0.2}", "");
}
static char *turn_units_random(void) {
    return costly_turn_units_random();
}
static char *turn_units_random_4(void) {
    return costly_turn_units(8, 4, 8, 30, "{\"luck_modifier\": 0.16}",
                             ", \"move_order\": \"random\"");
}
static char *sim_turn_units_32_a_side(void) {
    return costly_turn_units(2, 2, 32, 100000000, "{\"luck_modifier\": 0.2}",
                             ", \"trials\": 1000000, \"seed\": 1");
}
static char *sim_turn_units_random(void) {
    return costly_turn_units(8, 8, 8, 100000, "{\"luck_modifier\": 0.16}",
                             ", \"move_order\": \"random\", \"trials\": 1000000, \"seed\": 1");
}
static char *sim_turn_units_listed(void) {
    return costly_turn_units(8, 8, 8, 100000, "{\"luck_modifier\": 0.16}",
                             ", \"move_order\": \"random\", \"trials\": 100, \"seed\": 1, "
                             "\"include_turns\": true");
}

static char *duper_options_anywhere(void) {
    return duper_fullest_board_options(0);
}
static char *duper_options_range_1(void) {
    return duper_fullest_board_options(1);
}
static char *board_plain_battle(void) {
    return row_board(1, ", \"attacks\": [{\"from\": \"x0\", \"to\": \"x1\"}], \"seed\": 1}");
}
static char *board_options_range(int range) {
    char rest[64];
    snprintf(rest, sizeof rest, ", \"player\": \"red\", \"long_distance_range\": %d}", range);
    return row_board(4, rest);
}
static char *board_options_0(void) {
    return board_options_range(0);
}
static char *board_options_20(void) {
    return board_options_range(20);
}
static char *board_options_1(void) {
    return board_options_range(1);
}

/*
 * At the default limits: a graph of 10^9 attackers at luck 0.2 costs 20·√(10^9·0.24) + 2 =
 * 309,840 terms a point, so max_graph_terms (2·10^7) allows 64 points; armies_needed near 10^9
 * attackers costs about 40.5 evaluations of as many terms, so max_needed_terms allows one
 * target. Against 10^9 defenders no count up to army_cap captures (it would take 1.67·10^9), so
 * the search ends at once; against 5.9·10^8 it searches near 9.8·10^8 attackers.
 */
/* Rows leave at_budget out (false): every row but the anytime search's runs to its end. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const budget_row rows[] = {
    {"analyze 1e9 v 1e9 L0.2", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02 "}", NULL, 1},
    {"analyze 1e9 v 1e9 L1", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"settings\": {\"luck_modifier\": "
     "1}}",
     NULL, 1},
    {"analyze 1e9 v 1e9 L0.2 graph 64 target 1", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02
     ", \"graph\": {\"from\": 999999937, \"to\": 1000000000}, \"targets\": [0.5]}",
     NULL, 1},
    {"analyze 1e9 v 5.9e8 L0.2 graph 64 target 1", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 590000000, " LUCK_02
     ", \"graph\": {\"from\": 999999937, \"to\": 1000000000}, \"targets\": [0.99]}",
     NULL, 1},
    {"analyze 1000 v 1000 L0.2 graph 10000", "/analyze-attack",
     "{\"attackers\": 1000, \"defenders\": 1000, " LUCK_02
     ", \"graph\": {\"from\": 1, \"to\": 10000}}",
     NULL, 1},
    {"analyze 1e9 v 1e9 L0 graph 10000", "/analyze-attack",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"graph\": {\"from\": 999990001, "
     "\"to\": 1000000000}}",
     NULL, 1},
    /* max_trials; 50 a side draws the slowest variates (BTRS near its threshold rejects most),
     * no luck draws none; a listing is at most max_listed_battles. */
    {"simulate 1e7 trials 1e9 v 1e9 L0.2", "/simulate",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, " LUCK_02
     ", \"trials\": 10000000, \"seed\": 1}",
     NULL, 1},
    {"simulate 1e7 trials 50 v 50 L0.16", "/simulate",
     "{\"attackers\": 50, \"defenders\": 50, " LUCK_016 ", \"trials\": 10000000, \"seed\": 1}",
     NULL, 1},
    {"simulate 1e7 trials 1e9 v 1e9 L0", "/simulate",
     "{\"attackers\": 1000000000, \"defenders\": 1000000000, \"trials\": 10000000, "
     "\"seed\": 1}",
     NULL, 1},
    {"simulate 1000 listed 1e9 v 1e9 L0.2", "/simulate",
     "{\"attackers\": 999999999, \"defenders\": 999999999, " LUCK_02
     ", \"trials\": 1000, \"seed\": 1, \"include_battles\": true}",
     NULL, 1},
    {"simulate 1000 unlisted 1e9 v 1e9 L0.2", "/simulate",
     "{\"attackers\": 999999999, \"defenders\": 999999999, " LUCK_02
     ", \"trials\": 1000, \"seed\": 1, \"include_battles\": false}",
     NULL, 1},
    /* Units and fog: the most units a side, each walked by W19 in every battle; the most
     * counts, each battle drawing one and its sampler; the most listed battles with units. */
    {"simulate 1e6 trials 50+32 v 50+32 L0.16", "/simulate",
     "{\"attackers\": 50, \"defenders\": 50, " LUCK_016 ", \"trials\": 1000000, \"seed\": 1, "
     "\"attacking_units\": " COMMANDERS_32 ", \"defending_units\": " COMMANDERS_32 "}",
     NULL, 1},
    {"simulate 1e6 trials 1e6 v fog 1000 L0.2", "/simulate", NULL, fog_1000, 1},
    {"simulate 1000 listed 1000 v 10+32 dying", "/simulate",
     "{\"attackers\": 1000, \"defenders\": 10, " LUCK_016 ", \"trials\": 1000, \"seed\": 1, "
     "\"include_battles\": true, \"defending_units\": " COMMANDERS_32 "}",
     NULL, 1},
    {"simulate 1000 listed 50+32 v 50+32 L0.16", "/simulate",
     "{\"attackers\": 50, \"defenders\": 50, " LUCK_016 ", \"trials\": 1000, \"seed\": 1, "
     "\"include_battles\": true, \"attacking_units\": " COMMANDERS_32
     ", \"defending_units\": " COMMANDERS_32 "}",
     NULL, 1},
    {"analyze 10 v fog {1e9, 5} L1 graph 20 targets 2", "/analyze-attack",
     "{\"attackers\": 10, " FAR_FOG ", \"settings\": {\"luck_modifier\": 1}, \"graph\": "
     "{\"from\": 1, \"to\": 20}, \"targets\": [0.25, 0.45]}",
     NULL, 4},
    {"analyze 10 v fog of 1000 over 1e9 L0", "/analyze-attack", NULL, fog_spread_1000, 4},
    {"analyze 1e9 v fog of 500 from 5e8 L1 (refused)", "/analyze-attack", NULL, fog_far_500, 1},
    {"simulate 1e6 trials 10 v fog {1e9, 5} L1", "/simulate",
     "{\"attackers\": 10, " FAR_FOG ", \"settings\": {\"luck_modifier\": 1}, \"trials\": "
     "1000000, \"seed\": 1}",
     NULL, 1},
    {"simulate-turn 256 fogs, 50 battles, 1e6 trials", "/simulate-turn", NULL, fog_turns, 1},
    {"simulate-turn 256 fogs, no orders, 1e6 trials", "/simulate-turn", NULL, fog_turns_bare, 1},
    /* Turns: the attacker's requests the budget was made for, the random move order's
     * schedules, the state map's steps, wide answers, and bench_turn's ordinary board. */
    {"analyze-turn 7e8 v 2.99e8 L0.05, 99 % on", "/analyze-turn", NULL, turn_capture_l005, 1},
    {"analyze-turn 7e8 v 2.99e8 L0.2, 99 % on", "/analyze-turn", NULL, turn_capture_l02, 1},
    {"analyze-turn 3e7 capture 1.281e7, on to a neutral", "/analyze-turn", NULL,
     costly_turn_chain_neutral, 1},
    {"warzone analyze-turn chain, 32 bonuses", "/warzone/analyze-turn", NULL, warzone_chain_analyze,
     1},
    {"warzone simulate-turn chain, 32 bonuses", "/warzone/simulate-turn", NULL,
     warzone_chain_simulate, 200},
    {"warzone plan-turn beside the chain", "/warzone/plan-turn", NULL, warzone_chain_plan, 1},
    {"analyze-turn random, 7 players beside 8000x8000", "/analyze-turn", NULL, turn_random_beside,
     1},
    {"analyze-turn random, 7 players in 5000x5000's", "/analyze-turn", NULL, turn_random_in_5000,
     1},
    {"analyze-turn random, 7 players in 2000x2000's", "/analyze-turn", NULL, turn_random_in_2000,
     1},
    {"analyze-turn 11000x11000, 10 steps", "/analyze-turn", NULL, turn_states_10_steps, 1},
    {"analyze-turn 3000x3000, 40 steps", "/analyze-turn", NULL, turn_states_40_steps, 1},
    {"analyze-turn 128 wide battles (68 MB)", "/analyze-turn", NULL, turn_wide_battles, 1},
    {"analyze-turn 128 wide battles, 100 points", "/analyze-turn", NULL, turn_wide_battles_100, 1},
    {"analyze-turn bench_turn's board", "/analyze-turn", NULL, turn_ordinary, 20},
    /* Units at their limits: 32 a territory, 64 on the board, under the random move order. */
    {"analyze-turn 32+32 Commanders 300 v 300 L0.2", "/analyze-turn", NULL, turn_units_32_a_side,
     1},
    {"analyze-turn 64 Commanders, 8 players random", "/analyze-turn", NULL, turn_units_random, 1},
    {"analyze-turn 64 Commanders, 4 players random", "/analyze-turn", NULL, turn_units_random_4, 1},
    {"simulate-turn 32+32 Commanders, 10^6 trials", "/simulate-turn", NULL,
     sim_turn_units_32_a_side, 1},
    {"simulate-turn 64 Commanders random, 10^6 trials", "/simulate-turn", NULL,
     sim_turn_units_random, 1},
    {"simulate-turn 64 Commanders random, 100 listed", "/simulate-turn", NULL,
     sim_turn_units_listed, 4},
    {"simulate-turn 10^7 trials, 256 territories", "/simulate-turn", NULL, wide_board, 1},
    {"simulate-turn 128 wide battles, 30000 trials", "/simulate-turn", NULL, sim_turn_wide_battles,
     1},
    {"simulate-turn 256 battles, 195312 trials", "/simulate-turn", NULL, sim_turn_256_battles, 1},
    {"simulate-turn bench_turn's board, 10^6 trials", "/simulate-turn", NULL, sim_turn_ordinary, 1},
    {"simulate-turn bench_turn's board, 1 trial", "/simulate-turn", NULL, sim_turn_ordinary_1, 200},
    /* The plan search: its costliest request, and a small board searched whole. */
    {"plan-turn 8 own of 1e6 in a ring, L0.2", "/plan-turn", NULL, costly_plan_turn, 1, true},
    {"plan-turn others capture 4e7 then onwards, L0.05", "/plan-turn", NULL,
     costly_plan_others_onwards, 1},
    {"plan-turn bonus of two, income 5", "/plan-turn",
     "{\"territories\": {\"A\": {\"owner\": \"alice\", \"armies\": 4, \"neighbors\": [\"B\", "
     "\"C\"]}, \"B\": {\"owner\": \"bob\", \"armies\": 3, \"neighbors\": [\"C\"]}, \"C\": "
     "{\"owner\": \"neutral\", \"armies\": 2, \"neighbors\": []}}, \"player\": \"alice\", "
     "\"income\": 5, \"goal\": {\"capture\": [\"B\", \"C\"]}, \"settings\": "
     "{\"luck_modifier\": 0.5}}",
     NULL, 20},
    /* Duper: every side at its fullest, the largest boards the default limits allow, and
     * smaller boards that weigh one kind of step each (a walk, a battle, an option). */
    {"duper/battle fullest", "/duper/battle", NULL, duper_fullest_battle, 200},
    {"duper/board/battle fullest", "/duper/board/battle", NULL, duper_fullest_board_battle, 1},
    {"duper/board/options fullest, range 0", "/duper/board/options", NULL, duper_options_anywhere,
     1},
    {"duper/board/options fullest, range 1", "/duper/board/options", NULL, duper_options_range_1,
     1},
    {"duper/board/battle 2000 plain tiles", "/duper/board/battle", NULL, board_plain_battle, 4},
    {"duper/board/options 2000 plain, range 0", "/duper/board/options", NULL, board_options_0, 1},
    {"duper/board/options 2000 plain, range 20", "/duper/board/options", NULL, board_options_20, 1},
    {"duper/board/options 2000 plain, range 1", "/duper/board/options", NULL, board_options_1, 4},
};
#pragma GCC diagnostic pop

static double cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The progress checks of a run (budget.h's cbd_budget_progress_fn, which a worker's job uses to
 * stop when its deadline passes, its client leaves or the server stops): how many, and the
 * longest stretch of the thread's CPU between two (the job's start, once the body is parsed, and
 * its end count as checks), which bounds how late a job stops. */
typedef struct {
    double last_ns;
    double longest_ns;
    uint64_t checks;
    const cbd_budget *budget; /* the request's, as it runs (cbd_api_limits.report) */
    uint64_t last_units;      /* work_spent at the last check */
    uint64_t longest_units;   /* the most units charged between two checks */
} progress_probe;

static double thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void probe_mark(progress_probe *p) {
    double now = thread_cpu_ns();
    if (now - p->last_ns > p->longest_ns) {
        p->longest_ns = now - p->last_ns;
    }
    p->last_ns = now;
    uint64_t units = p->budget->work_spent;
    if (units - p->last_units > p->longest_units) {
        p->longest_units = units - p->last_units;
    }
    p->last_units = units;
}

/* Never stops the run: it only measures. */
static cbd_budget_stop probe_progress(void *arg) {
    progress_probe *p = arg;
    probe_mark(p);
    p->checks++;
    return CBD_BUDGET_RUNNING;
}

typedef struct {
    int status;
    double ns;
    uint64_t faults;
    size_t answer_bytes;
    cbd_budget spent;
    progress_probe probe;
} row_run;

static uint64_t thread_minor_faults(void) {
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? (uint64_t)ru.ru_minflt : 0;
}

/* One run of a row: parse and answer, timed together (parsing is a few microseconds). */
static row_run run_once(const cbd_config *cfg, cbd_scratch_pool *pool, const budget_row *row,
                        const char *body) {
    const cbd_api_endpoint *ep = cbd_api_find_endpoint(row->path);
    if (!ep) {
        fprintf(stderr, "no endpoint %s\n", row->path);
        exit(1);
    }
    row_run r;
    memset(&r, 0, sizeof r);
    cbd_api_limits limits = cbd_api_full_limits(cfg);
    /* Enough to finish: what is measured is the cost, not where the default budget stops. But
     * an anytime search (a plan on a large board) has no end of its own short of max_plans
     * analyses of seconds each: such a row runs as the server runs it, to the budget. */
    if (!row->at_budget) {
        limits.work_limit = UINT64_MAX;
    }
    limits.report = &r.spent;
    r.probe.budget = &r.spent;
    limits.progress = probe_progress;
    limits.progress_arg = &r.probe;
    cbd_scratch scratch;
    cbdp_scratch_pool_lend(pool, &scratch, limits.mem_limit);
    limits.scratch = &scratch;
    cbd_api_reply reply;
    cbd_api_request req;
    uint64_t faults = thread_minor_faults();
    double t0 = cpu_ns();
    r.probe.last_ns = thread_cpu_ns();
    if (cbd_api_parse(ep, body, strlen(body), &req, &reply)) {
        /* a worker's job starts here: the server parses the body on its HTTP thread before it
         * hands the request to a worker (src/http/request.c), so the parse is no stretch of the
         * job's (its units are, charged at the job's first check) */
        r.probe.last_ns = thread_cpu_ns();
        (void)cbd_api_answer_within(&req, cfg, &limits, &reply);
    }
    probe_mark(&r.probe);
    cbdp_scratch_pool_return(pool, &scratch);
    r.ns = cpu_ns() - t0;
    r.faults = thread_minor_faults() - faults;
    r.status = reply.status;
    r.answer_bytes = reply.body_len;
    if (reply.status != 200) {
        fprintf(stderr, "%s: %d %.400s\n", row->label, reply.status, reply.body);
    }
    cbd_api_reply_free(&reply);
    return r;
}

/* The CPU nanoseconds a first touch of a page costs this thread here (the kernel's fault and
 * zeroing): a 64 MiB mapping touched page by page. */
static double first_touch_ns_per_page(void) {
    size_t bytes = (size_t)64 << 20, page = 4096;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        return 0.0;
    }
    double t0 = cpu_ns();
    for (size_t i = 0; i < bytes; i += page) {
        p[i] = 1;
    }
    double ns = (cpu_ns() - t0) / (double)(bytes / page);
    munmap(p, bytes);
    return ns;
}

/* The budget charges a fresh page what it costs on the slow-fault machine it is designed for
 * (CBD_WORK_FRESH_PAGE): a run is judged against the CPU it would take there, its faults each
 * costing that much instead of this machine's first touch. */
static double page_ns_here;

static double slow_machine_ns(const row_run *r) {
    double extra = (double)CBD_WORK_FRESH_PAGE - page_ns_here;
    return r->ns + (double)r->faults * (extra > 0 ? extra : 0.0);
}

/* The units judged against the CPU: all but those of new pages charged beyond the faults the
 * run took. The budget charges a block's pages as new when the request takes it (the heap's past
 * CBD_WORK_FRESH_FROM), as they are on a server's first requests; a process whose heap earlier
 * rows left warm faults none of them (the Duper boards' rows late in a whole run: 0 faults where
 * alone they take 1,100-1,800, and 2.3-3.7 units a nanosecond), and that is no step overcharged. */
static uint64_t judged_units(const row_run *r) {
    uint64_t faulted = r->faults * (uint64_t)CBD_WORK_FRESH_PAGE;
    uint64_t unfaulted = r->spent.fresh_units > faulted ? r->spent.fresh_units - faulted : 0;
    return r->spent.work_spent - unfaulted;
}

/* A unit is about a nanosecond of one core (budget.h): a row is charged fairly when its units
 * are within a factor of two of its CPU time either way. A run under 2 ms is shown but not
 * judged: its time is fixed costs (the parse, a cold cache, the first call of a code path, the
 * fresh pages of an answer past M_MMAP_THRESHOLD) that vary twofold from run to run and with
 * the load beside it (a listing of 1,000 battles took 0.55 ms alone, 1.02 ms beside the test
 * command), and the budget is there to stop seconds. */
#define RATIO_LOW  0.5
#define RATIO_HIGH 2.0
#define JUDGED_NS  2e6

static int by_ns(const void *a, const void *b) {
    double x = ((const row_run *)a)->ns, y = ((const row_run *)b)->ns;
    return x < y ? -1 : x > y;
}

/* One line of a row: a run and the ratio of the units charged to its CPU nanoseconds; false
 * when that ratio is outside [RATIO_LOW, RATIO_HIGH]. */
static bool print_run(const budget_row *row, const char *pool, const row_run *r) {
    uint64_t units = r->spent.work_spent;
    double slow_ns = slow_machine_ns(r);
    double ratio = slow_ns > 0 ? (double)judged_units(r) / slow_ns : 0.0;
    bool judged = r->ns >= JUDGED_NS;
    bool fair = !judged || (ratio >= RATIO_LOW && ratio <= RATIO_HIGH);
    printf("%-48s %-4s %6d %14.0f %14" PRIu64 " %8.3f %9" PRIu64 " %12zu %10zu %8" PRIu64
           " %8.2f %8.2f%s\n",
           row->label, pool, r->status, r->ns, units, ratio, r->faults, r->spent.mem_peak,
           r->answer_bytes, r->probe.checks, r->probe.longest_ns / 1e6,
           (double)r->probe.longest_units / (double)CBD_BUDGET_PROGRESS_UNITS,
           !judged ? "  small"
           : fair  ? ""
                   : "  OUT");
    fflush(stdout);
    return fair;
}

/* A row's first run on a cold scratch pool, then the median of the later runs (the machine is
 * shared: a median says more than the fastest) on the pool they keep warm; false when either
 * is charged unfairly. */
static bool run_row(const cbd_config *cfg, const budget_row *row, int runs) {
    char *made = row->body ? NULL : row->make();
    const char *body = row->body ? row->body : made;
    int n = runs * row->repeat;
    row_run *all = malloc((size_t)n * sizeof *all);
    cbd_server_config server;
    cbd_server_config_defaults(&server);
    cbd_scratch_pool pool;
    if (!all || !cbdp_scratch_pool_init(&pool, (size_t)server.scratch_keep_bytes)) {
        exit(1);
    }
    row_run cold = run_once(cfg, &pool, row, body);
    for (int k = 0; k < n; k++) {
        all[k] = run_once(cfg, &pool, row, body);
    }
    cbdp_scratch_pool_destroy(&pool);
    free(made);
    qsort(all, (size_t)n, sizeof *all, by_ns);
    row_run mid = all[n / 2];
    free(all);
    bool fair = print_run(row, "cold", &cold);
    return print_run(row, "warm", &mid) && fair;
}

/* Every POST endpoint of the table has a row, but those that wrap others (/mcp): their cost is
 * the endpoint's they call. Names the first one without. */
static bool every_endpoint_has_a_row(void) {
    for (const cbd_api_endpoint *ep = cbd_api_endpoints; ep->path; ep++) {
        bool found = !ep->handle || ep->envelope;
        for (size_t i = 0; !found && i < sizeof rows / sizeof rows[0]; i++) {
            found = strcmp(rows[i].path, ep->path) == 0;
        }
        if (!found) {
            fprintf(stderr, "bench_budget: no row for %s: add its costliest requests\n", ep->path);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 3;
    const char *only = argc > 2 ? argv[2] : NULL;
    if (runs <= 0) {
        fprintf(stderr, "usage: %s [runs [label-prefix]]\n", argv[0]);
        return 2;
    }
    if (!every_endpoint_has_a_row()) {
        return 1;
    }
    cbdp_malloc_policy_apply(); /* the server's: large blocks are mappings of their own */
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    page_ns_here = first_touch_ns_per_page();
    printf("first touch here: %.0f ns a page; charged for %d (CBD_WORK_FRESH_PAGE)\n", page_ns_here,
           CBD_WORK_FRESH_PAGE);
    printf("%-48s %-4s %6s %14s %14s %8s %9s %12s %10s %8s %8s %8s\n", "request", "pool", "status",
           "cpu ns", "units", "charged", "faults", "peak bytes", "answer B", "checks", "gap ms",
           "gap 2^20");
    size_t out = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (!only || strncmp(rows[i].label, only, strlen(only)) == 0) {
            out += !run_row(&cfg, &rows[i], runs);
        }
    }
    if (out > 0) {
        fprintf(stderr, "bench_budget: %zu rows charged outside %.1fx-%.1fx of their CPU time\n",
                out, RATIO_LOW, RATIO_HIGH);
        return 1;
    }
    return 0;
}
