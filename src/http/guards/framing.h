#ifndef COMBATD_HTTP_FRAMING_H
#define COMBATD_HTTP_FRAMING_H

/*
 * Strict RFC 9112 framing on top of libmicrohttpd 0.9.75.
 *
 * libmicrohttpd parses the request line and header section in place, in its read buffer, and
 * tolerates what a strict parser refuses: it keeps a name with a space before the colon as a
 * different header, glues an obs-fold onto the header *name* (moving it out of the buffer),
 * ends the header section at a line ": x", cuts the target at a raw NUL and unescapes %00.
 * Those losses cannot be seen in the header list alone, but they can in the raw bytes: every
 * header libmicrohttpd kept must sit, in order, exactly where the wire put it, and whatever
 * it dropped or moved leaves a gap. cbd_framing_check verifies that tiling, then the fields
 * that decide framing (Content-Length, Transfer-Encoding, Host).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

/* What the URI log callback saw of the request-target, before libmicrohttpd unescapes it. */
typedef struct {
    bool seen;
    uintptr_t at;   /* where the raw target starts in libmicrohttpd's read buffer */
    size_t len;     /* its length up to the first NUL (a raw NUL makes it short) */
    bool bad_octet; /* %00, a control character, a space or DEL in the target */
} cbd_framing_uri;

/* Call from MHD_OPTION_URI_LOG_CALLBACK with the uri it was given (may be NULL). */
void cbd_framing_note_uri(cbd_framing_uri *u, const char *uri);

/*
 * Call once, at the first access-handler call, with the method and version that call got.
 * Returns 0 when the request is framed as a strict parser frames it, else the status to answer
 * (400, or 411 for a POST without Content-Length or Transfer-Encoding) with `detail` filled;
 * the answer must close the connection so that nothing after it is read as a request.
 */
unsigned cbd_framing_check(struct MHD_Connection *con, const cbd_framing_uri *u, const char *method,
                           const char *version, char *detail, size_t detail_size);

#endif
