/*
 * POST /duper/battle (issue 5): reads a battle, checks the tile shapes (D12) and the other
 * refusals, resolves it in the core and itemises the answer. The JSON contract is in
 * openapi.yaml; the decisions on open points are documented in src/core/duper_resolve.c.
 */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "combatd/duper.h"
#include "duper_rules_json.h"
#include "json_reader.h"

#define PLAYER_MAX 64

static const char *const root_keys[] = {"attack", "defense", "rules", "seed", NULL};
static const char *const attack_keys[] = {"player", "kind", "tile", "support", NULL};
static const char *const defense_keys[] = {"player", "npc", "keys", "tile", "support", NULL};
static const char *const attack_tile_keys[] = {"units", "loaded", NULL};
static const char *const defense_tile_keys[] = {"level", "units", "loaded", NULL};
static const char *const support_keys[] = {"tanks", "fort", NULL};
static const char *const kind_names[] = {"normal", "long_distance", NULL};

typedef struct {
    const char *player;
    cbd_reader tile; /* valid when has_tile */
    bool has_tile;
} side_read;

static void required(const cbd_reader *r, const char *key, const char *what) {
    char ptr[224];
    cbd_reader_child_pointer(r, key, ptr, sizeof ptr);
    cbd_problem_field(r->problem, ptr, "is required: %s", what);
}

static const char *name(int c) {
    return cbd_duper_class_name((cbd_duper_class)c);
}

/* A tile's "units" (every class) or "loaded" (the classes planes carry, D5), by class. */
static void read_counts(const cbd_reader *tile, const char *key, bool loaded, uint64_t *counts) {
    const char *allowed[CBD_DUPER_CLASS_COUNT + 1];
    cbd_duper_class_names(loaded, allowed);
    cbd_reader r;
    if (cbd_read_object(tile, key, allowed, &r) != CBD_FIELD_OK) {
        return;
    }
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (!loaded || cbd_duper_is_loadable((cbd_duper_class)c)) {
            (void)cbd_read_u64(&r, name(c), 0, CBD_DUPER_MAX_COUNT, &counts[c]);
        }
    }
}

static void read_support(const cbd_reader *side, cbd_duper_side *s) {
    const json_t *arr;
    if (cbd_read_array(side, "support", CBD_DUPER_MAX_SUPPORT, &arr) != CBD_FIELD_OK) {
        return;
    }
    s->n_support = json_array_size(arr);
    for (size_t i = 0; i < s->n_support; i++) {
        char ptr[224];
        cbd_reader item;
        cbd_reader_item_pointer(side, "support", i, ptr, sizeof ptr);
        if (!cbd_reader_open(&item, json_array_get(arr, i), ptr, support_keys, side->problem)) {
            continue;
        }
        /* D6, D12: a tile supports with its tanks; a fort supports only with tanks inside. */
        cbd_field f = cbd_read_u64(&item, "tanks", 1, CBD_DUPER_MAX_COUNT, &s->support_tanks[i]);
        if (f == CBD_FIELD_ABSENT) {
            required(&item, "tanks", "a supporting tile supports with its tanks (at least 1)");
        }
        bool fort = false;
        (void)cbd_read_bool(&item, "fort", &fort);
        s->support_fort[i] = fort ? 1 : 0;
    }
}

/* /…/units/<class>: built only for a class that is wrong, as every valid request passes here. */
static const char *unit_pointer(const char *units_ptr, int c, char *ptr, size_t size) {
    snprintf(ptr, size, "%s/%s", units_ptr, name(c));
    return ptr;
}

/* The D12 shape of a tile, plus the refusals that follow from D5, D8 and D9. */
static void check_tile(const cbd_reader *tile, const cbd_duper_side *s, bool npc) {
    char ptr[256], units_ptr[224];
    cbd_problem *p = tile->problem;
    cbd_reader_child_pointer(tile, "units", units_ptr, sizeof units_ptr);
    int ground = -1, building = -1;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (s->units[c] == 0) {
            continue;
        }
        cbd_duper_layer layer = cbd_duper_class_layer((cbd_duper_class)c);
        if (layer == CBD_DUPER_GROUND) {
            if (ground >= 0) {
                cbd_problem_field(p, unit_pointer(units_ptr, c, ptr, sizeof ptr),
                                  "cannot stand beside %s: a tile holds at most one ground troop "
                                  "class (D12); troops loaded in planes go in \"loaded\"",
                                  name(ground));
            } else {
                ground = c;
            }
        } else if (layer == CBD_DUPER_BUILDING) {
            if (building >= 0) {
                cbd_problem_field(p, unit_pointer(units_ptr, c, ptr, sizeof ptr),
                                  "cannot stand beside %s: a tile holds at most one building (D12)",
                                  name(building));
            } else if (s->units[c] > 1) {
                cbd_problem_field(p, unit_pointer(units_ptr, c, ptr, sizeof ptr),
                                  "must be 0 or 1: a tile holds at most one building (D12)");
            }
            building = c;
        }
        if (c == CBD_DUPER_LARVA && !npc) {
            cbd_problem_field(p, unit_pointer(units_ptr, c, ptr, sizeof ptr),
                              "larvae are NPC units: they stand only on an NPC tile "
                              "(\"npc\": true) and never attack (D9)");
        }
        if (cbd_duper_is_capital((cbd_duper_class)c) && npc) {
            cbd_problem_field(p, unit_pointer(units_ptr, c, ptr, sizeof ptr),
                              "an NPC tile holds no capital or supercapital (D9)");
        }
    }
    /* A player has one supercapital (D8); it may stand on the tile or ride in its planes. */
    if (s->units[CBD_DUPER_SUPERCAPITAL] + s->loaded[CBD_DUPER_SUPERCAPITAL] > 1) {
        snprintf(ptr, sizeof ptr, "%s/supercapital", units_ptr);
        cbd_problem_field(p, ptr,
                          "a player has one supercapital (D8): at most 1 on a tile, "
                          "standing or loaded");
    }
    uint64_t loaded = 0;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        loaded += s->loaded[c];
        if (s->loaded[c] > 0 && c == CBD_DUPER_LARVA && !npc) {
            cbd_reader_child_pointer(tile, "loaded", ptr, sizeof ptr);
            cbd_problem_field(p, ptr, "larvae are NPC units and ride only on an NPC tile (D9)");
        }
        if (s->loaded[c] > 0 && cbd_duper_is_capital((cbd_duper_class)c) && npc) {
            cbd_reader_child_pointer(tile, "loaded", ptr, sizeof ptr);
            cbd_problem_field(p, ptr, "an NPC tile holds no supercapital (D9)");
        }
    }
    if (loaded > 0 && s->units[CBD_DUPER_PLANE] < 2) {
        cbd_reader_child_pointer(tile, "loaded", ptr, sizeof ptr);
        cbd_problem_field(p, ptr,
                          "needs a stack of at least 2 planes on the tile to carry troops (D5); "
                          "the tile has %llu",
                          (unsigned long long)s->units[CBD_DUPER_PLANE]);
    }
}

static void read_side_tile(const cbd_reader *side, const char *const *tile_keys, cbd_duper_side *s,
                           side_read *out) {
    out->has_tile = false;
    cbd_field f = cbd_read_object(side, "tile", tile_keys, &out->tile);
    if (f == CBD_FIELD_ABSENT) {
        required(side, "tile", "the battle tile's units");
    } else if (f == CBD_FIELD_OK) {
        out->has_tile = true;
        read_counts(&out->tile, "units", false, s->units);
        read_counts(&out->tile, "loaded", true, s->loaded);
    }
}

static void read_attack(const cbd_reader *root, cbd_duper_battle *b, side_read *out) {
    cbd_reader r;
    cbd_field f = cbd_read_object(root, "attack", attack_keys, &r);
    if (f == CBD_FIELD_ABSENT) {
        required(root, "attack", "the attacking side");
    }
    if (f != CBD_FIELD_OK) {
        return;
    }
    if (cbd_read_string(&r, "player", PLAYER_MAX, &out->player) == CBD_FIELD_ABSENT) {
        required(&r, "player", "the attacking player");
    }
    int kind = 0;
    (void)cbd_read_enum(&r, "kind", kind_names, &kind);
    b->kind = kind == 1 ? CBD_DUPER_LONG_DISTANCE : CBD_DUPER_NORMAL;
    read_side_tile(&r, attack_tile_keys, &b->attack, out);
    read_support(&r, &b->attack);
    if (!out->has_tile) {
        return;
    }
    const cbd_duper_side *s = &b->attack;
    check_tile(&out->tile, s, false);
    char ptr[224];
    cbd_reader_child_pointer(&out->tile, "units", ptr, sizeof ptr);
    if (b->kind == CBD_DUPER_LONG_DISTANCE && s->units[CBD_DUPER_PLANE] == 0) {
        strncat(ptr, "/plane", sizeof ptr - strlen(ptr) - 1);
        cbd_problem_field(r.problem, ptr, "a long-distance attack needs at least 1 plane (D11)");
    } else if (b->kind == CBD_DUPER_NORMAL) {
        uint64_t attackers = 0;
        for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
            if (cbd_duper_takes_part(b->kind, (cbd_duper_class)c)) {
                attackers += s->units[c];
            }
        }
        if (attackers == 0) {
            cbd_problem_field(r.problem, ptr,
                              "nothing here can attack: an attack needs a troop or a fort (D6)");
        }
    }
}

static void read_defense(const cbd_reader *root, cbd_duper_battle *b, side_read *out) {
    cbd_reader r;
    cbd_field f = cbd_read_object(root, "defense", defense_keys, &r);
    if (f == CBD_FIELD_ABSENT) {
        required(root, "defense", "the defending side");
    }
    if (f != CBD_FIELD_OK) {
        return;
    }
    (void)cbd_read_bool(&r, "npc", &b->npc);
    char ptr[224];
    f = cbd_read_string(&r, "player", PLAYER_MAX, &out->player);
    if (f == CBD_FIELD_ABSENT && !b->npc) {
        required(&r, "player", "the defending player (or \"npc\": true)");
    } else if (f == CBD_FIELD_OK && b->npc) {
        cbd_reader_child_pointer(&r, "player", ptr, sizeof ptr);
        cbd_problem_field(r.problem, ptr, "must be absent: an NPC tile has no player (D9)");
    }
    uint64_t keys = 0;
    if (cbd_read_u64(&r, "keys", 0, CBD_DUPER_MAX_KEYS, &keys) == CBD_FIELD_OK && b->npc &&
        keys > 0) {
        cbd_reader_child_pointer(&r, "keys", ptr, sizeof ptr);
        cbd_problem_field(r.problem, ptr, "must be 0: NPCs hold no keys and get no key buff (D9)");
    }
    b->keys = keys;
    read_side_tile(&r, defense_tile_keys, &b->defense, out);
    read_support(&r, &b->defense);
    if (b->npc && b->defense.n_support > 0) {
        cbd_reader_child_pointer(&r, "support", ptr, sizeof ptr);
        cbd_problem_field(r.problem, ptr,
                          "must be empty: an NPC tile defends with its own units alone (D9)");
    }
    if (!out->has_tile) {
        return;
    }
    uint64_t level = 1;
    f = cbd_read_u64(&out->tile, "level", 1, 3, &level);
    if (f == CBD_FIELD_ABSENT && !b->npc) {
        required(&out->tile, "level", "the tile level, 1 to 3 (its tile buff)");
    }
    b->level = (uint32_t)level;
    check_tile(&out->tile, &b->defense, b->npc);
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

/* A member whose value is a count, or null when the count does not apply. */
static void uint_or_null(cbd_jw *w, const char *key, bool applies, uint64_t v) {
    cbd_jw_key(w, key);
    if (applies) {
        cbd_jw_uint(w, v);
    } else {
        cbd_jw_null(w);
    }
}

static void render(cbd_jw *w, const cbd_duper_battle *b, const cbd_duper_result *res,
                   const cbd_duper_rules *rules, const char *attacker, const char *defender,
                   uint64_t seed) {
    const cbd_duper_power *ap = &res->power[CBD_DUPER_ATTACK];
    const cbd_duper_power *dp = &res->power[CBD_DUPER_DEFENSE];
    cbd_jw_object_open(w);
    cbd_jw_key_uint(w, "attack_power", ap->total);
    cbd_jw_key_uint(w, "defense_power", dp->total);
    cbd_jw_key(w, "power");
    cbd_jw_object_open(w);
    power_json(w, "attack", ap, &b->attack, true, b->kind);
    power_json(w, "defense", dp, &b->defense, false, b->kind);
    cbd_jw_object_close(w);
    cbd_jw_key_bool(w, "captured", res->captured);
    cbd_jw_key_bool(w, "tie", res->tie);
    cbd_jw_key(w, "damage");
    cbd_jw_object_open(w);
    uint_or_null(w, "to_attacker", res->captured, res->damage);
    uint_or_null(w, "to_defender", !res->captured, res->damage);
    cbd_jw_object_close(w);
    cbd_jw_key(w, "losses");
    cbd_jw_object_open(w);
    side_json(w, "attack", &res->losses[CBD_DUPER_ATTACK], &b->attack);
    side_json(w, "defense", &res->losses[CBD_DUPER_DEFENSE], &b->defense);
    cbd_jw_object_close(w);
    cbd_jw_key(w, "survivors");
    cbd_jw_object_open(w);
    side_json(w, "attack", &res->survivors[CBD_DUPER_ATTACK], &b->attack);
    side_json(w, "defense", &res->survivors[CBD_DUPER_DEFENSE], &b->defense);
    cbd_jw_object_close(w);
    moved_in_json(w, res);
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
    cbd_jw_key_uint(w, "seed", seed);
    cbd_jw_object_close(w);
}

int cbd_api_duper_battle(const cbd_config *cfg, const json_t *request, cbd_jw *out,
                         cbd_problem *problem) {
    cbd_reader root, rules_reader;
    if (!cbd_reader_open(&root, request, "", root_keys, problem)) {
        return -1;
    }
    cbd_duper_battle b;
    memset(&b, 0, sizeof b);
    side_read att = {0}, def = {0};
    read_attack(&root, &b, &att);
    read_defense(&root, &b, &def);
    if (att.player && def.player && strcmp(att.player, def.player) == 0) {
        cbd_problem_field(problem, "/defense/player",
                          "must differ from /attack/player: an order into one's own tile is a "
                          "move, not a battle");
    }
    cbd_duper_rules rules = cfg->duper;
    if (cbd_read_object(&root, "rules", cbd_duper_rules_keys, &rules_reader) == CBD_FIELD_OK) {
        cbd_duper_rules_read(&rules_reader, &rules);
    }
    uint64_t seed = 0;
    cbd_field seeded = cbd_read_u64(&root, "seed", 0, INT64_MAX, &seed);
    if (problem->status != 0) {
        return -1;
    }
    if (seeded == CBD_FIELD_ABSENT && cbd_api_os_seed(&seed) != 0) {
        cbd_problem_set(problem, 500, "Could not draw a seed from the operating system.");
        return -1;
    }
    cbd_duper_result res;
    cbd_status st = cbd_duper_resolve(&rules, &b, seed, &res);
    if (st != CBD_OK) {
        /* Unreachable when the checks above are complete: the core refuses what they refuse. */
        cbd_problem_set(problem, 422, "The battle breaks the rules' limits: %s.",
                        cbd_status_str(st));
        return -1;
    }
    render(out, &b, &res, &rules, att.player, def.player, seed);
    return 0;
}
