/*
 * A Duper battle's answer members (openapi.yaml's DuperBattleResult): the powers itemised,
 * the outcome, damage, losses, survivors, what moved in, the tile's owner, who was
 * eliminated and the card steal. Shared by /duper/battle and the board endpoints.
 */
#include "duper_battle_render.h"

static const char *name(int c) {
    return cbd_duper_class_name((cbd_duper_class)c);
}

/* {class: counts[c]} for every class the request listed on the tile (shown[c] > 0). */
static void class_map(cbd_jw *w, const char *key, const uint64_t *counts, const uint64_t *shown) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (shown[c] > 0) {
            cbd_jw_key_uint(w, name(c), counts[c]);
        }
    }
    cbd_jw_object_close(w);
}

static void support_list(cbd_jw *w, size_t n, const uint64_t *tanks, const uint64_t *fort) {
    cbd_jw_key(w, "support");
    cbd_jw_array_open(w);
    for (size_t i = 0; i < n; i++) {
        cbd_jw_object_open(w);
        cbd_jw_key_uint(w, "tanks", tanks[i]);
        cbd_jw_key_uint(w, "fort", fort[i]);
        cbd_jw_object_close(w);
    }
    cbd_jw_array_close(w);
}

static void side_json(cbd_jw *w, const char *key, const cbd_duper_side *counts,
                      const cbd_duper_side *shown) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    class_map(w, "tile", counts->units, shown->units);
    class_map(w, "loaded", counts->loaded, shown->loaded);
    support_list(w, shown->n_support, counts->support_tanks, counts->support_fort);
    cbd_jw_object_close(w);
}

/* {"attack": ..., "defense": ...} of one kind of count (losses, survivors). */
static void sides_json(cbd_jw *w, const char *key, const cbd_duper_side counts[2],
                       const cbd_duper_battle *b) {
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    side_json(w, "attack", &counts[CBD_DUPER_ATTACK], &b->attack);
    side_json(w, "defense", &counts[CBD_DUPER_DEFENSE], &b->defense);
    cbd_jw_object_close(w);
}

static void power_json(cbd_jw *w, const char *key, const cbd_duper_power *pw,
                       const cbd_duper_side *s, bool attacking, cbd_duper_kind kind) {
    uint64_t shown[CBD_DUPER_CLASS_COUNT];
    uint64_t zero[CBD_DUPER_CLASS_COUNT] = {0};
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        bool part = !attacking || cbd_duper_takes_part(kind, (cbd_duper_class)c);
        shown[c] = part ? s->units[c] : 0;
    }
    cbd_jw_key(w, key);
    cbd_jw_object_open(w);
    class_map(w, "tile", pw->units, shown);
    /* Loaded troops are listed with power 0 so that a player sees they count for nothing (D5). */
    class_map(w, "loaded", zero, s->loaded);
    support_list(w, s->n_support, pw->support_tanks, pw->support_fort);
    if (!attacking) {
        cbd_jw_key_uint(w, "tile_buff", pw->tile_buff);
        cbd_jw_key_uint(w, "key_buff", pw->key_buff);
    }
    cbd_jw_key_uint(w, "total", pw->total);
    cbd_jw_object_close(w);
}

static void powers_json(cbd_jw *w, const cbd_duper_battle *b, const cbd_duper_result *res) {
    cbd_jw_key_uint(w, "attack_power", res->power[CBD_DUPER_ATTACK].total);
    cbd_jw_key_uint(w, "defense_power", res->power[CBD_DUPER_DEFENSE].total);
    cbd_jw_key(w, "power");
    cbd_jw_object_open(w);
    power_json(w, "attack", &res->power[CBD_DUPER_ATTACK], &b->attack, true, b->kind);
    power_json(w, "defense", &res->power[CBD_DUPER_DEFENSE], &b->defense, false, b->kind);
    cbd_jw_object_close(w);
}

/* A member whose value is a count, or null when the count does not apply. */
static void uint_or_null(cbd_jw *w, const char *key, bool applies, uint64_t v) {
    cbd_jw_key(w, key);
    if (applies) {
        cbd_jw_uint(w, v);
    } else {
        cbd_jw_null(w);
    }
}

static void damage_json(cbd_jw *w, const cbd_duper_result *res) {
    cbd_jw_key(w, "damage");
    cbd_jw_object_open(w);
    uint_or_null(w, "to_attacker", res->captured, res->damage);
    uint_or_null(w, "to_defender", !res->captured, res->damage);
    cbd_jw_object_close(w);
}

static void moved_in_json(cbd_jw *w, const cbd_duper_result *res) {
    cbd_jw_key(w, "moved_in");
    if (!res->captured) {
        cbd_jw_null(w);
        return;
    }
    cbd_jw_object_open(w);
    class_map(w, "tile", res->moved_in_units, res->moved_in_units);
    class_map(w, "loaded", res->moved_in_loaded, res->moved_in_loaded);
    cbd_jw_object_close(w);
}

/* The tile's owner after the battle (null when it disappears or stays the NPCs'), and who was
 * eliminated (D8). */
static void owners_json(cbd_jw *w, const cbd_duper_result *res, const char *attacker,
                        const char *defender) {
    const char *owner = res->captured ? attacker : defender;
    cbd_jw_key(w, "tile_owner");
    if (res->tile_disappears || !owner) {
        cbd_jw_null(w);
    } else {
        cbd_jw_string(w, owner);
    }
    cbd_jw_key_bool(w, "tile_disappears", res->tile_disappears);
    cbd_jw_key(w, "eliminated");
    cbd_jw_array_open(w);
    if (res->eliminated[CBD_DUPER_ATTACK]) {
        cbd_jw_string(w, attacker);
    }
    if (res->eliminated[CBD_DUPER_DEFENSE] && defender) {
        cbd_jw_string(w, defender);
    }
    cbd_jw_array_close(w);
}

static void card_steal_json(cbd_jw *w, const cbd_duper_result *res, const cbd_duper_rules *rules) {
    cbd_jw_key(w, "card_steal");
    cbd_jw_object_open(w);
    cbd_jw_key_bool(w, "eligible", res->card_steal_eligible);
    cbd_jw_key_real(w, "probability", cbd_micro_to_double(rules->card_steal_probability));
    cbd_jw_key(w, "stolen");
    if (res->card_steal_eligible) {
        cbd_jw_bool(w, res->card_stolen);
    } else {
        cbd_jw_null(w);
    }
    cbd_jw_object_close(w);
}

void cbdp_duper_write_battle(cbd_jw *w, const cbd_duper_battle *b, const cbd_duper_result *res,
                             const cbd_duper_rules *rules, const char *attacker,
                             const char *defender) {
    powers_json(w, b, res);
    cbd_jw_key_bool(w, "captured", res->captured);
    cbd_jw_key_bool(w, "tie", res->tie);
    damage_json(w, res);
    sides_json(w, "losses", res->losses, b);
    sides_json(w, "survivors", res->survivors, b);
    moved_in_json(w, res);
    owners_json(w, res, attacker, defender);
    card_steal_json(w, res, rules);
}
