/*
 * What /proc says of a process, for tests that measure a server's cost from outside: its CPU
 * time (utime + stime of /proc/PID/stat, in clock ticks), its resident memory (VmRSS) and its
 * peak (VmHWM), which writing "5" to /proc/PID/clear_refs resets to the current RSS (Linux
 * 4.0 and later; the process's owner may do it). Header-only, like raw_http.h.
 */
#ifndef COMBATD_TEST_PROC_STATS_H
#define COMBATD_TEST_PROC_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
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

#endif
