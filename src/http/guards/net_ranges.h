#ifndef COMBATD_API_NET_RANGES_H
#define COMBATD_API_NET_RANGES_H

/*
 * Addresses and CIDR ranges for trusted_proxies. Every address is kept as 16 bytes of IPv6,
 * an IPv4 address as its IPv4-mapped form (::ffff:a.b.c.d, prefix + 96), so that one matcher
 * serves both families and a peer seen on a dual-stack `::` socket as ::ffff:10.0.0.5 matches
 * the range 10.0.0.0/8.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sockaddr;

typedef struct {
    uint8_t addr[16];
    uint8_t prefix; /* 0..128 bits of addr that must match */
} cbd_net_range;

/* Longest text of an address (INET6_ADDRSTRLEN) with its NUL. */
#define CBD_NET_ADDR_TEXT 46

/* Parses an IPv4 or IPv6 address (no brackets, no zone, no port) of `len` bytes. */
bool cbd_net_addr_parse(const char *text, size_t len, uint8_t out[16]);

/* Parses "ADDR" (a single address: /32 or /128) or "ADDR/PREFIX". A prefix past the family's
 * width, or bits set past the prefix ("10.1.2.3/8": which network was meant?), is refused. */
bool cbd_net_range_parse(const char *text, size_t len, cbd_net_range *out);

bool cbd_net_range_contains(const cbd_net_range *r, const uint8_t addr[16]);

/* True when any of the n ranges contains addr. */
bool cbdp_net_ranges_contain(const cbd_net_range *r, size_t n, const uint8_t addr[16]);

/* The 16-byte form of a socket address (AF_INET or AF_INET6); false for other families. */
bool cbdp_net_addr_from_sockaddr(const struct sockaddr *sa, uint8_t out[16]);

/* The text of an address: dotted quad for an IPv4(-mapped) one, RFC 5952 text otherwise. */
void cbdp_net_addr_format(const uint8_t addr[16], char out[CBD_NET_ADDR_TEXT]);

/*
 * The client address a trusted proxy forwarded: X-Forwarded-For read from the right, each
 * entry appended by a proxy; trusted entries are skipped (proxies in front of proxies), and
 * the first untrusted one is the client. When every entry is trusted the leftmost is the
 * client; an entry that is not an address ends the walk, and the address to its right (or
 * the peer, when it is the last one) is the client, since what lies left of it cannot be
 * checked. Writes the text into out and returns true when the header named anyone.
 */
bool cbd_net_forwarded_client(const char *xff, const cbd_net_range *trusted, size_t n,
                              char out[CBD_NET_ADDR_TEXT]);

#endif
