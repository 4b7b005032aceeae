/*
 * POST /simulate-turn: War.app turns resolved with a seeded RNG (W11–W16), one
 * real turn per trial. The RNG is created here from the request's seed (or a fresh OS seed,
 * which is returned): xoshiro256** seeded through splitmix64, one stream for the whole request,
 * trials in order, each drawing as cbd_turn_sim_one documents. Every statistic is an integer
 * count, so the same body and seed render the same bytes. This file reads the options, refuses
 * what cannot fit, drives the trials and estimates the cost; the counts are
 * warapp_simulate_turn_tally.c's and the answer warapp_simulate_turn_render.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "combatd/warapp_simulate.h"
#include "api/warapp/warapp_request.h"
#include "warapp_simulate_turn_render.h"
#include "warapp_simulate_turn_tally.h"
#include "warapp_turn_json.h"
#include "warapp_turn_kinds_json.h"

/* Turns are listed by default up to this many trials (and at most warapp.max_listed_turns). */
#define LIST_BY_DEFAULT_MAX 100

static const char *const request_keys[] = {CBD_TURN_KEYS, "trials", "seed", "include_turns", NULL};

typedef struct {
    uint64_t trials, seed;
    bool seed_given, include_turns;
} sim_options;

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
        per += cbdp_turn_api_kind_of(q->orders[i].type)->listed_floor;
    }
    /* Neither list has a comma after its last element, nor the turns after the last. */
    per -= 1 + (q->turn.n_orders > 0);
    return per * (double)trials - 1;
}

/* Resolves the trials into the stats; CBD_ERR_BUDGET when the budget stopped them. */
static cbd_status resolve(cbd_turn_sim *sim, cbd_budget *budget, cbd_turn_tally *s,
                          const sim_options *o, cbd_turn_territory *board, cbd_turn_event *ev) {
    cbd_rng rng;
    cbd_rng_seed(&rng, o->seed);
    for (uint64_t t = 0; t < o->trials; t++) {
        cbd_turn_territory *b = s->boards ? s->boards + t * s->n_terr : board;
        cbd_turn_event *e = s->events ? s->events + t * s->n_orders : ev;
        /* Besides the turn itself (charged by the core): its territories and orders counted,
         * each territory a cache miss once the histograms outgrow the cache. */
        uint64_t per_territory = CBD_WORK_TURN_TALLY;
        per_territory += s->hist_bytes > CBD_WORK_CACHE_BYTES ? CBD_WORK_TURN_MISS : 0;
        /* A listed turn's units are sorted by territory and arrival (at most n_units² / 2
         * steps of an insertion sort, W21). */
        uint64_t sort = s->turn_units ? (uint64_t)s->n_units * s->n_units / 2 : 0;
        uint64_t tally = cbd_work_times(per_territory, s->n_terr) +
                         cbd_work_times(CBD_WORK_SCAN_TERM,
                                        s->n_orders + (s->n_units ? s->n_units + s->n_owner : 0) +
                                            s->n_bonus_terr + sort);
        if (!cbd_charge(budget, tally)) {
            return CBD_ERR_BUDGET;
        }
        cbd_status st = cbd_turn_sim_one(sim, budget, &rng, b, e);
        if (st != CBD_OK) {
            return st;
        }
        if (!cbdp_turn_tally_add(s, b, e)) {
            return cbd_budget_nomem(budget);
        }
        if (s->n_units > 0) {
            cbdp_turn_tally_add_units(s, sim, t);
        }
        if (s->drawn) {
            memcpy(s->drawn + t * s->n_terr, cbd_turn_sim_drawn(sim), s->n_terr * sizeof *s->drawn);
        }
    }
    return CBD_OK;
}

/* Writing the listed turns (none when s->events is NULL): each territory and order of each,
 * each unit id an order lists as sent or dead, an attack's defender (with units on the board),
 * and each living unit's id on its territory (W21). */
static uint64_t listing_units(const cbd_turn_tally *s, uint64_t trials) {
    if (!s->events) {
        return 0;
    }
    uint64_t ids = 0;
    for (uint64_t i = 0; i < trials * s->n_orders; i++) {
        ids += (uint64_t)__builtin_popcountll(s->events[i].units_sent) +
               (uint64_t)__builtin_popcountll(s->events[i].units_died) +
               (s->n_units > 0 && s->events[i].kind == CBD_TURN_ATTACKED);
    }
    for (uint64_t i = 0; s->turn_units && i < trials * s->n_units; i++) {
        ids += s->turn_units[i] != CBD_TURN_UNIT_DEAD;
    }
    return cbd_work_times(CBD_WORK_LISTED_TURN_ITEM, trials * (s->n_terr + s->n_orders)) +
           cbd_work_times(CBD_WORK_LISTED_UNIT, ids);
}

static bool run(const cbd_config *cfg, cbd_budget *budget, const cbd_turn_request *q,
                const sim_options *o, cbd_jw *out, cbd_problem *problem) {
    cbd_turn_sim *sim;
    cbd_turn_error err;
    cbd_status st = cbd_turn_sim_create(&q->turn, &q->limits, budget, &sim, &err);
    if (st != CBD_OK) {
        return cbd_turn_core_problem(cfg, budget, q, st, &err, "/trials", problem);
    }
    cbd_turn_tally s;
    bool ok = cbdp_turn_tally_init(&s, budget, q, o->trials, o->include_turns);
    cbd_turn_territory *board = cbd_mem_alloc(budget, (s.n_terr + 1) * sizeof *board);
    cbd_turn_event *ev = cbd_mem_alloc(budget, (s.n_orders + 1) * sizeof *ev);
    st = ok && board && ev ? resolve(sim, budget, &s, o, board, ev) : cbd_budget_nomem(budget);
    /* W23: the distributions echoed, each point written as a distribution's point. */
    uint64_t echo = cbd_work_times(CBD_WORK_DIST_POINT, cbdp_turn_fog_points(q));
    if (st == CBD_OK && !cbd_charge(budget, echo + listing_units(&s, o->trials))) {
        st = CBD_ERR_BUDGET;
    }
    if (st == CBD_OK && !cbdp_turn_tally_render(out, &s, o->seed, o->trials)) {
        st = cbd_budget_nomem(budget); /* the budget refused the sort's work or memory */
    }
    cbd_mem_free(board);
    cbd_mem_free(ev);
    cbdp_turn_tally_free(&s);
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
    bool ok = cbd_turn_read_request(&r, &cfg->warapp, &q) == CBD_READ_OK;
    ok &= read_options(&r, &cfg->warapp, &q, &o);
    ok = cbd_api_read_status(ok, problem) == CBD_READ_OK;
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
 * the core charges it: W19's walks over the battle's units (at most all of them, 2 steps each)
 * and the board's units looked over again (2 each), W22's look over the territories, and the
 * two samplers set up for powers that units carry past the armies' cache. 0 without units.
 */
static uint64_t unit_battle_ns(uint64_t units, uint64_t terr) {
    if (units == 0) {
        return 0;
    }
    return 2u * (CBD_WORK_UNIT_DAMAGE + CBD_WORK_SIM_UNIT) * units +
           2u * CBD_WORK_SCAN_TERM * terr + 2u * CBD_WORK_SIM_SETUP;
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
