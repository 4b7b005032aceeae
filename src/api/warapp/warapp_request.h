#ifndef COMBATD_API_WARAPP_REQUEST_H
#define COMBATD_API_WARAPP_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "combatd/warapp.h"
#include "api/api_config.h"
#include "json/json_reader.h"
#include "json/json_write.h"
#include "warapp_fog_json.h"
#include "warapp_units_json.h"

/*
 * The battle every War.app endpoint reads (/analyze-attack, /simulate): who attacks whom, with
 * what settings. Each endpoint opens its request object with these member names plus its own,
 * then calls cbdp_warapp_request_read for the common ones.
 */
#define CBD_WARAPP_BATTLE_KEYS "attackers", "defenders", "source_armies", "transfer", "settings"
/* The special units beside them (W17), for the endpoints that take units. */
#define CBD_WARAPP_UNIT_KEYS "attacking_units", "defending_units"

typedef struct {
    uint64_t attackers;           /* effective: as given, or the most W7 allows from the source */
    uint64_t defenders;           /* 0 when a transfer leaves it out */
    bool has_source_armies;       /* source_armies was given */
    uint64_t source_armies;       /* armies on the source territory, when given */
    bool transfer;                /* W8: into the mover's own territory; no combat */
    cbd_warapp_settings settings; /* the config's defaults (W9) overridden by the request */
    cbd_warapp_units attacking, defending; /* W17; none when the endpoint takes no units */
    cbd_fog fog; /* W23: defenders as a distribution (then `defenders` is 0); n 0 otherwise */
} cbd_warapp_battle;

/* What an endpoint's battle may hold beyond armies: special units (W17), fog (W23). */
enum { CBD_BATTLE_UNITS = 1, CBD_BATTLE_FOG = 2 };

/* A battle that holds nothing to release, before cbdp_warapp_request_read sets it whole: what a
 * request struct needs instead of being zeroed (its unit arrays are written up to their counts
 * before they are read, and zeroing their 7 KB was a measurable share of a small request). */
void cbdp_warapp_battle_clear(cbd_warapp_battle *b);

/* Releases what cbdp_warapp_request_read allocated (the fog's counts). */
void cbdp_warapp_battle_free(cbd_warapp_battle *b);

/* The two sides of a battle as the core takes them (pointing into b). */
cbd_warapp_side cbdp_warapp_battle_attack(const cbd_warapp_battle *b);
cbd_warapp_side cbdp_warapp_battle_defense(const cbd_warapp_battle *b);

/*
 * Reads and checks the common battle fields of the request object `r`:
 *   attackers      1 .. army_cap; may be left out when source_armies is given (W7, W10)
 *   defenders      0 .. army_cap; required unless transfer is true
 *   source_armies  0 .. army_cap; attackers <= source_armies − 1 under stand guard, else
 *                  <= source_armies (W7: more is a 422, never a clamp)
 *   transfer       boolean, default false
 *   settings       the settings object (warapp_settings.h), every member optional
 *   defenders      (with CBD_BATTLE_FOG) also a distribution over counts (warapp_fog_json.h)
 *   attacking_units, defending_units  (with CBD_BATTLE_UNITS) arrays of units
 *                  (warapp_units_json.h);
 *                  attackers may then be 0 beside a unit (W20), and each side's power is at
 *                  most army_cap (W10, W18)
 * Records a field error (JSON pointer) for each problem. Returns true when the battle is valid,
 * false when an error was recorded (then *out is partly filled and must not be used).
 */
bool cbdp_warapp_request_read(const cbd_reader *r, const cbd_warapp_config *cfg, unsigned features,
                              cbd_warapp_battle *out);

/* The members of one battle's outcome (W4, W5), as both endpoints answer it: captured, then the
 * armies lost and left on each side. Written into the object the caller has open. */
void cbd_warapp_outcome_members(cbd_jw *w, const cbd_warapp_outcome *o);

/* The whole answer to a transfer (W8), the same from both endpoints. */
void cbdp_warapp_transfer_write(cbd_jw *w, const cbd_warapp_battle *b);

#endif
