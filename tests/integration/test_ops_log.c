/*
 * docs/operations.md "Fitting a container", against the real binary: at start the soft open-file
 * limit is raised to the hard one and connection_limit lowered to what remains after 32 + 3 per
 * thread descriptors, logged as {"event":"connection_limit_capped",...}; `threads: 0` follows the
 * CPUs the process may use, logged as {"event":"threads","threads":N,"from":"..."}. The limits are
 * set in the child before exec (setrlimit, sched_setaffinity), so the figures are known here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "raw_http.h"

static const char *binary(void) {
    const char *b = getenv("COMBATD_BINARY");
    cr_assert_not_null(b, "COMBATD_BINARY is set by CTest");
    return b;
}

typedef struct {
    rlim_t soft, hard; /* RLIMIT_NOFILE in the child; 0: left alone */
    int cpu;           /* the one CPU the child may use; -1: left alone */
} child_limits;

typedef struct {
    pid_t pid;
    int err_fd;
    uint16_t port;
    char startup[8192]; /* every log line up to and including "listening" */
} child;

static void apply_limits(const child_limits *l) {
    if (l->soft > 0) {
        struct rlimit rl = {l->soft, l->hard};
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            _exit(126);
        }
    }
    if (l->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((size_t)l->cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            _exit(126);
        }
    }
}

/* Starts the binary with args and env under limits; reads its log up to "listening". */
static void start_child(child *c, char *const args[], char *const env[], const child_limits *l) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    char *argv[16] = {(char *)binary()};
    for (int i = 0; args[i] && i < 14; i++) {
        argv[i + 1] = args[i];
    }
    c->pid = fork();
    cr_assert_neq(c->pid, -1);
    if (c->pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        /* A failed assertion ends the test before stop_child: the server goes with it. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        apply_limits(l);
        execve(binary(), argv, env);
        _exit(127);
    }
    close(fds[1]);
    c->err_fd = fds[0];
    c->port = 0;
    size_t used = 0, line = 0;
    while (used + 1 < sizeof c->startup && read(c->err_fd, c->startup + used, 1) == 1) {
        c->startup[++used] = '\0';
        if (c->startup[used - 1] != '\n') {
            continue;
        }
        const char *p = strstr(c->startup + line, "\"event\":\"listening\"");
        if (p && (p = strstr(p, "\"port\":")) != NULL) {
            c->port = (uint16_t)atoi(p + 7);
            break;
        }
        line = used;
    }
    c->startup[used] = '\0';
}

static void stop_child(child *c) {
    kill(c->pid, SIGTERM);
    char buf[4096];
    while (read(c->err_fd, buf, sizeof buf) > 0) {
    }
    close(c->err_fd);
    waitpid(c->pid, NULL, 0);
}

/* The one startup line of event `event` into out; false when there is none. */
static bool event_line(const child *c, const char *event, char *out, size_t size) {
    char needle[96];
    snprintf(needle, sizeof needle, "{\"event\":\"%s\"", event);
    const char *p = strstr(c->startup, needle);
    if (!p) {
        return false;
    }
    cr_expect_null(strstr(p + 1, needle), "%s logged twice: %s", event, c->startup);
    const char *end = strchr(p, '\n');
    snprintf(out, size, "%.*s", (int)(end ? end - p : (long)strlen(p)), p);
    return true;
}

/* The soft and hard open-file limits of process pid, from /proc/PID/limits. */
static void proc_nofile(pid_t pid, unsigned long long *soft, unsigned long long *hard) {
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%d/limits", (int)pid);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    const char *p = strstr(text, "Max open files");
    cr_assert_not_null(p);
    cr_assert_eq(sscanf(p + 14, "%llu %llu", soft, hard), 2, "%s", p);
}

static bool get_livez(uint16_t port) {
    int fd = raw_connect(port);
    if (fd < 0) {
        return false;
    }
    char resp[1024] = "";
    bool ok = raw_send_str(fd, "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    bool closed;
    char *got = raw_read_until_close(fd, 3.0, &closed, NULL);
    snprintf(resp, sizeof resp, "%s", got ? got : "");
    free(got);
    close(fd);
    return ok && raw_status(resp) == 200;
}

static char *args_two_threads[] = {"--port", "0", "--bind", "127.0.0.1", "--threads", "2", NULL};
static char *env_4096[] = {"PATH=/usr/bin:/bin", "COMBATD_CONNECTION_LIMIT=4096",
                           "COMBATD_ACCESS_LOG=false", NULL};

Test(ops_log, connection_limit_is_lowered_to_fit_the_open_file_limit_and_logged) {
    /* Soft 128, hard 256, two threads: the soft limit is raised to 256, and 32 + 3 * 2 = 38
     * descriptors are kept back, so 4096 connections become 256 - 38 = 218. */
    child_limits l = {128, 256, -1};
    child c;
    start_child(&c, args_two_threads, env_4096, &l);
    cr_assert_gt(c.port, 0, "did not listen: %s", c.startup);
    char line[512];
    cr_assert(event_line(&c, "connection_limit_capped", line, sizeof line), "%s", c.startup);
    cr_expect(strstr(line, "\"configured\":4096") != NULL, "%s", line);
    cr_expect(strstr(line, "\"open_files\":256") != NULL, "%s", line);
    cr_expect(strstr(line, "\"reserved\":38") != NULL, "%s", line);
    cr_expect(strstr(line, "\"connection_limit\":218}") != NULL, "%s", line);
    cr_assert(event_line(&c, "listening", line, sizeof line));
    cr_expect(strstr(line, "\"connection_limit\":218,") != NULL, "%s", line);
    unsigned long long soft, hard;
    proc_nofile(c.pid, &soft, &hard);
    cr_expect_eq(soft, 256, "the soft limit is raised to the hard one");
    cr_expect_eq(hard, 256);
    cr_expect(get_livez(c.port), "serves after the cap");
    stop_child(&c);
}

Test(ops_log, no_cap_line_when_the_open_file_limit_is_room_enough) {
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    rlim_t room = 4096 + 38;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < room) {
        cr_skip_test("the hard open-file limit here (%llu) is below %llu",
                     (unsigned long long)rl.rlim_max, (unsigned long long)room);
    }
    /* Exactly enough: 4134 - 38 = 4096, nothing lowered. */
    child_limits l = {room, room, -1};
    child c;
    start_child(&c, args_two_threads, env_4096, &l);
    cr_assert_gt(c.port, 0, "did not listen: %s", c.startup);
    char line[512];
    cr_expect_not(event_line(&c, "connection_limit_capped", line, sizeof line), "%s", line);
    cr_assert(event_line(&c, "listening", line, sizeof line));
    cr_expect(strstr(line, "\"connection_limit\":4096,") != NULL, "%s", line);
    stop_child(&c);
}

/* The lowest CPU this process may run on. */
static int first_cpu(void) {
    cpu_set_t set;
    cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
    for (int i = 0; i < CPU_SETSIZE; i++) {
        if (CPU_ISSET((size_t)i, &set)) {
            return i;
        }
    }
    cr_assert_fail("no CPU in the affinity mask");
    return 0;
}

Test(ops_log, threads_zero_follows_the_affinity_mask_and_says_so) {
    /* One CPU allowed: one thread, decided by the affinity mask (a cgroup quota can only
     * lower the count, and none is below one CPU). */
    child_limits l = {0, 0, first_cpu()};
    char *args[] = {"--port", "0", "--bind", "127.0.0.1", "--threads", "0", NULL};
    child c;
    start_child(&c, args, env_4096, &l);
    cr_assert_gt(c.port, 0, "did not listen: %s", c.startup);
    char line[512];
    cr_assert(event_line(&c, "threads", line, sizeof line), "%s", c.startup);
    cr_expect_str_eq(line, "{\"event\":\"threads\",\"threads\":1,\"from\":\"affinity\"}");
    cr_assert(event_line(&c, "listening", line, sizeof line));
    cr_expect(strstr(line, "\"threads\":1,") != NULL, "%s", line);
    cr_expect(get_livez(c.port));
    stop_child(&c);
}

Test(ops_log, threads_given_are_not_logged_as_decided) {
    child_limits l = {0, 0, -1};
    child c;
    start_child(&c, args_two_threads, env_4096, &l);
    cr_assert_gt(c.port, 0, "did not listen: %s", c.startup);
    char line[512];
    cr_expect_not(event_line(&c, "threads", line, sizeof line), "%s", line);
    cr_assert(event_line(&c, "listening", line, sizeof line));
    cr_expect(strstr(line, "\"threads\":2,") != NULL, "%s", line);
    stop_child(&c);
}
