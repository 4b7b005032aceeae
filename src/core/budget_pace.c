/* A large block zeroed in pieces, its new pages charged as they are, so that the progress check
 * comes between the pieces (cbd_mem_calloc_paced, budget.h). */
#include <string.h>

#include "combatd/budget.h"

void *cbd_mem_calloc_paced(cbd_budget *b, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        return NULL;
    }
    size_t bytes = count * size;
    if (b && b->pages_owed) {
        return cbd_mem_calloc(b, count, size); /* its pages are owed to the caller's count */
    }
    uint64_t pages = 0;
    cbd_budget_defer_pages(b, &pages);
    unsigned char *p = cbd_mem_alloc(b, bytes);
    cbd_budget_defer_pages(b, NULL);
    if (!p) {
        return NULL;
    }
    cbd_charge_share paid;
    cbd_charge_share_pages_init(&paid, b, pages, bytes / CBD_MEM_ZERO_CHUNK + 1);
    for (size_t at = 0; at < bytes; at += CBD_MEM_ZERO_CHUNK) {
        size_t n = bytes - at < CBD_MEM_ZERO_CHUNK ? bytes - at : CBD_MEM_ZERO_CHUNK;
        if (!cbd_charge_share_step(&paid)) {
            cbd_mem_free(p);
            return NULL;
        }
        memset(p + at, 0, n);
    }
    if (!cbd_charge_share_end(&paid)) {
        cbd_mem_free(p);
        return NULL;
    }
    return p;
}
