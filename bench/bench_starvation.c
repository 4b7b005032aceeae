/*
 * Starvation: 64 connections from 127.0.0.1 send the most expensive
 * request the defaults allow (/simulate with 10,000,000 trials, about a second of one core)
 * again and again, re-sending at once when refused; meanwhile a client on 127.0.0.2 sends
 * GET /livez and a small POST /analyze-attack one after another on a keep-alive connection.
 * Prints that client's latencies (p50, p99, max) alone and under the flood, and what the
 * flood got (answers, 503s).
 *
 *     build/bench/bench_starvation [SECONDS=10] [ATTACKERS=64]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "raw_http.h"
#include "http/server.h"

static const char heavy[] = "{\"attackers\": 100, \"defenders\": 60, \"trials\": 10000000, "
                            "\"seed\": 1, \"settings\": {\"luck_modifier\": 0.16}}";
static const char small[] = "{\"attackers\": 12, \"defenders\": 8, \"settings\": "
                            "{\"luck_modifier\": 0.5}}";

static uint16_t port;
static atomic_bool stop;
static atomic_ulong answered, refused, failed;

/* One whole response; its status, or 0 on failure. A heavy answer may be seconds coming:
 * no timeout. */
static int read_response(int fd) {
    return raw_read_answer(fd, -1, NULL);
}

static bool send_request(int fd, const char *method, const char *path, const char *body) {
    return raw_send_request(fd, method, path, "application/json", body, false);
}

static void *attacker(void *arg) {
    (void)arg;
    int fd = -1;
    while (!atomic_load(&stop)) {
        if (fd < 0 && (fd = raw_connect_from(port, "127.0.0.1", 0)) < 0) {
            raw_sleep(0.01);
            continue;
        }
        int status = send_request(fd, "POST", "/simulate", heavy) ? read_response(fd) : 0;
        if (status == 200) {
            atomic_fetch_add(&answered, 1);
        } else if (status == 503) {
            atomic_fetch_add(&refused, 1);
        } else {
            atomic_fetch_add(&failed, 1);
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    return NULL;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *ms, size_t n) {
    qsort(ms, n, sizeof *ms, cmp);
    printf("  %-36s n=%-5zu p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", what, n, ms[n / 2],
           ms[n * 99 / 100], ms[n - 1]);
}

/* The other client's latencies for `seconds`: /livez and the small analysis in turn. */
static void measure(const char *label, double seconds) {
    enum { MAX = 100000 };
    static double livez[MAX], analyze[MAX];
    size_t nl = 0, na = 0;
    int fd = raw_connect_from(port, "127.0.0.2", 0);
    double end = raw_now() + seconds;
    while (fd >= 0 && raw_now() < end && na < MAX) {
        double t0 = raw_now();
        bool ok = send_request(fd, "GET", "/livez", NULL) && read_response(fd) == 200;
        double t1 = raw_now();
        ok = ok && send_request(fd, "POST", "/analyze-attack", small) && read_response(fd) == 200;
        double t2 = raw_now();
        if (!ok) {
            fprintf(stderr, "the other client's request failed\n");
            break;
        }
        livez[nl++] = (t1 - t0) * 1e3;
        analyze[na++] = (t2 - t1) * 1e3;
        raw_sleep(0.005);
    }
    if (fd >= 0) {
        close(fd);
    }
    printf("%s\n", label);
    if (nl > 0) {
        report("GET /livez from 127.0.0.2", livez, nl);
        report("small POST /analyze-attack from .2", analyze, na);
    }
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 10.0;
    int n = argc > 2 ? atoi(argv[2]) : 64;
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    snprintf(cfg.server.bind, sizeof cfg.server.bind, "127.0.0.1");
    cfg.server.port = 0;
    cfg.server.access_log = false;
    char err[256];
    cbd_server *s = cbd_server_start(&cfg.server, &cfg.api, err, sizeof err);
    if (!s) {
        fprintf(stderr, "bench_starvation: %s\n", err);
        return 1;
    }
    port = cbd_server_port(s);
    measure("alone:", seconds / 3);

    pthread_t *th = calloc((size_t)n, sizeof *th);
    for (int i = 0; i < n; i++) {
        pthread_create(&th[i], NULL, attacker, NULL);
    }
    raw_sleep(0.5); /* the flood is under way */
    measure("while 127.0.0.1 floods:", seconds);
    atomic_store(&stop, true);
    for (int i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
    }
    printf("the flood (%d connections from 127.0.0.1): %lu answered, %lu refused with 503, "
           "%lu failed\n",
           n, atomic_load(&answered), atomic_load(&refused), atomic_load(&failed));
    free(th);
    cbd_server_stop(s);
    return 0;
}
