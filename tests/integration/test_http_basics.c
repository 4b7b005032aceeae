/* The HTTP contract every endpoint shares (issue 2): statuses, headers and problem bodies. */
#include <string.h>

#include <criterion/criterion.h>

#include "http_client.h"

static cbd_server *server;
static uint16_t port;

static void setup(void) {
    server = test_server_start_default();
    port = cbd_server_port(server);
}

static void teardown(void) {
    cbd_server_stop(server);
}

TestSuite(http, .init = setup, .fini = teardown);

Test(http, livez_answers_ok_json) {
    test_response r;
    cr_assert_eq(test_request(port, "GET", "/livez", NULL, NULL, 0, NULL, &r), 0);
    cr_expect_eq(r.status, 200);
    cr_expect_str_eq(r.body, "{\"status\":\"ok\"}");
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/json");
    test_response_free(&r);
}

Test(http, malformed_json_is_400_naming_line_and_column) {
    test_response r;
    cr_assert_eq(test_post_json(port, "/analyze-attack", "{\n \"attackers\": 10,\n}", &r), 0);
    cr_expect_eq(r.status, 400);
    char ct[128];
    cr_expect_str_eq(test_header(&r, "Content-Type", ct, sizeof ct), "application/problem+json");
    const char *detail = json_string_value(json_object_get(r.json, "detail"));
    cr_assert_not_null(detail);
    cr_expect(strstr(detail, "line 3, column 1") != NULL, "detail: %s", detail);
    test_response_free(&r);
}
