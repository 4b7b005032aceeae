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

#endif
