/*
 * Random boards: each board battle must equal the same battle sent to /duper/battle with the
 * support lists the board implies, member for member. The test finds the support
 * itself, by scanning the pairs (D14: the attacker's other tiles adjacent to the source with
 * tanks, the defender's other tiles adjacent to the target with tanks, none for NPCs, in the
 * byte order of ids), and builds the /duper/battle request from the board.
 *
 * One attack per board: after a battle a stack can be down to 1 plane still carrying troops
 * (D5), which /duper/battle (and a board request) refuses as a starting position, so chained
 * attacks are checked by the hand-worked tests instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "api/api.h"
#include "api/api_config.h"

#define MAX_TILES 9

typedef struct {
    char id[24];
    int owner; /* 0 red, 1 blue, 2 npc */
    int level;
    unsigned soldier, larva, tank, plane, supercapital, fort, center, capital, loaded_soldier,
        loaded_tank;
} tile;

typedef struct {
    size_t n;
    tile t[MAX_TILES];
    bool adj[MAX_TILES][MAX_TILES];
    unsigned keys[2][2]; /* keys[holder][colour] */
} board;

static const char *const owner_names[] = {"red", "blue", "npc"};

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned roll(unsigned n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static void random_units(tile *t, bool *capital_used) {
    if (t->owner == 2) {
        t->larva = roll(5); /* D9: NPC tiles hold larvae only */
        return;
    }
    switch (roll(4)) { /* D12: one ground class */
        case 0:
            t->soldier = 1 + roll(6);
            break;
        case 1:
            t->tank = 1 + roll(5);
            break;
        case 2:
            t->supercapital = roll(6) == 0 ? 1 : 0;
            break;
        default:
            break;
    }
    t->plane = roll(3) == 0 ? 0 : roll(4);
    unsigned b = roll(6); /* D12: one building */
    if (b == 1) {
        t->fort = 1;
    } else if (b == 2) {
        t->center = 1;
    } else if (b == 3 && !capital_used[t->owner]) {
        t->capital = 1 + roll(3);
        capital_used[t->owner] = true;
    }
    if (t->plane >= 2 && roll(2) == 0) { /* D5 */
        if (roll(2) == 0) {
            t->loaded_soldier = 1 + roll(3);
        } else {
            t->loaded_tank = 1 + roll(3);
        }
    }
}

static void random_board(board *b) {
    memset(b, 0, sizeof *b);
    b->n = 3 + roll(MAX_TILES - 2);
    bool capital_used[2] = {false, false};
    static const char letters[] = "ABZabz09";
    for (size_t i = 0; i < b->n; i++) {
        tile *t = &b->t[i];
        /* Ids whose byte order differs from their order in the request (D14). */
        snprintf(t->id, sizeof t->id, "%c%zu", letters[roll(8)], i);
        t->owner = (int)roll(3);
        t->level = 1 + (int)roll(3);
        random_units(t, capital_used);
    }
    for (size_t i = 0; i < b->n; i++) {
        for (size_t j = i + 1; j < b->n; j++) {
            b->adj[i][j] = b->adj[j][i] = roll(5) < 2;
        }
    }
    b->keys[0][1] = roll(3);
    b->keys[1][0] = roll(3);
}

static bool has_troops(const tile *t) {
    return t->soldier + t->tank + t->plane + t->supercapital > 0;
}

static bool owns_tile(const board *b, int player) {
    for (size_t i = 0; i < b->n; i++) {
        if (b->t[i].owner == player) {
            return true;
        }
    }
    return false;
}

static void put_counts(json_t *obj, const char *name, unsigned v) {
    if (v > 0) {
        json_object_set_new(obj, name, json_integer(v));
    }
}

static json_t *units_json(const tile *t) {
    json_t *u = json_object();
    put_counts(u, "soldier", t->soldier);
    put_counts(u, "larva", t->larva);
    put_counts(u, "tank", t->tank);
    put_counts(u, "plane", t->plane);
    put_counts(u, "supercapital", t->supercapital);
    put_counts(u, "fort", t->fort);
    put_counts(u, "center", t->center);
    static const char *const caps[] = {NULL, "capital_lv1", "capital_lv2", "capital_lv3"};
    if (t->capital) {
        put_counts(u, caps[t->capital], 1);
    }
    return u;
}

static json_t *loaded_json(const tile *t) {
    json_t *l = json_object();
    put_counts(l, "soldier", t->loaded_soldier);
    put_counts(l, "tank", t->loaded_tank);
    return l;
}

static json_t *board_request(const board *b, size_t s, size_t d, bool far, uint64_t seed) {
    json_t *tiles = json_object(), *pairs = json_array(), *keys = json_object();
    for (size_t i = 0; i < b->n; i++) {
        const tile *t = &b->t[i];
        json_object_set_new(tiles, t->id,
                            json_pack("{s:s, s:i, s:o, s:o}", "owner", owner_names[t->owner],
                                      "level", t->level, "units", units_json(t), "loaded",
                                      loaded_json(t)));
        for (size_t j = i + 1; j < b->n; j++) {
            if (b->adj[i][j]) {
                json_array_append_new(pairs, json_pack("[s, s]", t->id, b->t[j].id));
            }
        }
    }
    if (owns_tile(b, 0) && owns_tile(b, 1)) {
        json_object_set_new(keys, "red", json_pack("{s:i}", "blue", b->keys[0][1]));
        json_object_set_new(keys, "blue", json_pack("{s:i}", "red", b->keys[1][0]));
    }
    return json_pack("{s:{s:o, s:o, s:o}, s:[{s:s, s:s, s:s}], s:I}", "board", "tiles", tiles,
                     "adjacent", pairs, "keys", keys, "attacks", "from", b->t[s].id, "to",
                     b->t[d].id, "kind", far ? "long_distance" : "normal", "seed",
                     (json_int_t)seed);
}

static int id_cmp(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* D14 by scanning the pairs: the tiles of `owner` other than s and d adjacent to `around`
 * holding tanks, in the byte order of their ids; their /duper/battle support and ids. */
static json_t *support_of(const board *b, int owner, size_t around, size_t s, size_t d,
                          json_t *ids) {
    const char *found[MAX_TILES];
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (i != s && i != d && b->t[i].owner == owner && b->adj[around][i] && b->t[i].tank > 0) {
            found[n++] = b->t[i].id;
        }
    }
    qsort(found, n, sizeof found[0], id_cmp);
    json_t *list = json_array();
    for (size_t k = 0; k < n; k++) {
        const tile *t = NULL;
        for (size_t i = 0; i < b->n; i++) {
            t = strcmp(b->t[i].id, found[k]) == 0 ? &b->t[i] : t;
        }
        json_array_append_new(list, json_pack("{s:i, s:b}", "tanks", t->tank, "fort", t->fort));
        json_array_append_new(ids, json_string(found[k]));
    }
    return list;
}

static json_t *single_request(const board *b, size_t s, size_t d, bool far, uint64_t seed,
                              json_t *ids_attack, json_t *ids_defense) {
    const tile *st = &b->t[s], *dt = &b->t[d];
    json_t *attack =
        json_pack("{s:s, s:s, s:{s:o, s:o}, s:o}", "player", owner_names[st->owner], "kind",
                  far ? "long_distance" : "normal", "tile", "units", units_json(st), "loaded",
                  loaded_json(st), "support", support_of(b, st->owner, s, s, d, ids_attack));
    json_t *defense;
    json_t *tile_obj = json_pack("{s:i, s:o, s:o}", "level", dt->level, "units", units_json(dt),
                                 "loaded", loaded_json(dt));
    if (dt->owner == 2) { /* D9: no player, no keys, no support */
        defense = json_pack("{s:b, s:o}", "npc", 1, "tile", tile_obj);
    } else {
        defense = json_pack("{s:s, s:i, s:o, s:o}", "player", owner_names[dt->owner], "keys",
                            b->keys[dt->owner][st->owner], "tile", tile_obj, "support",
                            support_of(b, dt->owner, d, s, d, ids_defense));
    }
    return json_pack("{s:o, s:o, s:I}", "attack", attack, "defense", defense, "seed",
                     (json_int_t)seed);
}

static json_t *answer(const char *path, const json_t *req) {
    cbd_config cfg;
    cbd_config_defaults(&cfg);
    char *body = json_dumps(req, JSON_COMPACT);
    cbd_api_reply reply;
    cbd_api_run(cbd_api_find_endpoint(path), &cfg, body, strlen(body), &reply);
    cr_assert_eq(reply.status, 200, "%s %s -> %s", path, body, reply.body);
    json_t *doc = json_loadb(reply.body, reply.body_len, 0, NULL);
    cbd_api_reply_free(&reply);
    free(body);
    return doc;
}

/* A random legal attack (D17's shape: a source with troops; long distance from planes). */
static bool pick_attack(const board *b, size_t *s, size_t *d, bool *far) {
    for (int tries = 0; tries < 200; tries++) {
        *s = roll((unsigned)b->n);
        *d = roll((unsigned)b->n);
        const tile *st = &b->t[*s], *dt = &b->t[*d];
        if (*s == *d || st->owner == 2 || dt->owner == st->owner || !has_troops(st)) {
            continue;
        }
        *far = !b->adj[*s][*d] || (st->plane > 0 && roll(3) == 0);
        if (!*far || st->plane > 0) {
            return true;
        }
    }
    return false;
}

Test(board_random, a_board_battle_equals_the_same_battle_on_duper_battle) {
    size_t checked = 0;
    for (uint64_t round = 0; checked < 3000 && round < 20000; round++) {
        board b;
        random_board(&b);
        size_t s, d;
        bool far;
        if (!pick_attack(&b, &s, &d, &far)) {
            continue;
        }
        json_t *ids[2] = {json_array(), json_array()};
        json_t *breq = board_request(&b, s, d, far, round);
        json_t *sreq = single_request(&b, s, d, far, round, ids[0], ids[1]);
        json_t *bans = answer("/duper/board/battle", breq);
        json_t *sans = answer("/duper/battle", sreq);
        const json_t *battle = json_array_get(json_object_get(bans, "battles"), 0);
        cr_assert(json_is_false(json_object_get(battle, "skipped")));
        const json_t *support = json_object_get(battle, "support");
        cr_expect(json_equal(json_object_get(support, "attack"), ids[0]), "round %llu",
                  (unsigned long long)round);
        cr_expect(json_equal(json_object_get(support, "defense"), ids[1]), "round %llu",
                  (unsigned long long)round);
        const char *key;
        const json_t *v;
        json_object_foreach(sans, key, v) {
            if (!json_equal(v, json_object_get(battle, key))) {
                char *a = json_dumps(breq, JSON_COMPACT), *x = json_dumps(v, JSON_COMPACT);
                cr_assert_fail("round %llu: %s differs: /duper/battle %s; request %s",
                               (unsigned long long)round, key, x, a);
            }
        }
        cr_expect_eq(json_object_size(battle), json_object_size(sans) + 2); /* skipped, support */
        json_decref(bans);
        json_decref(sans);
        json_decref(breq);
        json_decref(sreq);
        json_decref(ids[0]);
        json_decref(ids[1]);
        checked++;
    }
    cr_expect_eq(checked, 3000);
}
