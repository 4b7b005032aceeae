#ifndef COMBATD_CORE_PERMUTATION_H
#define COMBATD_CORE_PERMUTATION_H

/* The next permutation of indices in lexicographic order (permutation.c): what the turn
 * analysis walks the random move order with (W13) and the planner the order of a plan's
 * orders (W31). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rearranges v into its next permutation in lexicographic order; false after the last (v is
 * then left as it was). */
bool cbd_next_permutation(uint32_t *v, size_t n);

#endif
