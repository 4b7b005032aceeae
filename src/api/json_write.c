#include "json_write.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *data;
    size_t len, cap;
    bool failed;
} out_buf;

static bool reserve(out_buf *b, size_t more) {
    if (b->failed) {
        return false;
    }
    if (b->len + more <= b->cap) {
        return true;
    }
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + more) {
        cap *= 2;
    }
    char *grown = realloc(b->data, cap);
    if (!grown) {
        b->failed = true;
        return false;
    }
    b->data = grown;
    b->cap = cap;
    return true;
}

static void put(out_buf *b, const char *s, size_t n) {
    if (reserve(b, n)) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    }
}

static void put_char(out_buf *b, char c) {
    if (reserve(b, 1)) {
        b->data[b->len++] = c;
    }
}

static void put_integer(out_buf *b, json_int_t v) {
    char digits[24];
    size_t n = 0;
    /* Work in unsigned so that the most negative value has a magnitude too. */
    unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m > 0);
    if (!reserve(b, n + 1)) {
        return;
    }
    if (v < 0) {
        b->data[b->len++] = '-';
    }
    while (n > 0) {
        b->data[b->len++] = digits[--n];
    }
}

/* As jansson's jsonp_dtostr: "%.15g", a ".0" when neither '.' nor an exponent is there, and
 * the exponent without '+' or leading zeros. The C locale is in force (main never calls
 * setlocale), so the decimal point is '.'. */
static void put_real(out_buf *b, double v) {
    char text[40];
    int n = snprintf(text, sizeof text, "%.15g", v);
    if (n < 0 || (size_t)n >= sizeof text) {
        b->failed = true;
        return;
    }
    char *e = strchr(text, 'e');
    if (!e && !strchr(text, '.')) {
        memcpy(text + n, ".0", 3);
        n += 2;
    } else if (e) {
        char *start = e + 1;
        char *digits = start + (*start == '-' || *start == '+');
        char *end = digits;
        while (*end == '0' && end[1] != '\0') {
            end++;
        }
        if (*start == '+') {
            digits = start; /* drop the sign too */
        }
        memmove(digits, end, strlen(end) + 1);
        n = (int)strlen(text);
    }
    put(b, text, (size_t)n);
}

static void put_string(out_buf *b, const char *s, size_t n) {
    static const char hex[] = "0123456789ABCDEF"; /* jansson writes \u001F, upper case */
    put_char(b, '"');
    size_t run = 0; /* bytes that need no escaping, copied in one go */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            continue;
        }
        put(b, s + run, i - run);
        run = i + 1;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t len = 2;
        switch (c) {
            case '"':
                esc[1] = '"';
                break;
            case '\\':
                esc[1] = '\\';
                break;
            case '\b':
                esc[1] = 'b';
                break;
            case '\f':
                esc[1] = 'f';
                break;
            case '\n':
                esc[1] = 'n';
                break;
            case '\r':
                esc[1] = 'r';
                break;
            case '\t':
                esc[1] = 't';
                break;
            default:
                esc[1] = 'u';
                esc[2] = '0';
                esc[3] = '0';
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                len = 6;
        }
        put(b, esc, len);
    }
    put(b, s + run, n - run);
    put_char(b, '"');
}

/* Depth is bounded by the parser (JSON_PARSER_MAX_DEPTH) for what came in, and by our own
 * code for what we build, so recursion is safe here. */
static void put_value(out_buf *b, const json_t *v) {
    switch (json_typeof(v)) {
        case JSON_OBJECT: {
            const char *key;
            json_t *member;
            bool first = true;
            put_char(b, '{');
            json_object_foreach((json_t *)v, key, member) {
                if (!first) {
                    put_char(b, ',');
                }
                first = false;
                put_string(b, key, strlen(key));
                put_char(b, ':');
                put_value(b, member);
            }
            put_char(b, '}');
            break;
        }
        case JSON_ARRAY: {
            put_char(b, '[');
            for (size_t i = 0; i < json_array_size(v); i++) {
                if (i > 0) {
                    put_char(b, ',');
                }
                put_value(b, json_array_get(v, i));
            }
            put_char(b, ']');
            break;
        }
        case JSON_STRING:
            put_string(b, json_string_value(v), json_string_length(v));
            break;
        case JSON_INTEGER:
            put_integer(b, json_integer_value(v));
            break;
        case JSON_REAL:
            put_real(b, json_real_value(v));
            break;
        case JSON_TRUE:
            put(b, "true", 4);
            break;
        case JSON_FALSE:
            put(b, "false", 5);
            break;
        case JSON_NULL:
            put(b, "null", 4);
            break;
    }
}

char *cbd_json_write(const json_t *value, size_t *len) {
    out_buf b = {NULL, 0, 0, false};
    put_value(&b, value);
    put_char(&b, '\0');
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    *len = b.len - 1;
    return b.data;
}
