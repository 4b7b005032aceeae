/*
 * Duper board options (D17) attack by attack, and the board's refusals (D12, D13, D14, D16),
 * against values worked out by hand.
 */
#include "duper_board_fixture.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * red: r (4 soldiers, 1 plane), r2 (a fort alone); blue: b (level 1, 2 soldiers), f (level 2,
 * 1 tank, capital lv1), two steps from r; the NPCs: n (3 larvae).
 * Pairs r–b, r–n, r–r2, b–f, r2–b.
 */
static cbd_duper_board *options_board(void) {
    static cbd_duper_tile_spec t[5];
    t[0] = tile("r", "red", 1);
    t[0].units[SOLDIER] = 4, t[0].units[PLANE] = 1;
    t[1] = tile("r2", "red", 1);
    t[1].units[FORT] = 1;
    t[2] = tile("b", "blue", 1);
    t[2].units[SOLDIER] = 2;
    t[3] = tile("f", "blue", 2);
    t[3].units[TANK] = 1, t[3].units[CAP1] = 1;
    t[4] = tile("n", NULL, 1);
    t[4].units[LARVA] = 3;
    static const cbd_duper_pair_spec p[] = {
        {{"r", "b"}}, {{"r", "n"}}, {{"r", "r2"}}, {{"b", "f"}}, {{"r2", "b"}}};
    return make_board(t, N(t), p, N(p), NULL, 0);
}

typedef struct {
    const char *from, *to;
    cbd_duper_kind kind;
    uint64_t attack, defense;
    bool captured, card;
} expected_option;

static void expect_options(cbd_duper_board *b, uint32_t range, const expected_option *want,
                           size_t n) {
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_options o;
    int32_t red = cbd_duper_board_player_find(b, "red");
    cr_assert_eq(cbd_duper_board_options(b, &rules, red, range, SIZE_MAX, NULL, &o), CBD_OK);
    cr_assert_eq(o.n, n, "%zu options", o.n);
    for (size_t i = 0; i < n; i++) {
        const cbd_duper_option *x = &o.items[i];
        cr_expect_str_eq(cbd_duper_board_tile_at(b, x->from)->id, want[i].from, "option %zu", i);
        cr_expect_str_eq(cbd_duper_board_tile_at(b, x->to)->id, want[i].to, "option %zu", i);
        cr_expect_eq(x->kind, want[i].kind, "option %zu", i);
        cr_expect_eq(x->attack_power, want[i].attack, "option %zu", i);
        cr_expect_eq(x->defense_power, want[i].defense, "option %zu", i);
        cr_expect_eq(x->margin, (int64_t)want[i].attack - (int64_t)want[i].defense);
        cr_expect_eq(x->captured, want[i].captured, "option %zu", i);
        cr_expect_eq(x->card_steal_possible, want[i].card, "option %zu", i);
        cr_expect(!x->eliminated[0] && !x->eliminated[1], "option %zu", i);
    }
    cr_expect_eq(o.n_unlisted, 0);
    cbd_duper_options_free(&o);
}

Test(duper_board_options, d17_every_legal_attack_best_margin_first) {
    /* r's troops attack: normal on b and n (r2 is red's own); r2 holds a fort alone and does
     * not attack (D17). r's plane attacks every other tile long-distance: b, f, n.
     *   r→n normal: 4 + 4 = 8 vs 3 larvae (D9: no buff)            margin  5, captured
     *   r→b normal: 8 vs 2 + f's tank 3 (support) + buff 1 = 6       margin  2, captured
     *   r→n long:   plane 4 vs 3                                     margin  1, captured
     *   r→b long:   4 vs 6                                           margin −2
     *   r→f long:   4 vs tank 3 + capital 9 + buff 2 = 14 (b holds no tanks: no support)
     *                                                                margin −10, card steal */
    cbd_duper_board *b = options_board();
    const expected_option want[] = {
        {"r", "n", NORMAL, 8, 3, true, false}, {"r", "b", NORMAL, 8, 6, true, false},
        {"r", "n", LONG, 4, 3, true, false},   {"r", "b", LONG, 4, 6, false, false},
        {"r", "f", LONG, 4, 14, false, true},
    };
    expect_options(b, 0, want, N(want));
    /* With a range of 1 step, f (2 steps from r) is out of the plane's reach. */
    const expected_option near[] = {
        {"r", "n", NORMAL, 8, 3, true, false},
        {"r", "b", NORMAL, 8, 6, true, false},
        {"r", "n", LONG, 4, 3, true, false},
        {"r", "b", LONG, 4, 6, false, false},
    };
    expect_options(b, 1, near, N(near));
    /* Options resolve without changing the board. */
    cr_expect_eq(at(b, "b")->units[SOLDIER], 2);
    cbd_duper_board_destroy(b);
}

Test(duper_board_options, d8_an_option_says_who_would_be_eliminated) {
    /* s (red: 30 soldiers) beside c (blue, level 1: capital lv1): 30 vs 9 + 1 = 10, captured;
     * the capital dies and blue would be eliminated. */
    cbd_duper_tile_spec t[2] = {tile("s", "red", 1), tile("c", "blue", 1)};
    t[0].units[SOLDIER] = 30;
    t[1].units[CAP1] = 1;
    cbd_duper_pair_spec p[] = {{{"s", "c"}}};
    cbd_duper_board *b = make_board(t, N(t), p, N(p), NULL, 0);
    cbd_duper_rules rules = cbd_duper_default_rules();
    cbd_duper_options o;
    cr_assert_eq(cbd_duper_board_options(b, &rules, cbd_duper_board_player_find(b, "red"), 0,
                                         SIZE_MAX, NULL, &o),
                 CBD_OK);
    cr_assert_eq(o.n, 1);
    cr_expect_eq(o.items[0].margin, 20);
    cr_expect(o.items[0].eliminated[D]);
    cr_expect(!o.items[0].eliminated[A]);
    cr_expect_eq(o.items[0].defender, cbd_duper_board_player_find(b, "blue"));
    cbd_duper_options_free(&o);
    cbd_duper_board_destroy(b);
}

static cbd_duper_board_error refused(const cbd_duper_tile_spec *t, size_t nt,
                                     const cbd_duper_pair_spec *p, size_t np,
                                     const cbd_duper_keys_spec *k, size_t nk) {
    cbd_duper_board_spec spec = {t, nt, p, np, k, nk};
    cbd_duper_board *b;
    cbd_duper_board_error err;
    cr_expect_eq(cbd_duper_board_create(&spec, NULL, &b, &err), CBD_ERR_INVALID);
    cr_expect_null(b);
    cr_expect_not_null(err.detail);
    return err;
}

Test(duper_board_options, d12_d13_bad_boards_name_the_tile_pair_or_keys_entry) {
    cbd_duper_tile_spec t[3] = {tile("a", "red", 1), tile("b", "blue", 1), tile("c", NULL, 1)};
    cbd_duper_pair_spec ok[] = {{{"a", "b"}}};
    /* D12: two ground troop classes on tile 1. */
    t[1].units[SOLDIER] = 1, t[1].units[TANK] = 1;
    cbd_duper_board_error e = refused(t, 3, ok, 1, NULL, 0);
    cr_expect_eq(e.fault, CBD_BOARD_TILE_SHAPE);
    cr_expect_eq(e.index, 1);
    cr_expect_eq(e.cls, TANK);
    t[1].units[TANK] = 0;
    /* D5: troops loaded with no plane to carry them (one plane may: what a battle leaves). */
    t[0].units[PLANE] = 0, t[0].loaded[SOLDIER] = 2;
    e = refused(t, 3, ok, 1, NULL, 0);
    cr_expect_eq(e.fault, CBD_BOARD_TILE_SHAPE);
    cr_expect(e.loaded);
    cr_expect_eq(e.cls, SOLDIER);
    t[0].loaded[SOLDIER] = 0;
    /* D9: larvae on a player's tile. */
    t[0].units[LARVA] = 1;
    e = refused(t, 3, ok, 1, NULL, 0);
    cr_expect_eq(e.cls, LARVA);
    t[0].units[LARVA] = 0;
    /* D13: level outside 1–3, on tile 2. */
    t[2].level = 4;
    e = refused(t, 3, ok, 1, NULL, 0);
    cr_expect_eq(e.fault, CBD_BOARD_TILE_LEVEL);
    cr_expect_eq(e.index, 2);
    t[2].level = 1;
    /* An unknown tile in pair 1 (its second member), and a tile paired with itself. */
    cbd_duper_pair_spec unknown[] = {{{"a", "b"}}, {{"a", "z"}}};
    e = refused(t, 3, unknown, 2, NULL, 0);
    cr_expect_eq(e.fault, CBD_BOARD_PAIR_UNKNOWN_TILE);
    cr_expect_eq(e.index, 1);
    cr_expect_eq(e.member, 1);
    cbd_duper_pair_spec self[] = {{{"c", "c"}}};
    e = refused(t, 3, self, 1, NULL, 0);
    cr_expect_eq(e.fault, CBD_BOARD_PAIR_SELF);
    cr_expect_eq(e.index, 0);
    /* An unknown player in keys: "green" owns no tile (as holder, then as colour). */
    cbd_duper_keys_spec k[] = {{"blue", "red", 1}, {"green", "red", 1}};
    e = refused(t, 3, ok, 1, k, 2);
    cr_expect_eq(e.fault, CBD_BOARD_KEYS_UNKNOWN_PLAYER);
    cr_expect_eq(e.index, 1);
    cr_expect_eq(e.member, 0);
    cbd_duper_keys_spec k2[] = {{"blue", "green", 1}};
    e = refused(t, 3, ok, 1, k2, 1);
    cr_expect_eq(e.member, 1);
    /* Repeated ids. */
    cbd_duper_tile_spec twice[2] = {tile("a", "red", 1), tile("a", "blue", 1)};
    e = refused(twice, 2, NULL, 0, NULL, 0);
    cr_expect_eq(e.fault, CBD_BOARD_TILE_ID);
    cr_expect_eq(e.index, 1);
}

Test(duper_board_options, d14_d16_bad_attacks_name_the_attack_and_run_nothing) {
    cbd_duper_board *b = options_board();
    cbd_duper_rules rules = cbd_duper_default_rules();
    const struct {
        cbd_duper_attack_spec a;
        cbd_duper_board_fault fault;
        int member;
    } cases[] = {
        {{"zz", "b", NORMAL}, CBD_BOARD_ATTACK_UNKNOWN_TILE, 0},
        {{"r", "zz", NORMAL}, CBD_BOARD_ATTACK_UNKNOWN_TILE, 1},
        {{"n", "r", NORMAL}, CBD_BOARD_ATTACK_NPC_SOURCE, 0},
        {{"r", "r2", NORMAL}, CBD_BOARD_ATTACK_OWN_TARGET, 1},
        {{"r", "r", LONG}, CBD_BOARD_ATTACK_OWN_TARGET, 1},
        {{"r", "f", NORMAL}, CBD_BOARD_ATTACK_NOT_ADJACENT, 1},
    };
    for (size_t i = 0; i < N(cases); i++) {
        /* The bad attack comes second: the first, valid one must not run either. */
        cbd_duper_attack_spec a[2] = {{"r", "n", NORMAL}, cases[i].a};
        cbd_duper_board_battle out[2];
        cbd_duper_board_error err;
        cr_expect_eq(cbd_duper_board_run(b, &rules, a, 2, 0, NULL, out, &err), CBD_ERR_INVALID);
        cr_expect_eq(err.fault, cases[i].fault, "case %zu", i);
        cr_expect_eq(err.index, 1, "case %zu", i);
        cr_expect_eq(err.member, cases[i].member, "case %zu", i);
        cr_expect_eq(at(b, "n")->units[LARVA], 3, "case %zu", i);
    }
    cbd_duper_board_destroy(b);
}
