#ifndef COMBATD_BENCH_HTTP_LATENCY_H
#define COMBATD_BENCH_HTTP_LATENCY_H

/*
 * The latency a game client sees: a real server on an ephemeral loopback port, one keep-alive
 * connection, one request at a time. Shared by the benchmarks (header-only, so each bench_*.c
 * stays one executable without a CMake edit).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server.h"

typedef struct {
    double median_us, p90_us, p99_us;
} http_latency;

static inline double http_latency_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline int http_latency_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Reads one response with a Content-Length body; returns its status, or -1. */
static inline int http_latency_read(int fd, char *buf, size_t size) {
    size_t used = 0;
    for (;;) {
        ssize_t got = recv(fd, buf + used, size - used - 1, 0);
        if (got <= 0) {
            return -1;
        }
        used += (size_t)got;
        buf[used] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        if (!end) {
            continue;
        }
        char *cl = strcasestr(buf, "\r\nContent-Length:");
        if (!cl || cl > end) {
            return -1;
        }
        size_t len = strtoul(cl + 17, NULL, 10);
        if (used >= (size_t)(end + 4 - buf) + len) {
            return atoi(buf + 9);
        }
    }
}

/* POSTs `body` to `path` n times and returns the latency percentiles; exits on any error or on
 * an answer other than 200, so a figure is never taken from error responses. */
static inline http_latency http_latency_measure(const char *path, const char *body, long n) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    cfg.server.port = 0;
    snprintf(cfg.server.bind, sizeof cfg.server.bind, "127.0.0.1");
    cfg.server.access_log = false;
    cfg.server.threads = 2;
    char err[256];
    cbd_server *server = cbd_server_start(&cfg, err, sizeof err);
    if (!server) {
        fprintf(stderr, "server: %s\n", err);
        exit(1);
    }
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(cbd_server_port(server))};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        perror("connect");
        exit(1);
    }
    /* Board requests run to tens of kilobytes, and their answers too. */
    size_t request_size = strlen(body) + strlen(path) + 256;
    char *request = malloc(request_size);
    int req_len = request ? snprintf(request, request_size,
                                     "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                     "Content-Type: application/json\r\nContent-Length: "
                                     "%zu\r\n\r\n%s",
                                     path, strlen(body), body)
                          : -1;
    if (req_len < 0 || (size_t)req_len >= request_size) {
        fprintf(stderr, "request too long\n");
        exit(1);
    }
    double *lat = malloc(sizeof *lat * (size_t)n);
    static char buf[1 << 20];
    for (long i = 0; lat && i < n; i++) {
        double t0 = http_latency_now_us();
        if (send(fd, request, (size_t)req_len, 0) != req_len ||
            http_latency_read(fd, buf, sizeof buf) != 200) {
            fprintf(stderr, "request %ld failed: %.200s\n", i, buf);
            exit(1);
        }
        lat[i] = http_latency_now_us() - t0;
    }
    if (!lat) {
        exit(1);
    }
    qsort(lat, (size_t)n, sizeof *lat, http_latency_cmp);
    http_latency r = {lat[n / 2], lat[n * 9 / 10], lat[n * 99 / 100]};
    free(lat);
    free(request);
    close(fd);
    cbd_server_stop(server);
    return r;
}

#endif
