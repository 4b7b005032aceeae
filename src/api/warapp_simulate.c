/*
 * POST /simulate (issue 4): seeded random War.app battles, W1–W8.
 *
 * The request's RNG state is created here from the request's seed (or a fresh OS seed, which
 * is returned) and passed into the pure core; nothing random is global. The same body and
 * seed always render the same bytes: the core splits trials into fixed blocks with their own
 * streams (warapp_simulate.h), and every statistic is an integer count.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "api.h"
#include "combatd/warapp_simulate.h"
#include "warapp_settings.h"
#include "warapp_request.h"

/* Battles are listed by default up to this many trials. */
#define LIST_BY_DEFAULT_MAX 100

typedef struct {
    cbd_warapp_battle battle;
    uint64_t trials;
    uint64_t seed;
    bool seed_given;
    bool include_battles;
} sim_request;

/* Upper bounds on the rendered size of one listed battle, one histogram entry, the rest. */
#define BYTES_PER_BATTLE 230.0
#define BYTES_PER_BAR    48.0
#define BYTES_FIXED      1024.0

/* The distinct survivor counts one side's histogram can list: the roll spreads the kills over
 * about ±6 standard deviations, scaled by the luck (W1), and rounding adds one either side. */
static double bars(uint64_t n, cbd_micro rate, const cbd_warapp_settings *s, uint64_t trials) {
    double p = cbd_micro_to_double(rate), luck = cbd_micro_to_double(s->luck_modifier);
    double spread = 12.0 * luck * sqrt((double)n * p * (1.0 - p)) + 3.0;
    return fmin(spread, (double)trials);
}

static double answer_bytes(const sim_request *q, bool listed) {
    const cbd_warapp_settings *s = &q->battle.settings;
    double hist = bars(q->battle.defenders, s->defense_kill_rate, s, q->trials) +
                  bars(q->battle.attackers, s->offense_kill_rate, s, q->trials);
    return BYTES_FIXED + hist * BYTES_PER_BAR +
           (listed ? (double)q->trials * BYTES_PER_BATTLE : 0.0);
}

/* The answer within server.max_answer_bytes, refused before any battle is fought (the writer
 * enforces the cap too, should an estimate fall short). */
static bool check_answer_size(const cbd_config *cfg, sim_request *q, bool listing_asked,
                              cbd_problem *problem) {
    double cap = (double)cfg->server.max_answer_bytes;
    if (q->include_battles && answer_bytes(q, true) > cap) {
        if (listing_asked) {
            return cbd_api_answer_too_large(cfg, answer_bytes(q, true), "/include_battles",
                                            problem);
        }
        q->include_battles = false; /* a default listing is dropped, as past the limit below */
    }
    if (answer_bytes(q, false) > cap) {
        return cbd_api_answer_too_large(cfg, answer_bytes(q, false), "/trials", problem);
    }
    return true;
}

static bool read_request(const cbd_config *cfg, const json_t *request, sim_request *q,
                         cbd_problem *problem) {
    static const char *const keys[] = {CBD_WARAPP_BATTLE_KEYS, "trials", "seed", "include_battles",
                                       NULL};
    cbd_reader r;
    if (!cbd_reader_open(&r, request, "", keys, problem)) {
        return false;
    }
    bool ok = cbd_warapp_request_read(&r, &cfg->warapp, 0, &q->battle);
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
    ok = ok && problem->status == 0 &&
         (q->battle.transfer || check_answer_size(cfg, q, listed == CBD_FIELD_OK, problem));
    /* Unknown members were recorded by cbd_reader_open without failing it. */
    return ok && problem->status == 0;
}

/* {"mean": x, "histogram": [{"armies": k, "count": c}, ...]} with only non-zero counts. */
static void hist_json(cbd_jw *w, const char *key, const cbd_hist *h) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    cbd_jw_key_real(w, "mean", cbd_hist_mean(h));
    cbd_jw_key(w, "histogram");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < h->len; i++) {
        if (h->counts[i] == 0) {
            continue;
        }
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "armies", h->lo + i);
        cbd_jw_key_uint(w, "count", h->counts[i]);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
    cbd_jw_object_close(w);
}

/* One battle shaped as /analyze-attack's `outcome`, plus the raw kills before capping (W4). */
static void battle_json(cbd_jw *w, const cbd_sim_battle *b) {
    cbd_jw_object_open(w);
    cbd_warapp_outcome_members(w, &b->outcome);
    cbd_jw_key_uint(w, "attacker_kills", b->attacker_kills);
    cbd_jw_key_uint(w, "defender_kills", b->defender_kills);
    cbd_jw_object_close(w);
}

static void render(cbd_jw *w, const sim_request *q, const cbd_sim_stats *st,
                   const cbd_sim_battle *battles) {
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "seed", q->seed);
    cbd_jw_key_uint(w, "trials", q->trials);
    cbd_jw_key_uint(w, "attackers", q->battle.attackers);
    cbd_jw_key_uint(w, "defenders", q->battle.defenders);
    cbd_warapp_settings_write(w, "settings", &q->battle.settings);
    /* The histograms grow with the trials (up to the spread of the outcomes). */
    cbd_jw_blame(w, "/trials");
    cbd_jw_key_uint(w, "captures", st->captures);
    cbd_jw_key_real(w, "capture_rate", (double)st->captures / (double)st->trials);
    cbd_jw_key_uint(w, "mutual_destructions", st->mutual_destructions);
    hist_json(w, "attackers_left", &st->attackers_left);
    hist_json(w, "defenders_left", &st->defenders_left);
    if (battles) {
        cbd_jw_blame(w, "/include_battles");
        cbd_jw_key(w, "battles");
        cbd_jw_array_open(w);
        for (uint64_t t = 0; t < q->trials; t++) {
            battle_json(w, &battles[t]);
        }
        cbd_jw_array_close(w);
    }
    cbd_jw_object_close(w);
}

/* Room for the listed battles, and their rendering charged, before any battle is fought. */
static bool listing_alloc(const cbd_config *cfg, cbd_budget *budget, const sim_request *q,
                          cbd_sim_battle **battles, cbd_problem *problem) {
    *battles = NULL;
    if (!q->include_battles) {
        return true;
    }
    if (!cbd_charge(budget, cbd_work_times(CBD_WORK_LISTED_BATTLE, q->trials))) {
        return cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, "/include_battles", problem);
    }
    *battles = cbd_mem_calloc(budget, q->trials, sizeof **battles);
    if (!*battles) {
        return cbd_api_core_problem(cfg, budget, cbd_budget_nomem(budget), "/include_battles",
                                    problem);
    }
    return true;
}

bool cbd_api_simulate(const cbd_config *cfg, cbd_budget *budget, const json_t *request, cbd_jw *out,
                      cbd_problem *problem) {
    sim_request q;
    if (!read_request(cfg, request, &q, problem)) {
        return false;
    }
    if (q.battle.transfer) {
        cbd_warapp_transfer_write(out, &q.battle);
        return true;
    }
    if (!q.seed_given && !cbd_api_fresh_seed(&q.seed, problem)) {
        return false;
    }
    cbd_warapp_sim sim;
    cbd_warapp_sim_init(&sim, q.battle.attackers, q.battle.defenders, &q.battle.settings);
    cbd_sim_battle *battles;
    if (!listing_alloc(cfg, budget, &q, &battles, problem)) {
        return false;
    }
    cbd_sim_stats st;
    cbd_sim_stats_init(&st);
    cbd_status status = cbd_warapp_sim_blocks(&sim, q.seed, q.trials, 0,
                                              cbd_sim_block_count(q.trials), budget, &st, battles);
    if (status == CBD_OK) {
        render(out, &q, &st, battles);
    } else {
        /* The battles and their histograms grow with the trials. */
        (void)cbd_api_core_problem(cfg, budget, status, "/trials", problem);
    }
    cbd_sim_stats_free(&st);
    cbd_mem_free(battles);
    return status == CBD_OK;
}

/*
 * Fairness (issue 4, issue 12): the estimate the http layer compares with
 * server.inline_cost_ns, so that more than about ten thousand battles run on the worker pool
 * and the MHD thread the connection is pinned to keeps serving its other connections. The
 * request is read as the handler reads it; an invalid one is a cheap 422.
 */
uint64_t cbd_api_simulate_cost(const cbd_config *cfg, const json_t *request) {
    sim_request q;
    cbd_problem *scratch = malloc(sizeof *scratch);
    uint64_t cost = CBD_COST_BASE_NS;
    if (scratch) {
        cbd_problem_init(scratch);
        if (read_request(cfg, request, &q, scratch) && !q.battle.transfer) {
            cost += q.trials * CBD_COST_NS_PER_BATTLE +
                    (uint64_t)(answer_bytes(&q, q.include_battles) * (double)CBD_COST_NS_PER_BYTE);
        }
    }
    free(scratch);
    return cost;
}
