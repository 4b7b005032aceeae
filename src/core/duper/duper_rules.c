#include "combatd/duper.h"

#include <stdbool.h>
#include <stddef.h>

cbd_duper_rules cbd_duper_default_rules(void) {
    /* D2, D3, D10 and the tile buffs; the unit rows come from the class table (D1). */
    cbd_duper_rules r = {
        .key_buff_per_key = 2,
        .supporting_tank_death_priority = 4,
        .card_steal_probability = 350000,
        .tile_buff = {1, 2, 4},
    };
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        r.units[c] = cbd_duper_class_row((cbd_duper_class)c)->defaults;
    }
    return r;
}

bool cbd_duper_rules_valid(const cbd_duper_rules *rules) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (rules->units[c].power > CBD_DUPER_MAX_POWER ||
            rules->units[c].death_priority > CBD_DUPER_MAX_DEATH_PRIORITY) {
            return false;
        }
    }
    for (int i = 0; i < 3; i++) {
        if (rules->tile_buff[i] > CBD_DUPER_MAX_POWER) {
            return false;
        }
    }
    return rules->key_buff_per_key <= CBD_DUPER_MAX_POWER &&
           rules->supporting_tank_death_priority >= 1 &&
           rules->supporting_tank_death_priority <= CBD_DUPER_MAX_DEATH_PRIORITY &&
           rules->card_steal_probability <= CBD_MICRO_ONE;
}
