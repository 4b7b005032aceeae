#include "combatd/duper.h"

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
