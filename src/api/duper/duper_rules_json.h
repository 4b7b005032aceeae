#ifndef COMBATD_API_DUPER_RULES_JSON_H
#define COMBATD_API_DUPER_RULES_JSON_H

#include "combatd/duper.h"
#include "json/json_reader.h"

/* Reads a Duper rules object (the config file's "duper" section, a request's "rules") over
 * *rules. Errors are recorded in r->problem with the member's pointer. */
void cbd_duper_rules_read(const cbd_reader *r, cbd_duper_rules *rules);

/* The allowed member names of a rules object. */
extern const char *const cbd_duper_rules_keys[];

#endif
