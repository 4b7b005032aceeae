/* Configuration: defaults, the file, the environment and flags, in that order. */
#include <string.h>

#include <criterion/criterion.h>

#include "config/config.h"
#include "failing_alloc.h"

static bool load(cbd_settings *cfg, const char *text, cbd_problem *p) {
    cbd_settings_defaults(cfg);
    cbd_problem_init(p);
    return cbd_config_load_text(cfg, text, strlen(text), p);
}

Test(config, defaults_are_the_documented_ones) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cr_expect_eq(cfg.server.port, 8080);
    cr_expect_str_eq(cfg.server.bind, "0.0.0.0");
    cr_expect_eq(cfg.server.body_limit, 65536);
    cr_expect_eq(cfg.server.connection_timeout, 10);
    cr_expect_eq(cfg.server.request_deadline, 15);
    /* W9: offense 0.6, defense 0.7, luck 0, straight round, stand guard on. */
    cr_expect_eq(cfg.api.warapp.defaults.offense_kill_rate, 600000);
    cr_expect_eq(cfg.api.warapp.defaults.defense_kill_rate, 700000);
    cr_expect_eq(cfg.api.warapp.defaults.luck_modifier, 0);
    cr_expect_eq(cfg.api.warapp.defaults.rounding, CBD_ROUND_STRAIGHT);
    cr_expect(cfg.api.warapp.defaults.one_army_must_stand_guard);
    /* W10: the army cap is 10^9. */
    cr_expect_eq(cfg.api.warapp.army_cap, 1000000000u);
}

Test(config, the_shipped_file_loads_and_matches_the_defaults) {
    const char *dir = getenv("COMBATD_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/config/combatd.json", dir ? dir : ".");
    cbd_settings cfg, defaults;
    cbd_problem p;
    cbd_problem_init(&p);
    cbd_settings_defaults(&cfg);
    cbd_settings_defaults(&defaults);
    cr_assert(cbd_config_load_file(&cfg, path, &p), "%s: %s", path, p.detail);
    cr_expect_eq(memcmp(&cfg.api.warapp, &defaults.api.warapp, sizeof cfg.api.warapp), 0);
    cr_expect_eq(memcmp(&cfg.api.duper, &defaults.api.duper, sizeof cfg.api.duper), 0);
    cr_expect_eq(cfg.server.port, defaults.server.port);
    cr_expect_eq(cfg.server.body_limit, defaults.server.body_limit);
    cr_expect_eq(cfg.server.board_body_limit, defaults.server.board_body_limit);
    /* CORS is an opt-in: the playground is served by combatd itself, same origin, and `*`
     * would open every answer to every page. */
    cr_expect_eq(cfg.server.n_cors_origins, 0);
}

Test(config, file_values_override_defaults) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert(load(&cfg,
                   "{\"server\": {\"port\": 9000, \"body_limit\": 1024, \"access_log\": false},"
                   " \"warapp\": {\"defaults\": {\"luck_modifier\": 0.16,"
                   " \"rounding_mode\": \"weighted_random\"}, \"army_cap\": 5000}}",
                   &p),
              "%s", p.detail);
    cr_expect_eq(cfg.server.port, 9000);
    cr_expect_eq(cfg.server.body_limit, 1024);
    cr_expect_not(cfg.server.access_log);
    cr_expect_eq(cfg.api.warapp.defaults.luck_modifier, 160000);
    cr_expect_eq(cfg.api.warapp.defaults.rounding, CBD_ROUND_WEIGHTED);
    cr_expect_eq(cfg.api.warapp.defaults.offense_kill_rate, 600000, "untouched settings keep W9");
    cr_expect_eq(cfg.api.warapp.army_cap, 5000);
}

Test(config, unknown_keys_and_bad_values_are_named) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert_not(load(&cfg,
                       "{\"server\": {\"prot\": 1, \"port\": 70000},"
                       " \"warapp\": {\"defaults\": {\"luck_modifier\": 1.5}}, \"extra\": 1}",
                       &p));
    cr_assert_eq(p.n_errors, 4);
    /* Errors are listed in the order the sections are read: the root first. */
    cr_expect_str_eq(p.errors[0].pointer, "/extra");
    cr_expect_str_eq(p.errors[1].pointer, "/server/prot");
    cr_expect_str_eq(p.errors[2].pointer, "/server/port");
    cr_expect(strstr(p.errors[2].detail, "from 0 to 65535") != NULL, "%s", p.errors[2].detail);
    cr_expect_str_eq(p.errors[3].pointer, "/warapp/defaults/luck_modifier");
}

Test(config, malformed_file_names_line_and_column) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert_not(load(&cfg, "{\n  \"server\": {\"port\": 80,}\n}", &p));
    cr_expect(strstr(p.detail, "line 2") != NULL, "%s", p.detail);
}

Test(config, duplicate_keys_are_rejected) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert_not(load(&cfg, "{\"server\": {\"port\": 80, \"port\": 81}}", &p));
}

Test(config, environment_overrides_file_and_flags_override_environment) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert(load(&cfg, "{\"server\": {\"port\": 9000, \"threads\": 3}}", &p));
    char *env[] = {"PATH=/bin",
                   "COMBATD_PORT=9100",
                   "COMBATD_BODY_LIMIT=2048",
                   "COMBATD_CORS_ORIGINS=https://a.example,https://b.example",
                   "COMBATD_CONFIG=/ignored/here",
                   NULL};
    cr_assert(cbd_config_apply_env(&cfg, env, &p), "%s", p.n_errors ? p.errors[0].detail : "");
    cr_expect_eq(cfg.server.port, 9100, "environment wins over the file");
    cr_expect_eq(cfg.server.threads, 3, "the file wins over defaults");
    cr_expect_eq(cfg.server.body_limit, 2048);
    cr_assert_eq(cfg.server.n_cors_origins, 2);
    cr_expect_str_eq(cfg.server.cors_origins[1], "https://b.example");
    cr_assert(cbd_config_set_server_key(&cfg, "port", "9200", "--port", &p));
    cr_expect_eq(cfg.server.port, 9200, "a flag wins over the environment");
}

Test(config, bad_environment_values_are_named) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert(load(&cfg, "{}", &p));
    char *env[] = {"COMBATD_PORT=eighty", "COMBATD_TIMEOUT=3", NULL};
    cr_assert_not(cbd_config_apply_env(&cfg, env, &p));
    cr_assert_eq(p.n_errors, 2);
    cr_expect_str_eq(p.errors[0].pointer, "environment COMBATD_PORT");
    cr_expect_str_eq(p.errors[1].pointer, "environment COMBATD_TIMEOUT");
    cr_expect_str_eq(p.errors[1].detail, "is not a known setting");
}

Test(config, numeric_flags_reject_signs_spaces_and_overflow) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    const char *bad[] = {"-1", "+5", " 5", "5x", "", "99999999999999999999999", "65536"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cbd_problem p;
        cbd_problem_init(&p);
        cr_expect_not(cbd_config_set_server_key(&cfg, "port", bad[i], "--port", &p), "%s", bad[i]);
    }
    cr_expect_eq(cfg.server.port, 8080, "a refused value leaves the setting alone");
}

Test(config, missing_file_is_an_error_with_its_path) {
    cbd_settings cfg;
    cbd_problem p;
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    cr_assert_not(cbd_config_load_file(&cfg, "/nonexistent/combatd.json", &p));
    cr_expect(strstr(p.detail, "/nonexistent/combatd.json") != NULL, "%s", p.detail);
}

/* Every key is written through its row: a section with two keys of each type must see each
 * value land in its own field (the string and bool branches once wrote `bind` and
 * `access_log` whatever the row said). */
#include "config/config_keys.h"

typedef struct {
    char first[8];
    bool flag_a;
    char second[16];
    bool flag_b;
    uint32_t small;
    uint64_t big;
} two_of_each;

#define K(field, type, lo, hi) CBD_CONFIG_KEY(two_of_each, field, type, lo, hi)
static const cbd_config_key two_keys[] = {
    K(first, CBD_KEY_STRING, 0, 0),   K(flag_a, CBD_KEY_BOOL, 0, 1),
    K(second, CBD_KEY_STRING, 0, 0),  K(flag_b, CBD_KEY_BOOL, 0, 1),
    K(small, CBD_KEY_UINT, 0, 70000), K(big, CBD_KEY_UINT, 0, UINT64_MAX),
};
#undef K

Test(config_keys, text_values_land_in_their_own_fields) {
    two_of_each v;
    memset(&v, 0, sizeof v);
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbdp_config_key_set_text(&two_keys[2], &v, "second!", "s", &p));
    cr_assert(cbdp_config_key_set_text(&two_keys[3], &v, "true", "s", &p));
    cr_assert(cbdp_config_key_set_text(&two_keys[4], &v, "65537", "s", &p));
    cr_assert(cbdp_config_key_set_text(&two_keys[5], &v, "18446744073709551615", "s", &p));
    cr_expect_str_eq(v.second, "second!");
    cr_expect_str_eq(v.first, "");
    cr_expect(v.flag_b);
    cr_expect_not(v.flag_a);
    cr_expect_eq(v.small, 65537u);
    cr_expect_eq(v.big, UINT64_MAX);
    /* A string is bounded by its own field: 8 bytes hold at most 7. */
    cr_expect(cbdp_config_key_set_text(&two_keys[0], &v, "1234567", "s", &p));
    cr_expect_not(cbdp_config_key_set_text(&two_keys[0], &v, "12345678", "first", &p));
    cr_expect_str_eq(v.first, "1234567");
    cr_expect_str_eq(p.errors[0].pointer, "first");
    cr_expect_str_eq(p.errors[0].detail, "must be a non-empty string of at most 7 bytes");
}

Test(config_keys, file_values_land_in_their_own_fields) {
    two_of_each v;
    memset(&v, 0, sizeof v);
    cbd_problem p;
    cbd_problem_init(&p);
    const char *text = "{\"second\": \"two\", \"flag_b\": true, \"first\": \"one\"}";
    json_t *doc = json_loads(text, 0, NULL);
    const char *names[] = {"first", "flag_a", "second", "flag_b", "small", "big", NULL};
    cbd_reader r;
    cr_assert(cbd_reader_open(&r, doc, "/s", names, &p));
    cr_assert(cbdp_config_keys_read(&r, two_keys, 6, &v));
    cr_expect_str_eq(v.first, "one");
    cr_expect_str_eq(v.second, "two");
    cr_expect_not(v.flag_a);
    cr_expect(v.flag_b);
    json_decref(doc);
}

Test(config, warapp_limits_are_read_through_their_rows) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert(load(&cfg,
                   "{\"warapp\": {\"max_targets\": 7, \"max_trials\": 123, "
                   "\"max_listed_battles\": 0, \"max_graph_terms\": 1000}}",
                   &p),
              "%s", p.detail);
    cr_expect_eq(cfg.api.warapp.max_targets, 7u);
    cr_expect_eq(cfg.api.warapp.max_trials, 123u);
    cr_expect_eq(cfg.api.warapp.max_listed_battles, 0u);
    cr_expect_eq(cfg.api.warapp.max_graph_terms, 1000u);
    cr_expect_eq(cfg.api.warapp.max_graph_points, 10000u); /* untouched: the default */
    cr_expect_not(load(&cfg, "{\"warapp\": {\"max_targets\": 101}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/warapp/max_targets");
}

/* W26: the blockade multipliers are exact decimals (W3) from 0 to 100, 3 by default; the file
 * takes 2.5 as 2,500,000 millionths and refuses 100.5 and a seventh decimal, naming the key. */
Test(config, w26_blockade_multipliers_are_decimal_keys) {
    cbd_settings cfg;
    cbd_problem p;
    cbd_settings_defaults(&cfg);
    cr_expect_eq(cfg.api.warapp.blockade_multiplier, 3000000u);
    cr_expect_eq(cfg.api.warapp.emergency_blockade_multiplier, 3000000u);
    cr_assert(load(&cfg,
                   "{\"warapp\": {\"blockade_multiplier\": 2.5, "
                   "\"emergency_blockade_multiplier\": 0}}",
                   &p),
              "%s", p.detail);
    cr_expect_eq(cfg.api.warapp.blockade_multiplier, 2500000u);
    cr_expect_eq(cfg.api.warapp.emergency_blockade_multiplier, 0u);
    cr_expect_not(load(&cfg, "{\"warapp\": {\"blockade_multiplier\": 100.5}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/warapp/blockade_multiplier");
    cr_expect_not(load(&cfg, "{\"warapp\": {\"emergency_blockade_multiplier\": 1.1234567}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/warapp/emergency_blockade_multiplier");
}

/* The worker pool, the send deadline, the answer cap and the armies_needed budget are
 * ordinary keys of the file and the environment, with their ranges. */
Test(config, bounded_work_keys) {
    cbd_settings cfg;
    cbd_problem p;
    cr_assert(load(&cfg,
                   "{\"server\": {\"workers\": 3, \"worker_queue\": 0, \"worker_share\": 2,"
                   " \"send_deadline\": 5, \"max_answer_bytes\": 65536,"
                   " \"inline_cost_ns\": 0}, \"warapp\": {\"max_needed_terms\": 1000}}",
                   &p),
              "%s", p.detail);
    cr_expect_eq(cfg.server.workers, 3u);
    cr_expect_eq(cfg.server.worker_queue, 0u);
    cr_expect_eq(cfg.server.worker_share, 2u);
    cr_expect_eq(cfg.server.send_deadline, 5u);
    cr_expect_eq(cfg.api.limits.max_answer_bytes, 65536u);
    cr_expect_eq(cfg.api.limits.inline_cost_ns, 0u);
    cr_expect_eq(cfg.api.warapp.max_needed_terms, 1000u);
    cr_expect_not(load(&cfg, "{\"server\": {\"send_deadline\": 0}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/server/send_deadline");
    cr_expect_not(load(&cfg, "{\"server\": {\"max_answer_bytes\": 4095}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/server/max_answer_bytes");
    char *env[] = {"COMBATD_WORKER_SHARE=7", NULL};
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    cr_assert(cbd_config_apply_env(&cfg, env, &p), "%s", p.detail);
    cr_expect_eq(cfg.server.worker_share, 7u);
}

/* The mcp section: on by default, off from the file, the environment or a flag's text alike;
 * anything but a boolean, or another key, is refused naming it. */
Test(config, mcp_enabled_is_read_from_the_file_and_the_environment) {
    cbd_settings cfg;
    cbd_problem p;
    cbd_settings_defaults(&cfg);
    cr_expect(cfg.api.mcp.enabled);
    cr_assert(load(&cfg, "{\"mcp\": {\"enabled\": false}}", &p), "%s", p.detail);
    cr_expect_not(cfg.api.mcp.enabled);
    cr_expect_not(load(&cfg, "{\"mcp\": {\"enabled\": \"no\"}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/mcp/enabled");
    cr_expect_not(load(&cfg, "{\"mcp\": {\"path\": \"/x\"}}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/mcp/path");
    cr_expect_not(load(&cfg, "{\"mcp\": true}", &p));
    cr_expect_str_eq(p.errors[0].pointer, "/mcp");

    char *env[] = {"COMBATD_MCP_ENABLED=false", NULL};
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    cr_assert(cbd_config_apply_env(&cfg, env, &p), "%s", p.detail);
    cr_expect_not(cfg.api.mcp.enabled);
    char *bad[] = {"COMBATD_MCP_ENABLED=maybe", NULL};
    cbd_problem_init(&p);
    cr_expect_not(cbd_config_apply_env(&cfg, bad, &p));
    cr_expect_str_eq(p.errors[0].pointer, "environment COMBATD_MCP_ENABLED");
    char *unknown[] = {"COMBATD_MCP_PATH=/x", NULL};
    cbd_problem_init(&p);
    cr_expect_not(cbd_config_apply_env(&cfg, unknown, &p));
}

/* jansson may drop a digit when an allocation of its lexer fails (json_alloc.h): a config file
 * whose parse lost any of its allocations, each failed in turn, is refused as out of memory
 * (500), never read with a port cut short nor refused as a bad file. */
Test(config, a_parse_that_lost_an_allocation_is_out_of_memory) {
#if FAILING_ALLOCATOR
    static const char text[] = "{\"server\": {\"port\": 10001, \"bind\": \"127.0.0.1\"}}";
    cbd_settings cfg;
    cbd_problem p;
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    failing_alloc_arm(0);
    cr_assert(cbd_config_load_text(&cfg, text, strlen(text), &p), "%s", p.detail);
    long n = failing_alloc_disarm();
    cr_expect_eq(cfg.server.port, 10001);
    cr_assert_gt(n, 0);
    for (long k = 1; k <= n; k++) {
        cbd_settings_defaults(&cfg);
        cbd_problem_init(&p);
        failing_alloc_arm(k);
        bool ok = cbd_config_load_text(&cfg, text, strlen(text), &p);
        (void)failing_alloc_disarm();
        cr_expect_not(ok, "allocation %ld of %ld", k, n);
        cr_expect_eq(p.status, 500, "allocation %ld: %s", k, p.detail);
        cr_expect_str_eq(p.detail, "out of memory reading the configuration");
    }
#endif
}
