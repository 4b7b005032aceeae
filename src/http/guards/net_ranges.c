/* Addresses and CIDR ranges (net_ranges.h). */
#include "net_ranges.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static const uint8_t V4_MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* Copies `len` bytes into a NUL-terminated buffer, or false when they do not fit or hold a
 * NUL (a hostile header must not be cut short silently). */
static bool copy_text(const char *text, size_t len, char *buf, size_t size) {
    if (len == 0 || len >= size || memchr(text, '\0', len)) {
        return false;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    return true;
}

static bool parse_addr_family(const char *text, size_t len, uint8_t out[16], bool *v4) {
    char buf[CBD_NET_ADDR_TEXT];
    if (!copy_text(text, len, buf, sizeof buf)) {
        return false;
    }
    struct in_addr a4;
    if (inet_pton(AF_INET, buf, &a4) == 1) {
        memcpy(out, V4_MAPPED, 12);
        memcpy(out + 12, &a4, 4);
        *v4 = true;
        return true;
    }
    *v4 = false;
    return inet_pton(AF_INET6, buf, out) == 1;
}

bool cbd_net_addr_parse(const char *text, size_t len, uint8_t out[16]) {
    bool v4;
    return parse_addr_family(text, len, out, &v4);
}

static bool parse_prefix(const char *p, size_t len, unsigned max, unsigned *out) {
    if (len == 0 || len > 3 || (len > 1 && p[0] == '0')) {
        return false;
    }
    unsigned v = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return false;
        }
        v = v * 10 + (unsigned)(p[i] - '0');
    }
    *out = v;
    return v <= max;
}

bool cbd_net_range_parse(const char *text, size_t len, cbd_net_range *out) {
    const char *slash = memchr(text, '/', len);
    size_t addr_len = slash ? (size_t)(slash - text) : len;
    bool v4;
    if (!parse_addr_family(text, addr_len, out->addr, &v4)) {
        return false;
    }
    unsigned bits = v4 ? 32u : 128u;
    if (slash && !parse_prefix(slash + 1, len - addr_len - 1, bits, &bits)) {
        return false;
    }
    out->prefix = (uint8_t)(v4 ? bits + 96u : bits);
    /* No bits may be set past the prefix. */
    for (unsigned i = out->prefix; i < 128; i++) {
        if (out->addr[i / 8] & (0x80u >> (i % 8))) {
            return false;
        }
    }
    return true;
}

bool cbd_net_range_contains(const cbd_net_range *r, const uint8_t addr[16]) {
    unsigned whole = r->prefix / 8u, rest = r->prefix % 8u;
    if (memcmp(r->addr, addr, whole) != 0) {
        return false;
    }
    if (rest == 0) {
        return true;
    }
    uint8_t mask = (uint8_t)(0xffu << (8u - rest));
    return (r->addr[whole] & mask) == (addr[whole] & mask);
}

bool cbdp_net_ranges_contain(const cbd_net_range *r, size_t n, const uint8_t addr[16]) {
    for (size_t i = 0; i < n; i++) {
        if (cbd_net_range_contains(&r[i], addr)) {
            return true;
        }
    }
    return false;
}

bool cbdp_net_addr_from_sockaddr(const struct sockaddr *sa, uint8_t out[16]) {
    if (!sa) {
        return false;
    }
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)(const void *)sa;
        memcpy(out, V4_MAPPED, 12);
        memcpy(out + 12, &v4->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)(const void *)sa;
        memcpy(out, &v6->sin6_addr, 16);
        return true;
    }
    return false;
}

void cbdp_net_addr_format(const uint8_t addr[16], char out[CBD_NET_ADDR_TEXT]) {
    const char *ok = memcmp(addr, V4_MAPPED, 12) == 0
                         ? inet_ntop(AF_INET, addr + 12, out, CBD_NET_ADDR_TEXT)
                         : inet_ntop(AF_INET6, addr, out, CBD_NET_ADDR_TEXT);
    if (!ok) {
        snprintf(out, CBD_NET_ADDR_TEXT, "-");
    }
}

static bool is_space(char c) {
    return c == ' ' || c == '\t';
}

bool cbd_net_forwarded_client(const char *xff, const cbd_net_range *trusted, size_t n,
                              char out[CBD_NET_ADDR_TEXT]) {
    if (!xff) {
        return false;
    }
    bool found = false;
    uint8_t addr[16];
    size_t end = strlen(xff);
    for (;;) {
        size_t start = end;
        while (start > 0 && xff[start - 1] != ',') {
            start--;
        }
        size_t a = start, b = end;
        while (a < b && is_space(xff[a])) {
            a++;
        }
        while (b > a && is_space(xff[b - 1])) {
            b--;
        }
        if (!cbd_net_addr_parse(xff + a, b - a, addr)) {
            return found; /* the entry to its right, if any, was written last */
        }
        cbdp_net_addr_format(addr, out);
        found = true;
        if (!cbdp_net_ranges_contain(trusted, n, addr) || start == 0) {
            return true;
        }
        end = start - 1;
    }
}
