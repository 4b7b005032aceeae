#include "combatd/duper.h"

#include <stdbool.h>
#include <stddef.h>

static const char *const class_names[CBD_DUPER_CLASS_COUNT] = {
    "soldier", "larva",       "tank",        "plane",       "fort",
    "center",  "capital_lv1", "capital_lv2", "capital_lv3", "supercapital",
};

const char *cbd_duper_class_name(cbd_duper_class c) {
    if ((int)c < 0 || c >= CBD_DUPER_CLASS_COUNT) {
        return NULL;
    }
    return class_names[c];
}

cbd_duper_rules cbd_duper_default_rules(void) {
    /* RULINGS.md's unit table. The fort's death priority is decided by D6 at battle time;
     * the 5 here only orders it among buildings. Centers never die (D7). */
    cbd_duper_rules r = {
        .units =
            {
                [CBD_DUPER_SOLDIER] = {1, 1},
                [CBD_DUPER_LARVA] = {1, 1},
                [CBD_DUPER_TANK] = {3, 2},
                [CBD_DUPER_PLANE] = {4, 3},
                [CBD_DUPER_FORT] = {7, 5},
                [CBD_DUPER_CENTER] = {0, 0},
                [CBD_DUPER_CAPITAL_LV1] = {9, 6},
                [CBD_DUPER_CAPITAL_LV2] = {16, 6},
                [CBD_DUPER_CAPITAL_LV3] = {20, 6},
                [CBD_DUPER_SUPERCAPITAL] = {21, 4},
            },
        .key_buff_per_key = 2,
        .supporting_tank_death_priority = 4,
        .card_steal_probability = 350000,
        .tile_buff = {1, 2, 4},
    };
    return r;
}

cbd_duper_layer cbd_duper_class_layer(cbd_duper_class c) {
    switch (c) {
        case CBD_DUPER_PLANE:
            return CBD_DUPER_AIR;
        case CBD_DUPER_FORT:
        case CBD_DUPER_CENTER:
        case CBD_DUPER_CAPITAL_LV1:
        case CBD_DUPER_CAPITAL_LV2:
        case CBD_DUPER_CAPITAL_LV3:
            return CBD_DUPER_BUILDING;
        default:
            /* soldier, larva, tank and the supercapital (a ground troop, per the unit table) */
            return CBD_DUPER_GROUND;
    }
}

bool cbd_duper_is_capital(cbd_duper_class c) {
    return c == CBD_DUPER_CAPITAL_LV1 || c == CBD_DUPER_CAPITAL_LV2 || c == CBD_DUPER_CAPITAL_LV3 ||
           c == CBD_DUPER_SUPERCAPITAL;
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
