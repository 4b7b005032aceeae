/*
 * A tour of bad input: more than 50 distinct bad requests, each of which must
 * get the right 4xx as an RFC 9457 problem+json (status member equal to the HTTP status, a
 * detail, an errors array; 422s name the field by JSON pointer), and after each the service
 * must still answer /livez.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "http_client.h"
#include "raw_http.h"

typedef enum {
    BODY_LITERAL,    /* body/len as given */
    BODY_DEEP_ARRAY, /* [[[[...]]]] nested 30,000 deep (60 KB, under the 64 KiB limit; jansson stops
                        at 2048) */
    BODY_DEEP_OBJECT /* {"a":{"a":...}} nested 5,000 deep */
} body_kind;

typedef struct {
    const char *name;
    const char *method;
    const char *path;
    const char *content_type; /* NULL: no Content-Type header */
    const char *body;
    size_t len; /* 0: strlen(body) */
    body_kind kind;
    int status;
    const char *pointer; /* for 422: a pointer that must be among `errors` */
} bad_case;

#define JSON "application/json"
#define AA   "/analyze-attack"
#define SIM  "/simulate"
#define DUP  "/duper/battle"
#define POST(name, path, body, status)                                                             \
    { name, "POST", path, JSON, body, 0, BODY_LITERAL, status, NULL }
#define BYTES(name, body, status)                                                                  \
    { name, "POST", AA, JSON, body, sizeof body - 1, BODY_LITERAL, status, NULL }
#define FIELD(name, path, body, pointer)                                                           \
    { name, "POST", path, JSON, body, 0, BODY_LITERAL, 422, pointer }

static bad_case cases[] = {
    /* ---- truncated and malformed JSON: 400 naming line and column ---- */
    POST("empty body", AA, "", 400),
    POST("only whitespace", AA, "  \n\t ", 400),
    POST("lone brace", AA, "{", 400),
    POST("truncated after key", AA, "{\"attackers\":", 400),
    POST("truncated after value", AA, "{\"attackers\":10", 400),
    POST("truncated string", SIM, "{\"attackers", 400),
    POST("truncated array", DUP, "{\"a\":[1,2", 400),
    POST("trailing comma in object", AA, "{\"attackers\":10,}", 400),
    POST("trailing comma in array", AA, "{\"a\":[1,]}", 400),
    POST("single quotes", AA, "{'attackers':10}", 400),
    POST("unquoted key", AA, "{attackers:10}", 400),
    POST("comment", AA, "{/* hi */\"attackers\":10}", 400),
    POST("trailing garbage", AA, "{} x", 400),
    POST("two documents", SIM, "{}{}", 400),
    POST("missing colon", AA, "{\"attackers\" 10}", 400),
    POST("bare word", DUP, "attack", 400),
    POST("leading zero", AA, "{\"attackers\":010}", 400),
    POST("plus sign", AA, "{\"attackers\":+10}", 400),
    POST("hex number", AA, "{\"attackers\":0x10}", 400),
    POST("bad escape", AA, "{\"a\\q\":1}", 400),
    POST("raw control char in string", AA, "{\"a\x01\":1}", 400),
    POST("raw newline in string", AA, "{\"a\nb\":1}", 400),
    /* ---- numbers jansson cannot hold ---- */
    POST("1e999", AA, "{\"attackers\":1e999}", 400),
    POST("-1e999", AA, "{\"attackers\":-1e999}", 400),
    POST("integer past 2^64", SIM, "{\"attackers\":18446744073709551616}", 400),
    POST("integer past 2^63", SIM, "{\"seed\":9223372036854775808}", 400),
    POST("100 digits", DUP,
         "{\"seed\":"
         "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000}",
         400),
    POST("NaN literal", AA, "{\"attackers\":NaN}", 400),
    POST("nan literal", AA, "{\"attackers\":nan}", 400),
    POST("Infinity literal", AA, "{\"attackers\":Infinity}", 400),
    POST("-Infinity literal", SIM, "{\"attackers\":-Infinity}", 400),
    /* ---- duplicate keys (JSON_REJECT_DUPLICATES) ---- */
    POST("duplicate key", AA, "{\"attackers\":10,\"attackers\":11}", 400),
    POST("duplicate nested key", AA, "{\"settings\":{\"luck_modifier\":0,\"luck_modifier\":1}}",
         400),
    POST("duplicate key duper", DUP, "{\"seed\":1,\"seed\":1}", 400),
    /* ---- invalid UTF-8 and escapes (and the detail quoting them must stay valid JSON) ---- */
    BYTES("invalid byte 0xff in string", "{\"a\xff\":1}", 400),
    BYTES("invalid byte 0xff outside string", "{\xff}", 400),
    BYTES("overlong slash", "{\"a\xc0\xaf\":1}", 400),
    BYTES("encoded surrogate", "{\"a\xed\xa0\x80\":1}", 400),
    BYTES("truncated sequence", "{\"a\xe2\x82\":1}", 400),
    BYTES("past U+10FFFF", "{\"a\xf4\x90\x80\x80\":1}", 400),
    BYTES("lone continuation byte", "{\"\x80\":1}", 400),
    POST("lone high surrogate escape", AA, "{\"a\\ud800\":1}", 400),
    POST("lone low surrogate escape", AA, "{\"a\\udc00\":1}", 400),
    POST("NUL escape", AA, "{\"a\\u0000\":1}", 400),
    BYTES("raw NUL byte", "{\"a\":1}\0", 400),
    BYTES("UTF-8 BOM", "\xef\xbb\xbf{}", 400),
    /* ---- deeply nested ---- */
    {"nested 30000 arrays", "POST", AA, JSON, NULL, 0, BODY_DEEP_ARRAY, 400, NULL},
    {"nested 5000 objects", "POST", SIM, JSON, NULL, 0, BODY_DEEP_OBJECT, 400, NULL},
    /* ---- valid JSON that is not an object: an array is a 422 at the root; jansson (without
     * JSON_DECODE_ANY) refuses a scalar document while parsing, so those are 400 ---- */
    {"array at the root", "POST", AA, JSON, "[]", 0, BODY_LITERAL, 422, ""},
    {"number at the root", "POST", SIM, JSON, "42", 0, BODY_LITERAL, 400, NULL},
    {"string at the root", "POST", DUP, JSON, "\"attack\"", 0, BODY_LITERAL, 400, NULL},
    {"null at the root", "POST", AA, JSON, "null", 0, BODY_LITERAL, 400, NULL},
    {"true at the root", "POST", AA, JSON, "true", 0, BODY_LITERAL, 400, NULL},
    /* ---- content types: 415 ---- */
    {"no content type", "POST", AA, NULL, "{}", 0, BODY_LITERAL, 415, NULL},
    {"text/plain", "POST", AA, "text/plain", "{}", 0, BODY_LITERAL, 415, NULL},
    {"form encoded", "POST", SIM, "application/x-www-form-urlencoded", "a=1", 0, BODY_LITERAL, 415,
     NULL},
    {"multipart", "POST", DUP, "multipart/form-data; boundary=x", "--x--", 0, BODY_LITERAL, 415,
     NULL},
    {"application/jsonx", "POST", AA, "application/jsonx", "{}", 0, BODY_LITERAL, 415, NULL},
    {"application/xml", "POST", AA, "application/xml", "<a/>", 0, BODY_LITERAL, 415, NULL},
    {"json-patch", "POST", AA, "application/json-patch+json", "[]", 0, BODY_LITERAL, 415, NULL},
    /* ---- methods and paths ---- */
    {"GET on a POST endpoint", "GET", AA, NULL, NULL, 0, BODY_LITERAL, 405, NULL},
    {"PUT on a POST endpoint", "PUT", SIM, JSON, "{}", 0, BODY_LITERAL, 405, NULL},
    {"DELETE on a POST endpoint", "DELETE", DUP, NULL, NULL, 0, BODY_LITERAL, 405, NULL},
    {"POST on livez", "POST", "/livez", JSON, "{}", 0, BODY_LITERAL, 405, NULL},
    {"unknown path", "POST", "/analyse-attack", JSON, "{}", 0, BODY_LITERAL, 404, NULL},
    {"path with query", "POST", "/duper/battle/x", JSON, "{}", 0, BODY_LITERAL, 404, NULL},
    /* ---- schema: 422 naming the field (once the endpoints exist) ---- */
    FIELD("unknown member analyze", AA, "{\"no_such_member\":1}", "/no_such_member"),
    FIELD("unknown member simulate", SIM, "{\"no_such_member\":1}", "/no_such_member"),
    FIELD("unknown member duper", DUP, "{\"no_such_member\":1}", "/no_such_member"),
    FIELD("string where armies belong", AA, "{\"attackers\":\"10\",\"defenders\":5}", "/attackers"),
    FIELD("negative armies", AA, "{\"attackers\":10,\"defenders\":-5}", "/defenders"),
    FIELD("fractional armies", AA, "{\"attackers\":10.5,\"defenders\":5}", "/attackers"),
    FIELD("armies past 10^9 (W10)", AA, "{\"attackers\":1000000001,\"defenders\":5}", "/attackers"),
    FIELD("zero attackers (W10)", AA, "{\"attackers\":0,\"defenders\":5}", "/attackers"),
    FIELD("luck above 1", AA,
          "{\"attackers\":10,\"defenders\":5,\"settings\":{\"luck_modifier\":1.5}}",
          "/settings/luck_modifier"),
    FIELD("luck with 7 decimals (W3)", AA,
          "{\"attackers\":10,\"defenders\":5,\"settings\":{\"luck_modifier\":0.1234567}}",
          "/settings/luck_modifier"),
    FIELD("string where luck belongs", SIM,
          "{\"attackers\":10,\"defenders\":5,\"settings\":{\"luck_modifier\":\"0.16\"}}",
          "/settings/luck_modifier"),
    FIELD("unknown rounding mode", AA,
          "{\"attackers\":10,\"defenders\":5,\"settings\":{\"rounding_mode\":\"banana\"}}",
          "/settings/rounding_mode"),
    FIELD("number where a bool belongs", AA,
          "{\"attackers\":10,\"defenders\":5,\"settings\":{\"one_army_must_stand_guard\":1}}",
          "/settings/one_army_must_stand_guard"),
    FIELD("settings not an object", SIM, "{\"attackers\":10,\"defenders\":5,\"settings\":[]}",
          "/settings"),
};

#define N_CASES (sizeof cases / sizeof cases[0])
_Static_assert(N_CASES >= 50, "the tour covers at least 50 distinct bad requests");

static char *deep_body(body_kind kind, size_t *len) {
    size_t depth = kind == BODY_DEEP_ARRAY ? 30000 : 5000;
    const char *open = kind == BODY_DEEP_ARRAY ? "[" : "{\"a\":";
    const char *close = kind == BODY_DEEP_ARRAY ? "]" : "}";
    size_t lo = strlen(open), lc = strlen(close);
    char *b = malloc(depth * (lo + lc) + 3);
    cr_assert_not_null(b);
    size_t n = 0;
    for (size_t i = 0; i < depth; i++, n += lo) {
        memcpy(b + n, open, lo);
    }
    b[n++] = '1';
    for (size_t i = 0; i < depth; i++, n += lc) {
        memcpy(b + n, close, lc);
    }
    b[n] = '\0';
    *len = n;
    return b;
}

static void expect_problem(const test_response *r, int status, const char *what) {
    cr_expect_eq(r->status, status, "%s: got %ld: %s", what, r->status, r->body);
    if (r->status != status) {
        return;
    }
    char ct[128];
    const char *got = test_header(r, "Content-Type", ct, sizeof ct);
    cr_expect(got && strcmp(got, "application/problem+json") == 0, "%s: Content-Type %s", what,
              got ? got : "(none)");
    cr_assert(json_is_object(r->json), "%s: the body is not a JSON object: %s", what, r->body);
    cr_expect_eq(json_integer_value(json_object_get(r->json, "status")), status, "%s", what);
    cr_expect(json_string_length(json_object_get(r->json, "detail")) > 0, "%s: no detail", what);
    cr_expect(json_is_array(json_object_get(r->json, "errors")), "%s: no errors array", what);
}

static bool has_pointer(const test_response *r, const char *pointer) {
    json_t *errors = json_object_get(r->json, "errors");
    for (size_t i = 0; i < json_array_size(errors); i++) {
        const char *p = json_string_value(json_object_get(json_array_get(errors, i), "pointer"));
        if (p && strcmp(p, pointer) == 0) {
            return true;
        }
    }
    return false;
}

/* Criterion may run each parameter in a fresh image of the binary (other addresses), so the
 * parameter is an index into `cases`, never a pointer. */
static size_t case_index[N_CASES];

ParameterizedTestParameters(tour, bad_request) {
    for (size_t i = 0; i < N_CASES; i++) {
        case_index[i] = i;
    }
    return cr_make_param_array(size_t, case_index, N_CASES);
}

ParameterizedTest(size_t *index, tour, bad_request) {
    const bad_case *c = &cases[*index];
    cbd_server *s = test_server_start_default();
    uint16_t port = cbd_server_port(s);
    size_t len = c->len ? c->len : (c->body ? strlen(c->body) : 0);
    char *generated = NULL;
    if (c->kind != BODY_LITERAL) {
        generated = deep_body(c->kind, &len);
    }
    const char *body = generated ? generated : c->body;
    test_response r;
    cr_assert_eq(test_request(port, c->method, c->path, c->content_type, body, len, NULL, &r), 0,
                 "%s: no answer", c->name);
    expect_problem(&r, c->status, c->name);
    if (c->pointer) {
        cr_expect(has_pointer(&r, c->pointer), "%s: no error at pointer \"%s\": %s", c->name,
                  c->pointer, r.body);
    }
    if (c->status == 405) {
        char allow[64];
        cr_expect_not_null(test_header(&r, "Allow", allow, sizeof allow), "%s: no Allow", c->name);
    }
    test_response_free(&r);
    free(generated);

    /* Still up. */
    cr_assert_eq(test_request(port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200, "%s: /livez after it: %ld", c->name, r.status);
    test_response_free(&r);
    cbd_server_stop(s);
}

/* ---- oversized bodies: 413 (the default limit is 64 KiB) ---- */

TestSuite(oversized);

Test(oversized, body_one_byte_over_the_limit) {
    cbd_server *s = test_server_start_default();
    size_t len = 64 * 1024 + 1;
    char *body = malloc(len);
    cr_assert_not_null(body);
    memset(body, ' ', len);
    body[0] = '{';
    body[len - 1] = '}';
    test_response r;
    cr_assert_eq(test_request(cbd_server_port(s), "POST", AA, JSON, body, len, NULL, &r), 0);
    expect_problem(&r, 413, "64 KiB + 1");
    test_response_free(&r);
    free(body);
    cbd_server_stop(s);
}

/* Reads a raw connection's answer to its end: a 413 problem, after which the server closes
 * (Connection: close), so that no later request can be read from the rest of the body. */
static void expect_413_and_close(int fd) {
    bool closed;
    char *text = raw_read_until_close(fd, 3.0, &closed, NULL);
    cr_expect_eq(raw_status(text), 413, "%s", text);
    cr_expect(closed, "the connection should close after a 413");
    free(text);
    close(fd);
}

Test(oversized, huge_content_length_is_refused_before_the_body) {
    cbd_server *s = test_server_start_default();
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    /* 99 GB announced, nothing sent: the answer must come at once, not after a read. */
    cr_assert(raw_send_str(fd, "POST /simulate HTTP/1.1\r\nHost: x\r\nContent-Type: "
                               "application/json\r\nContent-Length: 99999999999\r\n\r\n"));
    expect_413_and_close(fd);
    cbd_server_stop(s);
}

Test(oversized, a_body_somewhat_over_the_limit_is_read_before_the_413) {
    /* 100 KiB past the 64 KiB limit (within the 256 KiB the server drops): no answer while the
     * body is unsent, then a 413 once it has all been read, so that closing the connection
     * leaves no unread bytes behind to turn the close into a reset that loses the 413. */
    cbd_server *s = test_server_start_default();
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    size_t len = (64 + 100) * 1024;
    char head[256];
    snprintf(head, sizeof head,
             "POST /simulate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             "Content-Length: %zu\r\n\r\n",
             len);
    cr_assert(raw_send_str(fd, head));
    struct pollfd p = {fd, POLLIN, 0};
    cr_expect_eq(poll(&p, 1, 300), 0, "no answer may come before the body has been read");
    char *body = malloc(len);
    cr_assert_not_null(body);
    memset(body, ' ', len);
    cr_assert(raw_send(fd, body, len));
    free(body);
    expect_413_and_close(fd);
    cbd_server_stop(s);
}

Test(oversized, chunked_body_past_the_limit) {
    cbd_server *s = test_server_start_default();
    int fd = raw_connect(cbd_server_port(s));
    cr_assert_geq(fd, 0);
    cr_assert(raw_send_str(fd, "POST /duper/battle HTTP/1.1\r\nHost: x\r\nContent-Type: "
                               "application/json\r\nTransfer-Encoding: chunked\r\n\r\n"));
    char chunk[4096 + 16];
    int head = snprintf(chunk, sizeof chunk, "1000\r\n");
    memset(chunk + head, ' ', 4096);
    memcpy(chunk + head + 4096, "\r\n", 2);
    for (int i = 0; i < 20; i++) { /* 80 KiB */
        cr_assert(raw_send(fd, chunk, (size_t)head + 4096 + 2), "chunk %d", i);
    }
    cr_assert(raw_send_str(fd, "0\r\n\r\n"));
    expect_413_and_close(fd);
    cbd_server_stop(s);
}
