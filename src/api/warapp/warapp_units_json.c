/* Special units in War.app requests and answers (W17); see warapp_units_json.h. */
#include "warapp_units_json.h"

#include <inttypes.h>
#include <string.h>

static const char *const unit_keys[] = {
    "type",           "id",     "name", "attack_power", "defense_power", "combat_order",
    "damage_to_kill", "health", NULL};
static const char *const type_names[] = {"commander", "custom", NULL};
enum { TYPE_COMMANDER = 0, TYPE_CUSTOM = 1 };

#define UNIT_NUMBER_MAX UINT64_C(1000000000)
#define UNIT_ORDER_MAX  INT64_C(1000000000)

/* A Commander's members: its type and id; its numbers are W17's. */
static bool read_commander(const cbd_reader *u, cbd_warapp_unit *out) {
    static const char *const numbers[] = {
        "name", "attack_power", "defense_power", "combat_order", "damage_to_kill", "health", NULL};
    bool ok = true;
    for (const char *const *k = numbers; *k; k++) {
        if (json_object_get(u->obj, *k)) {
            cbd_reader_error(u, *k, "is not taken by a commander, whose numbers are fixed (W17)");
            ok = false;
        }
    }
    *out = cbd_warapp_commander();
    return ok;
}

/* A custom unit's name, powers, combat order and exactly one of damage_to_kill and health. */
static bool read_custom(const cbd_reader *u, cbd_warapp_unit *out, const char **name) {
    bool ok = true;
    static const char *const required[] = {"name", "attack_power", "defense_power", "combat_order",
                                           NULL};
    for (const char *const *k = required; *k; k++) {
        if (!cbd_reader_member(u, *k)) {
            cbd_reader_error(u, *k, "is required for a custom unit (W17)");
            ok = false;
        }
    }
    ok &= cbd_read_text(u, "name", CBD_UNIT_NAME_MAX, name) != CBD_FIELD_BAD;
    ok &= cbd_read_u64(u, "attack_power", 0, UNIT_NUMBER_MAX, &out->attack_power) != CBD_FIELD_BAD;
    ok &=
        cbd_read_u64(u, "defense_power", 0, UNIT_NUMBER_MAX, &out->defense_power) != CBD_FIELD_BAD;
    ok &= cbd_read_i64(u, "combat_order", -UNIT_ORDER_MAX, UNIT_ORDER_MAX, &out->combat_order) !=
          CBD_FIELD_BAD;
    uint64_t dtk = 0, health = 0;
    cbd_field f_dtk = cbd_read_u64(u, "damage_to_kill", 1, UNIT_NUMBER_MAX, &dtk);
    cbd_field f_health = cbd_read_u64(u, "health", 1, UNIT_NUMBER_MAX, &health);
    if (f_dtk == CBD_FIELD_ABSENT && f_health == CBD_FIELD_ABSENT) {
        cbd_reader_error(u, "damage_to_kill", "or health is required: exactly one of them (W17)");
        ok = false;
    } else if (f_dtk == CBD_FIELD_OK && f_health == CBD_FIELD_OK) {
        cbd_reader_error(u, "health", "cannot be given with damage_to_kill: exactly one (W17)");
        ok = false;
    }
    ok &= f_dtk != CBD_FIELD_BAD && f_health != CBD_FIELD_BAD;
    out->has_health = f_health == CBD_FIELD_OK;
    out->toughness = out->has_health ? health : dtk;
    return ok;
}

static bool read_unit(const cbd_reader *r, const char *key, size_t i, cbd_warapp_units *out) {
    cbd_reader u;
    if (!cbd_reader_open_item(&u, r, key, i, unit_keys)) {
        return false;
    }
    bool ok = cbd_read_text(&u, "id", CBD_UNIT_ID_MAX, &out->ids[i]) != CBD_FIELD_BAD;
    int type = -1;
    cbd_field t = cbd_read_enum(&u, "type", type_names, &type);
    if (t == CBD_FIELD_ABSENT) {
        cbd_reader_error(&u, "type", "is required: \"commander\" or \"custom\"");
    }
    if (t != CBD_FIELD_OK) {
        return false;
    }
    memset(&out->units[i], 0, sizeof out->units[i]);
    ok &= type == TYPE_COMMANDER ? read_commander(&u, &out->units[i])
                                 : read_custom(&u, &out->units[i], &out->names[i]);
    return ok;
}

bool cbd_warapp_units_read(const cbd_reader *r, const char *key, const cbd_warapp_config *cfg,
                           cbd_warapp_units *out) {
    /* The arrays are written up to n below; only the counts need clearing (3.6 KB a side
     * were zeroed on every request). */
    out->given = false;
    out->n = 0;
    if (json_is_null(cbd_reader_member(r, key))) {
        /* The contract's units are an array: null is not "none" (that is leaving it out). */
        cbd_reader_error(r, key,
                         "must be an array of units (W17), not null: leave it out for none");
        return false;
    }
    const json_t *arr;
    size_t most = cfg->max_units < CBD_WARAPP_MAX_UNITS ? cfg->max_units : CBD_WARAPP_MAX_UNITS;
    cbd_field f = cbd_read_array(r, key, most, &arr);
    if (f != CBD_FIELD_OK) {
        return f == CBD_FIELD_ABSENT;
    }
    bool ok = true;
    out->given = true;
    out->n = json_array_size(arr);
    for (size_t i = 0; i < out->n; i++) {
        out->ids[i] = out->names[i] = NULL; /* read_unit clears the unit itself */
        ok &= read_unit(r, key, i, out);
    }
    /* A unit's id names it in the answer, so two of the same would be ambiguous. */
    for (size_t i = 0; ok && i < out->n; i++) {
        for (size_t j = 0; out->ids[i] && j < i; j++) {
            if (out->ids[j] && strcmp(out->ids[i], out->ids[j]) == 0) {
                cbd_reader_item_error(r, key, i, "has the id \"%s\" of unit %zu: ids are unique",
                                      out->ids[i], j);
                ok = false;
                break;
            }
        }
    }
    return ok;
}

void cbdp_warapp_unit_members(cbd_jw *w, const cbd_warapp_units *u, size_t i) {
    const cbd_warapp_unit *x = &u->units[i];
    cbd_jw_key_string(w, "type", u->names[i] ? "custom" : "commander");
    if (u->ids[i]) {
        cbd_jw_key(w, "id");
        cbd_jw_string(w, u->ids[i]);
    }
    if (u->names[i]) {
        cbd_jw_key(w, "name");
        cbd_jw_string(w, u->names[i]);
    }
    cbd_jw_key_uint(w, "attack_power", x->attack_power);
    cbd_jw_key_uint(w, "defense_power", x->defense_power);
    cbd_jw_key_int(w, "combat_order", x->combat_order);
    cbd_jw_key_uint(w, x->has_health ? "health" : "damage_to_kill", x->toughness);
}

/* A member that is a whole number from 0 to 10^9, else 0 (the estimate reads unvalidated JSON). */
static uint64_t power_member(const json_t *unit, const char *key) {
    const json_t *v = json_object_get(unit, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        return 0;
    }
    uint64_t n = (uint64_t)json_integer_value(v);
    return n < UNIT_NUMBER_MAX ? n : UNIT_NUMBER_MAX;
}

uint64_t cbd_warapp_unit_json_power(const json_t *unit) {
    const char *type = json_string_value(json_object_get(unit, "type"));
    if (type && strcmp(type, type_names[TYPE_COMMANDER]) == 0) {
        return CBD_COMMANDER_POWER;
    }
    uint64_t attack = power_member(unit, "attack_power");
    uint64_t defense = power_member(unit, "defense_power");
    return attack > defense ? attack : defense;
}
