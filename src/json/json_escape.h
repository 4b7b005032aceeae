#ifndef COMBATD_JSON_ESCAPE_H
#define COMBATD_JSON_ESCAPE_H

/* JSON string escapes and UTF-8 checks, byte by byte (json_escape.c): what the answer writer
 * (json_write.c), the access log and the problems' texts share. */
#include <stddef.h>

/*
 * The one JSON string escaper of the service (this writer and the access log share it):
 * the escape of byte c as jansson writes it ("\"", "\\", \b \f \n \r \t, other control
 * bytes \u00XX in upper-case hex) into esc, and its length; 0 when c is written as it is.
 */
size_t cbd_json_escape_byte(unsigned char c, char esc[6]);

/* \u00XX for byte c (upper-case hex), into esc. */
void cbd_json_escape_u00(unsigned char c, char esc[6]);

/* Length of the valid UTF-8 sequence (RFC 3629: no overlongs, surrogates or values past
 * U+10FFFF) at s[0..n), or 0 when it is not one. */
size_t cbd_utf8_sequence(const unsigned char *s, size_t n);

/* The characters (code points) of UTF-8 text s[0..n), as JSON Schema's maxLength counts a
 * string's length: its bytes that do not continue a sequence. */
size_t cbd_utf8_code_points(const char *s, size_t n);

/* How many bytes of the text s[0..n) to keep to cut it to at most `max` bytes without
 * splitting a character: n when it fits, else `max` less the first bytes of a sequence that
 * the cut would split. */
size_t cbdp_utf8_cut(const char *s, size_t n, size_t max);

#endif
