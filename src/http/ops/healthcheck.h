#ifndef COMBATD_HTTP_HEALTHCHECK_H
#define COMBATD_HTTP_HEALTHCHECK_H

#include <stdint.h>

/*
 * GET /livez with a plain socket (the image has no curl), on the address the service binds:
 * for 0.0.0.0 the IPv4 loopback, for :: the IPv6 one, any other address itself. 0 when it
 * answers 200 within two seconds, 1 otherwise: the only codes Docker's HEALTHCHECK defines.
 */
int cbd_healthcheck(const char *bind, uint16_t port);

#endif
