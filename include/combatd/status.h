#ifndef COMBATD_STATUS_H
#define COMBATD_STATUS_H

/* Result codes of the core, in the manner of CURLcode: every fallible core call returns one. */
typedef enum {
    CBD_OK = 0,
    CBD_ERR_INVALID,   /* an argument is out of its documented range */
    CBD_ERR_NOMEM,     /* an allocation failed */
    CBD_ERR_TOO_LARGE, /* the answer would exceed a limit the caller set */
    CBD_ERR_BUDGET     /* the request's budget stopped the work (budget.h says which part) */
} cbd_status;

/* A short English name for a status, for logs and 500 details. */
const char *cbd_status_str(cbd_status status);

#endif
