#ifndef COMBATD_DUPER_H
#define COMBATD_DUPER_H

#include <stdint.h>

#include "combatd/decimal.h"

/* Duper battles: the rules' knobs and unit table (RULINGS.md D1–D12). */

typedef enum {
    CBD_DUPER_SOLDIER = 0,
    CBD_DUPER_LARVA,
    CBD_DUPER_TANK,
    CBD_DUPER_PLANE,
    CBD_DUPER_FORT,
    CBD_DUPER_CENTER,
    CBD_DUPER_CAPITAL_LV1,
    CBD_DUPER_CAPITAL_LV2,
    CBD_DUPER_CAPITAL_LV3,
    CBD_DUPER_SUPERCAPITAL,
    CBD_DUPER_CLASS_COUNT
} cbd_duper_class;

/* One row of the unit table (D1). */
typedef struct {
    uint32_t power;
    uint32_t death_priority; /* lower dies first; 0 means the class never dies (centers, D7) */
} cbd_duper_unit;

/* The configurable rules: the unit table and the knobs RULINGS.md marks configurable. */
typedef struct {
    cbd_duper_unit units[CBD_DUPER_CLASS_COUNT];
    uint32_t key_buff_per_key;               /* D2, default 2 */
    uint32_t supporting_tank_death_priority; /* D3, default 4 */
    cbd_micro card_steal_probability;        /* D10, default 0.35 */
    uint32_t tile_buff[3];                   /* levels 1, 2, 3: 1, 2, 4 */
} cbd_duper_rules;

/* The shipped defaults (RULINGS.md's unit table and D2, D3, D10). */
cbd_duper_rules cbd_duper_default_rules(void);

/* The class's name in the API ("soldier", "capital_lv1", ...), or NULL when out of range. */
const char *cbd_duper_class_name(cbd_duper_class c);

#endif
