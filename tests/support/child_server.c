#include "child_server.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

const char *child_binary(void) {
    const char *b = getenv("COMBATD_BINARY");
    cr_assert_not_null(b, "COMBATD_BINARY is set by CTest");
    return b;
}

/* argv for execve: the binary, then args (NULL-terminated, at most 14 kept). */
static void build_argv(char *argv[16], char *const args[]) {
    memset(argv, 0, 16 * sizeof *argv);
    argv[0] = (char *)child_binary();
    for (int i = 0; args[i] && i < 14; i++) {
        argv[i + 1] = args[i];
    }
}

/* Forks and execs the binary with `out_fd` as its stderr (and its stdout too when
 * `with_stdout`); the parent gets the pid. */
static pid_t spawn(char *const args[], char *const env[], int out_fd, int close_fd,
                   bool with_stdout) {
    char *argv[16];
    build_argv(argv, args);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        dup2(out_fd, STDERR_FILENO);
        if (with_stdout) {
            dup2(out_fd, STDOUT_FILENO);
        }
        if (close_fd >= 0) {
            close(close_fd);
        }
        close(out_fd);
        execve(argv[0], argv, env);
        _exit(127);
    }
    return pid;
}

/* Reads stderr a byte at a time (so nothing past the line is taken) up to the log line of
 * the "listening" event, and returns its port; 0 at end of file. */
static uint16_t read_listening_port(int fd) {
    char line[4096];
    size_t used = 0;
    while (used + 1 < sizeof line && read(fd, line + used, 1) == 1) {
        line[++used] = '\0';
        if (line[used - 1] != '\n') {
            continue;
        }
        char *p = strstr(line, "\"event\":\"listening\"");
        if (p && (p = strstr(line, "\"port\":")) != NULL) {
            return (uint16_t)atoi(p + 7);
        }
        used = 0;
    }
    return 0;
}

void child_start(child_server *c, char *const args[], char *const env[]) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    c->pid = spawn(args, env, fds[1], fds[0], false);
    close(fds[1]);
    c->err_fd = fds[0];
    c->port = read_listening_port(c->err_fd);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int child_wait(const child_server *c, double seconds) {
    double end = now() + seconds;
    while (now() < end) {
        int status;
        if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
            return status;
        }
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    kill(c->pid, SIGKILL);
    waitpid(c->pid, NULL, 0);
    return -1;
}

/* Everything left on fd until end of file (or buf is full) into buf, NUL-terminated. */
static void read_all(int fd, char *buf, size_t size) {
    size_t used = 0;
    ssize_t n;
    while (used + 1 < size && (n = read(fd, buf + used, size - 1 - used)) > 0) {
        used += (size_t)n;
    }
    buf[used] = '\0';
}

void child_read_log(child_server *c, char *buf, size_t size) {
    read_all(c->err_fd, buf, size);
    close(c->err_fd);
    c->err_fd = -1;
}

void child_stop(child_server *c, char *buf, size_t size) {
    kill(c->pid, SIGTERM);
    child_read_log(c, buf, size);
    waitpid(c->pid, NULL, 0);
}

int child_run(char *const args[], char *const env[], char *out, size_t size) {
    child_server c = {.err_fd = -1};
    if (out) {
        int fds[2];
        cr_assert_eq(pipe(fds), 0);
        c.pid = spawn(args, env, fds[1], fds[0], true);
        close(fds[1]);
        read_all(fds[0], out, size);
        close(fds[0]);
    } else {
        int null = open("/dev/null", O_WRONLY);
        cr_assert_geq(null, 0);
        c.pid = spawn(args, env, null, -1, true);
        close(null);
    }
    int status = child_wait(&c, 10);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
