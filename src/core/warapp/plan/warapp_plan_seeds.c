/*
 * The local search's seeds (W31): the rule of thumb, all-in attacks on each goal, every goal
 * attacked at once, holding, and plans drawn from a fixed seed (so that the same request searches
 * the same plans), each evaluated once; and the small plan edits the seeds and the climbs share
 * (a territory's pairs, what it sends, its orders cut to fit); and a position's (W48) seeds
 * of the income on one territory with the attacks it surely wins.
 */
#include "warapp_plan_internal.h"

#include <math.h>
#include <string.h>

#define RANDOM_SEEDS 48
#define SURE_TARGETS 8 /* attacks from one territory in a seed, at most */

bool cbdp_plan_is_other(const plan_ctx *c, uint32_t t) {
    const cbd_turn *b = c->board;
    cbd_turn_player o = b->territories[t].owner, p = c->req->player;
    return o != p && (o == CBD_TURN_NEUTRAL || !b->team || b->team[o] != b->team[p]);
}

/* No deploy and no order. */
static void clear_state(const plan_ctx *c, plan_state *s) {
    memset(s->d, 0, c->space.k * sizeof *s->d);
    memset(s->a, 0, c->space.np * sizeof *s->a);
    for (size_t p = 0; p < c->space.np; p++) {
        s->seq[p] = (uint32_t)p;
    }
}

/* The rule of thumb: all income where most other territories border, and everything movable
 * from each territory at its weakest bordering territory of another owner. */
static void rule_of_thumb(const plan_ctx *c, plan_state *s) {
    clear_state(c, s);
    size_t best = 0, best_n = 0;
    for (size_t i = 0, p = 0; i < c->space.k; i++) {
        size_t n = 0;
        for (; p < c->space.np && c->space.pfrom[p] == i; p++) {
            n += cbdp_plan_is_other(c, c->space.pto[p]);
        }
        if (n > best_n) {
            best = i;
            best_n = n;
        }
    }
    s->d[best] = c->req->income;
    for (size_t i = 0, p = 0; i < c->space.k; i++) {
        size_t weakest = c->space.np;
        for (; p < c->space.np && c->space.pfrom[p] == i; p++) {
            uint64_t armies = c->board->territories[c->space.pto[p]].armies;
            if (cbdp_plan_is_other(c, c->space.pto[p]) &&
                (weakest == c->space.np ||
                 armies < c->board->territories[c->space.pto[weakest]].armies)) {
                weakest = p;
            }
        }
        if (weakest < c->space.np) {
            s->a[weakest] = c->space.movable[i] + s->d[i];
        }
    }
}

/* All income on the own territory with the most armies bordering goal t, everything from it
 * at t. */
static bool all_in(const plan_ctx *c, uint32_t t, plan_state *s) {
    clear_state(c, s);
    size_t best = c->space.np;
    for (size_t p = 0; p < c->space.np; p++) {
        if (c->space.pto[p] == t &&
            (best == c->space.np ||
             c->space.movable[c->space.pfrom[p]] > c->space.movable[c->space.pfrom[best]])) {
            best = p;
        }
    }
    if (best == c->space.np) {
        return false;
    }
    s->d[c->space.pfrom[best]] = c->req->income;
    s->a[best] = c->space.movable[c->space.pfrom[best]] + c->req->income;
    return true;
}

/* A plan drawn from rng: each army of the income on a territory, each territory sending a
 * random share to random neighbours, the orders in a random order. */
void cbdp_plan_random(const plan_ctx *c, cbd_rng *rng, plan_state *s) {
    clear_state(c, s);
    /* the income all on one territory, or split by random weights: never one army at a time
     * (an income of 10^9 is drawn as fast as one of 1) */
    uint64_t income = c->req->income;
    if (cbd_rng_bounded(rng, 2) == 0 || c->space.k == 1) {
        s->d[cbd_rng_bounded(rng, c->space.k)] = income;
    } else {
        double total = 0;
        for (size_t i = 0; i < c->space.k; i++) {
            s->d[i] = 1 + cbd_rng_bounded(rng, 1000);
            total += (double)s->d[i];
        }
        uint64_t given = 0;
        for (size_t i = 0; i < c->space.k; i++) {
            uint64_t v = (uint64_t)((double)income * ((double)s->d[i] / total));
            s->d[i] = v <= income - given ? v : income - given;
            given += s->d[i];
        }
        s->d[cbd_rng_bounded(rng, c->space.k)] += income - given;
    }
    for (size_t i = 0, p = 0; i < c->space.k; i++) {
        size_t first = p;
        while (p < c->space.np && c->space.pfrom[p] == i) {
            p++;
        }
        uint64_t left = c->space.movable[i] + s->d[i];
        for (size_t q = first; q < p && left > 0; q++) {
            if (cbd_rng_bounded(rng, 2) == 0) {
                uint64_t v = 1 + cbd_rng_bounded(rng, left);
                s->a[q] = v;
                left -= v;
            }
        }
    }
    for (size_t i = c->space.np; i > 1; i--) {
        size_t j = cbd_rng_bounded(rng, i);
        uint32_t t = s->seq[i - 1];
        s->seq[i - 1] = s->seq[j];
        s->seq[j] = t;
    }
}

/* The first and one-past-last pair of own territory i. */
/* The first pair from an own index >= i: pairs are sorted by own index (plan_ctx), and a
 * scan from 0 made every seed's and climb's edit cost the pairs of the whole board (half the
 * CPU of a plan for 1,040 territories). */
static size_t first_pair_from(const plan_ctx *c, size_t i) {
    size_t lo = 0, hi = c->space.np;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->space.pfrom[mid] < i) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void cbdp_plan_pairs_of(const plan_ctx *c, size_t i, size_t *lo, size_t *hi) {
    *lo = first_pair_from(c, i);
    *hi = first_pair_from(c, i + 1);
}

uint64_t cbdp_plan_sent_from(const plan_ctx *c, const plan_state *s, size_t i) {
    size_t lo, hi;
    cbdp_plan_pairs_of(c, i, &lo, &hi);
    uint64_t sent = 0;
    for (size_t p = lo; p < hi; p++) {
        sent += s->a[p];
    }
    return sent;
}

/* Cuts territory i's orders, the last pairs first, to what may move from it. */
void cbdp_plan_fit(const plan_ctx *c, plan_state *s, size_t i) {
    size_t lo, hi;
    cbdp_plan_pairs_of(c, i, &lo, &hi);
    uint64_t room = c->space.movable[i] + s->d[i], sent = cbdp_plan_sent_from(c, s, i);
    for (size_t p = hi; p-- > lo && sent > room;) {
        uint64_t cut = s->a[p] < sent - room ? s->a[p] : sent - room;
        s->a[p] -= cut;
        sent -= cut;
    }
}

/*
 * Every goal the player lacks attacked at once: the goals by defenders, most first, each from
 * the bordering own territory with the most left to send, with all of it; the whole income on
 * the territory attacking the `focus`-th of them (and sent with its attack). False when fewer
 * goals can be attacked.
 */
static bool all_goals(const plan_ctx *c, size_t focus, plan_state *s) {
    clear_state(c, s);
    const cbd_turn *b = c->board;
    size_t done = 0, focus_pair = c->space.np, prev = SIZE_MAX;
    for (size_t round = 0; round < c->req->n_goals; round++) {
        /* the next goal in the order (defenders descending, then listed order) after prev */
        size_t pick = SIZE_MAX;
        for (size_t g = 0; g < c->req->n_goals; g++) {
            uint64_t armies = b->territories[c->req->goals[g]].armies;
            if (!cbdp_plan_is_other(c, c->req->goals[g])) {
                continue;
            }
            if (prev != SIZE_MAX) {
                uint64_t pa = b->territories[c->req->goals[prev]].armies;
                if (!(armies < pa || (armies == pa && g > prev))) {
                    continue;
                }
            }
            uint64_t ka = pick == SIZE_MAX ? 0 : b->territories[c->req->goals[pick]].armies;
            if (pick == SIZE_MAX || armies > ka) {
                pick = g;
            }
        }
        if (pick == SIZE_MAX) {
            break;
        }
        prev = pick;
        uint32_t t = c->req->goals[pick];
        size_t best = c->space.np;
        uint64_t best_left = 0;
        for (size_t p = 0; p < c->space.np; p++) {
            uint64_t left =
                c->space.movable[c->space.pfrom[p]] - cbdp_plan_sent_from(c, s, c->space.pfrom[p]);
            if (c->space.pto[p] == t && (best == c->space.np || left > best_left)) {
                best = p;
                best_left = left;
            }
        }
        if (best == c->space.np || (best_left == 0 && done != focus)) {
            continue;
        }
        s->a[best] = best_left;
        focus_pair = done == focus ? best : focus_pair;
        done++;
    }
    if (focus_pair == c->space.np) {
        return false;
    }
    s->d[c->space.pfrom[focus_pair]] = c->req->income;
    s->a[focus_pair] += c->req->income;
    return s->a[focus_pair] > 0;
}

/* Armies enough to take a territory of d defenders at the worst luck (W1: the attackers' kills
 * at their roll's lowest, L·0 + (1-L)·a·p, reach d less the rounding's half; more of them survive
 * than the defenders' kills at their highest, L·d + (1-L)·d·p'): the guess of a seed, which the
 * climbs correct, not a chance. UINT64_MAX when no number is enough. */
static uint64_t enough_for(const cbd_warapp_settings *s, uint64_t d) {
    double luck = (double)s->luck_modifier / CBD_MICRO_ONE;
    double low = (1 - luck) * ((double)s->offense_kill_rate / CBD_MICRO_ONE);
    double def = (double)d * (luck + (1 - luck) * ((double)s->defense_kill_rate / CBD_MICRO_ONE));
    if (low <= 0 || (double)d > 1e15) {
        return UINT64_MAX;
    }
    double kill = ceil(((double)d - 0.5) / low), live = floor(def + 0.5) + 1;
    double need = kill > live ? kill : live;
    return need < 1 ? 1 : (uint64_t)need;
}

/* From own territory i, its other-owned neighbours attacked the weakest first, each with
 * enough_for its defenders, while what i may move lasts; the rest stays. How many it attacks. */
static size_t sure_attacks(const plan_ctx *c, size_t i, plan_state *s) {
    size_t lo, hi, made = 0;
    cbdp_plan_pairs_of(c, i, &lo, &hi);
    uint64_t left = c->space.movable[i] + s->d[i], floor_armies = 0;
    size_t floor_pair = hi;
    for (size_t n = 0; n < SURE_TARGETS; n++) {
        size_t pick = hi; /* the weakest target not attacked yet, above the last one taken */
        for (size_t p = lo; p < hi; p++) {
            uint64_t armies = c->board->territories[c->space.pto[p]].armies;
            bool after = floor_pair == hi || armies > floor_armies ||
                         (armies == floor_armies && p > floor_pair);
            if (s->a[p] == 0 && after && cbdp_plan_is_other(c, c->space.pto[p]) &&
                (pick == hi || armies < c->board->territories[c->space.pto[pick]].armies)) {
                pick = p;
            }
        }
        if (pick == hi) {
            break;
        }
        floor_pair = pick;
        floor_armies = c->board->territories[c->space.pto[pick]].armies;
        uint64_t need = enough_for(&c->board->battle, floor_armies);
        if (need > left) {
            break;
        }
        s->a[pick] = need;
        left -= need;
        made++;
    }
    return made;
}

/* W48's take seeds, the n-th of 2·k: the whole income on own territory n / 2 and its sure
 * attacks, alone (n even) or with every other own territory's (n odd). False when that
 * territory attacks nothing. */
static bool take_seed(const plan_ctx *c, size_t n, plan_state *s) {
    size_t i = n / 2;
    bool everyone = n % 2 == 1;
    size_t lo, hi;
    bool borders = false;
    cbdp_plan_pairs_of(c, i, &lo, &hi);
    for (size_t p = lo; p < hi && !borders; p++) {
        borders = cbdp_plan_is_other(c, c->space.pto[p]);
    }
    if (!borders) { /* an interior territory: no seed, and no clear of the whole plan */
        return false;
    }
    clear_state(c, s);
    s->d[i] = c->req->income;
    if (sure_attacks(c, i, s) == 0) {
        return false;
    }
    for (size_t j = 0; everyone && j < c->space.k; j++) {
        if (j != i) {
            sure_attacks(c, j, s);
        }
    }
    return true;
}

/* Evaluates a seed; EVAL_STOP or EVAL_ERROR end the search. */
static eval_result seed(plan_ctx *c, plan_state *s) {
    double v;
    if (!cbdp_plan_state_valid(c, s)) {
        return EVAL_SKIP;
    }
    return cbdp_plan_try(c, s, &v);
}

eval_result cbdp_plan_seeds(plan_ctx *c, plan_state *s, bool drawn) {
    rule_of_thumb(c, s);
    eval_result r = seed(c, s);
    for (size_t g = 0; g < c->req->n_goals && r != EVAL_STOP && r != EVAL_ERROR; g++) {
        if (all_in(c, c->req->goals[g], s)) {
            r = seed(c, s);
        }
    }
    for (size_t f = 0; f < c->req->n_goals && f < 4 && r != EVAL_STOP && r != EVAL_ERROR; f++) {
        if (all_goals(c, f, s)) {
            r = seed(c, s);
        }
    }
    for (size_t i = 0; i < c->space.k && r != EVAL_STOP && r != EVAL_ERROR; i++) {
        clear_state(c, s);
        s->d[i] = c->req->income; /* hold: deploy, no orders */
        r = seed(c, s);
    }
    /* W48: at most a quarter of max_plans, so that on a board of many territories the climbs
     * keep the rest */
    uint64_t takes = c->req->objective == CBD_PLAN_POSITION ? c->req->max_plans / 4 : 0;
    for (size_t n = 0; n < 2 * c->space.k && takes > 0 && r != EVAL_STOP && r != EVAL_ERROR; n++) {
        if (take_seed(c, n, s)) {
            r = seed(c, s);
            takes--;
        }
    }
    cbd_rng rng;
    cbd_rng_seed(&rng, CBD_PLAN_SEED);
    for (size_t n = 0; drawn && n < RANDOM_SEEDS && r != EVAL_STOP && r != EVAL_ERROR; n++) {
        cbdp_plan_random(c, &rng, s);
        r = seed(c, s);
    }
    return r;
}
