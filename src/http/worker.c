/*
 * Long requests on worker threads (issue 4). MHD's thread pool pins each connection to one
 * thread, so a 1-second computation would stall that thread's other connections. Such
 * requests (cbd_api_is_heavy) are computed on a thread of their own while
 * MHD_suspend_connection parks the connection; the worker resumes it and the next
 * access-handler call sends the reply.
 */
#include "worker.h"

#include <pthread.h>

#include "response.h"

static void *worker_main(void *arg) {
    cbd_http_request *req = arg;
    cbd_server *s = req->server;
    struct MHD_Connection *con = req->con;
    cbd_api_answer(&req->job_req, &s->cfg, &req->job_reply);
    /* req may be freed as soon as the connection is resumed: touch only s and con after. */
    MHD_resume_connection(con);
    atomic_fetch_sub(&s->jobs, 1);
    return NULL;
}

enum MHD_Result cbd_http_run_on_worker(cbd_server *s, struct MHD_Connection *con,
                                       cbd_http_request *req, cbd_api_request *api_req) {
    unsigned jobs = atomic_fetch_add(&s->jobs, 1);
    if (jobs >= CBD_MAX_WORKER_JOBS) {
        atomic_fetch_sub(&s->jobs, 1);
        cbd_api_request_release(api_req);
        return cbd_http_send_problem(s, con, req, 503, NULL,
                                     "Too many long simulations are running (%u); retry shortly.",
                                     CBD_MAX_WORKER_JOBS);
    }
    req->job_started = true;
    req->job_req = *api_req;
    req->con = con;
    req->server = s;
    pthread_attr_t attr;
    pthread_t thread;
    MHD_suspend_connection(con);
    bool started = pthread_attr_init(&attr) == 0;
    if (started) {
        (void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        started = pthread_create(&thread, &attr, worker_main, req) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) {
        /* No thread: compute here, then resume so that the next call sends the reply. */
        cbd_api_answer(&req->job_req, &s->cfg, &req->job_reply);
        MHD_resume_connection(con);
        atomic_fetch_sub(&s->jobs, 1);
    }
    return MHD_YES;
}

void cbd_http_wait_for_workers(cbd_server *s) {
    while (atomic_load(&s->jobs) > 0) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}
