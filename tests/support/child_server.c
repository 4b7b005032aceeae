#include "child_server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

/* The limits set in the child before exec (a field of 0 leaves that one as it is). */
static void apply_limits(const child_limits *limits) {
    if (!limits) {
        return;
    }
    if (limits->address_space_bytes > 0) {
        struct rlimit r = {limits->address_space_bytes, limits->address_space_bytes};
        (void)setrlimit(RLIMIT_AS, &r);
    }
    if (limits->cpu_seconds > 0) {
        struct rlimit r = {limits->cpu_seconds, limits->cpu_seconds + 1};
        (void)setrlimit(RLIMIT_CPU, &r);
    }
}

/* Forks and execs the binary with `out_fd` as its stderr (and its stdout too when
 * `with_stdout`); the parent gets the pid. */
static pid_t spawn(char *const args[], char *const env[], int out_fd, int close_fd,
                   bool with_stdout, const child_limits *limits) {
    char *argv[16];
    build_argv(argv, args);
    pid_t pid = fork();
    /* Nothing of Criterion in the child before the exec: an assertion there would report to
     * the runner through the test's channel, as a stray event of the test. */
    if (pid == 0) {
        /* A test that fails an assertion ends without stopping its child: the child goes
         * with it. */
        (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
        apply_limits(limits);
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
    cr_assert_neq(pid, -1);
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
    child_start_limited(c, args, env, NULL);
}

void child_start_limited(child_server *c, char *const args[], char *const env[],
                         const child_limits *limits) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    c->pid = spawn(args, env, fds[1], fds[0], false, limits);
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
        c.pid = spawn(args, env, fds[1], fds[0], true, NULL);
        close(fds[1]);
        read_all(fds[0], out, size);
        close(fds[0]);
    } else {
        int null = open("/dev/null", O_WRONLY);
        cr_assert_geq(null, 0);
        c.pid = spawn(args, env, null, -1, true, NULL);
        close(null);
    }
    int status = child_wait(&c, 10);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- the log, read as it comes ---- */

struct child_log {
    child_server *child;
    pthread_t thread;
    pthread_mutex_t lock;
    char *text; /* under lock: everything read so far, NUL-terminated */
    size_t len, cap;
    bool ended; /* under lock: the child's stderr reached its end */
};

static void *read_log(void *arg) {
    child_log *l = arg;
    char chunk[8192];
    for (;;) {
        ssize_t n = read(l->child->err_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        pthread_mutex_lock(&l->lock);
        if (n <= 0) {
            l->ended = true;
            pthread_mutex_unlock(&l->lock);
            return NULL;
        }
        if (l->len + (size_t)n + 1 > l->cap) {
            size_t cap = (l->len + (size_t)n + 1) * 2;
            char *grown = realloc(l->text, cap);
            if (!grown) {
                l->ended = true;
                pthread_mutex_unlock(&l->lock);
                return NULL;
            }
            l->text = grown;
            l->cap = cap;
        }
        memcpy(l->text + l->len, chunk, (size_t)n);
        l->len += (size_t)n;
        l->text[l->len] = '\0';
        pthread_mutex_unlock(&l->lock);
    }
}

child_log *child_log_start(child_server *c) {
    child_log *l = calloc(1, sizeof *l);
    cr_assert_not_null(l);
    l->child = c;
    l->cap = 65536;
    l->text = calloc(1, l->cap);
    cr_assert_not_null(l->text);
    cr_assert_eq(pthread_mutex_init(&l->lock, NULL), 0);
    cr_assert_eq(pthread_create(&l->thread, NULL, read_log, l), 0);
    return l;
}

static size_t count_in(const char *text, const char *needle) {
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle)) {
        n++;
    }
    return n;
}

size_t child_log_count(child_log *l, const char *needle) {
    pthread_mutex_lock(&l->lock);
    size_t n = count_in(l->text, needle);
    pthread_mutex_unlock(&l->lock);
    return n;
}

size_t child_log_wait(child_log *l, const char *needle, size_t n, double seconds) {
    double end = now() + seconds;
    size_t seen = child_log_count(l, needle);
    while (seen < n && now() < end) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        seen = child_log_count(l, needle);
    }
    return seen;
}

char *child_log_text(child_log *l) {
    pthread_mutex_lock(&l->lock);
    char *copy = strdup(l->text);
    pthread_mutex_unlock(&l->lock);
    cr_assert_not_null(copy);
    return copy;
}

char *child_log_line_with(child_log *l, const char *needle) {
    pthread_mutex_lock(&l->lock);
    const char *hit = strstr(l->text, needle);
    char *line = NULL;
    if (hit) {
        const char *start = hit;
        while (start > l->text && start[-1] != '\n') {
            start--;
        }
        const char *end = strchr(hit, '\n');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        line = strndup(start, len);
    }
    pthread_mutex_unlock(&l->lock);
    return line;
}

void child_log_finish(child_log *l) {
    pthread_join(l->thread, NULL);
    close(l->child->err_fd);
    l->child->err_fd = -1;
}

void child_log_free(child_log *l) {
    pthread_mutex_destroy(&l->lock);
    free(l->text);
    free(l);
}
