/*
 * What /proc says of a process, for tests that measure a server's cost from outside: its CPU
 * time (utime + stime of /proc/PID/stat, in clock ticks), its resident memory (VmRSS) and its
 * peak (VmHWM), which writing "5" to /proc/PID/clear_refs resets to the current RSS (Linux
 * 4.0 and later; the process's owner may do it); and of its threads, their CPU time, nice value
 * and state, which tell a combatd server's HTTP side from its workers and a thread computing
 * from one asleep. Header-only, like raw_http.h.
 */
#ifndef COMBATD_TEST_PROC_STATS_H
#define COMBATD_TEST_PROC_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <sys/types.h>
#include <unistd.h>

/* utime + stime of `pid` in clock ticks (sysconf(_SC_CLK_TCK) a second), or -1. */
static inline long long proc_cpu_ticks(pid_t pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return -1;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name may hold spaces and parentheses: fields are counted after the last
     * ')'. utime and stime are fields 14 and 15, the 12th and 13th after it. */
    const char *p = strrchr(buf, ')');
    if (!p) {
        return -1;
    }
    unsigned long long utime = 0, stime = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) !=
        2) {
        return -1;
    }
    return (long long)(utime + stime);
}

/* Seconds of CPU in `ticks`. */
static inline double proc_ticks_seconds(long long ticks) {
    return (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

/* A "Name:   123 kB" line of /proc/PID/status in KiB (field "VmRSS", "VmHWM", ...), or -1. */
static inline long long proc_status_kib(pid_t pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return -1;
    }
    long long kib = -1;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            kib = strtoll(line + len + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

/* Resets VmHWM to the current VmRSS; false when the kernel would not. */
static inline bool proc_reset_peak(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/clear_refs", (int)pid);
    FILE *f = fopen(path, "w");
    if (!f) {
        return false;
    }
    bool ok = fputs("5", f) >= 0;
    ok &= fclose(f) == 0;
    return ok;
}

/* The nanoseconds thread `tid` of `pid` has run on a CPU (the first field of
 * /proc/PID/task/TID/schedstat; the time it waited to run is not in it), or -1. */
static inline long long proc_thread_cpu_ns(pid_t pid, pid_t tid) {
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return -1;
    }
    long long ns = -1;
    if (fscanf(f, "%lld", &ns) != 1) {
        ns = -1;
    }
    fclose(f);
    return ns;
}

/* The nice value of thread `tid` of `pid` (field 19 of its stat), or -100. */
static inline int proc_thread_nice(pid_t pid, pid_t tid) {
    char path[96], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return -100;
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    int nice = -100;
    /* After the ')': state, then fields 4..18, then nice (19). */
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %d",
                     &nice) != 1) {
        return -100;
    }
    return nice;
}

/* The state of thread `tid` of `pid` (field 3 of its stat: 'R' running or waiting for a CPU,
 * 'S' asleep, ...), or '?'. A thread that computes is 'R' however loaded the machine is: it
 * only waits for a CPU, never sleeps. */
static inline char proc_thread_state(pid_t pid, pid_t tid) {
    char path[96], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return '?';
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

/* Up to `max` thread ids of `pid` (/proc/PID/task) into tids; how many. */
static inline int proc_threads(pid_t pid, pid_t *tids, int max) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) {
        return 0;
    }
    int n = 0;
    for (struct dirent *e; n < max && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] != '.') {
            tids[n++] = (pid_t)atoi(e->d_name);
        }
    }
    closedir(d);
    return n;
}

/*
 * A combatd server's threads as /proc shows them: those that answer requests (libmicrohttpd's,
 * and beside them the main thread, the watchdog and the lingerer, at the process's priority)
 * and the workers, which compute long requests at a lower one (nice 10 above the process's,
 * src/http/worker.c).
 */
typedef struct {
    pid_t pid;
    int n_http, n_workers;
    pid_t http[32], workers[32];
    int http_nice, worker_nice; /* the highest nice among the HTTP side, the lowest of workers */
} proc_server_threads;

static inline void proc_find_server_threads(pid_t pid, proc_server_threads *t) {
    pid_t tids[64];
    int n = proc_threads(pid, tids, 64);
    *t = (proc_server_threads){.pid = pid, .http_nice = -100, .worker_nice = 100};
    int base = proc_thread_nice(pid, pid); /* the main thread's: the process's (a test run under
                                              `nice` starts the server above 0) */
    for (int i = 0; i < n; i++) {
        int nice = proc_thread_nice(pid, tids[i]);
        if (nice > base && t->n_workers < 32) {
            t->workers[t->n_workers++] = tids[i];
            t->worker_nice = nice < t->worker_nice ? nice : t->worker_nice;
        } else if (nice > -100 && t->n_http < 32) {
            t->http[t->n_http++] = tids[i];
            t->http_nice = nice > t->http_nice ? nice : t->http_nice;
        }
    }
}

/* proc_find_server_threads once at least `workers` workers have lowered their priority (each
 * does so as it starts), looking every 10 ms for up to `seconds`; false if they never did. */
static inline bool proc_wait_server_threads(pid_t pid, int workers, double seconds,
                                            proc_server_threads *t) {
    for (long i = 0; i <= (long)(seconds * 100); i++) {
        proc_find_server_threads(pid, t);
        if (t->n_workers >= workers) {
            return true;
        }
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return false;
}

/* The CPU time, in ns, that threads `tids` of `pid` have had in all (a thread gone counts 0). */
static inline long long proc_threads_cpu_ns(pid_t pid, const pid_t *tids, int n) {
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long ns = proc_thread_cpu_ns(pid, tids[i]);
        sum += ns > 0 ? ns : 0;
    }
    return sum;
}

/* How many of threads `tids` of `pid` are 'R' (computing, or waiting for a CPU to compute). */
static inline int proc_threads_running(pid_t pid, const pid_t *tids, int n) {
    int running = 0;
    for (int i = 0; i < n; i++) {
        running += proc_thread_state(pid, tids[i]) == 'R';
    }
    return running;
}

#endif
