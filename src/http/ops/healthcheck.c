#include "healthcheck.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* The address to probe for a bind address: a wildcard means that family's loopback. */
static socklen_t probe_address(const char *bind, uint16_t port, struct sockaddr_storage *out) {
    memset(out, 0, sizeof *out);
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET, bind, &v4->sin_addr) == 1) {
        if (v4->sin_addr.s_addr == htonl(INADDR_ANY)) {
            v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        }
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        return sizeof *v4;
    }
    if (inet_pton(AF_INET6, bind, &v6->sin6_addr) == 1) {
        if (memcmp(&v6->sin6_addr, &in6addr_any, sizeof in6addr_any) == 0) {
            v6->sin6_addr = in6addr_loopback;
        }
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        return sizeof *v6;
    }
    return 0;
}

int cbd_healthcheck(const char *bind, uint16_t port) {
    struct sockaddr_storage addr;
    socklen_t len = probe_address(bind, port, &addr);
    if (len == 0 || port == 0) {
        return 1;
    }
    int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return 1;
    }
    struct timeval tv = {2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int rc = 1;
    static const char req[] = "GET /livez HTTP/1.0\r\nHost: localhost\r\n\r\n";
    char buf[64] = {0};
    if (connect(fd, (struct sockaddr *)&addr, len) == 0 &&
        send(fd, req, sizeof req - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof req - 1) &&
        recv(fd, buf, sizeof buf - 1, 0) > 12 && strncmp(buf, "HTTP/1.", 7) == 0 &&
        strncmp(buf + 9, "200", 3) == 0) {
        rc = 0;
    }
    close(fd);
    return rc;
}
