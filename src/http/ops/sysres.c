/* CPUs and open files the process may use (sysres.h). */
#include "sysres.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* A whole number of text[0..] up to a delimiter in `ends` (or the end); false when none. */
static bool parse_u64(const char *text, const char *ends, uint64_t *out, const char **rest) {
    if (!text || text[0] < '0' || text[0] > '9') {
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || (*end != '\0' && !strchr(ends, *end))) {
        return false;
    }
    *out = v;
    if (rest) {
        *rest = end;
    }
    return true;
}

static unsigned ceil_div(uint64_t quota, uint64_t period) {
    if (period == 0 || quota == 0) {
        return 0;
    }
    uint64_t n = quota / period + (quota % period != 0);
    return n > 4096 ? 4096u : (unsigned)n;
}

unsigned cbd_sys_cpus_from_cpu_max(const char *text) {
    uint64_t quota, period;
    const char *rest;
    if (!parse_u64(text, " ", &quota, &rest) || *rest != ' ' ||
        !parse_u64(rest + 1, "\n", &period, NULL)) {
        return 0; /* "max 100000" (no limit) lands here too */
    }
    return ceil_div(quota, period);
}

unsigned cbd_sys_cpus_from_cfs(const char *quota, const char *period) {
    uint64_t q, p;
    if (!parse_u64(quota, "\n", &q, NULL) || !parse_u64(period, "\n", &p, NULL)) {
        return 0; /* "-1": no limit */
    }
    return ceil_div(q, p);
}

size_t cbd_sys_cgroup_v2_path(const char *text, char *out, size_t size) {
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line += line != NULL) {
        if (strncmp(line, "0::", 3) == 0) {
            const char *p = line + 3, *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            if (len == 0 || len >= size || p[0] != '/') {
                return 0;
            }
            memcpy(out, p, len);
            out[len] = '\0';
            return len;
        }
    }
    return 0;
}

static bool read_text(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "re");
    if (!f) {
        return false;
    }
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n > 0;
}

/* The smallest quota on the v2 cgroup path and its parents (a limit anywhere above applies). */
static unsigned cgroup_v2_cpus(void) {
    char text[4096], path[1024], file[1200], value[128];
    if (!read_text("/proc/self/cgroup", text, sizeof text) ||
        cbd_sys_cgroup_v2_path(text, path, sizeof path) == 0) {
        return 0;
    }
    unsigned best = 0;
    for (;;) {
        snprintf(file, sizeof file, "/sys/fs/cgroup%s/cpu.max", strcmp(path, "/") ? path : "");
        unsigned n = read_text(file, value, sizeof value) ? cbd_sys_cpus_from_cpu_max(value) : 0;
        if (n > 0 && (best == 0 || n < best)) {
            best = n;
        }
        char *slash = strrchr(path, '/');
        if (!slash || slash == path) {
            break;
        }
        *slash = '\0';
    }
    /* In a container's cgroup namespace the path is "/" and the root's file is the limit. */
    if (read_text("/sys/fs/cgroup/cpu.max", value, sizeof value)) {
        unsigned n = cbd_sys_cpus_from_cpu_max(value);
        best = n > 0 && (best == 0 || n < best) ? n : best;
    }
    return best;
}

static unsigned cgroup_v1_cpus(void) {
    static const char *const dirs[] = {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"};
    char q[64], p[64], file[128];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(file, sizeof file, "%s/cpu.cfs_quota_us", dirs[i]);
        if (!read_text(file, q, sizeof q)) {
            continue;
        }
        snprintf(file, sizeof file, "%s/cpu.cfs_period_us", dirs[i]);
        if (read_text(file, p, sizeof p)) {
            return cbd_sys_cpus_from_cfs(q, p);
        }
    }
    return 0;
}

unsigned cbd_sys_cpu_count(const char **source) {
    const char *why = "affinity";
    unsigned n = 0;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        n = (unsigned)CPU_COUNT(&set);
    }
    if (n == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = online > 0 ? (unsigned)online : 1u;
        why = "sysconf";
    }
    unsigned quota = cgroup_v2_cpus();
    if (quota == 0) {
        quota = cgroup_v1_cpus();
    }
    if (quota > 0 && quota < n) {
        n = quota;
        why = "cgroup";
    }
    if (source) {
        *source = why;
    }
    return n;
}

uint64_t cbd_sys_raise_nofile(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
        return 0;
    }
    rlim_t want = rl.rlim_max;
    char text[32];
    uint64_t nr_open;
    if (read_text("/proc/sys/fs/nr_open", text, sizeof text) &&
        parse_u64(text, "\n", &nr_open, NULL) && (want == RLIM_INFINITY || want > nr_open)) {
        want = (rlim_t)nr_open;
    }
    if (want > rl.rlim_cur) {
        struct rlimit raised = {want, rl.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
            rl.rlim_cur = want;
        }
    }
    return rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
}

uint64_t cbd_sys_fd_reserve(unsigned threads) {
    return 32u + 3u * (uint64_t)threads;
}

uint32_t cbd_sys_fit_connections(uint64_t nofile, uint32_t limit, unsigned threads) {
    uint64_t reserve = cbd_sys_fd_reserve(threads);
    uint64_t room = nofile > reserve ? nofile - reserve : 1u;
    return room < limit ? (uint32_t)room : limit;
}
