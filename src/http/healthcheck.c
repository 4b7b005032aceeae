#include "healthcheck.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int cbd_healthcheck(uint16_t port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        return 1;
    }
    struct timeval tv = {2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = 1;
    static const char req[] = "GET /livez HTTP/1.0\r\nHost: localhost\r\n\r\n";
    char buf[64] = {0};
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
        send(fd, req, sizeof req - 1, 0) == (ssize_t)(sizeof req - 1) &&
        recv(fd, buf, sizeof buf - 1, 0) > 12 && strncmp(buf, "HTTP/1.", 7) == 0 &&
        strncmp(buf + 9, "200", 3) == 0) {
        rc = 0;
    }
    close(fd);
    return rc;
}
