/*
 * The search of a plan space too large to enumerate (W31), anytime: seeds (the rule of thumb,
 * all-in attacks on each goal, every goal attacked at once, holding, and plans drawn from a
 * fixed seed, so that the same request searches the same plans), then a first-improvement local
 * search from the best seeds (the plain splits of W47 first) over moves of an attack added (a
 * goal not attacked, from the bordering own territory with the most armies idle, with all of
 * them), one deploy, one amount (an order added, or removed: its amount to 0), armies between
 * two orders of one territory, two adjacent orders swapped, and an attack rerouted (its target
 * attacked from the other own territories bordering it, its armies sent elsewhere); then, while
 * max_plans and the run's work last, climbs again from the best plan kicked (a few random moves)
 * and from fresh random plans (iterated local search with restarts), so that the search does not
 * stop at a local optimum with budget left.
 *
 * A climb goes through the moves in turn and takes each one that climbs at once, going on from
 * the next move (a round of the moves without a climb ends it), and takes a few steps along
 * plateaus (moves that keep the value and the guide). Where the value is flat (`all`: 0 until
 * every goal can fall; at low luck most amounts take a territory surely or not at all) the
 * climbs are guided by the sum of the goals' chances and the defenders that attacks falling
 * short kill (plan_ctx.last_aux), so that a climb finds its way up to a capture one army at a
 * time. Every plan it reaches lies in the space; each is analysed once.
 *
 * On the warlight2 example map's boards (tests/support/warlight2_boards.h):
 * an attack taken from one territory and given to two others (the reroute), the plateaus and
 * the defenders killed are what the climbs lacked to reach a long local search's plans; the
 * rounds that went back to the first move made a climb cost 2-3 times the analyses.
 */
#include "warapp_plan_internal.h"

#include <string.h>

#define LOCAL_STARTS 3
#define SIDEWAYS     32 /* plateau steps a climb may take */
#define IDLE_ROUNDS  64 /* rounds of the anytime loop without a new plan that end it */

typedef struct {
    plan_ctx *c;
    plan_state *cur;
    double cur_value;
    double cur_aux; /* the goals' chances summed (plan_ctx.last_aux) */
    uint64_t cur_size;
    plan_state *cand;
    size_t sideways; /* plateau steps left */
    size_t width;    /* the most pairs one own territory has */
} local;

/* Whether (v, aux, size) climbs above the current plan: a higher value; as high and a higher
 * sum of the goals' chances (the guide where `all` is flat); as high both and smaller. */
static bool climbs(const local *l, double v, double aux, uint64_t size) {
    if (v > l->cur_value + CBD_PLAN_TIE || v < l->cur_value - CBD_PLAN_TIE) {
        return v > l->cur_value;
    }
    if (aux > l->cur_aux + CBD_PLAN_TIE || aux < l->cur_aux - CBD_PLAN_TIE) {
        return aux > l->cur_aux;
    }
    return cbdp_plan_better(v, size, l->cur_value, l->cur_size);
}

/* Tries the candidate. It becomes the current plan when it climbs (true), or, while the climb
 * has sideways steps left, when it keeps both the value and the guide (false: a step along a
 * plateau, which does not count as progress). False also when the search must end
 * (l->c->meter.stopped, or an error in l->c->meter.status). */
static bool better(local *l, eval_result *r) {
    double v;
    *r = cbdp_plan_try(l->c, l->cand, &v);
    if (*r != EVAL_DONE) {
        return false;
    }
    double aux = l->c->best.last_aux;
    uint64_t size = cbdp_plan_size(l->c, l->cand);
    bool up = climbs(l, v, aux, size);
    bool flat = !up && l->sideways > 0 && v >= l->cur_value - CBD_PLAN_TIE &&
                aux >= l->cur_aux - CBD_PLAN_TIE;
    if (!up && !flat) {
        return false;
    }
    l->sideways -= flat;
    cbdp_plan_state_copy(l->c, l->cur, l->cand);
    l->cur_value = v;
    l->cur_aux = aux;
    l->cur_size = size;
    return up;
}

/* The climb's moves, each kind a range of indices: an attack added on a goal (g), deploys
 * moved between two territories
 * (i, j, how), one order's amount changed (p, how), armies between two orders of one territory
 * (p, the other's place among its territory's pairs, how), two neighbouring orders swapped (x),
 * an attack rerouted (p, the place of the order that takes its armies). */
enum { MOVE_ADD, MOVE_DEPLOY, MOVE_AMOUNT, MOVE_SHIFT, MOVE_SWAP, MOVE_REROUTE, MOVE_KINDS };

static size_t move_count(const local *l, int kind) {
    const plan_ctx *c = l->c;
    switch (kind) {
        case MOVE_ADD:
            return c->req->n_goals;
        case MOVE_DEPLOY:
            return c->space.k * c->space.k * 4;
        case MOVE_AMOUNT:
            return c->space.np * 6;
        case MOVE_SHIFT:
            return c->space.np * l->width * 2;
        case MOVE_REROUTE:
            return c->space.np * l->width;
        default:
            return c->space.np;
    }
}

/* Goal g, another's and attacked by no order of the plan, attacked from the bordering own
 * territory with the most armies idle (may move, not sent), with all of them: idle armies
 * beside a goal left alone are the plan's most obvious gain. */
static bool add_move(local *l, size_t g) {
    plan_ctx *c = l->c;
    uint32_t t = c->req->goals[g];
    if (!cbdp_plan_is_other(c, t)) {
        return false;
    }
    size_t best = c->space.np;
    uint64_t best_idle = 0;
    for (size_t p = 0; p < c->space.np; p++) {
        if (c->space.pto[p] != t) {
            continue;
        }
        if (l->cur->a[p] > 0) {
            return false;
        }
        size_t i = c->space.pfrom[p];
        uint64_t idle = c->space.movable[i] + l->cur->d[i] - cbdp_plan_sent_from(c, l->cur, i);
        if (idle > best_idle) {
            best = p;
            best_idle = idle;
        }
    }
    if (best == c->space.np) {
        return false;
    }
    cbdp_plan_state_copy(c, l->cand, l->cur);
    l->cand->a[best] = best_idle;
    return true;
}

/* The pair at place e among the pairs of pair p's territory, or c->space.np when it has fewer. */
static size_t sibling(const plan_ctx *c, size_t p, size_t e) {
    size_t lo = p;
    while (lo > 0 && c->space.pfrom[lo - 1] == c->space.pfrom[p]) {
        lo--;
    }
    return lo + e < c->space.np && c->space.pfrom[lo + e] == c->space.pfrom[p] ? lo + e
                                                                               : c->space.np;
}

/* Deploys moved from i to j (one, or all), the orders cut to fit, or the armies sent on at once
 * with the largest order of the territory that gets them. */
static bool deploy_move(local *l, size_t idx) {
    plan_ctx *c = l->c;
    size_t i = idx / (c->space.k * 4), j = idx / 4 % c->space.k, m = idx % 4;
    if (i == j || l->cur->d[i] == 0) {
        return false;
    }
    uint64_t v = m % 2 ? l->cur->d[i] : 1;
    cbdp_plan_state_copy(c, l->cand, l->cur);
    l->cand->d[i] -= v;
    l->cand->d[j] += v;
    cbdp_plan_fit(c, l->cand, i);
    if (m >= 2) {
        size_t lo, hi, big = SIZE_MAX;
        cbdp_plan_pairs_of(c, j, &lo, &hi);
        for (size_t p = lo; p < hi; p++) {
            big = big == SIZE_MAX || l->cand->a[p] > l->cand->a[big] ? p : big;
        }
        if (big == SIZE_MAX) {
            return false;
        }
        l->cand->a[big] += v;
    }
    return true;
}

/* One amount changed: by one, by a quarter of what may move, to all or none. */
static bool amount_move(local *l, size_t idx) {
    plan_ctx *c = l->c;
    size_t p = idx / 6, m = idx % 6, i = c->space.pfrom[p];
    uint64_t room = c->space.movable[i] + l->cur->d[i],
             free_ = room - cbdp_plan_sent_from(c, l->cur, i);
    uint64_t q = room / 4 > 1 ? room / 4 : 1, a = l->cur->a[p];
    const uint64_t to[6] = {a + (free_ >= 1),     a - (a >= 1), a + (free_ >= q ? q : free_),
                            a - (a >= q ? q : a), a + free_,    0};
    if (to[m] == a) {
        return false;
    }
    cbdp_plan_state_copy(c, l->cand, l->cur);
    l->cand->a[p] = to[m];
    return true;
}

/* Armies from order p to order q of the same territory: one, or all. */
static bool shift_move(local *l, size_t idx) {
    plan_ctx *c = l->c;
    size_t p = idx / (l->width * 2), all = idx % 2;
    if (l->cur->a[p] == 0) {
        return false;
    }
    size_t q = sibling(c, p, idx / 2 % l->width);
    if (q == p || q == c->space.np) {
        return false;
    }
    uint64_t v = all ? l->cur->a[p] : 1;
    cbdp_plan_state_copy(c, l->cand, l->cur);
    l->cand->a[p] -= v;
    l->cand->a[q] += v;
    return true;
}

/* The order at place x and the next order of the plan's order, swapped. */
static bool swap_move(local *l, size_t x) {
    plan_ctx *c = l->c;
    if (l->cur->a[l->cur->seq[x]] == 0) {
        return false;
    }
    size_t y = x + 1;
    while (y < c->space.np && l->cur->a[l->cur->seq[y]] == 0) {
        y++;
    }
    if (y == c->space.np) {
        return false;
    }
    cbdp_plan_state_copy(c, l->cand, l->cur);
    l->cand->seq[x] = l->cur->seq[y];
    l->cand->seq[y] = l->cur->seq[x];
    return true;
}

/* Order p's target attacked instead from every other own territory bordering it, with all each
 * has left, and what p sent (with the rest of its territory's) sent by order q of the same
 * territory (q == p: kept back). */
static bool reroute_move(local *l, size_t idx) {
    plan_ctx *c = l->c;
    size_t p = idx / l->width, i = c->space.pfrom[p];
    if (l->cur->a[p] == 0) {
        return false;
    }
    size_t q = sibling(c, p, idx % l->width);
    if (q == c->space.np) {
        return false;
    }
    cbdp_plan_state_copy(c, l->cand, l->cur);
    l->cand->a[p] = 0;
    bool helped = false;
    for (size_t r = 0; r < c->space.np; r++) {
        size_t j = c->space.pfrom[r];
        if (j != i && c->space.pto[r] == c->space.pto[p]) {
            uint64_t left =
                c->space.movable[j] + l->cand->d[j] - cbdp_plan_sent_from(c, l->cand, j);
            l->cand->a[r] += left;
            helped |= left > 0;
        }
    }
    if (!helped) {
        return false;
    }
    if (q != p) {
        l->cand->a[q] += c->space.movable[i] + l->cand->d[i] - cbdp_plan_sent_from(c, l->cand, i);
    }
    return true;
}

/* Climbs from *cur (of value `value` and guide `aux`): the moves in turn, each one that climbs
 * taken at once and the scan going on from the next move (not from the first again, which
 * would analyse the moves before it once more for every step), until a whole round of the
 * moves finds none or the search ends. */
static eval_result climb(plan_ctx *c, plan_state *cur, double value, double aux, plan_state *cand) {
    local l = {c, cur, value, aux, cbdp_plan_size(c, cur), cand, SIDEWAYS, 0};
    for (size_t p = 0, run = 0; p < c->space.np; p++) {
        run = p > 0 && c->space.pfrom[p - 1] == c->space.pfrom[p] ? run + 1 : 1;
        l.width = run > l.width ? run : l.width;
    }
    bool (*const apply[MOVE_KINDS])(local *, size_t) = {add_move,   deploy_move, amount_move,
                                                        shift_move, swap_move,   reroute_move};
    size_t count[MOVE_KINDS], total = 0;
    for (int m = 0; m < MOVE_KINDS; m++) {
        count[m] = move_count(&l, m);
        total += count[m];
    }
    int kind = 0;
    size_t idx = 0;
    for (size_t quiet = 0; quiet < total; quiet++) {
        while (idx >= count[kind]) {
            idx = 0;
            kind = (kind + 1) % MOVE_KINDS;
        }
        if (apply[kind](&l, idx++)) {
            eval_result r;
            if (better(&l, &r)) {
                quiet = 0;
            } else if (r == EVAL_STOP || r == EVAL_ERROR) {
                return r;
            }
        }
    }
    return EVAL_DONE;
}

/* A few random moves of s (the kick of an iterated local search), kept in the space. */
static void kick(const plan_ctx *c, cbd_rng *rng, plan_state *s) {
    size_t moves = 1 + cbd_rng_bounded(rng, 3);
    for (size_t m = 0; m < moves; m++) {
        switch (cbd_rng_bounded(rng, 4)) {
            case 0: { /* deploys from one territory to another */
                size_t i = cbd_rng_bounded(rng, c->space.k), j = cbd_rng_bounded(rng, c->space.k);
                uint64_t v = s->d[i] == 0 ? 0 : 1 + cbd_rng_bounded(rng, s->d[i]);
                s->d[i] -= v;
                s->d[j] += v;
                cbdp_plan_fit(c, s, i);
                break;
            }
            case 1: { /* one order's amount drawn anew */
                if (c->space.np == 0) {
                    break;
                }
                size_t p = cbd_rng_bounded(rng, c->space.np), i = c->space.pfrom[p];
                uint64_t room =
                    c->space.movable[i] + s->d[i] - cbdp_plan_sent_from(c, s, i) + s->a[p];
                s->a[p] = cbd_rng_bounded(rng, room + 1);
                break;
            }
            case 2: { /* two places of the order swapped */
                if (c->space.np < 2) {
                    break;
                }
                size_t x = cbd_rng_bounded(rng, c->space.np), y = cbd_rng_bounded(rng, c->space.np);
                uint32_t t = s->seq[x];
                s->seq[x] = s->seq[y];
                s->seq[y] = t;
                break;
            }
            default: { /* one order sends all its territory has left */
                if (c->space.np == 0) {
                    break;
                }
                size_t p = cbd_rng_bounded(rng, c->space.np), i = c->space.pfrom[p];
                s->a[p] += c->space.movable[i] + s->d[i] - cbdp_plan_sent_from(c, s, i);
                break;
            }
        }
    }
}

/* Anytime: kicks of the best plan and fresh random plans, each climbed, until max_plans or the
 * run's work ends it (or IDLE_ROUNDS rounds in a row find no plan not seen before: the space is
 * then all but searched). */
static eval_result restarts(plan_ctx *c, plan_state *cur, plan_state *cand) {
    cbd_rng rng;
    cbd_rng_seed(&rng, CBD_PLAN_SEED + 1);
    eval_result r = EVAL_DONE;
    for (size_t round = 0, idle = 0;
         r != EVAL_STOP && r != EVAL_ERROR && idle < IDLE_ROUNDS && c->best.kept[0].used; round++) {
        uint64_t before = c->best.evaluated;
        if (round % 3 == 2) {
            cbdp_plan_random(c, &rng, cur);
        } else {
            cbdp_plan_state_copy(c, cur,
                                 &c->best.kept[round % 6 == 4 && c->best.kept[1].used ? 1 : 0].st);
            kick(c, &rng, cur);
        }
        for (size_t i = 0; i < c->space.k; i++) {
            cbdp_plan_fit(c, cur, i);
        }
        double v;
        r = cbdp_plan_state_valid(c, cur) ? cbdp_plan_try(c, cur, &v) : EVAL_SKIP;
        if (r == EVAL_DONE) {
            r = climb(c, cur, v, c->best.last_aux, cand);
        }
        idle = c->best.evaluated == before ? idle + 1 : 0;
    }
    return r;
}

eval_result cbdp_plan_local(plan_ctx *c) {
    plan_state cur, cand;
    if (!cbdp_plan_state_alloc(c, &cur) || !cbdp_plan_state_alloc(c, &cand)) {
        cbdp_plan_state_free(&cur);
        cbdp_plan_state_free(&cand);
        c->meter.status = cbd_budget_nomem(c->meter.budget);
        return EVAL_ERROR;
    }
    /* W47: the greedy and the even split first, so that the climbs start at least there */
    eval_result r = cbdp_plan_splits(c, &c->scratch);
    if (r != EVAL_STOP && r != EVAL_ERROR) {
        r = cbdp_plan_seeds(c, &c->scratch, true);
    }
    /* climb from the best seeds, as they stand before the climbs change the kept list */
    plan_state starts[LOCAL_STARTS];
    double values[LOCAL_STARTS], auxes[LOCAL_STARTS];
    size_t n_starts = 0;
    bool ok = true;
    for (size_t i = 0; i < LOCAL_STARTS && c->best.kept[i].used && ok; i++) {
        ok = cbdp_plan_state_alloc(c, &starts[i]);
        if (ok) {
            cbdp_plan_state_copy(c, &starts[i], &c->best.kept[i].st);
            values[i] = c->best.kept[i].value;
            auxes[i] = c->best.kept[i].aux;
            n_starts++;
        }
    }
    if (!ok) {
        c->meter.status = cbd_budget_nomem(c->meter.budget);
        r = EVAL_ERROR;
    }
    for (size_t i = 0; i < n_starts && r != EVAL_STOP && r != EVAL_ERROR; i++) {
        cbdp_plan_state_copy(c, &cur, &starts[i]);
        r = climb(c, &cur, values[i], auxes[i], &cand);
    }
    for (size_t i = 0; i < n_starts; i++) {
        cbdp_plan_state_free(&starts[i]);
    }
    if (r != EVAL_STOP && r != EVAL_ERROR) {
        r = restarts(c, &cur, &cand);
    }
    cbdp_plan_state_free(&cur);
    cbdp_plan_state_free(&cand);
    return r;
}
