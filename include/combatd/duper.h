#ifndef COMBATD_DUPER_H
#define COMBATD_DUPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combatd/decimal.h"
#include "combatd/status.h"

/* Duper battles: the rules' knobs and unit table (docs/rules.md D1–D12), and the battle itself.
 * The shared header of src/core/duper/: duper_classes.c implements the unit table,
 * duper_rules.c the rules' defaults and checks, duper_resolve.c the battle. */

typedef enum {
    CBD_DUPER_SOLDIER = 0,
    CBD_DUPER_LARVA,
    CBD_DUPER_TANK,
    CBD_DUPER_PLANE,
    CBD_DUPER_FORT,
    CBD_DUPER_CENTER,
    CBD_DUPER_CAPITAL_LV1,
    CBD_DUPER_CAPITAL_LV2,
    CBD_DUPER_CAPITAL_LV3,
    CBD_DUPER_SUPERCAPITAL,
    CBD_DUPER_CLASS_COUNT
} cbd_duper_class;

/* The layer of a class (docs/rules.md's unit table; D12 allows one class of each per tile). */
typedef enum { CBD_DUPER_GROUND, CBD_DUPER_AIR, CBD_DUPER_BUILDING } cbd_duper_layer;

/* One row of the unit table (D1). */
typedef struct {
    uint32_t power;
    uint32_t death_priority; /* lower dies first; 0 means the class never dies (centers, D7) */
} cbd_duper_unit;

/*
 * Everything fixed about a unit class, one row per class (src/core/duper/duper_classes.c): the API
 * name, the layer, the shipped unit-table row (D1), whether planes carry it (D5), whether its
 * death eliminates its player (D8) and whether its death priority is a setting (the fort's is
 * placed by D6 instead). The API readers, the config reader, the answers and the contract
 * test all read this table; adding a class is one enum value and one row.
 */
typedef struct {
    const char *name;
    cbd_duper_layer layer;
    cbd_duper_unit defaults;
    bool loadable;
    bool capital;
    bool death_priority_setting;
} cbd_duper_class_info;

/* The row of class c, or NULL when out of range. */
const cbd_duper_class_info *cbd_duper_class_row(cbd_duper_class c);

/*
 * Fills names with the API names of every class (loadable_only: of the classes planes carry,
 * D5) in cbd_duper_class order, NULL-terminated, as a reader's list of allowed members.
 * Returns the number of names.
 */
size_t cbd_duper_class_names(bool loadable_only, const char *names[CBD_DUPER_CLASS_COUNT + 1]);

/* The configurable rules: the unit table and the knobs docs/rules.md marks configurable. */
typedef struct {
    cbd_duper_unit units[CBD_DUPER_CLASS_COUNT];
    uint32_t key_buff_per_key;               /* D2, default 2 */
    uint32_t supporting_tank_death_priority; /* D3, default 4 */
    cbd_micro card_steal_probability;        /* D10, default 0.35 */
    uint32_t tile_buff[3];                   /* levels 1, 2, 3: 1, 2, 4 */
} cbd_duper_rules;

/*
 * Limits that keep every sum exact and below 2^53 (so JSON clients that read numbers as
 * doubles see them exactly): at most 10^9 units of a class, powers and buffs of at most 1000,
 * at most 1000 keys and 8 supporting tiles per side. 10^9 · 1000 · (10 + 2·8) < 2^53.
 */
#define CBD_DUPER_MAX_COUNT          UINT64_C(1000000000)
#define CBD_DUPER_MAX_POWER          1000u
#define CBD_DUPER_MAX_DEATH_PRIORITY 100u
#define CBD_DUPER_MAX_KEYS           1000u
#define CBD_DUPER_MAX_SUPPORT        8

/* The shipped defaults (the class table's unit rows and D2, D3, D10). */
cbd_duper_rules cbd_duper_default_rules(void);

/* The class's name in the API ("soldier", "capital_lv1", ...), or NULL when out of range. */
const char *cbd_duper_class_name(cbd_duper_class c);

/* The class's layer (soldier, larva, tank and supercapital are ground troops). */
cbd_duper_layer cbd_duper_class_layer(cbd_duper_class c);

/* True for capital_lv1..3 and the supercapital, whose death eliminates a player (D8). */
bool cbd_duper_is_capital(cbd_duper_class c);

/* True for the classes planes carry (D5): the ground troops. */
bool cbd_duper_is_loadable(cbd_duper_class c);

/* Checks a rules value against the limits above; false when a value is out of range. */
bool cbd_duper_rules_valid(const cbd_duper_rules *rules);

/* D11: a normal attack uses the whole source tile, a long-distance one only its planes. */
typedef enum { CBD_DUPER_NORMAL = 0, CBD_DUPER_LONG_DISTANCE } cbd_duper_kind;

/* Does class c of the attacking tile take part in an attack of this kind (D6, D11)? A normal
 * attack uses every troop and the fort; a long-distance one only the planes (with what they
 * carry). Centers and capitals on the source tile never take part. */
bool cbd_duper_takes_part(cbd_duper_kind kind, cbd_duper_class c);

/*
 * One side of a battle: its battle tile (units, and the ground troops loaded in its planes,
 * D5) and its supporting tiles in the order the request lists them (D3). The same shape holds
 * the losses and the survivors of a side.
 */
typedef struct {
    uint64_t units[CBD_DUPER_CLASS_COUNT];
    uint64_t loaded[CBD_DUPER_CLASS_COUNT];
    size_t n_support;
    uint64_t support_tanks[CBD_DUPER_MAX_SUPPORT];
    uint64_t support_fort[CBD_DUPER_MAX_SUPPORT]; /* 0 or 1 */
} cbd_duper_side;

typedef struct {
    cbd_duper_kind kind;
    bool npc;       /* D9: the defending tile is held by NPCs */
    uint32_t level; /* the defending tile's level, 1..3 (ignored for NPC tiles, D9) */
    uint64_t keys;  /* keys of the attacker's colour held by the defender (D2) */
    cbd_duper_side attack, defense;
} cbd_duper_battle;

/* Power itemised (each entry is count · power of one group). */
typedef struct {
    uint64_t units[CBD_DUPER_CLASS_COUNT]; /* per class on the battle tile, taking part */
    uint64_t support_tanks[CBD_DUPER_MAX_SUPPORT];
    uint64_t support_fort[CBD_DUPER_MAX_SUPPORT];
    uint64_t tile_buff, key_buff; /* defense only */
    uint64_t total;
} cbd_duper_power;

enum { CBD_DUPER_ATTACK = 0, CBD_DUPER_DEFENSE = 1 };

typedef struct {
    cbd_duper_power power[2]; /* [CBD_DUPER_ATTACK], [CBD_DUPER_DEFENSE] */
    bool captured;
    bool tie; /* equal powers (D8) */
    /* Damage dealt by the rules: to the attackers on a capture, to the defenders otherwise.
     * The other side dies outright, and its damage is not a number (the API prints null). */
    uint64_t damage;
    cbd_duper_side losses[2];
    cbd_duper_side survivors[2];
    /* On a capture: the attacking troops that occupy the tile (D6: never the fort). */
    uint64_t moved_in_units[CBD_DUPER_CLASS_COUNT];
    uint64_t moved_in_loaded[CBD_DUPER_CLASS_COUNT];
    bool eliminated[2]; /* D8 */
    /* The tile disappears when its owner after the battle is eliminated (D8). */
    bool tile_disappears;
    bool card_steal_eligible; /* D10 */
    bool card_stolen;         /* meaningful only when eligible */
} cbd_duper_result;

/*
 * Resolves one battle (D1–D11). The input must already satisfy D12 and the limits above (the
 * API layer checks them and names the field); the core only re-checks what would make the
 * arithmetic unsafe and returns CBD_ERR_INVALID then. `seed` drives the card steal (D10).
 * Its work is fixed (the groups of one battle are at most CBD_DUPER_CLASS_COUNT + 2 ·
 * CBD_DUPER_MAX_SUPPORT), so it takes no budget: a caller that resolves many charges
 * CBD_WORK_DUPER_BATTLE (budget.h) for each before it runs them.
 */
cbd_status cbd_duper_resolve(const cbd_duper_rules *rules, const cbd_duper_battle *battle,
                             uint64_t seed, cbd_duper_result *out);

/*
 * The card-steal draw (D10), documented so that clients can reproduce it:
 *   x = splitmix64(seed), the first output of the splitmix64 generator seeded with `seed`
 *       (state += 0x9E3779B97F4A7C15; z = state; z = (z ^ z>>30) · 0xBF58476D1CE4E5B9;
 *        z = (z ^ z>>27) · 0x94D049BB133111EB; z ^= z>>31), taking further outputs while
 *       x ≥ 18446744073709000000 (the largest multiple of 10^6 not above 2^64), so that
 *   u = x mod 10^6 is uniform on [0, 10^6) without modulo bias;
 *   the card is stolen iff u < probability in millionths. The rate is exactly the probability.
 */
bool cbd_duper_card_steal_draw(uint64_t seed, cbd_micro probability);

#endif
