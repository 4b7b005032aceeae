#include "body.h"

#include <stdlib.h>
#include <string.h>

/* Most game requests are a few hundred bytes: start small, double as needed. 1000 bytes is the
 * most glibc serves from its per-thread cache without first consolidating its fast bins. */
#define BODY_INITIAL_CAP 1000

void cbd_body_init(cbd_body *b, size_t limit) {
    memset(b, 0, sizeof *b);
    b->limit = limit;
}

bool cbd_body_append(cbd_body *b, const char *data, size_t len) {
    b->seen += len;
    if (b->too_large || b->out_of_memory) {
        return false;
    }
    if (len > b->limit - b->len) {
        b->too_large = true;
        return false;
    }
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : BODY_INITIAL_CAP;
        while (cap < b->len + len) {
            cap *= 2;
        }
        if (cap > b->limit) {
            cap = b->limit;
        }
        char *grown = realloc(b->data, cap);
        if (!grown) {
            b->out_of_memory = true;
            return false;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return true;
}

void cbd_body_free(cbd_body *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
