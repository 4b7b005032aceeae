/* Heads that leave libmicrohttpd no room for the answer (head_room.h). */
#include "head_room.h"

#include <string.h>

static enum MHD_Result add_record(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value) {
    cbd_head_size *h = cls;
    h->records++;
    if (kind == MHD_HEADER_KIND) {
        /* "name: value\r\n" */
        h->bytes += (key ? strlen(key) : 0) + 2 + (value ? strlen(value) : 0) + 2;
    }
    return MHD_YES;
}

cbd_head_size cbd_head_size_of(struct MHD_Connection *con, const cbd_framing_uri *u,
                               const char *method, const char *version) {
    /* "METHOD target VERSION\r\n" ... "\r\n"; the raw target, before unescaping */
    cbd_head_size h = {strlen(method) + 1 + u->len + 1 + strlen(version) + 2 + 2, 0};
    (void)MHD_get_connection_values(con, MHD_HEADER_KIND | MHD_GET_ARGUMENT_KIND | MHD_COOKIE_KIND,
                                    add_record, &h);
    return h;
}

bool cbd_head_fits(cbd_head_size h, size_t pool) {
    if (pool < CBD_HEAD_RESERVE || h.bytes > pool - CBD_HEAD_RESERVE) {
        return false;
    }
    return h.bytes + h.records * CBD_HEAD_RECORD + CBD_ANSWER_ROOM <= pool;
}
