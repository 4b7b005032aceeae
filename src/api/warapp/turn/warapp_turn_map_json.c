/*
 * The map of a War.app turn request (W24): the territories' `neighbors` lists, made into the
 * core's symmetric adjacency (cbd_turn.neighbor_off / neighbors), and the check that each
 * attack/transfer order crosses a border.
 */
#include "warapp_turn_map_json.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "warapp_turn_ids.h"

/* One border, smaller index first. */
typedef struct {
    uint32_t a, b;
} border;

static int border_cmp(const void *x, const void *y) {
    const border *p = x, *q = y;
    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    return p->b < q->b ? -1 : (p->b > q->b);
}

/* One territory's list: each item an id of the board, not the territory itself, not twice;
 * its borders appended to `out`. `seen[j] == i + 1` marks j as listed by territory i. */
static bool read_list(const cbd_reader *map, const cbd_turn_request *q, size_t i, uint32_t *seen,
                      border *out, size_t *n_out) {
    cbd_reader t;
    cbd_reader_at(&t, map, q->territory_id[i]);
    const json_t *list = json_object_get(t.obj, "neighbors");
    size_t n = q->turn.n_territories;
    if (!json_is_array(list)) {
        cbd_reader_error(&t, "neighbors", "must be an array of territory ids (W24), not %s",
                         cbd_json_type_name(list));
        return false;
    }
    bool ok = true;
    for (size_t k = 0; k < json_array_size(list); k++) {
        const json_t *v = json_array_get(list, k);
        int64_t j = json_is_string(v) ? cbd_turn_find_territory(q, json_string_value(v)) : -1;
        if (j < 0) {
            cbd_reader_item_error(&t, "neighbors", k,
                                  "must be the id of a territory of this "
                                  "board (W24)");
            ok = false;
        } else if ((size_t)j == i) {
            cbd_reader_item_error(&t, "neighbors", k,
                                  "is the territory itself: a territory "
                                  "does not border itself (W24)");
            ok = false;
        } else if (seen[j] == i + 1) {
            cbd_reader_item_error(&t, "neighbors", k, "is listed twice (W24)");
            ok = false;
        } else if (*n_out < n * (n - 1)) {
            seen[j] = (uint32_t)(i + 1);
            uint32_t a = (uint32_t)i, b = (uint32_t)j;
            out[(*n_out)++] = a < b ? (border){a, b} : (border){b, a};
        }
    }
    return ok;
}

/* The borders, sorted and without repeats, as the core's lists: each territory's ascending
 * (its smaller neighbours come from pairs sorted before its larger ones). */
static bool build_csr(cbd_turn_request *q, border *b, size_t n_b) {
    size_t n = q->turn.n_territories;
    if (n_b > 1) { /* a map of empty lists has no borders, and b may then be NULL */
        qsort(b, n_b, sizeof *b, border_cmp);
    }
    size_t u = 0;
    for (size_t k = 0; k < n_b; k++) {
        if (u == 0 || border_cmp(&b[u - 1], &b[k]) != 0) {
            b[u++] = b[k];
        }
    }
    uint32_t *csr = calloc(n + 1 + 2 * u + 1, sizeof *csr);
    if (!csr) {
        return false;
    }
    uint32_t *off = csr, *adj = csr + n + 1, *fill = NULL;
    for (size_t k = 0; k < u; k++) {
        off[b[k].a + 1]++;
        off[b[k].b + 1]++;
    }
    for (size_t t = 0; t < n; t++) {
        off[t + 1] += off[t];
    }
    fill = calloc(n + 1, sizeof *fill);
    if (!fill) {
        free(csr);
        return false;
    }
    memcpy(fill, off, (n + 1) * sizeof *fill);
    for (size_t k = 0; k < u; k++) {
        adj[fill[b[k].a]++] = b[k].b;
        adj[fill[b[k].b]++] = b[k].a;
    }
    free(fill);
    q->map = csr;
    q->turn.neighbor_off = off;
    q->turn.neighbors = adj;
    return true;
}

bool cbdp_turn_read_map(const cbd_reader *map, cbd_turn_request *q) {
    size_t n = q->turn.n_territories, listed = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_object_get(map->obj, q->territory_id[i]);
        listed += json_object_get(t, "neighbors") != NULL;
    }
    if (listed == 0) {
        return true; /* no map: any move may be ordered (W11) */
    }
    uint32_t *seen = calloc(n, sizeof *seen);
    border *b = n > 1 ? malloc(n * (n - 1) * sizeof *b) : NULL;
    if (!seen || (n > 1 && !b)) {
        free(seen);
        free(b);
        return cbd_api_oom_problem(map->problem);
    }
    bool ok = true;
    size_t n_b = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_object_get(map->obj, q->territory_id[i]);
        if (json_object_get(t, "neighbors") != NULL) {
            ok &= read_list(map, q, i, seen, b, &n_b);
        }
    }
    if (ok && !build_csr(q, b, n_b)) {
        ok = cbd_api_oom_problem(map->problem);
    }
    free(seen);
    free(b);
    return ok;
}

/* Whether territories a and b border on the turn's map (true on a board that is no map). */
static bool territories_border(const cbd_turn *turn, uint32_t a, uint32_t b) {
    if (!turn->neighbor_off) {
        return true;
    }
    const uint32_t *lo = turn->neighbors + turn->neighbor_off[a];
    const uint32_t *hi = turn->neighbors + turn->neighbor_off[a + 1];
    while (lo < hi) { /* the list is ascending: bisect */
        const uint32_t *mid = lo + (hi - lo) / 2;
        if (*mid == b) {
            return true;
        }
        if (*mid < b) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

bool cbdp_turn_check_borders(const cbd_reader *r, const cbd_turn_request *q) {
    bool ok = true;
    for (size_t i = 0; q->turn.neighbor_off && i < q->turn.n_orders; i++) {
        const cbd_turn_order *o = &q->orders[i];
        if (o->type != CBD_ORDER_ATTACK_TRANSFER || territories_border(&q->turn, o->from, o->to)) {
            continue;
        }
        cbd_reader item;
        cbd_reader_at_item(&item, r, "orders", i);
        cbd_reader_error(&item, "to",
                         "does not border the order's `from` \"%s\": on a map an attack or "
                         "transfer goes to a neighbour (W24)",
                         q->territory_id[o->from]);
        ok = false;
    }
    return ok;
}
