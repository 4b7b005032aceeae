/* Placeholder until the Duper issue lands: an empty rules object keeps the defaults. */
#include "duper_rules_json.h"

const char *const cbd_duper_rules_keys[] = {NULL};

void cbd_duper_rules_read(const cbd_reader *r, cbd_duper_rules *rules) {
    (void)r;
    (void)rules;
}
