#ifndef COMBATD_HTTP_SYSRES_H
#define COMBATD_HTTP_SYSRES_H

/*
 * What the process may use: CPUs (its affinity mask, capped by the cgroup CPU
 * quota a container runtime sets) and open files. The parsers take the files' text, so the
 * tests feed them fixtures.
 */
#include <stddef.h>
#include <stdint.h>

/* cgroup v2 cpu.max ("QUOTA PERIOD" or "max PERIOD"): ceil(QUOTA / PERIOD), 0 for no limit
 * or text that is not that. */
unsigned cbd_sys_cpus_from_cpu_max(const char *text);

/* cgroup v1 cpu.cfs_quota_us and cpu.cfs_period_us: ceil(quota / period), 0 for no limit
 * (quota -1) or bad text. */
unsigned cbd_sys_cpus_from_cfs(const char *quota, const char *period);

/* The cgroup v2 path of /proc/self/cgroup's text (its "0::PATH" line) into out; 0 when absent. */
size_t cbd_sys_cgroup_v2_path(const char *proc_self_cgroup, char *out, size_t size);

/* The CPUs this process may use: sched_getaffinity's count capped by the cgroup quota (v2: its
 * cgroup and every parent; v1: the cpu controller). *source (when not NULL) names what decided:
 * "affinity", "cgroup" or "sysconf". At least 1. */
unsigned cbd_sys_cpu_count(const char **source);

/* Raises the soft RLIMIT_NOFILE to the hard limit (at most fs.nr_open); returns the soft limit
 * in force afterwards (0 when it cannot be read). */
uint64_t cbd_sys_raise_nofile(void);

/* Descriptors kept back from connections: standard streams, the listening socket, each MHD
 * thread's epoll and inter-thread channel, the config file, the healthcheck, slack. */
uint64_t cbd_sys_fd_reserve(unsigned threads);

/* The connection limit that fits `nofile` open files (at least 1, at most `limit`). */
uint32_t cbd_sys_fit_connections(uint64_t nofile, uint32_t limit, unsigned threads);

#endif
