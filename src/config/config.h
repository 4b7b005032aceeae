#ifndef COMBATD_CONFIG_CONFIG_H
#define COMBATD_CONFIG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api_config.h"
#include "config_keys.h"
#include "json/problem.h"
#include "http/server_config.h"

/*
 * The service configuration, above the api and the http layer: the loader fills what the
 * endpoints read (cbd_config, api_config.h) and what the daemon reads (cbd_server_config,
 * server_config.h) from one file, and main.c hands each its part. Precedence (lowest first):
 * built-in defaults < the config file (config/combatd.json or --config) < COMBATD_*
 * environment < command-line flags.
 */
typedef struct {
    cbd_server_config server; /* the daemon's (server_config.h) */
    cbd_config api;           /* the endpoints' (api_config.h) */
} cbd_settings;

/* The built-in defaults of both parts. */
void cbd_settings_defaults(cbd_settings *cfg);

/*
 * Applies a JSON config file over *cfg. Unknown keys and bad values are errors naming the
 * member's JSON pointer. Returns false and fills *problem on any error (including I/O).
 */
bool cbd_config_load_file(cbd_settings *cfg, const char *path, cbd_problem *problem);

/* The same from a JSON text in memory (the file loader and the fuzzer use it). */
bool cbd_config_load_text(cbd_settings *cfg, const char *text, size_t len, cbd_problem *problem);

/*
 * Applies COMBATD_<KEY> variables (KEY is a server key in upper case, e.g. COMBATD_PORT,
 * COMBATD_BODY_LIMIT, COMBATD_CORS_ORIGINS as a comma-separated list; or MCP_ and a key of the
 * mcp section, COMBATD_MCP_ENABLED) from envp.
 */
bool cbd_config_apply_env(cbd_settings *cfg, char *const *envp, cbd_problem *problem);

/* Sets one server key from text, as a flag or a variable gives it; `source` names it. */
bool cbd_config_set_server_key(cbd_settings *cfg, const char *key, const char *value,
                               const char *source, cbd_problem *problem);

/* The key table of a config section ("server", "warapp" or "duper": the rows config.c reads,
 * without warapp's `defaults` object and duper's rules) and its length in *n, or NULL for
 * another name. docs/configuration.md's tables are checked against these rows (test_config_docs.c).
 */
const cbd_config_key *cbd_config_key_table(const char *section, size_t *n);

#endif
