/*
 * The Duper rules object (D1): the config file's "duper" section and a request's "rules"
 * share this reader, so the unit table and the knobs are validated the same way at start-up
 * and per request, every error naming its pointer (/duper/units/tank/power, /rules/...).
 *
 *   {"units": {"tank": {"power": 3, "death_priority": 2}, "fort": {"power": 7}, ...},
 *    "key_buff_per_key": 2, "supporting_tank_death_priority": 4,
 *    "card_steal_probability": 0.35, "tile_buff": [1, 2, 4]}
 *
 * Every member is optional and overrides only what it names.
 */
#include "duper_rules_json.h"

#include <stdio.h>

const char *const cbd_duper_rules_keys[] = {"units",
                                            "key_buff_per_key",
                                            "supporting_tank_death_priority",
                                            "card_steal_probability",
                                            "tile_buff",
                                            NULL};

static const char *const unit_keys[] = {"power", "death_priority", NULL};
/* For a class whose death priority is no setting (the fort: D6 places it in the death order). */
static const char *const power_only_keys[] = {"power", NULL};

static void read_units(const cbd_reader *r, cbd_duper_rules *rules) {
    const char *names[CBD_DUPER_CLASS_COUNT + 1];
    cbd_duper_class_names(false, names);
    cbd_reader units;
    if (cbd_read_object(r, "units", names, &units) != CBD_FIELD_OK) {
        return;
    }
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        cbd_reader unit;
        bool priority_setting = cbd_duper_class_row((cbd_duper_class)c)->death_priority_setting;
        const char *const *keys = priority_setting ? unit_keys : power_only_keys;
        if (cbd_read_object(&units, names[c], keys, &unit) != CBD_FIELD_OK) {
            continue;
        }
        uint64_t v;
        if (cbd_read_u64(&unit, "power", 0, CBD_DUPER_MAX_POWER, &v) == CBD_FIELD_OK) {
            rules->units[c].power = (uint32_t)v;
        }
        if (priority_setting && cbd_read_u64(&unit, "death_priority", 0,
                                             CBD_DUPER_MAX_DEATH_PRIORITY, &v) == CBD_FIELD_OK) {
            rules->units[c].death_priority = (uint32_t)v; /* 0: never dies (D7) */
        }
    }
}

static void read_tile_buff(const cbd_reader *r, cbd_duper_rules *rules) {
    const json_t *arr;
    if (cbd_read_array(r, "tile_buff", 3, &arr) != CBD_FIELD_OK) {
        return;
    }
    if (json_array_size(arr) != 3) {
        cbd_reader_error(r, "tile_buff",
                         "must list the buffs of tile levels 1, 2 and 3 (3 numbers)");
        return;
    }
    for (size_t i = 0; i < 3; i++) {
        const json_t *v = json_array_get(arr, i);
        json_int_t x = json_is_integer(v) ? json_integer_value(v) : -1;
        if (x < 0 || x > (json_int_t)CBD_DUPER_MAX_POWER) {
            cbd_reader_item_error(r, "tile_buff", i, "must be a whole number from 0 to %u",
                                  CBD_DUPER_MAX_POWER);
            continue;
        }
        rules->tile_buff[i] = (uint32_t)x;
    }
}

void cbd_duper_rules_read(const cbd_reader *r, cbd_duper_rules *rules) {
    uint64_t v;
    read_units(r, rules);
    if (cbd_read_u64(r, "key_buff_per_key", 0, CBD_DUPER_MAX_POWER, &v) == CBD_FIELD_OK) {
        rules->key_buff_per_key = (uint32_t)v; /* D2 */
    }
    if (cbd_read_u64(r, "supporting_tank_death_priority", 1, CBD_DUPER_MAX_DEATH_PRIORITY, &v) ==
        CBD_FIELD_OK) {
        rules->supporting_tank_death_priority = (uint32_t)v; /* D3 */
    }
    (void)cbd_read_micro(r, "card_steal_probability", &rules->card_steal_probability); /* D10 */
    read_tile_buff(r, rules);
}
