/* Long requests as jobs of the worker pool (offload.h). */
#include "offload.h"

#include "compute.h"

#include <arpa/inet.h>

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "response.h"
#include "worker.h"

/* The client address a request counts against: the one the access log names (the socket
 * peer, or the client a trusted proxy forwarded for, net_ranges.h), so that behind a proxy
 * each client has its own share. The peer when that text is not an address. */
static void client_key(const cbd_http_request *req, struct MHD_Connection *con,
                       unsigned char key[CBD_CLIENT_KEY_SIZE]) {
    memset(key, 0, CBD_CLIENT_KEY_SIZE);
    struct in6_addr v6;
    struct in_addr v4;
    if (inet_pton(AF_INET6, req->client, &v6) == 1) {
        memcpy(key, &v6, 16);
        return;
    }
    if (inet_pton(AF_INET, req->client, &v4) == 1) {
        key[10] = key[11] = 0xff;
        memcpy(key + 12, &v4, 4);
        return;
    }
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = info ? info->client_addr : NULL;
    if (sa && sa->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
    } else if (sa && sa->sa_family == AF_INET) {
        key[10] = key[11] = 0xff;
        memcpy(key + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    }
}

static cbd_http_request *request_of(cbd_job *job) {
    return (cbd_http_request *)(void *)((char *)job - offsetof(cbd_http_request, job));
}

/* Whether server.answer_deadline has passed at `now` since the request was in. */
static bool past_deadline_at(const cbd_http_request *req, uint64_t now) {
    return now - req->in_us > (uint64_t)req->server->api.limits.answer_deadline * 1000000u;
}

/*
 * Whether the job's client has closed its connection: a peek at its socket that sees the end
 * of input (or an error) says so; EAGAIN is a client still waiting, and the bytes of a
 * pipelined next request are one still there. The connection is suspended while its job runs,
 * so MHD neither reads nor closes the socket meanwhile. A client that shuts only its sending
 * side counts as gone, as proxies take it (nginx's proxy_ignore_client_abort off). Every
 * progress check peeks: the check comes once per CBD_BUDGET_PROGRESS_UNITS of work (about a
 * millisecond), a peek is a system call of about a microsecond (some 0.1 % of the job), and so
 * the first check after a client leaves stops its job, whatever the machine's speed.
 */
static bool client_gone(const cbd_http_request *req) {
    if (req->job_fd < 0) {
        return false;
    }
    char byte;
    ssize_t n = recv(req->job_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* A job's progress callback. It abandons the job (CBD_BUDGET_CANCELLED) when the server is
 * stopping (a 503) or its client has gone (nothing is sent); once server.answer_deadline has
 * passed since the request was in it stops it to answer (CBD_BUDGET_DEADLINE): with what it has
 * when it has something (a plan search's best plan so far), else a 504 rather than a late
 * answer. */
static cbd_budget_stop should_stop(void *arg) {
    cbd_http_request *req = arg;
    uint64_t now = cbd_now_us();
    atomic_fetch_add_explicit(&req->server->job_checks, 1, memory_order_relaxed);
    if (atomic_load_explicit(&req->server->jobs_cancelled, memory_order_relaxed)) {
        req->job_end = CBD_JOB_STOPPED;
        return CBD_BUDGET_CANCELLED;
    }
    if (client_gone(req)) {
        req->job_end = CBD_JOB_ABANDONED;
        return CBD_BUDGET_CANCELLED;
    }
    return past_deadline_at(req, now) ? CBD_BUDGET_DEADLINE : CBD_BUDGET_RUNNING;
}

static bool past_deadline(const cbd_http_request *req) {
    return past_deadline_at(req, cbd_now_us());
}

/* What a job that should_stop ended answers instead (cbd_api_limits.refuse_cancelled): the
 * stopping server's 503; for a client gone, a short refusal that is never sent (request.c). */
static bool refuse_stopped(void *arg, cbd_problem *problem) {
    const cbd_http_request *req = arg;
    if (req->job_end == CBD_JOB_RAN) {
        return false; /* the deadline: the api's 504 */
    }
    cbd_problem_init(problem);
    cbd_problem_set(problem, 503, "%s",
                    req->job_end == CBD_JOB_STOPPED
                        ? "The service is stopping; retry on another replica."
                        : "The client closed its connection before the answer.");
    return true;
}

/* The 503 of a request that is not computed, in its endpoint's words (cbd_api_refuse: a
 * problem, or for /mcp a tool error that says to retry). */
static void refuse_job(cbd_http_request *req, const char *detail) {
    cbd_problem problem;
    cbd_problem_init(&problem);
    cbd_problem_set(&problem, 503, "%s", detail);
    cbd_api_refuse(&req->job_req, &problem, &req->job_reply);
}

/* Under the pool's lock, before a worker can see it: suspended first, so that its resume
 * always follows, and counted until its completion (server.c). */
static void job_admitted(cbd_job *job) {
    cbd_http_request *req = request_of(job);
    req->job_started = true;
    atomic_fetch_add(&req->server->jobs_unsent, 1);
    MHD_suspend_connection(req->con);
}

/* Computes a job's reply, or refuses it: the server is stopping (what still waits is refused,
 * not computed, so that stopping takes one request's time and not the whole queue's), or it
 * waited past its deadline (its client has likely given up; a 503 says to retry). */
static void job_run(cbd_job *job, bool stopping) {
    cbd_http_request *req = request_of(job);
    if (stopping || atomic_load(&req->server->jobs_cancelled)) {
        req->job_end = CBD_JOB_STOPPED;
        refuse_job(req, "The service is stopping; retry on another replica.");
    } else if (client_gone(req)) {
        /* it left while its job waited: nothing to compute */
        req->job_end = CBD_JOB_ABANDONED;
        refuse_job(req, "The client closed its connection before the answer.");
    } else if (past_deadline(req)) {
        refuse_job(req, "The request waited for a worker past server.answer_deadline; retry.");
    } else {
        cbd_api_limits limits = cbd_api_full_limits(&req->server->api);
        limits.progress = should_stop;
        limits.progress_arg = req;
        limits.refuse_cancelled = refuse_stopped;
        (void)cbdp_http_compute(req->server, req, &req->job_req, &limits, &req->job_reply);
    }
}

/* On the worker once the job's place is free again: an abandoned job is counted only now, so
 * that whoever sees the count finds the place free. */
static void job_finished(cbd_job *job) {
    cbd_http_request *req = request_of(job);
    if (req->job_end == CBD_JOB_ABANDONED) {
        atomic_fetch_add(&req->server->metrics.abandoned, 1);
    }
    /* req may be freed as soon as the connection is resumed: only con from here on. */
    struct MHD_Connection *con = req->con;
    MHD_resume_connection(con);
}

static const cbd_job_fns request_job = {job_admitted, job_run, job_finished};

/* The 503 of a request the pool did not admit. */
static void refusal(const cbd_pool *p, cbd_pool_admission why, cbd_problem *problem) {
    cbd_problem_init(problem);
    if (why == CBD_POOL_OVER_SHARE) {
        cbd_problem_set(problem, 503,
                        "This client address already has %u long request(s) computing or "
                        "waiting, its share (server.worker_share); retry when an answer has come.",
                        cbdp_pool_share(p));
    } else if (why == CBD_POOL_STOPPING) {
        cbd_problem_set(problem, 503, "The service is stopping; retry on another replica.");
    } else {
        cbd_problem_set(problem, 503, "All %u places for long requests are taken; retry shortly.",
                        cbdp_pool_places(p));
    }
}

enum MHD_Result cbdp_http_run_on_worker(cbd_server *s, struct MHD_Connection *con,
                                        cbd_http_request *req, cbd_api_request *api_req) {
    req->job.fns = &request_job;
    client_key(req, con, req->job.client);
    req->job_req = *api_req;
    req->con = con;
    req->server = s;
    /* Taken here, on the connection's own thread, for the worker's peeks (client_gone). */
    const union MHD_ConnectionInfo *fd =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
    req->job_fd = fd ? fd->connect_fd : -1;
    req->job_end = CBD_JOB_RAN;
    cbd_pool_admission why = cbdp_pool_submit(s->pool, &req->job);
    if (why == CBD_POOL_ADMITTED) {
        return MHD_YES;
    }
    cbd_problem problem;
    refusal(s->pool, why, &problem);
    /* In the endpoint's words: a problem, or for /mcp a tool error that says to retry (a 200,
     * which a Retry-After would not fit). */
    cbd_api_reply reply;
    cbd_api_refuse(api_req, &problem, &reply);
    cbd_extra_headers retry = {.retry_after = reply.status == 503 ? CBD_RETRY_AFTER_SECONDS : NULL};
    return cbdp_http_send_reply(&s->answers, con, &req->answer, &reply, &retry);
}
