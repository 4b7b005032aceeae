/*
 * A worker computes at nice 10 above the process's own (src/http/worker.c, docs/security.md), so
 * that a server started under `nice` still keeps its workers below its HTTP threads. The test's
 * process raises its own nice by 4 before it starts the binary (the child inherits it; Criterion
 * runs each test in a process of its own), then reads every thread's nice from /proc: the main
 * thread at the raised value, each worker at that plus 10 (19 at most, the kernel's cap).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "child_server.h"
#include "proc_stats.h"

Test(worker_priority, workers_sit_ten_below_a_process_started_under_nice) {
    errno = 0;
    int raised = nice(4);
    cr_assert(raised != -1 || errno == 0, "nice(4) failed");
    child_server c;
    char *args[] = {"--port", "0", "--bind", "127.0.0.1", NULL};
    char *env[] = {"PATH=/usr/bin:/bin", NULL};
    child_start(&c, args, env);
    cr_assert_gt(c.port, 0, "the child said where it listens");
    int base = proc_thread_nice(c.pid, c.pid);
    cr_expect_eq(base, raised, "the main thread at the nice it was started with");
    proc_server_threads t;
    cr_assert(proc_wait_server_threads(c.pid, 2, 30.0, &t), "%d workers below the process",
              t.n_workers);
    int want = base + 10 > 19 ? 19 : base + 10;
    for (int i = 0; i < t.n_workers; i++) {
        cr_expect_eq(proc_thread_nice(c.pid, t.workers[i]), want, "worker %d", i);
    }
    cr_expect_eq(t.http_nice, base, "the HTTP side at the process's nice");
    char log[1 << 14];
    child_stop(&c, log, sizeof log);
}
