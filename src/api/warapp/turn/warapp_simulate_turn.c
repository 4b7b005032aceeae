/*
 * POST /simulate-turn: War.app turns resolved with a seeded RNG (W11–W16), one
 * real turn per trial. The RNG is created here from the request's seed (or a fresh OS seed,
 * which is returned): xoshiro256** seeded through splitmix64, one stream for the whole request,
 * trials in order, each drawing as cbd_turn_sim_one documents. Every statistic is an integer
 * count, so the same body and seed render the same bytes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "combatd/warapp_simulate.h"
#include "warapp_request.h"
#include "warapp_turn_json.h"

/* Turns are listed by default up to this many trials (and at most warapp.max_listed_turns). */
#define LIST_BY_DEFAULT_MAX 100

static const char *const request_keys[] = {CBD_TURN_KEYS, "trials", "seed", "include_turns", NULL};

typedef struct {
    uint64_t trials, seed;
    bool seed_given, include_turns;
} sim_options;

/* The armies one territory ended with: value -> count, open addressing (key + 1; 0 = empty).
 * Armies go up to 10^9, so nothing is allocated per army; only per distinct value seen. The
 * counts share the keys' block (count = key + cap): one allocation per growth, not two. */
typedef struct {
    uint64_t *key, *count;
    size_t cap, n;
    uint64_t sum;
} hist;

typedef struct {
    const cbd_turn_request *q;
    cbd_budget *budget;               /* every block below comes from it */
    uint64_t hist_bytes;              /* what the armies histograms hold */
    size_t n_terr, n_orders, n_owner; /* n_owner = players + 1 (neutral last) */
    uint64_t *owner_counts;           /* n_terr × n_owner */
    hist *armies;                     /* n_terr */
    uint64_t (*order_counts)[4];      /* skipped, attacks, transfers, captures */
    uint64_t goals_met;
    cbd_turn_territory *boards; /* listed turns: trials × n_terr, or NULL */
    cbd_turn_event *events;     /* listed turns: trials × n_orders, or NULL */
    uint64_t *drawn;            /* listed turns under fog (W23): trials × n_terr, or NULL */
    size_t n_units;             /* W21: the board's units (0: none, the counts below NULL) */
    uint64_t *unit_at;          /* n_units × n_terr: the trials it ended alive there */
    uint64_t *unit_alive;       /* n_units */
    uint64_t *eliminated;       /* n_players (W22) */
} sim_stats;

static size_t hash_slot(uint64_t v, size_t cap) {
    return (size_t)((v * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

static bool hist_grow(hist *h, cbd_budget *budget, uint64_t *bytes) {
    size_t cap = h->cap ? h->cap * 2 : 8;
    uint64_t *key = cbd_mem_calloc(budget, 2 * cap, sizeof *key);
    if (!key) {
        return false;
    }
    *bytes += (cap - h->cap) * 2 * sizeof *key;
    uint64_t *count = key + cap;
    for (size_t i = 0; i < h->cap; i++) {
        if (h->key[i]) {
            size_t s = hash_slot(h->key[i], cap);
            while (key[s]) {
                s = (s + 1) & (cap - 1);
            }
            key[s] = h->key[i];
            count[s] = h->count[i];
        }
    }
    cbd_mem_free(h->key);
    h->key = key;
    h->count = count;
    h->cap = cap;
    return true;
}

static bool hist_add(hist *h, cbd_budget *budget, uint64_t *bytes, uint64_t armies) {
    if (2 * (h->n + 1) > h->cap && !hist_grow(h, budget, bytes)) {
        return false;
    }
    uint64_t k = armies + 1;
    size_t s = hash_slot(k, h->cap);
    while (h->key[s] && h->key[s] != k) {
        s = (s + 1) & (h->cap - 1);
    }
    h->n += h->key[s] == 0;
    h->key[s] = k;
    h->count[s]++;
    h->sum += armies;
    return true;
}

static void stats_free(sim_stats *s) {
    for (size_t i = 0; s->armies && i < s->n_terr; i++) {
        cbd_mem_free(s->armies[i].key); /* the counts with it */
    }
    cbd_mem_free(s->armies);
    cbd_mem_free(s->owner_counts);
    cbd_mem_free(s->order_counts);
    cbd_mem_free(s->boards);
    cbd_mem_free(s->events);
    cbd_mem_free(s->drawn);
    cbd_mem_free(s->unit_at);
    cbd_mem_free(s->unit_alive);
    cbd_mem_free(s->eliminated);
}

static bool stats_init(sim_stats *s, cbd_budget *budget, const cbd_turn_request *q,
                       const sim_options *o) {
    memset(s, 0, sizeof *s);
    s->q = q;
    s->budget = budget;
    s->n_terr = q->turn.n_territories;
    s->n_orders = q->turn.n_orders;
    s->n_owner = q->turn.n_players + 1;
    s->owner_counts = cbd_mem_calloc(budget, s->n_terr * s->n_owner, sizeof *s->owner_counts);
    s->armies = cbd_mem_calloc(budget, s->n_terr, sizeof *s->armies);
    s->order_counts = cbd_mem_calloc(budget, s->n_orders + 1, sizeof *s->order_counts);
    bool ok = s->owner_counts && s->armies && s->order_counts;
    s->n_units = q->turn.n_units;
    if (ok && s->n_units > 0) {
        s->unit_at = cbd_mem_calloc(budget, s->n_units * s->n_terr, sizeof *s->unit_at);
        s->unit_alive = cbd_mem_calloc(budget, s->n_units, sizeof *s->unit_alive);
        s->eliminated = cbd_mem_calloc(budget, s->n_owner, sizeof *s->eliminated);
        ok = s->unit_at && s->unit_alive && s->eliminated;
    }
    if (ok && o->include_turns) {
        /* trials <= warapp.max_listed_turns here, so the products cannot overflow. */
        s->boards = cbd_mem_alloc(budget, o->trials * s->n_terr * sizeof *s->boards);
        s->events = cbd_mem_alloc(budget, (o->trials * s->n_orders + 1) * sizeof *s->events);
        ok = s->boards && s->events;
        if (ok && q->turn.fog) {
            s->drawn = cbd_mem_alloc(budget, o->trials * s->n_terr * sizeof *s->drawn);
            ok = s->drawn != NULL;
        }
    }
    return ok;
}

/* W21, W22: where each unit ended and who was eliminated, into the counts. */
static void units_add(sim_stats *s, const cbd_turn_sim *sim) {
    const uint32_t *at = cbd_turn_sim_unit_at(sim);
    const bool *gone = cbd_turn_sim_eliminated(sim);
    for (size_t u = 0; u < s->n_units; u++) {
        if (at[u] != CBD_TURN_UNIT_DEAD) {
            s->unit_at[u * s->n_terr + at[u]]++;
            s->unit_alive[u]++;
        }
    }
    for (size_t p = 0; p + 1 < s->n_owner; p++) {
        s->eliminated[p] += gone[p];
    }
}

/* One resolved turn into the counts. */
static bool stats_add(sim_stats *s, const cbd_turn_territory *board, const cbd_turn_event *ev) {
    for (size_t i = 0; i < s->n_terr; i++) {
        cbd_turn_player owner = board[i].owner;
        size_t o = owner == CBD_TURN_NEUTRAL ? s->n_owner - 1 : owner;
        s->owner_counts[i * s->n_owner + o]++;
        if (!hist_add(&s->armies[i], s->budget, &s->hist_bytes, board[i].armies)) {
            return false;
        }
    }
    for (size_t i = 0; i < s->n_orders; i++) {
        uint64_t *c = s->order_counts[i];
        c[0] += ev[i].kind == CBD_TURN_SKIPPED;
        c[1] += ev[i].kind == CBD_TURN_ATTACKED;
        c[2] += ev[i].kind == CBD_TURN_TRANSFERRED;
        c[3] += ev[i].kind == CBD_TURN_ATTACKED && ev[i].outcome.captured;
    }
    s->goals_met += cbd_turn_goals_met(&s->q->turn, board);
    return true;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* About log2(n) + 1: the depth of a sort of n values. */
static uint64_t log2_ceil(size_t n) {
    uint64_t d = 1;
    while (n > 1) {
        n >>= 1;
        d++;
    }
    return d;
}

/* {"mean": x, "histogram": [{"armies": k, "count": c}, ...]} ascending, as /simulate's. */
static bool hist_json(cbd_jw *w, cbd_budget *budget, const hist *h, uint64_t trials) {
    /* The table scanned, the values sorted (qsort's comparisons), each looked up again. */
    uint64_t compares = cbd_work_times(h->n, log2_ceil(h->n) + 1);
    uint64_t units = cbd_work_times(CBD_WORK_SORT_STEP, compares) +
                     cbd_work_times(CBD_WORK_SCAN_TERM, h->cap + 2 * h->n);
    if (!cbd_charge(budget, units)) {
        return false;
    }
    /* A few distinct values (one for a single trial) sort on the stack. */
    uint64_t few[64];
    uint64_t *vals = h->n <= 64 ? few : cbd_mem_alloc(budget, h->n * sizeof *vals);
    if (!vals) {
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < h->cap; i++) {
        if (h->key[i]) {
            vals[n++] = h->key[i];
        }
    }
    qsort(vals, n, sizeof *vals, cmp_u64);
    cbd_jw_key(w, "armies");
    cbd_jw_object_open(w);
    cbd_jw_key_real(w, "mean", (double)h->sum / (double)trials);
    cbd_jw_key(w, "histogram");
    cbd_jw_array_open(w);
    for (size_t j = 0; j < n; j++) {
        size_t s = hash_slot(vals[j], h->cap);
        while (h->key[s] != vals[j]) {
            s = (s + 1) & (h->cap - 1);
        }
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "armies", vals[j] - 1);
        cbd_jw_key_uint(w, "count", h->count[s]);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
    cbd_jw_object_close(w);
    if (vals != few) {
        cbd_mem_free(vals);
    }
    return true;
}

/* W21: the ids of the units in `mask` (bit u: unit u), as an array member. */
static void unit_list_json(cbd_jw *w, const cbd_turn_request *q, const char *key, uint64_t mask) {
    cbd_jw_key(w, key);
    cbd_jw_array_open(w);
    for (size_t u = 0; u < q->turn.n_units; u++) {
        if (mask >> u & 1) {
            cbd_jw_string(w, q->unit_id[u]);
        }
    }
    cbd_jw_array_close(w);
}

/* What one order did in one turn (with units on the board, the units it sent and those that
 * died in its battle). */
static void event_json(cbd_jw *w, const cbd_turn_request *q, const cbd_turn_event *e) {
    static const char *const names[] = {"deploy", "skipped", "attack", "transfer"};
    cbd_jw_object_open(w);
    cbd_jw_key_string(w, "result", names[e->kind]);
    if (e->kind != CBD_TURN_SKIPPED) {
        cbd_jw_key_uint(w, e->kind == CBD_TURN_DEPLOYED ? "armies" : "sent", e->sent);
    }
    if (e->kind == CBD_TURN_ATTACKED) {
        cbd_jw_key_uint(w, "defenders", e->defenders);
        cbd_jw_key_uint(w, "attacker_kills", e->attacker_kills);
        cbd_jw_key_uint(w, "defender_kills", e->defender_kills);
        cbd_warapp_outcome_members(w, &e->outcome);
    }
    if (q->turn.n_units > 0 && e->kind != CBD_TURN_DEPLOYED && e->kind != CBD_TURN_SKIPPED) {
        unit_list_json(w, q, "units_sent", e->units_sent);
        if (e->kind == CBD_TURN_ATTACKED) {
            unit_list_json(w, q, "units_died", e->units_died);
        }
    }
    cbd_jw_object_close(w);
}

/* W23: the armies this turn drew for each territory given as a distribution. */
static void drawn_json(cbd_jw *w, const sim_stats *s, const uint64_t *drawn) {
    cbd_jw_key(w, "drawn");
    cbd_jw_object_open(w);
    for (size_t i = 0; i < s->n_terr; i++) {
        if (s->q->turn.fog[i].n > 0) {
            cbd_jw_key_uint(w, s->q->territory_id[i], drawn[i]);
        }
    }
    cbd_jw_object_close(w);
}

static void turns_json(cbd_jw *w, const sim_stats *s, uint64_t trials) {
    cbd_jw_key(w, "turns");
    cbd_jw_array_open(w);
    for (uint64_t t = 0; t < trials; t++) {
        const cbd_turn_territory *board = s->boards + t * s->n_terr;
        cbd_jw_object_open(w);
        cbd_jw_key(w, "territories");
        cbd_jw_object_open(w);
        for (size_t i = 0; i < s->n_terr; i++) {
            cbd_jw_key(w, s->q->territory_id[i]);
            cbd_jw_object_open(w);
            cbd_jw_key(w, "owner");
            cbd_jw_string(w, board[i].owner == CBD_TURN_NEUTRAL ? CBD_TURN_NEUTRAL_NAME
                                                                : s->q->player_id[board[i].owner]);
            cbd_jw_key_uint(w, "armies", board[i].armies);
            cbd_jw_object_close(w);
        }
        cbd_jw_object_close(w);
        cbd_jw_key(w, "orders");
        cbd_jw_array_open(w);
        for (size_t i = 0; i < s->n_orders; i++) {
            event_json(w, s->q, &s->events[t * s->n_orders + i]);
        }
        cbd_jw_array_close(w);
        if (s->drawn) {
            drawn_json(w, s, s->drawn + t * s->n_terr);
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

static void orders_json(cbd_jw *w, const sim_stats *s) {
    cbd_jw_key(w, "orders");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < s->n_orders; i++) {
        cbd_jw_object_open(w);
        if (s->q->orders[i].type == CBD_ORDER_DEPLOY) {
            cbd_jw_key_string(w, "type", "deploy");
        } else {
            cbd_jw_key_string(w, "type", "attack_transfer");
            cbd_jw_key_uint(w, "skipped", s->order_counts[i][0]);
            cbd_jw_key_uint(w, "attacks", s->order_counts[i][1]);
            cbd_jw_key_uint(w, "transfers", s->order_counts[i][2]);
            cbd_jw_key_uint(w, "captures", s->order_counts[i][3]);
        }
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

/* W21, W22 (only with units on the board): "units": id -> {"alive", "territories": {territory
 * -> trials it ended alive there, those above 0}}; "players": player -> {"eliminated"}. */
static void units_json(cbd_jw *w, const sim_stats *s) {
    const cbd_turn_request *q = s->q;
    cbd_jw_key(w, "units");
    cbd_jw_object_open(w);
    for (size_t u = 0; u < s->n_units; u++) {
        cbd_jw_key(w, q->unit_id[u]);
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "alive", s->unit_alive[u]);
        cbd_jw_key(w, "territories");
        cbd_jw_object_open(w);
        for (size_t t = 0; t < s->n_terr; t++) {
            if (s->unit_at[u * s->n_terr + t]) {
                cbd_jw_key_uint(w, q->territory_id[t], s->unit_at[u * s->n_terr + t]);
            }
        }
        cbd_jw_object_close(w);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    cbd_jw_key(w, "players");
    cbd_jw_object_open(w);
    for (size_t p = 0; p + 1 < s->n_owner; p++) {
        cbd_jw_key(w, q->player_id[p]);
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "eliminated", s->eliminated[p]);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
}

static bool render(cbd_jw *w, const sim_stats *s, const sim_options *o) {
    const cbd_turn_request *q = s->q;
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "seed", o->seed);
    cbd_jw_key_uint(w, "trials", o->trials);
    cbd_turn_echo_members(w, q);
    /* The histograms grow with the trials (more of them, more distinct army counts). */
    cbd_jw_blame(w, "/trials");
    cbd_jw_key(w, "territories");
    cbd_jw_object_open(w);
    bool ok = true;
    for (size_t i = 0; i < s->n_terr && ok; i++) {
        cbd_jw_key(w, q->territory_id[i]);
        cbd_jw_object_open(w);
        cbd_jw_key(w, "owner");
        cbd_jw_object_open(w); /* owners with a non-zero count, players in index order */
        for (size_t p = 0; p < s->n_owner; p++) {
            uint64_t c = s->owner_counts[i * s->n_owner + p];
            if (c) {
                cbd_turn_owner_key(w, q,
                                   p + 1 == s->n_owner ? CBD_TURN_NEUTRAL : (cbd_turn_player)p);
                cbd_jw_uint(w, c);
            }
        }
        cbd_jw_object_close(w);
        ok = hist_json(w, s->budget, &s->armies[i], o->trials);
        cbd_jw_object_close(w);
    }
    cbd_jw_object_close(w);
    orders_json(w, s);
    if (s->n_units > 0) {
        units_json(w, s);
    }
    if (q->turn.n_goals > 0) {
        cbd_jw_key_uint(w, "goals_met", s->goals_met);
    }
    if (s->boards) {
        cbd_jw_blame(w, "/include_turns");
        turns_json(w, s, o->trials);
    }
    cbd_jw_object_close(w);
    return ok;
}

static bool read_options(const cbd_reader *r, const cbd_warapp_config *cfg,
                         const cbd_turn_request *q, sim_options *o) {
    o->trials = 1;
    bool ok = cbd_read_u64(r, "trials", 1, cfg->max_trials, &o->trials) != CBD_FIELD_BAD;
    cbd_field seed = cbd_read_seed(r, "seed", &o->seed);
    o->seed_given = seed == CBD_FIELD_OK;
    ok &= seed != CBD_FIELD_BAD;
    uint64_t listed_max = cfg->max_listed_turns;
    o->include_turns = o->trials <= LIST_BY_DEFAULT_MAX && o->trials <= listed_max;
    cbd_field listed = cbd_read_bool(r, "include_turns", &o->include_turns);
    ok &= listed != CBD_FIELD_BAD;
    if (listed == CBD_FIELD_OK && o->include_turns && o->trials > listed_max) {
        cbd_reader_error(r, "include_turns",
                         "can list at most %" PRIu64
                         " turns (warapp.max_listed_turns); ask for fewer trials or set it false",
                         listed_max);
        ok = false;
    }
    /* The budget is checked up front: a request never starts work it may not finish. */
    uint64_t per_trial = q->turn.n_orders ? q->turn.n_orders : 1;
    if (ok && o->trials > cfg->max_turn_simulated_orders / per_trial) {
        cbd_reader_error(r, "trials",
                         "× orders = %" PRIu64 " × %" PRIu64 " resolved orders; at most %" PRIu64
                         " per request (warapp.max_turn_simulated_orders): ask for fewer trials",
                         o->trials, per_trial, cfg->max_turn_simulated_orders);
        ok = false;
    }
    return ok;
}

/*
 * The fewest bytes the listed turns take, known before any is resolved: per turn
 * {"territories":{...},"orders":[...]}, each territory at least "id":{"owner":"X","armies":N}
 * with the shortest owner name and one digit, each order at least {"result":"skipped"} (a
 * deploy {"result":"deploy","armies":N}), and the commas between them. A floor, so that a
 * listing refused here could not have fitted.
 */
static double listing_floor(const cbd_turn_request *q, uint64_t trials) {
    size_t owner = strlen(CBD_TURN_NEUTRAL_NAME);
    for (size_t p = 0; p < q->turn.n_players; p++) {
        size_t n = strlen(q->player_id[p]);
        owner = n < owner ? n : owner;
    }
    double per = 30; /* {"territories":{},"orders":[]} and the comma after it */
    for (size_t i = 0; i < q->turn.n_territories; i++) {
        per += (double)(strlen(q->territory_id[i]) + owner + 27); /* with its comma */
    }
    for (size_t i = 0; i < q->turn.n_orders; i++) {
        per += q->orders[i].type == CBD_ORDER_DEPLOY ? 31 : 21;
    }
    /* Neither list has a comma after its last element, nor the turns after the last. */
    per -= 1 + (q->turn.n_orders > 0);
    return per * (double)trials - 1;
}

/* Resolves the trials into the stats; CBD_ERR_BUDGET when the budget stopped them. */
static cbd_status resolve(cbd_turn_sim *sim, cbd_budget *budget, sim_stats *s, const sim_options *o,
                          cbd_turn_territory *board, cbd_turn_event *ev) {
    cbd_rng rng;
    cbd_rng_seed(&rng, o->seed);
    for (uint64_t t = 0; t < o->trials; t++) {
        cbd_turn_territory *b = s->boards ? s->boards + t * s->n_terr : board;
        cbd_turn_event *e = s->events ? s->events + t * s->n_orders : ev;
        /* Besides the turn itself (charged by the core): its territories and orders counted,
         * each territory a cache miss once the histograms outgrow the cache. */
        uint64_t per_territory = CBD_WORK_TURN_TALLY;
        per_territory += s->hist_bytes > CBD_WORK_CACHE_BYTES ? CBD_WORK_TURN_MISS : 0;
        uint64_t tally = cbd_work_times(per_territory, s->n_terr) +
                         cbd_work_times(CBD_WORK_SCAN_TERM,
                                        s->n_orders + (s->n_units ? s->n_units + s->n_owner : 0));
        if (!cbd_charge(budget, tally)) {
            return CBD_ERR_BUDGET;
        }
        cbd_status st = cbd_turn_sim_one(sim, budget, &rng, b, e);
        if (st != CBD_OK) {
            return st;
        }
        if (!stats_add(s, b, e)) {
            return cbd_budget_nomem(budget);
        }
        if (s->n_units > 0) {
            units_add(s, sim);
        }
        if (s->drawn) {
            memcpy(s->drawn + t * s->n_terr, cbd_turn_sim_drawn(sim), s->n_terr * sizeof *s->drawn);
        }
    }
    return CBD_OK;
}

static bool run(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                const sim_options *o, cbd_jw *out, cbd_problem *problem) {
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cbd_status st = cbd_turn_sim_create(&q->turn, &q->limits, budget, &sim, &err);
    if (st != CBD_OK) {
        return cbd_turn_core_problem(cfg, budget, q, st, &err, "/trials", problem);
    }
    sim_stats s;
    bool ok = stats_init(&s, budget, q, o);
    cbd_turn_territory *board = cbd_mem_alloc(budget, (s.n_terr + 1) * sizeof *board);
    cbd_turn_event *ev = cbd_mem_alloc(budget, (s.n_orders + 1) * sizeof *ev);
    st = ok && board && ev ? resolve(sim, budget, &s, o, board, ev) : cbd_budget_nomem(budget);
    /* W23: the distributions echoed, each point written as a distribution's point. */
    uint64_t echo = cbd_work_times(CBD_WORK_DIST_POINT, cbd_turn_fog_points(q));
    if (st == CBD_OK && !cbd_charge(budget, echo)) {
        st = CBD_ERR_BUDGET;
    }
    if (st == CBD_OK && !render(out, &s, o)) {
        st = cbd_budget_nomem(budget); /* the budget refused the sort's work or memory */
    }
    cbd_mem_free(board);
    cbd_mem_free(ev);
    stats_free(&s);
    cbd_turn_sim_free(sim);
    return st == CBD_OK || cbd_api_core_problem(cfg, budget, st, "/trials", problem);
}

bool cbd_api_simulate_turn(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                           cbd_jw *out, cbd_problem *problem) {
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", request_keys, problem)) {
        return false;
    }
    cbd_turn_request q;
    sim_options o;
    bool ok = cbd_turn_request_read(&r, &cfg->warapp, &q);
    ok &= read_options(&r, &cfg->warapp, &q, &o);
    ok = ok && problem->status == 0;
    if (ok && o.include_turns) {
        double floor = listing_floor(&q, o.trials);
        if (floor > (double)cfg->limits.max_answer_bytes) {
            ok = cbd_api_answer_too_large(cfg, floor, "/include_turns", problem);
        }
    }
    if (ok && !o.seed_given) {
        ok = cbd_api_fresh_seed(&o.seed, problem);
    }
    ok = ok && run(cfg, budget, &q, &o, out, problem);
    cbd_turn_request_free(&q);
    return ok;
}

/*
 * The estimate the http layer compares with server.inline_cost_ns (api.h): one resolved order
 * costs about as much as one simulated battle (the core resolves the benchmark's 8-order turn
 * in 650-850 ns), and each trial counts every territory's owner and armies in the stats (about
 * CBD_TURN_COST_NS_PER_TALLY each: a 256-territory board costs that many a trial, whatever its
 * orders), so trials x (orders battles + territories tallies), plus the listed turns' bytes
 * when they are listed. The values are validated when answered; a request that cannot be read
 * is cheap.
 */
#define CBD_TURN_COST_NS_PER_TALLY UINT64_C(8)
#define CBD_TURN_COST_LISTED_BYTES UINT64_C(40) /* a listed turn's bytes per territory or order */

/* The special units on the board (W21), unvalidated; a board past the limit is a cheap 422. */
static uint64_t board_units(const json_t *territories) {
    uint64_t n = 0;
    const char *id;
    const json_t *t;
    json_object_foreach((json_t *)territories, id, t) {
        const json_t *u = json_object_get(t, "units");
        n += json_is_array(u) ? (uint64_t)json_array_size(u) : 0u;
    }
    return n;
}

/*
 * One battle's work besides CBD_COST_NS_PER_BATTLE on a board with `units` units (W18–W22), as
 * the core charges it: W19's walks over the battle's units (at most all of them, 4 steps each)
 * and the board's units placed again (2 each), W22's look over the territories, and the two
 * samplers set up for powers that units carry past the armies' cache. 0 without units.
 */
static uint64_t unit_battle_ns(uint64_t units, uint64_t terr) {
    if (units == 0) {
        return 0;
    }
    return CBD_WORK_UNIT_DAMAGE * 6u * units + 2u * CBD_WORK_SCAN_TERM * terr +
           2u * CBD_WORK_SIM_SETUP;
}

uint64_t cbd_api_simulate_turn_cost(const cbd_config *cfg, const json_t *request) {
    json_t *trials = json_object_get(request, "trials");
    json_t *orders = json_object_get(request, "orders");
    json_t *territories = json_object_get(request, "territories");
    if (!json_is_integer(trials) || json_integer_value(trials) <= 0) {
        return CBD_COST_BASE_NS;
    }
    uint64_t n = (uint64_t)json_integer_value(trials);
    uint64_t per = json_is_array(orders) && json_array_size(orders) > 0
                       ? (uint64_t)json_array_size(orders)
                       : 1u;
    uint64_t terr = json_is_object(territories) ? (uint64_t)json_object_size(territories) : 0;
    /* Past the configured budget the request is a cheap 422 (validated when answered). */
    uint64_t units = board_units(territories);
    if (n > cfg->warapp.max_turn_simulated_orders / per || n > cfg->warapp.max_trials ||
        terr > cfg->warapp.max_turn_territories || units > CBD_TURN_MAX_UNITS) {
        return CBD_COST_BASE_NS;
    }
    uint64_t battle = CBD_COST_NS_PER_BATTLE + unit_battle_ns(units, terr);
    uint64_t cost = CBD_COST_BASE_NS + n * (per * battle + terr * CBD_TURN_COST_NS_PER_TALLY);
    const json_t *listed = json_object_get(request, "include_turns");
    if (json_is_true(listed) || (!listed && n <= LIST_BY_DEFAULT_MAX)) {
        cost += n * (per + terr) * CBD_TURN_COST_LISTED_BYTES * CBD_COST_NS_PER_BYTE;
    }
    return cost;
}
