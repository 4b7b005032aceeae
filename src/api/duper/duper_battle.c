/*
 * POST /duper/battle: reads a battle, checks the tile shapes (D12) and the other
 * refusals, resolves it in the core and itemises the answer. The JSON contract is in
 * openapi.yaml; the decisions on open points are documented in src/core/duper/duper_resolve.c.
 */
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "combatd/duper.h"
#include "duper_battle_render.h"
#include "duper_tile_json.h"
#include "duper_rules_json.h"
#include "json/json_reader.h"

static const char *const root_keys[] = {"attack", "defense", "rules", "seed", NULL};
static const char *const attack_keys[] = {"player", "kind", "tile", "support", NULL};
static const char *const defense_keys[] = {"player", CBD_DUPER_NPC_NAME, "keys",
                                           "tile",   "support",          NULL};
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
    cbd_reader_error(r, key, "is required: %s", what);
}

static void read_support(const cbd_reader *side, cbd_duper_side *s) {
    const json_t *arr;
    if (cbd_read_array(side, "support", CBD_DUPER_MAX_SUPPORT, &arr) != CBD_FIELD_OK) {
        return;
    }
    s->n_support = json_array_size(arr);
    for (size_t i = 0; i < s->n_support; i++) {
        cbd_reader item;
        if (!cbd_reader_open_item(&item, side, "support", i, support_keys)) {
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

static void read_side_tile(const cbd_reader *side, const char *const *tile_keys, cbd_duper_side *s,
                           side_read *out) {
    out->has_tile = false;
    cbd_field f = cbd_read_object(side, "tile", tile_keys, &out->tile);
    if (f == CBD_FIELD_ABSENT) {
        required(side, "tile", "the battle tile's units");
    } else if (f == CBD_FIELD_OK) {
        out->has_tile = true;
        cbdp_duper_read_counts(&out->tile, "units", false, s->units);
        cbdp_duper_read_counts(&out->tile, "loaded", true, s->loaded);
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
    if (cbd_read_text(&r, "player", CBD_DUPER_NAME_MAX, &out->player) == CBD_FIELD_ABSENT) {
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
    cbdp_duper_check_tile(&out->tile, s, false, CBD_DUPER_LOADING_PLANES);
    if (b->kind == CBD_DUPER_LONG_DISTANCE && s->units[CBD_DUPER_PLANE] == 0) {
        cbd_reader units;
        cbd_reader_at(&units, &out->tile, "units");
        cbd_reader_error(&units, "plane", "a long-distance attack needs at least 1 plane (D11)");
    } else if (b->kind == CBD_DUPER_NORMAL) {
        uint64_t attackers = 0;
        for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
            if (cbd_duper_takes_part(b->kind, (cbd_duper_class)c)) {
                attackers += s->units[c];
            }
        }
        if (attackers == 0) {
            cbd_reader_error(&out->tile, "units",
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
    (void)cbd_read_bool(&r, CBD_DUPER_NPC_NAME, &b->npc);
    f = cbd_read_text(&r, "player", CBD_DUPER_NAME_MAX, &out->player);
    if (f == CBD_FIELD_ABSENT && !b->npc) {
        required(&r, "player", "the defending player (or \"" CBD_DUPER_NPC_NAME "\": true)");
    } else if (f == CBD_FIELD_OK && b->npc) {
        cbd_reader_error(&r, "player", "must be absent: an NPC tile has no player (D9)");
    }
    uint64_t keys = 0;
    if (cbd_read_u64(&r, "keys", 0, CBD_DUPER_MAX_KEYS, &keys) == CBD_FIELD_OK && b->npc &&
        keys > 0) {
        cbd_reader_error(&r, "keys", "must be 0: NPCs hold no keys and get no key buff (D9)");
    }
    b->keys = keys;
    read_side_tile(&r, defense_tile_keys, &b->defense, out);
    read_support(&r, &b->defense);
    if (b->npc && b->defense.n_support > 0) {
        cbd_reader_error(&r, "support",
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
    cbdp_duper_check_tile(&out->tile, &b->defense, b->npc, CBD_DUPER_LOADING_PLANES);
}

/* A battle as the request gives it. */
typedef struct {
    cbd_duper_battle b;
    side_read att, def;
    cbd_duper_rules rules;
    uint64_t seed;
    cbd_field seeded;
} battle_read;

/* Reads every member, each bad one recorded. The reading takes no memory of its own, so memory
 * runs out only in jansson's hands (cbd_api_read_status sees that). */
static cbd_read_status read_battle(const cbd_reader *root, const cbd_config *cfg, battle_read *in) {
    memset(in, 0, sizeof *in);
    read_attack(root, &in->b, &in->att);
    read_defense(root, &in->b, &in->def);
    if (in->att.player && in->def.player && strcmp(in->att.player, in->def.player) == 0) {
        cbd_problem_field(root->problem, "/defense/player",
                          "must differ from /attack/player: an order into one's own tile is a "
                          "move, not a battle");
    }
    in->rules = cfg->duper;
    cbd_reader rules_reader;
    if (cbd_read_object(root, "rules", cbd_duper_rules_keys, &rules_reader) == CBD_FIELD_OK) {
        cbd_duper_rules_read(&rules_reader, &in->rules);
    }
    in->seeded = cbd_read_seed(root, "seed", &in->seed);
    return cbd_api_read_status(true, root->problem);
}

bool cbd_api_duper_battle(const cbd_config *cfg, cbd_budget *budget, const json_t *request,
                          cbd_jw *out, cbd_problem *problem) {
    cbd_reader root;
    if (!cbd_reader_open(&root, request, "", root_keys, problem)) {
        return false;
    }
    battle_read in;
    if (read_battle(&root, cfg, &in) != CBD_READ_OK) {
        return false;
    }
    /* As on /simulate: the OS's entropy is a service condition (503), and the client can send
     * a seed instead. */
    if (in.seeded == CBD_FIELD_ABSENT && !cbd_api_fresh_seed(&in.seed, problem)) {
        return false;
    }
    /* One battle, read, resolved and written: a fixed amount of work, charged like any other
     * (reading a battle costs about what writing its answer does). */
    if (!cbd_charge(budget, CBD_WORK_DUPER_BATTLE + 2 * CBD_WORK_DUPER_BATTLE_JSON)) {
        return cbd_api_core_problem(cfg, budget, CBD_ERR_BUDGET, "", problem);
    }
    cbd_duper_result res;
    cbd_status st = cbd_duper_resolve(&in.rules, &in.b, in.seed, &res);
    if (st != CBD_OK) {
        /* Unreachable when the checks above are complete: the core refuses what they refuse. */
        cbd_problem_set(problem, 422, "The battle breaks the rules' limits: %s.",
                        cbd_status_str(st));
        return false;
    }
    cbd_jw_object_open(out);
    cbdp_duper_write_battle(out, &in.b, &res, &in.rules, in.att.player, in.def.player);
    cbd_jw_key_uint(out, "seed", in.seed);
    cbd_jw_object_close(out);
    return true;
}
