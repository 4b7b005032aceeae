#include "problem.h"

#include "json_escape.h"
#include "json_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cbd_problem_init(cbd_problem *p) {
    /* Only the header: the error slots (about 14 KiB) are written before they are read, and
     * zeroing them on every request was a measurable share of a small request's cost. */
    p->status = 0;
    p->detail[0] = '\0';
    p->n_errors = 0;
    p->n_dropped = 0;
}

void cbd_problem_set(cbd_problem *p, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->detail, sizeof p->detail, fmt, ap);
    va_end(ap);
    p->status = status;
}

cbd_field_error *cbdp_problem_new_field(cbd_problem *p) {
    if (p->status == 0) {
        p->status = 422;
    }
    if (p->detail[0] == '\0') {
        snprintf(p->detail, sizeof p->detail,
                 "The request is valid JSON but breaks the schema; see `errors`.");
    }
    if (p->n_errors == CBD_PROBLEM_MAX_ERRORS) {
        p->n_dropped++;
        return NULL;
    }
    return &p->errors[p->n_errors++];
}

void cbd_problem_field(cbd_problem *p, const char *pointer, const char *fmt, ...) {
    cbd_field_error *e = cbdp_problem_new_field(p);
    if (!e) {
        return;
    }
    size_t n = cbdp_utf8_cut(pointer, strlen(pointer), sizeof e->pointer - 1);
    memcpy(e->pointer, pointer, n);
    e->pointer[n] = '\0';
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
        case 504:
            return "Gateway Timeout";
        default:
            return "Error";
    }
}

/*
 * A JSON string from text that may quote the client's bytes (jansson's parse errors do, and
 * so do details that echo a bad value) or that snprintf cut inside a character: each byte
 * that does not start a valid UTF-8 sequence becomes '?', so the problem can always be built
 * (json_string refuses invalid UTF-8, which would turn a 400 into a 500).
 */
static json_t *text_string(const char *text) {
    size_t n = strlen(text);
    char *clean = malloc(n + 1);
    if (!clean) {
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < n;) {
        size_t len = cbd_utf8_sequence(s + i, n - i);
        if (len == 0) {
            clean[i++] = '?';
        } else {
            memcpy(clean + i, s + i, len);
            i += len;
        }
    }
    clean[n] = '\0';
    json_t *str = json_stringn(clean, n);
    free(clean);
    return str;
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
    rc |= json_object_set_new(root, "detail", text_string(p->detail));
    for (size_t i = 0; i < p->n_errors; i++) {
        /* json_pack takes the references; a field error must never be dropped silently. */
        rc |= json_array_append_new(errors, json_pack("{s:o, s:o}", "pointer",
                                                      text_string(p->errors[i].pointer), "detail",
                                                      text_string(p->errors[i].detail)));
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
