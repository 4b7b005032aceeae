#ifndef COMBATD_CORE_WARAPP_PLAN_FRONTS_H
#define COMBATD_CORE_WARAPP_PLAN_FRONTS_H

/*
 * The fronts of a board (W34, W35) as the search by fronts holds them: warapp_plan_front.c makes
 * them and runs one front at one deploy total; warapp_plan_split.c splits the income across
 * them. Shared by those two files only.
 */
#include "warapp_plan_internal.h"

typedef struct {
    bool own, goals;
    size_t n_goals;
    uint32_t *goal; /* the front's goals, in the request's order */
    size_t n_bonuses;
    cbd_turn_bonus *bonus; /* `income`: the front's bonuses (W35: each on one front) */
    size_t n_orders;       /* the other players' orders on it */
    cbd_turn_order *orders;
    size_t *order_map;  /* -> the board's */
    bool *mask;         /* per territory: the player's own territories of the front */
    uint32_t first_own; /* its least own territory */
    cbd_turn board;     /* the board with the front's orders only */
} front;

typedef struct {
    const cbd_turn *board;
    const cbd_plan_request *req;
    const cbd_turn_limits *limits;
    cbd_budget *budget;
    cbd_turn_error *err;
    size_t nf;
    front *f;
    uint32_t *front_of; /* per territory */
    uint64_t plans_left, work_left, runs_left;
    bool first_done; /* a run has ended with a plan: later firsts keep to their shares */
    uint64_t evaluated, bounded;
    cbd_plan_stop stop; /* the highest of the runs' stops (and of a phase max_plans left out) */
} fronts;

/* The fronts of s->board (one when W34 does not let it split). False: out of memory or the
 * budget spent. */
bool cbdp_fronts_of(fronts *s);
void cbdp_fronts_free(fronts *s);

/* The value of a front the player cannot touch: its goals with the other players' orders. */
cbd_status cbdp_fixed_value(fronts *s, const front *f, double *value);

/* One run of front f at deploy total d, with its share of the plans and the work left (divided
 * among s->runs_left runs). */
cbd_status cbdp_run_front(fronts *s, const front *f, uint64_t d, plan_run *run);

/* A combination of two fronts' values (W34): a product for `all`, else a sum. */
double cbdp_combine(const cbd_plan_request *req, double a, double b);

/* The plan of the chosen runs (alt: the front whose plan is its alternative `which`, or
 * SIZE_MAX), with `extra` deployed on territory `extra_on`; deploy is scratch of a per
 * territory. */
cbd_status cbdp_compose(fronts *s, plan_run *const *chosen, size_t m, size_t alt, size_t which,
                        uint64_t extra, uint32_t extra_on, uint64_t *deploy, cbd_plan *out);

/* A plan's size as cbdp_plan_size counts it (orders << 40 | armies sent). */
uint64_t cbdp_size_of(const cbd_plan *p);

#endif
