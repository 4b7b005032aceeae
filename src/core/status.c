#include "combatd/status.h"

const char *cbd_status_str(cbd_status status) {
    switch (status) {
        case CBD_OK:
            return "ok";
        case CBD_ERR_INVALID:
            return "invalid argument";
        case CBD_ERR_NOMEM:
            return "out of memory";
        case CBD_ERR_TOO_LARGE:
            return "result too large";
        case CBD_ERR_BUDGET:
            return "budget spent";
    }
    return "unknown status";
}
