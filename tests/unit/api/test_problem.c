/* RFC 9457 problem details as the service renders them. */
#include <string.h>

#include <criterion/criterion.h>

#include "api/api.h"
#include "json/problem.h"

Test(problem, renders_every_member_with_pointers) {
    cbd_problem p;
    cbd_problem_init(&p);
    cbd_problem_field(&p, "/settings/luck_modifier", "must be between %d and %d", 0, 1);
    cbd_problem_field(&p, "/attackers", "must be at least 1");
    cbd_api_reply reply;
    cbd_api_problem_reply(&p, &reply);
    cr_expect_eq(reply.status, 422);
    cr_expect_str_eq(reply.content_type, "application/problem+json");
    cr_expect_str_eq(
        reply.body, "{\"type\":\"about:blank\",\"title\":\"Unprocessable Content\",\"status\":422,"
                    "\"detail\":\"The request is valid JSON but breaks the schema; see `errors`.\","
                    "\"errors\":[{\"pointer\":\"/settings/luck_modifier\",\"detail\":\"must be "
                    "between 0 and 1\"},{\"pointer\":\"/attackers\",\"detail\":\"must be at least "
                    "1\"}]}");
    cbd_api_reply_free(&reply);
}

Test(problem, a_set_status_is_kept_when_fields_are_added) {
    cbd_problem p;
    cbd_problem_init(&p);
    cbd_problem_set(&p, 400, "bad %s", "framing");
    cbd_problem_field(&p, "/x", "y");
    cr_expect_eq(p.status, 400);
    cr_expect_str_eq(p.detail, "bad framing");
}

Test(problem, errors_past_the_limit_are_counted_not_dropped_silently) {
    cbd_problem p;
    cbd_problem_init(&p);
    for (int i = 0; i < CBD_PROBLEM_MAX_ERRORS + 5; i++) {
        cbd_problem_field(&p, "/a", "e%d", i);
    }
    cr_expect_eq(p.n_errors, CBD_PROBLEM_MAX_ERRORS);
    cr_expect_eq(p.n_dropped, 5);
    json_t *doc = cbd_problem_to_json(&p);
    cr_assert_not_null(doc);
    cr_expect_eq(json_integer_value(json_object_get(doc, "errors_omitted")), 5);
    cr_expect_eq(json_array_size(json_object_get(doc, "errors")), CBD_PROBLEM_MAX_ERRORS);
    json_decref(doc);
}

Test(problem, text_form_lists_pointers) {
    cbd_problem p;
    char text[256];
    cbd_problem_init(&p);
    cbd_problem_field(&p, "/server/port", "must be a whole number");
    cbd_problem_to_text(&p, text, sizeof text);
    cr_expect(strstr(text, "/server/port: must be a whole number") != NULL, "%s", text);
}

Test(problem, titles_are_reason_phrases) {
    cr_expect_str_eq(cbd_http_reason(413), "Content Too Large");
    cr_expect_str_eq(cbd_http_reason(415), "Unsupported Media Type");
    cr_expect_str_eq(cbd_http_reason(422), "Unprocessable Content");
    cr_expect_str_eq(cbd_http_reason(405), "Method Not Allowed");
}
