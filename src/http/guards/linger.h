#ifndef COMBATD_HTTP_LINGER_H
#define COMBATD_HTTP_LINGER_H

#include <stddef.h>
#include <stdint.h>

/*
 * A bounded lingering close, as nginx's lingering_close. When combatd
 * answers early (413, 404, 415 while the body is still coming) and closes, the client's
 * unread bytes make the kernel reset the connection, and a client still sending may lose the
 * answer with it. Instead the socket's last reference is kept here after MHD is done with it:
 * its sending side is shut (the answer is followed by a FIN), and what the client still
 * sends is read and dropped until it closes, up to `max_bytes` or `max_us`, whichever comes
 * first; then it is closed. At most `max_sockets` linger at once; past that a socket is
 * closed at once, as without lingering.
 */
typedef struct cbd_linger cbd_linger;

/* Starts the lingering thread; NULL when it cannot. */
cbd_linger *cbd_linger_start(size_t max_bytes, uint64_t max_us, unsigned max_sockets);

/* Takes over `fd` (a descriptor of its own, e.g. from dup). */
void cbd_linger_add(cbd_linger *l, int fd);

/* Closes every lingering socket and stops the thread. */
void cbd_linger_stop(cbd_linger *l);

#endif
