/* The refusals every endpoint shares, and a fresh seed; see endpoint_support.h. */
#include "endpoint_support.h"

#include <inttypes.h>
#include <sys/random.h>

#include "json/json_alloc.h"
#include "json/json_reader.h"

bool cbd_api_oom_problem(cbd_problem *problem) {
    cbd_problem_set(problem, 500, CBD_API_OOM_DETAIL);
    return false;
}

cbd_read_status cbd_api_read_status(bool ok, cbd_problem *problem) {
    if (cbd_json_alloc_failed() || (!ok && problem->status == 0)) {
        (void)cbd_api_oom_problem(problem);
        return CBD_READ_NO_MEMORY;
    }
    if (problem->status == 500) { /* a reader's own allocation failed, and said so */
        return CBD_READ_NO_MEMORY;
    }
    return ok && problem->status == 0 ? CBD_READ_OK : CBD_READ_INVALID;
}

bool cbd_api_answer_too_large(const cbd_config *cfg, double bytes, const char *member,
                              cbd_problem *problem) {
    uint64_t cap = cfg->limits.max_answer_bytes;
    if (problem->status == 0) {
        cbd_problem_set(problem, 422, "The answer would be larger than one answer may be.");
    }
    if (bytes > 0) {
        cbd_problem_field(problem, member,
                          "the answer would be about %.0f bytes, past the %" PRIu64
                          " bytes of server.max_answer_bytes: ask for less here",
                          bytes, cap);
    } else {
        cbd_problem_field(problem, member,
                          "the answer would pass the %" PRIu64
                          " bytes of server.max_answer_bytes: ask for less here",
                          cap);
    }
    return false;
}

/* What the budget was and what was spent, for the 422 when it stopped a request. */
static void budget_field(const cbd_config *cfg, const cbd_budget *b, const char *member,
                         cbd_problem *problem) {
    if (b->stopped == CBD_BUDGET_MEMORY) {
        cbd_problem_field(problem, member,
                          "the request needs more than the memory budget of %" PRIu64
                          " bytes (server.memory_budget); it held up to %zu bytes and asked for "
                          "%zu more when it stopped: reduce this member",
                          cfg->limits.memory_budget, b->mem_peak, b->mem_refused);
        return;
    }
    cbd_problem_field(problem, member,
                      "the request needs more than the work budget of %" PRIu64
                      " units (about %" PRIu64
                      " ms of CPU, server.work_budget_ms); it spent %" PRIu64
                      " units before it stopped: reduce this member",
                      b->work_limit, b->work_limit / CBD_WORK_UNITS_PER_MS, b->work_spent);
}

bool cbd_api_core_problem(const cbd_config *cfg, const cbd_budget *budget, cbd_status st,
                          const char *member, cbd_problem *problem) {
    cbd_budget_stop why = cbd_budget_stop_reason(budget);
    /* (an answer written past the deadline within its reserve that spent the reserve too: the
     * deadline's) */
    bool late = budget && budget->ended == CBD_BUDGET_DEADLINE;
    if (st == CBD_ERR_BUDGET &&
        (why == CBD_BUDGET_CANCELLED || why == CBD_BUDGET_DEADLINE || late)) {
        cbd_problem_set(problem, 504,
                        "The answer took longer than server.answer_deadline (%" PRIu32
                        " s) allows; retry later or ask for less.",
                        cfg->limits.answer_deadline);
    } else if (st == CBD_ERR_BUDGET && why != CBD_BUDGET_RUNNING) {
        cbd_problem_set(problem, 422, "This request costs more than one request may spend.");
        budget_field(cfg, budget, member, problem);
    } else if (st == CBD_ERR_NOMEM) {
        (void)cbd_api_oom_problem(problem);
    } else {
        cbd_problem_set(problem, 500, "The service could not compute an answer: %s.",
                        cbd_status_str(st));
    }
    return false;
}

bool cbd_api_fresh_seed(uint64_t *seed, cbd_problem *problem) {
    uint64_t v;
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        cbd_problem_set(problem, 503, "The OS could not supply a random seed; send a seed.");
        return false;
    }
    *seed = v & CBD_SEED_MAX;
    return true;
}

bool cbd_api_settle_problem(bool ok, const cbd_jw *out, const cbd_config *cfg,
                            const cbd_budget *budget, cbd_problem *problem) {
    if (out->over) {
        cbd_problem_init(problem);
        (void)cbd_api_answer_too_large(cfg, 0, out->blame ? out->blame : "", problem);
    } else if (cbd_budget_spent(budget) && problem->status != 422 && problem->status != 504) {
        cbd_problem_init(problem); /* an endpoint that did not name the member: the request */
        (void)cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, "", problem);
    } else if (ok) {
        return false; /* finishing the text ran out of memory */
    }
    if (problem->status == 0) {
        cbd_problem_set(problem, 500, "The service could not compute an answer.");
    }
    return true;
}
