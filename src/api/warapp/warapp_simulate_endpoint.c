/*
 * POST /simulate: seeded random War.app battles, W1–W8, with special units on either
 * side (W17–W20) and defenders given as a distribution (fog, W23).
 *
 * The request's RNG state is created here from the request's seed (or a fresh OS seed, which
 * is returned) and passed into the pure core; nothing random is global. The same body and
 * seed always render the same bytes: the core splits trials into fixed blocks with their own
 * streams (warapp_simulate.h), and every statistic is an integer count.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/endpoint_support.h"
#include "combatd/warapp_simulate.h"
#include "warapp_request.h"
#include "warapp_settings.h"
#include "warapp_simulate_render.h"

/* Battles are listed by default up to this many trials. */
#define LIST_BY_DEFAULT_MAX 100

/* Upper bounds on the rendered size of one listed battle, one histogram entry, the rest. */
#define BYTES_PER_BATTLE 230.0
#define BYTES_PER_BAR    48.0
#define BYTES_FIXED      1024.0
/* ... and of what units and fog add: a unit's echo with its tally (beside its id and name), a
 * side's list of dead units in a listed battle, the drawn defenders there, one count of the
 * distribution echoed and tallied. */
#define BYTES_PER_UNIT        200.0
#define BYTES_PER_LISTED_SIDE 32.0
#define BYTES_PER_DRAWN       24.0
#define BYTES_PER_COUNT       128.0

/* The distinct survivor counts one side's histogram can list: the roll spreads the kills over
 * about ±6 standard deviations, scaled by the luck (W1), and rounding adds one either side. */
static double bars(uint64_t n, cbd_micro rate, const cbd_warapp_settings *s, uint64_t trials) {
    double p = cbd_micro_to_double(rate), luck = cbd_micro_to_double(s->luck_modifier);
    double spread = 12.0 * luck * sqrt((double)n * p * (1.0 - p)) + 3.0;
    return fmin(spread, (double)trials);
}

/* The defenders' histogram: each count spreads as its own battle does (W23), at its power (the
 * armies alone without units, W18), and the counts' spreads overlap where the counts lie close:
 * at most their sum, and at most the span of the counts plus the widest spread. */
static double defender_bars(const cbd_sim_request *q) {
    const cbd_warapp_battle *b = &q->battle;
    const cbd_warapp_settings *s = &b->settings;
    cbd_warapp_side d = cbdp_warapp_battle_defense(b);
    if (b->fog.n == 0) {
        return bars(cbd_warapp_side_power(&d, false), s->defense_kill_rate, s, q->trials);
    }
    double sum = 0.0, widest = 0.0;
    for (size_t k = 0; k < b->fog.n; k++) {
        d.armies = b->fog.items[k].armies;
        double one = bars(cbd_warapp_side_power(&d, false), s->defense_kill_rate, s, q->trials);
        sum += one;
        widest = fmax(widest, one);
    }
    double span = (double)(b->fog.items[b->fog.n - 1].armies - b->fog.items[0].armies);
    return fmin(fmin(sum, span + widest), (double)q->trials);
}

/* A side's units in the summary, or in one listed battle (each dead one by its id or index). */
static double units_bytes(const cbd_warapp_units *u, bool listed) {
    if (!u->given) {
        return 0.0;
    }
    double bytes = listed ? BYTES_PER_LISTED_SIDE : 0.0;
    for (size_t i = 0; i < u->n; i++) {
        double id = u->ids[i] ? (double)strlen(u->ids[i]) : 0.0;
        double name = u->names[i] ? (double)strlen(u->names[i]) : 0.0;
        bytes += listed ? 3.0 + (u->ids[i] ? id : 2.0) : BYTES_PER_UNIT + id + name;
    }
    return bytes;
}

/* The parts of the answer's size, each set by one member of the request. */
typedef struct {
    double histograms; /* /trials */
    double counts;     /* /defenders: the distribution echoed and tallied */
    double attacking_units, defending_units;
    double listing; /* /include_battles */
} answer_parts;

static answer_parts answer_sizes(const cbd_sim_request *q) {
    const cbd_warapp_battle *b = &q->battle;
    const cbd_warapp_settings *s = &b->settings;
    cbd_warapp_side a = cbdp_warapp_battle_attack(b);
    double bars_both = defender_bars(q) +
                       bars(cbd_warapp_side_power(&a, true), s->offense_kill_rate, s, q->trials);
    double per_battle = BYTES_PER_BATTLE + (b->fog.n > 0 ? BYTES_PER_DRAWN : 0.0) +
                        units_bytes(&b->attacking, true) + units_bytes(&b->defending, true);
    answer_parts p = {
        .histograms = BYTES_FIXED + bars_both * BYTES_PER_BAR,
        .counts = (double)b->fog.n * BYTES_PER_COUNT,
        .attacking_units = units_bytes(&b->attacking, false),
        .defending_units = units_bytes(&b->defending, false),
        .listing = (double)q->trials * per_battle,
    };
    return p;
}

static double answer_bytes(const cbd_sim_request *q, bool listed) {
    answer_parts p = answer_sizes(q);
    return p.histograms + p.counts + p.attacking_units + p.defending_units +
           (listed ? p.listing : 0.0);
}

/* The member whose part of an unlisted answer is the largest: the one to reduce (the
 * histograms' part counted or not). */
static const char *summary_blame(const cbd_sim_request *q, bool histograms) {
    answer_parts p = answer_sizes(q);
    const char *blame = "/trials";
    double most = histograms ? p.histograms : -1.0;
    if (p.counts > most) {
        blame = "/defenders";
        most = p.counts;
    }
    if (p.attacking_units > most) {
        blame = "/attacking_units";
        most = p.attacking_units;
    }
    return p.defending_units > most ? "/defending_units" : blame;
}

/* The answer within server.max_answer_bytes, refused before any battle is fought (the writer
 * enforces the cap too, should an estimate fall short). */
static bool check_answer_size(const cbd_config *cfg, cbd_sim_request *q, bool listing_asked,
                              cbd_problem *problem) {
    double cap = (double)cfg->limits.max_answer_bytes;
    if (q->include_battles && answer_bytes(q, true) > cap) {
        if (listing_asked) {
            return cbd_api_answer_too_large(cfg, answer_bytes(q, true), "/include_battles",
                                            problem);
        }
        q->include_battles = false; /* a default listing is dropped, as past the limit below */
    }
    if (answer_bytes(q, false) > cap) {
        return cbd_api_answer_too_large(cfg, answer_bytes(q, false), summary_blame(q, true),
                                        problem);
    }
    return true;
}

static cbd_read_status read_request(const cbd_config *cfg, const json_t *request,
                                    cbd_sim_request *q, cbd_problem *problem) {
    static const char *const keys[] = {
        CBD_WARAPP_BATTLE_KEYS, CBD_WARAPP_UNIT_KEYS, "trials", "seed", "include_battles", NULL};
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", keys, problem)) {
        return cbd_api_read_status(false, problem);
    }
    bool ok =
        cbdp_warapp_request_read(&r, &cfg->warapp, CBD_BATTLE_UNITS | CBD_BATTLE_FOG, &q->battle);
    q->trials = 1;
    ok &= cbd_read_u64(&r, "trials", 1, cfg->warapp.max_trials, &q->trials) != CBD_FIELD_BAD;
    cbd_field seed = cbd_read_seed(&r, "seed", &q->seed);
    q->seed_given = seed == CBD_FIELD_OK;
    ok &= seed != CBD_FIELD_BAD;
    q->include_battles = q->trials <= LIST_BY_DEFAULT_MAX;
    cbd_field listed = cbd_read_bool(&r, "include_battles", &q->include_battles);
    ok &= listed != CBD_FIELD_BAD;
    if (listed == CBD_FIELD_OK && q->include_battles &&
        q->trials > cfg->warapp.max_listed_battles) {
        cbd_reader_error(&r, "include_battles",
                         "can list at most %" PRIu64
                         " battles; ask for fewer trials or set it false",
                         cfg->warapp.max_listed_battles);
        ok = false;
    }
    /* A default of true is dropped silently when the listing limit is configured lower. */
    if (q->include_battles && q->trials > cfg->warapp.max_listed_battles) {
        q->include_battles = false;
    }
    /* The answer's size only of a request that is otherwise valid (unknown members, which
     * cbd_reader_open recorded without failing, included). */
    cbd_read_status st = cbd_api_read_status(ok, problem);
    if (st == CBD_READ_OK && !q->battle.transfer) {
        st = cbd_api_read_status(check_answer_size(cfg, q, listed == CBD_FIELD_OK, problem),
                                 problem);
    }
    return st;
}

/* Room for the listed battles, and their rendering charged (each unit of each battle too),
 * before any battle is fought. */
static bool listing_alloc(const cbd_config *cfg, cbd_budget *budget, const cbd_sim_request *q,
                          cbd_sim_record **battles, cbd_problem *problem) {
    *battles = NULL;
    if (!q->include_battles) {
        return true;
    }
    size_t units = q->battle.attacking.n + q->battle.defending.n;
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_LISTED_BATTLE, q->trials)) ||
        !cbd_charge(budget, cbd_work_times(CBD_WORK_LISTED_UNIT * units, q->trials))) {
        return cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, "/include_battles", problem);
    }
    *battles = cbd_mem_calloc(budget, q->trials, sizeof **battles);
    if (!*battles) {
        return cbd_api_core_problem(cfg, budget, cbd_budget_nomem(budget), "/include_battles",
                                    problem);
    }
    return true;
}

/*
 * The member a run that stopped on its budget names: the trials, whose battles are nearly all
 * of a run's work, unless setting up the distribution's counts (a sampler each, W23) costs
 * more than they do. The histograms keep a window where each count's values lie, so the span
 * of the counts costs nothing of its own.
 */
static const char *run_blame(const cbd_sim_request *q, const cbd_sim_plan *plan) {
    uint64_t battles = cbd_work_times(cbd_sim_plan_battle_units(plan), q->trials);
    uint64_t counts = cbd_work_times(CBD_WORK_SIM_COUNT, q->battle.fog.n);
    return counts > battles ? "/defenders" : "/trials";
}

/* The battles, played from the request's plan, and the answer; false with the problem. */
static bool run(const cbd_config *cfg, cbd_budget *budget, const cbd_sim_request *q, cbd_jw *out,
                cbd_problem *problem) {
    cbd_warapp_side attack = cbdp_warapp_battle_attack(&q->battle);
    cbd_warapp_side defense = cbdp_warapp_battle_defense(&q->battle);
    cbd_sim_plan plan;
    cbd_status status = cbd_sim_plan_init(&plan, &attack, &defense, q->battle.fog.items,
                                          q->battle.fog.n, &q->battle.settings, budget);
    if (status != CBD_OK) {
        return cbd_api_core_problem(cfg, budget, status, "/defenders", problem);
    }
    cbd_sim_record *battles = NULL;
    uint64_t render_units = cbdp_sim_render_units(q);
    bool ok =
        render_units == 0 || cbd_charge(budget, render_units)
            ? listing_alloc(cfg, budget, q, &battles, problem)
            : cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, summary_blame(q, false), problem);
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    if (ok) {
        status = cbd_warapp_sim_blocks(&plan, q->seed, q->trials, 0, cbd_sim_block_count(q->trials),
                                       budget, &st, battles);
        ok = status == CBD_OK ||
             cbd_api_core_problem(cfg, budget, status, run_blame(q, &plan), problem);
    }
    if (ok) {
        cbdp_sim_render(out, q, &plan, &st, battles);
    }
    cbd_sim_stats_free(&st);
    cbd_mem_free(battles);
    cbd_sim_plan_free(&plan);
    return ok;
}

/* Not calloc (cbdp_warapp_battle_clear); NULL when out of memory. */
static cbd_sim_request *sim_request_new(void) {
    cbd_sim_request *q = malloc(sizeof *q);
    if (q) {
        cbdp_warapp_battle_clear(&q->battle);
        q->trials = 1;
        q->seed = 0;
        q->seed_given = q->include_battles = false;
    }
    return q;
}

bool cbd_api_simulate(const cbd_config *cfg, cbd_budget *budget, const json_t *request, cbd_jw *out,
                      cbd_problem *problem) {
    cbd_sim_request *q = sim_request_new();
    if (!q) {
        return cbd_api_oom_problem(problem);
    }
    bool ok = read_request(cfg, request, q, problem) == CBD_READ_OK;
    if (ok && q->battle.transfer) {
        cbdp_warapp_transfer_write(out, &q->battle);
    } else if (ok) {
        ok = (q->seed_given || cbd_api_fresh_seed(&q->seed, problem)) &&
             run(cfg, budget, q, out, problem);
    }
    cbdp_warapp_battle_free(&q->battle);
    free(q);
    return ok;
}

/*
 * Fairness: the estimate the http layer compares with
 * server.inline_cost_ns, so that more than about ten thousand battles run on the worker pool
 * and the MHD thread the connection is pinned to keeps serving its other connections. The
 * request is read as the handler reads it; an invalid one is a cheap 422. Units and fog add
 * their steps per battle (CBD_WORK_* are about nanoseconds) and a sampler per count.
 */
uint64_t cbd_api_simulate_cost(const cbd_config *cfg, const json_t *request) {
    cbd_sim_request *q = sim_request_new();
    cbd_problem *scratch = malloc(sizeof *scratch);
    uint64_t cost = CBD_COST_BASE_NS;
    if (q && scratch) {
        cbd_problem_init(scratch);
        if (read_request(cfg, request, q, scratch) == CBD_READ_OK && !q->battle.transfer) {
            const cbd_warapp_battle *b = &q->battle;
            uint64_t per_battle = CBD_COST_NS_PER_BATTLE +
                                  CBD_WORK_UNIT_DAMAGE * (b->attacking.n + b->defending.n) +
                                  (b->fog.n > 1 ? CBD_WORK_FOG_STEP * 12u : 0u);
            cost += q->trials * per_battle + CBD_WORK_SIM_COUNT * b->fog.n +
                    (uint64_t)(answer_bytes(q, q->include_battles) * (double)CBD_COST_NS_PER_BYTE);
        }
    }
    free(scratch);
    if (q) {
        cbdp_warapp_battle_free(&q->battle);
    }
    free(q);
    return cost;
}
