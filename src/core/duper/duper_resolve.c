/*
 * Duper battles (docs/rules.md D1–D11; the API layer enforces D12 and names the field).
 *
 * Decisions on points the rules leave open (each also documented in openapi.yaml):
 * - Participation (D11, D6): a normal attack uses every troop of the source tile (ground and
 *   air) and its fort; a long-distance attack uses only the planes and what they carry. A
 *   center or capital on the source tile never takes part: it neither adds power nor dies.
 *   A fort takes no part in a long-distance attack.
 * - Death order (D3, D4): groups are sorted by death priority; at equal priority the battle
 *   tile comes before the supporting tiles, and supporting tiles come in request order. Two
 *   classes of the same tile at equal priority (only possible with a retuned table) die in
 *   the order of cbd_duper_class. The supercapital is a ground troop with its own priority
 *   (4 by default), so it dies after the tile's planes and before supporting tanks of equal
 *   priority.
 * - Defending fort (D6): ranks with the highest priority among its tile's troops (ground and
 *   air, loaded troops excluded), after them; with DP 1 on a tile without troops. If a troop
 *   of its tile never dies (priority 0 in a retuned table), neither does the fort.
 * - Supporting fort (D6): ranks right after its own tanks, at their priority; so it dies only
 *   when all of them died and the remaining damage still reaches its power. When its side
 *   dies outright (a failed attack, or a captured defense), it dies with its tanks.
 * - Dying outright: every unit that takes part dies, except classes with priority 0 (centers,
 *   D7), which stay with the tile and pass to the attacker on a capture.
 * - Capital on the tile (D8, D10): a supercapital loaded in the defending tile's planes is on
 *   that tile, so it counts for the tie rule and the card steal like one standing there.
 * - Moved in (D6, W6-like): on a capture, the surviving attacking troops of the source tile
 *   that took part, with their loaded troops; never the fort, never supporting tanks. A
 *   capture by a fort alone moves no troop in, but the tile still changes hands.
 * - Damage to the defenders on a failed attack is attack power − tile buff − key buff, and
 *   never below 0.
 */
#include <string.h>

#include "combatd/duper.h"
#include "combatd/rng.h"

typedef struct {
    uint64_t key; /* death priority << 32 | location << 8 | order within the location */
    uint64_t count;
    uint64_t power;
    uint64_t *lost;
} group;

/* The units of one side that can die, in the order D3, D4 and D6 give them. */
typedef struct {
    group g[CBD_DUPER_CLASS_COUNT + 2 * CBD_DUPER_MAX_SUPPORT];
    size_t n;
} death_order;

#define FORT_ORDER 0xffu /* the defending fort comes after its tile's troops (D6) */

static uint64_t sort_key(uint32_t death_priority, size_t location, unsigned order) {
    return ((uint64_t)death_priority << 32) | ((uint64_t)location << 8) | order;
}

static void add_group(death_order *o, uint64_t key, uint64_t count, uint32_t power,
                      uint64_t *lost) {
    o->g[o->n++] = (group){key, count, power, lost};
}

static bool is_troop(int c) {
    return cbd_duper_class_layer((cbd_duper_class)c) != CBD_DUPER_BUILDING;
}

bool cbd_duper_takes_part(cbd_duper_kind kind, cbd_duper_class c) {
    if (kind == CBD_DUPER_LONG_DISTANCE) {
        return c == CBD_DUPER_PLANE;
    }
    return is_troop((int)c) || c == CBD_DUPER_FORT;
}

static bool attacks(cbd_duper_kind kind, int c) {
    return cbd_duper_takes_part(kind, (cbd_duper_class)c);
}

/* D3: supporting tanks at their own priority, each supporting fort right after its tanks. */
static void add_support(death_order *o, const cbd_duper_rules *rules, const cbd_duper_side *s,
                        cbd_duper_side *loss) {
    uint32_t death_priority = rules->supporting_tank_death_priority;
    for (size_t i = 0; i < s->n_support; i++) {
        if (s->support_tanks[i]) {
            add_group(o, sort_key(death_priority, 1 + i, 0), s->support_tanks[i],
                      rules->units[CBD_DUPER_TANK].power, &loss->support_tanks[i]);
        }
        if (s->support_fort[i]) {
            add_group(o, sort_key(death_priority, 1 + i, 1), 1, rules->units[CBD_DUPER_FORT].power,
                      &loss->support_fort[i]);
        }
    }
}

/*
 * D4: units die in order while the remaining damage reaches their power; the first unit
 * that survives ends the allocation and the rest of the damage is discarded.
 */
static void allocate(death_order *o, uint64_t damage) {
    group *g = o->g;
    for (size_t i = 1; i < o->n; i++) {
        group x = g[i];
        size_t j = i;
        while (j > 0 && g[j - 1].key > x.key) {
            g[j] = g[j - 1];
            j--;
        }
        g[j] = x;
    }
    for (size_t i = 0; i < o->n; i++) {
        uint64_t killed = g[i].power == 0 ? g[i].count : damage / g[i].power;
        if (killed > g[i].count) {
            killed = g[i].count;
        }
        *g[i].lost = killed;
        damage -= killed * g[i].power;
        if (killed < g[i].count) {
            return;
        }
    }
}

/* D5: loaded troops die iff every plane of their stack died. */
static void loaded_losses(const cbd_duper_side *s, cbd_duper_side *loss) {
    if (s->units[CBD_DUPER_PLANE] > 0 &&
        loss->units[CBD_DUPER_PLANE] == s->units[CBD_DUPER_PLANE]) {
        memcpy(loss->loaded, s->loaded, sizeof loss->loaded);
    }
}

/* A side that loses outright: every unit that takes part dies, save priority-0 classes. */
static void all_die(const cbd_duper_rules *rules, const cbd_duper_side *s, cbd_duper_side *loss,
                    bool attacking, cbd_duper_kind kind) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        bool part = attacking ? attacks(kind, c) : true;
        bool mortal = c == CBD_DUPER_FORT || rules->units[c].death_priority != 0;
        loss->units[c] = part && mortal ? s->units[c] : 0;
    }
    memcpy(loss->loaded, s->loaded, sizeof loss->loaded);
    for (size_t i = 0; i < s->n_support; i++) {
        loss->support_tanks[i] = s->support_tanks[i];
        loss->support_fort[i] = s->support_fort[i];
    }
}

static uint64_t support_power(const cbd_duper_rules *rules, const cbd_duper_side *s,
                              cbd_duper_power *p) {
    uint64_t sum = 0;
    for (size_t i = 0; i < s->n_support; i++) {
        p->support_tanks[i] = s->support_tanks[i] * rules->units[CBD_DUPER_TANK].power;
        /* D6: a supporting fort adds its power to its tanks' support. */
        p->support_fort[i] = s->support_fort[i] * rules->units[CBD_DUPER_FORT].power;
        sum += p->support_tanks[i] + p->support_fort[i];
    }
    return sum;
}

static bool side_valid(const cbd_duper_side *s) {
    if (s->n_support > CBD_DUPER_MAX_SUPPORT) {
        return false;
    }
    uint64_t loaded = 0;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (s->units[c] > CBD_DUPER_MAX_COUNT || s->loaded[c] > CBD_DUPER_MAX_COUNT) {
            return false;
        }
        loaded |= s->loaded[c];
    }
    for (size_t i = 0; i < s->n_support; i++) {
        if (s->support_tanks[i] > CBD_DUPER_MAX_COUNT || s->support_fort[i] > 1) {
            return false;
        }
    }
    /* D5: troops ride in planes. A stack of two or more loads them (the API refuses fewer on
     * a request's tile), and they stay loaded in the planes that survive a battle, so a board
     * tile may carry them in one plane afterwards; with no plane there is nothing to ride. */
    return loaded == 0 || s->units[CBD_DUPER_PLANE] >= 1;
}

/* What would make the arithmetic unsafe (the API layer has refused the rest, D12). */
static bool battle_valid(const cbd_duper_rules *rules, const cbd_duper_battle *b) {
    return cbd_duper_rules_valid(rules) && side_valid(&b->attack) && side_valid(&b->defense) &&
           (b->kind == CBD_DUPER_NORMAL || b->kind == CBD_DUPER_LONG_DISTANCE) &&
           b->keys <= CBD_DUPER_MAX_KEYS && (b->npc || (b->level >= 1 && b->level <= 3));
}

/* Attack power: the troops that take part (loaded ones have no power, D5), an attacking fort
 * (D6) and the supporting tanks with their forts. */
static void attack_power(const cbd_duper_rules *rules, const cbd_duper_battle *b,
                         cbd_duper_power *attack) {
    uint64_t total = 0;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (attacks(b->kind, c)) {
            attack->units[c] = b->attack.units[c] * rules->units[c].power;
            total += attack->units[c];
        }
    }
    attack->total = total + support_power(rules, &b->attack, attack);
}

/* Defense power: troops, building, support, tile buff and key buff (D2); NPC tiles count
 * their units alone (D9). */
static void defense_power(const cbd_duper_rules *rules, const cbd_duper_battle *b,
                          cbd_duper_power *defense) {
    uint64_t total = 0;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        defense->units[c] = b->defense.units[c] * rules->units[c].power;
        total += defense->units[c];
    }
    total += support_power(rules, &b->defense, defense);
    if (!b->npc) {
        defense->tile_buff = rules->tile_buff[b->level - 1];
        defense->key_buff = (uint64_t)rules->key_buff_per_key * b->keys;
    }
    defense->total = total + defense->tile_buff + defense->key_buff;
}

/* D8, D10: a capital or supercapital on the defending tile, standing or loaded in its planes. */
static bool holds_capital(const cbd_duper_side *defense) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (cbd_duper_is_capital((cbd_duper_class)c) &&
            (defense->units[c] > 0 || defense->loaded[c] > 0)) {
            return true;
        }
    }
    return false;
}

/* A capture: the defenders die outright; the attackers take damage equal to the defense
 * power, and an attacking fort absorbs the first of it and never dies (D6, D8). */
static void damage_attackers(const cbd_duper_rules *rules, const cbd_duper_battle *b,
                             cbd_duper_result *out) {
    const cbd_duper_side *attack = &b->attack;
    cbd_duper_side *loss = &out->losses[CBD_DUPER_ATTACK];
    all_die(rules, &b->defense, &out->losses[CBD_DUPER_DEFENSE], false, b->kind);
    out->damage = out->power[CBD_DUPER_DEFENSE].total;
    uint64_t damage = out->damage;
    if (b->kind == CBD_DUPER_NORMAL && attack->units[CBD_DUPER_FORT] > 0) {
        uint64_t absorbed = rules->units[CBD_DUPER_FORT].power;
        damage = damage > absorbed ? damage - absorbed : 0;
    }
    death_order order = {.n = 0};
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        uint32_t death_priority = rules->units[c].death_priority;
        if (attacks(b->kind, c) && is_troop(c) && attack->units[c] > 0 && death_priority != 0) {
            add_group(&order, sort_key(death_priority, 0, (unsigned)c), attack->units[c],
                      rules->units[c].power, &loss->units[c]);
        }
    }
    add_support(&order, rules, attack, loss);
    allocate(&order, damage);
    loaded_losses(attack, loss);
}

/* D6: the defending fort ranks after its tile's troops, with the highest priority among them
 * (1 on a tile without troops); if one of them never dies, neither does the fort. */
static void add_defending_tile(death_order *order, const cbd_duper_rules *rules,
                               const cbd_duper_side *defense, cbd_duper_side *loss) {
    uint32_t fort_priority = 1;
    bool fort_mortal = true;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        uint32_t death_priority = rules->units[c].death_priority;
        if (defense->units[c] == 0 || c == CBD_DUPER_FORT) {
            continue;
        }
        if (is_troop(c)) {
            fort_priority = death_priority > fort_priority ? death_priority : fort_priority;
            fort_mortal = fort_mortal && death_priority != 0;
        }
        if (death_priority != 0) {
            add_group(order, sort_key(death_priority, 0, (unsigned)c), defense->units[c],
                      rules->units[c].power, &loss->units[c]);
        }
    }
    if (defense->units[CBD_DUPER_FORT] > 0 && fort_mortal) {
        add_group(order, sort_key(fort_priority, 0, FORT_ORDER), defense->units[CBD_DUPER_FORT],
                  rules->units[CBD_DUPER_FORT].power, &loss->units[CBD_DUPER_FORT]);
    }
}

/* A failed attack: the attackers die outright; the defenders take the attack power less the
 * tile and key buffs (D9: none on an NPC tile), never below 0. */
static void damage_defenders(const cbd_duper_rules *rules, const cbd_duper_battle *b,
                             cbd_duper_result *out) {
    cbd_duper_side *loss = &out->losses[CBD_DUPER_DEFENSE];
    const cbd_duper_power *defense = &out->power[CBD_DUPER_DEFENSE];
    all_die(rules, &b->attack, &out->losses[CBD_DUPER_ATTACK], true, b->kind);
    uint64_t attack_total = out->power[CBD_DUPER_ATTACK].total;
    uint64_t buffs = defense->tile_buff + defense->key_buff;
    out->damage = attack_total > buffs ? attack_total - buffs : 0;
    death_order order = {.n = 0};
    add_defending_tile(&order, rules, &b->defense, loss);
    add_support(&order, rules, &b->defense, loss);
    allocate(&order, out->damage);
    loaded_losses(&b->defense, loss);
}

/* Survivors are what each side had less its losses. */
static void count_survivors(const cbd_duper_side *in, const cbd_duper_side *loss,
                            cbd_duper_side *left) {
    left->n_support = in->n_support;
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        left->units[c] = in->units[c] - loss->units[c];
        left->loaded[c] = in->loaded[c] - loss->loaded[c];
    }
    for (size_t i = 0; i < in->n_support; i++) {
        left->support_tanks[i] = in->support_tanks[i] - loss->support_tanks[i];
        left->support_fort[i] = in->support_fort[i] - loss->support_fort[i];
    }
}

/* D8: a side whose capital or supercapital died is eliminated (D9: NPCs never are). */
static bool eliminated(const cbd_duper_side *loss, bool npc) {
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (cbd_duper_is_capital((cbd_duper_class)c) &&
            (loss->units[c] > 0 || loss->loaded[c] > 0)) {
            return !npc;
        }
    }
    return false;
}

/* D6, W6-like: the surviving attacking troops that took part occupy a captured tile, with
 * what their planes carry; never the fort, never the supporting tanks. */
static void move_in(const cbd_duper_battle *b, cbd_duper_result *out) {
    const cbd_duper_side *left = &out->survivors[CBD_DUPER_ATTACK];
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        if (attacks(b->kind, c) && is_troop(c)) {
            out->moved_in_units[c] = left->units[c];
        }
    }
    memcpy(out->moved_in_loaded, left->loaded, sizeof out->moved_in_loaded);
}

cbd_status cbd_duper_resolve(const cbd_duper_rules *rules, const cbd_duper_battle *b, uint64_t seed,
                             cbd_duper_result *out) {
    if (!battle_valid(rules, b)) {
        return CBD_ERR_INVALID;
    }
    memset(out, 0, sizeof *out);
    out->losses[CBD_DUPER_ATTACK].n_support = b->attack.n_support;
    out->losses[CBD_DUPER_DEFENSE].n_support = b->defense.n_support;
    attack_power(rules, b, &out->power[CBD_DUPER_ATTACK]);
    defense_power(rules, b, &out->power[CBD_DUPER_DEFENSE]);

    /* The outcome (D8: a tie fails, unless the defending tile holds a capital). */
    bool capital = holds_capital(&b->defense);
    uint64_t attack_total = out->power[CBD_DUPER_ATTACK].total;
    uint64_t defense_total = out->power[CBD_DUPER_DEFENSE].total;
    out->tie = attack_total == defense_total;
    out->captured = attack_total > defense_total || (out->tie && capital);
    if (out->captured) {
        damage_attackers(rules, b, out);
    } else {
        damage_defenders(rules, b, out);
    }

    count_survivors(&b->attack, &out->losses[CBD_DUPER_ATTACK], &out->survivors[CBD_DUPER_ATTACK]);
    count_survivors(&b->defense, &out->losses[CBD_DUPER_DEFENSE],
                    &out->survivors[CBD_DUPER_DEFENSE]);
    out->eliminated[CBD_DUPER_ATTACK] = eliminated(&out->losses[CBD_DUPER_ATTACK], false);
    out->eliminated[CBD_DUPER_DEFENSE] = eliminated(&out->losses[CBD_DUPER_DEFENSE], b->npc);
    /* The tile disappears when its owner after the battle is eliminated (D8). */
    if (out->captured) {
        move_in(b, out);
        out->tile_disappears = out->eliminated[CBD_DUPER_ATTACK];
    } else {
        out->tile_disappears = out->eliminated[CBD_DUPER_DEFENSE];
    }
    /* D10: drawn whatever the outcome. */
    out->card_steal_eligible = capital;
    out->card_stolen = capital && cbd_duper_card_steal_draw(seed, rules->card_steal_probability);
    return CBD_OK;
}

bool cbd_duper_card_steal_draw(uint64_t seed, cbd_micro probability) {
    /* Rejection keeps u uniform on [0, 10^6): 2^64 mod 10^6 = 551616 values are refused,
     * so a second draw happens with probability about 3e-14. */
    const uint64_t limit = UINT64_C(18446744073709000000);
    uint64_t state = seed, x;
    do {
        x = cbd_splitmix64_next(&state);
    } while (x >= limit);
    return x % CBD_MICRO_ONE < probability;
}
