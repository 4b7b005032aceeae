#ifndef COMBATD_API_WARAPP_UNITS_JSON_H
#define COMBATD_API_WARAPP_UNITS_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "combatd/warapp_units.h"
#include "api/api_config.h"
#include "json/json_reader.h"
#include "json/json_write.h"

/*
 * Special units in a request (W17):
 *   {"type": "commander", "id": "alice-cmdr"}
 *   {"type": "custom", "name": "Shield", "attack_power": 0, "defense_power": 4,
 *    "combat_order": -5, "damage_to_kill": 10}          (or "health": 6 instead)
 * `id` and `name` are 1–64 characters (as the contract's maxLength counts them); a turn
 * requires an id, one of its ids (1–64 bytes, warapp_turn_ids.h). Powers and toughness are whole
 * numbers up to 10^9, the combat order from −10^9 to 10^9.
 */
#define CBD_UNIT_ID_MAX   64
#define CBD_UNIT_NAME_MAX 64

typedef struct {
    bool given; /* the request had the member (an empty array included) */
    size_t n;
    cbd_warapp_unit units[CBD_WARAPP_MAX_UNITS];
    const char *ids[CBD_WARAPP_MAX_UNITS];   /* NULL when not given; into the request */
    const char *names[CBD_WARAPP_MAX_UNITS]; /* a custom unit's name; NULL for a commander */
} cbd_warapp_units;

/*
 * Reads the array member `key` of r (absent: no units) into *out: at most cfg->max_units
 * units. Records a field error (`/defending_units/1/damage_to_kill`) for each problem and
 * returns false when there was one.
 */
bool cbd_warapp_units_read(const cbd_reader *r, const char *key, const cbd_warapp_config *cfg,
                           cbd_warapp_units *out);

/* Writes unit i's members as the answer echoes it (type, id, name, its numbers) into the object
 * the caller has open. */
void cbdp_warapp_unit_members(cbd_jw *w, const cbd_warapp_units *u, size_t i);

/*
 * For the cost estimates, before the request is validated: the larger of a unit's attack and
 * defense power (W18: each point rolls), 7 for a Commander, 0 for what cannot be read, at most
 * 10^9 as a valid unit's.
 */
uint64_t cbd_warapp_unit_json_power(const json_t *unit);

#endif
