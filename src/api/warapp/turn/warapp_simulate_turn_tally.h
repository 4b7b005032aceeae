#ifndef COMBATD_API_WARAPP_SIMULATE_TURN_TALLY_H
#define COMBATD_API_WARAPP_SIMULATE_TURN_TALLY_H

/*
 * What /simulate-turn counts over its trials (warapp_simulate_turn_tally.c): each territory's
 * owners and armies, each order's results, the goals met, the units' places and the players
 * eliminated (W21, W22), and the listed turns. Integer counts only, so the same trials give
 * the same bytes; warapp_simulate_turn_render.c writes them.
 */
#include "warapp_turn_json.h"

/* The armies one territory ended with: value -> count, open addressing (key + 1; 0 = empty).
 * Armies go up to 10^9, so nothing is allocated per army; only per distinct value seen. The
 * counts share the keys' block (count = key + cap): one allocation per growth, not two. */
typedef struct {
    uint64_t *key, *count;
    size_t cap, n;
    uint64_t sum;
} cbd_turn_hist;

/* The counts of one request's trials. */
typedef struct {
    const cbd_turn_request *q;
    cbd_budget *budget;               /* every block below comes from it */
    uint64_t hist_bytes;              /* what the armies histograms hold */
    size_t n_terr, n_orders, n_owner; /* n_owner = players + 1 (neutral last) */
    uint64_t *owner_counts;           /* n_terr × n_owner */
    cbd_turn_hist *armies;            /* n_terr */
    uint64_t (*order_counts)[4];      /* skipped, attacks, transfers, captures */
    uint64_t goals_met;
    cbd_turn_territory *boards; /* listed turns: trials × n_terr, or NULL */
    cbd_turn_event *events;     /* listed turns: trials × n_orders, or NULL */
    uint64_t *drawn;            /* listed turns under fog (W23): trials × n_terr, or NULL */
    size_t n_units;             /* W21: the board's units (0: none, the counts below NULL) */
    uint64_t *unit_at;          /* n_units × n_terr: the trials it ended alive there */
    uint64_t *unit_alive;       /* n_units */
    uint64_t *eliminated;       /* n_players (W22) */
    /* Listed turns with units (W19, W21), or NULL: trials × n_units each. Where each unit
     * ended, and the living units as the board lists them (cbd_turn_sim_units_listed), then
     * CBD_TURN_UNIT_DEAD. */
    uint32_t *turn_unit_at, *turn_units;
    uint64_t *bonus_owner; /* W32: n_bonuses × n_players, or NULL without bonuses */
    uint64_t n_bonus_terr; /* W32: the territories of every bonus, each looked at a trial */
} cbd_turn_tally;

/* The count of a key the histogram holds (a key is armies + 1, as its `key` array has it). */
uint64_t cbdp_turn_hist_count(const cbd_turn_hist *h, uint64_t key);

/* Frees a histogram's table (once written: warapp_simulate_turn_render.c); its n and sum stay. */
void cbdp_turn_hist_release(cbd_turn_hist *h);

/* The counts for `trials` trials of q's turn, with room for the listed turns when
 * `include_turns` (trials <= warapp.max_listed_turns then); false when the budget or the
 * system refused the memory (cbdp_turn_tally_free frees what was taken). */
bool cbdp_turn_tally_init(cbd_turn_tally *s, cbd_budget *budget, const cbd_turn_request *q,
                          uint64_t trials, bool include_turns);
void cbdp_turn_tally_free(cbd_turn_tally *s);
/* One resolved turn into the counts; false when a histogram could not grow. */
bool cbdp_turn_tally_add(cbd_turn_tally *s, const cbd_turn_territory *board,
                         const cbd_turn_event *ev);
/* W21, W22: where each unit ended and who was eliminated, into the counts, and for a listed
 * turn (`trial`) its units as the board lists them. */
void cbdp_turn_tally_add_units(cbd_turn_tally *s, const cbd_turn_sim *sim, uint64_t trial);

#endif
