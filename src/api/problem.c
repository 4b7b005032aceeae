#include "problem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cbd_problem_init(cbd_problem *p) {
    memset(p, 0, sizeof *p);
}

void cbd_problem_set(cbd_problem *p, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->detail, sizeof p->detail, fmt, ap);
    va_end(ap);
    p->status = status;
}

void cbd_problem_field(cbd_problem *p, const char *pointer, const char *fmt, ...) {
    if (p->status == 0) {
        p->status = 422;
    }
    if (p->detail[0] == '\0') {
        snprintf(p->detail, sizeof p->detail,
                 "The request is valid JSON but breaks the schema; see `errors`.");
    }
    if (p->n_errors == CBD_PROBLEM_MAX_ERRORS) {
        p->n_dropped++;
        return;
    }
    cbd_field_error *e = &p->errors[p->n_errors++];
    snprintf(e->pointer, sizeof e->pointer, "%s", pointer);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->detail, sizeof e->detail, fmt, ap);
    va_end(ap);
}

const char *cbd_http_reason(int status) {
    switch (status) {
        case 400:
            return "Bad Request";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 408:
            return "Request Timeout";
        case 413:
            return "Content Too Large";
        case 415:
            return "Unsupported Media Type";
        case 422:
            return "Unprocessable Content";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 501:
            return "Not Implemented";
        case 503:
            return "Service Unavailable";
        default:
            return "Error";
    }
}

json_t *cbd_problem_to_json(const cbd_problem *p) {
    int status = p->status ? p->status : 500;
    json_t *root = json_object();
    json_t *errors = json_array();
    if (!root || !errors) {
        json_decref(root);
        json_decref(errors);
        return NULL;
    }
    int rc = 0;
    rc |= json_object_set_new(root, "type", json_string("about:blank"));
    rc |= json_object_set_new(root, "title", json_string(cbd_http_reason(status)));
    rc |= json_object_set_new(root, "status", json_integer(status));
    rc |= json_object_set_new(root, "detail", json_string(p->detail));
    for (size_t i = 0; i < p->n_errors; i++) {
        /* json_pack copies the strings; a field error must never be dropped silently. */
        rc |= json_array_append_new(errors, json_pack("{s:s, s:s}", "pointer", p->errors[i].pointer,
                                                      "detail", p->errors[i].detail));
    }
    rc |= json_object_set_new(root, "errors", errors);
    if (p->n_dropped > 0) {
        rc |= json_object_set_new(root, "errors_omitted", json_integer((json_int_t)p->n_dropped));
    }
    if (rc != 0) {
        json_decref(root);
        return NULL;
    }
    return root;
}

void cbd_problem_to_text(const cbd_problem *p, char *buf, size_t size) {
    if (size == 0) {
        return;
    }
    size_t used = (size_t)snprintf(buf, size, "%s", p->detail);
    for (size_t i = 0; i < p->n_errors && used < size; i++) {
        used += (size_t)snprintf(buf + used, size - used, "%s%s: %s", i == 0 ? " " : "; ",
                                 p->errors[i].pointer, p->errors[i].detail);
    }
}
