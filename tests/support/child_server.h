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

#endif
