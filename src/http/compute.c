/* One computation of a request's answer (compute.h). */
#include "compute.h"

#include <sys/resource.h>

static uint64_t thread_minor_faults(void) {
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? (uint64_t)ru.ru_minflt : 0;
}

bool cbdp_http_compute(cbd_server *s, cbd_http_request *req, cbd_api_request *api_req,
                       cbd_api_limits *limits, cbd_api_reply *reply) {
    cbd_scratch scratch;
    cbdp_scratch_pool_lend(&s->scratch, &scratch, limits->mem_limit);
    cbd_budget spent;
    limits->scratch = &scratch;
    limits->report = &spent;
    uint64_t faults = thread_minor_faults();
    bool done = cbd_api_answer_within(api_req, &s->api, limits, reply);
    req->cost.faults += thread_minor_faults() - faults;
    atomic_fetch_add(&s->metrics.scratch_fresh, scratch.fresh_bytes);
    atomic_fetch_add(&s->metrics.scratch_reused, scratch.reused_bytes);
    if (scratch.refilled) { /* it took the pool's blocks: what the pool keeps may change */
        atomic_store(&s->metrics.scratch_kept, cbdp_scratch_pool_return(&s->scratch, &scratch));
    }
    req->cost.computed = true;
    req->cost.work += spent.work_spent;
    req->cost.mem_peak = spent.mem_peak > req->cost.mem_peak ? spent.mem_peak : req->cost.mem_peak;
    return done;
}
