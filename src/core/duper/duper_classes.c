/*
 * The Duper class table: one row per unit class (docs/rules.md's unit table, D1, D5, D6, D8).
 * Every other place that needs a class's name, layer, default power or death priority, or
 * whether planes carry it or its death eliminates a player, reads it from here.
 */
#include "combatd/duper.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One row per class: the class, its name, layer, {power, death priority}, loadable (D5),
 * capital (D8), priority setting. Rows are placed by their class (designated initializers),
 * and the static asserts below check that the rows name every class once: as many rows as
 * classes, and every class among them, so that a class added to the enum without its row fails
 * to build wherever it sits in the enum. The fort's death priority is decided by D6 at battle
 * time; its 5 here only orders it among buildings and is not a setting. Centers never die (D7:
 * priority 0). The supercapital (capital lv4) is a ground troop: it moves, attacks and rides
 * planes.
 */
/* clang-format off */
#define CLASS_ROWS(ROW)                                                                            \
    ROW(CBD_DUPER_SOLDIER,      "soldier",      CBD_DUPER_GROUND,   1,  1, true,  false, true)    \
    ROW(CBD_DUPER_LARVA,        "larva",        CBD_DUPER_GROUND,   1,  1, true,  false, true)    \
    ROW(CBD_DUPER_TANK,         "tank",         CBD_DUPER_GROUND,   3,  2, true,  false, true)    \
    ROW(CBD_DUPER_PLANE,        "plane",        CBD_DUPER_AIR,      4,  3, false, false, true)    \
    ROW(CBD_DUPER_FORT,         "fort",         CBD_DUPER_BUILDING, 7,  5, false, false, false)   \
    ROW(CBD_DUPER_CENTER,       "center",       CBD_DUPER_BUILDING, 0,  0, false, false, true)    \
    ROW(CBD_DUPER_CAPITAL_LV1,  "capital_lv1",  CBD_DUPER_BUILDING, 9,  6, false, true,  true)    \
    ROW(CBD_DUPER_CAPITAL_LV2,  "capital_lv2",  CBD_DUPER_BUILDING, 16, 6, false, true,  true)    \
    ROW(CBD_DUPER_CAPITAL_LV3,  "capital_lv3",  CBD_DUPER_BUILDING, 20, 6, false, true,  true)    \
    ROW(CBD_DUPER_SUPERCAPITAL, "supercapital", CBD_DUPER_GROUND,   21, 4, true,  true,  true)
/* clang-format on */

#define CLASS_ROW(c, name, layer, power, priority, loadable, capital, setting)                     \
    [c] = {name, layer, {power, priority}, loadable, capital, setting},
static const cbd_duper_class_info classes[] = {CLASS_ROWS(CLASS_ROW)};

#define CLASS_ONE(c, ...) +1
#define CLASS_BIT(c, ...) | (UINT32_C(1) << (c))
_Static_assert(CBD_DUPER_CLASS_COUNT < 32, "the classes fit the bits below");
_Static_assert((0 CLASS_ROWS(CLASS_ONE)) == CBD_DUPER_CLASS_COUNT,
               "one row of the class table per cbd_duper_class");
_Static_assert((0 CLASS_ROWS(CLASS_BIT)) == (UINT32_C(1) << CBD_DUPER_CLASS_COUNT) - 1,
               "every cbd_duper_class has its row: none is missing, wherever it sits");
_Static_assert(sizeof classes / sizeof classes[0] == CBD_DUPER_CLASS_COUNT,
               "no row of a value past the enum");

const cbd_duper_class_info *cbd_duper_class_row(cbd_duper_class c) {
    if ((int)c < 0 || c >= CBD_DUPER_CLASS_COUNT) {
        return NULL;
    }
    return &classes[c];
}

size_t cbd_duper_class_names(bool loadable_only, const char *names[CBD_DUPER_CLASS_COUNT + 1]) {
    size_t n = 0;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (!loadable_only || classes[c].loadable) {
            names[n++] = classes[c].name;
        }
    }
    names[n] = NULL;
    return n;
}

const char *cbd_duper_class_name(cbd_duper_class c) {
    const cbd_duper_class_info *row = cbd_duper_class_row(c);
    return row ? row->name : NULL;
}

cbd_duper_layer cbd_duper_class_layer(cbd_duper_class c) {
    const cbd_duper_class_info *row = cbd_duper_class_row(c);
    return row ? row->layer : CBD_DUPER_GROUND;
}

bool cbd_duper_is_capital(cbd_duper_class c) {
    const cbd_duper_class_info *row = cbd_duper_class_row(c);
    return row && row->capital;
}

bool cbd_duper_is_loadable(cbd_duper_class c) {
    const cbd_duper_class_info *row = cbd_duper_class_row(c);
    return row && row->loadable;
}
