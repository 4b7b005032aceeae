/* The common battle fields of a War.app request (W7, W8, W10), as /simulate reads them. */
#include "warapp_simulate_request.h"

#include <inttypes.h>

#include "warapp_settings.h"

void cbd_sim_read_battle(const cbd_config *cfg, const cbd_reader *r, cbd_sim_battle_fields *out) {
    const uint64_t cap = cfg->warapp.army_cap; /* W10 */
    out->settings = cfg->warapp.defaults;
    out->transfer = false;
    out->attackers = 0;
    out->defenders = 0;

    cbd_reader settings;
    if (cbd_read_object(r, "settings", cbd_warapp_settings_keys, &settings) == CBD_FIELD_OK) {
        cbd_warapp_settings_read(&settings, &out->settings);
    }
    (void)cbd_read_bool(r, "transfer", &out->transfer);

    char ptr[224];
    /* W10: an order needs at least 1 army. */
    cbd_field attackers = cbd_read_u64(r, "attackers", 1, cap, &out->attackers);
    uint64_t source = 0;
    cbd_field source_f = cbd_read_u64(r, "source_armies", 0, cap, &source);
    cbd_field defenders = cbd_read_u64(r, "defenders", 0, cap, &out->defenders);
    if (defenders == CBD_FIELD_ABSENT && !out->transfer) {
        cbd_reader_child_pointer(r, "defenders", ptr, sizeof ptr);
        cbd_problem_field(r->problem, ptr,
                          "is required for an attack (a whole number from 0 to %" PRIu64 ")", cap);
    }

    /* W7: with one army standing guard, at most source_armies − 1 may leave. */
    const bool guard = out->settings.one_army_must_stand_guard;
    if (source_f == CBD_FIELD_OK) {
        uint64_t allowed = guard ? (source > 0 ? source - 1 : 0) : source;
        if (attackers == CBD_FIELD_ABSENT) {
            if (allowed == 0) {
                cbd_reader_child_pointer(r, "source_armies", ptr, sizeof ptr);
                cbd_problem_field(r->problem, ptr, "leaves no army to move%s: give at least %d",
                                  guard ? " while one must stand guard (W7)" : "", guard ? 2 : 1);
            }
            out->attackers = allowed;
        } else if (attackers == CBD_FIELD_OK && out->attackers > allowed) {
            cbd_reader_child_pointer(r, "attackers", ptr, sizeof ptr);
            cbd_problem_field(r->problem, ptr,
                              "may be at most %" PRIu64 " from %" PRIu64 " source armies%s",
                              allowed, source, guard ? " while one must stand guard (W7)" : "");
        }
    } else if (attackers == CBD_FIELD_ABSENT && source_f == CBD_FIELD_ABSENT) {
        cbd_reader_child_pointer(r, "attackers", ptr, sizeof ptr);
        cbd_problem_field(r->problem, ptr,
                          "is required unless source_armies is given (a whole number from 1 to "
                          "%" PRIu64 ")",
                          cap);
    }
}
