#ifndef COMBATD_HTTP_BODY_H
#define COMBATD_HTTP_BODY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A request body buffer that grows geometrically up to a hard cap. Past the cap it stops
 * storing and remembers that the body was too large, so a chunked upload can be read to its
 * end and then answered 413 (a response may not be queued while upload data still flows).
 */
typedef struct {
    char *data;
    size_t len;
    size_t cap;
    size_t limit;
    size_t seen; /* every byte offered, stored or not */
    bool too_large;
    bool out_of_memory;
} cbd_body;

void cbd_body_init(cbd_body *b, size_t limit);

/* Appends; returns false once the body is over the limit or memory ran out. */
bool cbd_body_append(cbd_body *b, const char *data, size_t len);

void cbd_body_free(cbd_body *b);

#endif
