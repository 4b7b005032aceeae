#ifndef COMBATD_WARAPP_TURN_H
#define COMBATD_WARAPP_TURN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/rng.h"
#include "combatd/status.h"
#include "combatd/warapp.h"
#include "combatd/warapp_odds.h"
#include "combatd/warapp_units.h"

/*
 * War.app turns (docs/rules.md W11–W16, W23 for armies given as distributions, W21–W22 for
 * units, W24–W30 for maps and cards): a board, the players' orders, and either the exact
 * distribution of the board after the turn (cbd_turn_analyze) or one turn resolved with a
 * caller's RNG (cbd_turn_sim_one). Each kind of order is a row of the core's kinds' table
 * (src/core/warapp/turn/board/warapp_turn_kinds.c).
 *
 * Territories and players are indices; the caller keeps their string ids. A player is
 * 0 .. n_players − 1; CBD_TURN_NEUTRAL owns neutral territories and never gives orders (W11).
 *
 * Implemented in src/core/warapp/turn/: board/warapp_turn.c (validation and the plan),
 * board/warapp_turn_kinds.c (the order kinds' table: cbd_turn_kind_phase),
 * exact/warapp_turn_analyze.c (the exact analysis), exact/warapp_turn_bonus.c (W32: the bonuses'
 * owners) and sim/warapp_turn_sim.c (seeded turns).
 */
#define CBD_TURN_NEUTRAL UINT16_MAX
/* Its name in requests and answers (W11). */
#define CBD_TURN_NEUTRAL_NAME "neutral"
/* The game's own name of it (its JSON's owners, W40), which the /warzone/ endpoints read as
 * neutral and the others refuse as a player's name (W44). */
#define CBD_TURN_GAME_NEUTRAL_NAME "Neutral"
/* The default limit of distinct states of one group (cbd_turn_default_limits, and the
 * config's warapp.max_turn_states). */
#define CBD_TURN_DEFAULT_MAX_STATES 1000000
typedef uint16_t cbd_turn_player;

typedef struct {
    cbd_turn_player owner; /* a player or CBD_TURN_NEUTRAL */
    uint64_t armies;       /* W10 */
} cbd_turn_territory;

/*
 * W23: a territory whose armies the caller does not know, as a distribution over counts
 * (distinct, ascending, weights above 0 summing to 1: the api normalises them). The
 * territory's own `armies` must then hold the largest count, so that every bound taken from
 * the board (W10's total, the samplers' cache) holds for any count drawn. Distributions of
 * different territories are independent.
 */
typedef struct {
    size_t n;                       /* 0: the armies are known (cbd_turn_territory.armies) */
    const cbd_warapp_count *points; /* n points */
} cbd_turn_fog;

/*
 * W21: a special unit on the board. Its owner is always its territory's owner; the units of one
 * territory are listed in the order of the board's array (W19's listed order), and units that
 * arrive on a territory during the turn are listed after those already there.
 */
typedef struct {
    cbd_warapp_unit unit;
    bool commander;     /* W22: a Commander, whose death may eliminate its owner */
    uint32_t territory; /* where it stands at the start of the turn */
} cbd_turn_unit;

/* A turn holds at most this many units on its board: every side of every battle then fits
 * W19's tables (CBD_WARAPP_MAX_UNITS), and a set of units fits one 64-bit mask. */
#define CBD_TURN_MAX_UNITS CBD_WARAPP_MAX_UNITS

/*
 * The kinds of order (W12, W14, W33, and the cards of W25–W30), one row each: the one list from
 * which the enum below, CBD_ORDER_KINDS, the core's table of kinds
 * (src/core/warapp/turn/board/warapp_turn_kinds.c) and the prototypes of its steps, the api's table
 * (src/api/warapp/turn/warapp_turn_kinds_json.c), the prototypes of its readers and renders and the
 * order reader's member list (src/api/warapp/turn/warapp_turn_orders.c) all follow, so that a kind
 * is one row here and the functions the row names; a function the row names and nobody wrote
 * fails the build. Which fields of cbd_turn_order a kind uses is said beside each field.
 *
 * X(ID, json, game, phase, units, check, touches, step, reader, render, floor, members):
 *   ID       the enum's CBD_ORDER_<ID>
 *   json     its `type` in combatd's requests and answers
 *   game     its `type` in the game's JSON (the bot API and the query game API)
 *   phase    CBD_PHASE_<phase> it runs in (W24; NONE: it reorders the attack phase, W30)
 *   units    whether its orders may list units to move (W21)
 *   check    the core's static valid_<check> (cbd_turn_validate's checks of the kind)
 *   touches  the core's static touches_<touches> (the territories it reads or writes)
 *   step     the core's cbdp_turn_exact_<step> and cbdp_turn_sim_<step> (none: not in sequence)
 *   reader   the api's cbdp_turn_read_<reader> (the kind's members)
 *   render   the api's cbdp_turn_<render>_analysis and cbdp_turn_<render>_counts (its entries)
 *   floor    the fewest bytes its entry takes in one listed turn of /simulate-turn, with its comma
 *   members  the members its reader takes beside type and player, each followed by a comma
 * The core expands the core's columns and the api the api's: no layer calls another's names.
 */
#define CBD_ORDER_KIND_LIST(X)                                                                     \
    X(DEPLOY, "deploy", "GameOrderDeploy", DEPLOY, false, deploy, target, none, deploy, none, 31,  \
      ("to", "armies", "percent", "units", "from", ))                                              \
    X(ATTACK_TRANSFER, "attack_transfer", "GameOrderAttackTransfer", ATTACK, true, attack,         \
      from_to, attack, attack, attack, 21,                                                         \
      ("from", "to", "armies", "percent", "units", "only", "attack_teammates", ))                  \
    X(BOMB, "bomb", "GameOrderPlayCardBomb", BOMB, false, target, bomb, bomb, target_card, card,   \
      20, ("target", ))                                                                            \
    X(BLOCKADE, "blockade", "GameOrderPlayCardBlockade", BLOCKADE, false, target, target,          \
      blockade, target_card, card, 20, ("target", ))                                               \
    X(EMERGENCY_BLOCKADE, "emergency_blockade", "GameOrderPlayCardAbandon", EMERGENCY_BLOCKADE,    \
      false, target, target, blockade, target_card, card, 20, ("target", ))                        \
    X(AIRLIFT, "airlift", "GameOrderPlayCardAirlift", AIRLIFT, true, move, from_to, airlift,       \
      airlift, card, 21, ("from", "to", "armies", "percent", "units", ))                           \
    X(GIFT, "gift", "GameOrderPlayCardGift", GIFT, false, gift, gift, gift, gift, card, 20,        \
      ("target", "to_player", ))                                                                   \
    X(PRIORITY, "order_priority", "GameOrderPlayCardOrderPriority", NONE, false, player, none,     \
      none, reorder_card, none, 20, ())                                                            \
    X(DELAY, "order_delay", "GameOrderPlayCardOrderDelay", NONE, false, player, none, none,        \
      reorder_card, none, 20, ())

/* A parenthesised column's contents (the members' list). */
#define CBD_TURN_UNPAREN(...) __VA_ARGS__

#define CBD_TURN_KIND_ENUM(ID, ...) CBD_ORDER_##ID,
typedef enum { CBD_ORDER_KIND_LIST(CBD_TURN_KIND_ENUM) CBD_ORDER_KINDS } cbd_turn_order_type;
#undef CBD_TURN_KIND_ENUM
/* CBD_ORDER_KINDS is how many kinds there are: the rows of the kinds' tables. */

/*
 * W33: an attack/transfer order may be only an attack or only a transfer (the game's
 * `attackTransfer`: Attack, Transfer or AttackTransfer).
 */
typedef enum {
    CBD_ONLY_EITHER = 0,   /* attack or transfer, as the destination's owner says (W14) */
    CBD_ONLY_ATTACK = 1,   /* skipped when the destination is the player's or a teammate's */
    CBD_ONLY_TRANSFER = 2, /* skipped when the destination is anyone else's */
} cbd_turn_move_only;

/*
 * W24: the phases of a turn, in the order they run. Each kind of order runs in one phase (its
 * row in the kinds' table). Order priority and delay run in none: they reorder the
 * attack/transfer phase (W30).
 */
typedef enum {
    CBD_PHASE_DEPLOY = 0, /* W12 */
    CBD_PHASE_BOMB = 1,
    CBD_PHASE_EMERGENCY_BLOCKADE = 2,
    CBD_PHASE_AIRLIFT = 3,
    CBD_PHASE_GIFT = 4,
    CBD_PHASE_ATTACK = 5, /* W14, reordered by W30's cards */
    CBD_PHASE_BLOCKADE = 6,
    CBD_PHASES = 7,
    CBD_PHASE_NONE = CBD_PHASES, /* W30: order priority and delay */
} cbd_turn_phase;

/* W24: the phase an order of kind `type` runs in (CBD_PHASE_NONE for an unknown kind). */
cbd_turn_phase cbd_turn_kind_phase(cbd_turn_order_type type);

typedef struct {
    cbd_turn_order_type type;
    cbd_turn_player player;
    uint32_t from;     /* attack/transfer and airlift */
    uint32_t to;       /* territory index: the destination, or a card's target (W25, W26, W28) */
    uint64_t armies;   /* deploy: armies added; attack/transfer, airlift: asked for (unless
                          by_percent) */
    bool by_percent;   /* attack/transfer, airlift: send floor(percent × movable) (W14) */
    cbd_micro percent; /* in (0, 10^6] millionths, exact (W3) */
    /* W21: attack/transfer and airlift only, the units it moves by index into cbd_turn.units,
     * in the order listed (distinct). */
    size_t n_units;
    const uint32_t *units;
    cbd_turn_player to_player; /* gift only (W28): the receiver, a player other than `player` */
    cbd_turn_move_only only;   /* attack/transfer only (W33) */
    bool attack_teammates;     /* attack/transfer only (W33): a teammate's territory is attacked */
} cbd_turn_order;

/* W29: two distinct players at peace this turn. */
typedef struct {
    cbd_turn_player a, b;
} cbd_turn_peace;

/* W26: the multipliers' defaults (millionths: 3), and their largest value (100). */
#define CBD_TURN_DEFAULT_BLOCKADE_MULTIPLIER (3 * CBD_MICRO_ONE)
#define CBD_TURN_MAX_BLOCKADE_MULTIPLIER     (100 * CBD_MICRO_ONE)

/* W13. */
typedef enum { CBD_MOVE_LISTED = 0, CBD_MOVE_CYCLE = 1, CBD_MOVE_RANDOM = 2 } cbd_move_order;

/* W16: territory `territory` is owned by `owner` (a player or CBD_TURN_NEUTRAL) at the end. */
typedef struct {
    uint32_t territory;
    cbd_turn_player owner;
} cbd_turn_goal;

/* W32: a bonus, a set of territories with a whole value (it may be negative). Its owner at the
 * end of a turn is the player who owns every territory of it then. */
typedef struct {
    int64_t value;
    size_t n_territories;
    const uint32_t *territories; /* distinct territory indices, at least one */
} cbd_turn_bonus;

typedef struct {
    size_t max_territories;   /* a board of more is CBD_ERR_INVALID */
    size_t max_orders;        /* all orders, deploys included */
    size_t max_players;       /* n_players, at most CBD_TURN_NEUTRAL */
    uint64_t max_states;      /* distinct states of one group at one step (the exact analysis) */
    uint64_t max_state_words; /* those states × 4·(territories in the group): their memory */
    uint64_t max_work;        /* terms computed over the whole analysis: see cbd_turn_analysis */
    uint64_t max_schedules;   /* random move order: player permutations weighed per group */
} cbd_turn_limits;

/* Defaults that fit a real map: 256 territories, 256 orders, 64 players, 10^6 states,
 * 2^24 state words (64 MiB of keys per map), 10^8 terms, 40,320 (8!) permutations. */
cbd_turn_limits cbd_turn_default_limits(void);

typedef struct {
    size_t n_territories;
    const cbd_turn_territory *territories;
    size_t n_players;
    const uint16_t *team; /* team[p] for each player (W8, W11); NULL: everyone on their own */
    size_t n_orders;
    const cbd_turn_order *orders; /* in request order; deploys anywhere (W12) */
    cbd_warapp_settings battle;   /* W1–W10 */
    bool multi_attack;            /* W15 */
    cbd_move_order move_order;
    /* CBD_MOVE_CYCLE: round 1's order of players; must list every player with orders. */
    size_t n_player_order;
    const cbd_turn_player *player_order;
    size_t n_goals;
    const cbd_turn_goal *goals;
    /* W23: n_territories entries, or NULL when every territory's armies are known. */
    const cbd_turn_fog *fog;
    /* W21: the special units on the board (at most CBD_TURN_MAX_UNITS). */
    size_t n_units;
    const cbd_turn_unit *units;
    /*
     * W24: the map, or none (neighbor_off NULL: no territory lists neighbors, and any move may
     * be ordered). Territory t borders neighbors[neighbor_off[t] .. neighbor_off[t + 1]):
     * n_territories + 1 offsets, each list ascending and without repeats, and symmetric (a
     * border listed on either side in the request is in both lists).
     */
    const uint32_t *neighbor_off;
    const uint32_t *neighbors;
    /* W29: the pairs of players at peace this turn. */
    size_t n_peace;
    const cbd_turn_peace *peace;
    /* W26: exact millionths in [0, CBD_TURN_MAX_BLOCKADE_MULTIPLIER]. */
    cbd_micro blockade_multiplier;
    cbd_micro emergency_blockade_multiplier;
    /* W32: the board's bonuses. cbd_turn_analyze and the resolution ignore them (they change
     * no battle); cbd_turn_analyze_bonuses and cbd_turn_bonus_owner read them. */
    size_t n_bonuses;
    const cbd_turn_bonus *bonuses;
} cbd_turn;

/* What went wrong, for the API's 422 (it validates first; these are the core's own checks). */
typedef enum {
    CBD_TURN_ERR_NONE = 0,
    CBD_TURN_ERR_TERRITORY,    /* index = territory: bad owner, armies over 10^9, bad fog */
    CBD_TURN_ERR_ORDER,        /* index = order: bad player, territory, percent, deploy target */
    CBD_TURN_ERR_PLAYER_ORDER, /* cycle without a full player_order; index = missing player */
    CBD_TURN_ERR_GOAL,         /* index = goal */
    CBD_TURN_ERR_SIZE,         /* too many territories, orders or players; or armies past 10^9 */
    CBD_TURN_ERR_STATES,       /* the analysis needs more than max_states states (index
                                * CBD_TURN_NO_ORDER: the product of one group's fog, W23) */
    CBD_TURN_ERR_WORK,         /* ... more than max_work terms */
    CBD_TURN_ERR_SCHEDULES,    /* ... more than max_schedules permutations */
    /* CBD_ERR_BUDGET: the request's budget (budget.h) stopped the work. index = the order being
     * run then, or CBD_TURN_NO_ORDER outside any (the schedules of the random move order have
     * kind SCHEDULES instead). */
    CBD_TURN_ERR_BUDGET,
    /* index = unit: a bad territory or numbers, too many units, or its player's armies and
     * units past 10^9 of power (W10, W18); an order's bad unit list is CBD_TURN_ERR_ORDER */
    CBD_TURN_ERR_UNIT,
} cbd_turn_err_kind;

#define CBD_TURN_NO_ORDER SIZE_MAX
/* CBD_ERR_BUDGET's index while a group's start under fog (W23) was built: the distributions
 * the request gave, not an order, are what to reduce. */
#define CBD_TURN_FOG_START (SIZE_MAX - 1)

typedef struct {
    cbd_turn_err_kind kind;
    size_t index;    /* the offending element, or for STATES/WORK/BUDGET the order being run */
    uint64_t needed; /* STATES/WORK/SCHEDULES: at least this many would be needed */
    uint64_t limit;  /* the limit that was passed */
} cbd_turn_error;

/*
 * Checks a turn against the limits and the rules the core relies on (indices in range, owners
 * valid, deploys onto the player's own territory at the start (W12), percent in (0, 1], the
 * board's armies after deploys at most 10^9 in total so no battle exceeds W10, cycle lists every
 * player with orders; W24–W30: each card's fields, on a map an attack/transfer only across a
 * border (CBD_TURN_ERR_ORDER), the map's lists in range, ascending and symmetric
 * (CBD_TURN_ERR_TERRITORY), diplomacy's pairs two distinct players (CBD_TURN_ERR_SIZE with the
 * pair's index), the multipliers at most 100 (CBD_TURN_ERR_SIZE)). CBD_ERR_INVALID with *err
 * filled when not.
 */
cbd_status cbd_turn_validate(const cbd_turn *turn, const cbd_turn_limits *limits,
                             cbd_turn_error *err);

/* ---- exact analysis (W14–W16) ---- */

typedef struct {
    uint64_t armies;
    double probability;
} cbd_turn_point;

typedef struct {
    double *owner; /* n_players + 1 values: owner[p], and owner[n_players] for neutral */
    /* n_players + 1 values, in owner's block: E[armies · 1{owner = p}], the armies p holds
     * there on average (owner and armies jointly: a territory taken holds the attacker's
     * survivors, one held its defender's); they sum to mean_armies. */
    double *owned_armies;
    cbd_turn_point *armies; /* the armies distribution, ascending, probability > 0 */
    size_t n_armies;
    double mean_armies;
} cbd_turn_territory_result;

/* Per order (W16); all 0 for deploys, order priority and delay. skipped + attack + transfer = 1
 * for attack/transfer. A card of W25–W28 gives `skipped` only (it ran with 1 − skipped); its
 * attack, transfer and capture are 0. */
typedef struct {
    double skipped, attack, transfer, capture;
} cbd_turn_order_result;

/* W21, W22: where one unit ends the turn. */
typedef struct {
    double alive;      /* the probability that it is alive at the end */
    double *territory; /* n_territories values: the probability that it ends alive there */
} cbd_turn_unit_result;

typedef struct {
    size_t n_territories, n_orders, n_players;
    cbd_turn_territory_result *territories;
    size_t n_units;              /* the turn's units (0: none, and the arrays below are NULL) */
    cbd_turn_unit_result *units; /* n_units */
    double *eliminated;          /* n_players when there are units: P(eliminated, W22) */
    cbd_turn_order_result *orders;
    double goals_probability; /* 1 when there are no goals */
    bool deterministic;       /* the final board has exactly one outcome */
    size_t n_groups; /* independent groups of territories: kept apart, so that states multiply only
                        within one */
    /* The most distinct states one group held after an order (territories that no later order
     * touches are folded into the results and leave the state, so this stays small). */
    uint64_t max_group_states;
    /* Terms computed (what max_work bounds): the roll values of every kill distribution
     * computed (cbd_kills.terms, again when one is computed again) and every state × outcome
     * combination enumerated (one per state for a transfer or a skip, one per pair of capped
     * kills for a battle). Not the values kept: at low luck a kill window keeps a few percent
     * of the terms it took. */
    uint64_t work;
    /* W32, after cbd_turn_analyze_bonuses (NULL before): n_bonuses × n_players values,
     * bonus_owner[b * n_players + p] the chance that player p owns every territory of bonus b
     * at the end. */
    size_t n_bonuses;
    double *bonus_owner;
} cbd_turn_analysis;

/*
 * The exact distribution of the board after the turn. Validates first (as cbd_turn_validate).
 * Under fog (W23) each group of territories starts from the product of its territories'
 * distributions (the territories are independent): that product is one state per combination
 * of counts, counted against max_states (and max_work) and charged like any other step, so the
 * answer is the exact mixture of the turns of every combination, goals included.
 * CBD_ERR_TOO_LARGE with err->kind STATES/WORK/SCHEDULES and err->needed when a limit would be
 * passed (checked before each order is expanded, from the outcomes each state can have).
 * Every step is charged to `budget` (NULL: unlimited) before it runs and every block comes
 * from it: CBD_ERR_BUDGET with err->kind BUDGET (or SCHEDULES, weighing the random move order)
 * when it is spent. *out's arrays are the budget's too until cbd_turn_analysis_free.
 */
cbd_status cbd_turn_analyze(const cbd_turn *turn, const cbd_turn_limits *limits, cbd_budget *budget,
                            cbd_turn_analysis *out, cbd_turn_error *err);

void cbd_turn_analysis_free(cbd_turn_analysis *a);

/*
 * W32: the chance that `player` owns every territory of bonus b at the end of `turn`, whose
 * analysis is `a` (cbd_turn_analyze of that turn). Exactly as W16's goals: the joint chance is
 * the goals probability of the turn with the bonus's territories as goals (owner `player`),
 * analysed again (charged to `budget`) unless the marginals decide it: 0 when a territory's
 * chance is 0, the one uncertain territory's chance when the others are certain. Territories
 * the player owns surely (chance 1) leave the goals, so that fewer groups join. Errors as
 * cbd_turn_analyze's; CBD_ERR_INVALID (CBD_TURN_ERR_SIZE) for a bonus naming no territory or one
 * out of range.
 */
cbd_status cbd_turn_bonus_chance(const cbd_turn *turn, const cbd_turn_analysis *a,
                                 const cbd_turn_bonus *b, cbd_turn_player player,
                                 const cbd_turn_limits *limits, cbd_budget *budget, double *out,
                                 cbd_turn_error *err);

/* W32: every bonus of the turn and every player: a->bonus_owner (from `budget`, freed with the
 * analysis). Errors as cbd_turn_bonus_chance's. */
cbd_status cbd_turn_analyze_bonuses(const cbd_turn *turn, const cbd_turn_limits *limits,
                                    cbd_budget *budget, cbd_turn_analysis *a, cbd_turn_error *err);

/* W32: the player who owns every territory of b on `board`; false when none does (a territory
 * neutral, or two owners). */
bool cbd_turn_bonus_owner(const cbd_turn_bonus *b, const cbd_turn_territory *board,
                          cbd_turn_player *owner);

/* ---- seeded resolution of one turn ---- */

typedef enum {
    CBD_TURN_DEPLOYED = 0,
    CBD_TURN_SKIPPED = 1,
    CBD_TURN_ATTACKED = 2,
    CBD_TURN_TRANSFERRED = 3,
    CBD_TURN_PLAYED = 4, /* a card of W25–W28 ran (sent: an airlift's armies) */
} cbd_turn_event_kind;

/* What one order did in one resolved turn. */
typedef struct {
    cbd_turn_event_kind kind;
    uint64_t sent; /* armies sent (deploy: armies added) */
    uint64_t defenders;
    uint64_t attacker_kills, defender_kills; /* rounded, before the W4 cap (W18: damage) */
    cbd_warapp_outcome outcome;              /* attacks only */
    /* W21: bit u for unit u of cbd_turn.units: the units the order sent, and those of either
     * side that died in its battle. */
    uint64_t units_sent, units_died;
    /* attacks only: the owner of `to` when the battle began, whose units are the defending
     * ones of units_died (a gift earlier in the turn may have changed it, W28) */
    cbd_turn_player defender;
} cbd_turn_event;

/*
 * A prepared turn for many resolutions: the board after deploys, the schedule, and a cache of
 * battle samplers (cbd_sim_side) by army count. Not thread-safe: one per thread (the cache is
 * filled lazily). No allocation after cbd_turn_sim_create, whose memory comes from `budget`
 * (NULL: unlimited; CBD_ERR_BUDGET when it refuses).
 */
typedef struct cbd_turn_sim cbd_turn_sim;

cbd_status cbd_turn_sim_create(const cbd_turn *turn, const cbd_turn_limits *limits,
                               cbd_budget *budget, cbd_turn_sim **out, cbd_turn_error *err);
void cbd_turn_sim_free(cbd_turn_sim *sim);

/*
 * Resolves one turn from rng. Draw order: first, under fog (W23), each territory given as a
 * distribution, in ascending territory index, draws its armies: u = cbd_rng_double(rng), and
 * the count is the first point whose cumulative probability (summed in ascending order of
 * armies) exceeds u, the last point when rounding leaves u past them all (a distribution of
 * one count draws too). Then, under CBD_MOVE_RANDOM, a Fisher–Yates shuffle
 * of the players who have orders after the deploys (cards included, but not W30's, which run
 * in no phase), in ascending player index, for
 * i = k − 1 down to 1: j = cbd_rng_bounded(rng, i + 1), swap(perm[i], perm[j]); perm is round
 * 1's order for every phase (W24). Then each battle in schedule order draws exactly as one
 * /simulate battle
 * (warapp_simulate.h): attackers' roll, defenders' roll, attackers' rounding draw, defenders';
 * with units (W17–W21) of each side's power (W18), the units adding no draw of their own (W19,
 * W20 and the eliminations of W22 draw nothing).
 * Transfers, cards (W25–W30) and skipped orders draw nothing. board_out gets n_territories
 * entries (the final board); events (may be NULL) gets n_orders entries, in request order (a
 * card CBD_TURN_PLAYED or CBD_TURN_SKIPPED; order priority and delay CBD_TURN_PLAYED).
 *
 * The turn is charged to `budget` (NULL: unlimited) as it runs: CBD_WORK_TURN_ORDER an order
 * before it starts (and two CBD_WORK_FOG_STEP a fog count drawn), then CBD_WORK_BATTLE a
 * battle (and CBD_WORK_SIM_SETUP for each side's sampler set up for it). CBD_ERR_BUDGET when it is
 * spent: the turn is left unfinished (board_out and events are then unspecified, and the rng has
 * moved on).
 */
cbd_status cbd_turn_sim_one(cbd_turn_sim *sim, cbd_budget *budget, cbd_rng *rng,
                            cbd_turn_territory *board_out, cbd_turn_event *events);

/* The counts the last cbd_turn_sim_one drew (W23): n_territories entries, the drawn armies
 * before deploys for a territory given as a distribution, its known armies for the others. */
const uint64_t *cbd_turn_sim_drawn(const cbd_turn_sim *sim);

/* W21, W22: after the last cbd_turn_sim_one, where each unit of the turn ended (n_units
 * entries: its territory, or CBD_TURN_UNIT_DEAD) and whether each player was eliminated
 * (n_players entries). */
#define CBD_TURN_UNIT_DEAD UINT32_MAX
const uint32_t *cbd_turn_sim_unit_at(const cbd_turn_sim *sim);
const bool *cbd_turn_sim_eliminated(const cbd_turn_sim *sim);

/* W19, W21: after the last cbd_turn_sim_one, the units alive at its end as the board lists
 * them: by ascending territory, and on one territory in W19's listed order (those there at the
 * start in the board's order, then the arrivals in the order they came). Writes their indices
 * into `out` (room for n_units) and returns how many; the dead are left out. The order on a
 * territory is what the next turn's board must list to resolve as this one would go on. */
size_t cbd_turn_sim_units_listed(const cbd_turn_sim *sim, uint32_t *out);

/* W24: whether territories a and b border (always true on a board that is no map). */
bool cbd_turn_map_borders(const cbd_turn *turn, uint32_t a, uint32_t b);

/* Whether every goal holds on a board. */
bool cbd_turn_goals_met(const cbd_turn *turn, const cbd_turn_territory *board);

#endif
