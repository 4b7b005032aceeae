#ifndef COMBATD_BUDGET_H
#define COMBATD_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/scratch.h"
#include "combatd/status.h"

/*
 * One request's budget: the work the core may do for it and the memory it may hold, metered
 * as they are spent (as SQLite's progress handler and SQLITE_LIMIT_*, PostgreSQL's
 * statement_timeout and work_mem, Lua's instruction hook). Every core computation that grows
 * with its input charges its work here before doing it and takes its memory from here; when
 * either is spent it stops with CBD_ERR_BUDGET and `stopped` says which. Estimates made before
 * a request runs only decide where it runs; this is what bounds it.
 *
 * Work is counted in units of about one nanosecond of one core of the reference machine
 * (2 vCPUs, x86-64; bench/bench_budget prints the ratio of CPU time to units for the costliest
 * request of every endpoint). Each kind of step has its weight below, measured by that
 * benchmark, so a budget reads as time: 2·10^9 units are about 2 s of CPU.
 *
 * A budget belongs to one request and is used by one thread at a time. A NULL budget is
 * unlimited (unit tests, and callers that bound the work themselves); allocations made with it
 * still go through cbd_mem_* so that cbd_mem_free releases any of them. Defined in budget.c;
 * budget_pace.c has cbd_mem_calloc_paced, budget_relay.c the relay (cbd_budget_relay_*).
 */

/* Units in a millisecond of one core: a config's milliseconds of budget times this. */
#define CBD_WORK_UNITS_PER_MS UINT64_C(1000000)

/* The weights: units charged per step of each kind (about its nanoseconds). */
#define CBD_WORK_BINOM_TERM   4   /* one term of a binomial pmf window */
#define CBD_WORK_KILL_TERM    3   /* one roll value folded into a kill distribution */
#define CBD_WORK_SCAN_TERM    1   /* one value of a distribution summed or scanned */
#define CBD_WORK_BATTLE       120 /* one simulated battle (two variates and the rounding) */
#define CBD_WORK_SORT_STEP    4   /* one comparison of a qsort (a call through its comparator) */
#define CBD_WORK_TURN_OUTCOME 20  /* one battle outcome enumerated for one turn state */
#define CBD_WORK_TURN_STATE   20  /* one turn state stored, looked up or folded */
#define CBD_WORK_TURN_WORD    2   /* ... and each of its words hashed, compared and copied */
#define CBD_WORK_TURN_MISS    70  /* ... more in a table past CBD_WORK_CACHE_BYTES (its misses) */
#define CBD_WORK_TURN_ORDER   30  /* one order of one simulated turn, besides its battle */
#define CBD_WORK_SIM_SETUP    90  /* one side's battle sampler set up (logs, square roots) */
#define CBD_WORK_TURN_TALLY   4   /* one territory of one simulated turn counted in the stats */
#define CBD_WORK_TURN_GROWTH  4   /* bytes a unit, of a turn table grown (page faults, copies) */
#define CBD_WORK_BOARD_STEP   2   /* one tile or adjacency step of a board walk */
#define CBD_WORK_BOARD_TILE   100 /* one tile of a board checked, hashed and copied */
#define CBD_WORK_BOARD_PAIR   50  /* one adjacency pair (or count of keys) looked up and listed */
#define CBD_WORK_DUPER_BATTLE 200 /* one Duper battle resolved */
#define CBD_WORK_COMPARE      10  /* one comparison (and move) of a sort or a heap */
/* (A turn state's words are hashed by a serial multiply, cbd_hash_words: 1.5-1.7 ns a word for
 * keys of 80-400 words, then copied and compared: CBD_WORK_TURN_WORD a word.) */

/* What every request costs before its endpoint's steps (cbd_api_answer_within charges it): each
 * byte of its body parsed into JSON, 15-31 ns in bench_budget (15-23 for bodies of 1 KB, 15 for
 * 1,000 fog counts, 31 for a Duper board of 403 KB), and its answer set up and handed over (its
 * budget, writer and reply), about 4 µs besides the parse for /analyze-attack 10 v 10. */
#define CBD_WORK_BODY_BYTE 20
#define CBD_WORK_REQUEST   4000

/* The api layer's steps, charged by its handlers to the same budget. */
#define CBD_WORK_BOARD_READ_TILE  650 /* one board tile read from JSON and checked (D12) */
#define CBD_WORK_BOARD_READ_PAIR  120 /* one adjacency pair read from JSON (a count of keys: 2) */
#define CBD_WORK_BOARD_WRITE_TILE 150 /* one board tile written */
#define CBD_WORK_BOARD_WRITE_PAIR 25  /* one adjacency pair or count of keys written */
#define CBD_WORK_DUPER_BATTLE_JSON                                                                 \
    3000                               /* one Duper battle's answer written (or its request read) */
#define CBD_WORK_DUPER_OPTION_JSON 500 /* one board option's answer written */

/* What /simulate charges besides its battles (bench/bench_budget measures them with them). */
#define CBD_WORK_BATTLE_ROLL   50  /* the part of CBD_WORK_BATTLE that one side's variate costs */
#define CBD_WORK_RNG_JUMP      220 /* one jump of the generator (256 steps of xoshiro256) */
#define CBD_WORK_HIST_SLOT     3   /* one histogram slot made, copied and read for the answer */
#define CBD_WORK_LISTED_BATTLE 150 /* one battle stored and written out in an answer's list */
/* ... with special units and fog (W17–W20, W23). */
#define CBD_WORK_UNIT_DAMAGE 3   /* one unit of one battle: W19's walk and its survival counted */
#define CBD_WORK_FOG_STEP    8   /* one step of a battle's draw of the defenders' count */
#define CBD_WORK_FOG_MISS    200 /* ... the cache misses of one draw once its tables pass: */
#define CBD_WORK_FOG_CACHED  (UINT64_C(256) << 10) /* bytes of per-count tables kept in cache */
#define CBD_WORK_SIM_COUNT   150 /* one count of a distribution: its sampler set up */
#define CBD_WORK_FOG_POINT   500 /* ... and read: checked, sorted and normalised */
/* (A count's bytes, some 670 ns of the 1,200 a count costs in bench_budget's 1,000 counts over
 * 0..10^9, are CBD_WORK_BODY_BYTE's.) One unit of one listed battle: checked (a live one about
 * 1.5 ns) and, dead, written (about 10), as measured in bench_budget's listings of 1,000
 * battles of 32+32 Commanders and of 32 defending Commanders that all die; or one unit id
 * written in a listed turn. */
#define CBD_WORK_LISTED_UNIT 5
/* One territory or order of a listed turn written (30-200 bytes): bench_budget's 100 listed
 * turns of 64 Commanders write 2.9 KB a turn, some 5-7 µs besides the turn. */
#define CBD_WORK_LISTED_TURN_ITEM 250
/* One unit of the board looked over in a seeded turn (where it stands, its arrival), about
 * 0.5 ns in bench_budget's /simulate-turn rows of 64 Commanders, where a walk of W19 costs about
 * 4.4 ns a unit (CBD_WORK_UNIT_DAMAGE). */
#define CBD_WORK_SIM_UNIT 1

/* What writing /analyze-attack's answer costs besides the core's work (summaries, listings). */
#define CBD_WORK_DIST_VALUE 16 /* one value read for the percentiles, the listing and the rest */
#define CBD_WORK_DIST_POINT 75 /* one value listed, written as armies and probability */
/* One point of a graph besides its kill windows, written: bench_budget's 10,000 points at luck 0
 * take 2.5 ms, some 250 ns a point with its JSON, and their 126 bytes of answer are fresh pages
 * (an answer past M_MMAP_THRESHOLD is a mapping of its own, given back when sent): 0.03 of a
 * page, 300 units at CBD_WORK_FRESH_PAGE. */
#define CBD_WORK_GRAPH_POINT 550

/* Tables (state maps, histograms) past this outgrow the share of the L3 cache a request can
 * count on (32 MiB on the reference machine): each access to them then misses it, some
 * CBD_WORK_TURN_MISS more (bench/bench_budget's turn rows: 27 ns a turn state stored in a map
 * of a few MiB, about 100 in one of 40 MiB, where the table, the hashes and the keys each
 * miss; 5 ns a histogram count in a few MiB of them, 66 ns in 32 MiB). */
#define CBD_WORK_CACHE_BYTES (UINT64_C(16) << 20)

/* Memory new to a request comes to it as pages the kernel faults in and zeroes when first
 * touched: about 0.2 µs a page on a bare machine, up to 10 µs on a cloud VM or in a container
 * sandbox (measured there with a first-touch loop over 200 MB: 2.3-2.7 ms a MB). The charge is
 * the slow machine's, CBD_WORK_FRESH_PAGE units a page, so that a request that faults memory in
 * stays within its budget wherever it runs:
 * - every block of CBD_SCRATCH_MIN_BLOCK or more that the budget's scratch (scratch.h) does not
 *   serve from its kept blocks, for the bytes new to it (a kept block grown pays its growth);
 * - the smaller blocks, from malloc's heap, as their total passes CBD_WORK_FRESH_FROM for the
 *   first time in the request: below it a running server's heap has the pages already;
 * - the pages of the parsed body's blocks of CBD_MALLOC_MAPPED_FROM or more (cbd_charge_fresh,
 *   api.c), which are mappings of their own under the server's malloc policy. */
#define CBD_WORK_FRESH_FROM ((size_t)4 << 20)
#define CBD_WORK_FRESH_PAGE 10000

/*
 * Small blocks kept for reuse by one computation that makes and drops the same blocks again
 * and again: the plan search analyses one turn per plan (W31), each analysis some hundreds of
 * blocks of 32 B-64 KiB, and malloc's heap took 60 % of the search's CPU for them (bench_plan:
 * 2 ns of CPU per unit charged, against about 1 for /analyze-turn), work that no step charged.
 * Served from here, a block is a pop from its size class's list. Set on a budget with
 * cbd_budget_set_cache: its blocks below CBD_SCRATCH_MIN_BLOCK come from the cache and go back
 * to it when freed, up to CBD_CACHE_KEEP bytes kept (past that, to the heap); the memory budget
 * counts a block's size while it is held, as for any block. The owner releases the cache (to the
 * heap) once every block taken from it is freed.
 */
#define CBD_CACHE_CLASSES 12                 /* powers of two, 64 B to 128 KiB with headers */
#define CBD_CACHE_KEEP    ((size_t)16 << 20) /* bytes of free blocks kept at most */
typedef struct cbd_block_cache {
    void *free[CBD_CACHE_CLASSES]; /* each class's free blocks, linked through their first word */
    size_t kept;                   /* bytes of them */
    uint64_t heap_blocks;          /* blocks taken from malloc's heap for the cache */
    uint64_t reused;               /* blocks served from its lists */
} cbd_block_cache;

/*
 * Why a budget stopped a computation. Two kinds: an abandon (CBD_BUDGET_CANCELLED: nothing of
 * the computation will be sent) and a stop that may still be answered with what was computed
 * so far (CBD_BUDGET_WORK, CBD_BUDGET_DEADLINE; a computation that has such an answer keeps a
 * reserve for writing it, cbd_budget_set_reserve).
 */
typedef enum {
    CBD_BUDGET_RUNNING = 0,
    CBD_BUDGET_WORK = 1,   /* work_spent passed work_limit */
    CBD_BUDGET_MEMORY = 2, /* an allocation would have passed mem_limit */
    CBD_BUDGET_CANCELLED =
        3,                   /* the progress callback said abandon (client gone, server stopping) */
    CBD_BUDGET_DEADLINE = 4, /* the progress callback said the answer's deadline has passed */
} cbd_budget_stop;

/*
 * Called once every CBD_BUDGET_PROGRESS_UNITS units of work: CBD_BUDGET_RUNNING goes on;
 * CBD_BUDGET_DEADLINE stops the computation to answer what it has; anything else stops it with
 * CBD_BUDGET_CANCELLED (abandoned). The caller's own business (a deadline, a client gone, a
 * server stopping): the core reads no clock.
 */
typedef cbd_budget_stop (*cbd_budget_progress_fn)(void *arg);
#define CBD_BUDGET_PROGRESS_UNITS (UINT64_C(1) << 20) /* about a millisecond */

typedef struct cbd_budget {
    uint64_t work_limit; /* units; UINT64_MAX for none */
    uint64_t work_spent;
    size_t mem_limit; /* bytes held at once through cbd_mem_*; SIZE_MAX for none */
    size_t mem_held;
    size_t mem_peak;
    size_t mem_refused;            /* the size of the block that passed mem_limit, when one did */
    size_t small_held, small_peak; /* ... of it in blocks below CBD_SCRATCH_MIN_BLOCK */
    uint64_t fresh_bytes;          /* bytes charged as new pages (CBD_WORK_FRESH_PAGE) */
    uint64_t fresh_units;          /* units charged here for new pages (its own and fresh_to's) */
    uint64_t heap_blocks;        /* small blocks taken from malloc's heap (a cache's misses too) */
    cbd_scratch *scratch;        /* where large blocks come from and go back to; may be NULL */
    cbd_block_cache *cache;      /* where small blocks come from and go back to; may be NULL */
    struct cbd_budget *fresh_to; /* where new pages are charged (NULL: here) */
    uint64_t *pages_owed;        /* while set, new pages' units are added here, not charged */
    cbd_budget_progress_fn progress; /* may be NULL */
    void *progress_arg;
    uint64_t next_progress; /* work_spent at which progress is called next */
    cbd_budget_stop stopped;
    /* The answer's reserve (cbd_budget_set_reserve): units granted once past a stop for
     * CBD_BUDGET_WORK or CBD_BUDGET_DEADLINE, and that stop (`ended`) while they are spent. */
    uint64_t reserve;
    cbd_budget_stop ended;
} cbd_budget;

/* A budget of `work_limit` units and `mem_limit` bytes, nothing spent. */
void cbd_budget_init(cbd_budget *b, uint64_t work_limit, size_t mem_limit);

/* Large blocks come from `s` and go back to it when freed (NULL: from malloc, each charged as
 * new pages). The scratch must outlive every block taken through the budget. */
void cbd_budget_set_scratch(cbd_budget *b, cbd_scratch *s);

/* Small blocks come from `c` and go back to it when freed (NULL: from malloc's heap). A block
 * freed after its budget's cache is unset goes to the heap. */
void cbd_budget_set_cache(cbd_budget *b, cbd_block_cache *c);

/* New pages of b's blocks (CBD_WORK_FRESH_PAGE) are charged to `to` rather than to b (NULL: to
 * b), their bytes still counted in b's fresh_bytes. For a child budget whose work must be the
 * same each time the same computation runs (the plan search's share, cbd_plan_request.max_work):
 * which blocks are new pages depends on what the server's memory held before, not on the
 * computation, so the parent (the request, which pays for them) is charged instead. */
void cbd_budget_set_fresh_to(cbd_budget *b, cbd_budget *to);

/*
 * A block's new pages charged as its caller first touches them rather than when it is taken:
 * with `owed` set, the units of the new pages of the blocks b takes (CBD_WORK_FRESH_PAGE a page,
 * their bytes still counted in fresh_bytes) are added to *owed instead of charged; NULL charges
 * them again as they come. The caller charges *owed with cbd_charge_pages as it fills the block
 * (cbd_charge_share_pages_init), so that the kernel's faults, which come as the pages are first
 * written, fall between the same progress checks as their charge (a table of points doubled to
 * 64 MiB was 78 · 2^20 units at once, and up to 12 ms of faults between two checks after it).
 * Pages never touched are never charged: they cost nothing.
 */
void cbd_budget_defer_pages(cbd_budget *b, uint64_t *owed);

/* Charges `units` of new pages deferred by cbd_budget_defer_pages: to b's fresh_to when set,
 * counted in its fresh_units; false once b's budget is spent. True for NULL. */
bool cbd_charge_pages(cbd_budget *b, uint64_t units);

/* The work units b has left before its limit (UINT64_MAX for an unlimited budget and NULL). */
static inline uint64_t cbd_budget_work_left(const cbd_budget *b) {
    if (!b || b->work_limit == UINT64_MAX) {
        return UINT64_MAX;
    }
    return b->work_limit > b->work_spent ? b->work_limit - b->work_spent : 0;
}

/* A child budget: a computation's own meter that draws on `parent` (the request's): `work_limit`
 * units of its own, the memory parent has left, its large blocks from parent's scratch, parent's
 * progress callback (its deadline and abandons stop the child too), its new pages charged to
 * parent (cbd_budget_set_fresh_to). The child's work is charged to parent by the caller. NULL
 * parent: a budget of `work_limit` alone. */
void cbd_budget_init_child(cbd_budget *b, cbd_budget *parent, uint64_t work_limit);

/* The work charged to b less what its new pages cost: the same each time the same computation
 * runs, whatever the server's memory held before (0 for NULL). */
static inline uint64_t cbd_budget_steady_work(const cbd_budget *b) {
    return b && b->work_spent > b->fresh_units ? b->work_spent - b->fresh_units : 0;
}

/* Gives the cache's free blocks back to the heap; its counts stay. */
void cbd_block_cache_release(cbd_block_cache *cache);

/* Folds what a child budget (a search's own, drawing on the same memory) held at its peak, the
 * fresh bytes it was charged and the small blocks it took from the heap into `parent`, so that
 * the request's peak, fault bound and heap count the memory spent under the child. The child's
 * work is charged separately. */
void cbd_budget_note_child(cbd_budget *parent, const cbd_budget *child, uint64_t fresh_bytes,
                           uint64_t heap_blocks);

/* Records why a computation stopped (for CBD_BUDGET_MEMORY with the size of the block refused),
 * unless a reason is recorded already: for a caller that ends a computation on its own terms
 * (a search whose share of the work is spent) and must say which limit to raise. NULL: no-op. */
void cbd_budget_mark_stopped(cbd_budget *b, cbd_budget_stop why, size_t mem_refused);

/* Lets a budget that stopped for memory run on (its caller dropped the block that passed
 * mem_limit and goes on without it); another stop stays. NULL: no-op. */
void cbd_budget_resume_after_memory(cbd_budget *b);

/* Charges `units` to `b` as work done elsewhere (a child budget's), without the progress call or
 * a stop: the next cbd_charge sees the total. Saturates. NULL: no-op. */
void cbd_budget_add_spent(cbd_budget *b, uint64_t units);

/*
 * A child budget's work charged to its parent as it is spent, not when the child's computation
 * ends: the child's progress check (once per CBD_BUDGET_PROGRESS_UNITS of its own work) charges
 * the parent what the child spent since the last (when it fits what the parent has left: a
 * charge that would stop the parent is left to cbd_budget_relay_settle, where the child's
 * caller decides what the stop means), then calls the parent's progress callback as the child's
 * check would have. So the parent's work moves in pieces of about 2^20 units between its checks
 * rather than by a whole analysis of a plan at once (bench_budget's "gap 2^20": 178 for a plan
 * search). `charged` is the caller's count of the child's units the parent has been charged.
 */
typedef struct {
    const cbd_budget *child;
    cbd_budget *parent;
    uint64_t *charged;
} cbd_budget_relay;

/* Makes `child` (a cbd_budget_init_child of `parent`) relay its work to `parent` through `r`,
 * which must outlive the child's use. NULL parent: nothing is relayed. */
void cbd_budget_relay_start(cbd_budget_relay *r, cbd_budget *child, cbd_budget *parent,
                            uint64_t *charged);

/* Charges the parent what the child spent and was not relayed yet; false when the parent's
 * budget is spent (as cbd_charge). True for a NULL parent. */
bool cbd_budget_relay_settle(cbd_budget_relay *r);

/*
 * The answer's reserve: a computation that can answer what it computed before a stop (the plan
 * search's best plan so far) sets `units` before it runs. The first stop for CBD_BUDGET_WORK or
 * CBD_BUDGET_DEADLINE then still fails the charge that met it (the computation ends), but the
 * budget runs on for `units` more to write the answer: its work limit becomes what was spent
 * plus `units`, the deadline stops it no more (an abandon still does), and `ended` says which
 * stop it was. Once only: past the reserve the budget stops for good. 0 (the default): no
 * reserve, every stop is final. NULL: no-op.
 */
void cbd_budget_set_reserve(cbd_budget *b, uint64_t units);

/* The computation that set the reserve has written its answer: the reserve ends (no further
 * one), and a budget that was running on it stops as it had ended, so that what comes next on
 * the same budget (an MCP batch's next call) finds it spent. NULL: no-op. */
void cbd_budget_end_reserve(cbd_budget *b);

/* Whether the budget runs on its reserve: stopped for CBD_BUDGET_WORK or CBD_BUDGET_DEADLINE,
 * the answer of what was computed still to write (false for NULL). */
static inline bool cbd_budget_answering(const cbd_budget *b) {
    return b && b->stopped == CBD_BUDGET_RUNNING && b->ended != CBD_BUDGET_RUNNING;
}

/* What stopped the computation: `stopped`, or while it runs on its reserve the stop that
 * ended it; CBD_BUDGET_RUNNING when none (and for NULL). */
static inline cbd_budget_stop cbd_budget_stop_reason(const cbd_budget *b) {
    return !b ? CBD_BUDGET_RUNNING : b->stopped != CBD_BUDGET_RUNNING ? b->stopped : b->ended;
}

/* A computation that saw `why` (CBD_BUDGET_WORK or CBD_BUDGET_DEADLINE) on a budget of its own
 * stops `b` as b's own check would have: onto its reserve when it has one, else for good.
 * Nothing when b stopped already or runs on its reserve. NULL: no-op. */
void cbd_budget_halt(cbd_budget *b, cbd_budget_stop why);

/* Sets a progress callback (see cbd_budget_progress_fn). */
void cbd_budget_set_progress(cbd_budget *b, cbd_budget_progress_fn fn, void *arg);

/* A progress check now, however few units were charged since the last (the next comes 2^20 units
 * on): for a loop whose steps may cost more CPU than their units say (entries placed in a table
 * past the cache: hash_index.c), so that its checks come by its steps too. False once the budget
 * is spent, as cbd_charge; true for NULL and for a budget without a progress callback. */
bool cbd_budget_poll(cbd_budget *b);

/* The slow path of cbd_charge: records the stop or calls the progress callback. */
bool cbd_budget_check(cbd_budget *b);

/*
 * Charges `units` of work, before doing it. True while the budget holds; false once it is
 * spent (or was stopped before), and then the caller returns CBD_ERR_BUDGET. Saturates.
 */
static inline bool cbd_charge(cbd_budget *b, uint64_t units) {
    if (!b) {
        return true;
    }
    uint64_t spent = b->work_spent + units;
    b->work_spent = spent < units ? UINT64_MAX : spent;
    if (b->work_spent > b->work_limit || b->work_spent >= b->next_progress ||
        b->stopped != CBD_BUDGET_RUNNING) {
        return cbd_budget_check(b);
    }
    return true;
}

/* Charges `bytes` of memory new to the request that did not come through cbd_mem_* (the pages
 * of the JSON arena's mapped blocks, api.c) as the pages the kernel faults in for them
 * (CBD_WORK_FRESH_PAGE a page), counted in fresh_bytes; false once the budget is spent. */
bool cbd_charge_fresh(cbd_budget *b, size_t bytes);

/* units × count, saturating, for charging a loop before it runs. */
static inline uint64_t cbd_work_times(uint64_t units, uint64_t count) {
    return count != 0 && units > UINT64_MAX / count ? UINT64_MAX : units * count;
}

/*
 * A loop of `count` steps of `units` each, charged before its steps in pieces of about
 * CBD_BUDGET_PROGRESS_UNITS (at least one step) rather than at once: the progress check (a
 * deadline, a client gone, a server stopping) comes with the charges, and a loop over millions
 * of turn states charged at once ran 20-80 ms of CPU between two checks (bench_budget's "gap
 * ms"). The same units in all as cbd_charge(b, units × count).
 */
typedef struct {
    cbd_budget *b;
    uint64_t units; /* a step's */
    uint64_t todo;  /* steps not charged yet */
    uint64_t left;  /* steps charged and not taken yet */
} cbd_charge_loop;

static inline void cbd_charge_loop_init(cbd_charge_loop *l, cbd_budget *b, uint64_t units,
                                        uint64_t count) {
    *l = (cbd_charge_loop){b, units, count, 0};
}

/* Before each step of the loop: false once the budget is spent (the caller returns
 * CBD_ERR_BUDGET). */
static inline bool cbd_charge_loop_step(cbd_charge_loop *l) {
    if (l->left == 0) {
        uint64_t piece = l->units >= CBD_BUDGET_PROGRESS_UNITS
                             ? 1
                             : CBD_BUDGET_PROGRESS_UNITS / (l->units > 0 ? l->units : 1);
        piece = piece < l->todo ? piece : l->todo > 0 ? l->todo : 1; /* (a step past count: 1) */
        l->todo = l->todo > piece ? l->todo - piece : 0;
        l->left = piece;
        if (!cbd_charge(l->b, cbd_work_times(l->units, piece))) {
            return false;
        }
    }
    l->left--;
    return true;
}

/*
 * `units` in all over a loop of `count` steps, charged before its steps in pieces of about
 * CBD_BUDGET_PROGRESS_UNITS as cbd_charge_loop charges them, for a cost that is not a whole
 * number of units a step (a table's growth over the entries it places): step k has been paid
 * for when floor(units · k / count) is charged. The same units in all as cbd_charge(b, units).
 */
typedef struct {
    cbd_budget *b;
    uint64_t units; /* in all */
    uint64_t count; /* steps */
    uint64_t done;  /* steps taken */
    uint64_t paid;  /* steps paid for */
    bool pages;     /* the units are new pages' (cbd_charge_pages) */
} cbd_charge_share;

static inline void cbd_charge_share_init(cbd_charge_share *l, cbd_budget *b, uint64_t units,
                                         uint64_t count) {
    *l = (cbd_charge_share){b, units, count, 0, 0, false};
}

/* A share of new pages' units deferred by cbd_budget_defer_pages over the `count` steps that
 * first touch them. */
static inline void cbd_charge_share_pages_init(cbd_charge_share *l, cbd_budget *b, uint64_t units,
                                               uint64_t count) {
    *l = (cbd_charge_share){b, units, count, 0, 0, true};
}

static inline bool cbd_charge_share_pay(cbd_charge_share *l, uint64_t units) {
    return l->pages ? cbd_charge_pages(l->b, units) : cbd_charge(l->b, units);
}

/* The units of the first k of the loop's steps (exact: a product of 128 bits). */
static inline uint64_t cbd_charge_share_upto(const cbd_charge_share *l, uint64_t k) {
    __extension__ typedef unsigned __int128 wide;
    return k == 0 ? 0 : k >= l->count ? l->units : (uint64_t)((wide)l->units * k / l->count);
}

/* Before each step: false once the budget is spent. */
static inline bool cbd_charge_share_step(cbd_charge_share *l) {
    if (l->done == l->paid && l->paid < l->count) {
        uint64_t pieces = l->units / CBD_BUDGET_PROGRESS_UNITS + 1;
        uint64_t steps = l->count / pieces > 0 ? l->count / pieces : 1;
        uint64_t next = l->count - l->paid > steps ? l->paid + steps : l->count;
        uint64_t owed = cbd_charge_share_upto(l, next) - cbd_charge_share_upto(l, l->paid);
        l->paid = next;
        if (!cbd_charge_share_pay(l, owed)) {
            return false;
        }
    }
    l->done++;
    return true;
}

/* After the loop: charges what its steps left (all of it for a loop of no steps). */
static inline bool cbd_charge_share_end(cbd_charge_share *l) {
    uint64_t owed = l->units - cbd_charge_share_upto(l, l->paid);
    l->paid = l->count;
    return cbd_charge_share_pay(l, owed);
}

/* Whether a budget has stopped (false for NULL). */
static inline bool cbd_budget_spent(const cbd_budget *b) {
    return b && b->stopped != CBD_BUDGET_RUNNING;
}

/*
 * The status a core function returns for an allocation that failed: CBD_ERR_BUDGET when the
 * budget refused it, CBD_ERR_NOMEM when the system did.
 */
static inline cbd_status cbd_budget_nomem(const cbd_budget *b) {
    return cbd_budget_spent(b) ? CBD_ERR_BUDGET : CBD_ERR_NOMEM;
}

/*
 * The core's allocator. Each block remembers its budget, so cbd_mem_free needs none; a block
 * must go back through cbd_mem_free or cbd_mem_realloc, never free(). NULL when the system has
 * no memory, or when the budget would pass mem_limit (then b->stopped is CBD_BUDGET_MEMORY).
 */
void *cbd_mem_alloc(cbd_budget *b, size_t size);
void *cbd_mem_calloc(cbd_budget *b, size_t count, size_t size);
/* As cbd_mem_calloc, for a large block whose zeroing faults its new pages in (budget_pace.c): they
 * are charged (CBD_WORK_FRESH_PAGE a page) as it is zeroed, CBD_MEM_ZERO_CHUNK bytes at a time with
 * the progress check between, rather than whole when it is taken (a state table's hash index that
 * grew the scratch by 7 MiB was 17 · 2^20 units at once in bench_budget). The same units in all;
 * NULL when the budget stops on the way (its block given back) or memory fails. */
#define CBD_MEM_ZERO_CHUNK ((size_t)256 << 10) /* 64 pages: 0.61 · 2^20 units, all new */
void *cbd_mem_calloc_paced(cbd_budget *b, size_t count, size_t size);
/* As realloc; on failure the old block is kept. `p` NULL allocates from `b`. */
void *cbd_mem_realloc(cbd_budget *b, void *p, size_t size);
void cbd_mem_free(void *p);

#endif
