/*
 * Request smuggling. RFC 9112 §6.3: a request with two Content-Length
 * headers, or with both Transfer-Encoding and Content-Length, has ambiguous framing; a proxy
 * in front and combatd could split the bytes into different requests. combatd refuses it with
 * 400 and closes the connection (libmicrohttpd 0.9.75 as packaged accepts both). Sent over a
 * raw socket, because libcurl will not send such requests.
 */
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "http_client.h"
#include "raw_http.h"

TestSuite(smuggling, .init = test_suite_start, .fini = test_suite_stop);

typedef struct {
    int status;
    bool closed;
    int responses; /* status lines seen: a smuggled second request must not get one */
    char *text;
} exchange;

static exchange send_raw(const char *request) {
    exchange x = {0, false, 0, NULL};
    int fd = raw_connect(test_port);
    cr_assert_geq(fd, 0);
    (void)raw_send_str(fd, request);
    x.text = raw_read_until_close(fd, 3.0, &x.closed, NULL);
    close(fd);
    x.status = raw_status(x.text);
    for (const char *p = x.text; p && (p = strstr(p, "HTTP/1.1 ")) != NULL; p++) {
        x.responses++;
    }
    return x;
}

static void expect_refused(const char *request) {
    exchange x = send_raw(request);
    cr_expect_eq(x.status, 400, "got: %s", x.text);
    cr_expect(x.closed, "the connection stayed open after an ambiguous request");
    cr_expect_eq(x.responses, 1, "more than one response: %s", x.text);
    cr_expect(strstr(x.text, "application/problem+json") != NULL, "%s", x.text);
    cr_expect(strstr(x.text, "RFC 9112") != NULL, "the detail names the rule: %s", x.text);
    free(x.text);
}

#define HEAD "POST /analyze-attack HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"

Test(smuggling, two_equal_content_lengths_are_refused) {
    expect_refused(HEAD "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}");
}

Test(smuggling, two_different_content_lengths_are_refused) {
    expect_refused(HEAD "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}");
}

Test(smuggling, content_length_in_other_case_is_still_counted) {
    expect_refused(HEAD "content-length: 2\r\nCONTENT-LENGTH: 2\r\n\r\n{}");
}

Test(smuggling, transfer_encoding_with_content_length_is_refused) {
    expect_refused(HEAD
                   "Transfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
}

Test(smuggling, content_length_before_transfer_encoding_is_refused) {
    expect_refused(HEAD
                   "Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
}

Test(smuggling, ambiguous_get_is_refused_too) {
    expect_refused(
        "GET /livez HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n");
}

/* The classic CL.TE attack: a front end that honours Content-Length forwards everything, one
 * that honours chunked sees a second request "GET /livez" hidden in the body. combatd answers
 * once (400) and closes, so nothing after the headers is ever read as a request. */
Test(smuggling, smuggled_second_request_is_never_answered) {
    exchange x = send_raw(HEAD "Content-Length: 33\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "0\r\n\r\nGET /livez HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_expect_eq(x.status, 400, "%s", x.text);
    cr_expect_eq(x.responses, 1, "the smuggled request was answered: %s", x.text);
    cr_expect(strstr(x.text, "\"status\":\"ok\"") == NULL, "%s", x.text);
    cr_expect(x.closed);
    free(x.text);
}

/* The control: one Content-Length is fine and the connection is kept for a second request,
 * so the tests above fail for the framing, not for the raw client. */
Test(smuggling, single_content_length_keeps_the_connection) {
    int fd = raw_connect(test_port);
    cr_assert_geq(fd, 0);
    const char *req = HEAD "Content-Length: 1\r\n\r\n{";
    for (int i = 0; i < 2; i++) {
        cr_assert(raw_send_str(fd, req), "request %d could not be sent", i);
        char buf[4096];
        struct pollfd p = {fd, POLLIN, 0};
        cr_assert_eq(poll(&p, 1, 3000), 1, "request %d: no answer", i);
        ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
        cr_assert_gt(n, 0, "request %d: connection closed", i);
        buf[n] = '\0';
        cr_expect_eq(raw_status(buf), 400, "request %d: %s", i, buf); /* "{" is bad JSON */
        cr_expect(strstr(buf, "not valid JSON") != NULL, "%s", buf);
    }
    close(fd);
}

Test(smuggling, chunked_body_alone_is_accepted) {
    exchange x = send_raw(HEAD "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                               "1\r\n{\r\n0\r\n\r\n");
    cr_expect_eq(x.status, 400, "%s", x.text);
    cr_expect(strstr(x.text, "not valid JSON") != NULL, "read as a body: %s", x.text);
    free(x.text);
}

/* RFC 9112 §6.1: a request whose final transfer coding is not chunked cannot be framed;
 * the server must answer 400 and close. */
Test(smuggling, transfer_encoding_other_than_chunked_is_refused) {
    expect_refused(HEAD "Transfer-Encoding: gzip\r\n\r\n{}");
}

Test(smuggling, transfer_encoding_chunked_twice_is_refused) {
    expect_refused(HEAD "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "1\r\n{\r\n0\r\n\r\n");
}
