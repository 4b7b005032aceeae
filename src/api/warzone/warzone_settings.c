/*
 * The game's `settings` as combatd's (W40): kill rates in whole percents to fractions,
 * RoundingMode, OneArmyStandsGuard, MultiAttack, MoveOrder, the Blockade and Abandon cards'
 * MultiplyAmount (W26), MinimumArmyBonus and OverriddenBonuses for incomes; every other member
 * is accepted as the game writes it, and those that change combat in ways combatd does not
 * model are named in `warnings` (W42), never dropped silently.
 */
#include <string.h>

#include "combatd/warapp.h"
#include "warzone_internal.h"

/* Settings that change a turn's combat and that combatd does not model, and when they are in
 * force: a warning each (W42). */
typedef struct {
    const char *name;
    const char *why;
} unmodelled;

static const unmodelled unmodelled_settings[] = {
    {"LocalDeployments", "deploys are limited to each bonus's own territories"},
    {"NoSplit", "an attack must move every army of its territory"},
    {"Mods", "mods may change any part of a turn"},
    {"AttackTransferRadius", "attacks may reach beyond bordering territories"},
    {NULL, NULL},
};

/* Whether a setting's value puts it in force: true, a non-empty list or object, a number other
 * than 0, or a string other than "none", "null", "False" and "0". */
static bool in_force(const json_t *v) {
    if (cbdp_wz_absent(v) || json_is_false(v)) {
        return false;
    }
    if (json_is_array(v) || json_is_object(v)) {
        return json_is_array(v) ? json_array_size(v) > 0 : json_object_size(v) > 0;
    }
    if (json_is_number(v)) {
        return json_number_value(v) != 0;
    }
    const char *s = json_string_value(v);
    return !s || (strcmp(s, "none") != 0 && strcmp(s, "False") != 0 && strcmp(s, "false") != 0 &&
                  strcmp(s, "0") != 0);
}

static bool warn_unmodelled(const cbd_reader *s, cbdp_wz_turn *t) {
    bool ok = true;
    for (const unmodelled *u = unmodelled_settings; u->name; u++) {
        if (in_force(cbd_reader_member(s, u->name))) {
            ok = ok &&
                 cbdp_wz_warn(t, "/settings/%s is in force and not modelled: %s", u->name, u->why);
        }
    }
    return ok;
}

/* One of names (the game's words); *out its index. */
static cbd_field game_enum(const cbd_reader *r, const char *key, const char *const *names,
                           int *out) {
    const json_t *v = cbd_reader_member(r, key);
    if (cbdp_wz_absent(v)) {
        return CBD_FIELD_ABSENT;
    }
    for (int i = 0; json_is_string(v) && names[i]; i++) {
        if (strcmp(json_string_value(v), names[i]) == 0) {
            *out = i;
            return CBD_FIELD_OK;
        }
    }
    cbd_reader_error(r, key, "must be one of the game's values (%s%s%s)", names[0],
                     names[1] ? ", " : "", names[1] ? names[1] : "");
    return CBD_FIELD_BAD;
}

/* A card's MultiplyAmount (W26), when the card is an object: into settings[its member]. */
static bool read_card(const cbd_reader *s, cbdp_wz_setting which, json_t *out) {
    const cbdp_wz_setting_name *n = &cbdp_wz_settings[which];
    const json_t *c = cbd_reader_member(s, n->game);
    if (!json_is_object(c)) {
        return true; /* "none", absent: the card is off, its multiplier unused */
    }
    cbd_reader child;
    cbd_reader_at(&child, s, n->game);
    cbd_micro m = 0;
    cbd_field f = cbdp_wz_decimal(&child, n->inner, 0, 100000000, &m);
    if (f == CBD_FIELD_OK) {
        return json_object_set_new(out, n->combatd, json_real(cbd_micro_to_double(m))) == 0;
    }
    return f != CBD_FIELD_BAD;
}

/*
 * A kill rate in the game's whole percents (W40). W43: one above 0 and below 1 % is a fraction
 * written where the game writes percents (0.6 for 60), and read as a percent it would be a
 * rate of 0.6 % that kills nobody, silently: refused, saying what the game means.
 */
static cbd_field kill_rate(const cbd_reader *s, const char *key, cbd_micro *out) {
    cbd_field f = cbdp_wz_decimal(s, key, -2, 1000000, out);
    if (f == CBD_FIELD_OK && *out > 0 && *out < 10000) {
        cbd_reader_error(s, key,
                         "is %g: the game writes kill rates in percents (60 means 60 %%, 0.6 "
                         "would be 0.6 %%); a rate under 1 %% is taken for a fraction written by "
                         "mistake (W43)",
                         (double)*out / 1e4);
        return CBD_FIELD_BAD;
    }
    return f;
}

/* The kill rates (whole percents) and the luck modifier (a fraction), by their rows. */
static bool read_rates(const cbd_reader *s, json_t *out) {
    static const cbdp_wz_setting rows[] = {CBDP_WZ_OFFENSE, CBDP_WZ_DEFENSE, CBDP_WZ_LUCK};
    bool ok = true;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const cbdp_wz_setting_name *n = &cbdp_wz_settings[rows[i]];
        cbd_micro v = 0;
        cbd_field f = rows[i] == CBDP_WZ_LUCK ? cbdp_wz_decimal(s, n->game, 0, 1000000, &v)
                                              : kill_rate(s, n->game, &v);
        ok = f != CBD_FIELD_BAD && ok;
        if (f == CBD_FIELD_OK) {
            ok = json_object_set_new(out, n->combatd, json_real(cbd_micro_to_double(v))) == 0 && ok;
        }
    }
    return ok;
}

static bool read_switches(const cbd_reader *s, json_t *out) {
    static const char *const rounding[] = {"StraightRound", "WeightedRandom", NULL};
    static const char *const rounding_combatd[] = {"straight_round", "weighted_random"};
    const cbdp_wz_setting_name *rm = &cbdp_wz_settings[CBDP_WZ_ROUNDING];
    const cbdp_wz_setting_name *sg = &cbdp_wz_settings[CBDP_WZ_GUARD];
    const cbdp_wz_setting_name *ma = &cbdp_wz_settings[CBDP_WZ_MULTI];
    int mode = -1;
    bool guard = true, multi = false;
    cbd_field fr = game_enum(s, rm->game, rounding, &mode);
    cbd_field fg = cbdp_wz_bool(s, sg->game, &guard);
    cbd_field fm = cbdp_wz_bool(s, ma->game, &multi);
    bool ok = fr != CBD_FIELD_BAD && fg != CBD_FIELD_BAD && fm != CBD_FIELD_BAD;
    if (fr == CBD_FIELD_OK) {
        ok = ok && json_object_set_new(out, rm->combatd, json_string(rounding_combatd[mode])) == 0;
    }
    if (fg == CBD_FIELD_OK) {
        ok = ok && json_object_set_new(out, sg->combatd, json_boolean(guard)) == 0;
    }
    /* The game's MultiAttack is off unless it says so, whatever combatd's default. */
    return ok && json_object_set_new(out, ma->combatd, json_boolean(multi)) == 0;
}

/* MoveOrder: Random, Cycle, NoLuckCycle (both cycles are W13's cycle; W40 says whose turn it
 * is to start: the request's `players` order, which the game's JSON does not record). */
static bool read_move_order(const cbd_reader *s, cbdp_wz_turn *t) {
    static const char *const names[] = {"Random", "Cycle", "NoLuckCycle", NULL};
    int mode = 0;
    cbd_field f = game_enum(s, "MoveOrder", names, &mode);
    if (f == CBD_FIELD_BAD) {
        return false;
    }
    return json_object_set_new(t->doc, "move_order", json_string(mode == 0 ? "random" : "cycle")) ==
           0;
}

/* OverriddenBonuses: [{bonusID, value}] into `over` (bonusID -> {value, at: its index}, so
 * that a problem with the value names its item); every bad item is named. */
static bool read_overrides(const cbd_reader *s, json_t *over) {
    const json_t *list = cbd_reader_member(s, "OverriddenBonuses");
    if (cbdp_wz_absent(list)) {
        return true;
    }
    if (!json_is_array(list)) {
        cbd_reader_error(s, "OverriddenBonuses", "must be a list of {bonusID, value}");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < json_array_size(list); i++) {
        cbd_reader item;
        cbd_reader_at_item(&item, s, "OverriddenBonuses", i);
        char id[CBDP_WZ_ID_MAX];
        int64_t value = 0;
        bool id_ok = cbdp_wz_read_id(&item, "bonusID", id);
        cbd_field f = cbdp_wz_int(&item, "value", -(int64_t)CBD_WARAPP_MAX_ARMIES,
                                  (int64_t)CBD_WARAPP_MAX_ARMIES, &value);
        if (f == CBD_FIELD_ABSENT) {
            cbd_reader_error(&item, "value", "is required: the bonus's armies, a whole number");
        }
        if (id_ok && json_object_get(over, id)) {
            cbd_reader_error(&item, "bonusID", "repeats bonus %s", id);
            id_ok = false;
        }
        if (!id_ok) {
            ok = false;
            continue;
        }
        /* noted without its value when that is bad, so that a repeat of it is named too */
        json_t *entry = json_pack("{s:I}", "at", (json_int_t)i);
        ok = f == CBD_FIELD_OK && ok;
        ok = entry && json_object_set_new(over, id, entry) == 0 && ok;
        ok = ok && json_object_set_new(entry, "value", json_integer((json_int_t)value)) == 0;
    }
    return ok;
}

bool cbdp_wz_read_settings(const cbd_reader *r, const cbd_config *cfg, cbdp_wz_turn *t) {
    (void)cfg;
    const json_t *v = cbd_reader_member(r, "settings");
    if (!json_is_object(v)) {
        cbd_reader_error(r, "settings",
                         "is required: the game's settings object (GetBotGameSettings "
                         "or the query game API's settings)");
        return false;
    }
    cbd_reader s;
    cbd_reader_at(&s, r, "settings");
    json_t *out = json_object();
    if (!out || json_object_set_new(t->doc, "settings", out) != 0) {
        return false;
    }
    bool ok = read_rates(&s, out);
    ok &= read_switches(&s, out);
    ok &= read_card(&s, CBDP_WZ_BLOCKADE, out);
    ok &= read_card(&s, CBDP_WZ_ABANDON, out);
    ok &= read_move_order(&s, t);
    ok &= cbdp_wz_uint(&s, "MinimumArmyBonus", 1000000000, &t->base_income) != CBD_FIELD_BAD;
    t->allow_attack_only = t->allow_transfer_only = t->allow_percent = true;
    ok &= cbdp_wz_bool(&s, "AllowAttackOnly", &t->allow_attack_only) != CBD_FIELD_BAD;
    ok &= cbdp_wz_bool(&s, "AllowTransferOnly", &t->allow_transfer_only) != CBD_FIELD_BAD;
    ok &= cbdp_wz_bool(&s, "AllowPercentageAttacks", &t->allow_percent) != CBD_FIELD_BAD;
    ok &= read_overrides(&s, t->overrides);
    return ok && warn_unmodelled(&s, t);
}
