/*
 * Strict request framing (framing.h). How libmicrohttpd 0.9.75 lays a request out, which is
 * what this file relies on (src/microhttpd/connection.c at v0.9.75):
 *
 * - get_next_header_line() ends a line at CRLF or a bare LF and overwrites the terminator
 *   with one or two NULs, in place; nothing else moves.
 * - parse_initial_message_line() NUL-terminates the method at the first space, skips further
 *   spaces, finds the version from the end of the line, NUL-terminates the target before it,
 *   calls the URI log callback with the raw target, and only then cuts the query at '?' and
 *   unescapes in place (so the access handler's url has lost %00 and everything after it).
 * - process_header_line() NUL-terminates the name at the first ':' and skips SP/HT after it;
 *   the name keeps any whitespace before the colon ("Content-Length " is another header).
 *   A line ": x" NULs its own first byte, so after the first field it reads as the empty line
 *   that ends the section, and the rest of the section becomes the body or the next request.
 * - process_broken_line() appends an obs-fold line to the previous field's *name*, moving the
 *   name to a new block outside the section and zeroing the old one.
 * - MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE is the distance from the method to the end of the
 *   empty line, and the header list keeps pointers into that section, in wire order.
 *
 * So each field libmicrohttpd kept must start one or two NULs after the previous one ends,
 * with its value right after its name's NUL and optional whitespace, and the section must end
 * two to four NULs after the last value. Anything dropped, folded or cut leaves bytes that do
 * not fit, and is refused. Every read stays inside [method, method + header size).
 *
 * What this cannot see: a NUL right before a bare LF reads as a CRLF; such a line is a NUL in
 * a header, which nginx (and any RFC 9110 front end) refuses before it gets here.
 */
#include "framing.h" /* and through it microhttpd.h, for MHD_VERSION */

/* The layout above was read off libmicrohttpd 0.9.75 (MHD_VERSION 0x00097500) and checked by
 * tests/integration/test_framing.c and test_smuggling.c against that version only. Another
 * version may cut, fold or NUL-terminate differently, and this file would then refuse good
 * requests or, worse, let a smuggled one through: read its connection.c again, run those
 * tests, and widen the range here only then (CMakeLists.txt pins the same range). */
#if !defined(MHD_VERSION) || MHD_VERSION < 0x00097500 || MHD_VERSION >= 0x00097600
#error "framing.c is checked against libmicrohttpd 0.9.75 only; see the comment above"
#endif

#include <stdio.h>
#include <string.h>
#include <strings.h>

void cbd_framing_note_uri(cbd_framing_uri *u, const char *uri) {
    u->seen = uri != NULL;
    u->at = (uintptr_t)uri;
    u->len = uri ? strlen(uri) : 0;
    u->bad_octet = false;
    for (size_t i = 0; i < u->len; i++) {
        unsigned char c = (unsigned char)uri[i];
        /* %00 survives to the unescaper, which turns it into a NUL that cuts the path. */
        bool nul = c == '%' && uri[i + 1] == '0' && uri[i + 2] == '0';
        if (c <= 0x20 || c == 0x7f || nul) {
            u->bad_octet = true;
        }
    }
}

/* RFC 9110 section 5.6.2: tchar. */
static bool is_tchar(unsigned char c) {
    /* One bit a byte: the letters, the digits and !#$%&'*+-.^_`|~ (bytes 0-63, then 64-127;
     * none at or past 128). A test checks every byte against the RFC's list. */
    static const uint64_t tchar_bits[2] = {UINT64_C(0x03ff6cfa00000000),
                                           UINT64_C(0x57ffffffc7fffffe)};
    return c < 128 && (tchar_bits[c >> 6] >> (c & 63) & 1u) != 0;
}

static const unsigned char *bytes(uintptr_t p) {
    return (const unsigned char *)p;
}

/* True when [from, to) holds between min and max bytes, all NUL (line terminators). */
static bool nul_gap(uintptr_t from, uintptr_t to, size_t min, size_t max) {
    if (to < from || to - from < min || to - from > max) {
        return false;
    }
    for (uintptr_t p = from; p < to; p++) {
        if (*bytes(p) != '\0') {
            return false;
        }
    }
    return true;
}

typedef struct {
    uintptr_t end; /* one past the empty line that ends the header section */
    uintptr_t pos; /* one past the last value checked */
    unsigned line; /* field lines seen */
    unsigned content_lengths, transfer_encodings, hosts;
    bool length_digits, chunked;
    char *detail;
    size_t detail_size;
    bool failed;
} walk;

/* Printable ASCII only: the name goes into a JSON string, which must be valid UTF-8. */
static void printable(char *out, size_t size, const char *in, size_t len) {
    size_t n = 0;
    for (; n < len && n + 1 < size; n++) {
        unsigned char c = (unsigned char)in[n];
        out[n] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[n] = '\0';
}

static enum MHD_Result fail(walk *w, const char *key, size_t key_size, const char *why) {
    char name[40];
    printable(name, sizeof name, key ? key : "", key ? key_size : 0);
    snprintf(w->detail, w->detail_size, "Header field line %u (\"%s\"): %s", w->line, name, why);
    w->failed = true;
    return MHD_NO;
}

/* The value without trailing whitespace is exactly `want` (ASCII case-insensitive). */
static bool value_is(const char *value, size_t size, const char *want) {
    size_t n = strlen(want);
    return size == n && strncasecmp(value, want, n) == 0;
}

static bool all_digits(const char *value, size_t size) {
    for (size_t i = 0; i < size; i++) {
        if (value[i] < '0' || value[i] > '9') {
            return false;
        }
    }
    return size > 0;
}

static enum MHD_Result check_field(void *cls, enum MHD_ValueKind kind, const char *key,
                                   size_t key_size, const char *value, size_t value_size) {
    (void)kind;
    walk *w = cls;
    w->line++;
    uintptr_t k = (uintptr_t)key;
    uintptr_t v = (uintptr_t)value;
    /* Where the wire put it: after the previous line's terminator, inside the section. */
    if (k < w->pos || k >= w->end || !nul_gap(w->pos, k, 1, 2) || key_size >= w->end - k) {
        return fail(w, key, key_size,
                    "a field line may not be folded onto the next line (obs-fold) or hold a "
                    "NUL (RFC 9112 section 5.2)");
    }
    if (v < k + key_size + 1 || v > w->end || value_size >= w->end - v) {
        return fail(w, key, key_size, "the field is not laid out as name \":\" value");
    }
    for (uintptr_t p = k + key_size + 1; p < v; p++) {
        if (*bytes(p) != ' ' && *bytes(p) != '\t') {
            return fail(w, key, key_size, "the field is not laid out as name \":\" value");
        }
    }
    if (*bytes(v + value_size) != '\0') {
        return fail(w, key, key_size, "the value holds a NUL (RFC 9110 section 5.5)");
    }
    w->pos = v + value_size;
    if (key_size == 0) {
        return fail(w, key, key_size, "a field name may not be empty (RFC 9112 section 5.1)");
    }
    for (size_t i = 0; i < key_size; i++) {
        if (!is_tchar((unsigned char)key[i])) {
            return fail(w, key, key_size,
                        "a field name is a token, with no whitespace or control characters in "
                        "it or before the colon (RFC 9112 section 5.1)");
        }
    }
    for (size_t i = 0; i < value_size; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            return fail(w, key, key_size,
                        "a field value may not hold control characters (RFC 9110 section 5.5)");
        }
    }
    if (key_size == 14 && strncasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH, 14) == 0) {
        w->content_lengths++;
        w->length_digits = all_digits(value, value_size);
    } else if (key_size == 17 && strncasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING, 17) == 0) {
        w->transfer_encodings++;
        /* Exactly "chunked": libmicrohttpd decodes nothing else, not even "chunked ". */
        w->chunked = value_is(value, value_size, "chunked");
    } else if (key_size == 4 && strncasecmp(key, MHD_HTTP_HEADER_HOST, 4) == 0) {
        w->hosts++;
    }
    return MHD_YES;
}

/* The request line: method SP target SP version, each where libmicrohttpd left it. */
static const char *check_request_line(const cbd_framing_uri *u, const char *method,
                                      const char *version, uintptr_t end) {
    uintptr_t m = (uintptr_t)method;
    size_t method_len = strlen(method);
    for (size_t i = 0; i < method_len; i++) {
        if (!is_tchar((unsigned char)method[i])) {
            return "The method must be a token (RFC 9112 section 3).";
        }
    }
    if (!u->seen || method_len == 0 || u->at != m + method_len + 1 ||
        (uintptr_t)version != u->at + u->len + 1 || (uintptr_t)version >= end) {
        return "The request line must be method SP request-target SP HTTP-version, with one "
               "space each and no NUL in the target (RFC 9112 section 3).";
    }
    if (u->bad_octet) {
        return "The request-target may not hold %00, spaces or control characters (RFC 9112 "
               "section 3.2, RFC 3986).";
    }
    return NULL;
}

static unsigned refuse(char *detail, size_t size, const char *why) {
    snprintf(detail, size, "%s", why);
    return 400;
}

static unsigned check_framing(const walk *w, const char *method, const char *version, char *detail,
                              size_t size) {
    if (w->transfer_encodings > 1 || (w->transfer_encodings == 1 && !w->chunked)) {
        return refuse(detail, size,
                      "Send one Transfer-Encoding: chunked or none; no other coding is read "
                      "(RFC 9112 section 6.1).");
    }
    if (w->transfer_encodings > 0 && w->content_lengths > 0) {
        return refuse(detail, size,
                      "Send exactly one Content-Length, or one Transfer-Encoding: chunked "
                      "without Content-Length (RFC 9112 sections 6.1 and 6.3).");
    }
    if (w->content_lengths > 1 || (w->content_lengths == 1 && !w->length_digits)) {
        return refuse(detail, size,
                      "Send exactly one Content-Length, as decimal digits only (RFC 9112 "
                      "sections 6.2 and 6.3).");
    }
    bool http10 = strcmp(version, MHD_HTTP_VERSION_1_0) == 0;
    if (w->hosts > 1 || (w->hosts == 0 && !http10)) {
        return refuse(detail, size,
                      "Send exactly one Host header (RFC 9112 section 3.2; HTTP/1.0 may omit "
                      "it).");
    }
    if (strcmp(method, MHD_HTTP_METHOD_POST) == 0 && w->content_lengths == 0 &&
        w->transfer_encodings == 0) {
        /* RFC 9112 section 6.3 frames such a request with an empty body, so it is not
         * ambiguous; but a POST without a length is almost always a client that meant to
         * send a body, and RFC 9110 section 15.5.12 has the answer for it. */
        snprintf(detail, size,
                 "Send the body with a Content-Length or Transfer-Encoding: chunked (RFC 9110 "
                 "section 15.5.12, RFC 9112 section 6.3).");
        return 411;
    }
    return 0;
}

unsigned cbd_framing_check(struct MHD_Connection *con, const cbd_framing_uri *u, const char *method,
                           const char *version, char *detail, size_t detail_size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    uintptr_t start = (uintptr_t)method;
    if (!info || !method || !version || info->header_size > SIZE_MAX / 2 ||
        start + info->header_size < start) {
        return refuse(detail, detail_size, "The request head could not be checked.");
    }
    walk w = {.end = start + info->header_size, .detail = detail, .detail_size = detail_size};
    const char *bad = check_request_line(u, method, version, w.end);
    if (bad) {
        return refuse(detail, detail_size, bad);
    }
    w.pos = (uintptr_t)version + strlen(version);
    (void)MHD_get_connection_values_n(con, MHD_HEADER_KIND, check_field, &w);
    if (w.failed) {
        return 400;
    }
    if (!nul_gap(w.pos, w.end, 2, 4)) {
        /* The section ended early: a line ": x" or a NUL line, with more lines after it. */
        snprintf(detail, detail_size,
                 "A line after header field line %u is not a field line: a field name may not "
                 "be empty, and a line may not hold a NUL (RFC 9112 section 5.1).",
                 w.line);
        return 400;
    }
    return check_framing(&w, method, version, detail, detail_size);
}
