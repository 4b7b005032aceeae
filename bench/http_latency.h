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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "http/server.h"

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

/* Connects one keep-alive connection to 127.0.0.1:port, or exits. */
static inline int http_latency_connect(uint16_t port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        perror("connect");
        exit(1);
    }
    return fd;
}

/* POSTs `body` to `path` at 127.0.0.1:port n times and returns the latency percentiles; exits
 * on any error or on an answer other than 200, so a figure is never taken from error
 * responses. */
static inline http_latency http_latency_against(uint16_t port, const char *path, const char *body,
                                                long n) {
    int fd = http_latency_connect(port);
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
    return r;
}

/* combatd on an ephemeral port, as the service runs by default, without the access log. */
static inline http_latency http_latency_measure(const char *path, const char *body, long n) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cfg.server.port = 0;
    snprintf(cfg.server.bind, sizeof cfg.server.bind, "127.0.0.1");
    cfg.server.access_log = false;
    cfg.server.threads = 2;
    char err[256];
    cbd_server *server = cbd_server_start(&cfg.server, &cfg.api, err, sizeof err);
    if (!server) {
        fprintf(stderr, "server: %s\n", err);
        exit(1);
    }
    http_latency r = http_latency_against(cbd_server_port(server), path, body, n);
    cbd_server_stop(server);
    return r;
}

/*
 * The floor under every figure above: the same round trip against a server that does nothing
 * but answer, a blocking loop on one thread that reads a request (head + Content-Length body)
 * and writes a fixed answer of `answer_bytes`. It is the kernel's loopback and scheduler cost
 * of that day on that core, which no HTTP server can go below; on the shared machine it
 * changes from day to day, so a figure is read against the floor measured beside it.
 */
typedef struct {
    int listener;
    size_t answer_bytes;
} http_floor_server;

static inline void *http_floor_serve(void *arg) {
    const http_floor_server *f = arg;
    char head[128];
    int head_len = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n\r\n",
                            f->answer_bytes);
    size_t answer_len = (size_t)head_len + f->answer_bytes;
    char *answer = malloc(answer_len);
    static char buf[1 << 20];
    int fd = accept(f->listener, NULL, NULL);
    if (!answer || fd < 0) {
        exit(1);
    }
    memcpy(answer, head, (size_t)head_len);
    memset(answer + head_len, 'x', f->answer_bytes);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    size_t have = 0;
    for (;;) {
        ssize_t got = recv(fd, buf + have, sizeof buf - have - 1, 0);
        if (got <= 0) {
            break;
        }
        have += (size_t)got;
        buf[have] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        char *cl = end ? strcasestr(buf, "\r\nContent-Length:") : NULL;
        size_t need = end ? (size_t)(end + 4 - buf) + (cl ? strtoul(cl + 17, NULL, 10) : 0) : 0;
        if (!end || have < need) {
            continue;
        }
        if (send(fd, answer, answer_len, 0) != (ssize_t)answer_len) {
            break;
        }
        memmove(buf, buf + need, have - need);
        have -= need;
    }
    close(fd);
    free(answer);
    return NULL;
}

/* The floor for a request of `body` answered with `answer_bytes` (see above). */
static inline http_latency http_latency_floor(const char *body, size_t answer_bytes, long n) {
    http_floor_server f = {socket(AF_INET, SOCK_STREAM, 0), answer_bytes};
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    pthread_t t;
    if (f.listener < 0 || bind(f.listener, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        listen(f.listener, 1) != 0 ||
        getsockname(f.listener, (struct sockaddr *)&addr, &len) != 0 ||
        pthread_create(&t, NULL, http_floor_serve, &f) != 0) {
        perror("floor server");
        exit(1);
    }
    http_latency r = http_latency_against(ntohs(addr.sin_port), "/", body, n);
    pthread_join(t, NULL);
    close(f.listener);
    return r;
}

#endif
