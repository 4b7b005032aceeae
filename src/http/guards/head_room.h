#ifndef COMBATD_HTTP_HEAD_ROOM_H
#define COMBATD_HTTP_HEAD_ROOM_H

/*
 * Whether a request's head leaves libmicrohttpd room for its answer. libmicrohttpd 0.9.75 keeps
 * a request's head (its request line and header fields, and a record of 64 bytes or so for each
 * field, query argument and cookie) in the connection's memory pool
 * (server.connection_memory_limit), and builds the answer's head in what is left. A head that
 * fits but leaves less than the answer's head needs is read, answered, and then closed without
 * a byte ("failed to create response header"): with a 16 KiB pool, a target or a field of
 * 15,840-16,040 bytes. combatd refuses such heads itself (431, written straight to the socket,
 * as libmicrohttpd's own 431 would need the same room): every head past the size the docs
 * promise (the pool less CBD_HEAD_RESERVE) or whose records leave less than CBD_ANSWER_ROOM.
 */
#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>

#include "http/guards/framing.h"

/* What a header section may not take of the pool (docs/security.md, "Limits"). */
#define CBD_HEAD_RESERVE 1024u
/* What the largest answer head combatd writes needs of the pool (about 400 bytes). */
#define CBD_ANSWER_ROOM 512u
/* What libmicrohttpd's record of one field, argument or cookie takes (56 bytes, aligned). */
#define CBD_HEAD_RECORD 64u

typedef struct {
    size_t bytes;   /* the head as sent: request line, fields, the blank line */
    size_t records; /* fields, query arguments and cookies */
} cbd_head_size;

/* The head of the request on `con` (at its first access-handler call). */
cbd_head_size cbd_head_size_of(struct MHD_Connection *con, const cbd_framing_uri *u,
                               const char *method, const char *version);

/* Whether a head of that size leaves the answer room in a pool of `pool` bytes. */
bool cbd_head_fits(cbd_head_size h, size_t pool);

#endif
