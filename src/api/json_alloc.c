#include "json_alloc.h"

#include <pthread.h>
#include <stdlib.h>

#include <jansson.h>

static _Thread_local bool failed;

static void *noting_malloc(size_t size) {
    void *p = malloc(size);
    if (!p) {
        failed = true;
    }
    return p;
}

static void install(void) {
    /* Blocks are still malloc'd and free'd, so objects made before this call (there are
     * none in the service, json_object_seed allocates nothing) free the same way. */
    json_set_alloc_funcs(noting_malloc, free);
}

void cbd_json_alloc_install(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    (void)pthread_once(&once, install);
}

void cbd_json_alloc_reset(void) {
    cbd_json_alloc_install();
    failed = false;
}

bool cbd_json_alloc_failed(void) {
    return failed;
}
