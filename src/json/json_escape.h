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

#endif
