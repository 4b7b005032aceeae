/* The common War.app battle fields (W7–W10); see warapp_request.h. */
#include "warapp_request.h"

#include <inttypes.h>

#include "warapp_settings.h"

cbd_warapp_side cbdp_warapp_battle_attack(const cbd_warapp_battle *b) {
    cbd_warapp_side s = {b->attackers, b->attacking.n, b->attacking.units};
    return s;
}

cbd_warapp_side cbdp_warapp_battle_defense(const cbd_warapp_battle *b) {
    cbd_warapp_side s = {b->defenders, b->defending.n, b->defending.units};
    return s;
}

/* The units of both sides, and what they change: 0 attackers beside a unit (W20), a power per
 * side within the army cap (W18 rolls once per point of power, W10 bounds the rolls). */
static bool read_units(const cbd_reader *r, const cbd_warapp_config *cfg, cbd_field attackers,
                       cbd_warapp_battle *out) {
    bool ok = cbd_warapp_units_read(r, "attacking_units", cfg, &out->attacking);
    ok &= cbd_warapp_units_read(r, "defending_units", cfg, &out->defending);
    if (attackers == CBD_FIELD_OK && out->attackers == 0 && out->attacking.n == 0 && ok) {
        cbd_reader_error(r, "attackers",
                         "must be at least 1 unless attacking_units holds a "
                         "unit: an attack needs an army or a unit (W20)");
        return false;
    }
    if (out->transfer && out->defending.n > 0) {
        cbd_reader_error(r, "defending_units", "cannot be given with transfer: nobody defends");
        return false;
    }
    cbd_warapp_side a = cbdp_warapp_battle_attack(out), d = cbdp_warapp_battle_defense(out);
    if (out->fog.n > 0) {
        d.armies = cbd_fog_max(&out->fog); /* each count must fit the cap (W23) */
    }
    uint64_t pa = cbd_warapp_side_power(&a, true), pd = cbd_warapp_side_power(&d, false);
    if (ok && pa > cfg->army_cap) {
        cbd_reader_error(r, "attacking_units",
                         "give the attack a power of %" PRIu64 " (armies + attack powers); at "
                         "most %" PRIu64 " (W10, W18)",
                         pa, cfg->army_cap);
        ok = false;
    }
    if (ok && pd > cfg->army_cap) {
        cbd_reader_error(r, "defending_units",
                         "give the defense a power of %" PRIu64 " (armies + defense powers); at "
                         "most %" PRIu64 " (W10, W18)",
                         pd, cfg->army_cap);
        ok = false;
    }
    return ok;
}

void cbdp_warapp_battle_clear(cbd_warapp_battle *b) {
    b->attacking.n = b->defending.n = 0;
    b->attacking.given = b->defending.given = false;
    b->fog.n = 0;
    b->fog.items = NULL;
}

void cbdp_warapp_battle_free(cbd_warapp_battle *b) {
    cbd_fog_free(&b->fog);
}

/* The defenders: a whole number, or (with fog) a distribution over counts (W23). */
static cbd_field read_defenders(const cbd_reader *r, const cbd_warapp_config *cfg, bool fog,
                                cbd_warapp_battle *out) {
    if (fog && json_is_array(cbd_reader_member(r, "defenders"))) {
        return cbd_fog_read(r, "defenders", cfg, &out->fog) ? CBD_FIELD_OK : CBD_FIELD_BAD;
    }
    return cbd_read_u64(r, "defenders", 0, cfg->army_cap, &out->defenders);
}

bool cbdp_warapp_request_read(const cbd_reader *r, const cbd_warapp_config *cfg, unsigned features,
                              cbd_warapp_battle *out) {
    bool units = (features & CBD_BATTLE_UNITS) != 0;
    size_t errors_before = r->problem->n_errors + r->problem->n_dropped;
    out->settings = cfg->defaults;
    out->transfer = false;
    out->defenders = 0;
    out->attackers = 0;
    out->source_armies = 0;
    out->attacking.n = out->defending.n = 0;
    out->attacking.given = out->defending.given = false;
    out->fog.n = 0;
    out->fog.items = NULL;

    bool settings_ok = true;
    cbd_reader settings;
    if (cbd_read_object(r, "settings", cbd_warapp_settings_keys, &settings) == CBD_FIELD_OK) {
        settings_ok = cbd_warapp_settings_read(&settings, &out->settings);
    }
    (void)cbd_read_bool(r, "transfer", &out->transfer);

    /* W10: armies are whole numbers up to the cap; an attack needs at least one, or a unit
     * (W20, checked with the units: without attacking_units the range says it, as it did
     * before units existed). */
    bool may_be_none = units && cbd_reader_member(r, "attacking_units") != NULL;
    cbd_field attackers =
        cbd_read_u64(r, "attackers", may_be_none ? 0 : 1, cfg->army_cap, &out->attackers);
    cbd_field source = cbd_read_u64(r, "source_armies", 0, cfg->army_cap, &out->source_armies);
    out->has_source_armies = source == CBD_FIELD_OK;
    cbd_field defenders = read_defenders(r, cfg, (features & CBD_BATTLE_FOG) != 0, out);
    if (defenders == CBD_FIELD_ABSENT && !out->transfer) {
        cbd_reader_error(r, "defenders", "is required (unless transfer is true)");
    }

    /* W7: with one army standing guard, at most source_armies − 1 may move. */
    bool guard = out->settings.one_army_must_stand_guard;
    if (source == CBD_FIELD_OK) {
        uint64_t most =
            guard ? (out->source_armies > 0 ? out->source_armies - 1 : 0) : out->source_armies;
        if (attackers == CBD_FIELD_ABSENT) {
            if (most == 0) {
                cbd_reader_error(r, "source_armies",
                                 "leaves no army free to move%s (W7); it must be at least %d",
                                 guard ? " with one_army_must_stand_guard" : "", guard ? 2 : 1);
            } else {
                out->attackers = most;
            }
        } else if (attackers == CBD_FIELD_OK && out->attackers > most) {
            cbd_reader_error(r, "attackers", "must be at most %s = %" PRIu64 " (W7), not %" PRIu64,
                             guard ? "source_armies − 1 with one_army_must_stand_guard"
                                   : "source_armies",
                             most, out->attackers);
        }
    } else if (attackers == CBD_FIELD_ABSENT) {
        cbd_reader_error(r, "attackers", "is required unless source_armies is given (W7)");
    }
    if (units) {
        (void)read_units(r, cfg, attackers, out);
    }
    /* Every error of the battle's fields (the settings' too) was recorded in the problem. */
    return settings_ok && r->problem->n_errors + r->problem->n_dropped == errors_before;
}

void cbd_warapp_outcome_members(cbd_jw *w, const cbd_warapp_outcome *o) {
    cbd_jw_key_bool(w, "captured", o->captured);
    cbd_jw_key_uint(w, "attackers_lost", o->attackers_lost);
    cbd_jw_key_uint(w, "defenders_lost", o->defenders_lost);
    cbd_jw_key_uint(w, "attackers_left", o->attackers_left);
    cbd_jw_key_uint(w, "defenders_left", o->defenders_left);
}

void cbdp_warapp_transfer_write(cbd_jw *w, const cbd_warapp_battle *b) {
    /* W8: no combat; every moving army arrives, and nothing is random. */
    cbd_jw_object_open(w);
    cbd_jw_key_bool(w, "transfer", true);
    cbd_jw_key(w, "outcome");
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "armies_arriving", b->attackers);
    cbd_jw_object_close(w);
    if (b->attacking.given) { /* W21: units move with the armies, and nothing can kill them */
        cbd_jw_key(w, "attacking_units");
        cbd_jw_array_open(w);
        for (size_t i = 0; i < b->attacking.n; i++) {
            cbd_jw_object_open(w);
            cbdp_warapp_unit_members(w, &b->attacking, i);
            cbd_jw_key_real(w, "survival_probability", 1.0);
            cbd_jw_object_close(w);
        }
        cbd_jw_array_close(w);
    }
    cbd_jw_object_close(w);
}
