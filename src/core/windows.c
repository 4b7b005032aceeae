/* Sparse values as dense windows; see include/combatd/windows.h. */
#include "combatd/windows.h"

#include <string.h>

static uint64_t window_hi(const cbd_window *w) {
    return w->lo + w->len - 1;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_sub(uint64_t a, uint64_t b) {
    return a > b ? a - b : 0;
}

void cbd_windows_init(cbd_windows *ws) {
    memset(ws, 0, sizeof *ws);
}

void cbd_windows_free(cbd_windows *ws) {
    for (size_t i = 0; i < ws->n; i++) {
        cbd_mem_free(ws->w[i].s);
    }
    cbd_mem_free(ws->w);
    cbd_windows_init(ws);
}

/* The first window whose last value is at least v (n when none). */
static size_t first_ending_at_or_after(const cbd_windows *ws, uint64_t v) {
    size_t lo = 0, hi = ws->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (window_hi(&ws->w[mid]) < v) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

cbd_slot *cbd_windows_find(cbd_windows *ws, uint64_t v) {
    if (ws->n == 0) {
        return NULL;
    }
    cbd_window *w = &ws->w[ws->last];
    if (v - w->lo < w->len) {
        return &w->s[v - w->lo];
    }
    size_t i = first_ending_at_or_after(ws, v);
    if (i == ws->n || ws->w[i].lo > v) {
        return NULL;
    }
    ws->last = i;
    return &ws->w[i].s[v - ws->w[i].lo];
}

/* The span [*lo, *hi] of the window that replaces windows [i, j) and takes in [lo, hi]: with
 * spare room on each side that grew past the windows it joins, short of their neighbours. */
static void joined_span(const cbd_windows *ws, size_t i, size_t j, uint64_t *lo, uint64_t *hi) {
    if (j == i) {
        return; /* a window of its own: exactly the values asked for */
    }
    const cbd_window *first = &ws->w[i], *last = &ws->w[j - 1];
    bool grew_lo = *lo<first->lo, grew_hi = *hi> window_hi(last);
    uint64_t l = grew_lo ? *lo : first->lo, h = grew_hi ? *hi : window_hi(last);
    uint64_t spare = (h - l) / 2 + 1;
    uint64_t floor = i > 0 ? window_hi(&ws->w[i - 1]) + 1 : 0;
    uint64_t ceil = j < ws->n ? ws->w[j].lo - 1 : UINT64_MAX;
    *lo = grew_lo ? (l - floor > spare ? l - spare : floor) : l;
    *hi = grew_hi ? (ceil - h > spare ? h + spare : ceil) : h;
}

/* Room in the list for one more window (the list doubles). */
static bool list_room(cbd_windows *ws, cbd_budget *budget) {
    if (ws->n < ws->cap) {
        return true;
    }
    size_t cap = ws->cap ? 2 * ws->cap : 4;
    cbd_window *w = cbd_mem_realloc(budget, ws->w, cap * sizeof *w);
    if (!w) {
        return false;
    }
    ws->w = w;
    ws->cap = cap;
    return true;
}

/* A new window being made: its slots, what a slot costs, and its new pages (deferred when the
 * block was taken, cbd_budget_defer_pages) shared over its slots. */
typedef struct {
    cbd_slot *s;
    cbd_budget *budget;
    uint64_t slot_units;
    cbd_charge_share pages; /* over the window's slots */
    size_t piece;           /* slots made between two charges: about 2^20 units of both */
} window_fill;

/* Slots [from, to) of a new window: zero, or copied from `src` (NULL: zero), a piece of about
 * CBD_BUDGET_PROGRESS_UNITS at a time, each charged before it is made, with the pages it first
 * touches, so that the progress check comes between the pieces of a window of millions of slots
 * (a fog's mixture charged 10.8 · 2^20 units at once, and its pages 7.2 · 2^20 when the block
 * was taken). */
static bool fill_piece(window_fill *f, size_t from, size_t to, const cbd_slot *src) {
    for (size_t at = from; at < to; at += f->piece) {
        size_t n = to - at < f->piece ? to - at : f->piece;
        uint64_t pages =
            cbd_charge_share_upto(&f->pages, at + n) - cbd_charge_share_upto(&f->pages, at);
        if (!cbd_charge(f->budget, cbd_work_times(f->slot_units, n)) ||
            !cbd_charge_pages(f->budget, pages)) {
            return false;
        }
        if (src) {
            memcpy(f->s + at, src + (at - from), n * sizeof *f->s);
        } else {
            memset(f->s + at, 0, n * sizeof *f->s);
        }
    }
    return true;
}

/* The new window f->s of `len` slots from new_lo: windows [i, j)'s slots copied in, the rest
 * zero, each slot and its pages charged as it is made. */
static bool fill_window(const cbd_windows *ws, size_t i, size_t j, window_fill *f, uint64_t new_lo,
                        size_t len) {
    size_t at = 0;
    for (size_t k = i; k < j; k++) {
        size_t from = (size_t)(ws->w[k].lo - new_lo), to = from + ws->w[k].len;
        if (!fill_piece(f, at, from, NULL) || !fill_piece(f, from, to, ws->w[k].s)) {
            return false;
        }
        at = to;
    }
    return fill_piece(f, at, len, NULL);
}

/* The fill of a window of `len` slots whose block's new pages cost `pages` units. */
static window_fill fill_of(cbd_slot *s, size_t len, uint64_t slot_units, uint64_t pages,
                           cbd_budget *budget) {
    window_fill f = {s, budget, slot_units, {0}, 1};
    cbd_charge_share_pages_init(&f.pages, budget, pages, len);
    uint64_t per = slot_units + pages / (len > 0 ? len : 1) + 1;
    f.piece = per >= CBD_BUDGET_PROGRESS_UNITS ? 1 : (size_t)(CBD_BUDGET_PROGRESS_UNITS / per);
    return f;
}

cbd_status cbd_windows_cover(cbd_windows *ws, uint64_t lo, uint64_t hi, uint64_t join,
                             uint64_t slot_units, cbd_budget *budget, cbd_slot **at) {
    size_t i = first_ending_at_or_after(ws, sat_sub(lo, join));
    size_t j = i;
    while (j < ws->n && ws->w[j].lo <= sat_add(hi, join)) {
        j++;
    }
    if (j == i + 1 && ws->w[i].lo <= lo && hi <= window_hi(&ws->w[i])) {
        ws->last = i;
        *at = &ws->w[i].s[lo - ws->w[i].lo];
        return CBD_OK;
    }
    uint64_t new_lo = lo, new_hi = hi;
    joined_span(ws, i, j, &new_lo, &new_hi);
    uint64_t len = new_hi - new_lo + 1;
    if (len == 0 || len > SIZE_MAX / sizeof(cbd_slot)) {
        len = SIZE_MAX / sizeof(cbd_slot); /* past any memory budget: refused below */
    }
    /* A window too costly for what the budget has left stops here, before its memory is
     * asked for; else its slots are charged piece by piece as they are made (fill_window). */
    uint64_t units = cbd_work_times(slot_units, len);
    if ((units > cbd_budget_work_left(budget) && !cbd_charge(budget, units)) ||
        !cbd_charge(budget, cbd_work_times(CBD_WORK_SCAN_TERM, ws->n - j))) {
        return CBD_ERR_BUDGET;
    }
    uint64_t pages = 0;
    cbd_budget_defer_pages(budget, &pages);
    cbd_slot *s = cbd_mem_alloc(budget, (size_t)len * sizeof *s);
    cbd_budget_defer_pages(budget, NULL);
    if (!s || (j == i && !list_room(ws, budget))) {
        cbd_mem_free(s);
        return cbd_budget_nomem(budget);
    }
    window_fill fill = fill_of(s, (size_t)len, slot_units, pages, budget);
    if (!fill_window(ws, i, j, &fill, new_lo, (size_t)len)) {
        cbd_mem_free(s);
        return CBD_ERR_BUDGET;
    }
    for (size_t k = i; k < j; k++) {
        cbd_mem_free(ws->w[k].s);
    }
    /* Windows [i, j) become one at i: the list closes up behind it (or opens for it). */
    memmove(&ws->w[i + 1], &ws->w[j], (ws->n - j) * sizeof *ws->w);
    ws->n = ws->n - (j - i) + 1;
    ws->w[i] = (cbd_window){new_lo, (size_t)len, s};
    ws->last = i;
    *at = &s[lo - new_lo];
    return CBD_OK;
}

size_t cbd_windows_slots(const cbd_windows *ws) {
    size_t n = 0;
    for (size_t i = 0; i < ws->n; i++) {
        n += ws->w[i].len;
    }
    return n;
}

/* ---- windows of probabilities ---- */

void cbd_windows_trim(cbd_windows *ws) {
    size_t kept = 0;
    for (size_t i = 0; i < ws->n; i++) {
        cbd_window *w = &ws->w[i];
        size_t first = 0, last = w->len;
        while (first < last && w->s[first].p == 0.0) {
            first++;
        }
        while (last > first && w->s[last - 1].p == 0.0) {
            last--;
        }
        bool keep_one = first == last && kept == 0 && i + 1 == ws->n;
        if (first == last && !keep_one) {
            cbd_mem_free(w->s);
            continue;
        }
        if (keep_one) {
            first = 0;
            last = 1;
        }
        memmove(w->s, w->s + first, (last - first) * sizeof *w->s);
        w->lo += first;
        w->len = last - first;
        ws->w[kept++] = *w;
    }
    ws->n = kept;
    ws->last = 0;
}

double cbd_windows_p(const cbd_windows *ws, uint64_t v) {
    size_t i = first_ending_at_or_after(ws, v);
    return i < ws->n && ws->w[i].lo <= v ? ws->w[i].s[v - ws->w[i].lo].p : 0.0;
}

double cbd_windows_mean(const cbd_windows *ws) {
    if (ws->n == 0) {
        return 0.0;
    }
    uint64_t base = ws->w[0].lo;
    double sum = 0.0;
    for (size_t k = 0; k < ws->n; k++) {
        const cbd_window *w = &ws->w[k];
        for (size_t i = 0; i < w->len; i++) {
            sum += (double)(w->lo - base + i) * w->s[i].p;
        }
    }
    return (double)base + sum;
}

uint64_t cbd_windows_quantile(const cbd_windows *ws, double q) {
    double cum = 0.0;
    for (size_t k = 0; k < ws->n; k++) {
        const cbd_window *w = &ws->w[k];
        for (size_t i = 0; i < w->len; i++) {
            cum += w->s[i].p;
            if (cum >= q - 1e-12) {
                return w->lo + i;
            }
        }
    }
    return cbd_windows_hi(ws);
}

uint64_t cbd_windows_lo(const cbd_windows *ws) {
    return ws->n ? ws->w[0].lo : 0;
}

uint64_t cbd_windows_hi(const cbd_windows *ws) {
    return ws->n ? window_hi(&ws->w[ws->n - 1]) : 0;
}
