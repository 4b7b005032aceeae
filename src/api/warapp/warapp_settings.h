#ifndef COMBATD_API_WARAPP_SETTINGS_H
#define COMBATD_API_WARAPP_SETTINGS_H

#include <jansson.h>

#include "combatd/warapp.h"
#include "json/json_reader.h"
#include "json/json_write.h"

/* Reads a `settings` object (as in requests and in the config file) over *settings; false when
 * a field error was recorded. */
bool cbd_warapp_settings_read(const cbd_reader *r, cbd_warapp_settings *settings);

/* The allowed member names of a settings object, NULL-terminated: CBD_WARAPP_SETTINGS_N_KEYS
 * names (warapp_settings.c checks the count against the table), so that an endpoint adding its
 * own members sizes its list from it. */
#define CBD_WARAPP_SETTINGS_N_KEYS 5
extern const char *const cbd_warapp_settings_keys[];

/* The effective settings' members, written into the object the caller has open (so that an
 * endpoint can add its own, as the turn endpoints add multi_attack). */
void cbd_warapp_settings_members(cbd_jw *w, const cbd_warapp_settings *settings);

/* The effective settings as the API echoes them: member `key` of the object being written. */
void cbdp_warapp_settings_write(cbd_jw *w, const char *key, const cbd_warapp_settings *settings);

#endif
