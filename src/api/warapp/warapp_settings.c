#include "warapp_settings.h"

const char *const cbd_warapp_settings_keys[] = {
    "offense_kill_rate", "defense_kill_rate",         "luck_modifier",
    "rounding_mode",     "one_army_must_stand_guard", NULL};
_Static_assert(sizeof cbd_warapp_settings_keys / sizeof *cbd_warapp_settings_keys ==
                   CBD_WARAPP_SETTINGS_N_KEYS + 1,
               "CBD_WARAPP_SETTINGS_N_KEYS counts the names of cbd_warapp_settings_keys");

static const char *const rounding_names[] = {"straight_round", "weighted_random", NULL};

bool cbd_warapp_settings_read(const cbd_reader *r, cbd_warapp_settings *s) {
    int rounding;
    bool ok = cbd_read_micro(r, "offense_kill_rate", &s->offense_kill_rate) != CBD_FIELD_BAD;
    ok &= cbd_read_micro(r, "defense_kill_rate", &s->defense_kill_rate) != CBD_FIELD_BAD;
    ok &= cbd_read_micro(r, "luck_modifier", &s->luck_modifier) != CBD_FIELD_BAD;
    cbd_field f = cbd_read_enum(r, "rounding_mode", rounding_names, &rounding);
    if (f == CBD_FIELD_OK) {
        s->rounding = rounding == 0 ? CBD_ROUND_STRAIGHT : CBD_ROUND_WEIGHTED;
    }
    ok &= f != CBD_FIELD_BAD;
    ok &= cbd_read_bool(r, "one_army_must_stand_guard", &s->one_army_must_stand_guard) !=
          CBD_FIELD_BAD;
    return ok;
}

void cbd_warapp_settings_members(cbd_jw *w, const cbd_warapp_settings *s) {
    cbd_jw_key_real(w, "offense_kill_rate", cbd_micro_to_double(s->offense_kill_rate));
    cbd_jw_key_real(w, "defense_kill_rate", cbd_micro_to_double(s->defense_kill_rate));
    cbd_jw_key_real(w, "luck_modifier", cbd_micro_to_double(s->luck_modifier));
    cbd_jw_key_string(w, "rounding_mode",
                      rounding_names[s->rounding == CBD_ROUND_STRAIGHT ? 0 : 1]);
    cbd_jw_key_bool(w, "one_army_must_stand_guard", s->one_army_must_stand_guard);
}

void cbdp_warapp_settings_write(cbd_jw *w, const char *key, const cbd_warapp_settings *s) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    cbd_warapp_settings_members(w, s);
    cbd_jw_object_close(w);
}
