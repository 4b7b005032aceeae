/*
 * The Duper board core against the request budget (include/combatd/budget.h): what a board,
 * a run and an options search charge, worked out by hand from the weights; the meter stopping
 * a walk around a hub and an options search with CBD_ERR_BUDGET, memory included, with every
 * block given back; the best `keep` options equal to the head of the whole list; and keys held
 * as a list as long as the spec's, not a players × players table.
 */
#include <stdio.h>

#include "duper_board_fixture.h"
#include "warm_scratch.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Tile ids of the boards below, made once. */
static char ids[2000][8];
static char owners[2000][8];

static const char *id_of(size_t i) {
    snprintf(ids[i], sizeof ids[i], "t%zu", i);
    return ids[i];
}

static cbd_duper_board *build(const cbd_duper_tile_spec *t, size_t nt, const cbd_duper_pair_spec *p,
                              size_t np, const cbd_duper_keys_spec *k, size_t nk,
                              cbd_budget *budget) {
    cbd_duper_board_spec spec = {t, nt, p, np, k, nk};
    cbd_duper_board *b = NULL;
    cbd_duper_board_error err;
    cr_assert_eq(cbd_duper_board_create(&spec, budget, &b, &err), CBD_OK);
    return b;
}

/* A red hub t0 (5 soldiers) adjacent to `spokes` blue tiles (a soldier each). */
static size_t star(cbd_duper_tile_spec *t, cbd_duper_pair_spec *p, size_t spokes) {
    t[0] = tile(id_of(0), "red", 1);
    t[0].units[SOLDIER] = 5;
    for (size_t i = 1; i <= spokes; i++) {
        t[i] = tile(id_of(i), "blue", 1);
        t[i].units[SOLDIER] = 1;
        p[i - 1] = (cbd_duper_pair_spec){{ids[0], ids[i]}};
    }
    return spokes + 1;
}

/*
 * A hub with 1999 spokes. Building: 2000 tiles and 1999 pairs at their weights, the two
 * players sorted (2 · depth(2) = 4 comparisons; depth(n): the halvings that bring n to 1, plus
 * one) and the hub's list of 1999 sorted (1999 · depth(1999) = 1999 · 11 comparisons; lists of
 * 16 or fewer are covered by the pair's weight). One attack t0 → t1: a battle, the adjacency
 * check over t0's 1999 neighbours, the support walks around t0 (1999 steps) and t1 (1); no
 * capital dies, so no walk over the board.
 */
Test(duper_board_budget, a_walk_around_a_hub_is_charged_step_by_step_and_stopped) {
    static cbd_duper_tile_spec t[2000];
    static cbd_duper_pair_spec p[1999];
    size_t nt = star(t, p, 1999);
    const uint64_t create = 2000 * CBD_WORK_BOARD_TILE + 1999 * CBD_WORK_BOARD_PAIR +
                            4 * CBD_WORK_COMPARE + 1999 * 11 * CBD_WORK_COMPARE;
    const uint64_t attack = CBD_WORK_DUPER_BATTLE + (1999 + 1999 + 1) * CBD_WORK_BOARD_STEP;
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_attack_spec a = {ids[0], ids[1], NORMAL};
    cbd_duper_board_battle out;
    cbd_duper_board_error err;

    cbd_budget budget;
    warm_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cbd_duper_board *b = build(t, nt, p, 1999, NULL, 0, &budget);
    cr_expect_eq(budget.work_spent, create);
    cr_assert_eq(cbd_duper_board_run(b, &rules, &a, 1, 0, &budget, &out, &err), CBD_OK);
    cr_expect_eq(budget.work_spent, create + attack);
    cr_expect(out.result.captured, "5 soldiers against 1 + tile buff 1");
    cbd_duper_board_destroy(b);
    cr_expect_eq(budget.mem_held, 0);

    /* One unit short: the last walk (around t1) is refused and the board is left as it was. */
    warm_budget_init(&budget, create + attack - 1, SIZE_MAX);
    b = build(t, nt, p, 1999, NULL, 0, &budget);
    cr_expect_eq(cbd_duper_board_run(b, &rules, &a, 1, 0, &budget, &out, &err), CBD_ERR_BUDGET);
    cr_expect_eq(budget.stopped, CBD_BUDGET_WORK);
    cr_expect_eq(budget.work_spent, create + attack);
    cr_expect_eq(at(b, "t1")->owner, cbd_duper_board_player_find(b, "blue"));
    cbd_duper_board_destroy(b);
    cr_expect_eq(budget.mem_held, 0);

    /* A budget short of the tiles and pairs stops before anything is built or held; one short
     * of the hub's sort stops there, and gives back what the board had taken. */
    cbd_duper_board_spec spec = {t, nt, p, 1999, NULL, 0};
    cbd_duper_board *none = NULL;
    warm_budget_init(&budget, 2000 * CBD_WORK_BOARD_TILE + 1999 * CBD_WORK_BOARD_PAIR - 1,
                     SIZE_MAX);
    cr_expect_eq(cbd_duper_board_create(&spec, &budget, &none, &err), CBD_ERR_BUDGET);
    cr_expect_null(none);
    cr_expect_eq(budget.mem_peak, 0);
    warm_budget_init(&budget, create - 1, SIZE_MAX);
    cr_expect_eq(cbd_duper_board_create(&spec, &budget, &none, &err), CBD_ERR_BUDGET);
    cr_expect_null(none);
    cr_expect_gt(budget.mem_peak, 0);
    cr_expect_eq(budget.mem_held, 0);
}

/* `red` red tiles with 2 planes each and `blue` blue tiles with a soldier, no pairs. */
static size_t planes_and_targets(cbd_duper_tile_spec *t, size_t red, size_t blue) {
    for (size_t i = 0; i < red + blue; i++) {
        t[i] = tile(id_of(i), i < red ? "red" : "blue", 1);
        t[i].units[i < red ? PLANE : SOLDIER] = i < red ? 2 : 1 + i % 5;
    }
    return red + blue;
}

/*
 * 100 red plane tiles and 100 blue tiles at range 0: 10,000 long-distance options. The search:
 * the sources walked and the targets counted (2 · 200 steps), the tiles ranked (200 ·
 * depth(200) = 200 · 8 comparisons), per red tile its targets (100 options, each a battle and a
 * comparison) and the walk over the board (200 steps), and the 10,000 options sorted (10,000 ·
 * depth(10,000) = 10,000 · 14 comparisons). No pairs: no walk around any tile.
 */
Test(duper_board_budget, an_options_search_is_charged_and_stopped_with_nothing_held) {
    static cbd_duper_tile_spec t[200];
    size_t nt = planes_and_targets(t, 100, 100);
    const uint64_t search =
        400 * CBD_WORK_BOARD_STEP + 200 * 8 * CBD_WORK_COMPARE +
        100 * (100 * (CBD_WORK_DUPER_BATTLE + CBD_WORK_COMPARE) + 200 * CBD_WORK_BOARD_STEP) +
        10000 * 14 * CBD_WORK_COMPARE;
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_budget budget;
    warm_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cbd_duper_board *b = build(t, nt, NULL, 0, NULL, 0, &budget);
    uint64_t board_work = budget.work_spent;
    size_t board_held = budget.mem_held;
    int32_t red = cbd_duper_board_player_find(b, "red");
    cbd_duper_options o;
    cr_assert_eq(cbd_duper_board_options(b, &rules, red, 0, SIZE_MAX, &budget, &o), CBD_OK);
    cr_expect_eq(o.n, 10000);
    cr_expect_eq(o.n_found, 10000);
    cr_expect_eq(budget.work_spent - board_work, search);
    cbd_duper_options_free(&o);
    cr_expect_eq(budget.mem_held, board_held);

    /* Short of the search by one unit (the final sort), then by half of it. */
    const uint64_t short_of[] = {1, search / 2};
    for (size_t i = 0; i < N(short_of); i++) {
        warm_budget_init(&budget, board_work + search - short_of[i], SIZE_MAX);
        cbd_duper_board *again = build(t, nt, NULL, 0, NULL, 0, &budget);
        cr_expect_eq(cbd_duper_board_options(again, &rules, red, 0, SIZE_MAX, &budget, &o),
                     CBD_ERR_BUDGET, "short by %llu", (unsigned long long)short_of[i]);
        cr_expect_eq(budget.stopped, CBD_BUDGET_WORK);
        cr_expect_null(o.items);
        cr_expect_eq(budget.mem_held, board_held, "the search gave back all it took");
        cbd_duper_board_destroy(again);
        cr_expect_eq(budget.mem_held, 0);
    }
    cbd_duper_board_destroy(b);

    /* Memory: the whole list of 10,000 options does not fit 64 KiB past the board's own. */
    warm_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    b = build(t, nt, NULL, 0, NULL, 0, &budget);
    budget.mem_limit = budget.mem_held + 65536;
    cr_expect_eq(cbd_duper_board_options(b, &rules, red, 0, SIZE_MAX, &budget, &o), CBD_ERR_BUDGET);
    cr_expect_eq(budget.stopped, CBD_BUDGET_MEMORY);
    cr_expect_eq(budget.mem_held, board_held);
    cbd_duper_board_destroy(b);
    cr_expect_eq(budget.mem_held, 0);
}

Test(duper_board_budget, keeping_the_best_few_holds_only_them) {
    /* The same 10,000 options kept 5 at a time: the memory of 5, not of 10,000. */
    static cbd_duper_tile_spec t[200];
    size_t nt = planes_and_targets(t, 100, 100);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_budget budget;
    warm_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cbd_duper_board *b = build(t, nt, NULL, 0, NULL, 0, &budget);
    size_t board_held = budget.mem_held;
    budget.mem_peak = 0;
    cbd_duper_options o;
    cr_assert_eq(cbd_duper_board_options(b, &rules, cbd_duper_board_player_find(b, "red"), 0, 5,
                                         &budget, &o),
                 CBD_OK);
    cr_expect_eq(o.n, 5);
    cr_expect_eq(o.n_found, 10000);
    /* 200 tiles' sides, ranks and walk lists, and 5 options: well under 100 KB. */
    cr_expect_lt(budget.mem_peak - board_held, 100000);
    /* The best: 2 planes (8) against the weakest target, 1 soldier + tile buff 1 = 2. */
    cr_expect_eq(o.items[0].margin, 6);
    cbd_duper_options_free(&o);
    cbd_duper_board_destroy(b);
}

/* A small random board: 60 tiles of red, blue, green or the NPCs, random troops, planes,
 * tanks that support, forts and capitals, 150 random pairs and keys between the players. */
static uint64_t rng = 0x2545F4914F6CDD1Du;

static unsigned roll(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void random_tile(cbd_duper_tile_spec *t, size_t i) {
    static const char *const who[] = {"red", "blue", "green", NULL};
    /* Every player holds a tile, so that the keys name players of the board. */
    *t = tile(id_of(i), who[i < 3 ? i : roll(4)], 1 + roll(3));
    bool npc = t->owner == NULL;
    t->units[npc ? LARVA : (roll(2) ? SOLDIER : TANK)] = roll(12);
    t->units[PLANE] = roll(3) == 0 ? 1 + roll(4) : 0;
    if (!npc && roll(5) == 0) {
        t->units[roll(2) ? FORT : CAP1] = 1;
    }
}

static cbd_duper_board *random_board(void) {
    static cbd_duper_tile_spec t[60];
    static cbd_duper_pair_spec p[150];
    static const cbd_duper_keys_spec k[] = {
        {"blue", "red", 3}, {"green", "red", 1}, {"red", "blue", 2}, {"green", "blue", 4}};
    for (size_t i = 0; i < N(t); i++) {
        random_tile(&t[i], i);
    }
    for (size_t i = 0; i < N(p); i++) {
        size_t x = roll(60), y = (x + 1 + roll(59)) % 60;
        p[i] = (cbd_duper_pair_spec){{ids[x], ids[y]}};
    }
    return make_board(t, N(t), p, N(p), k, N(k));
}

static bool same_option(const cbd_duper_option *x, const cbd_duper_option *y) {
    return x->from == y->from && x->to == y->to && x->kind == y->kind &&
           x->attack_power == y->attack_power && x->defense_power == y->defense_power &&
           x->captured == y->captured && x->eliminated[0] == y->eliminated[0] &&
           x->eliminated[1] == y->eliminated[1] && x->defender == y->defender &&
           x->card_steal_possible == y->card_steal_possible;
}

Test(duper_board_budget, the_best_kept_are_the_head_of_the_whole_sorted_list) {
    /* The whole list is appended and sorted once; the kept ones go through the heap of the
     * best: both must give the same head, option for option, and count the same total. */
    cbd_duper_rules rules = cbd_duper_default_rules();
    static const size_t keeps[] = {1, 2, 5, 17, 64};
    for (int round = 0; round < 40; round++) {
        cbd_duper_board *b = random_board();
        for (int32_t player = 0; player < 3; player++) {
            uint32_t range = (uint32_t)roll(4);
            cbd_duper_options all;
            cr_assert_eq(cbd_duper_board_options(b, &rules, player, range, SIZE_MAX, NULL, &all),
                         CBD_OK);
            for (size_t k = 0; k < N(keeps); k++) {
                cbd_duper_options few;
                cr_assert_eq(
                    cbd_duper_board_options(b, &rules, player, range, keeps[k], NULL, &few),
                    CBD_OK);
                cr_expect_eq(few.n_found, all.n);
                cr_expect_eq(few.n_unlisted, all.n_unlisted);
                cr_assert_eq(few.n, all.n < keeps[k] ? all.n : keeps[k]);
                for (size_t i = 0; i < few.n; i++) {
                    cr_expect(same_option(&few.items[i], &all.items[i]),
                              "round %d, player %d, keep %zu: option %zu differs", round, player,
                              keeps[k], i);
                }
                cbd_duper_options_free(&few);
            }
            cbd_duper_options_free(&all);
        }
        cbd_duper_board_destroy(b);
    }
}

Test(duper_board_budget, keys_of_two_thousand_players_are_a_short_list) {
    /* 2,000 one-tile players, each holding keys of the next: a players × players table would
     * be 2000² · 8 bytes = 32 MB; the board holds well under 1 MB. A count given twice keeps
     * the last (t0 holds 5 of t1's, not 3). */
    static cbd_duper_tile_spec t[2000];
    static cbd_duper_keys_spec k[2001];
    for (size_t i = 0; i < 2000; i++) {
        snprintf(owners[i], sizeof owners[i], "p%zu", i);
        t[i] = tile(id_of(i), owners[i], 1);
        t[i].units[SOLDIER] = 1;
    }
    for (size_t i = 0; i < 2000; i++) {
        k[i + 1] = (cbd_duper_keys_spec){owners[i], owners[(i + 1) % 2000], 1 + i % 1000};
    }
    k[0] = (cbd_duper_keys_spec){owners[0], owners[1], 3};
    k[1].count = 5;
    cbd_budget budget;
    warm_budget_init(&budget, UINT64_MAX, SIZE_MAX);
    cbd_duper_board *b = build(t, 2000, NULL, 0, k, N(k), &budget);
    cr_expect_lt(budget.mem_peak, 1000000);
    int32_t p0 = cbd_duper_board_player_find(b, "p0"), p1 = cbd_duper_board_player_find(b, "p1");
    cr_expect_eq(cbd_duper_board_keys(b, p0, p1), 5);
    cr_expect_eq(cbd_duper_board_keys(b, p1, p0), 0);
    for (size_t i = 1; i < 2000; i += 97) {
        int32_t h = cbd_duper_board_player_find(b, owners[i]);
        int32_t c = cbd_duper_board_player_find(b, owners[(i + 1) % 2000]);
        cr_expect_eq(cbd_duper_board_keys(b, h, c), 1 + i % 1000, "p%zu", i);
        cr_expect_eq(cbd_duper_board_keys(b, c, h), 0, "p%zu", i);
    }
    cbd_duper_board_destroy(b);
    cr_expect_eq(budget.mem_held, 0);
}

Test(duper_board_budget, a_hub_listed_many_times_has_each_neighbour_once) {
    /* 40 spokes, each pair listed three times, the last time reversed: the hub's list of 120
     * is sorted by qsort (past 16) and compacted, so the hub has 40 normal options, one per
     * spoke, in the byte order of the spokes' ids at equal margins (5 - 2 = 3 each). */
    static cbd_duper_tile_spec t[41];
    static cbd_duper_pair_spec p[120];
    static cbd_duper_pair_spec once[40];
    size_t nt = star(t, once, 40);
    for (size_t i = 0; i < 40; i++) {
        p[i] = once[i];
        p[40 + i] = once[39 - i];
        p[80 + i] = (cbd_duper_pair_spec){{once[i].tile[1], once[i].tile[0]}};
    }
    cbd_duper_board *b = make_board(t, nt, p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_options o;
    cr_assert_eq(cbd_duper_board_options(b, &rules, cbd_duper_board_player_find(b, "red"), 0,
                                         SIZE_MAX, NULL, &o),
                 CBD_OK);
    cr_assert_eq(o.n, 40);
    for (size_t i = 0; i < o.n; i++) {
        cr_expect_eq(o.items[i].kind, NORMAL);
        cr_expect_eq(o.items[i].margin, 3);
        if (i > 0) {
            cr_expect_lt(strcmp(cbd_duper_board_tile_at(b, o.items[i - 1].to)->id,
                                cbd_duper_board_tile_at(b, o.items[i].to)->id),
                         0);
        }
    }
    cbd_duper_options_free(&o);
    cbd_duper_board_destroy(b);
}
