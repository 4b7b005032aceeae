/*
 * What the process may use: the cgroup CPU quota's text as v2 and v1 write it,
 * the cgroup path, and the connection limit that fits the open-file limit. Fixture strings
 * are the files' formats (Documentation/admin-guide/cgroup-v2.rst, cpu.max: "$MAX $PERIOD").
 */
#include <criterion/criterion.h>

#include "http/ops/sysres.h"

Test(sysres, cgroup_v2_cpu_max_rounds_up) {
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("max 100000\n"), 0, "no limit");
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("200000 100000\n"), 2);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("150000 100000\n"), 2, "1.5 CPUs need 2 threads");
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("50000 100000"), 1);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("100001 100000\n"), 2);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("400000 50000\n"), 8);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max(""), 0);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("200000\n"), 0);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("200000 0\n"), 0);
    cr_expect_eq(cbd_sys_cpus_from_cpu_max("-1 100000\n"), 0);
}

Test(sysres, cgroup_v1_cfs_quota) {
    cr_expect_eq(cbd_sys_cpus_from_cfs("-1\n", "100000\n"), 0, "no limit");
    cr_expect_eq(cbd_sys_cpus_from_cfs("300000\n", "100000\n"), 3);
    cr_expect_eq(cbd_sys_cpus_from_cfs("250000\n", "100000\n"), 3);
    cr_expect_eq(cbd_sys_cpus_from_cfs("1000\n", "100000\n"), 1);
    cr_expect_eq(cbd_sys_cpus_from_cfs("x\n", "100000\n"), 0);
}

Test(sysres, cgroup_v2_path_from_proc_self_cgroup) {
    char path[256];
    cr_expect_eq(cbd_sys_cgroup_v2_path("0::/\n", path, sizeof path), 1);
    cr_expect_str_eq(path, "/");
    cr_expect_eq(cbd_sys_cgroup_v2_path("0::/system.slice/docker-ab.scope\n", path, sizeof path),
                 29); /* "/system.slice" 13 + "/docker-ab.scope" 16 */
    cr_expect_str_eq(path, "/system.slice/docker-ab.scope");
    /* A hybrid v1 listing: the v2 line is the one with hierarchy 0 and no controllers. */
    static const char hybrid[] = "12:cpu,cpuacct:/kubepods/pod1\n1:name=systemd:/x\n0::/kube\n";
    cr_expect_eq(cbd_sys_cgroup_v2_path(hybrid, path, sizeof path), 5);
    cr_expect_str_eq(path, "/kube");
    cr_expect_eq(cbd_sys_cgroup_v2_path("12:cpu:/a\n", path, sizeof path), 0, "v1 only");
}

Test(sysres, the_connection_limit_fits_the_open_files) {
    /* Reserve: 32 + 3 per thread. 1024 open files, 2 threads: 1024 - 38 = 986. */
    cr_expect_eq(cbd_sys_fd_reserve(2), 38);
    cr_expect_eq(cbd_sys_fit_connections(1024, 4096, 2), 986);
    cr_expect_eq(cbd_sys_fit_connections(1048576, 4096, 8), 4096, "room to spare: unchanged");
    cr_expect_eq(cbd_sys_fit_connections(20, 4096, 2), 1, "never 0");
}

Test(sysres, this_process_gets_at_least_one_cpu) {
    const char *source = NULL;
    unsigned n = cbd_sys_cpu_count(&source);
    cr_expect_geq(n, 1);
    cr_expect_not_null(source);
}
