#ifndef COMBATD_HTTP_HEALTHCHECK_H
#define COMBATD_HTTP_HEALTHCHECK_H

#include <stdint.h>

/* GET /livez on 127.0.0.1:port with a plain socket (the image has no curl). 0 when it answers
 * 200 within two seconds, 1 otherwise, for Docker's HEALTHCHECK. */
int cbd_healthcheck(uint16_t port);

#endif
