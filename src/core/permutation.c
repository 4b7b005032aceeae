/* The next permutation in lexicographic order (permutation.h). */
#include "core/permutation.h"

bool cbd_next_permutation(uint32_t *v, size_t n) {
    if (n < 2) {
        return false;
    }
    size_t i = n - 1;
    while (i > 0 && v[i - 1] >= v[i]) {
        i--;
    }
    if (i == 0) {
        return false;
    }
    size_t j = n - 1;
    while (v[j] <= v[i - 1]) {
        j--;
    }
    uint32_t t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        t = v[l];
        v[l] = v[r];
        v[r] = t;
    }
    return true;
}
