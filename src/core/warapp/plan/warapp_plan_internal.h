#ifndef COMBATD_CORE_WARAPP_PLAN_INTERNAL_H
#define COMBATD_CORE_WARAPP_PLAN_INTERNAL_H

/*
 * The plan search's shared header (W31), for the files of src/core/warapp/plan/: the search's
 * context, a plan as the search holds it, its evaluation (warapp_plan_eval.c), its bound
 * (warapp_plan_bound.c), the whole space's enumeration (warapp_plan_exhaust.c) and the local
 * search (warapp_plan_local.c).
 */
#include "combatd/rng.h"
#include "combatd/warapp_plan.h"

/*
 * A plan as searched: d[i] armies deployed on own[i]; a[p] armies sent by pair p (0: no
 * order); seq a permutation of the pairs, the plan's orders being the pairs with a[p] > 0 in
 * seq's order.
 */
typedef struct {
    uint64_t *d;
    uint64_t *a;
    uint32_t *seq;
} plan_state;

typedef struct {
    bool used;
    double value;
    uint64_t size; /* cbdp_plan_size */
    double aux;    /* plan_best.last_aux when it was evaluated */
    plan_state st;
} plan_kept;

/* What one search of one front at one deploy total (a run, warapp_plan_front.c) came to. */
typedef struct {
    bool ran;    /* the run ended with a plan */
    bool proven; /* ... its whole space searched */
    cbd_plan_result res;
    /* RUN_SPLITS without a plan: why its first plan's analysis failed (CBD_OK: it was not
     * tried, or the run's share ended), for the answer when no plan can be valued at all */
    cbd_status first_error;
    cbd_turn_error first_err;
    cbd_plan_stop stop; /* what ended the run before its whole space was searched */
} plan_run;

/* What evaluating one plan came to. */
typedef enum {
    EVAL_DONE = 0,  /* value computed */
    EVAL_SEEN = 1,  /* evaluated before (the local search's table): not again */
    EVAL_SKIP = 2,  /* the core's limits refuse its analysis: left out, so nothing is proven */
    EVAL_STOP = 3,  /* max_plans or max_work ends the search */
    EVAL_ERROR = 4, /* a failure to answer (the request's budget, memory): ctx->status */
} eval_result;

/* The run's space: the player's own territories of the front and the pairs (from, to) a plan
 * may order. */
typedef struct {
    size_t k;            /* territories the player owns at the start */
    uint32_t *own;       /* their indices, ascending */
    uint64_t *movable;   /* per own territory: armies at the start less the guard (W7), >= 0 */
    size_t np;           /* pairs (from own[i], to a neighbour), by own index then neighbour */
    uint32_t *pfrom;     /* pair -> own index */
    uint32_t *pto;       /* pair -> territory */
    bool independent_ok; /* whether disjoint orders may be taken in one order (see exhaust) */
    bool *touched;       /* per territory: some given order names it */
} plan_space;

/* The bounds (warapp_plan_bound.c): per territory, the capture chance of a first attack of a
 * armies (prefix maxima, a <= bound_max), or NULL where no bound is taken. */
typedef struct {
    bool bounded;
    uint64_t bound_max;
    double **first_cap;
    double *one_cap; /* against one defender (any later attack on the same territory) */
} plan_bounds;

/* The meter: the request's budget and the run's own, what of the run's work the request was
 * charged, and how the run ended (its stop, its errors). */
typedef struct {
    cbd_budget *budget; /* the request's */
    cbd_budget search;  /* the search's own, deterministic (cbd_plan_request.max_work) */
    /* The first plan of a run may use the request's budget past the search's share, so that a
     * plan is answered whenever one fits at all (set for the first run only). */
    bool first_on_request;
    /* The run's work is the request's too, relayed at each of the run's progress checks
     * (about 2^20 units) and the rest settled as each analysis, the count and the run end. The
     * run's own budget is capped at what the request has left, so that neither passes the request's
     * limit (an HTTP thread's inline slice). */
    uint64_t request_charged;
    cbd_budget_relay relay; /* the run's work to the request's budget as it is spent */
    bool cap_by_request;    /* the cap is the request's, not the run's share */
    bool stopped, unproven;
    size_t memory_refused; /* a plan's analysis asked for this block past the memory budget */
    cbd_turn_error *err;
    cbd_status status;      /* after EVAL_ERROR */
    cbd_status first_error; /* the first plan's analysis failing, when none succeeds */
    cbd_turn_error first_err;
} plan_meter;

/* The best plans kept, and the plans counted. */
typedef struct {
    plan_kept kept[CBD_PLAN_ALTERNATIVES + 1];
    uint64_t evaluated, bounded_out;
    /* The last plan evaluated: the sum of the player's chances to own each goal and of the
     * defenders killed where an attack falls short (warapp_plan_eval.c's goal_sum), a guide for
     * the local search where the value is flat (`all`: every plan 0 until every goal can fall;
     * low luck: a territory taken surely or not at all). */
    double last_aux;
} plan_best;

/* The local search's table of plans evaluated (hashes; open addressing). */
typedef struct {
    uint64_t *slots;
    size_t cap;
} plan_seen;

/* One run's context, by job: what it searches (its inputs and space), its bounds, its meter,
 * the plans it keeps and the plans it has seen, and a plan's scratch. */
typedef struct {
    const cbd_turn *board;       /* the run's: the front's other orders only */
    const cbd_plan_request *req; /* the run's: the front's goals, its deploy total */
    /* Per territory: the player's own territories of the run's front (NULL: every one). */
    const bool *front_own;
    /* The run's board order -> the request's (CBD_ERR_BUDGET's order, named to the caller). */
    const size_t *order_map;
    const cbd_turn_limits *limits;
    plan_space space;
    plan_bounds bounds;
    plan_meter meter;
    plan_best best;
    plan_seen seen;
    cbd_turn_order *orders; /* scratch: a plan's turn */
    cbd_turn_goal *goals;
    plan_state scratch; /* a candidate */
} plan_ctx;

/* One front's search at one deploy total (warapp_plan.c): the best plans of the front, kept in
 * run->res (orders from `budget`). CBD_OK with run->ran false when the run's work ended before
 * a plan; an error (the request's budget, memory) ends the whole search. */
typedef enum {
    RUN_SEARCH = 0, /* the whole space, or the local search */
    RUN_SPLITS = 1, /* the plain splits only (W47), evaluated */
} run_kind;

cbd_status cbdp_plan_run(const cbd_turn *board, const cbd_plan_request *req, const bool *front_own,
                         const size_t *order_map, bool first_on_request, run_kind kind,
                         const cbd_turn_limits *limits, cbd_budget *budget, plan_run *run,
                         cbd_turn_error *err);

/* warapp_plan_split.c: the search by fronts (W34, W47) of req, the fronts' runs seeded at the
 * totals `seed` (the plain splits' plan, or NULL) gives them (`search` false: the fronts counted
 * only, into out->fronts). CBD_ERR_BUDGET with *share_spent when no run fitted its share of
 * the search's work (nothing is marked on the budget then: the caller answers the plain
 * splits' plan, or names the budget). */
cbd_status cbdp_plan_fronts(const cbd_turn *board, const cbd_plan_request *req,
                            const cbd_turn_limits *limits, cbd_budget *budget, bool search,
                            const cbd_plan *seed, cbd_plan_result *out, cbd_turn_error *err,
                            bool *share_spent);

/* warapp_plan_split.c: other's best in place of out's when it is worth more by more than
 * CBD_PLAN_TIE (out's best then its first alternative; other's best taken over, its orders
 * out's), optimal then only when it is worth the most; the plans counted together. */
void cbdp_plan_result_take(const cbd_plan_request *req, cbd_plan_result *out,
                           cbd_plan_result *other);

/* cbd_plan_turn_of and cbd_plan_value (warapp_plan.h), here so that the evaluation needs
 * nothing of warapp_plan.c. */
void cbdp_plan_build_turn(const cbd_turn *board, const cbd_plan_request *req, const cbd_plan *plan,
                          cbd_turn_order *orders, cbd_turn_goal *goals, cbd_turn *out);
double cbdp_plan_objective_value(const cbd_plan_request *req, const cbd_turn_analysis *a);

/* W32: the `income` value of a plan's turn whose analysis is `a`: each of the request's bonuses'
 * values times the player's chance to own it whole (cbd_turn_bonus_chance), summed in order. */
cbd_status cbdp_plan_income(const cbd_turn *turn, const cbd_plan_request *req,
                            const cbd_turn_analysis *a, const cbd_turn_limits *limits,
                            cbd_budget *budget, double *value, cbd_turn_error *err);

/* A state's arrays from the request's budget; false when it refuses. */
bool cbdp_plan_state_alloc(plan_ctx *c, plan_state *s);
void cbdp_plan_state_free(plan_state *s);
void cbdp_plan_state_copy(const plan_ctx *c, plan_state *dst, const plan_state *src);

/* The plan's orders (deploys, then its attack/transfers) into out; their number. */
size_t cbdp_plan_state_orders(const plan_ctx *c, const plan_state *s, cbd_turn_order *out);

/* Whether s lies in W31's space (deploys total the income, each territory's orders within
 * what may move from it). */
bool cbdp_plan_state_valid(const plan_ctx *c, const plan_state *s);

/* The search's stop when the request's budget stopped it to answer what it has (the answer
 * deadline: CBD_PLAN_STOP_DEADLINE; the request's work: CBD_PLAN_STOP_BUDGET), the budget then
 * running on its reserve (budget.h) while the answer is made; else CBD_PLAN_STOP_NONE. No run
 * starts once it is set. */
cbd_plan_stop cbdp_plan_answer_stop(const cbd_budget *budget);

/* The local search's version: EVAL_SEEN for a plan evaluated before. */
eval_result cbdp_plan_try(plan_ctx *c, const plan_state *s, double *value);

/* How much a plan does: its orders, then the armies they send (orders << 40 | armies). Of two
 * plans of one value the smaller is the better, so that no order is given that does nothing. */
uint64_t cbdp_plan_size(const plan_ctx *c, const plan_state *s);

/* Values this close are one value to the search (the analysis's rounding differs between plans
 * that do the same), so that the smaller plan of two such is taken. */
#define CBD_PLAN_TIE 1e-12

/* Whether (value, size) is better than (value2, size2): a value higher by more than
 * CBD_PLAN_TIE; or one as high within it and a smaller plan; or the same size and a higher
 * value. Monotone in value, so that a bound that is not better rules a plan out. */
static inline bool cbdp_plan_better(double value, uint64_t size, double value2, uint64_t size2) {
    if (value > value2 + CBD_PLAN_TIE || value < value2 - CBD_PLAN_TIE) {
        return value > value2;
    }
    return size < size2 || (size == size2 && value > value2);
}

/* Whether a plan of value at most `bound` and this size could still be kept. */
bool cbdp_plan_may_keep(const plan_ctx *c, double bound, uint64_t size);

/* warapp_plan_bound.c: the tables, and an upper bound of a plan's value (1 or n_goals when
 * none is taken). */
cbd_status cbdp_plan_bounds_init(plan_ctx *c);
void cbdp_plan_bounds_free(plan_ctx *c);
double cbdp_plan_bound(const plan_ctx *c, const plan_state *s);

/* warapp_plan_exhaust.c: the number of plans of the space, counted up to `cap` (*count is
 * cap + 1 when more; EVAL_ERROR when memory or the request's budget fail); then the whole space
 * searched. */
eval_result cbdp_plan_count(plan_ctx *c, uint64_t cap, uint64_t *count);
eval_result cbdp_plan_exhaust(plan_ctx *c);

/* warapp_plan_seeds.c: the seeds (the rule of thumb, all-in attacks on each goal, holding, and
 * when `drawn` plans drawn from a fixed seed), each evaluated once. */
eval_result cbdp_plan_seeds(plan_ctx *c, plan_state *s, bool drawn);

/* The seed of the plans drawn (W31: any fixed value; the plans drawn depend on it). */
#define CBD_PLAN_SEED UINT64_C(0x31)

/* warapp_plan_seeds.c: the plan edits the seeds and the climbs share. Whether t is another's
 * (not the player's nor a teammate's); a plan drawn from rng; own territory i's pairs [lo, hi);
 * what it sends; its orders cut, the last pairs first, to what may move from it. */
bool cbdp_plan_is_other(const plan_ctx *c, uint32_t t);
void cbdp_plan_random(const plan_ctx *c, cbd_rng *rng, plan_state *s);
void cbdp_plan_pairs_of(const plan_ctx *c, size_t i, size_t *lo, size_t *hi);
uint64_t cbdp_plan_sent_from(const plan_ctx *c, const plan_state *s, size_t i);
void cbdp_plan_fit(const plan_ctx *c, plan_state *s, size_t i);

/* warapp_plan_local.c: seeds (the rule of thumb among them) and a local search from the best. */
eval_result cbdp_plan_local(plan_ctx *c);

/* warapp_plan_greedy.c (W47): the greedy split and the even split of the run's income and its
 * sources' movable armies, each into s and evaluated (EVAL_STOP or EVAL_ERROR end the run). */
eval_result cbdp_plan_splits(plan_ctx *c, plan_state *s);

#endif
