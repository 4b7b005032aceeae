#ifndef COMBATD_WINDOWS_H
#define COMBATD_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/budget.h"
#include "combatd/status.h"

/*
 * Values over the whole numbers kept as ascending, disjoint dense windows of slots: a
 * probability each (an analysis's distributions) or a count each (a simulation's histograms).
 * One battle's survivors lie in one window; a mixture over counts of armies (W23) keeps a window
 * where each count's values lie, so its memory and work follow its windows, never the span
 * between them: 10 attackers against 5 or 10^9 defenders hold two windows of a few values.
 *
 * Windows are joined when a value falls within `join` of one (the slots between are zeros), and
 * a window that grows keeps spare room on the side it grew, half its span, short of its
 * neighbours: values that arrive in order then copy the window O(log) times, not once each.
 */

/* Windows closer than this many values are kept as one: the zeros between cost less than a
 * window's own upkeep (its block, its entry in the list, a search when values switch to it). */
#define CBD_WINDOWS_JOIN 64

/* One value's slot: its probability or its count. */
typedef union {
    double p;
    uint64_t n;
} cbd_slot;

typedef struct {
    uint64_t lo;
    size_t len;  /* at least 1 */
    cbd_slot *s; /* s[i] is the slot of value lo + i (from the budget) */
} cbd_window;

typedef struct {
    size_t n, cap;
    cbd_window *w; /* n windows, ascending and disjoint (from the budget: room for 4, doubling) */
    size_t last;   /* the window found last: values that follow each other hit it again */
} cbd_windows;

void cbd_windows_init(cbd_windows *ws);
void cbd_windows_free(cbd_windows *ws);

/*
 * Makes one window hold every value of [lo, hi] (lo <= hi): a window that holds them already,
 * or a new one that takes in every window within `join` of them, its new slots zero. *at is
 * the slot of lo. Charges `slot_units` per slot of a new window (made, zeroed, copied into) and
 * CBD_WORK_SCAN_TERM per window moved in the list; on failure nothing changed.
 */
cbd_status cbd_windows_cover(cbd_windows *ws, uint64_t lo, uint64_t hi, uint64_t join,
                             uint64_t slot_units, cbd_budget *budget, cbd_slot **at);

/* The slot of value v, or NULL when no window holds it. */
cbd_slot *cbd_windows_find(cbd_windows *ws, uint64_t v);

/* The slots of every window: what a pass over the values reads. */
size_t cbd_windows_slots(const cbd_windows *ws);

/* ---- windows of probabilities ---- */

/* Drops the slots of probability exactly 0 at the ends of each window, and windows left with
 * none (keeping one slot when every slot is 0). */
void cbd_windows_trim(cbd_windows *ws);

/* P(value = v): 0 outside the windows. */
double cbd_windows_p(const cbd_windows *ws, uint64_t v);

/* The mean, Σ v·P(v): offsets from the first value keep the products small, so that huge army
 * counts lose nothing. */
double cbd_windows_mean(const cbd_windows *ws);

/* The q-quantile: the smallest value whose cumulative probability reaches q, with a slack of
 * 1e-12 so that rounding in the sums cannot push a quantile that sits exactly on a step (a
 * cumulative probability of exactly 0.5, say) to the next value; else the last value. */
uint64_t cbd_windows_quantile(const cbd_windows *ws, double q);

/* The smallest and largest values held (0 and 0 when empty). */
uint64_t cbd_windows_lo(const cbd_windows *ws);
uint64_t cbd_windows_hi(const cbd_windows *ws);

#endif
