/*
 * A worker's job stops when nobody waits for it, against an in-process server whose pool has
 * one worker and no queue (so a second long request while the worker is busy is a 503):
 *
 * - A client that closes its connection while its /plan-turn, /simulate or MCP batch computes:
 *   the job stops within a few milliseconds of the worker's CPU, nothing is sent,
 *   combatd_requests_abandoned_total counts it, and the worker is free for the next long
 *   request (a 200, not a 503). A job whose client left while it waited is not computed.
 * - A server that stops: a job still running near the drain's deadline is refused with a 503
 *   problem that says to retry, an MCP batch too, and the drain ends with nothing unanswered; a
 *   job that ends in time is answered; cbd_server_stop during a job refuses it at once.
 *
 * What is asserted does not move with the machine's speed or load: counts and statuses. A job
 * stops at its first progress check after its client closes (every check peeks at the socket),
 * so the server's count of progress checks (cbd_server_job_checks) moves by at most
 * AFTER_CLOSE_CHECKS after the close; how much CPU a check's interval takes is bench_budget's
 * (its "gap ms" column). Waits have generous limits that fail with a message: a safety net, not
 * the claim.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "costly_requests.h"
#include "http_client.h"
#include "raw_http.h"

#define PATIENCE_S 60.0

/* The progress checks after a client closed, at most: one that had counted itself before the
 * close and peeked after, and the next, which sees the close and stops the job. (A check that
 * peeked at most every millisecond, as the server once did, let a fast machine make several.) */
#define AFTER_CLOSE_CHECKS 2
/* The progress checks the job has made when the client closes (one per 2^20 units of work,
 * CBD_BUDGET_PROGRESS_UNITS): it is computing, well before its end. */
#define BEFORE_CLOSE_CHECKS 50

/* 10^7 battles of 100 v 60 at luck 0.16: about a second of CPU (test_bounded_work.c). */
static const char long_simulation[] = "{\"attackers\": 100, \"defenders\": 60, \"trials\": "
                                      "10000000, \"seed\": 1, \"settings\": {\"luck_modifier\": "
                                      "0.16}}";
/* 2·10^6 of them: some 0.2 s, well within the drain's deadline. */
static const char medium_simulation[] = "{\"attackers\": 100, \"defenders\": 60, \"trials\": "
                                        "2000000, \"seed\": 1, \"settings\": {\"luck_modifier\": "
                                        "0.16}}";
/* 10^5 of them: some 10 ms, estimated past server.inline_cost_ns, so computed on the worker. */
static const char short_simulation[] = "{\"attackers\": 100, \"defenders\": 60, \"trials\": "
                                       "100000, \"seed\": 1, \"settings\": {\"luck_modifier\": "
                                       "0.16}}";

/* An MCP batch of three tools/calls of the long simulation: more than the work budget. */
static char *simulate_batch(void) {
    costly_buf b = {0};
    costly_add(&b, "[");
    for (int i = 0; i < 3; i++) {
        costly_add(&b,
                   "%s{\"jsonrpc\": \"2.0\", \"id\": %d, \"method\": \"tools/call\", \"params\": "
                   "{\"name\": \"simulate\", \"arguments\": %s}}",
                   i ? ", " : "", i + 1, long_simulation);
    }
    costly_add(&b, "]");
    return b.p;
}

static cbd_server *start_one_worker(uint32_t drain_deadline) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.workers = 1;
    cfg.server.worker_queue = 0;
    cfg.server.worker_share = 1;
    cfg.server.drain_deadline = drain_deadline;
    /* The long jobs must still be running when the test closes, drains or stops: under the
     * default 2 s budget the plan's search ended after 0.4-1.8 s of CPU, depending on the
     * machine, and on a fast one it was answered 200 before the drain's refusal at 750 ms. A
     * minute's budget keeps them running whatever the machine; each test ends them itself. */
    cfg.api.limits.work_budget_ms = 60000;
    return test_server_start(&cfg);
}

/* Sends a long request and returns once its job has made `checks` progress checks. */
static int start_job_checked(cbd_server *s, const char *path, const char *body, uint64_t checks) {
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    uint64_t before = cbd_server_job_checks(s);
    cr_assert(raw_send_request(fd, "POST", path, "application/json", body, true));
    double end = raw_now() + PATIENCE_S;
    while (cbd_server_worker_jobs(s) < 1 && raw_now() < end) {
        raw_sleep(0.001);
    }
    cr_assert_eq(cbd_server_worker_jobs(s), 1, "%s was not admitted to the pool", path);
    while (cbd_server_job_checks(s) - before < checks && raw_now() < end) {
        raw_sleep(0.002);
    }
    cr_assert_geq(cbd_server_job_checks(s) - before, checks, "%s did not compute", path);
    return fd;
}

static int start_job(cbd_server *s, const char *path, const char *body) {
    return start_job_checked(s, path, body, BEFORE_CLOSE_CHECKS);
}

static void abandon(const char *path, const char *body) {
    cbd_server *s = start_one_worker(10);
    uint16_t port = cbd_server_port(s);
    cr_assert_eq(raw_metric(port, "combatd_requests_abandoned_total"), 0);
    int fd = start_job(s, path, body);
    uint64_t at_close = cbd_server_job_checks(s);
    close(fd);
    double end = raw_now() + PATIENCE_S;
    while (raw_metric(port, "combatd_requests_abandoned_total") < 1 && raw_now() < end) {
        raw_sleep(0.002);
    }
    uint64_t after = cbd_server_job_checks(s) - at_close;
    printf("%s: %llu progress checks before the close, %llu after\n", path,
           (unsigned long long)at_close, (unsigned long long)after);
    cr_expect_eq(raw_metric(port, "combatd_requests_abandoned_total"), 1,
                 "%s: the job was not counted as abandoned (it ended by itself?)", path);
    cr_expect_leq(after, AFTER_CLOSE_CHECKS, "%s: %llu progress checks after the close", path,
                  (unsigned long long)after);
    /* Counted once its place is free: the one worker takes the next long request at once. */
    cr_expect_eq(cbd_server_worker_jobs(s), 0);
    int next = raw_connect(port);
    cr_assert_geq(next, 0);
    cr_assert(
        raw_send_request(next, "POST", "/simulate", "application/json", short_simulation, true));
    bool closed;
    char *text = raw_read_until_close(next, PATIENCE_S, &closed, NULL);
    cr_expect_eq(raw_status(text), 200, "the next long request: %.300s", text);
    free(text);
    close(next);
    cr_expect_eq(raw_metric(port, "combatd_requests_abandoned_total"), 1);
    cbd_server_stop(s);
}

Test(nobody_waits, a_plan_whose_client_closes_stops_and_frees_the_worker, .timeout = 120) {
    char *body = costly_plan_turn();
    abandon("/plan-turn", body);
    free(body);
}

Test(nobody_waits, a_simulation_whose_client_closes_stops_and_frees_the_worker, .timeout = 120) {
    abandon("/simulate", long_simulation);
}

Test(nobody_waits, an_mcp_batch_whose_client_closes_stops_and_frees_the_worker, .timeout = 120) {
    char *body = simulate_batch();
    abandon("/mcp", body);
    free(body);
}

/* A job whose client left while it waited for the worker is not computed: two long requests,
 * the second queued behind the first; its client closes, then the first's. Both are counted as
 * abandoned, and the progress checks after the closes are the first job's last ones: the queued
 * one's second of work would make some thousand. */
Test(nobody_waits, a_queued_job_whose_client_closed_is_not_computed, .timeout = 120) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.workers = 1;
    cfg.server.worker_queue = 1;
    cfg.server.worker_share = 2;
    cbd_server *s = test_server_start(&cfg);
    uint16_t port = cbd_server_port(s);
    int first = start_job(s, "/simulate", long_simulation);
    int second = raw_connect(port);
    cr_assert_geq(second, 0);
    cr_assert(
        raw_send_request(second, "POST", "/simulate", "application/json", long_simulation, true));
    double end = raw_now() + PATIENCE_S;
    while (cbd_server_worker_jobs(s) < 2 && raw_now() < end) {
        raw_sleep(0.001);
    }
    cr_assert_eq(cbd_server_worker_jobs(s), 2, "the second request was not queued");
    uint64_t at_close = cbd_server_job_checks(s);
    close(second);
    close(first);
    while (raw_metric(port, "combatd_requests_abandoned_total") < 2 && raw_now() < end) {
        raw_sleep(0.002);
    }
    uint64_t after = cbd_server_job_checks(s) - at_close;
    printf("queued: %llu progress checks after the clients closed\n", (unsigned long long)after);
    cr_expect_eq(raw_metric(port, "combatd_requests_abandoned_total"), 2);
    cr_expect_leq(after, AFTER_CLOSE_CHECKS, "%llu progress checks after the closes",
                  (unsigned long long)after);
    cr_expect_eq(cbd_server_worker_jobs(s), 0);
    cbd_server_stop(s);
}

/* A 503 problem that says the service is stopping and to retry. */
static void expect_stopping(const char *text, const char *what) {
    cr_expect_eq(raw_status(text), 503, "%s: %.400s", what, text);
    cr_expect_not_null(strstr(text, "\r\nRetry-After: 1\r\n"), "%s: %.400s", what, text);
    cr_expect_not_null(strstr(text, "Content-Type: application/problem+json"), "%s: %.400s", what,
                       text);
    cr_expect_not_null(strstr(text, "The service is stopping; retry"), "%s: %.600s", what, text);
}

/* The drain with a 1 s deadline while a job runs: refused 250 ms before the deadline, so that
 * its connection has closed when the drain ends. `took_ms` is a hang guard only. */
static void drain_during(const char *path, const char *body) {
    cbd_server *s = start_one_worker(1);
    int fd = start_job(s, path, body);
    bool drained = cbd_server_drain(s);
    cbd_drain_stats st;
    cbd_server_drain_stats(s, &st);
    printf("%s: the drain took %llu ms\n", path, (unsigned long long)st.took_ms);
    bool closed;
    char *text = raw_read_until_close(fd, PATIENCE_S, &closed, NULL);
    expect_stopping(text, path);
    cr_expect(closed, "%s: the connection stayed open", path);
    free(text);
    close(fd);
    cr_expect(drained, "%s: the drain left %zu requests unanswered", path, st.unanswered);
    cr_expect_eq(st.unanswered, 0);
    cr_expect_lt(st.took_ms, 5000, "%s: the drain took %llu ms of a 1 s deadline", path,
                 (unsigned long long)st.took_ms);
    cbd_server_stop(s);
}

Test(nobody_waits, the_drain_refuses_a_plan_still_running_at_its_deadline, .timeout = 120) {
    char *body = costly_plan_turn();
    drain_during("/plan-turn", body);
    free(body);
}

Test(nobody_waits, the_drain_refuses_an_mcp_batch_still_running_at_its_deadline, .timeout = 120) {
    char *body = simulate_batch();
    drain_during("/mcp", body);
    free(body);
}

/* A job that ends before the drain's deadline (10 s) is answered: the drain waits for it. */
Test(nobody_waits, the_drain_answers_a_job_that_ends_in_time, .timeout = 120) {
    cbd_server *s = start_one_worker(10);
    /* (its 2·10^6 battles are charged in blocks of CBD_SIM_BLOCK: some 30 checks in all) */
    int fd = start_job_checked(s, "/simulate", medium_simulation, 5);
    bool drained = cbd_server_drain(s);
    bool closed;
    char *text = raw_read_until_close(fd, PATIENCE_S, &closed, NULL);
    cr_expect_eq(raw_status(text), 200, "%.300s", text);
    free(text);
    close(fd);
    cr_expect(drained);
    cbd_server_stop(s);
}

/* Stopping at once (no drain) refuses the running job rather than wait for it. */
Test(nobody_waits, stopping_refuses_a_running_plan_at_once, .timeout = 120) {
    cbd_server *s = start_one_worker(10);
    char *body = costly_plan_turn();
    int fd = start_job(s, "/plan-turn", body);
    cbd_server_stop(s);
    bool closed;
    char *text = raw_read_until_close(fd, PATIENCE_S, &closed, NULL);
    expect_stopping(text, "/plan-turn");
    free(text);
    free(body);
    close(fd);
}
