/*
 * The speed limit of combatd's HTTP stack: a bare libmicrohttpd server built exactly as
 * src/http/server.c builds combatd's daemon (same flags: internal polling thread + epoll +
 * ITC, same thread-pool size rule, the same connection limits and timeouts from the same
 * config defaults) that answers every POST with a small fixed JSON body and does nothing else:
 * no parsing, no routing, no logging. bench/load.sh drives it and combatd with the same wrk
 * settings; combatd's requests/s as a fraction of this one is its overhead.
 *
 *   bare_server [--port N] [--threads N] [--body-bytes N] [--work-ns N] [--memory-limit N]
 *
 * (0 threads = one per online CPU, as combatd.) --body-bytes pads the answer to N bytes, so
 * the stack's limit can also be measured for answers as large as combatd's (700-900 bytes).
 * --work-ns spends N ns of CPU (a busy loop) on each answer: it shows which share of the bare
 * server's requests/s a given amount of per-request work leaves, e.g. what the goal of 0.8
 * allows combatd to spend on top of the stack (bench/load.sh, docs/performance.md "Load").
 * --memory-limit sets libmicrohttpd's memory per connection (MHD_OPTION_CONNECTION_MEMORY_LIMIT) to
 * N bytes instead of combatd's server.connection_memory_limit; 0 leaves libmicrohttpd's default (32
 * KiB), the option not passed at all, for the ratios against libmicrohttpd at its defaults.
 *
 * Prints {"event":"listening","port":N} on stderr and runs until SIGTERM or SIGINT.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <pthread.h>

#include "config/config.h"

static const char small_body[] = "{\"captured\":true,\"attackers_left\":7,\"defenders_left\":0}";

/* The answer: small_body, or a body padded to --body-bytes. Set once before the daemon starts. */
static const char *body = small_body;
static size_t body_len = sizeof small_body - 1;
/* Busy work per answer (--work-ns); 0 = none. Set once before the daemon starts. */
static long work_ns = 0;

static void spend_cpu(long ns) {
    struct timespec start, now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    do {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < ns);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls) {
    (void)cls;
    (void)url;
    (void)method;
    (void)version;
    (void)upload_data;
    if (*con_cls == NULL) {
        *con_cls = (void *)1; /* first call: headers only */
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0; /* drop the body */
        return MHD_YES;
    }
    if (work_ns > 0) {
        spend_cpu(work_ns);
    }
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(body_len, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        return MHD_NO;
    }
    enum MHD_Result rc =
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    if (rc == MHD_YES) {
        rc = MHD_queue_response(con, MHD_HTTP_OK, resp);
    }
    MHD_destroy_response(resp);
    return rc;
}

int main(int argc, char **argv) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg); /* the same limits and timeouts as combatd's defaults */
    unsigned port = 8081, threads = 0;
    size_t memory_limit = (size_t)cfg.server.connection_memory_limit;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--port") == 0) {
            port = (unsigned)strtoul(argv[i + 1], NULL, 10);
        } else if (strcmp(argv[i], "--threads") == 0) {
            threads = (unsigned)strtoul(argv[i + 1], NULL, 10);
        } else if (strcmp(argv[i], "--body-bytes") == 0) {
            size_t want = strtoul(argv[i + 1], NULL, 10);
            if (want > sizeof small_body + 16) {
                /* {"pad":"xxxx...x"}: valid JSON of exactly `want` bytes. */
                char *padded = malloc(want + 1);
                if (!padded) {
                    return 1;
                }
                memset(padded, 'x', want);
                memcpy(padded, "{\"pad\":\"", 8);
                memcpy(padded + want - 2, "\"}", 2);
                padded[want] = '\0';
                body = padded;
                body_len = want;
            }
        } else if (strcmp(argv[i], "--work-ns") == 0) {
            work_ns = strtol(argv[i + 1], NULL, 10);
        } else if (strcmp(argv[i], "--memory-limit") == 0) {
            memory_limit = strtoul(argv[i + 1], NULL, 10);
        } else {
            fprintf(stderr, "usage: bare_server [--port N] [--threads N] [--body-bytes N] "
                            "[--work-ns N] [--memory-limit N]\n");
            return 2;
        }
    }
    if (threads == 0) { /* src/http/server.c: pool_size() */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 1u;
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG;
    /* The memory limit last, so that 0 ends the options there and leaves MHD's default. */
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, on_request, NULL, MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, cfg.server.connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, cfg.server.per_ip_connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, cfg.server.connection_timeout,
        memory_limit ? MHD_OPTION_CONNECTION_MEMORY_LIMIT : MHD_OPTION_END, memory_limit,
        MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "bare_server: cannot listen on port %u\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    fprintf(stderr, "{\"event\":\"listening\",\"port\":%u,\"threads\":%u}\n",
            info ? info->port : port, threads);
    int sig;
    sigwait(&stop, &sig);
    MHD_stop_daemon(d);
    return 0;
}
