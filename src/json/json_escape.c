/* JSON string escapes and UTF-8 checks (json_escape.h). */
#include "json_escape.h"

void cbd_json_escape_u00(unsigned char c, char esc[6]) {
    static const char hex[] = "0123456789ABCDEF"; /* jansson writes \u001F, upper case */
    esc[0] = '\\';
    esc[1] = 'u';
    esc[2] = '0';
    esc[3] = '0';
    esc[4] = hex[c >> 4];
    esc[5] = hex[c & 15];
}

size_t cbd_json_escape_byte(unsigned char c, char esc[6]) {
    if (c >= 0x20 && c != '"' && c != '\\') {
        return 0;
    }
    esc[0] = '\\';
    switch (c) {
        case '"':
            esc[1] = '"';
            return 2;
        case '\\':
            esc[1] = '\\';
            return 2;
        case '\b':
            esc[1] = 'b';
            return 2;
        case '\f':
            esc[1] = 'f';
            return 2;
        case '\n':
            esc[1] = 'n';
            return 2;
        case '\r':
            esc[1] = 'r';
            return 2;
        case '\t':
            esc[1] = 't';
            return 2;
        default:
            cbd_json_escape_u00(c, esc);
            return 6;
    }
}

size_t cbd_utf8_sequence(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    if (c < 0x80) {
        return 1;
    }
    size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                 : c >= 0xE0 && c <= 0xEF ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4
                                          : 0;
    if (len == 0 || len > n) {
        return 0;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
        (c == 0xF4 && s[1] > 0x8F)) {
        return 0;
    }
    return len;
}

size_t cbd_utf8_code_points(const char *s, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        count += ((unsigned char)s[i] & 0xC0u) != 0x80u;
    }
    return count;
}

size_t cbdp_utf8_cut(const char *s, size_t n, size_t max) {
    if (n <= max) {
        return n;
    }
    /* s[max] is the first byte dropped: while it continues a sequence, the sequence's first
     * bytes go too. */
    size_t keep = max;
    while (keep > 0 && ((unsigned char)s[keep] & 0xC0u) == 0x80u) {
        keep--;
    }
    return keep;
}
