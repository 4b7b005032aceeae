/*
 * Raw TCP helpers for the tests that must send what libcurl refuses to (two Content-Length
 * headers, a request trickled a byte at a time, idle sockets). Header-only so that the
 * integration tests, the TSan program and the benches can share it without a build edit.
 */
#ifndef COMBATD_TEST_RAW_HTTP_H
#define COMBATD_TEST_RAW_HTTP_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static inline double raw_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void raw_sleep(double seconds) {
    struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/*
 * A blocking TCP connection to 127.0.0.1:port, or -1; from a chosen loopback source address
 * when `source` is not NULL ("127.0.0.2": a second client address, as the per-client limits
 * see it), with a receive buffer of `rcvbuf` bytes when not 0 (a client that reads nothing
 * then holds the server's answer in the server's send queue).
 */
static inline int raw_connect_from(uint16_t port, const char *source, int rcvbuf) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    if (rcvbuf > 0) {
        (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    }
    if (source && (inet_pton(AF_INET, source, &a.sin_addr) != 1 ||
                   bind(fd, (struct sockaddr *)&a, sizeof a) != 0)) {
        close(fd);
        return -1;
    }
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static inline int raw_connect(uint16_t port) {
    return raw_connect_from(port, NULL, 0);
}

/* Sends everything; false when the peer has gone (no SIGPIPE). */
static inline bool raw_send(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static inline bool raw_send_str(int fd, const char *s) {
    return raw_send(fd, s, strlen(s));
}

/*
 * Sends one request with a body (NULL: none): a Content-Type header when content_type is not
 * NULL, Content-Length always, Connection: close when close_after. False when the peer has
 * gone.
 */
static inline bool raw_send_request(int fd, const char *method, const char *path,
                                    const char *content_type, const char *body, bool close_after) {
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: t\r\n%s%s%sContent-Length: %zu\r\n%s\r\n", method,
                     path, content_type ? "Content-Type: " : "", content_type ? content_type : "",
                     content_type ? "\r\n" : "", body ? strlen(body) : 0,
                     close_after ? "Connection: close\r\n" : "");
    if (n < 0 || (size_t)n >= sizeof head) {
        return false;
    }
    return raw_send(fd, head, (size_t)n) && (!body || raw_send_str(fd, body));
}

/*
 * Reads until the peer closes or `timeout` seconds pass. Returns the bytes read (NUL-
 * terminated, malloc'd) and sets *closed when the peer closed (EOF or reset).
 */
static inline char *raw_read_until_close(int fd, double timeout, bool *closed, size_t *out_len) {
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    *closed = false;
    double end = raw_now() + timeout;
    while (buf) {
        double left = end - raw_now();
        if (left <= 0) {
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int rc = poll(&p, 1, (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR) {
            continue;
        }
        if (rc <= 0) {
            break;
        }
        if (len + 1024 > cap) {
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                break;
            }
            buf = grown;
            cap *= 2;
        }
        ssize_t n = recv(fd, buf + len, cap - len - 1, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            *closed = true;
            break;
        }
        len += (size_t)n;
    }
    if (buf) {
        buf[len] = '\0';
    }
    if (out_len) {
        *out_len = len;
    }
    return buf;
}

/* The answer on fd, read until the server closes (timeout seconds at most); fd is closed. */
static inline char *raw_answer_of(int fd, double timeout) {
    bool closed;
    char *got = raw_read_until_close(fd, timeout, &closed, NULL);
    close(fd);
    return got;
}

/* True when the peer has closed the connection (a zero-timeout check that consumes data). */
static inline bool raw_peer_closed(int fd) {
    char buf[4096];
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0) {
            return false;
        }
        ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
            return true;
        }
        if (n < 0) {
            return false;
        }
    }
}

/* The status code of the first response in `text`, or 0. */
static inline int raw_status(const char *text) {
    int status = 0;
    if (!text || sscanf(text, "HTTP/1.%*d %d", &status) != 1) {
        return 0;
    }
    return status;
}

/*
 * Reads one whole answer on a keep-alive connection: the header block, then its Content-Length
 * bytes of body, which are dropped. Each wait for data gives up after `timeout_ms` (-1: never).
 * Returns the status, or 0 when the connection ended or went quiet before a whole answer;
 * sets *close_after (when not NULL) to whether the answer said Connection: close.
 */
static inline int raw_read_answer(int fd, int timeout_ms, bool *close_after) {
    char buf[16384];
    size_t len = 0;
    char *end = NULL;
    while (!end) {
        struct pollfd p = {fd, POLLIN, 0};
        if (len + 1 >= sizeof buf || poll(&p, 1, timeout_ms) <= 0) {
            return 0;
        }
        ssize_t n = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        if (n <= 0) {
            return 0;
        }
        len += (size_t)n;
        buf[len] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    *end = '\0';
    const char *cl = strcasestr(buf, "\r\nContent-Length:");
    size_t want = cl ? strtoul(cl + 17, NULL, 10) : 0, have = len - (size_t)(end + 4 - buf);
    if (close_after) {
        *close_after = strcasestr(buf, "\r\nConnection: close") != NULL;
    }
    int status = raw_status(buf);
    while (have < want) {
        struct pollfd p = {fd, POLLIN, 0};
        size_t ask = want - have < sizeof buf ? want - have : sizeof buf;
        if (poll(&p, 1, timeout_ms) <= 0) {
            return 0;
        }
        ssize_t n = recv(fd, buf, ask, 0);
        if (n <= 0) {
            return 0;
        }
        have += (size_t)n;
    }
    return status;
}

/* The value of a metric without labels (`name` as in "combatd_requests_in_flight") from the
 * server's GET /metrics on a connection of its own, or -1. */
static inline long raw_metric(uint16_t port, const char *name) {
    int fd = raw_connect(port);
    if (fd < 0 || !raw_send_request(fd, "GET", "/metrics", NULL, NULL, true)) {
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    char *text = raw_answer_of(fd, 60.0);
    char needle[128];
    snprintf(needle, sizeof needle, "\n%s ", name);
    const char *at = text ? strstr(text, needle) : NULL;
    long value = at ? strtol(at + strlen(needle), NULL, 10) : -1;
    free(text);
    return value;
}

/*
 * Waits until the server counts `n` requests in flight beside the /metrics request that asks,
 * looking every 5 ms for up to `seconds`; the count last seen. A request is counted at its
 * request line, and one whose head and body came in one segment is routed (to the worker
 * pool's queue, say) in the same pass: this orders what a test sends next after it, where a
 * pause would only make that likely.
 */
static inline long raw_wait_in_flight(uint16_t port, long n, double seconds) {
    double end = raw_now() + seconds;
    long seen = raw_metric(port, "combatd_requests_in_flight") - 1;
    while (seen < n && raw_now() < end) {
        raw_sleep(0.005);
        seen = raw_metric(port, "combatd_requests_in_flight") - 1;
    }
    return seen;
}

#endif
