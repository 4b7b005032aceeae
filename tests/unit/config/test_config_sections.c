/*
 * The config file's game sections as the loader reads them: the shipped file's Duper unit
 * table (D1), bad Duper rules refused naming the pointer, and the War.app turn keys and the
 * Duper board keys read into the endpoints' configuration. How the endpoints use the values
 * is tested with the api (tests/unit/api/).
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "combatd/duper.h"
#include "config/config.h"

/* Single quotes for double ones, so that the JSON texts read plainly. */
static const char *q(const char *text) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *c = buf; *c; c++) {
        if (*c == '\'') {
            *c = '"';
        }
    }
    return buf;
}

/* The repository root, from this file's path (CMake compiles it by absolute path). */
static void source_path(const char *rel, char *out, size_t size) {
    snprintf(out, size, "%s", __FILE__);
    char *cut = strstr(out, "tests/unit/");
    cr_assert_not_null(cut, "cannot locate the source tree from %s", __FILE__);
    snprintf(cut, size - (size_t)(cut - out), "%s", rel);
}

Test(config_sections, d1_the_shipped_config_holds_the_default_unit_table) {
    char path[1024];
    source_path("config/combatd.json", path, sizeof path);
    cbd_settings cfg;
    memset(&cfg, 0xAB, sizeof cfg); /* every field must come from defaults + the file */
    cbd_settings_defaults(&cfg);
    cfg.api.duper.key_buff_per_key = 99;
    cfg.api.duper.units[CBD_DUPER_TANK].power = 99;
    cfg.api.duper.units[CBD_DUPER_SUPERCAPITAL].death_priority = 99;
    cfg.api.duper.card_steal_probability = 1;
    cfg.api.duper.tile_buff[2] = 99;
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_config_load_file(&cfg, path, &p), "%s", p.detail);
    cbd_duper_rules want = cbd_duper_default_rules();
    for (int c = 0; c < CBD_DUPER_CLASS_COUNT; c++) {
        cr_expect_eq(cfg.api.duper.units[c].power, want.units[c].power);
        if (c != CBD_DUPER_FORT) {
            cr_expect_eq(cfg.api.duper.units[c].death_priority, want.units[c].death_priority);
        }
    }
    cr_expect_eq(cfg.api.duper.key_buff_per_key, 2);
    cr_expect_eq(cfg.api.duper.supporting_tank_death_priority, 4);
    cr_expect_eq(cfg.api.duper.card_steal_probability, 350000);
    cr_expect_eq(cfg.api.duper.tile_buff[0], 1);
    cr_expect_eq(cfg.api.duper.tile_buff[1], 2);
    cr_expect_eq(cfg.api.duper.tile_buff[2], 4);
}

static void expect_config_error(const char *text, const char *pointer) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cbd_problem p;
    cbd_problem_init(&p);
    cr_expect(!cbd_config_load_text(&cfg, text, strlen(text), &p), "%s accepted", text);
    bool found = false;
    for (size_t i = 0; i < p.n_errors; i++) {
        found = found || strcmp(p.errors[i].pointer, pointer) == 0;
    }
    char msg[1024];
    cbd_problem_to_text(&p, msg, sizeof msg);
    cr_expect(found, "expected %s in: %s", pointer, msg);
}

Test(config_sections, d1_bad_duper_config_is_refused_naming_the_pointer) {
    expect_config_error("{\"duper\": {\"units\": {\"tank\": {\"power\": -1}}}}",
                        "/duper/units/tank/power");
    expect_config_error("{\"duper\": {\"units\": {\"tank\": {\"power\": 1001}}}}",
                        "/duper/units/tank/power");
    expect_config_error("{\"duper\": {\"units\": {\"tank\": {\"power\": \"3\"}}}}",
                        "/duper/units/tank/power");
    expect_config_error("{\"duper\": {\"units\": {\"dragon\": {\"power\": 3}}}}",
                        "/duper/units/dragon");
    expect_config_error("{\"duper\": {\"units\": {\"fort\": {\"death_priority\": 2}}}}",
                        "/duper/units/fort/death_priority");
    expect_config_error("{\"duper\": {\"units\": {\"plane\": {\"death_priority\": 101}}}}",
                        "/duper/units/plane/death_priority");
    expect_config_error("{\"duper\": {\"key_buff_per_key\": -2}}", "/duper/key_buff_per_key");
    expect_config_error("{\"duper\": {\"supporting_tank_death_priority\": 0}}",
                        "/duper/supporting_tank_death_priority");
    expect_config_error("{\"duper\": {\"card_steal_probability\": 0.1234567}}",
                        "/duper/card_steal_probability");
    expect_config_error("{\"duper\": {\"tile_buff\": [1, 2]}}", "/duper/tile_buff");
    expect_config_error("{\"duper\": {\"tile_buff\": [1, -2, 4]}}", "/duper/tile_buff/1");
    expect_config_error("{\"duper\": {\"colour\": 1}}", "/duper/colour");
}

Test(config_sections, config_file_sets_the_turn_keys) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cbd_problem p;
    cbd_problem_init(&p);
    const char *text = "{\"warapp\": {\"max_turn_territories\": 300, \"max_turn_orders\": 120,"
                       " \"max_turn_states\": 5000, \"max_turn_simulated_orders\": 99,"
                       " \"max_listed_turns\": 7}}";
    cr_assert(cbd_config_load_text(&cfg, text, strlen(text), &p));
    cr_expect_eq(cfg.api.warapp.max_turn_territories, 300);
    cr_expect_eq(cfg.api.warapp.max_turn_orders, 120);
    cr_expect_eq(cfg.api.warapp.max_turn_states, 5000);
    cr_expect_eq(cfg.api.warapp.max_turn_simulated_orders, 99);
    cr_expect_eq(cfg.api.warapp.max_listed_turns, 7);
    cbd_problem_init(&p);
    const char *bad_text = "{\"warapp\": {\"max_turn_states\": 0}}";
    cr_expect_not(cbd_config_load_text(&cfg, bad_text, strlen(bad_text), &p));
}

Test(config_sections, the_config_file_takes_the_board_keys_in_the_duper_section) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cbd_problem p;
    cbd_problem_init(&p);
    const char *text = q("{'duper': {'max_board_tiles': 10, 'max_board_pairs': 20,"
                         " 'max_board_attacks': 3, 'long_distance_range': 2,"
                         " 'max_board_options': 5, 'key_buff_per_key': 1}}");
    cr_assert(cbd_config_load_text(&cfg, text, strlen(text), &p), "%s", p.detail);
    cr_expect_eq(cfg.api.duper_board.max_board_tiles, 10);
    cr_expect_eq(cfg.api.duper_board.max_board_pairs, 20);
    cr_expect_eq(cfg.api.duper_board.max_board_attacks, 3);
    cr_expect_eq(cfg.api.duper_board.long_distance_range, 2);
    cr_expect_eq(cfg.api.duper_board.max_board_options, 5);
    cr_expect_eq(cfg.api.duper.key_buff_per_key, 1);
    cbd_problem_init(&p);
    text = q("{'duper': {'max_board_tiles': 1}}");
    cr_expect_not(cbd_config_load_text(&cfg, text, strlen(text), &p));
    cr_expect_str_eq(p.errors[0].pointer, "/duper/max_board_tiles");
}
