/*
 * Strict framing. Every request that an RFC 9112 parser would refuse or
 * frame differently gets exactly one 400 (411 for a POST without a length) and the connection
 * closed, so nothing after it is ever read as a request. Sent over raw sockets: libcurl will
 * not send most of these. The smuggling cases carry a 35-byte body that is itself a request
 * (`GET /SMUGGLED ...`): a server that lost the Content-Length answers it with a 404.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"
#include "raw_http.h"

TestSuite(framing, .init = test_suite_start, .fini = test_suite_stop);

typedef struct {
    int status;    /* of the first response */
    bool closed;   /* the server closed (EOF or reset) within the timeout */
    int responses; /* status lines "HTTP/1.1 NNN" seen */
    int others;    /* status lines whose code differs from the first one */
    char *text;
} exchange;

static exchange send_bytes(const char *request, size_t len) {
    exchange x = {0, false, 0, 0, NULL};
    int fd = raw_connect(test_port);
    cr_assert_geq(fd, 0);
    (void)raw_send(fd, request, len);
    x.text = raw_read_until_close(fd, 3.0, &x.closed, NULL);
    close(fd);
    x.status = raw_status(x.text);
    for (const char *p = x.text; p && (p = strstr(p, "HTTP/1.1 ")) != NULL; p++) {
        x.responses++;
        if (raw_status(p) != x.status) {
            x.others++;
        }
    }
    return x;
}

static exchange send_text(const char *request) {
    return send_bytes(request, strlen(request));
}

/* One combatd problem+json answer with `status`, then the connection closed. */
static void expect_one_answer(exchange x, int status) {
    cr_expect_eq(x.status, status, "got: %s", x.text);
    cr_expect(x.closed, "the connection stayed open: %s", x.text);
    cr_expect_eq(x.responses, 1, "more than one response: %s", x.text);
    cr_expect(strstr(x.text, "application/problem+json") != NULL, "%s", x.text);
    cr_expect(strstr(x.text, "Connection: close") != NULL, "%s", x.text);
    cr_expect(strstr(x.text, "SMUGGLED") == NULL, "the smuggled request was read: %s", x.text);
    free(x.text);
}

static void expect_refused(const char *request) {
    expect_one_answer(send_text(request), 400);
}

#define POST "POST /analyze-attack HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
/* 35 bytes: a complete request of its own if a server reads it as one. */
#define SMUGGLED "GET /SMUGGLED HTTP/1.1\r\nHost: x\r\n\r\n"

Test(framing, smuggled_body_is_35_bytes) {
    cr_assert_eq(strlen(SMUGGLED), 35u); /* the cases below rely on it */
}

/* A: libmicrohttpd keeps "Content-Length " as another header and frames no body. */
Test(framing, space_before_colon_is_refused) {
    expect_refused(POST "Content-Length : 35\r\n\r\n" SMUGGLED);
}

Test(framing, tab_before_colon_is_refused) {
    expect_refused(POST "Content-Length\t: 35\r\n\r\n" SMUGGLED);
}

/* B: the fold is glued onto the name ("Content-Length35"), so no length is framed. */
Test(framing, obs_fold_is_refused) {
    expect_refused(POST "Content-Length:\r\n 35\r\n\r\n" SMUGGLED);
}

Test(framing, obs_fold_of_another_field_is_refused) {
    expect_refused(POST "X-Note: a\r\n\tb\r\nContent-Length: 35\r\n\r\n" SMUGGLED);
}

/* C: ": x" ends libmicrohttpd's header section; the Content-Length after it is lost. */
Test(framing, empty_field_name_is_refused) {
    expect_refused(POST ": x\r\nContent-Length: 35\r\n\r\n" SMUGGLED);
}

Test(framing, empty_field_name_as_first_field_is_refused) {
    expect_refused("POST /analyze-attack HTTP/1.1\r\n: x\r\nHost: x\r\n"
                   "Content-Type: application/json\r\nContent-Length: 35\r\n\r\n" SMUGGLED);
}

Test(framing, whitespace_before_first_field_is_refused) {
    expect_refused("POST /analyze-attack HTTP/1.1\r\n Host: x\r\nContent-Type: application/json\r\n"
                   "Content-Length: 35\r\n\r\n" SMUGGLED);
}

Test(framing, transfer_encoding_with_space_before_colon_and_length_is_refused) {
    expect_refused(POST "Transfer-Encoding : chunked\r\nContent-Length: 35\r\n\r\n" SMUGGLED);
}

Test(framing, control_character_in_name_is_refused) {
    expect_refused(POST "X-A\x01: b\r\nContent-Length: 2\r\n\r\n{}");
}

Test(framing, control_character_in_value_is_refused) {
    expect_refused(POST "X-A: b\x7f\r\nContent-Length: 2\r\n\r\n{}");
}

Test(framing, bare_cr_in_value_is_refused) {
    expect_refused(POST "X-A: b\rContent-Length: 35\r\n\r\n" SMUGGLED);
}

static const char nul_in_value[] = POST "X-A: b\0c\r\nContent-Length: 2\r\n\r\n{}";

Test(framing, nul_in_value_is_refused) {
    expect_one_answer(send_bytes(nul_in_value, sizeof nul_in_value - 1), 400);
}

/* ---- the target ---- */

Test(framing, percent_00_in_a_get_target_is_refused) {
    expect_refused("GET /metrics%00.css HTTP/1.1\r\nHost: x\r\n\r\n");
}

Test(framing, percent_00_in_a_post_target_is_refused) {
    expect_refused("POST /analyze-attack%00/x HTTP/1.1\r\nHost: x\r\n"
                   "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
}

Test(framing, percent_00_in_the_query_is_refused) {
    expect_refused("GET /livez?a=%00 HTTP/1.1\r\nHost: x\r\n\r\n");
}

static const char nul_in_target[] = "GET /metrics\0.css HTTP/1.1\r\nHost: x\r\n\r\n";

Test(framing, raw_nul_in_the_target_is_refused) {
    expect_one_answer(send_bytes(nul_in_target, sizeof nul_in_target - 1), 400);
}

Test(framing, space_in_the_target_is_refused) {
    expect_refused("GET /livez x HTTP/1.1\r\nHost: x\r\n\r\n");
}

Test(framing, two_spaces_in_the_request_line_are_refused) {
    expect_refused("GET  /livez HTTP/1.1\r\nHost: x\r\n\r\n");
}

/* ---- Host (RFC 9112 section 3.2) ---- */

Test(framing, http11_without_host_is_refused) {
    expect_refused("GET /livez HTTP/1.1\r\n\r\n");
}

Test(framing, two_hosts_are_refused) {
    expect_refused("GET /livez HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n");
}

Test(framing, two_hosts_on_http10_are_refused) {
    expect_refused("GET /livez HTTP/1.0\r\nHost: x\r\nhost: x\r\n\r\n");
}

Test(framing, http10_without_host_is_served) {
    exchange x = send_text("GET /livez HTTP/1.0\r\n\r\n");
    cr_expect_eq(x.status, 200, "%s", x.text);
    cr_expect(strstr(x.text, "{\"status\":\"ok\"}") != NULL, "%s", x.text);
    free(x.text);
}

/* ---- lengths ---- */

Test(framing, post_without_length_is_411) {
    expect_one_answer(send_text(POST "\r\n" SMUGGLED), 411);
}

/*
 * A Content-Length that is not 1*DIGIT is refused by libmicrohttpd itself, before combatd
 * sees the request: one 400 (text/html, not problem+json), then the connection closed, and
 * nothing of the body answered. libmicrohttpd 0.9.75 writes that answer's status line and
 * header block twice (the second copy lands inside its declared body); docs/api/errors.md says so.
 */
static void expect_library_refusal(const char *request) {
    exchange x = send_text(request);
    cr_expect_eq(x.status, 400, "%s", x.text);
    cr_expect(x.closed, "the connection stayed open: %s", x.text);
    cr_expect_eq(x.others, 0, "another status followed the 400: %s", x.text);
    cr_expect(strstr(x.text, "Content-Length</b>") != NULL, "%s", x.text);
    cr_expect(strstr(x.text, "SMUGGLED") == NULL, "%s", x.text);
    free(x.text);
}

Test(framing, signed_content_length_is_refused) {
    expect_library_refusal(POST "Content-Length: +35\r\n\r\n" SMUGGLED);
}

Test(framing, content_length_list_is_refused) {
    expect_library_refusal(POST "Content-Length: 35, 35\r\n\r\n" SMUGGLED);
}

Test(framing, hex_content_length_is_refused) {
    expect_library_refusal(POST "Content-Length: 0x23\r\n\r\n" SMUGGLED);
}

/* ---- controls: what a strict parser accepts stays accepted ---- */

static void expect_livez_twice(const char *two_requests) {
    exchange x = send_text(two_requests);
    cr_expect_eq(x.status, 200, "%s", x.text);
    cr_expect_eq(x.responses, 2, "%s", x.text);
    cr_expect_eq(x.others, 0, "%s", x.text);
    free(x.text);
}

Test(framing, pipelined_requests_are_both_served) {
    expect_livez_twice("GET /livez HTTP/1.1\r\nHost: x\r\n\r\n"
                       "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
}

Test(framing, optional_whitespace_and_bare_lf_are_accepted) {
    /* RFC 9112 section 2.2 lets a recipient take a bare LF as a line end; OWS around values
     * (a tab, trailing spaces) is part of the grammar (RFC 9110 section 5.6.3). */
    expect_livez_twice("GET /livez HTTP/1.1\nHost:\tx  \nX-Empty:\n\n"
                       "GET /livez HTTP/1.1\r\nhost:x\r\nConnection: close\r\n\r\n");
}

Test(framing, one_length_frames_the_body) {
    exchange x = send_text(POST "Content-Length: 1\r\nConnection: close\r\n\r\n{");
    cr_expect_eq(x.status, 400, "%s", x.text);
    cr_expect(strstr(x.text, "not valid JSON") != NULL, "read as a body: %s", x.text);
    free(x.text);
}

/* RFC 9110 section 5.6.2: a field name is a token, and every byte outside tchar in one is a
 * 400 (': ' ends the name, CR and LF the line: those are not tried). */
Test(framing, field_names_are_tokens_byte_by_byte) {
    static const char tchar[] = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int c = 1; c < 256; c++) {
        if (c == ':' || c == '\r' || c == '\n') {
            continue;
        }
        char req[128];
        int n =
            snprintf(req, sizeof req,
                     "GET /livez HTTP/1.1\r\nHost: x\r\nX%cY: 1\r\nConnection: close\r\n\r\n", c);
        exchange x = send_bytes(req, (size_t)n);
        bool token = strchr(tchar, c) != NULL;
        cr_expect_eq(x.status, token ? 200 : 400, "byte 0x%02x in a field name: %.200s", c, x.text);
        free(x.text);
    }
}

/* The built-in limits the tests below are about: libmicrohttpd's memory per connection, which
 * holds a request's head, and the body's limit. */
static cbd_server_config defaults(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    return cfg.server;
}

/* The largest header section the service promises to read (docs/security.md, "Limits"): the memory
 * per connection less what libmicrohttpd keeps for itself and the answer's head. */
#define HEAD_RESERVE 1024u

/* A request whose header section is exactly `head` bytes, an X-Pad field making up the rest, and
 * whose body is `body_len` bytes of valid JSON (a small analysis padded with spaces); chunked
 * in 4000-byte chunks when asked. malloc'd, its length in *len. */
static char *request_of_size(size_t head, size_t body_len, bool chunked, size_t *len) {
    static const char json[] =
        "{\"attackers\":10,\"defenders\":5,\"settings\":{\"luck_modifier\":0}}";
    char *body = malloc(body_len + 1);
    cr_assert(body && body_len >= sizeof json - 1);
    memcpy(body, json, sizeof json - 1);
    memset(body + sizeof json - 1, ' ', body_len - (sizeof json - 1));
    char fields[200];
    int nf = chunked ? snprintf(fields, sizeof fields, "Transfer-Encoding: chunked\r\n")
                     : snprintf(fields, sizeof fields, "Content-Length: %zu\r\n", body_len);
    static const char start[] = "POST /analyze-attack HTTP/1.1\r\nHost: x\r\n"
                                "Content-Type: application/json\r\nConnection: close\r\n"
                                "X-Pad: ";
    size_t fixed = sizeof start - 1 + (size_t)nf + strlen("\r\n\r\n");
    cr_assert_gt(head, fixed);
    size_t pad = head - fixed;
    char *req = malloc(head + body_len + body_len / 4000 * 12 + 64);
    cr_assert(req);
    size_t n = 0;
    memcpy(req, start, sizeof start - 1);
    n += sizeof start - 1;
    memset(req + n, 'a', pad);
    n += pad;
    n += (size_t)sprintf(req + n, "\r\n%s\r\n", fields);
    cr_assert_eq(n, head, "the header section is %zu bytes", n);
    for (size_t at = 0; at < body_len; at += chunked ? 4000 : body_len) {
        size_t piece = chunked && body_len - at > 4000 ? 4000 : body_len - at;
        if (chunked) {
            n += (size_t)sprintf(req + n, "%zx\r\n", piece);
        }
        memcpy(req + n, body + at, piece);
        n += piece;
        if (chunked) {
            n += (size_t)sprintf(req + n, "\r\n");
        }
    }
    if (chunked) {
        n += (size_t)sprintf(req + n, "0\r\n\r\n");
    }
    free(body);
    *len = n;
    return req;
}

/* The largest legal request is served: a header section of the memory per connection less
 * HEAD_RESERVE and a body of exactly the body limit, framed by its length or chunked (the body
 * goes to a buffer of its own, guards/body.c, not to libmicrohttpd's pool). */
Test(framing, largest_legal_request_is_served) {
    cbd_server_config s = defaults();
    for (int chunked = 0; chunked <= 1; chunked++) {
        size_t len;
        char *req = request_of_size((size_t)s.connection_memory_limit - HEAD_RESERVE,
                                    (size_t)s.body_limit, chunked, &len);
        exchange x = send_bytes(req, len);
        cr_expect_eq(x.status, 200, "%s: %.300s", chunked ? "chunked" : "Content-Length", x.text);
        cr_expect(x.text && strstr(x.text, "\"captured\":true"), "%.300s", x.text);
        free(x.text);
        free(req);
    }
}

/* A header section as large as the whole memory per connection is refused by libmicrohttpd
 * (431), whatever the body. */
Test(framing, header_section_past_the_connection_memory_is_refused) {
    cbd_server_config s = defaults();
    size_t len;
    char *req = request_of_size((size_t)s.connection_memory_limit, 100, false, &len);
    exchange x = send_bytes(req, len);
    cr_expect_eq(x.status, 431, "%.300s", x.text);
    free(x.text);
    free(req);
}

/*
 * Every head is answered, whatever its size: libmicrohttpd 0.9.75 reads a head that nearly fills
 * the connection's memory and then has no room to build the answer's head, and closes without a
 * byte (with the default 16 KiB, a target or a field of 15,840-16,040 bytes). combatd answers
 * those 431 itself (src/http/guards/head_room.c). Heads of 15,000 to 16,320 bytes, by a long
 * query or by a long field, 20 bytes apart: each gets a status line; up to the promised header
 * section (the memory less HEAD_RESERVE) a 200, past it a 431. (A request line within some 60
 * bytes of the whole pool is libmicrohttpd's to refuse, before combatd sees the request, and it
 * closes those without an answer: docs/security.md, "Limits".)
 */
Test(framing, every_head_size_gets_an_answer) {
    cbd_server_config s = defaults();
    size_t promised = (size_t)s.connection_memory_limit - HEAD_RESERVE;
    char *req = malloc(20000);
    cr_assert_not_null(req);
    for (int by_field = 0; by_field <= 1; by_field++) {
        int silent = 0, ok = 0, refused = 0;
        for (size_t head = 15000; head <= 16320; head += 20) {
            /* "GET /livez?x=" pad " HTTP/1.1", Host, Connection: close; or the pad in X-Pad */
            const char *line =
                by_field ? "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: "
                         : "GET /livez?x=";
            const char *rest =
                by_field ? "\r\n\r\n" : " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            size_t fixed = strlen(line) + strlen(rest), pad = head - fixed;
            int n = sprintf(req, "%s", line);
            memset(req + n, 'a', pad);
            sprintf(req + (size_t)n + pad, "%s", rest);
            cr_assert_eq(strlen(req), head);
            exchange x = send_bytes(req, head);
            silent += x.status == 0;
            if (head <= promised) {
                ok += x.status == 200;
                cr_expect_eq(x.status, 200, "a head of %zu bytes: %.200s", head, x.text);
            } else {
                refused += x.status == 431;
                cr_expect_eq(x.status, 431, "a head of %zu bytes: %.200s", head, x.text);
            }
            free(x.text);
        }
        cr_expect_eq(silent, 0, "%s: heads answered with nothing", by_field ? "field" : "query");
        cr_expect_eq(ok, (int)((promised - 15000) / 20 + 1));
        cr_expect_eq(ok + refused, 67);
    }
    free(req);
}

/* A header section larger than libmicrohttpd's first read buffer (half the memory per
 * connection) makes it grow the buffer while it parses; the check must still find every field
 * in place. */
Test(framing, large_header_section_is_accepted) {
    size_t pad = (size_t)defaults().connection_memory_limit * 3 / 4;
    char *req = malloc(pad + 200);
    cr_assert(req);
    int n = sprintf(req, "GET /livez HTTP/1.1\r\nHost: x\r\nX-Pad: ");
    memset(req + n, 'a', pad);
    strcpy(req + (size_t)n + pad, "\r\nX-After: 1\r\nConnection: close\r\n\r\n");
    exchange x = send_text(req);
    cr_expect_eq(x.status, 200, "%.300s", x.text);
    free(x.text);
    free(req);
}
