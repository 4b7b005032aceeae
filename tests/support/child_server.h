#ifndef COMBATD_TEST_CHILD_SERVER_H
#define COMBATD_TEST_CHILD_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The real combatd binary (COMBATD_BINARY, set by CTest) as a child process, for the tests
 * that need what only the binary does: flags, signals, exit codes, the JSON log on stderr.
 */
typedef struct {
    pid_t pid;
    int err_fd;    /* the read end of the child's stderr */
    uint16_t port; /* from its "listening" log line; 0 when it never said */
} child_server;

/* The path of the binary; fails the test when COMBATD_BINARY is unset. */
const char *child_binary(void);

/*
 * Starts the binary with `args` (the arguments after argv[0], NULL-terminated, at most 14)
 * and exactly the environment `env`, then reads its stderr up to the "listening" line and
 * takes the port from it. c->port stays 0 when the child exits or closes stderr first.
 */
void child_start(child_server *c, char *const args[], char *const env[]);

/* Limits the child runs under (setrlimit before exec): a test that sends requests which could
 * run away on a server that does not bound them must not take the machine with it. 0: leave
 * that limit as it is. */
typedef struct {
    uint64_t address_space_bytes; /* RLIMIT_AS: past it, allocations fail */
    uint64_t cpu_seconds;         /* RLIMIT_CPU: past it, SIGXCPU ends the child */
} child_limits;

/* child_start, under `limits` (NULL: none). */
void child_start_limited(child_server *c, char *const args[], char *const env[],
                         const child_limits *limits);

/* Waits up to `seconds` for the child to exit; its wait status, or -1 (then it is killed). */
int child_wait(const child_server *c, double seconds);

/* Reads the child's stderr to its end (the child has exited or is exiting) into buf, NUL-
 * terminated, and closes it. */
void child_read_log(child_server *c, char *buf, size_t size);

/* SIGTERM, the rest of its log into buf (see child_read_log), and the wait for it. */
void child_stop(child_server *c, char *buf, size_t size);

/*
 * Runs the binary with `args` (as for child_start) to its end, its stdout and stderr together
 * into out (NUL-terminated), or to /dev/null when out is NULL. Its exit code, or -1 when it
 * did not exit by itself within 10 s.
 */
int child_run(char *const args[], char *const env[], char *out, size_t size);

/*
 * The child's stderr read as it comes, by a thread of its own: a child that logs every request
 * would block on a full pipe if nobody read it while the test runs. Takes over c->err_fd
 * (child_read_log and child_stop must not be used with it).
 */
typedef struct child_log child_log;

child_log *child_log_start(child_server *c);

/* How many times `needle` occurs in what has come so far. */
size_t child_log_count(child_log *l, const char *needle);

/* Waits until `needle` has occurred `n` times or `seconds` have passed; the count then. */
size_t child_log_wait(child_log *l, const char *needle, size_t n, double seconds);

/* Everything that has come so far (malloc'd, NUL-terminated). */
char *child_log_text(child_log *l);

/* The first whole line holding `needle` (malloc'd, without its newline), or NULL. */
char *child_log_line_with(child_log *l, const char *needle);

/* Waits for the end of the child's stderr (it has exited, or is being stopped) and closes it;
 * what was read stays readable until child_log_free. */
void child_log_finish(child_log *l);
void child_log_free(child_log *l);

#endif
