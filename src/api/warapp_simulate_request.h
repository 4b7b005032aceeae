#ifndef COMBATD_API_WARAPP_SIMULATE_REQUEST_H
#define COMBATD_API_WARAPP_SIMULATE_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "combatd/warapp.h"
#include "config.h"
#include "json_reader.h"

/*
 * The battle fields /simulate shares with /analyze-attack (attackers, defenders, source_armies,
 * transfer, settings) and their W7/W10 checks. /analyze-attack has its own reader on its branch
 * (warapp_request.c); the two are to be unified when the branches merge.
 */
typedef struct {
    uint64_t attackers; /* given, or derived from source_armies (W7) */
    uint64_t defenders;
    bool transfer; /* W8 */
    cbd_warapp_settings settings;
} cbd_sim_battle_fields;

/* The member names the battle fields use, to list in a reader's `allowed` set. */
#define CBD_SIM_BATTLE_KEYS "attackers", "defenders", "source_armies", "transfer", "settings"

/* Reads the battle fields from the request object; records every offending field. */
void cbd_sim_read_battle(const cbd_config *cfg, const cbd_reader *r, cbd_sim_battle_fields *out);

#endif
