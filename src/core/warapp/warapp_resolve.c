/* W4, W5, W6: one battle's outcome from each side's kills. */
#include "combatd/warapp.h"

static uint64_t min_u64(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

cbd_warapp_outcome cbd_warapp_resolve(uint64_t attackers, uint64_t defenders,
                                      uint64_t attacker_kills, uint64_t defender_kills) {
    cbd_warapp_outcome o;
    /* W4: kills are capped at the opposing side's armies. */
    o.defenders_lost = min_u64(attacker_kills, defenders);
    o.attackers_lost = min_u64(defender_kills, attackers);
    o.attackers_left = attackers - o.attackers_lost;
    o.defenders_left = defenders - o.defenders_lost;
    /* W5: captured iff every defender dies and an attacker survives. With 0 defenders the
     * first condition always holds, so any attack of >= 1 army captures. */
    o.captured = o.defenders_left == 0 && o.attackers_left > 0;
    if (o.defenders_left == 0 && o.attackers_left == 0) {
        /* W5: mutual destruction; one defending army is resurrected and holds the territory.
         * It counts as not lost, so that lost + left = the starting armies for each side. */
        o.defenders_left = 1;
        o.defenders_lost = defenders - 1;
    }
    return o;
}
