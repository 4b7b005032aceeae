/*
 * Fog (W23) and special units (W17–W22) in one turn, against the brute force of
 * warapp_turn_brute.h mixed here: some territories' armies are a distribution of counts,
 * independent of each other; every combination of counts is a board of whole numbers carried
 * through the turn by the brute force, weighted by the product of the counts' weights, and the
 * core's analysis of the fogged turn must be that mixture to 1e-12, each territory's owner and
 * armies, each order's chances, each unit's place and each player's elimination.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/warapp_turn.h"
#include "warapp_turn_brute.h"

#define FOG_PTS 3

typedef struct {
    cbd_turn_fog fog[BT];
    cbd_warapp_count pts[BT][FOG_PTS];
} bfog;

/* Fog on each territory with chance 1/2: 1–3 distinct ascending counts from 0..9 (the large
 * first stack from 0..13, so that it can still kill a Commander), random weights summing to 1;
 * the territory's armies become the largest count (W23). */
static bool random_fog(bcase *c, bfog *f, uint64_t *s) {
    memset(f, 0, sizeof *f);
    bool any = false;
    for (size_t t = 0; t < c->turn.n_territories; t++) {
        if (lcg(s) % 2) {
            continue;
        }
        uint64_t top = t == 0 ? 14 : 10, used = 0;
        size_t n = 1 + lcg(s) % FOG_PTS;
        for (size_t k = 0; k < n;) {
            uint64_t v = lcg(s) % top;
            k += (used & (UINT64_C(1) << v)) ? 0 : 1;
            used |= UINT64_C(1) << v;
        }
        double sum = 0;
        size_t k = 0;
        for (uint64_t v = 0; v < top; v++) {
            if (used & (UINT64_C(1) << v)) {
                f->pts[t][k].armies = v;
                f->pts[t][k].weight = 1.0 + (double)(lcg(s) % 7);
                sum += f->pts[t][k++].weight;
            }
        }
        for (k = 0; k < n; k++) {
            f->pts[t][k].weight /= sum;
        }
        f->fog[t] = (cbd_turn_fog){n, f->pts[t]};
        c->terr[t].armies = f->pts[t][n - 1].armies;
        any = true;
    }
    c->turn.fog = f->fog;
    return any;
}

static void add_weighted(bres *into, const bres *r, long double w) {
    const long double *from = (const long double *)r;
    long double *to = (long double *)into;
    for (size_t i = 0; i < sizeof *r / sizeof *from; i++) {
        to[i] += w * from[i];
    }
}

/* The brute force of every combination of the fog's counts, mixed by their weights. */
static void brute_fog(const bcase *c, const bfog *f, bres *mixed) {
    static bres one;
    memset(mixed, 0, sizeof *mixed);
    size_t nt = c->turn.n_territories, digit[BT] = {0};
    for (;;) {
        bcase plain = *c;
        long double w = 1.0L;
        for (size_t t = 0; t < nt; t++) {
            if (f->fog[t].n) {
                plain.terr[t].armies = f->pts[t][digit[t]].armies;
                w *= f->pts[t][digit[t]].weight;
            }
        }
        plain.turn.fog = NULL;
        brute(&plain, &one);
        add_weighted(mixed, &one, w);
        size_t t = 0;
        while (t < nt && (f->fog[t].n <= 1 || ++digit[t] == f->fog[t].n)) {
            digit[t++] = 0;
        }
        if (t == nt) {
            return;
        }
    }
}

Test(turn_units_fog, w23_fogged_turns_with_units_are_the_brute_force_mixture, .timeout = 120) {
    uint64_t seed = 20261202;
    int fogged = 0, mixed_fates = 0;
    for (int k = 0; k < 400; k++) {
        bcase c;
        random_case(&c, &seed);
        bfog f;
        if (!random_fog(&c, &f, &seed)) {
            continue;
        }
        fogged++;
        cbd_turn_limits lim = cbd_turn_default_limits();
        cbd_turn_analysis a;
        cbd_turn_error err;
        cr_assert_eq(cbd_turn_analyze(&c.turn, &lim, NULL, &a, &err), CBD_OK,
                     "case %d: kind %d index %zu", k, err.kind, err.index);
        static bres r;
        brute_fog(&c, &f, &r);
        compare(&c, &a, &r, k);
        for (size_t p = 0; p < c.turn.n_players; p++) {
            mixed_fates += r.eliminated[p] > 1e-9 && r.eliminated[p] < 1 - 1e-9;
        }
        cbd_turn_analysis_free(&a);
    }
    /* The cases must reach what they test: many fogged turns, and eliminations the fog makes
     * uncertain. */
    cr_expect_gt(fogged, 250, "%d", fogged);
    cr_expect_gt(mixed_fates, 30, "%d", mixed_fates);
    cr_log_info("%d fogged turns with units, %d uncertain eliminations", fogged, mixed_fates);
}
