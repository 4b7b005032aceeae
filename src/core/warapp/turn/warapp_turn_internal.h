#ifndef COMBATD_WARAPP_TURN_INTERNAL_H
#define COMBATD_WARAPP_TURN_INTERNAL_H

/* The shared header of src/core/warapp/turn/ (no .c of its name): what the exact analysis and
 * the seeded resolution of a turn share, the plan of a turn, the kinds' rows and the exact
 * engine's parts; the seeded resolution's own are in warapp_turn_sim_internal.h. */
#include "combatd/warapp_odds.h"
#include "combatd/warapp_turn.h"

/*
 * A validated turn, laid out for running: the board after every deploy (W12), each player's
 * team, and the orders that run in sequence (every phase after the deploys, W24) grouped by
 * the player who gives them ("movers") and by their phase.
 */
typedef struct {
    const cbd_turn *turn;
    size_t n_terr, n_players, n_orders;
    cbd_turn_territory *start; /* the board after deploys */
    uint32_t *team;            /* n_players */
    size_t n_seq;              /* orders that run in sequence: every phase but the deploys */
    uint32_t *listed;          /* their indices by phase (W24), in request order within one */
    uint8_t *phase;            /* n_orders: the phase each order runs in (cbd_turn_phase) */
    size_t n_movers;           /* players with orders in sequence */
    cbd_turn_player *movers;   /* ascending */
    uint32_t *mover_of;        /* n_players: index into movers, or UINT32_MAX */
    /* n_movers × CBD_PHASES + 1 offsets into mover_orders: mover m's orders of phase ph are
     * mover_orders[mover_off[m·CBD_PHASES + ph] .. mover_off[m·CBD_PHASES + ph + 1]). */
    uint32_t *mover_off;
    uint32_t *next;              /* the same places: scratch while the plan is built */
    uint32_t *mover_orders;      /* each mover's orders by phase, in request order */
    uint32_t rounds[CBD_PHASES]; /* the most orders any mover has in each phase */
    /* W30: each player's Order Priority cards, and each order's delay level (the Order Delay
     * cards its player lists before it); the most levels and whether any card is played. */
    uint32_t *prio;
    uint32_t *level;
    uint8_t *lead; /* n_orders: its player's first attack/transfer order */
    uint32_t max_level;
    bool any_prio;
    uint32_t *cycle_first; /* CBD_MOVE_CYCLE: round 1's order as mover indices */
} cbd_turn_plan;

/* The plan's arrays come from `budget` (its loops are linear in the turn and are charged). */
cbd_status cbdp_turn_plan_build(const cbd_turn *turn, const cbd_turn_limits *limits,
                                cbd_budget *budget, cbd_turn_plan *plan, cbd_turn_error *err);
void cbdp_turn_plan_free(cbd_turn_plan *plan);

/* The place of mover m's orders of phase ph among the movers' lists (cbd_turn_plan). */
static inline size_t cbdp_turn_plan_slot(size_t m, size_t ph) {
    return m * CBD_PHASES + ph;
}

/* W30: the plan's priority counts and delay levels (warapp_turn_schedule.c). */
void cbdp_turn_plan_cards(cbd_turn_plan *plan);

/*
 * W13, W24: the orders in sequence in the order they run, given round 1's order of movers
 * (`first`: n_movers mover indices), or NULL for the listed order. The phases run one after
 * the other; within each, round r takes each mover's r-th order of the phase, in `first`'s
 * order when r is odd and reversed when even, and a mover with no r-th order is passed over
 * (the same ordering of players for every phase). The attack/transfer phase follows W30: the
 * players with Order Priority cards first (more cards first), or under the listed order their
 * first attack/transfer at the front; then the orders by delay level, stably. out gets n_seq
 * order indices and has room for 2 · n_seq (the second half is scratch).
 */
void cbdp_turn_plan_schedule(const cbd_turn_plan *plan, const uint32_t *first, uint32_t *out);

/* The rounds of every phase together (what one schedule's walk over the movers costs). */
static inline uint64_t cbdp_turn_plan_rounds(const cbd_turn_plan *plan) {
    uint64_t r = 0;
    for (size_t ph = 0; ph < CBD_PHASES; ph++) {
        r += plan->rounds[ph];
    }
    return r;
}

/* W8, W11: whether `owner` is `player` or a teammate (never for neutral). */
static inline int cbdp_turn_is_own(const cbd_turn_plan *plan, cbd_turn_player player,
                                   cbd_turn_player owner) {
    return owner != CBD_TURN_NEUTRAL && plan->team[owner] == plan->team[player];
}

/* W29: whether the owner of a territory is at peace with `player` this turn (never neutral, and
 * never a teammate: a transfer to a teammate is unaffected). */
static inline bool cbdp_turn_at_peace(const cbd_turn_plan *plan, cbd_turn_player player,
                                      cbd_turn_player owner) {
    const cbd_turn *t = plan->turn;
    if (owner == CBD_TURN_NEUTRAL || t->n_peace == 0 || cbdp_turn_is_own(plan, player, owner)) {
        return false;
    }
    for (size_t i = 0; i < t->n_peace; i++) {
        const cbd_turn_peace *q = &t->peace[i];
        if ((q->a == player && q->b == owner) || (q->a == owner && q->b == player)) {
            return true;
        }
    }
    return false;
}

/* W14 steps 2–3: armies sent by an order from a territory of `armies` (eligible `eligible`). */
static inline uint64_t cbdp_turn_sent(const cbd_turn *turn, const cbd_turn_order *o,
                                      uint64_t armies, uint64_t eligible) {
    uint64_t movable = turn->battle.one_army_must_stand_guard ? (armies ? armies - 1 : 0) : armies;
    if (!turn->multi_attack && eligible < movable) {
        movable = eligible; /* W15 */
    }
    if (o->by_percent) {
        /* W3: exact; percent <= 10^6 and movable <= 10^9, so the product fits in 64 bits. */
        return (uint64_t)o->percent * movable / CBD_MICRO_ONE;
    }
    return o->armies < movable ? o->armies : movable;
}

/* ---- the exact engine (warapp_turn_exact.c, _step.c, _retire.c, _map.c, _kills.c), driven by
 * warapp_turn_analyze.c ---- */

/* The state map and the kill cache below index their entries with the core's hash index
 * (src/core/hash_index.h): each entry in the first free slot of its hash's probe. */
/* Distinct states of one group of territories with their probabilities: an open-addressing
 * hash map keyed by the group's territories (owner, armies and, without multi_attack, the
 * eligible armies of W15). Its memory comes from `budget`; the caller charges the states it
 * adds (CBD_WORK_TURN_STATE or _OUTCOME each), the map charges only its own growth. */
typedef struct {
    cbd_budget *budget; /* kept by cbdp_turn_map_free and _clear */
    size_t words;       /* uint32 words per state */
    size_t count, cap;
    uint64_t adds;   /* states added (new or merged) since the map was cleared */
    uint64_t missed; /* ... of them whose cache misses are charged (cbdp_turn_charge_misses) */
    uint32_t *keys;  /* cap × words */
    double *prob;    /* cap */
    uint64_t *hash;  /* cap: the index key of each state (its words hashed) */
    uint32_t *slot;  /* cap: the table slot of each state, so that clearing costs the states */
    uint32_t *table; /* tcap slots: entry index + 1, 0 when empty */
    size_t tcap;     /* a power of 2 */
    /* The arrays' last growth, charged as new states fill it: its bytes (CBD_WORK_TURN_GROWTH)
     * and its new pages (cbd_budget_defer_pages), over the states it made room for. */
    cbd_charge_share grown, grown_pages;
} cbd_turn_map;

void cbdp_turn_map_free(cbd_turn_map *m);
/* Empties the map for states of `words` words (keeping its memory when the size is the same).
 * Costs the states it held, not its capacity: a table grown by one large step is not wiped
 * whole at every later step (each schedule of the random move order runs every step again,
 * and a later group reuses the maps). It charges the slots it clears; CBD_ERR_BUDGET when the
 * budget is spent. */
cbd_status cbdp_turn_map_clear(cbd_turn_map *m, size_t words);
/* Whether the map's states outgrow the cache (CBD_WORK_CACHE_BYTES): each access then misses. */
bool cbdp_turn_map_past_cache(const cbd_turn_map *m);
/* Adds mass w to the state `key`, merging it with an equal state; once the map is past the
 * cache, charges the cache misses of its adds as they come (cbdp_turn_charge_misses). */
cbd_status cbdp_turn_map_add(cbd_turn_map *m, const uint32_t *key, double w);

/* Kill distributions by army count for one side of the engine's battles (warapp_turn_kills.c),
 * computed once each while they fit the cache's bounds. */
typedef struct {
    size_t count, cap; /* entries */
    uint64_t *n;
    cbd_kills *kills;
    uint32_t *table; /* index + 1 */
    size_t tcap;
    uint64_t bytes;   /* what the entries hold (their windows and their slots) */
    cbd_kills spare;  /* the last distribution that did not fit (dist.p NULL: none) */
    uint64_t spare_n; /* its army count */
} cbd_turn_kills_cache;

void cbdp_turn_kills_cache_free(cbd_turn_kills_cache *c);

/*
 * W21, W22: the units of one group in the engine's states (warapp_turn_units.c). Each unit has
 * CBD_TURN_UNIT_WORDS words after the territories' words: where it stands (0: dead, l + 1:
 * alive on the group's territory l, CBD_TURN_UNIT_RETIRED: a Commander alive on a territory
 * already retired), its rank among the units there (W19's listed order, kept 0 .. k − 1 so
 * that equal boards give equal states), its health left (a health unit; 0 otherwise) and
 * whether it moved this turn (W21, without multi_attack). A dead unit's words are all 0.
 */
/* A Commander has no health (W17: damage to kill 7), so its health word holds instead the
 * receiver + 1 of a gift of its territory (W28), 0 while it is its start owner's; that word
 * stays when it dies or retires, for W22's eliminations. */
enum {
    CBD_U_LOC = 0,
    CBD_U_RANK = 1,
    CBD_U_HEALTH = 2,
    CBD_U_OWNER = CBD_U_HEALTH,
    CBD_U_MOVED = 3,
    CBD_TURN_UNIT_WORDS = 4
};
#define CBD_TURN_UNIT_RETIRED UINT32_MAX

typedef struct {
    const cbd_turn_plan *plan;
    size_t n;                                  /* the group's units: those starting in it */
    uint32_t board[CBD_TURN_MAX_UNITS];        /* group unit -> unit of the turn */
    uint32_t of_board[CBD_TURN_MAX_UNITS];     /* unit of the turn -> group unit, or UINT32_MAX */
    cbd_turn_player owner[CBD_TURN_MAX_UNITS]; /* its owner at the start (a Commander's stays) */
    size_t base;                               /* the first unit word of a state */
    size_t stride;                             /* words per territory */
    size_t n_cmdr_players;                     /* W22: players with a Commander in the group */
    cbd_turn_player cmdr_players[CBD_TURN_MAX_UNITS];
} cbd_turn_gunits;

/* The group's units (those whose start territory has local[t] != UINT32_MAX) and their first
 * words in `key` (after n_terr territories of `stride` words). Returns their word count. */
size_t cbdp_turn_gunits_init(cbd_turn_gunits *g, const cbd_turn_plan *plan, const uint32_t *local,
                             size_t n_terr, size_t stride);
void cbdp_turn_gunits_start(const cbd_turn_gunits *g, const uint32_t *local, uint32_t *key);
/* The group units alive on territory l, in rank order (W19's listed order); returns how many. */
size_t cbdp_turn_gunits_on(const cbd_turn_gunits *g, const uint32_t *key, size_t l, uint8_t *out);
/* W21: the group units listed by order o that it can send from lf in state key (on lf, not
 * moved without multi_attack), in the order listed (the caller keeps them off a teammate's). */
size_t cbdp_turn_gunits_sendable(const cbd_turn_gunits *g, const uint32_t *key,
                                 const cbd_turn_order *o, size_t lf, uint8_t *out);
/* Takes units off the board for a move (their place words 0, health kept); compacts lf. */
void cbdp_turn_gunits_lift(const cbd_turn_gunits *g, uint32_t *key, const uint8_t *list, size_t n,
                           size_t lf);
/* W21: puts units (lifted) on territory l after those already there, in list order, moved. */
void cbdp_turn_gunits_place(const cbd_turn_gunits *g, uint32_t *key, const uint8_t *list, size_t n,
                            size_t l);
/* W22: whether unit gu is a Commander (the built-in unit: no health). */
bool cbdp_turn_gunits_is_commander(const cbd_turn_gunits *g, size_t gu);
/* W28: the units on territory l are gifted to player `to`: moved this turn, and its
 * Commanders count as to's (W22). */
void cbdp_turn_gunits_gift(const cbd_turn_gunits *g, uint32_t *key, size_t l, cbd_turn_player to);
/* W26: armies × the blockade's multiplier, rounded down, at most 10^9 (warapp_turn_cards.c). */
uint32_t cbdp_turn_blockaded(const cbd_turn *t, cbd_turn_order_type type, uint64_t armies);
/* W22: whether player p (with a Commander in the group at the start) has Commanders, by their
 * owners now (W28), and none of them alive in `key`. */
bool cbdp_turn_gunits_eliminated(const cbd_turn_gunits *g, const uint32_t *key, cbd_turn_player p);
/*
 * W19–W22: one outcome of a battle with units in state k2 (the sent armies and units already
 * off `from`): st[0] is what the attack (units att, in their listed order) kept after its
 * damage, st[1] what the defense (units def) kept. W20 decides, W21 moves the survivors (to
 * `to` on capture, back to `from` otherwise), W22 eliminates a player whose last Commander
 * died. Returns whether `to` was captured.
 */
bool cbdp_turn_gunits_outcome(const cbd_turn_gunits *g, uint32_t *k2, cbd_turn_player player,
                              size_t lf, size_t lt, const uint8_t *att, size_t n_att,
                              const uint8_t *def, size_t n_def, const cbd_warapp_side_state *st);
/* The unit's W17 numbers as it stands in `key` (a health unit's toughness is its health left). */
cbd_warapp_unit cbdp_turn_gunits_now(const cbd_turn_gunits *g, const uint32_t *key, size_t gu);

typedef struct cbd_turn_engine cbd_turn_engine;

/* One retired territory's armies and probability (weighted by its schedule). */
typedef struct {
    uint32_t territory;
    uint32_t armies; /* <= 10^9 (W10): 16 bytes a point, and a turn may gather millions */
    double probability;
} cbd_turn_retired;

/*
 * The engine's parts, shared by its files: warapp_turn_exact.c (its life and its run),
 * warapp_turn_step.c (one order over every state), warapp_turn_retire.c (the start states and
 * retiring territories), warapp_turn_kills.c (the kill windows) and warapp_turn_charge.c
 * (what the steps charge and how they refuse). Each calls only those after it in that list.
 */
/* A territory's words in the engine's states: its owner, its armies and, without multi_attack,
 * its eligible armies (W15). */
enum { W_OWNER = 0, W_ARMIES = 1, W_ELIG = 2 };

struct cbd_turn_engine {
    const cbd_turn_plan *plan;
    const cbd_turn_limits *limits;
    cbd_budget *budget;
    cbd_turn_order_result *ores;
    cbd_turn_error *err;
    size_t order;  /* the order being run (request index), for the errors */
    size_t stride; /* words per territory */
    cbd_turn_kills_cache cache[2];
    cbd_turn_map cur, next;
    cbd_turn_analysis *out; /* owner chances are added here as territories retire */
    cbd_turn_retired *pts;  /* (territory, armies, probability) as territories retire */
    size_t n_pts, pts_cap;
    /* The last growth of pts, charged as the points fill it: its bytes (CBD_WORK_TURN_GROWTH)
     * and its new pages (cbd_budget_defer_pages), over the points it made room for. */
    cbd_charge_share pts_growth, pts_pages;
    int32_t *last;     /* local territory -> the last step of the schedule that touches it */
    uint32_t *touched; /* n_terr + 2: an order's territories (its row's `touches`) */
    uint64_t peak;
    double *buf[2]; /* capped kills of each side */
    size_t buf_cap[2];
    uint32_t *key; /* one state being built */
    size_t key_cap;
    uint32_t *local; /* territory -> its place in the group being run */
    uint64_t work;
    uint64_t bound; /* the states the order being run adds (or merges), from estimate */
    bool truncated;
    cbd_turn_gunits gu; /* W21: the units of the group being run (gu.n 0: none) */
};

/* Fills *e->err with a refusal of `kind` (order oi, needed past limit): CBD_ERR_TOO_LARGE. */
cbd_status cbdp_turn_too_large(cbd_turn_engine *e, cbd_turn_err_kind kind, size_t oi,
                               uint64_t needed, uint64_t limit);
/* A status of the engine's, with the order being run named when the budget stopped it. */
cbd_status cbdp_turn_stopped(cbd_turn_engine *e, cbd_status st);
/* The kill distribution of n armies of side `which` (0: offense rate, 1: defense rate), from
 * the engine's caches (warapp_turn_kills.c, as the two below); its terms count in e->work. */
cbd_status cbdp_turn_kills_of(cbd_turn_engine *e, int which, uint64_t n, const cbd_kills **out);
/* The range [lo, lo + len) of min(K, cap) over K's window (W4). */
size_t cbdp_turn_capped_len(const cbd_kills *k, uint64_t cap, uint64_t *lo);
/* Writes P(min(K, cap) = lo + i) into e->buf[which]; notes a window short of the support. */
cbd_status cbdp_turn_capped(cbd_turn_engine *e, int which, const cbd_kills *k, uint64_t cap,
                            uint64_t *lo, size_t *len);
/* The cache misses of `adds` states added to e->next, once its size is known. */
cbd_status cbdp_turn_charge_misses(cbd_turn_engine *e, uint64_t adds);
/* The most states one step may hold (max_states, fewer for a large group). */
uint64_t cbdp_turn_state_cap(const cbd_turn_engine *e);
/* W21: what looking over a state's units costs. */
uint64_t cbdp_turn_unit_scan(const cbd_turn_engine *e);
/* The units of one state stored (or merged) in a map: `base` plus its words. */
uint64_t cbdp_turn_state_units(const cbd_turn_engine *e, uint64_t base);
/* The state after deploys of the group terr[0 .. n_terr) in e->cur, or fog's product of them
 * (warapp_turn_retire.c). */
cbd_status cbdp_turn_start_state(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr);
/* Retires the territories whose last step is s (-1: before the first) into the results,
 * weighted by `weight` (warapp_turn_retire.c). */
cbd_status cbdp_turn_retire(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr, int32_t s,
                            double weight);

/* The engine adds order chances and territory owner chances into *res as it runs; it charges
 * `budget` for every step and takes its memory from it. */
cbd_status cbdp_turn_engine_create(const cbd_turn_plan *plan, const cbd_turn_limits *limits,
                                   cbd_budget *budget, cbd_turn_analysis *res, cbd_turn_error *err,
                                   cbd_turn_engine **out);
void cbdp_turn_engine_free(cbd_turn_engine *e);

/*
 * Runs the orders seq[0 .. len) on the group of territories terr[0 .. n_terr) from the board
 * after deploys, adding each order's chances × weight and each territory's final owner
 * chances × weight into the results, each territory's final armies × weight into the engine's
 * points, and sets *goals to the probability that the goals on this group's territories hold.
 */
cbd_status cbdp_turn_engine_run(cbd_turn_engine *e, const uint32_t *terr, size_t n_terr,
                                const uint32_t *seq, size_t len, double weight, double *goals);

/* The armies points gathered since the last clear (unsorted, repeats not merged). */
const cbd_turn_retired *cbdp_turn_engine_points(const cbd_turn_engine *e, size_t *n);
void cbdp_turn_engine_clear_points(cbd_turn_engine *e);
/* The most states any step held (after merging, before retiring). */
uint64_t cbdp_turn_engine_peak(const cbd_turn_engine *e);
/* Whether a kill window was cut short of its exact support (a certainty is then not proven). */
bool cbdp_turn_engine_truncated(const cbd_turn_engine *e);
uint64_t cbdp_turn_engine_work(const cbd_turn_engine *e);

/* ---- groups of territories and their schedules (warapp_turn_groups.c), their goals
 * (warapp_turn_goals.c), driven by the analysis (warapp_turn_analyze.c) ---- */

/* One independent group of territories and the schedules of its orders. */
typedef struct {
    size_t n_terr;
    uint32_t *terr;
    size_t len;      /* its attack/transfer orders */
    size_t n_movers; /* players giving them, as ascending mover indices */
    uint32_t *movers;
    size_t n_sched; /* distinct schedules */
    uint32_t *seqs; /* n_sched × len */
    double *weight; /* probability of each schedule */
    double *fval;   /* goals probability under each schedule */
    size_t n_ranks; /* n_movers! under random, else 1 */
    uint32_t *rank_to_id;
    bool has_goal;
} cbd_turn_group;

/* The board split into independent groups (W12–W16, W22), each with its schedules: what the
 * exact analysis runs group by group. Its arrays come from `budget`. */
typedef struct {
    const cbd_turn_plan *plan;
    const cbd_turn_limits *limits;
    cbd_budget *budget;
    cbd_turn_error *err;
    size_t n_groups;
    cbd_turn_group *groups;
    uint32_t *group_of_terr;
    uint32_t *group_of_order;
    uint32_t *full, *first; /* scratch: a whole schedule, round 1's movers */
} cbd_turn_groups;

/* Splits the board into groups (territories joined by an order's from and to, and by a
 * Commander's owner, W22), listing each group's territories and movers. */
cbd_status cbdp_turn_groups_build(cbd_turn_groups *a);
void cbdp_turn_groups_free(cbd_turn_groups *a);
/* W13: group g's distinct schedules and their weights (every permutation of its movers under
 * the random move order, merged where equal). */
cbd_status cbdp_turn_group_schedules(cbd_turn_groups *a, size_t g);
/* The status of a step outside any order that the budget stopped (or memory failed): the
 * error then names no order. */
cbd_status cbdp_turn_outside_orders(cbd_turn_groups *a, cbd_status st);

/* W16: P(every goal holds) from each group's goal chance per schedule. */
cbd_status cbdp_turn_combine_goals(const cbd_turn_group *groups, size_t n_groups, size_t n_movers,
                                   uint64_t max_schedules, cbd_budget *budget, cbd_turn_error *err,
                                   double *out);
bool cbdp_turn_contains(const uint32_t *v, size_t n, uint32_t x);
/* k!, or cap + 1 when it is larger than cap. */
uint64_t cbdp_turn_factorial_capped(size_t k, uint64_t cap);

/* ---- the kinds of order: one row each (warapp_turn_kinds.c) ---- */

/*
 * What the core knows of one kind of order (W12, W14, W24–W30); the api's table
 * (src/api/warapp/turn/warapp_turn_kinds_json.c) holds the same kinds' names, readers and renders.
 * The engines never switch on a kind: validation calls `valid` and `touches`, the groups and
 * the exact engine `touches`, the plan `phase`, the exact engine `exact`, the sampler
 * `sampled`.
 */
typedef struct {
    cbd_turn_phase phase; /* W24 */
    bool lists_units;     /* W21: an order of the kind may list units to move */
    /* The kind's own checks for cbd_turn_validate (the player and `to` in range are checked for
     * every kind); NULL: a kind no engine runs yet, always invalid. */
    bool (*valid)(const cbd_turn *turn, const cbd_turn_order *o);
    /* The territories an order reads or writes, into out (room for n_territories + 2); returns
     * how many (repeats allowed). They are joined into one group (the groups are independent,
     * warapp_turn_groups.c) and none of them retires before the order runs. */
    size_t (*touches)(const cbd_turn *turn, const cbd_turn_order *o, uint32_t *out);
    /* The exact step: order oi over every state of e->cur, into e->cur (the results' chances
     * weighted by `weight`). NULL for a kind that runs outside the sequence (deploys: the plan
     * starts every engine from the board after them, W12). */
    cbd_status (*exact)(cbd_turn_engine *e, size_t oi, double weight);
    /* The sampled step: the order on the board of one seeded turn, recorded in *ev (zeroed by
     * the caller); false when the budget stopped it. NULL as for `exact`. */
    bool (*sampled)(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,
                    cbd_turn_territory *board, cbd_rng *rng, cbd_turn_event *ev);
} cbd_turn_kind;

/* The row of kind `type` (an unknown value gets a row no engine runs). */
const cbd_turn_kind *cbdp_turn_kind_of(cbd_turn_order_type type);

/* Each kind's steps (its `step` column in CBD_ORDER_KIND_LIST): the attack/transfer order's in
 * warapp_turn_step.c and warapp_turn_sim_attack.c (W14), the cards' (W25–W28; one blockade step
 * serves both blockades, W26) in warapp_turn_cards.c and warapp_turn_sim_cards.c, and `none`, for
 * the kinds that run in no sequence (deploys, W12; W30's cards), in warapp_turn_exact.c and
 * warapp_turn_sim.c. */
#define CBDP_TURN_STEP_PROTOTYPES(ID, json, game, phase, units, check, touches, step, ...)         \
    cbd_status cbdp_turn_exact_##step(cbd_turn_engine *e, size_t oi, double weight);               \
    bool cbdp_turn_sim_##step(cbd_turn_sim *sim, cbd_budget *budget, const cbd_turn_order *o,      \
                              cbd_turn_territory *board, cbd_rng *rng, cbd_turn_event *ev);
CBD_ORDER_KIND_LIST(CBDP_TURN_STEP_PROTOTYPES)
#undef CBDP_TURN_STEP_PROTOTYPES

/* W33: whether order o, about to move into a territory of `to_owner`, moves as a transfer (its
 * player's, or a teammate's unless it attacks teammates; never neutral's, W8). */
static inline bool cbdp_turn_moves_own(const cbd_turn_plan *plan, const cbd_turn_order *o,
                                       cbd_turn_player to_owner) {
    return to_owner == o->player ||
           (!o->attack_teammates && cbdp_turn_is_own(plan, o->player, to_owner));
}

/* W33: whether an attack-only order meets its own side, or a transfer-only order another's. */
static inline bool cbdp_turn_move_refused(const cbd_turn_order *o, bool own) {
    return (o->only == CBD_ONLY_ATTACK && own) || (o->only == CBD_ONLY_TRANSFER && !own);
}

#endif
