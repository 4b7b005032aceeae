#include "request_checks.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "combatd/rng.h"

static bool valid_request_id(const char *id) {
    size_t n = 0;
    for (; id[n]; n++) {
        char c = id[n];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || c == '.' || c == ':';
        if (!ok || n >= 64) {
            return false;
        }
    }
    return n > 0;
}

void cbd_http_set_request_id(struct MHD_Connection *con, cbd_answer *answer) {
    const char *given = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "X-Request-Id");
    if (given && valid_request_id(given)) {
        /* valid_request_id allows at most 64 bytes: it fits with its NUL. */
        memcpy(answer->request_id, given, strlen(given) + 1);
        return;
    }
    /* Ids must be unique, not secret: a per-thread splitmix64 stream seeded once from the OS
     * saves a getrandom(2) call on every request. */
    static _Thread_local uint64_t id_state;
    static _Thread_local bool id_seeded;
    if (!id_seeded) {
        if (getrandom(&id_state, sizeof id_state, GRND_NONBLOCK) != (ssize_t)sizeof id_state) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            id_state = ((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec) ^
                       (uint64_t)(uintptr_t)&id_state;
        }
        id_seeded = true;
    }
    uint64_t r = cbd_splitmix64_next(&id_state);
    /* 16 hex digits, as "%016" PRIx64 writes them. */
    static const char hex[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--, r >>= 4) {
        answer->request_id[i] = hex[r & 15u];
    }
    answer->request_id[16] = '\0';
}

bool cbd_http_is_json_content_type(const char *ct) {
    static const char json[] = "application/json";
    if (!ct || strncasecmp(ct, json, sizeof json - 1) != 0) {
        return false;
    }
    char next = ct[sizeof json - 1];
    return next == '\0' || next == ';' || next == ' ' || next == '\t';
}
